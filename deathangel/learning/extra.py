"""The ``rl`` extra: what the learning environments need beyond the base install, and the one
line a user gets without it.

The base install stays light (no numpy, no gymnasium); every module of
:mod:`deathangel.learning` that needs the extra imports it inside ``try`` and turns a missing
package into :class:`MissingExtraError`, whose message is one line naming the extra.
"""

from __future__ import annotations

from deathangel.errors import MissingExtraError

EXTRA = "rl"
"""The extra that brings gymnasium, pettingzoo, open-spiel and numpy."""

INSTALL_HINT = f"pip install 'deathangel[{EXTRA}]'"

__all__ = ["EXTRA", "INSTALL_HINT", "MissingExtraError", "missing_extra"]


def missing_extra(exc: ImportError, what: str = "the learning environments") -> MissingExtraError:
    """The one-line error for a package of the extra that failed to import (``exc``), for
    ``what`` needs it."""
    name = exc.name or "a package of the extra"
    return MissingExtraError(
        f"{what} need the {EXTRA!r} extra ({name} is not installed): {INSTALL_HINT}"
    )

"""Learning environments: Death Angel for Gymnasium, PettingZoo and OpenSpiel.

Built only on the seats' honest observations and the decision protocol: an action table gives
every option of a card pool a fixed index (:mod:`.actions`), an encoder turns an observation
into fixed-shape arrays (:mod:`.encoding`), and three thin environments put them behind the
standard interfaces:

- Gymnasium: ``gymnasium.make("deathangel/DeathAngel-v0", players=...)`` (:mod:`.gym_env`),
  registered when this package is imported;
- PettingZoo: :func:`aec_env` (one agent per seat, :mod:`.pettingzoo_env`);
- OpenSpiel: the game ``python_deathangel``, registered when :mod:`.openspiel` is imported;

and a trained agent back at a seat of any command: :class:`PolicyPlayer` for any function of
the encoded observation and mask, :func:`load_policy` for a policy file (:mod:`.policy`;
the strategy ``policy:model=FILE.npz`` with ``--with policy``).

They need the ``rl`` extra (``pip install 'deathangel[rl]'``); without it, using them raises
:class:`~deathangel.learning.extra.MissingExtraError`, one line naming the extra. Importing
this package itself needs nothing beyond the base install.
"""

from __future__ import annotations

import contextlib
import importlib
from typing import Any

GYM_ID = "deathangel/DeathAngel-v0"
"""The Gymnasium id of :class:`~deathangel.learning.gym_env.DeathAngelEnv`."""

_EXPORTS = {
    "ActionTable": "deathangel.learning.actions",
    "action_table": "deathangel.learning.actions",
    "ACTION_TABLE_VERSION": "deathangel.learning.actions",
    "IllegalActionError": "deathangel.learning.actions",
    "Encoder": "deathangel.learning.encoding",
    "encoder": "deathangel.learning.encoding",
    "ENCODING_VERSION": "deathangel.learning.encoding",
    "DeathAngelEnv": "deathangel.learning.gym_env",
    "aec_env": "deathangel.learning.pettingzoo_env",
    "raw_env": "deathangel.learning.pettingzoo_env",
    "env": "deathangel.learning.pettingzoo_env",
    "MissingExtraError": "deathangel.learning.extra",
    "PolicyPlayer": "deathangel.learning.policy",
    "load_policy": "deathangel.learning.policy",
    "PolicyFileError": "deathangel.learning.policy",
}

__all__ = ["GYM_ID", *_EXPORTS]


def __getattr__(name: str) -> Any:
    """Import an exported name's module the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deathangel.learning' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def register_gym() -> None:
    """Register :data:`GYM_ID` with Gymnasium (done on import when Gymnasium is installed).

    Gymnasium 1.x no longer reads third-party entry points itself, so the id is registered
    with its entry point (``deathangel.learning.gym_env:DeathAngelEnv``) by importing this
    package; ``gymnasium.make("deathangel.learning:deathangel/DeathAngel-v0")`` does that
    import on its own.
    """
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="deathangel.learning.gym_env:DeathAngelEnv")


# Without the rl extra there is nothing to register: the environments say which extra when
# they are used.
with contextlib.suppress(ImportError):
    register_gym()

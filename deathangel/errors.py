"""The few exceptions deathangel raises on purpose.

Each subclasses a builtin so callers can catch broadly, and each message quotes the bad input
and says where it was (file/card/field, or round/phase), so the CLI can print it as one line.
"""

from __future__ import annotations


class DeathAngelError(Exception):
    """Base of every error the CLI turns into a one-line message and a non-zero exit."""


class CardDataError(DeathAngelError, ValueError):
    """A card file is malformed: the message names the file, the card and the field."""


class IllegalChoiceError(DeathAngelError, ValueError):
    """An option that is not among the pending decision's legal options; nothing changed."""


class SaveFileError(DeathAngelError, ValueError):
    """A save or replay file is corrupt, foreign or from an incompatible engine."""


class PluginError(DeathAngelError, RuntimeError):
    """A plugin failed to load or registered something invalid; the message names it."""


class UnknownCardError(DeathAngelError, KeyError):
    """No card has the name asked for; the message names close matches."""

    def __str__(self) -> str:
        # KeyError would quote the message; this is a sentence for people.
        return str(self.args[0]) if self.args else ""


class RuleFileError(DeathAngelError, ValueError):
    """A rule file (strategy ``rules``) is broken: the message names the file, the line and
    what was expected there."""

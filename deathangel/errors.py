"""The few exceptions deathangel raises on purpose.

Each subclasses a builtin so callers can catch broadly, and each message quotes the bad input
and says where it was (file/card/field, or round/phase), so the CLI can print it as one line.
"""

from __future__ import annotations


class DeathAngelError(Exception):
    """Base of every error the CLI turns into a one-line message and a non-zero exit."""


class MissingExtraError(DeathAngelError, ImportError):
    """An optional part of deathangel is not installed; the message names the extra to
    install (``pip install 'deathangel[cluster]'``)."""


class CardDataError(DeathAngelError, ValueError):
    """A card file is malformed: the message names the file, the card and the field."""


class IllegalChoiceError(DeathAngelError, ValueError):
    """An option that is not among the pending decision's legal options; nothing changed."""


class SaveFileError(DeathAngelError, ValueError):
    """A save or replay file is corrupt, foreign or from an incompatible engine."""


class PluginError(DeathAngelError, RuntimeError):
    """A plugin failed to load or registered something invalid; the message names it."""


class PluginEffectError(PluginError):
    """A plugin's card effect raised while a game was played. The message names the plugin,
    the card and the effect, where in the game it happened, and the exception in one line;
    the exception itself (with its traceback, for the plugin's author) is ``__cause__``."""

    def __init__(self, plugin: str, effect: str, card: str, where: str, error: str) -> None:
        self.plugin = plugin
        """The plugin as messages name it: ``'hive' (deathangel-hive 1.0)``."""
        self.effect = effect
        self.card = card
        """The card whose effect it was, with its kind: ``event 'Quiet Hum'``."""
        self.where = where
        """Where in the game: ``round 2, phase event``; a caller may add the game's seed."""
        self.error = error
        """``Type: message`` of the exception the effect raised."""
        super().__init__(plugin, effect, card, where, error)

    def in_game(self, words: str) -> None:
        """Add to :attr:`where` what only the caller knows (``game seed 7``)."""
        self.where = f"{self.where}, {words}"
        self.args = (self.plugin, self.effect, self.card, self.where, self.error)

    def __str__(self) -> str:
        return (
            f"plugin {self.plugin}: effect {self.effect!r} of {self.card} failed "
            f"({self.where}): {self.error}"
        )


class UnknownCardError(DeathAngelError, KeyError):
    """No card has the name asked for; the message names close matches."""

    def __str__(self) -> str:
        # KeyError would quote the message; this is a sentence for people.
        return str(self.args[0]) if self.args else ""


class RuleFileError(DeathAngelError, ValueError):
    """A rule file (strategy ``rules``) is broken: the message names the file, the line and
    what was expected there."""

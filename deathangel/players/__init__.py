"""Players: the protocol a seat's controller follows, and the strategies that ship with the game."""

from deathangel.players.base import Player
from deathangel.players.random import RandomPlayer
from deathangel.players.rules.player import RuleSet, RulesPlayer

__all__ = ["Player", "RandomPlayer", "RuleSet", "RulesPlayer"]

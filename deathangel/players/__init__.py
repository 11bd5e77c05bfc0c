"""Players: the protocol a seat's controller follows, and the strategies that ship with the game."""

from deathangel.players.base import Player
from deathangel.players.random import RandomPlayer

__all__ = ["Player", "RandomPlayer"]

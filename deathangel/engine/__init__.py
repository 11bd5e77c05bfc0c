"""The rules engine: game state, the phase engine, card abilities, the decision protocol, and
:class:`Game`, the protocol players and tools drive.

Most users need only the names re-exported here.
"""

from deathangel.engine.decisions import Decision, Option
from deathangel.engine.game import Game, GameConfig, new_game
from deathangel.engine.observation import Observation

__all__ = ["Decision", "Game", "GameConfig", "Observation", "Option", "new_game"]

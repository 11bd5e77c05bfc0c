"""Scenario files: a mid-game situation written by hand (format in ``docs/scenarios.md``),
checked against the cards and turned into a game that starts there."""

from deathangel.scenario.build import scenario_state
from deathangel.scenario.file import Scenario, ScenarioError, read_scenario_file
from deathangel.scenario.load import describe_state, load_scenario, scenario_game

__all__ = [
    "Scenario",
    "ScenarioError",
    "describe_state",
    "load_scenario",
    "read_scenario_file",
    "scenario_game",
    "scenario_state",
]

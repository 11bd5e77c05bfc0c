"""Two plugins planted for the designer's tools, installed for real (:func:`plugin_kit.
fake_site`): ``overpowered`` adds the gold team, whose attack card Annihilation slays up to
nine genestealers whatever the die shows (so ``balance`` and the card report must find it);
``faulty`` adds the rust team, whose support card Rusty Gift puts a support token on a marine
without taking it from the supply (so ``check`` must find the broken invariant, RULES §12).

Each team is otherwise plain: cards with no ability, so what the tools find is the planted
card's doing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from plugin_kit import fake_site

OVERPOWERED = """\
    from pathlib import Path
    from deathangel.cards.manifest import Manifest
    from deathangel.plugins import hookimpl

    HERE = Path(__file__).resolve().parent

    @hookimpl
    def deathangel_manifest():
        return Manifest(api=1, title="Overpowered", summary="The gold team.")

    @hookimpl
    def deathangel_card_dirs():
        return [HERE / "overpowered_cards"]
"""

GOLD = """\
    [[team]]
    color = "gold"

    [[team.marine]]
    name = "Brother Aurum"
    range = 3

    [[team.marine]]
    name = "Sergeant Midas"
    range = 3

    [[team.action]]
    name = "Gilded Guard"
    initiative = 31
    kind = "support"
    text = "A plain support action."

    [[team.action]]
    name = "Golden Step"
    initiative = 32
    kind = "move_activate"
    text = "A plain move + activate action."

    [[team.action]]
    name = "Annihilation"
    initiative = 33
    kind = "attack"
    text = "Whatever a marine of this team rolls in attack, slay up to 9 of the target swarm."
    effect = { name = "attack_face_slays", faces = [0, 1, 2, 3, 4, 5], up_to = 9 }
"""

FAULTY = """\
    from pathlib import Path
    from deathangel.cards.catalogue import EffectSpec
    from deathangel.cards.manifest import Manifest
    from deathangel.plugins import hookimpl

    HERE = Path(__file__).resolve().parent

    @hookimpl
    def deathangel_manifest():
        return Manifest(api=1, title="Faulty", summary="The rust team.")

    @hookimpl
    def deathangel_card_dirs():
        return [HERE / "faulty_cards"]

    @hookimpl
    def deathangel_effects():
        return [EffectSpec("rusty_gift", "support_after", {}, "One more token (from nowhere).")]

    def rusty_gift(engine, team, card, params):
        # The planted fault: a token appears on a marine and the supply is not charged.
        for pos in engine.state.formation:
            if pos.marine.team == team:
                pos.marine.tokens += 1
                break
        return
        yield

    @hookimpl
    def deathangel_effect_implementations():
        return {"rusty_gift": rusty_gift}
"""

RUST = """\
    [[team]]
    color = "rust"

    [[team.marine]]
    name = "Brother Ferrum"
    range = 1

    [[team.marine]]
    name = "Sergeant Oxide"
    range = 2

    [[team.action]]
    name = "Rusty Gift"
    initiative = 41
    kind = "support"
    text = "After the support token, one more on a marine of this team."
    effect = { name = "rusty_gift" }

    [[team.action]]
    name = "Rusty Step"
    initiative = 42
    kind = "move_activate"
    text = "A plain move + activate action."

    [[team.action]]
    name = "Rusty Shot"
    initiative = 43
    kind = "attack"
    text = "A plain attack action."
"""


def designer_site(folder: Path) -> Path:
    """A site folder with both plugins installed (put it on ``sys.path`` or ``PYTHONPATH``)."""
    return fake_site(
        folder,
        "deathangel-designer-tests",
        "0.1",
        {"overpowered_plugin": OVERPOWERED, "faulty_plugin": FAULTY},
        {"overpowered": "overpowered_plugin", "faulty": "faulty_plugin"},
        {"overpowered_cards/team.toml": GOLD, "faulty_cards/team.toml": RUST},
    )


def run_with_site(*args: str, site: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``deathangel ARGS`` in a subprocess that finds the designer plugins in ``site`` (wide
    enough that tables are not wrapped)."""
    env = {**os.environ, "PYTHONPATH": str(site), "COLUMNS": "250"}
    return subprocess.run(
        [sys.executable, "-m", "deathangel", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        stdin=subprocess.DEVNULL,
        check=False,
    )


STOPPER = """
import os
import signal

from deathangel.cards.manifest import Manifest
from deathangel.players import RandomPlayer
from deathangel.plugins.hookspecs import API_VERSION, hookimpl


class Stopper(RandomPlayer):
    \"\"\"Random; in the third game it plays it sends its own process SIGTERM at its first
    decision, as a batch system would when a job's time is up, at a moment the test knows.\"\"\"

    games = 0

    def start_game(self, seats, observation):
        Stopper.games += 1
        self.stop = Stopper.games == 3

    def choose(self, observation, decision):
        if self.stop:
            self.stop = False
            os.kill(os.getpid(), signal.SIGTERM)
        return super().choose(observation, decision)


@hookimpl
def deathangel_manifest():
    return Manifest(api=API_VERSION)


@hookimpl
def deathangel_strategies():
    return {"stopper": Stopper}
"""


def stopper_site(folder: Path) -> Path:
    """A site folder with the ``stopper`` plugin installed: its strategy plays at random and
    sends its own process SIGTERM in its third game (the test of a stop at a known moment)."""
    return fake_site(
        folder, "stopper", "1.0", {"stopper_plugin": STOPPER}, {"stopper": "stopper_plugin"}
    )

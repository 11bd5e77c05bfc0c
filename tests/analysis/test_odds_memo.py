"""The odds memos against the full enumeration, on random situations (analysis.odds).

``phase_odds`` and ``attack_odds`` share work through memos keyed by where the flow stands:
the state, the segment, and at a reroll decision the roll's face and its reroll count. A key
that leaves out something the rest of the flow depends on gives wrong odds without any error,
so these properties compare the memoised answer with ``memo=False`` (every branch enumerated)
exactly, as fractions, on random situations.

The situations are chosen to reach what the memo keys must tell apart: several marines and
swarms (a marine slain by one swarm shifts the formation, and a swarm that has not attacked
yet reaches a marine who has already defended, RULES §7, §9), 0-3 support tokens on marines
(reroll chains, §6.4), Brood Lords (−1 each), the defence cards, and Attack cards that give
several attacks (Full Auto, Psionic Attack). Defensive Stance is the one ability that reads how
many times a roll was rerolled, so its team is always in the phase situations. Sizes are kept
small enough that the unmemoised enumeration takes a second or two at most.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st

from deathangel.analysis.odds import OddsError, PhaseOdds, attack_odds, phase_odds
from deathangel.cards.load import load_base
from deathangel.engine.state import GameState
from deathangel.scenario import scenario_state
from deathangel.scenario.file import parse_scenario

DB = load_base()
LONG = os.environ.get("DEATHANGEL_PROPERTIES") == "long"
SETTINGS = settings(
    # Each example is a full enumeration of up to FULL_LIMIT positions (half a second at
    # most, most far less): 25 examples keep a property near 10 s on one core.
    max_examples=250 if LONG else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]

ICONS = ["claw", "tongue", "tail", "head"]
SIDES = ["left", "right"]
DEFENCE = {"yellow": "Defensive Stance", "blue": "Counter Attack", "green": "Block"}
"""The Support cards that act while a marine defends (cards/base/teams.toml)."""


def marines_of(team: str) -> list[str]:
    return [m.name for m in DB.team(team).marines]


def state_of(data: dict[str, Any]) -> GameState:
    """The state a scenario (as parsed TOML) describes: the real scenario loader checks it."""
    return scenario_state(parse_scenario(data, "<property>"), DB)


@st.composite
def swarm(draw: st.DrawFn, lords: list[str], most: int = 3) -> list[str]:
    """1 to ``most`` genestealers, sometimes with a Brood Lord not used elsewhere."""
    cards = draw(st.lists(st.sampled_from(ICONS), min_size=1, max_size=most))
    if lords and draw(st.integers(0, 3)) == 0:
        cards[-1] = lords.pop(0)
    return cards


@st.composite
def tokens_for(draw: st.DrawFn, rows: int, total: int = 3) -> list[int]:
    """Support tokens per row, at most ``total`` in all."""
    tokens = []
    left = total
    for _ in range(rows):
        n = draw(st.integers(0, left))
        tokens.append(n)
        left -= n
    return tokens


def row(marine: str, facing: str, tokens: int, swarms: dict[str, list[str]]) -> dict[str, Any]:
    return {"marine": marine, "facing": facing, "tokens": tokens, **swarms}


@st.composite
def phase_situations(draw: st.DrawFn) -> dict[str, Any]:
    """A Genestealer Attack phase of 3-4 marines (a solo game: 2-3 teams, yellow always).

    Three swarms at most. One row is a *shift trap* more often than chance would make it: a
    marine who may be slain by his left swarm (which attacks first at his row, §7) while his
    right swarm has not attacked yet; whichever segment moves into his gap (§9) may meet it.
    """
    others = draw(
        st.lists(
            st.sampled_from(["blue", "green", "red", "grey"]), min_size=1, max_size=2, unique=True
        )
    )
    teams = ["yellow", *others]
    count = draw(st.integers(3, 4), label="marines")
    names = draw(st.permutations([m for t in teams for m in marines_of(t)]))[:count]
    shown = {team for team in teams if set(marines_of(team)) & set(names)}
    facings = draw(st.lists(st.sampled_from(SIDES), min_size=count, max_size=count))
    tokens = draw(tokens_for(count))
    lords = draw(st.permutations(["Brood Lord A", "Brood Lord B"]))
    swarms: list[dict[str, list[str]]] = [{} for _ in range(count)]
    if draw(st.booleans(), label="shift trap"):
        trap = draw(st.integers(1, count - 2), label="trap row")
        swarms[trap]["left"] = draw(swarm(lords))
        swarms[trap]["right"] = draw(swarm(lords, most=2))
        spots = 1
    else:
        spots = 3
    free = [(r, s) for r in range(count) for s in SIDES if s not in swarms[r]]
    for r, s in draw(st.lists(st.sampled_from(free), min_size=1, max_size=spots, unique=True)):
        swarms[r][s] = draw(swarm(lords, most=2))
    data: dict[str, Any] = {
        "formation": [row(names[i], facings[i], tokens[i], swarms[i]) for i in range(count)],
        "revealed": [
            card for team, card in DEFENCE.items() if team in shown and draw(st.booleans())
        ],
    }
    if draw(st.integers(0, 4)) == 0:
        data["second_wind"] = [draw(st.sampled_from(names))]
    if draw(st.integers(0, 4)) == 0:
        data["artefact"] = 1
    return data


@st.composite
def reroll_chains_across_a_shift(draw: st.DrawFn) -> dict[str, Any]:
    """A yellow marine at the top defends with tokens under Defensive Stance, then may defend
    again after a shift (RULES §7, §9): the marine below him may be slain by his left swarm,
    which attacks before his right one; the top segment is the smaller, so it moves down into
    the gap and meets that right swarm, which has not attacked yet. Having spent a token or
    not, the second defence can start from the state a reroll of the first reaches; only the
    reroll count tells them apart, and Defensive Stance reads it (§14.20)."""
    # Not blue: Counter Attack's repeated attacks multiply the full enumeration tenfold (the
    # general property has it).
    others = draw(
        st.lists(
            st.sampled_from(["green", "red", "grey", "purple"]),
            min_size=2,
            max_size=2,
            unique=True,
        )
    )
    top = draw(st.sampled_from(marines_of("yellow")), label="defender")
    pool = [m for t in ["yellow", *others] for m in marines_of(t) if m != top]
    names = [top, *draw(st.permutations(pool))[:3]]
    shown = {t for t in others if set(marines_of(t)) & set(names)}
    # He faces right: support rerolls need the swarm in front (§6.4), and the swarm that meets
    # him after the shift is a right one.
    facings = ["right", *draw(st.lists(st.sampled_from(SIDES), min_size=3, max_size=3))]
    # Two tokens: one spent on the first defence leaves one for a reroll of the second. More
    # multiply the full enumeration (three: about a million positions).
    tokens = [2, 0, 0, 0]
    lords = draw(st.permutations(["Brood Lord A", "Brood Lord B"]))
    swarms: list[dict[str, list[str]]] = [{}, {}, {}, {}]
    swarms[0]["right"] = draw(swarm(lords, most=2))
    swarms[1]["left"] = draw(swarm(lords))
    swarms[1]["right"] = draw(swarm(lords, most=2))
    revealed = ["Defensive Stance"]
    revealed += [DEFENCE[t] for t in sorted(shown) if t in DEFENCE and draw(st.booleans())]
    count = 4
    return {
        "formation": [row(names[i], facings[i], tokens[i], swarms[i]) for i in range(count)],
        "revealed": revealed,
    }


ATTACKERS = {
    "Full Auto": "Brother Leon",  # up to 3 attacks
    "Psionic Attack": "Lexicanium Calistarius",  # one more attack per skull, any swarm
    "Dead Aim": "Brother Noctis",  # a 4 slays up to 3
    "Lead by Example": "Sergeant Lorenzo",  # a slay may place a token, on him too
    "Flamer Attack": "Brother Zael",  # slays the face value
}
"""Attack cards and a marine of their team who may attack under them."""


@st.composite
def attack_situations(draw: st.DrawFn) -> tuple[dict[str, Any], str, str]:
    """One marine attacks under his team's revealed Attack card (or none): 2-4 marines,
    the target swarm at his row on the side he faces, up to two more swarms within reach
    (Psionic Attack's chains, Full Auto's later attacks), 0-3 tokens on him (0-2 under a card
    that gives more attacks or tokens: each token multiplies the full enumeration)."""
    card = draw(st.sampled_from([*ATTACKERS, None]), label="card")
    attacker = (
        ATTACKERS[card]
        if card is not None
        else draw(st.sampled_from(["Brother Leon", "Brother Goriel"]))
    )
    pool = [m.name for t in DB.teams for m in t.marines if m.name != attacker]
    count = draw(st.integers(2, 4), label="marines")
    names = draw(st.permutations(pool))[: count - 1]
    at = draw(st.integers(0, count - 1), label="attacker row")
    names.insert(at, attacker)
    facings = draw(st.lists(st.sampled_from(SIDES), min_size=count, max_size=count))
    facing = facings[at]
    tokens = [0] * count
    tokens[at] = draw(st.integers(0, 3 if card in (None, "Dead Aim", "Flamer Attack") else 2))
    lords = draw(st.permutations(["Brood Lord A", "Brood Lord B"]))
    swarms: list[dict[str, list[str]]] = [{} for _ in range(count)]
    swarms[at][facing] = draw(swarm(lords))
    free = [(r, s) for r in range(count) for s in SIDES if s not in swarms[r]]
    for r, s in draw(st.lists(st.sampled_from(free), max_size=2, unique=True)):
        swarms[r][s] = draw(swarm(lords, most=2))
    data: dict[str, Any] = {
        "formation": [row(names[i], facings[i], tokens[i], swarms[i]) for i in range(count)],
        "players": 6,
        "seats": [[t.color] for t in DB.teams],
        "revealed": [] if card is None else [card],
    }
    return data, attacker, f"{facing}:{at + 1}"


FULL_LIMIT = 8_000
"""Most positions the full enumeration of a random situation may take (a third of a second);
a bigger one is set aside (``reject``) rather than slowing the suite."""


def full_phase(state: GameState, limit: int = FULL_LIMIT) -> PhaseOdds:
    try:
        return phase_odds(state, DB, memo=False, limit=limit)
    except OddsError:
        reject()


@SETTINGS
@given(data=phase_situations())
def test_phase_odds_with_memos_equal_the_full_enumeration(data: dict[str, Any]) -> None:
    state = state_of(data)
    full = full_phase(state)
    memo = phase_odds(state, DB)
    assert memo.marines == full.marines
    assert memo.survivors == full.survivors
    assert memo.slain == full.slain
    assert sum(full.survivors.values()) == 1
    assert memo.positions <= full.positions


# Not shrunk: an example is already small, and each costs a second or two (shrinking a
# failure took over five minutes).
@settings(SETTINGS, max_examples=60 if LONG else 6, phases=NO_SHRINK)
@given(data=reroll_chains_across_a_shift())
def test_reroll_chains_across_a_shift_with_memos_equal_the_full_enumeration(
    data: dict[str, Any],
) -> None:
    # About 20,000 positions each (one to two seconds): few examples, each reaching the case.
    state = state_of(data)
    full = full_phase(state, limit=40_000)
    memo = phase_odds(state, DB)
    assert memo.marines == full.marines
    assert memo.survivors == full.survivors
    assert memo.slain == full.slain


@SETTINGS
@given(situation=attack_situations())
def test_attack_odds_with_memos_equal_the_full_enumeration(
    situation: tuple[dict[str, Any], str, str],
) -> None:
    data, attacker, target = situation
    state = state_of(data)
    try:
        full = attack_odds(state, DB, attacker, target, memo=False, limit=FULL_LIMIT)
    except OddsError:
        reject()
    memo = attack_odds(state, DB, attacker, target)
    assert (memo.card, memo.attacks, memo.tokens) == (full.card, full.attacks, full.tokens)
    assert memo.slain == full.slain
    assert sum(full.slain.values()) == 1
    assert memo.positions <= full.positions

"""``deathangel odds``: exact odds for a scenario file, by enumerating every die face.

A thin command over :mod:`deathangel.analysis.odds`: without options, the Genestealer Attack phase
played from the scenario (each marine's chance to survive it, genestealers slain); with
``--attack MARINE --target SIDE:POSITION``, that marine's attack under his team's revealed
Attack card. ``--json`` prints one JSON object with exact fractions as strings.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from deathangel.cli.expansions import VariantOption, WithOption, scenario_ruleset
from deathangel.errors import DeathAngelError

LIMIT_DEFAULT = 2_000_000


def odds_cli(
    scenario: Annotated[str, typer.Argument(help="A scenario file (TOML, docs/scenarios.md).")],
    attack: Annotated[
        str | None,
        typer.Option("--attack", help="Odds of this marine's attack instead of the phase."),
    ] = None,
    target: Annotated[
        str | None,
        typer.Option("--target", help="The swarm he attacks, as SIDE:POSITION (left:3)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object (exact fractions as strings).")
    ] = False,
    limit: Annotated[
        int, typer.Option("--limit", help="Give up after enumerating this many positions.")
    ] = LIMIT_DEFAULT,
    with_: WithOption = None,
    variant: VariantOption = None,
) -> None:
    """Exact odds of the Genestealer Attack phase, or of one attack, for a scenario.

    Every die face is enumerated (each 1/6); choices maximise expected survivors.

    With --attack, choices maximise the expected number of genestealers slain instead.
    """
    if (attack is None) != (target is None):
        raise DeathAngelError("--attack and --target go together: --attack MARINE --target left:3")
    if limit < 1:
        raise DeathAngelError(f"--limit must be at least 1, not {limit}")
    # Imported here so that other commands do not pay for the engine at start-up.
    from deathangel.analysis.odds import attack_odds, format_attack, format_phase, phase_odds
    from deathangel.scenario import load_scenario, scenario_state
    from deathangel.scenario.file import read_scenario_file

    # The scenario's own plugins and variants, then those of the options.
    rules = scenario_ruleset(read_scenario_file(scenario), with_, variant)
    db = rules.db
    sc = load_scenario(scenario, db=db)
    state = scenario_state(sc, db)
    ab, switches = rules.abilities, rules.switches
    if attack is not None and target is not None:
        result = attack_odds(
            state, db, attack, target, limit=limit, where=scenario, abilities=ab, switches=switches
        )
        data = result.to_dict()
        lines = format_attack(result)
    else:
        phase = phase_odds(state, db, limit=limit, where=scenario, abilities=ab, switches=switches)
        data = phase.to_dict()
        lines = format_phase(phase)
    if as_json:
        typer.echo(json.dumps({"scenario": scenario, "title": sc.title, **data}))
        return
    header = f"{scenario}" + (f": {sc.title}" if sc.title else "")
    typer.echo(header)
    for line in lines:
        typer.echo(line)

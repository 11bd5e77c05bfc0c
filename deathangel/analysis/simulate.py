"""Play whole games with bots, one or thousands, reproducibly.

:func:`play_game` plays one game to its end with one player object per seat and returns a
:class:`GameResult`. :func:`simulate` plays ``games`` games with seeds ``seed, seed + 1, ...``
and the same strategy at every seat, and sums them up in a :class:`SimulationSummary`.

Reproducibility: game ``i`` of a run uses ``GameConfig(players, seed=seed + i)`` and its bots
are made with ``factory(seed=bot_seed(key, seed + i, seat))``, where ``key`` is the run's bot
key (:mod:`deathangel.players.seeds`: a keyed one-way hash, so no bot can work the game's seed
out of its own). Nothing else feeds a game, so any one game of a run can be replayed alone,
and the same arguments with the same bot key always give the same numbers; a run without a
key draws a fresh one and reports it.

"Locations reached" counts the setup location too: a game that never travels reached 1
location; each travel (RULES §10) enters one more. With the base game's location decks that is
at most 1 + the number of cards in the setup location's location deck.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from attrs import frozen

from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.engine.setup import card_table
from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS
from deathangel.errors import DeathAngelError, IllegalChoiceError, PluginEffectError
from deathangel.players.base import (
    check_table,
    end_game,
    observes,
    start_game,
    uses_forward_model,
)
from deathangel.players.seeds import bot_seed, check_bot_key, new_bot_key
from deathangel.plugins.isolation import MakeBot
from deathangel.plugins.strategies import (
    Strategy,
    StrategyFactory,
    StrategySpec,
    parse_spec,
    strategies,
)

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase
    from deathangel.engine.ruleset import Ruleset
    from deathangel.engine.state import CardTable
    from deathangel.players import Player

Z95 = 1.959964
"""The standard normal quantile for a two-sided 95% interval."""

MAX_DECISIONS = 100_000
"""A game still running after this many decisions is an engine bug: stop and say so."""


# -- one game ------------------------------------------------------------------------------------


@frozen
class GameResult:
    """How one finished game went."""

    seed: int
    """The game's seed (its :class:`GameConfig` seed)."""
    players: int
    """Number of seats."""
    outcome: str
    """``"victory"`` or ``"defeat"``."""
    rounds: int
    """The round the game ended in (``state.round``; 0 if it ended during setup)."""
    locations_reached: int
    """1 (the setup location) + the number of travels made."""
    decisions: int
    """Decisions the players answered (forced single-option choices are not asked)."""
    marines_left: int = 0
    """Marines alive at the end."""
    genestealers_slain: int = 0
    """Genestealers (Brood Lords included) slain during the game."""
    cause: str | None = None
    """Why the last marine died, in a defeat (e.g. ``slain by genestealers from behind``)."""
    seconds: float = 0.0
    """Wall time the game took, players' thinking included."""

    @property
    def won(self) -> bool:
        return self.outcome == "victory"


def locations_reached(game: Game) -> int:
    """1 (the setup location) + the number of travels made so far.

    Only a travel takes a card from the location deck, so the travels made are the cards
    missing from the deck the setup location built (RULES §3 step 3, §10 step 2).
    """
    st = game.state
    if st.setup_location is None or st.phase == "setup":
        return 1
    return 1 + len(st.setup_location.location_deck) - len(st.location_deck)


def _player_name(player: object, names: Sequence[str] | None, seat: int) -> str:
    if names is not None:
        return names[seat - 1]
    return type(player).__name__


def play_game(
    config: GameConfig,
    strategies: Sequence[Player],
    *,
    db: CardDatabase | None = None,
    ruleset: Ruleset | None = None,
    names: Sequence[str] | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> GameResult:
    """Play one complete game; seat ``s`` is answered by ``strategies[s - 1]``.

    Each player is asked ``player.choose(game.observation(seat), decision)`` — or with
    ``None`` for a player that declares it never observes (see :mod:`deathangel.players.base`),
    which spares a snapshot per decision. ``ruleset`` plays it with expansions and variants
    (:func:`deathangel.plugins.load_ruleset`). The game records forward-model data only when a
    player uses it. A player object may sit at several seats; its ``start_game`` and
    ``end_game`` hooks are called once, with all of its seats. ``names`` (one per seat) name
    the strategies in errors; by default the player's class name is used.

    :raises IllegalChoiceError: when a player returns an option that is not legal, naming
        the strategy, the seat and the decision.
    :raises DeathAngelError: for a wrong number of players, or a game that does not end
        within ``max_decisions`` decisions.
    """
    if len(strategies) != config.players:
        raise DeathAngelError(
            f"{config.players} player(s) need {config.players} strategies, not {len(strategies)}"
        )
    if names is not None and len(names) != config.players:
        raise DeathAngelError(f"{config.players} player(s) need {config.players} names")
    players = list(strategies)
    forward = any(uses_forward_model(p) for p in players)
    started = time.perf_counter()
    try:
        # Nothing here clones the game, so no round checkpoints.
        game = Game(config, ruleset=ruleset, db=db, checkpoints=False, forward=forward)
    except ValueError as exc:
        raise DeathAngelError(str(exc)) from None
    return play_out(game, players, names=names, max_decisions=max_decisions, started=started)


def play_out(
    game: Game,
    players: Sequence[Player],
    *,
    names: Sequence[str] | None = None,
    max_decisions: int = MAX_DECISIONS,
    started: float | None = None,
    watch: Callable[[Game], None] | None = None,
) -> GameResult:
    """Play ``game`` from its start to its end, as :func:`play_game` does; for callers that
    need the game afterwards (its history, its log, its seats). ``game`` must have been made
    with forward-model records when a player uses them. ``started`` is when the clock began
    (``time.perf_counter()``; by default, now). ``watch(game)`` is called before each
    decision is asked (to keep positions as they are reached; it must not change the game)."""
    if started is None:
        started = time.perf_counter()
    config = game.config
    seats_of = _seats_of(players)
    for player, seats in seats_of:
        start_game(player, seats, partial(game.observation, seats[0]))
    looks = [observes(p) for p in players]
    observation = game.observation
    push = game.push
    count = 0
    decision = game.decision
    while decision is not None:
        if watch is not None:
            watch(game)
        seat = decision.seat
        player = players[seat - 1]
        option = player.choose(observation(seat) if looks[seat - 1] else None, decision)
        # A bot returns one of decision.options itself: the tuple's identity test makes this
        # check almost free, and push skips apply's second, identical check.
        if option not in decision.options:
            legal = ", ".join(repr(o) for o in decision.options)
            raise IllegalChoiceError(
                f"strategy {_player_name(player, names, seat)!r} (seat {seat}) chose "
                f"{option!r}, which is not legal for {decision.kind} (game seed {config.seed}, "
                f"round {game.state.round}, phase {game.state.phase}); legal: {legal}"
            )
        try:
            push(option)
        except PluginEffectError as exc:  # free until raised (zero-cost try, Python 3.11)
            exc.in_game(f"game seed {config.seed}")
            raise
        count += 1
        if count >= max_decisions:
            raise DeathAngelError(
                f"game seed {config.seed} ({config.players} player(s)) did not end after "
                f"{count} decisions (round {game.state.round}); this is an engine bug"
            )
        decision = game.decision
    outcome = game.outcome
    if outcome is None:  # pragma: no cover - the engine ends a game only with an outcome
        raise DeathAngelError(f"game seed {config.seed} stopped without an outcome")
    for player, seats in seats_of:
        end_game(player, outcome, partial(game.observation, seats[0]))
    deaths = game.engine.deaths
    return GameResult(
        seed=config.seed,
        players=config.players,
        outcome=outcome,
        rounds=game.state.round,
        locations_reached=locations_reached(game),
        decisions=count,
        marines_left=len(game.state.formation),
        genestealers_slain=game.engine.genestealers_slain,
        cause=deaths[-1][1] if outcome == "defeat" and deaths else None,
        seconds=time.perf_counter() - started,
    )


def _seats_of(players: Sequence[object]) -> list[tuple[object, tuple[int, ...]]]:
    """Each distinct player object with the seats it controls, in seat order."""
    seats: dict[int, list[int]] = {}
    first: dict[int, object] = {}
    for seat, player in enumerate(players, start=1):
        seats.setdefault(id(player), []).append(seat)
        first.setdefault(id(player), player)
    return [(first[key], tuple(s)) for key, s in seats.items()]


def bots(factory: StrategyFactory, players: int, game_seed: int, key: str) -> list[Player]:
    """One bot per seat, each seeded with :func:`~deathangel.players.seeds.bot_seed` under
    the run's ``key``."""
    return [factory(seed=bot_seed(key, game_seed, seat)) for seat in range(1, players + 1)]


def spec_bots(
    specs: Sequence[StrategySpec],
    game_seed: int,
    found: Mapping[str, Strategy],
    key: str,
    make: MakeBot | None = None,
) -> list[Player]:
    """One bot per seat from its strategy spec, each seeded with
    :func:`~deathangel.players.seeds.bot_seed` under the run's ``key``; ``make`` builds
    each (e.g. in a process of its own, :mod:`deathangel.plugins.isolation`), by default
    ``spec.make`` in this process."""
    return [
        make(spec, seat, bot_seed(key, game_seed, seat))
        if make is not None
        else spec.make(bot_seed(key, game_seed, seat), found=found)
        for seat, spec in enumerate(specs, start=1)
    ]


# -- many games ----------------------------------------------------------------------------------


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` out of ``n`` trials.

    Unlike the normal approximation it stays inside [0, 1] and is useful at 0 or n successes
    (all-loss runs are common for weak bots).
    """
    if n <= 0:
        raise ValueError(f"a confidence interval needs at least one trial, not {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials is impossible")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # At 0 (or n) successes the bound is exactly 0 (or 1); say so rather than round near it.
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


@frozen
class SimulationSummary:
    """What a run of :func:`simulate` found; the same arguments give the same summary."""

    players: int
    games: int
    seed: int
    """Seed of the first game; game ``i`` (from 0) has seed ``seed + i``."""
    strategy: str
    """The strategy spec at every seat, or the seats' specs joined by `` | ``."""
    wins: int
    losses: int
    mean_rounds: float
    mean_locations: float
    """Mean number of locations reached (the setup location counts as 1)."""
    mean_decisions: float
    causes: tuple[tuple[str, int], ...] = ()
    """Why the last marine died, with how many defeats each, most common first."""
    plugins: tuple[tuple[str, str], ...] = ()
    """Expansions the games were played with, as ``(name, version)``."""
    variants: tuple[tuple[str, str], ...] = ()
    """Rule variants the games were played with, as ``(name, value)``."""
    bot_key: str = ""
    """The run's bot key (:mod:`deathangel.players.seeds`): with the same arguments, it plays
    the same bots again."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; with ``sort_keys`` the same summary always prints the same bytes."""
        lo, hi = self.win_rate_ci95
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "strategy": self.strategy,
            "wins": self.wins,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "win_rate_ci95": [lo, hi],
            "mean_rounds": self.mean_rounds,
            "mean_locations": self.mean_locations,
            "mean_decisions": self.mean_decisions,
            "causes_of_defeat": {cause: n for cause, n in self.causes},
            "bot_key": self.bot_key,
            # Only when set: a base-game summary prints the same bytes as before.
            **({"plugins": dict(self.plugins)} if self.plugins else {}),
            **({"variants": dict(self.variants)} if self.variants else {}),
        }


Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each game."""


class SimulationInterrupted(KeyboardInterrupt):
    """A simulation stopped by Ctrl-C after some games: ``summary`` is of those games alone
    (seeds ``seed`` onward, as many as it says), ``wanted`` how many were asked for.

    Still a :class:`KeyboardInterrupt`: a script that calls :func:`simulate` stops as it
    would at Ctrl-C anywhere else; the command catches it to print the games played."""

    def __init__(self, summary: SimulationSummary, wanted: int) -> None:
        super().__init__()
        self.summary = summary
        self.wanted = wanted


def games_table(ruleset: Ruleset | None, db: CardDatabase | None = None) -> CardTable:
    """The card table games are played with: ``ruleset``'s (its cards and switches), else
    ``db``'s with the printed rules, else the base game's; what a player's ``check_table``
    hook is shown before the first game."""
    if ruleset is not None:
        return card_table(ruleset.db, ruleset.switches)
    return card_table(db if db is not None else default_database())


def simulate(
    players: int,
    games: int,
    seed: int,
    strategy: str | Sequence[str] = "random",
    progress: Progress | None = None,
    *,
    db: CardDatabase | None = None,
    pm: Any = None,
    ruleset: Ruleset | None = None,
    bot_key: str | None = None,
    make: MakeBot | None = None,
) -> SimulationSummary:
    """Play ``games`` games of ``players`` seats, every seat played by ``strategy`` (a
    strategy spec, see :mod:`deathangel.plugins.strategies`), or seat ``s`` by
    ``strategy[s - 1]`` when a list of specs is given.

    Game ``i`` (from 0) is ``GameConfig(players, seed=seed + i)`` with bots from
    :func:`spec_bots`; see the module docstring for why that makes each game reproducible
    alone. ``ruleset`` plays every game with its expansions and variants, and offers the
    strategies of its plugins (unless ``pm`` is given). ``bot_key`` seeds the bots (a fresh
    key when ``None``, reported in the summary); ``make`` builds each bot (e.g. in a process
    of its own), by default ``spec.make`` in this process.

    :raises DeathAngelError: for players outside 1–6, fewer than one game, an unknown
        strategy or parameter, a malformed bot key, or a bot that chooses an illegal option.
    :raises SimulationInterrupted: at Ctrl-C after at least one game, with the games played;
        before the first, the plain :class:`KeyboardInterrupt`.
    """
    if players not in PLAYER_COUNTS:
        raise DeathAngelError(
            f"players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, not {players}"
        )
    if games < 1:
        raise DeathAngelError(f"games must be at least 1, not {games}")
    texts = [strategy] * players if isinstance(strategy, str) else list(strategy)
    if len(texts) != players:
        raise DeathAngelError(f"{players} player(s) need {players} strategies, not {len(texts)}")
    specs = [parse_spec(text) for text in texts]
    try:
        key = new_bot_key() if bot_key is None else check_bot_key(bot_key)
    except ValueError as exc:
        raise DeathAngelError(f"--bot-key: {exc}") from None
    if pm is None and ruleset is not None:
        pm = ruleset.plugin_manager  # the strategies of the plugins the games are played with
    found = strategies(pm)
    if db is None and ruleset is None:
        db = default_database()
    table = games_table(ruleset, db)
    for spec in specs:
        # An unknown name or parameter, or a player that cannot play these cards (its
        # check_table hook), fails before any game.
        check_table(spec.make(0, found=found), table)
    names = [spec.text for spec in specs]
    wins = losses = rounds = locations = decisions = 0
    causes: Counter[str] = Counter()
    played = 0

    def summary() -> SimulationSummary:
        return SimulationSummary(
            causes=tuple(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))),
            players=players,
            games=played,
            seed=seed,
            strategy=texts[0] if len(set(texts)) == 1 else " | ".join(texts),
            wins=wins,
            losses=losses,
            mean_rounds=rounds / played,
            mean_locations=locations / played,
            mean_decisions=decisions / played,
            plugins=ruleset.plugins if ruleset is not None else (),
            variants=ruleset.variants if ruleset is not None else (),
            bot_key=key,
        )

    for i in range(games):
        game_seed = seed + i
        try:
            result = play_game(
                GameConfig(players, seed=game_seed),
                spec_bots(specs, game_seed, found, key, make),
                db=db,
                ruleset=ruleset,
                names=names,
            )
        except KeyboardInterrupt as exc:
            if played == 0:
                raise
            raise SimulationInterrupted(summary(), games) from exc
        played += 1
        wins += result.outcome == "victory"
        losses += result.outcome == "defeat"
        rounds += result.rounds
        locations += result.locations_reached
        decisions += result.decisions
        if result.cause is not None:
            causes[result.cause] += 1
        if progress is not None:
            progress(i + 1, games)
    return summary()

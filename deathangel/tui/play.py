"""The interactive game loop as a library: people and bots play one game at one terminal.

:class:`PlaySession` takes a :class:`~deathangel.engine.game.Game`, the controller of every seat
(``"human"`` or ``"bot:NAME"``), a source of answers and a rich ``Console``, and plays the game
to its end (or until someone quits or the answers run out). :func:`play` is the keyword-only
function behind ``deathangel play``: it builds or resumes the game and runs a session.

Every decision of a person is a numbered menu of the engine's legal options. At any prompt a
person may also type a command (``?``/``help``, ``cards [NAME]``, ``board``, ``log [all]``,
``save [FILE]``, ``quit``); anything else is explained in one line and asked again.

Secrecy at one shared screen (hot seat): before a person decides after another person, the
screen is cleared and the next player is asked to take over; the board is always drawn for
the deciding seat, so another seat's face-down action card or a hidden Instinct event is never
shown. Bots' face-down choices are narrated without the card. With scripted answers (a file
or a pipe) the hand-off is announced but not waited for, and every prompt is echoed with its
answer so the output reads as a transcript.

Saves are the engine's save (:meth:`Game.to_save`) plus a top-level ``"seats"`` key naming
each seat's controller, so a resumed game gets its bots back. A bot is seeded from the game's
seed and its seat (:func:`deathangel.analysis.simulate.bot_seed`) and, on resume, is asked again at
every past decision of its seat (answers discarded), so it stands exactly where it stood:
a resumed game continues as the uninterrupted one would have.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from attrs import frozen
from rich.columns import Columns
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from deathangel.analysis.simulate import bot_seed
from deathangel.engine.decisions import CHOOSE_ACTION, KIND_HELP, Decision, Option
from deathangel.engine.game import (
    Game,
    GameConfig,
    default_database,
    read_save_file,
    save_config,
)
from deathangel.engine.ruleset import Ruleset
from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS
from deathangel.errors import DeathAngelError, SaveFileError
from deathangel.players.base import observes, replays_on_resume
from deathangel.plugins.ruleset import ruleset_for
from deathangel.plugins.strategies import parse_spec, strategies
from deathangel.tui.board import card_panel, cards_in_play, explain_option, render_board

if TYPE_CHECKING:
    from deathangel.cards.model import CardDatabase
    from deathangel.players import Player

HUMAN = "human"
BOT_PREFIX = "bot:"

EXIT_OK = 0
"""The game ended (won or lost), or a person quit."""
EXIT_INPUT_ENDED = 2
"""The answers ran out (end of the input file, Ctrl-D) before the game ended."""
EXIT_INTERRUPTED = 130
"""Ctrl-C."""

LOG_TAIL = 30
"""Lines the ``log`` command shows (``log all``: every line)."""
RESUME_CONTEXT = 10
"""Log lines shown again when a game is resumed, so the table knows where it stands."""

COMMANDS: tuple[tuple[str, str], ...] = (
    ("NUMBER or the option's text", "choose that option"),
    ("? or help", "this help"),
    ("board", "draw the board again"),
    ("cards", "list the cards in play; cards NAME shows one card"),
    ("log", f"what happened: the last {LOG_TAIL} lines, every die roll with its reason; log all"),
    ("save [FILE]", "save the game now (to FILE, or to the --save file)"),
    ("quit", "leave the game (saved first when there is a save file)"),
)


# -- seats and bots ------------------------------------------------------------------------------


def parse_controller(text: str) -> str:
    """``"human"`` or ``"bot:SPEC"`` (a strategy spec: ``NAME``, ``NAME:key=value,...`` or
    ``FILE.toml``), normalised; the spec is checked when bots are made.

    :raises DeathAngelError: for anything else."""
    value = text.strip()
    if value.lower() == HUMAN:
        return HUMAN
    if value.lower().startswith(BOT_PREFIX) and value[len(BOT_PREFIX) :].strip():
        return BOT_PREFIX + value[len(BOT_PREFIX) :].strip()
    raise DeathAngelError(
        f"a seat is 'human' or 'bot:STRATEGY' (e.g. bot:random, bot:mcts:iterations=200), "
        f"not {text!r}"
    )


def is_bot(controller: str) -> bool:
    return controller.startswith(BOT_PREFIX)


def make_bots(game: Game, seats: Mapping[int, str], *, pm: Any = None) -> dict[int, Player]:
    """One bot for every ``bot:SPEC`` seat, seeded from the game's seed and its seat, and —
    if its choices depend on its own past (see :mod:`deathangel.players.base`) — brought up
    to the game's present by being asked again at every past decision of its seat.

    :raises DeathAngelError: for an unknown strategy or parameter (listing what exists).
    """
    bots: dict[int, Player] = {}
    found = strategies(pm)
    for seat, controller in sorted(seats.items()):
        if is_bot(controller):
            spec = parse_spec(controller[len(BOT_PREFIX) :])
            bots[seat] = spec.make(bot_seed(game.config.seed, seat), found=found)
    catch_up = {seat: bot for seat, bot in bots.items() if replays_on_resume(bot)}
    if catch_up and game.history:
        past = Game(game.config, ruleset=game.ruleset, db=game.db)
        for option in game.history:
            decision = past.decision
            assert decision is not None, "the history is longer than the game"
            bot = catch_up.get(decision.seat)
            if bot is not None:
                bot.choose(past.observation(decision.seat) if observes(bot) else None, decision)
            past.push(option)
    return bots


# -- saving --------------------------------------------------------------------------------------


def seats_data(seats: Mapping[int, str]) -> dict[str, str]:
    """The seat controllers as a save stores them."""
    return {str(seat): controller for seat, controller in sorted(seats.items())}


def save_game(game: Game, seats: Mapping[int, str], path: str | Path) -> None:
    """Save the game with its seat controllers (atomically, as :meth:`Game.save` writes)."""
    game.save(path, extra={"seats": seats_data(seats)})


def seats_of(data: Mapping[str, Any], players: int) -> dict[int, str]:
    """The seat controllers stored in save ``data`` (every seat human when it has none)."""
    raw = data.get("seats")
    if raw is None:
        return dict.fromkeys(range(1, players + 1), HUMAN)
    if not isinstance(raw, dict) or sorted(raw) != sorted(str(s) for s in range(1, players + 1)):
        raise SaveFileError(f"save file is malformed: seats must name seats 1-{players}")
    try:
        return {int(seat): parse_controller(str(value)) for seat, value in raw.items()}
    except DeathAngelError as exc:
        raise SaveFileError(f"save file is malformed: {exc}") from None


def load_game(path: str | Path) -> tuple[Game, dict[int, str]]:
    """The game of a save file (with its log) and its seat controllers.

    :raises SaveFileError: ``"<path>: ..."`` for a corrupt, foreign or incompatible save.
    """
    data = read_save_file(path)
    try:
        # The plugins (at their versions) and variants the save names, or a one-line refusal.
        ruleset = ruleset_for(save_config(data))
    except SaveFileError as exc:
        raise SaveFileError(f"{path}: {exc}") from None
    except DeathAngelError as exc:
        raise SaveFileError(f"{path}: {exc}") from None
    try:
        game = Game.from_save(data, ruleset=ruleset, log=True)
        seats = seats_of(data, game.config.players)
    except SaveFileError as exc:
        raise SaveFileError(f"{path}: {exc}") from None
    return game, seats


# -- answers -------------------------------------------------------------------------------------


class Answers(Protocol):
    """Where a person's answers come from."""

    interactive: bool
    """A person at a terminal (confirmations and hand-off pauses), or a script."""

    def ask(self, prompt: str) -> str | None:
        """One answer, or ``None`` when there are no more."""
        ...


class TerminalAnswers:
    """A person typing at the console's terminal."""

    interactive = True

    def __init__(self, console: Console) -> None:
        self.console = console

    def ask(self, prompt: str) -> str | None:
        try:
            return self.console.input(Text(prompt, style="bold"))
        except EOFError:
            self.console.print()
            return None


class ScriptedAnswers:
    """Answers read line by line (a file, a pipe, a list); each prompt is echoed with its
    answer, so the output reads as a transcript."""

    interactive = False

    def __init__(self, lines: Iterable[str], console: Console) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.console = console

    def ask(self, prompt: str) -> str | None:
        line = next(self._lines, None)
        if line is None:
            return None
        line = line.rstrip("\r\n")
        self.console.print(Text(prompt + line), soft_wrap=True)
        return line


# -- the session ---------------------------------------------------------------------------------


@frozen
class PlayResult:
    """How a session ended."""

    status: str
    """``"over"`` (the game ended), ``"quit"``, ``"input_ended"`` or ``"interrupted"``."""
    exit_code: int
    message: str | None = None
    """An error line for the command to print (without ``error:``), if any."""


class _Stop(Exception):
    """Leave the session with this result."""

    def __init__(self, result: PlayResult) -> None:
        super().__init__(result.status)
        self.result = result


class PlaySession:
    """One game played at one terminal by people and bots until it ends or is left."""

    def __init__(
        self,
        game: Game,
        seats: Mapping[int, str],
        *,
        console: Console,
        answers: Answers,
        save_path: str | Path | None = None,
        bots: Mapping[int, Player] | None = None,
        log_shown: int = 0,
        pm: Any = None,
    ) -> None:
        """``seats`` maps every seat (1..players) to ``"human"`` or ``"bot:NAME"``; ``bots``
        defaults to :func:`make_bots`. ``log_shown``: log lines the table has already seen
        (a resumed game passes a little less than the whole log, for context)."""
        players = game.config.players
        if sorted(seats) != list(range(1, players + 1)):
            raise DeathAngelError(
                f"a game of {players} player(s) needs controllers for seats "
                f"1-{players}, not {sorted(seats)}"
            )
        self.game = game
        self.seats = {seat: parse_controller(c) for seat, c in seats.items()}
        self.console = console
        self.answers = answers
        self.save_path = Path(save_path) if save_path is not None else None
        self.bots = dict(bots) if bots is not None else make_bots(game, self.seats, pm=pm)
        missing = [s for s, c in self.seats.items() if is_bot(c) and s not in self.bots]
        if missing:
            raise DeathAngelError(f"no bot given for seat(s) {missing}")
        self.humans = [s for s, c in sorted(self.seats.items()) if not is_bot(c)]
        self._log_shown = min(log_shown, len(game.log))
        self._narration: list[tuple[int, str]] = []
        """Bot narration not shown yet, each with the log position it follows."""
        self._last_human: int | None = None
        self._board_round = -1

    # -- output ---------------------------------------------------------------------------------

    def say(self, text: str = "", style: str | None = None) -> None:
        """One plain line (never read as markup)."""
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def _visible_log_end(self, viewer: int | None) -> int:
        """How much of the log ``viewer`` may see: not a hidden Instinct event (and what
        followed it) unless he is the current player (RULES §8)."""
        log = self.game.log
        st = self.game.state
        if st.event_hidden and viewer != st.current_seat:
            for i in range(len(log) - 1, -1, -1):
                if log[i].startswith("event: "):
                    return i
            return min(self._log_shown, len(log))
        return len(log)

    def _flush(self, viewer: int | None) -> None:
        """Show what happened since the last flush (log lines and bot narration, in order),
        as far as ``viewer`` may see it."""
        log = self.game.log
        end = self._visible_log_end(viewer)
        kept: list[tuple[int, str]] = []
        for position, line in self._narration:
            if position > end or kept:
                kept.append((position, line))
                continue
            self._print_log(log[self._log_shown : position])
            self._log_shown = max(self._log_shown, position)
            self.say(line, "cyan")
        self._narration = kept
        if end > self._log_shown:
            self._print_log(log[self._log_shown : end])
            self._log_shown = end

    def _print_log(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.say(f"  {line}", "dim" if not line.startswith("—") else "bold")

    def _board(self, viewer: int | None) -> None:
        self.console.print(render_board(self.game, viewer))
        self._board_round = self.game.state.round

    def _menu(self, decision: Decision, *, full: bool = False) -> None:
        help_line = KIND_HELP.get(decision.kind, "")
        teams = ", ".join(self.game.state.seats[decision.seat - 1])
        self.console.print(
            Text(
                f"Round {self.game.state.round} · seat {decision.seat} ({teams}) — "
                f"{decision.prompt or decision.kind}",
                style="bold",
            )
        )
        if help_line:
            self.console.print(Text(help_line, style="italic"))
        menu = Table.grid(padding=(0, 1))
        menu.add_column(justify="right", no_wrap=True, min_width=len(f"  {len(decision.options)})"))
        # One line per option (cut with "…"); `?` shows them whole.
        menu.add_column(no_wrap=not full, overflow="fold" if full else "ellipsis")
        for i, option in enumerate(decision.options, start=1):
            menu.add_row(
                Text(f"  {i})", style="bold"),
                Text.assemble(
                    (str(option), "bold"), " — ", explain_option(self.game, decision, option)
                ),
            )
        self.console.print(menu)

    def _prompt(self, decision: Decision) -> str:
        return f"seat {decision.seat} [1-{len(decision.options)}, ? for help]> "

    # -- saving ---------------------------------------------------------------------------------

    def save(self, path: Path | None = None) -> bool:
        """Save to ``path`` (default: the save file); say why not when it fails."""
        target = path or self.save_path
        if target is None:
            return False
        try:
            save_game(self.game, self.seats, target)
        except OSError as exc:
            self.say(f"cannot save to {target}: {exc.strerror or exc}", "red")
            return False
        return True

    def _stop(self, status: str, code: int, message: str | None = None) -> _Stop:
        if self.save_path is not None and self.save():
            self.say(
                f"Game saved to {self.save_path}; continue it with: "
                f"deathangel play --resume {self.save_path}"
            )
        return _Stop(PlayResult(status, code, message))

    # -- the loop -------------------------------------------------------------------------------

    def run(self) -> PlayResult:
        """Play until the game ends, a person quits, or the answers run out."""
        try:
            self._run()
        except _Stop as stop:
            return stop.result
        except KeyboardInterrupt:
            self.say()
            return self._stop("interrupted", EXIT_INTERRUPTED, "interrupted").result
        return PlayResult("over", EXIT_OK)

    def _run(self) -> None:
        game = self.game
        if not self.humans:
            self._flush(None)
            self._board(None)
        while (decision := game.decision) is not None:
            if decision.seat in self.bots:
                self._bot_turn(decision)
            else:
                self._human_turn(decision)
            if self.save_path is not None:
                self.save()
        self._flush(None)
        self._board(None)
        outcome = game.outcome or "over"
        self.say(
            f"Game over: {outcome} after {game.state.round} round(s).",
            "bold green" if outcome == "victory" else "bold red",
        )
        if self.save_path is not None:
            self.say(
                f"Saved to {self.save_path}; watch it with: deathangel replay {self.save_path}"
            )

    def _bot_turn(self, decision: Decision) -> None:
        seat = decision.seat
        bot = self.bots[seat]
        option = bot.choose(self.game.observation(seat) if observes(bot) else None, decision)
        position = len(self.game.log)
        self.game.apply(option)
        who = f"Seat {seat} ({self.seats[seat]})"
        if decision.kind == CHOOSE_ACTION:
            chosen = list(self.game.state.chosen)
            team = f"the {chosen[-1]} team's" if chosen else "an"
            line = f"{who} chose {team} action card, face down"
        else:
            line = f"{who}: {option}" + (f" ({decision.prompt})" if decision.prompt else "")
        self._narration.append((position, line))
        if not self.humans:
            self._flush(None)
            if self.game.decision is not None and self.game.state.round != self._board_round:
                self._board(None)

    def _hand_off(self, seat: int) -> None:
        """Give the screen to ``seat``: clear what the last person saw, wait for the next."""
        teams = ", ".join(self.game.state.seats[seat - 1])
        self.console.clear()
        if self.answers.interactive:
            answer = self.answers.ask(f"Pass to seat {seat} (teams {teams}) — press Enter ")
            if answer is None:
                raise self._stop("input_ended", EXIT_INPUT_ENDED, "input ended before the game did")
        else:
            self.say(f"Pass to seat {seat} (teams {teams})", "bold")
        self.console.clear()

    def _human_turn(self, decision: Decision) -> None:
        seat = decision.seat
        if len(self.humans) > 1 and self._last_human != seat:
            self._hand_off(seat)
        self._last_human = seat
        self._flush(seat)
        self._board(seat)
        self._menu(decision)
        while True:
            answer = self.answers.ask(self._prompt(decision))
            if answer is None:
                raise self._stop("input_ended", EXIT_INPUT_ENDED, "input ended before the game did")
            option = self._answer(decision, answer.strip())
            if option is not None:
                self.game.apply(option)
                return

    # -- answers and commands -------------------------------------------------------------------

    def _answer(self, decision: Decision, text: str) -> Option | None:
        """The option ``text`` chooses, or None after running a command or explaining why
        ``text`` is not an answer."""
        if not text:
            self.say(f"Type a number from 1 to {len(decision.options)}, or ? for help.", "yellow")
            return None
        if text.isdigit():
            return self._numbered(decision, int(text))
        if self._command(decision, text):
            return None
        return self._named(decision, text)

    def _numbered(self, decision: Decision, number: int) -> Option | None:
        """The option of that number in the menu (1-based), or None after saying why not."""
        n = len(decision.options)
        if 1 <= number <= n:
            return decision.options[number - 1]
        self.say(f"There is no option {number}: choose 1 to {n} (? for help).", "yellow")
        return None

    def _named(self, decision: Decision, text: str) -> Option | None:
        """The option whose words are ``text`` (any case), or None after saying why not."""
        for option in decision.options:
            if str(option).lower() == text.lower():
                return option
        self.say(
            f"{text!r} is not an option or a command: type a number from 1 to "
            f"{len(decision.options)}, or ? for help.",
            "yellow",
        )
        return None

    def _command(self, decision: Decision, text: str) -> bool:
        """Run ``text`` if it is a command (see :data:`COMMANDS`); whether it was one."""
        command, _, argument = text.partition(" ")
        run = {
            "?": self._help_command,
            "help": self._help_command,
            "board": self._board_command,
            "cards": self._cards_command,
            "log": self._log_command,
            "save": self._save_command,
            "quit": self._quit_command,
        }.get(command.lower())
        return run is not None and run(decision, argument.strip())

    # Each command takes (decision, argument) and says whether the argument fits it: one that
    # does not ("board 3") is not a command, and is read as an option's words instead.

    def _help_command(self, decision: Decision, argument: str) -> bool:
        if argument:
            return False
        self._help(decision)
        return True

    def _board_command(self, decision: Decision, argument: str) -> bool:
        if argument:
            return False
        self._board(decision.seat)
        self._menu(decision)
        return True

    def _cards_command(self, decision: Decision, argument: str) -> bool:
        self._cards(argument, decision.seat)
        if not argument:
            self._menu(decision)
        return True

    def _log_command(self, decision: Decision, argument: str) -> bool:
        if argument.lower() not in ("", "all"):
            return False
        self._log(decision.seat, all_lines=bool(argument))
        return True

    def _save_command(self, decision: Decision, argument: str) -> bool:
        self._save(argument)
        return True

    def _quit_command(self, decision: Decision, argument: str) -> bool:
        if argument:
            return False
        self._quit()
        return True

    def _help(self, decision: Decision) -> None:
        self.say("Commands (at any prompt):", "bold")
        for name, what in COMMANDS:
            self.say(f"  {name:<28} {what}")
        self._menu(decision, full=True)

    def _cards(self, name: str, seat: int) -> None:
        if name:
            try:
                self.console.print(card_panel(self.game.db, name))
            except KeyError as exc:
                self.say(str(exc.args[0]) if exc.args else f"no card named {name!r}", "yellow")
            return
        names = cards_in_play(self.game, seat)
        self.say("Cards in play (look one up with: cards NAME):", "bold")
        self.console.print(Padding(Columns([Text(card) for card in names], padding=(0, 3)), (0, 2)))

    def _log(self, seat: int, *, all_lines: bool) -> None:
        shown = self.game.log[: min(self._log_shown, self._visible_log_end(seat))]
        lines = shown if all_lines else shown[-LOG_TAIL:]
        if len(lines) < len(shown):
            self.say(f"(the last {len(lines)} of {len(shown)} lines; log all shows every one)")
        self._print_log(lines)

    def _save(self, argument: str) -> None:
        if argument:
            path = Path(argument)
            if self.save(path):
                self.save_path = path
                self.say(f"Saved to {path}; saving there after every decision from now on.")
        elif self.save_path is None:
            self.say("No save file yet: type save FILE.", "yellow")
        elif self.save():
            self.say(f"Saved to {self.save_path}.")

    def _quit(self) -> None:
        if self.answers.interactive:
            if self.save_path is None:
                self.say("This game is not saved (save FILE keeps it).", "yellow")
            answer = self.answers.ask("Quit the game? [y/N] ")
            if answer is None or answer.strip().lower() not in ("y", "yes"):
                self.say("Not quitting.")
                return
        self.say(f"You left the game in round {self.game.state.round}.")
        if self.save_path is None:
            self.say("It was not saved.")
        raise self._stop("quit", EXIT_OK)


# -- the command ---------------------------------------------------------------------------------


def random_seed() -> int:
    """A fresh seed from the operating system (short enough to type again)."""
    return int.from_bytes(os.urandom(4), "big") % 1_000_000


def complete_teams(
    players: int,
    chosen: Mapping[int, tuple[str, ...]],
    seed: int,
    db: CardDatabase | None = None,
) -> tuple[tuple[str, ...], ...] | None:
    """Every seat's teams: those chosen, the others dealt at random (from the seed) from the
    colours left (of ``db``, default the base game). ``None`` (the engine deals them all)
    when no seat chose."""
    if not chosen:
        return None
    for seat in chosen:
        if not 1 <= seat <= players:
            raise DeathAngelError(f"--team names seat {seat}; seats are 1-{players}")
    db = db if db is not None else default_database()
    if players not in PLAYER_COUNTS:
        raise DeathAngelError(
            f"--players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, not {players}"
        )
    per_seat = db.setup_location_for(players).teams_per_player[players]
    taken = {colour for teams in chosen.values() for colour in teams}
    free = [t.color for t in db.teams if t.color not in taken]
    missing = players - len(chosen)
    if len(free) < per_seat * missing:
        raise DeathAngelError("not enough teams left to deal the seats that did not choose")
    dealt = random.Random(f"teams:{seed}").sample(free, per_seat * missing)
    teams: list[tuple[str, ...]] = []
    for seat in range(1, players + 1):
        if seat in chosen:
            teams.append(tuple(chosen[seat]))
        else:
            teams.append(tuple(dealt[:per_seat]))
            dealt = dealt[per_seat:]
    return tuple(teams)


def play(
    *,
    console: Console,
    answers: Answers,
    players: int | None = None,
    teams: Mapping[int, tuple[str, ...]] | None = None,
    seats: Mapping[int, str] | None = None,
    seed: int | None = None,
    handicap: int | None = None,
    save: str | Path | None = None,
    resume: str | Path | None = None,
    pm: Any = None,
    ruleset: Ruleset | None = None,
) -> PlayResult:
    """Start a game (or resume one from a save file) and play it at ``console``.

    A new game: ``players`` (default 1), ``teams`` chosen per seat (the others dealt at
    random), ``seats`` controllers (default: human), ``seed`` (default: fresh), ``handicap``,
    ``ruleset`` (expansions and variants; default the base game).
    A resumed game keeps its own players, teams, seed, handicap, plugins, variants and
    controllers (``seats`` may replace some) and saves back to its file unless ``save``
    names another.

    :raises DeathAngelError: for bad options, an unknown strategy, or (``SaveFileError``) a
        save file that cannot be resumed; nothing is written then.
    """
    seats = dict(seats or {})
    if resume is not None:
        given = [
            name
            for name, value in (
                ("--players", players),
                ("--team", teams),
                ("--seed", seed),
                ("--handicap", handicap),
            )
            if value is not None and value != {}
        ]
        if given:
            raise DeathAngelError(
                f"{', '.join(given)} cannot change a resumed game (it keeps its own)"
            )
        game, stored = load_game(resume)
        controllers = _controllers(game.config.players, {**stored, **seats})
        save_path: str | Path | None = save if save is not None else resume
        title = (
            f"Resuming {resume}: seed {game.config.seed}, round {game.state.round}, "
            f"{len(game.history)} decision(s) made."
        )
        log_shown = max(0, len(game.log) - RESUME_CONTEXT)
    else:
        players = 1 if players is None else players
        if players not in PLAYER_COUNTS:
            raise DeathAngelError(
                f"--players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, not {players}"
            )
        seed = random_seed() if seed is None else seed
        controllers = _controllers(players, seats)
        config_teams = complete_teams(
            players, teams or {}, seed, ruleset.db if ruleset is not None else None
        )
        try:
            game = Game(
                GameConfig(players, seed=seed, teams=config_teams, handicap=handicap or 0),
                log=True,
                ruleset=ruleset,
            )
        except ValueError as exc:
            raise DeathAngelError(str(exc)) from None
        save_path = save
        title = (
            f"Space Hulk: Death Angel — {players} player(s), seed {seed} "
            f"(play this game again with --seed {seed})."
        )
        log_shown = 0
    if pm is None and game.ruleset is not None:
        # Strategies of the plugins the game is played with can sit at its seats.
        pm = game.ruleset.plugin_manager
    bots = make_bots(game, controllers, pm=pm)
    if save_path is not None:
        try:
            save_game(game, controllers, save_path)
        except OSError as exc:
            raise DeathAngelError(f"{save_path}: cannot save: {exc.strerror or exc}") from None
    console.print(Text(title, style="bold"), soft_wrap=True)
    for seat in range(1, game.config.players + 1):
        console.print(
            Text(
                f"  Seat {seat}: {controllers[seat]:<12} teams "
                + ", ".join(game.state.seats[seat - 1])
            ),
            soft_wrap=True,
        )
    if any(not is_bot(c) for c in controllers.values()):
        console.print(Text("  Type ? at any prompt for help."), soft_wrap=True)
    session = PlaySession(
        game,
        controllers,
        console=console,
        answers=answers,
        save_path=save_path,
        bots=bots,
        log_shown=log_shown,
    )
    return session.run()


def _controllers(players: int, seats: Mapping[int, str]) -> dict[int, str]:
    for seat in seats:
        if not 1 <= seat <= players:
            raise DeathAngelError(f"--seat names seat {seat}; seats are 1-{players}")
    return {seat: parse_controller(seats.get(seat, HUMAN)) for seat in range(1, players + 1)}


def answers_for(console: Console, input_file: str | Path | None, stdin: TextIO) -> Answers:
    """A terminal when ``stdin`` is one and no input file is given; else a script."""
    if input_file is not None:
        try:
            text = Path(input_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DeathAngelError(f"{input_file}: cannot read the answers: {exc}") from None
        return ScriptedAnswers(text.splitlines(), console)
    if stdin.isatty():
        return TerminalAnswers(console)
    return ScriptedAnswers(stdin, console)

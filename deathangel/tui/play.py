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
each seat's controller, and a ``"bot_key"``: the game's secret that seeds its bots (a keyed hash
of the game's seed and the seat, :mod:`deathangel.players.seeds`, so no bot can work out the
game from its seed). A resumed game gets its bots back with the same seeds, and each is asked
again at every past decision of its seat (answers discarded) if its choices depend on its own
past, so it stands exactly where it stood: a resumed game continues as the uninterrupted one
would have. ``--isolate`` plays every bot in a process of its own
(:mod:`deathangel.plugins.isolation`).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TextIO

from attrs import frozen
from rich.columns import Columns
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from deathangel.engine.decisions import CHOOSE_ACTION, KIND_HELP, Decision, Option
from deathangel.engine.game import (
    Game,
    GameConfig,
    default_database,
    read_save_file,
    save_config,
)
from deathangel.engine.phases.event import EVENT_HEADER
from deathangel.engine.ruleset import Ruleset
from deathangel.engine.state import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS
from deathangel.errors import DeathAngelError, PluginEffectError, SaveFileError
from deathangel.players.base import check_table, observes, replays_on_resume
from deathangel.players.seeds import bot_seed, check_bot_key, new_bot_key
from deathangel.plugins.isolation import MakeBot, isolated_bots
from deathangel.plugins.ruleset import ruleset_for
from deathangel.plugins.strategies import parse_spec, strategies
from deathangel.tui.board import card_panel, cards_in_play, explain_option, render_board
from deathangel.tui.primer import PRIMER
from deathangel.tui.saves import (
    SaveInUseError,
    SaveLock,
    SaveTargetError,
    autosave_path,
    check_target,
    command,
    describe_choices,
    replay_command,
    resume_command,
    saves_dir,
    unfinished_games,
)
from deathangel.tui.style import _fit

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
EXIT_HANGUP = 129
"""The terminal was closed (SIGHUP) or the process was asked to stop (SIGTERM)."""

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
    ("hint", "what the search thinks of each option (from your seat's view); Ctrl-C stops it"),
    ("save [FILE]", "save now (the game is saved after every decision anyway); save FILE --force"),
    ("quit", "leave the game; it is saved, and the command to continue it is shown"),
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


def make_bots(
    game: Game,
    seats: Mapping[int, str],
    *,
    key: str,
    pm: Any = None,
    make: MakeBot | None = None,
) -> dict[int, Player]:
    """One bot for every ``bot:SPEC`` seat, seeded from the game's seed and its seat under
    the game's bot ``key``, made by ``make`` (a process of its own) or in this process, and —
    if its choices depend on its own past (see :mod:`deathangel.players.base`) — brought up
    to the game's present by being asked again at every past decision of its seat.

    :raises DeathAngelError: for an unknown strategy or parameter (listing what exists).
    """
    bots: dict[int, Player] = {}
    found = strategies(pm)
    for seat, controller in sorted(seats.items()):
        if is_bot(controller):
            spec = parse_spec(controller[len(BOT_PREFIX) :])
            seed = bot_seed(key, game.config.seed, seat)
            # An unknown strategy, or a bot that cannot play this game's cards (its
            # check_table hook), fails here, in one line, before the game goes on.
            bot = spec.make(seed, found=found)
            check_table(bot, game.table)
            bots[seat] = make(spec, seat, seed) if make is not None else bot
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


def save_game(game: Game, seats: Mapping[int, str], path: str | Path, key: str) -> None:
    """Save the game with its seat controllers and bot key (atomically, as
    :meth:`Game.save` writes)."""
    game.save(path, extra={"seats": seats_data(seats), "bot_key": key})


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


class LoadedGame(NamedTuple):
    """A save file read back."""

    game: Game
    """The game, replayed to where it was saved (with its log)."""
    seats: dict[int, str]
    """Each seat's controller."""
    bot_key: str
    """The key that seeds its bots (a fresh one for a save made before bot keys)."""


def bot_key_of(data: Mapping[str, Any]) -> str:
    """The bot key stored in save ``data``; a fresh one for a save that has none (made before
    bots were seeded by a key: its bots continue with new seeds)."""
    raw = data.get("bot_key")
    if raw is None:
        return new_bot_key()
    try:
        return check_bot_key(str(raw))
    except ValueError as exc:
        raise SaveFileError(f"save file is malformed: bot_key: {exc}") from None


def load_game(path: str | Path) -> LoadedGame:
    """The game of a save file (with its log), its seat controllers and its bot key.

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
        key = bot_key_of(data)
    except SaveFileError as exc:
        raise SaveFileError(f"{path}: {exc}") from None
    return LoadedGame(game, seats, key)


# -- answers -------------------------------------------------------------------------------------


class Answers(Protocol):
    """Where a person's answers come from."""

    interactive: bool
    """A person at a terminal (confirmations and hand-off pauses), or a script."""

    def ask(self, prompt: str) -> str | None:
        """One answer, or ``None`` when there are no more."""
        ...

    def where(self) -> str | None:
        """Where the last answer came from (``"answers.txt, line 3"``), for a script."""
        ...


class TerminalAnswers:
    """A person typing at the console's terminal."""

    interactive = True

    def where(self) -> str | None:
        return None

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

    def __init__(self, lines: Iterable[str], console: Console, source: str = "input") -> None:
        """``source`` names the lines in messages: a file name, or ``standard input``."""
        self._lines: Iterator[str] = iter(lines)
        self.console = console
        self.source = source
        self.line = 0
        """The number of the last line read (1-based)."""

    def where(self) -> str | None:
        return f"{self.source}, line {self.line}"

    def ask(self, prompt: str) -> str | None:
        line = next(self._lines, None)
        if line is None:
            return None
        self.line += 1
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


class Hangup(BaseException):
    """The terminal was closed (SIGHUP) or the process was told to stop (SIGTERM).

    A BaseException, as KeyboardInterrupt is: the signal may land anywhere in the main
    thread, and code that catches errors (``except Exception``: an option's explanation, a
    plugin's effect) must not swallow it, or the game would go on waiting for a terminal
    that is gone instead of saving and ending."""


def _raise_hangup(signum: int, frame: object) -> None:
    raise Hangup(signum)


@contextlib.contextmanager
def _hangup_raises() -> Iterator[None]:
    """While a session runs, a closed terminal or SIGTERM raises :class:`Hangup` in it, so
    the game is saved and the process ends cleanly (only the main thread gets signals)."""
    names = [n for n in ("SIGHUP", "SIGTERM") if hasattr(signal, n)]
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {n: signal.signal(getattr(signal, n), _raise_hangup) for n in names}
    try:
        yield
    finally:
        for n, handler in old.items():
            signal.signal(getattr(signal, n), handler)


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
        bot_key: str | None = None,
        hints: bool = False,
        save_lock: SaveLock | None = None,
    ) -> None:
        """``seats`` maps every seat (1..players) to ``"human"`` or ``"bot:NAME"``; ``bots``
        defaults to :func:`make_bots`, seeded under ``bot_key`` (a fresh key when ``None``),
        which the saves keep. ``log_shown``: log lines the table has already seen (a resumed
        game passes a little less than the whole log, for context). ``save_lock`` holds the
        save file already (else :meth:`run` takes it)."""
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
        self.save_lock = save_lock if save_lock is not None else SaveLock()
        self.bot_key = bot_key if bot_key is not None else new_bot_key()
        self.hints = hints
        """Show the search's hint at every decision of a person (``--hints``)."""
        self._hint_seed = random.getrandbits(63)
        self.bots = (
            dict(bots) if bots is not None else make_bots(game, self.seats, key=self.bot_key, pm=pm)
        )
        missing = [s for s, c in self.seats.items() if is_bot(c) and s not in self.bots]
        if missing:
            raise DeathAngelError(f"no bot given for seat(s) {missing}")
        self.humans = [s for s, c in sorted(self.seats.items()) if not is_bot(c)]
        self._log_shown = min(log_shown, len(game.log))
        self._narration: list[tuple[int, str]] = []
        """Bot narration not shown yet, each with the log position it follows."""
        self._screen: int | None = None
        """The seat whose private view the screen shows (hot seat), if any."""
        self._viewer: int | None = None
        """Whose view the current decision is shown in: its seat, or None (the table's)."""
        self._board_round = -1
        self._legend_shown = False

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
                if log[i].startswith(EVENT_HEADER):
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

    def _board(self, viewer: int | None, *, legend: bool = False) -> None:
        """The board for ``viewer``; with the legend of its marks the first time, and when
        asked for (lines are scarce on an 80×24 terminal)."""
        legend = legend or not self._legend_shown
        self.console.print(render_board(self.game, viewer, legend=legend))
        self._legend_shown = self._legend_shown or legend
        self._board_round = self.game.state.round

    def _menu(self, decision: Decision, *, full: bool = False) -> None:
        """The numbered options, one line each: an explanation too long for the line stops
        after a whole word with "…" (``full``, as ``?`` shows it: wrapped between words)."""
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
        number = len(f"  {len(decision.options)})")
        menu = Table.grid(padding=(0, 1))
        menu.add_column(justify="right", no_wrap=True, min_width=number)
        menu.add_column(overflow="fold")
        room = self.console.width - number - 1
        for i, option in enumerate(decision.options, start=1):
            label = str(option)
            why = explain_option(self.game, decision, option, full=full)
            if not full:
                why = _fit(why, max(room - len(label) - 3, 12))
            menu.add_row(Text(f"  {i})", style="bold"), Text.assemble((label, "bold"), " — ", why))
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
            save_game(self.game, self.seats, target, self.bot_key)
        except OSError as exc:
            self.say(f"cannot save to {target}: {exc.strerror or exc}", "red")
            return False
        return True

    def _saved_message(self) -> None:
        """Where the game is and the exact command that continues it."""
        if self.save_path is not None and self.save():
            self.say(
                f"Game saved to {self.save_path}; continue it with: "
                f"{resume_command(self.save_path)}"
            )
        else:
            self.say("This game was not saved.", "yellow")

    def _stop(self, status: str, code: int, message: str | None = None) -> _Stop:
        self._saved_message()
        return _Stop(PlayResult(status, code, message))

    # -- the loop -------------------------------------------------------------------------------

    def run(self) -> PlayResult:
        """Play until the game ends, a person quits, the answers run out, or the terminal
        goes away (Ctrl-C, a closed terminal): the game is saved in every case.

        :raises SaveInUseError: when another game is playing on the save file.
        """
        own = self.save_path is not None and self.save_lock.path is None
        if self.save_path is not None and own:
            self.save_lock.take(self.save_path)
        try:
            return self._play()
        finally:
            if own:
                self.save_lock.release()

    def _play(self) -> PlayResult:
        with _hangup_raises():
            try:
                self._run()
            except _Stop as stop:
                return stop.result
            except KeyboardInterrupt:
                self.say()
                return self._stop("interrupted", EXIT_INTERRUPTED, "interrupted").result
            except Hangup:
                return self._hung_up()
            except PluginEffectError as exc:
                exc.in_game(f"game seed {self.game.config.seed}")
                self._kept_message()
                raise
        return PlayResult("over", EXIT_OK)

    def _kept_message(self) -> None:
        """A plugin's effect failed part-way through a decision: the game in memory is
        half-changed and must not be saved; the file holds it as it was before that decision
        (saved after the one before), to continue once the plugin is fixed."""
        if self.save_path is not None and self.save_path.exists():
            self.say(
                f"The game is kept as it was before that decision in {self.save_path}; "
                f"continue it with: {resume_command(self.save_path)}"
            )

    def _hung_up(self) -> PlayResult:
        """Save first: the terminal may be gone, and writing to it may fail."""
        with contextlib.suppress(OSError):
            self._saved_message()  # saves, then says where
        return PlayResult("hangup", EXIT_HANGUP)

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
            self.save()
        self._flush(None)
        self._board(None)
        outcome = game.outcome or "over"
        self.say(
            f"Game over: {outcome} after {game.state.round} round(s).",
            "bold green" if outcome == "victory" else "bold red",
        )
        if self.save_path is not None and self.save():
            self.say(f"Saved to {self.save_path}; watch it with: {replay_command(self.save_path)}")

    def _bot_turn(self, decision: Decision) -> None:
        seat = decision.seat
        if self._screen is not None:
            self._wipe()
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

    def _private(self, decision: Decision) -> bool:
        """Whether answering ``decision`` shows what only its seat may see: a face-down
        action card (RULES §5), an Instinct card before it is chosen (§8), the Event card
        Forward Scouting lets one seat look at."""
        st = self.game.state
        if decision.kind == CHOOSE_ACTION:
            return True
        if st.event_hidden:
            return True
        if st.event_deck:
            top = self.game.table.events[st.event_deck[-1]].name
            return decision.prompt.endswith(f"the top Event card is {top}")
        return False

    def _wipe(self) -> None:
        """Clear the screen and, where the terminal keeps one, its scrollback: what a seat
        chose face down must not be one scroll away from the next player."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")
            self.console.file.flush()
        self._screen = None

    def _hand_off(self, seat: int) -> None:
        """Give the screen to ``seat`` for a private decision: clear what was shown, wait
        for the next player."""
        teams = ", ".join(self.game.state.seats[seat - 1])
        self._wipe()
        if self.answers.interactive:
            answer = self.answers.ask(f"Pass to seat {seat} (teams {teams}) — press Enter ")
            if answer is None:
                raise self._stop("input_ended", EXIT_INPUT_ENDED, "input ended before the game did")
        else:
            self.say(f"Pass to seat {seat} (teams {teams})", "bold")
        self._wipe()

    def _human_turn(self, decision: Decision) -> None:
        """At one shared screen (several people), only a private decision hands the screen
        to its seat; any other is answered in the table's view, by whoever sits there."""
        seat = decision.seat
        shared = len(self.humans) > 1
        private = shared and self._private(decision)
        if shared and self._screen is not None and (not private or self._screen != seat):
            self._wipe()  # a private screen never stays up for the next decision
        if private and self._screen != seat:
            self._hand_off(seat)
            self._screen = seat
        self._viewer = seat if private or not shared else None
        self._flush(self._viewer)
        self._board(self._viewer)
        self._menu(decision)
        if self.hints:
            self._hint(decision)
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
            self._not_an_answer(f"Type a number from 1 to {len(decision.options)}, or ? for help.")
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
        self._not_an_answer(f"There is no option {number}: choose 1 to {n} (? for help).")
        return None

    def _named(self, decision: Decision, text: str) -> Option | None:
        """The option whose words are ``text`` (any case) — or, failing that, the one option
        that names it (``strategize`` for ``play Strategize``, a marine's name) — or None
        after saying why not."""
        wanted = text.lower()
        for option in decision.options:
            if str(option).lower() == wanted:
                return option
        naming = [
            option
            for option in decision.options
            if any(isinstance(a, str) and a.lower() == wanted for a in option.args)
        ]
        if len(naming) == 1:
            return naming[0]
        n = len(decision.options)
        if naming:
            numbers = ", ".join(str(decision.options.index(o) + 1) for o in naming)
            self._not_an_answer(f"{text!r} fits options {numbers}: type the number of one.")
        else:
            self._not_an_answer(
                f"{text!r} is not an option or a command: type a number from 1 to {n}, "
                "or ? for help."
            )
        return None

    def _not_an_answer(self, message: str) -> None:
        """Say why an answer was not taken; a script's line is named, so its author can
        find it."""
        where = self.answers.where()
        self.say(f"{where}: {message}" if where else message, "yellow")

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
            "hint": self._hint_command,
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
        self._board(self._viewer, legend=True)
        self._menu(decision)
        return True

    def _cards_command(self, decision: Decision, argument: str) -> bool:
        self._cards(argument, self._viewer)
        if not argument:
            self._menu(decision)
        return True

    def _log_command(self, decision: Decision, argument: str) -> bool:
        if argument.lower() not in ("", "all"):
            return False
        self._log(self._viewer, all_lines=bool(argument))
        return True

    def _save_command(self, decision: Decision, argument: str) -> bool:
        self._save(argument)
        return True

    def _hint_command(self, decision: Decision, argument: str) -> bool:
        if argument:
            return False
        self._hint(decision)
        return True

    def _hint(self, decision: Decision) -> None:
        """The search's view of every option, from the deciding seat's observation alone;
        Ctrl-C stops the hint, not the game."""
        from deathangel.players.search.advice import advise

        try:
            self.say("Thinking (Ctrl-C stops the hint)...", "dim")
            advice = advise(self.game.observation(decision.seat), decision, seed=self._hint_seed)
            lines = hint_lines(decision, advice)
        except KeyboardInterrupt:
            self.say("Hint stopped.", "yellow")
            return
        for line in lines:
            self.say(line)

    def _quit_command(self, decision: Decision, argument: str) -> bool:
        if argument:
            return False
        self._quit()
        return True

    def _help(self, decision: Decision) -> None:
        self.say("The game in one screen:", "bold")
        for line in PRIMER:
            self.say(line)
        self.say("Commands (at any prompt):", "bold")
        for name, what in COMMANDS:
            self.say(f"  {name:<28} {what}")
        self._menu(decision, full=True)

    def _cards(self, name: str, seat: int | None) -> None:
        if name:
            try:
                self.console.print(card_panel(self.game.db, name))
            except KeyError as exc:
                said = str(exc.args[0]) if exc.args else f"no card named {name!r}"
                self.say(f"{said}; type cards to list the cards in play", "yellow")
            return
        names = cards_in_play(self.game, seat)
        self.say("Cards in play (look one up with: cards NAME):", "bold")
        self.console.print(Padding(Columns([Text(card) for card in names], padding=(0, 3)), (0, 2)))

    def _log(self, seat: int | None, *, all_lines: bool) -> None:
        shown = self.game.log[: min(self._log_shown, self._visible_log_end(seat))]
        lines = shown if all_lines else shown[-LOG_TAIL:]
        if len(lines) < len(shown):
            self.say(f"(the last {len(lines)} of {len(shown)} lines; log all shows every one)")
        self._print_log(lines)

    def _save(self, argument: str) -> None:
        words = argument.split()
        force = "--force" in words
        name = " ".join(w for w in words if w != "--force")
        if name:
            path = Path(name)
            current = self.save_path is not None and path.absolute() == self.save_path.absolute()
            try:
                check_target(path, self.game, force=force or current)
                self.save_lock.take(path)  # before writing: another game may be playing it
            except SaveTargetError as exc:
                self.say(f"Not saved: {exc}".replace("add --force", "type save FILE --force"))
                return
            except SaveInUseError as exc:
                self.say(f"Not saved: {exc}")
                return
            if self.save(path):
                self.save_path = path
                self.say(f"Saved to {path}; saving there after every decision from now on.")
            elif self.save_path is not None:
                with contextlib.suppress(SaveInUseError):
                    self.save_lock.take(self.save_path)  # back to the file still saved to
        elif self.save_path is None:
            self.say("No save file yet: type save FILE.", "yellow")
        elif self.save():
            self.say(f"Saved to {self.save_path}.")

    def _quit(self) -> None:
        if self.answers.interactive:
            answer = self.answers.ask("Quit the game? It stays saved. [y/N] ")
            if answer is None or answer.strip().lower() not in ("y", "yes"):
                self.say("Not quitting.")
                return
        self.say(f"You left the game in round {self.game.state.round}.")
        raise self._stop("quit", EXIT_OK)


# -- the command ---------------------------------------------------------------------------------


def hint_lines(decision: Decision, advice: Any) -> list[str]:
    """A hint as the menu numbers each option: its estimated chance to win, ± one standard
    error, best first; then the search's pick."""
    number = {o: i for i, o in enumerate(decision.options, start=1)}
    lines = ["Hint: the marines' chance to win after each option (± how sure), best first:"]
    for a in advice.options:
        sure = "" if a.error == float("inf") else f" ± {a.error:.1%}"
        lines.append(f"  {number[a.option]:>2}. {a.chance:6.1%}{sure}  {a.option}")
    lines.append(f"  The search would choose {number[advice.pick]}: {advice.pick}.")
    return lines


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
            raise DeathAngelError(_no_such_seat("--team", seat, players))
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
    force: bool = False,
    pm: Any = None,
    ruleset: Ruleset | None = None,
    isolate: bool = False,
    bot_key: str | None = None,
    hints: bool = False,
) -> PlayResult:
    """Start a game (or resume one from a save file) and play it at ``console``.

    A new game: ``players`` (default 1), ``teams`` chosen per seat (the others dealt at
    random), ``seats`` controllers (default: human), ``seed`` (default: fresh), ``handicap``,
    ``ruleset`` (expansions and variants; default the base game). It is saved after every
    decision to ``save``, or else to a new file in the saves folder
    (:func:`deathangel.tui.saves.autosave_path`). A resumed game keeps its own players, teams,
    seed, handicap, plugins, variants and controllers (``seats`` may replace some) and saves
    back to its file unless ``save`` names another. ``resume=""`` offers the most recent
    unfinished games. ``save`` is never a file that holds something else unless ``force``.
    ``isolate`` plays every bot in a process of its own; ``bot_key`` seeds a new game's bots
    (default: a fresh secret, kept in the save); ``hints`` shows the search's hint at every
    decision of a person.

    :raises DeathAngelError: for bad options, an unknown strategy, a save file that cannot be
        written over (``SaveTargetError``) or resumed (``SaveFileError``); nothing is
        written then.
    """
    seats = dict(seats or {})
    if handicap is not None and handicap < 0:
        raise DeathAngelError(f"--handicap must be 0 or more support tokens, not {handicap}")
    if resume is not None:
        given = [
            name
            for name, value in (
                ("--players", players),
                ("--team", teams),
                ("--seed", seed),
                ("--handicap", handicap),
                ("--bot-key", bot_key),
            )
            if value is not None and value != {}
        ]
        if given:
            raise DeathAngelError(
                f"{', '.join(given)} cannot change a resumed game (it keeps its own)"
            )
        if str(resume) == "":
            chosen = choose_unfinished(console, answers)
            if chosen is None:
                return PlayResult("input_ended", EXIT_INPUT_ENDED, "no game was chosen")
            resume = chosen
        game, stored, key = load_game(resume)
        controllers = _controllers(game.config.players, {**stored, **seats})
        save_path: str | Path = save if save is not None else resume
        explicit = save is not None
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
        explicit = save is not None
        save_path = save if save is not None else autosave_path(game)
        title = (
            f"Space Hulk: Death Angel — {players} player(s), seed {seed} "
            f"(the same deal again: {_again(players, teams or {}, seed, handicap, ruleset)})."
        )
        log_shown = 0
        try:
            key = new_bot_key() if bot_key is None else check_bot_key(bot_key)
        except ValueError as exc:
            raise DeathAngelError(f"--bot-key: {exc}") from None
    if pm is None and game.ruleset is not None:
        # Strategies of the plugins the game is played with can sit at its seats.
        pm = game.ruleset.plugin_manager
    with isolated_bots(isolate, game.ruleset) as make:
        bots = make_bots(game, controllers, key=key, pm=pm, make=make)
        return _start_session(
            game,
            controllers,
            bots,
            key,
            console=console,
            answers=answers,
            save_path=save_path,
            explicit=explicit,
            force=force,
            title=title,
            log_shown=log_shown,
            hints=hints,
        )


def _start_session(
    game: Game,
    controllers: dict[int, str],
    bots: dict[int, Player],
    key: str,
    *,
    console: Console,
    answers: Answers,
    save_path: str | Path,
    explicit: bool,
    force: bool,
    title: str,
    log_shown: int,
    hints: bool = False,
) -> PlayResult:
    """Save the game where it stands, say who plays what, and play it."""
    if explicit:
        check_target(save_path, game, force=force)
    with SaveLock() as save_lock:
        try:
            if not explicit:
                Path(save_path).parent.mkdir(parents=True, exist_ok=True)
            save_lock.take(save_path)  # before the first write: refused if another game plays it
            save_game(game, controllers, save_path, key)
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
        console.print(
            Text(f"  Saved after every decision to {save_path} (Ctrl-C or quit keeps it there)."),
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
            bot_key=key,
            hints=hints,
            save_lock=save_lock,
        )
        return session.run()


def _again(
    players: int,
    teams: Mapping[int, tuple[str, ...]],
    seed: int,
    handicap: int | None,
    ruleset: Ruleset | None = None,
) -> str:
    """The command that deals this game again (with its expansions and variants)."""
    args: list[str] = ["play"]
    if players != 1:
        args += ["-p", str(players)]
    for seat, colours in sorted(teams.items()):
        args += ["--team", f"{seat}={','.join(colours)}"]
    args += ["--seed", str(seed)]
    if handicap:
        args += ["--handicap", str(handicap)]
    if ruleset is not None:
        for name, _version in ruleset.plugins:
            args += ["--with", name]
        for name, value in ruleset.variants:
            args += ["--variant", f"{name}={value}" if value else name]
    return command(*args)


def choose_unfinished(console: Console, answers: Answers) -> Path | None:
    """Offer the most recent unfinished games in the saves folder; the one chosen, or
    ``None`` when the answers end first.

    :raises DeathAngelError: when there is no unfinished game to offer.
    """
    games = unfinished_games()
    if not games:
        raise DeathAngelError(
            f"no unfinished game in {saves_dir()}; start one with: {command('play')}"
        )
    console.print(Text("Unfinished games, most recent first:", style="bold"), soft_wrap=True)
    for line in describe_choices(games):
        console.print(Text(line), soft_wrap=True)
    while True:
        answer = answers.ask(f"Resume which game? [1-{len(games)}, Enter for 1] ")
        if answer is None:
            return None
        text = answer.strip() or "1"
        if text.isdigit() and 1 <= int(text) <= len(games):
            return games[int(text) - 1].path
        console.print(Text(f"Type a number from 1 to {len(games)} (or Enter for the most recent)."))


def _no_such_seat(flag: str, seat: int, players: int) -> str:
    """The one line for a seat the game does not have, naming the option that adds seats."""
    seats = "seat 1" if players == 1 else f"seats 1-{players}"
    return f"{flag} names seat {seat}, but a {players}-player game has {seats} (set --players)"


def _controllers(players: int, seats: Mapping[int, str]) -> dict[int, str]:
    for seat in seats:
        if not 1 <= seat <= players:
            raise DeathAngelError(_no_such_seat("--seat", seat, players))
    return {seat: parse_controller(seats.get(seat, HUMAN)) for seat in range(1, players + 1)}


def answers_for(console: Console, input_file: str | Path | None, stdin: TextIO) -> Answers:
    """A terminal when ``stdin`` is one and no input file is given; else a script."""
    if input_file is not None:
        try:
            text = Path(input_file).read_text(encoding="utf-8")
        except OSError as exc:
            reason = exc.strerror or exc
            raise DeathAngelError(f"{input_file}: cannot read the answers: {reason}") from None
        except UnicodeDecodeError as exc:
            raise DeathAngelError(f"{input_file}: cannot read the answers: {exc}") from None
        return ScriptedAnswers(text.splitlines(), console, str(input_file))
    if stdin.isatty():
        return TerminalAnswers(console)
    return ScriptedAnswers(stdin, console, "standard input")

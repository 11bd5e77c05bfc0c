"""``deathangel play`` and ``deathangel replay``, driven through the real CLI in a subprocess.

The answers a person would type are made in-process: the same seed is played with a seeded
random chooser at the human seats (and the session's own bots at the bot seats), and each
choice is written as its menu number. Fed back with ``--input``, they must lead the command
to exactly the game played in-process.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from support import TEST_BOT_KEY

from deathangel.analysis.simulate import bots, play_game
from deathangel.engine.decisions import CHOOSE_ACTION
from deathangel.engine.game import Game, GameConfig
from deathangel.players import RandomPlayer
from deathangel.plugins.strategies import strategy_factory
from deathangel.tui.play import PlayResult, PlaySession, ScriptedAnswers, make_bots

# -- helpers -------------------------------------------------------------------------------------


def script(
    players: int, seed: int, seats: Mapping[int, str] | None = None, chooser: int = 7
) -> tuple[list[str], Game, list[int]]:
    """The answers (menu numbers) of the human seats in game ``seed``, the game they lead to
    (with its log), and the seat of each answer."""
    game = Game(GameConfig(players, seed=seed), log=True)
    controllers = {s: (seats or {}).get(s, "human") for s in range(1, players + 1)}
    seat_bots = make_bots(game, controllers, key=TEST_BOT_KEY)
    person = RandomPlayer(chooser)
    lines: list[str] = []
    who: list[int] = []
    while (decision := game.decision) is not None:
        if decision.seat in seat_bots:
            option = seat_bots[decision.seat].choose(game.observation(decision.seat), decision)
        else:
            option = person.choose(None, decision)
            lines.append(str(decision.options.index(option) + 1))
            who.append(decision.seat)
        game.apply(option)
    return lines, game, who


def write_lines(path: Path, lines: Sequence[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def start(*args: str | Path, cwd: Path, stdin: str | None = None) -> subprocess.Popen[str]:
    """The real command, started (several may run at once; see :func:`finish`)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "deathangel", *map(str, args)],
        cwd=cwd,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)  # small: fits the pipe, so no reader is needed yet
        proc.stdin.close()
        proc.stdin = None  # communicate() must not flush it again
    return proc


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def run(*args: str | Path, cwd: Path, stdin: str | None = None) -> tuple[int, str, str]:
    return finish(start(*args, cwd=cwd, stdin=stdin))


def prompt_lines(out: str) -> list[str]:
    """The echoed prompt-and-answer lines of a transcript, in order."""
    return [line for line in out.splitlines() if line.startswith("seat ") and "]> " in line]


def prompt_positions(out: str) -> list[tuple[int, str]]:
    """Each echoed prompt-and-answer line with the offset where it starts."""
    found = []
    offset = 0
    for line in out.splitlines(keepends=True):
        if line.startswith("seat ") and "]> " in line:
            found.append((offset, line.rstrip("\n")))
        offset += len(line)
    return found


def saved(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def outcome_line(game: Game) -> str:
    return f"Game over: {game.outcome} after {game.state.round} round(s)."


# -- a whole game --------------------------------------------------------------------------------


def test_a_scripted_solo_game_plays_to_its_end(tmp_path: Path) -> None:
    lines, game, _ = script(1, seed=11)
    answers = write_lines(tmp_path / "answers.txt", lines)
    code, out, err = run(
        "play", "--seed", "11", "--input", answers, "--save", "g.json", cwd=tmp_path
    )
    assert code == 0, err
    assert err == ""
    assert outcome_line(game) in out
    assert "Saved to g.json" in out
    prompts = prompt_lines(out)
    assert all(p.startswith("seat 1 [") for p in prompts)  # one person: seat 1 every time
    assert [p.rsplit("> ", 1)[1] for p in prompts] == lines
    assert "Pass to seat" not in out  # no hand-off for one person
    data = saved(tmp_path / "g.json")
    assert data["state"] == game.to_save()["state"]
    assert data["decisions"] == [o.code() for o in game.history]
    assert data["seats"] == {"1": "human"}
    for line in game.log:  # every roll with its reason was shown as it happened
        assert line in out


def test_an_all_bot_game_plays_through_on_its_own(tmp_path: Path) -> None:
    seed = 5
    code, out, err = run(
        "play", "--seat", "1=bot:random", "--seed", str(seed), "--bot-key", TEST_BOT_KEY,
        cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, err
    # The bot is seeded as `deathangel simulate` seeds it with that key: the same game.
    result = play_game(
        GameConfig(1, seed=seed), bots(strategy_factory("random"), 1, seed, TEST_BOT_KEY)
    )
    assert f"Game over: {result.outcome} after {result.rounds} round(s)." in out
    assert "Seat 1 (bot:random): " in out
    assert "]> " not in out  # nobody was asked anything
    assert out.count("Round ") < 60  # modest: boards at round starts only


def test_teams_and_seats_are_chosen_per_seat(tmp_path: Path) -> None:
    code, out, err = run(
        "play", "-p", "2", "--team", "1=purple,grey", "--seat", "1=bot:random",
        "--seat", "2=bot:random", "--seed", "3", "--save", "t.json", cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, err
    assert "Seat 1: bot:random   teams purple, grey" in out
    data = saved(tmp_path / "t.json")
    config = data["config"]
    assert isinstance(config, dict)
    assert config["teams"][0] == ["purple", "grey"]
    assert not {"purple", "grey"} & set(config["teams"][1])
    assert data["seats"] == {"1": "bot:random", "2": "bot:random"}


# -- hot seat ------------------------------------------------------------------------------------


def test_hot_seat_never_shows_the_other_players_face_down_cards(tmp_path: Path) -> None:
    lines, game, _ = script(2, seed=4)
    answers = write_lines(tmp_path / "answers.txt", lines)
    code, out, err = run("play", "-p", "2", "--seed", "4", "--input", answers, cwd=tmp_path)
    assert code == 0, err
    assert outcome_line(game) in out
    # Seat 1 chose its round-1 cards; they may be shown again only by the reveal.
    replay = Game(game.config, log=True)
    for option in game.history:
        if replay.state.revealed and replay.state.round == 1:
            break
        replay.apply(option)
    seat1_cards = [
        card for team, card in replay.state.chosen.items() if team in replay.state.seats[0]
    ]
    assert len(seat1_cards) == 2
    handed = out.index("Pass to seat 2")
    assert out.rindex("seat 1 [", 0, handed) < handed  # seat 1 answered first
    reveal = out.index("revealed: ", handed)
    between = out[handed:reveal]
    assert "seat 2 [" in between  # seat 2 chose in that stretch
    for card in seat1_cards:
        assert card not in between, f"seat 1's {card!r} shown to seat 2 before the reveal"
        assert card in out[reveal : out.index("\n", reveal)]


def test_the_terminal_is_passed_only_before_a_private_decision(tmp_path: Path) -> None:
    lines, game, who = script(2, seed=4)
    replay = Game(game.config)
    private = []  # per answer: was it a face-down card or a hidden Instinct choice?
    for option in game.history:
        decision = replay.decision
        assert decision is not None
        private.append(decision.kind == CHOOSE_ACTION or replay.state.event_hidden)
        replay.push(option)
    assert not all(private) and any(private)
    answers = write_lines(tmp_path / "answers.txt", lines)
    code, out, err = run("play", "-p", "2", "--seed", "4", "--input", answers, cwd=tmp_path)
    assert code == 0, err
    echoes = prompt_positions(out)
    assert len(echoes) == len(lines)
    start = 0
    for k, (offset, _) in enumerate(echoes):
        handed = re.findall(r"^Pass to seat (\d)", out[start:offset], re.M)
        if private[k] and (k == 0 or not private[k - 1] or who[k - 1] != who[k]):
            assert handed == [str(who[k])], (k, out[start:offset])
        else:
            assert handed == [], (k, out[start:offset])
        start = offset


def test_a_hidden_instinct_event_is_shown_only_after_the_hand_off(tmp_path: Path) -> None:
    # A game where seat A answers, an Instinct event is drawn (hidden: several players), and
    # the current player B != A answers next: the event's name belongs to B's screen only.
    found: tuple[int, int, str | None, int] | None = None
    for seed in range(40):
        lines, game, who = script(2, seed=seed)  # every seat human: one answer a decision
        replay = Game(game.config)
        for k, option in enumerate(game.history):
            decision = replay.decision
            assert decision is not None
            if k > 0 and replay.state.event_hidden and who[k - 1] != decision.seat:
                found = (seed, k, replay.observation(decision.seat).event, decision.seat)
                break
            replay.push(option)
        if found is not None:
            break
    # Seeds 0-39 hold one; if a rules change removed them all, the test must say so.
    assert found is not None, "no seed with a hidden Instinct event between two players"
    seed, k, event, seat = found
    assert event is not None
    answers = write_lines(tmp_path / "answers.txt", lines)
    code, out, err = run("play", "-p", "2", "--seed", str(seed), "--input", answers, cwd=tmp_path)
    assert code == 0, err
    echoes = prompt_positions(out)
    assert len(echoes) == len(lines)
    after_previous = echoes[k - 1][0] + len(echoes[k - 1][1])  # seat A has answered
    answer = echoes[k][0]  # seat B answers
    hand_off = out.index(f"Pass to seat {seat}", after_previous, answer)
    assert f"Event: {event}" not in out[after_previous:hand_off]
    assert f"Event: {event}" in out[hand_off:answer]


def test_bots_narrate_their_choices_but_not_their_face_down_cards(tmp_path: Path) -> None:
    lines, game, _ = script(2, seed=6, seats={2: "bot:random"})
    answers = write_lines(tmp_path / "answers.txt", lines)
    code, out, err = run(
        "play", "-p", "2", "--seed", "6", "--seat", "2=bot:random", "--input", answers,
        "--bot-key", TEST_BOT_KEY,
        cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, err
    assert outcome_line(game) in out
    narrated = [line for line in out.splitlines() if line.startswith("Seat 2 (bot:random)")]
    assert narrated
    face_down = [line for line in narrated if "action card" in line]
    assert face_down
    assert all(line.endswith(", face down") for line in face_down)
    assert "Pass to seat" not in out  # one person: the screen is never handed over


# -- save, resume, replay ------------------------------------------------------------------------


def test_save_and_resume_continue_exactly_like_the_uninterrupted_game(tmp_path: Path) -> None:
    seed = 9
    lines, game, _ = script(2, seed=seed, seats={2: "bot:random"})
    cut = len(lines) // 2
    whole = write_lines(tmp_path / "whole.txt", lines)
    first = write_lines(tmp_path / "first.txt", lines[:cut])
    rest = write_lines(tmp_path / "rest.txt", lines[cut:])
    common = (
        "play", "-p", "2", "--seed", str(seed), "--seat", "2=bot:random",
        "--bot-key", TEST_BOT_KEY,
    )  # fmt: skip
    uninterrupted = start(*common, "--input", whole, "--save", "whole.json", cwd=tmp_path)
    code, out, err = run(*common, "--input", first, "--save", "part.json", cwd=tmp_path)
    assert code == 2
    assert err.strip() == "error: input ended before the game did"
    assert "Traceback" not in out + err
    assert "Game saved to part.json" in out
    part = saved(tmp_path / "part.json")
    assert part["pending"] is not None
    assert part["seats"] == {"1": "human", "2": "bot:random"}
    code, out, err = run("play", "--resume", "part.json", "--input", rest, cwd=tmp_path)
    assert code == 0, err
    assert "Resuming part.json" in out
    assert outcome_line(game) in out
    code, _, err = finish(uninterrupted)
    assert code == 0, err
    assert saved(tmp_path / "part.json") == saved(tmp_path / "whole.json")
    assert saved(tmp_path / "whole.json")["state"] == game.to_save()["state"]


def test_quit_saves_and_the_game_resumes_from_there(tmp_path: Path) -> None:
    lines, game, _ = script(1, seed=2)
    first = write_lines(tmp_path / "first.txt", [*lines[:5], "quit"])
    code, out, err = run("play", "--seed", "2", "--input", first, "--save", "q.json", cwd=tmp_path)
    assert (code, err) == (0, "")
    hint = re.search(r"Game saved to q\.json; continue it with: (.+ play --resume q\.json)\n", out)
    assert hint is not None, out
    assert len(saved(tmp_path / "q.json")["decisions"]) == 5  # type: ignore[arg-type]
    write_lines(tmp_path / "rest.txt", lines[5:])
    # The hint is typed into a shell exactly as printed.
    done = subprocess.run(
        f"{hint.group(1)} --input rest.txt", shell=True, cwd=tmp_path, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert saved(tmp_path / "q.json")["state"] == game.to_save()["state"]


def test_replay_shows_every_decision_and_every_roll(tmp_path: Path) -> None:
    lines, game, _ = script(1, seed=11)
    answers = write_lines(tmp_path / "answers.txt", lines)
    code, _, err = run("play", "--seed", "11", "--input", answers, "--save", "g.json", cwd=tmp_path)
    assert code == 0, err
    before = (tmp_path / "g.json").read_bytes()
    fast = start("replay", "g.json", "--speed", "0", cwd=tmp_path)
    stepped = start("replay", "g.json", cwd=tmp_path, stdin="\n\nq\n")
    code, out, err = finish(fast)
    assert code == 0, err
    for line in game.log:
        assert line in out, f"replay does not show {line!r}"
    assert out.count("Decision ") == len(game.history)
    assert outcome_line(game) in out
    code, out, err = finish(stepped)
    assert code == 0, err
    assert out.count("Decision ") == 2
    assert "Replay stopped." in out
    assert (tmp_path / "g.json").read_bytes() == before


def test_replay_of_a_game_saved_before_its_end(tmp_path: Path) -> None:
    lines, _, _ = script(1, seed=2)
    first = write_lines(tmp_path / "first.txt", lines[:4])
    code, _, _ = run("play", "--seed", "2", "--input", first, "--save", "p.json", cwd=tmp_path)
    assert code == 2
    code, out, err = run("replay", "p.json", "--speed", "0", cwd=tmp_path)
    assert code == 0, err
    assert out.count("Decision ") == 4
    assert "Saved before the end" in out


@pytest.mark.parametrize(
    "content",
    [
        b"{ not json",
        b'{"format": "someone-else", "version": 1}\n',
        b"\xff\xfe\x00garbage",
        b"[1, 2, 3]\n",
    ],
    ids=["not-json", "foreign", "binary", "a-list"],
)
def test_a_corrupt_or_foreign_save_is_refused_and_left_untouched(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    resume = start("play", "--resume", "bad.json", cwd=tmp_path)
    watch = start("replay", "bad.json", "--speed", "0", cwd=tmp_path)
    for proc in (resume, watch):
        code, out, err = finish(proc)
        assert code == 1
        assert out == ""
        assert err.startswith("error: bad.json: ")
        assert err.count("\n") == 1
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_an_edited_save_is_refused_and_left_untouched(tmp_path: Path) -> None:
    lines, _, _ = script(1, seed=2)
    first = write_lines(tmp_path / "first.txt", lines[:6])
    run("play", "--seed", "2", "--input", first, "--save", "e.json", cwd=tmp_path)
    data = saved(tmp_path / "e.json")
    data["decisions"][2] = ["card", "Teleport Everyone"]  # type: ignore[index]
    (tmp_path / "e.json").write_text(json.dumps(data), encoding="utf-8")
    edited = (tmp_path / "e.json").read_bytes()
    code, _, err = run("play", "--resume", "e.json", cwd=tmp_path, stdin="1\n")
    assert code == 1
    assert err.startswith("error: e.json: decision 3 of the save cannot be replayed")
    assert err.count("\n") == 1
    assert (tmp_path / "e.json").read_bytes() == edited


# -- answers and commands ------------------------------------------------------------------------


def test_a_bad_answer_is_explained_and_asked_again(tmp_path: Path) -> None:
    lines, game, _ = script(1, seed=11)
    with_mistakes = ["99", "xyz", "", "0", *lines[:3], "-1", *lines[3:]]
    code, out, err = run(
        "play", "--seed", "11", "--save", "g.json", cwd=tmp_path,
        stdin="".join(f"{line}\n" for line in with_mistakes),  # stdin not a terminal
    )  # fmt: skip
    assert code == 0, err
    assert "There is no option 99" in out
    assert "'xyz' is not an option or a command" in out
    assert "There is no option 0" in out
    assert "'-1' is not an option or a command" in out
    assert "Traceback" not in out + err
    assert saved(tmp_path / "g.json")["state"] == game.to_save()["state"]


def test_commands_work_at_any_prompt_and_option_text_is_an_answer(tmp_path: Path) -> None:
    lines, game, _ = script(1, seed=11)
    first = Game(GameConfig(1, seed=11)).decision
    assert first is not None
    as_text = str(first.options[int(lines[0]) - 1]).upper()
    commands = [
        "?", "board", "cards", "cards Block", "cards Nonsense Card", "log", "log all",
        "save manual.json", as_text,
    ]  # fmt: skip
    code, out, err = run(
        "play", "--seed", "11", cwd=tmp_path,
        stdin="".join(f"{line}\n" for line in [*commands, *lines[1:]]),
    )  # fmt: skip
    assert code == 0, err
    assert "Commands (at any prompt):" in out
    assert "Cards in play" in out
    assert "no card named 'Nonsense Card'" in out
    assert "setup event: " in out
    assert "Saved to manual.json" in out
    assert outcome_line(game) in out
    assert saved(tmp_path / "manual.json")["state"] == game.to_save()["state"]


def test_bad_options_are_refused_in_one_line(tmp_path: Path) -> None:
    cases = {
        ("play", "-p", "7"): "--players must be between 1 and 6",
        ("play", "--seat", "1=robot"): "a seat is 'human' or 'bot:STRATEGY'",
        ("play", "--seat", "1=bot:nobody"): "unknown strategy 'nobody'",
        ("play", "--seat", "3=bot:random"): (
            "--seat names seat 3, but a 1-player game has seat 1 (set --players)"
        ),
        (
            "play",
            "-p",
            "2",
            "--team",
            "3=green",
        ): "--team names seat 3, but a 2-player game has seats 1-2",
        ("play", "-p", "2", "--team", "1=green,pink"): "unknown team 'pink'",
        ("play", "--resume", "x.json", "--seed", "3"): "--seed cannot change a resumed game",
        ("play", "--input", "missing.txt"): (
            "missing.txt: cannot read the answers: No such file or directory"
        ),
        ("play", "--save", "no-such-dir/x.json"): "no-such-dir/x.json: cannot save",
    }
    procs = {args: start(*args, cwd=tmp_path) for args in cases}
    for args, message in cases.items():
        code, _, err = finish(procs[args])
        assert code == 1, args
        assert err.startswith("error: ") and message in err, (args, err)
        assert err.count("\n") == 1 and "[Errno" not in err, err
    assert list(tmp_path.iterdir()) == []


# -- the library, in-process ---------------------------------------------------------------------


def test_a_session_runs_in_process_with_scripted_answers() -> None:
    lines, game, _ = script(2, seed=6, seats={2: "bot:random"})
    console = Console(file=io.StringIO(), width=100)
    fresh = Game(GameConfig(2, seed=6), log=True)
    session = PlaySession(
        fresh,
        {1: "human", 2: "bot:random"},
        console=console,
        answers=ScriptedAnswers(["nonsense", *lines], console),
        bot_key=TEST_BOT_KEY,
    )
    result = session.run()
    assert (result.status, result.exit_code) == ("over", 0)
    assert fresh.to_save() == game.to_save()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "'nonsense' is not an option or a command" in out
    assert outcome_line(game) in out


def test_a_session_stops_cleanly_when_the_answers_run_out() -> None:
    console = Console(file=io.StringIO(), width=100)
    session = PlaySession(
        Game(GameConfig(1, seed=1), log=True),
        {1: "human"},
        console=console,
        answers=ScriptedAnswers(["1", "board"], console),
    )
    result = session.run()
    assert result == PlayResult("input_ended", 2, "input ended before the game did")

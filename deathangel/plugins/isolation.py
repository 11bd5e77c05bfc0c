"""Bots in processes of their own (``--isolate``): for bots nobody has read.

A bot in the game's process is handed only values (its seat's observation, the decision), but
it is Python code in the same process: one written to cheat can always look around the
process's memory and find the game. The answer is a process of its own. Each isolated bot runs
in a child process (``python -m deathangel.plugins.isolation``) that loads the same cards and
strategies and receives, for each decision, the seat's observation and the decision *as data*
(:mod:`deathangel.engine.viewdata`) over a pipe, and answers with an option's code. The game's
process checks the answer like any other bot's. Nothing but that data crosses.

Each (strategy, seat) gets its own child, so two seats played by the same strategy cannot see
each other's face-down cards either; a child plays one bot at a time and lives as long as the
run (a new game's bot replaces the last one), so its start-up is paid once per run, not per
game. The results are the same as in process on the same seeds (the bot receives an equal
observation); the cost is the copying, measured in docs/strategies.md.

What isolation does not do: the child is an ordinary process of the same user, so it can read
files (a save, a results database) and enumerate small game seeds. For bots you do not trust
at all, also run the whole tournament as a user that can read nothing else, and use large
random game seeds.

The protocol, one JSON object a line each way: the parent starts the child with its context
(expansions, variants, extra plugin modules); the child answers ``{"ready": true}``. Then
``{"op": "new", "spec": ..., "seed": N}`` → ``{"ok": CAPABILITIES}``;
``{"op": "start"|"end", ...}`` → ``{"ok": null}``; ``{"op": "choose", "observation": ...,
"decision": ...}`` → ``{"option": CODE}``. Any failure answers ``{"error": "one line"}``.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from attrs import frozen

from deathangel.engine.decisions import Option
from deathangel.engine.viewdata import decision_data, observation_data
from deathangel.errors import DeathAngelError
from deathangel.plugins.strategies import StrategySpec

if TYPE_CHECKING:
    from deathangel.engine.decisions import Decision
    from deathangel.engine.observation import Observation
    from deathangel.engine.ruleset import Ruleset

MakeBot = Callable[[StrategySpec, int, int], Any]
"""Builds the bot of a strategy spec for a seat with a seed: ``maker(spec, seat, seed)``."""


class IsolationError(DeathAngelError, RuntimeError):
    """An isolated bot failed, or its process ended or answered out of turn."""


@frozen
class IsolationContext:
    """What a child needs to load the cards and strategies the game is played with."""

    expansions: tuple[str, ...] = ()
    """Installed plugins the game is played with (``--with``), in order."""
    variants: tuple[tuple[str, str], ...] = ()
    """Rule variants, as (name, value)."""
    modules: tuple[str, ...] = ()
    """Extra modules registered as plugins (a tournament's ``plugins``)."""

    @classmethod
    def of(cls, ruleset: Ruleset | None) -> IsolationContext:
        if ruleset is None:
            return cls()
        return cls(tuple(name for name, _ in ruleset.plugins), ruleset.variants)

    def to_dict(self) -> dict[str, Any]:
        return {
            "with": list(self.expansions),
            "variants": [list(v) for v in self.variants],
            "modules": list(self.modules),
        }


# -- the game's side -----------------------------------------------------------------------------


class _Child:
    """One child process and its pipes."""

    def __init__(self, context: IsolationContext, label: str) -> None:
        self.label = label
        env = dict(os.environ)
        # The child imports what this process can (a tournament's plugin modules may come from
        # folders put on the path at run time, e.g. by a test runner).
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "deathangel.plugins.isolation", json.dumps(context.to_dict())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
            encoding="utf-8",
        )
        self.ask(None)  # the child's {"ready": true}, or the reason it could not start

    def ask(self, message: dict[str, Any] | None) -> Any:
        """Send ``message`` (none: only read) and return the child's answer."""
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        try:
            if message is not None:
                proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
                proc.stdin.flush()
            line = proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            code = proc.wait()
            raise IsolationError(f"{self.label}: its process ended (exit status {code})")
        answer = json.loads(line)
        if "error" in answer:
            raise IsolationError(f"{self.label}: {answer['error']}")
        return answer.get("ok", answer)

    def close(self) -> None:
        proc = self.proc
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                assert proc.stdin is not None
                proc.stdin.close()  # the child ends at the end of its input
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


class IsolatedPlayer:
    """The game's side of an isolated bot: a player that sends its seat's view as data and
    reads back an option. It declares what the bot declares (``observes``,
    ``uses_forward_model``, ``replays_on_resume``)."""

    def __init__(self, child: _Child, capabilities: dict[str, Any]) -> None:
        self._child = child
        self.observes = bool(capabilities["observes"])
        self.uses_forward_model = bool(capabilities["uses_forward_model"])
        self.replays_on_resume = bool(capabilities["replays_on_resume"])
        self._hooks = frozenset(capabilities["hooks"])

    def choose(self, observation: Observation | None, decision: Decision) -> Option:
        answer = self._child.ask(
            {
                "op": "choose",
                "observation": None if observation is None else _observation(observation),
                "decision": decision_data(decision),
            }
        )
        try:
            return Option.from_code(answer["option"])
        except (KeyError, TypeError, ValueError):
            raise IsolationError(f"{self._child.label}: answered {answer!r}") from None

    def start_game(self, seats: tuple[int, ...], observation: Observation) -> None:
        if "start_game" in self._hooks:
            self._child.ask(
                {"op": "start", "seats": list(seats), "observation": _observation(observation)}
            )

    def end_game(self, outcome: str, observation: Observation) -> None:
        if "end_game" in self._hooks:
            self._child.ask(
                {"op": "end", "outcome": outcome, "observation": _observation(observation)}
            )


class IsolatedBots:
    """Makes isolated bots, one child process per (strategy, seat), kept for the run; a
    :data:`MakeBot`. Close it (or use it as a context manager) to end the children."""

    def __init__(self, context: IsolationContext) -> None:
        self.context = context
        self._children: dict[tuple[str, int], _Child] = {}

    def __call__(self, spec: StrategySpec, seat: int, seed: int) -> IsolatedPlayer:
        key = (json.dumps(_spec_data(spec), sort_keys=True), seat)
        child = self._children.get(key)
        if child is not None and child.proc.poll() is not None:
            child.close()  # its bot ended it (that game failed): a new one for the next
            child = None
        if child is None:
            child = self._children[key] = _Child(
                self.context, f"isolated strategy {spec.text!r} (seat {seat})"
            )
        capabilities = child.ask({"op": "new", "spec": _spec_data(spec), "seed": seed})
        return IsolatedPlayer(child, capabilities)

    def close(self) -> None:
        for child in self._children.values():
            child.close()
        self._children.clear()

    def __enter__(self) -> IsolatedBots:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def isolated_bots(isolate: bool, ruleset: Ruleset | None = None) -> Iterator[MakeBot | None]:
    """A maker of isolated bots for a run with ``ruleset`` (``None`` when not ``isolate``:
    bots are made in this process), its children ended when the run is over."""
    if not isolate:
        yield None
        return
    with IsolatedBots(IsolationContext.of(ruleset)) as make:
        yield make


_SHARED: dict[IsolationContext, IsolatedBots] = {}


def shared_isolated_bots(context: IsolationContext) -> IsolatedBots:
    """The isolated bots of a worker process (a tournament's), kept from batch to batch and
    ended when the process exits."""
    bots = _SHARED.get(context)
    if bots is None:
        if not _SHARED:
            atexit.register(_close_shared)
        bots = _SHARED[context] = IsolatedBots(context)
    return bots


def _close_shared() -> None:
    for bots in _SHARED.values():
        bots.close()
    _SHARED.clear()


def _observation(observation: Observation) -> dict[str, Any]:
    """The observation as data, with the rule switches its card tables were built with (a
    game's handicap or variants): the child builds the same tables."""
    data = observation_data(observation)
    data["switches"] = observation.table.switches.changed()
    return data


def _spec_data(spec: StrategySpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "values": {k: str(v) if isinstance(v, os.PathLike) else v for k, v in spec.values.items()},
        "text": spec.text,
        "base": None if spec.base is None else str(spec.base),
    }


# -- the bot's side ------------------------------------------------------------------------------


def serve(context: dict[str, Any], requests: IO[str], answers: IO[str]) -> None:
    """Play bots for requests read from ``requests``, answering on ``answers``, until the
    requests end."""
    from pathlib import Path

    from deathangel.engine.game import card_table
    from deathangel.engine.switches import Switches
    from deathangel.engine.viewdata import decision_from_data, observation_from_data
    from deathangel.plugins.manager import plugin_manager
    from deathangel.plugins.ruleset import load_ruleset
    from deathangel.plugins.strategies import strategies

    def send(message: dict[str, Any]) -> None:
        answers.write(json.dumps(message, separators=(",", ":")) + "\n")
        answers.flush()

    try:
        modules = [importlib.import_module(m) for m in context["modules"]]
        expansions = [str(n) for n in context["with"]]
        ruleset = load_ruleset(expansions, variants=[(n, v) for n, v in context["variants"]])
        found = strategies(plugin_manager(expansions, extra=modules))
    except Exception as exc:  # anything that stops the child from starting, in one line
        send({"error": f"cannot load the game's cards and strategies: {_line(exc)}"})
        return
    send({"ready": True})
    tables: dict[str, Any] = {}
    bot: Any = None

    def observation(data: dict[str, Any] | None) -> Any:
        if data is None:
            return None
        # The game's table may differ from the ruleset's by a handicap (start tokens).
        switches = json.dumps(data.get("switches", {}), sort_keys=True)
        table = tables.get(switches)
        if table is None:
            table = tables[switches] = card_table(
                ruleset.db, Switches(**json.loads(switches)) if switches != "{}" else None
            )
        return observation_from_data(data, table, ruleset.abilities)

    for line in requests:
        try:
            request = json.loads(line)
            op = request["op"]
            if op == "new":
                s = request["spec"]
                spec = StrategySpec(
                    s["name"],
                    s["values"],
                    s["text"],
                    None if s["base"] is None else Path(s["base"]),
                )
                bot = spec.make(int(request["seed"]), found=found)
                send(
                    {
                        "ok": {
                            "observes": bool(getattr(bot, "observes", True)),
                            "uses_forward_model": bool(getattr(bot, "uses_forward_model", False)),
                            "replays_on_resume": bool(getattr(bot, "replays_on_resume", True)),
                            "hooks": [h for h in ("start_game", "end_game") if hasattr(bot, h)],
                        }
                    }
                )
            elif bot is None:
                send({"error": f"{op!r} before any bot was made"})
            elif op == "choose":
                option = bot.choose(
                    observation(request["observation"]), decision_from_data(request["decision"])
                )
                send({"option": option.code()})
            elif op == "start":
                bot.start_game(tuple(request["seats"]), observation(request["observation"]))
                send({"ok": None})
            elif op == "end":
                bot.end_game(request["outcome"], observation(request["observation"]))
                send({"ok": None})
            else:
                send({"error": f"unknown request {op!r}"})
        except Exception as exc:  # the bot's own failure: reported, the child goes on
            send({"error": _line(exc)})


def _line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def main(argv: Sequence[str]) -> int:
    # Answers go on a copy of the original standard output; the bot's own prints go to
    # standard error, so nothing a bot prints can be read as an answer.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    context = json.loads(argv[0]) if argv else {"with": [], "variants": [], "modules": []}
    serve(context, sys.stdin, answers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

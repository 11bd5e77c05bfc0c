"""The package map of docs/architecture.md, kept true: rooms import only downward, and no
module of ``deathangel/`` imports another in a circle. Test files import their helpers one way.

Every ``import`` statement counts, including those under ``if TYPE_CHECKING:`` and those inside
functions: a circle that only type checkers see is still two modules that cannot be
understood apart.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "deathangel"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# Which rooms each room may import (besides itself). The same table is drawn in
# docs/architecture.md; test_the_document_draws_this_table keeps the two in step.
ALLOWED: dict[str, frozenset[str]] = {
    "base": frozenset(),
    "cards": frozenset({"base"}),
    "engine": frozenset({"cards", "base"}),
    "players": frozenset({"engine", "cards", "base"}),
    "scenario": frozenset({"engine", "cards", "base"}),
    "plugins": frozenset({"players", "engine", "cards", "base"}),
    "learning": frozenset({"plugins", "players", "engine", "cards", "base"}),
    "analysis": frozenset(
        {"learning", "plugins", "players", "scenario", "engine", "cards", "base"}
    ),
    "tournament": frozenset(
        {"analysis", "learning", "plugins", "players", "scenario", "engine", "cards", "base"}
    ),
    "tui": frozenset(
        {
            "tournament",
            "analysis",
            "learning",
            "plugins",
            "players",
            "scenario",
            "engine",
            "cards",
            "base",
        }
    ),
    "cli": frozenset(
        {
            "tui",
            "tournament",
            "analysis",
            "learning",
            "plugins",
            "players",
            "scenario",
            "engine",
            "cards",
            "base",
        }
    ),
    "api": frozenset({"plugins", "players", "scenario", "engine", "cards", "base"}),
    "main": frozenset({"cli"}),
}
"""``base`` is the shared bottom (``errors``, ``version``, ``readonly``, ``filelocks``);
``api`` is ``deathangel/__init__``, the library's front door; ``main`` is ``__main__``
(``python -m deathangel``)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "api"
    if parts[1] == "__main__":
        return "main"
    if parts[1] in ("errors", "version", "readonly", "filelocks"):
        return "base"
    return parts[1]


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported_modules(path: Path, known: set[str]) -> Iterator[str]:
    """The deathangel modules a file imports, resolved to modules (a name imported from a
    package that is itself a submodule counts as that submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("deathangel"):
                    yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("deathangel"):
                continue
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                yield sub if sub in known else node.module


@functools.cache
def _parsed_graph() -> dict[str, frozenset[str]]:
    """The import graph as the files on disk have it, parsed once per test process: each
    parse of the package takes about a second, and seven tests ask for the graph."""
    mods = modules()
    known = set(mods)
    return {
        name: frozenset(m for m in imported_modules(path, known) if m != name)
        for name, path in mods.items()
    }


def import_graph() -> dict[str, set[str]]:
    """Which deathangel modules each module imports: a fresh copy a test may change."""
    return {name: set(targets) for name, targets in _parsed_graph().items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as a path that returns to its start, or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def forbidden_imports(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, targets in sorted(graph.items()):
        room = room_of(module)
        for target in sorted(targets):
            other = room_of(target)
            if other != room and other not in ALLOWED[room]:
                bad.append(f"{module} ({room}) imports {target} ({other})")
    return bad


TESTS = ROOT / "tests"


def helper_import_problems(text: str, name: str) -> list[str]:
    """Imports of the test helpers other than by name (``from support import ...``, found
    through ``pythonpath = ["tests"]``): through a ``tests`` package or relative. Either would
    load a helper a second time, as another module, under another name."""
    problems = []
    for node in ast.walk(ast.parse(text, name)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                problems.append(f"{name}:{node.lineno}: relative import")
            elif module == "tests" or module.startswith("tests."):
                problems.append(f"{name}:{node.lineno}: from {module} import ...")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tests" or alias.name.startswith("tests."):
                    problems.append(f"{name}:{node.lineno}: import {alias.name}")
    return problems


# -- the checks ---------------------------------------------------------------------------------


def test_no_module_imports_another_in_a_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_rooms_import_only_downward() -> None:
    assert forbidden_imports(import_graph()) == []


def test_every_module_lives_in_a_known_room() -> None:
    assert {room_of(m) for m in modules()} <= set(ALLOWED)


def test_test_files_import_their_helpers_by_name() -> None:
    problems = []
    for path in sorted(TESTS.rglob("*.py")):
        name = str(path.relative_to(ROOT))
        problems += helper_import_problems(path.read_text(encoding="utf-8"), name)
    assert problems == []


def test_the_document_draws_this_table() -> None:
    """docs/architecture.md lists, for each room, the rooms it may import."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    drawn: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        m = re.fullmatch(r"- `(\w+)` → (.*)", line.strip())
        if m:
            targets = re.findall(r"`(\w+)`", m.group(2))
            drawn[m.group(1)] = frozenset(targets)
    assert drawn == ALLOWED


# -- the checks themselves can fail -------------------------------------------------------------


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize(
    ("module", "target"),
    [
        ("deathangel.engine.rounds", "deathangel.cli.app"),
        ("deathangel.engine.game", "deathangel.players.random"),
        ("deathangel.cards.model", "deathangel.engine.state"),
        ("deathangel.players.random", "deathangel.analysis.simulate"),
        ("deathangel.engine.state", "deathangel.tui.board"),
    ],
)
def test_a_forbidden_import_is_reported(module: str, target: str) -> None:
    graph = import_graph()
    graph[module] = graph[module] | {target}
    assert forbidden_imports(graph) == [
        f"{module} ({room_of(module)}) imports {target} ({room_of(target)})"
    ]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (
            "from tests.invariants import check_invariants",
            "t.py:2: from tests.invariants import ...",
        ),
        ("import tests.support", "t.py:2: import tests.support"),
        ("from .support import build_state", "t.py:2: relative import"),
    ],
)
def test_a_helper_imported_another_way_is_reported(line: str, problem: str) -> None:
    text = f"from support import table\n{line}\n"
    assert helper_import_problems(text, "t.py") == [problem]
    assert helper_import_problems("from invariants import check_invariants\n", "t.py") == []

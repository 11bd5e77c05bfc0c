"""The tutorial of docs/plugins.md, followed word for word in an empty folder.

Its code blocks are read in order: a block whose info string names a file
(```` ```toml file=PATH ````) writes that file; an ``sh`` block's lines are run, unchanged,
by a shell whose ``pip`` installs into a fresh environment (no network, no dependencies:
they are this environment's) and whose ``deathangel`` is that environment's. Every command
must succeed; the game it plays must end.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from plugin_kit import ROOT, reader_shell, run_as_reader

DOC = ROOT / "docs" / "plugins.md"
BLOCK = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)


def tutorial_steps() -> list[tuple[str, str, str]]:
    """``(kind, target, text)`` for each block of the tutorial section, in order: kind
    ``file`` (target: the path) or ``sh`` (target: empty)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Tutorial")
    end = text.index("\n## ", start + 1)
    steps = []
    for match in BLOCK.finditer(text[start:end]):
        info = match["info"].split()
        if not info:
            continue
        files = [part[len("file=") :] for part in info if part.startswith("file=")]
        if files:
            steps.append(("file", files[0], match["body"]))
        elif info[0] == "sh":
            steps.append(("sh", "", match["body"]))
    return steps


def test_the_tutorial_reads_as_files_and_commands() -> None:
    steps = tutorial_steps()
    kinds = [kind for kind, _, _ in steps]
    assert kinds.count("file") >= 4 and kinds.count("sh") >= 3
    commands = [line for kind, _, body in steps if kind == "sh" for line in body.splitlines()]
    assert any(line.startswith("pip install") for line in commands)
    assert any(line.startswith("deathangel play --with ironclad") for line in commands)
    # The last step proves the plugin never breaks a game.
    assert commands[-1].startswith("deathangel check --with ironclad")


@pytest.mark.long
def test_following_the_tutorial_word_for_word_plays_a_game(tmp_path: Path) -> None:
    work, env = reader_shell(tmp_path)
    outputs: list[str] = []
    for kind, target, body in tutorial_steps():
        if kind == "file":
            path = work / target
            assert path.parent.is_dir(), f"the tutorial writes {target} before making its folder"
            path.write_text(body, encoding="utf-8")
            continue
        for line in body.splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            result = run_as_reader(line, work, env, timeout=300)
            assert result.returncode == 0, f"{line!r} failed:\n{result.stdout}\n{result.stderr}"
            outputs.append(result.stdout)
    joined = "\n".join(outputs)
    assert "ironclad (deathangel-ironclad 0.1.0) — Ironclad: loads" in joined
    assert "teams:      bronze" in joined
    assert joined.count("Game over:") == 2  # the two games the tutorial plays
    assert "60 game(s) checked (1, 2, 3, 4, 5, 6 player(s); random, rules)" in joined
    assert "the invariants checked after each: no fault" in joined
    # The second game's Shield Wall rallies: Varro, the one marine left without a token,
    # takes the second one (a single choice is never asked, RULES §14.3).
    assert (
        "Shield Wall (bronze) resolves\n"
        "Seat 1 (bot:random): Brother Tycho (Shield Wall: support token)\n"
        "  support token on Brother Tycho\n"
        "  a support token is placed on Sergeant Varro\n"
    ) in joined


@pytest.mark.parametrize("drop", ["deathangel_manifest", "deathangel_card_dirs"])
def test_the_tutorial_plugin_needs_each_of_its_hooks(tmp_path: Path, drop: str) -> None:
    """The check can fail: the tutorial's first plugin without one of its two hooks does
    not give the bronze team."""
    from deathangel.errors import DeathAngelError
    from deathangel.plugins.ruleset import load_ruleset

    steps = tutorial_steps()
    source = next(body for kind, target, body in steps if target.endswith("__init__.py"))
    broken = re.sub(rf"@hookimpl\ndef {drop}\(\):\n(    .*\n)+", "", source)
    assert broken != source
    (tmp_path / "cards").mkdir()
    cards = next(body for kind, target, body in steps if target.endswith("team.toml"))
    (tmp_path / "cards" / "team.toml").write_text(cards, encoding="utf-8")
    module = type(sys)("tutorial_plugin")
    module.__file__ = str(tmp_path / "__init__.py")
    exec(compile(broken, module.__file__, "exec"), module.__dict__)
    try:
        rules = load_ruleset(extra=[module])
    except DeathAngelError as exc:
        assert drop == "deathangel_manifest" and "declares no manifest" in str(exc)
        return
    assert drop == "deathangel_card_dirs"
    assert "bronze" not in [t.color for t in rules.db.teams]

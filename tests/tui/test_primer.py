"""A newcomer can learn the game: ``docs/how-to-play.md`` and ``?`` at a prompt tell the same
summary, and the docs cite the rules in this repository."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from deathangel.engine.game import Game, GameConfig
from deathangel.tui.play import PlaySession, ScriptedAnswers
from deathangel.tui.primer import PRIMER

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def test_how_to_play_opens_with_the_summary_that_help_shows() -> None:
    text = (DOCS / "how-to-play.md").read_text(encoding="utf-8")
    block = re.search(r"## The game in one screen\n.*?```\n(.*?)```", text, re.S)
    assert block is not None
    assert block.group(1).splitlines() == list(PRIMER)
    for topic in ("## A round", "## Support tokens", "## Winning and losing", "Genestealer"):
        assert topic in text
    assert all(len(line) <= 90 for line in PRIMER)


def test_help_at_a_prompt_shows_the_summary() -> None:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    session = PlaySession(
        Game(GameConfig(1, seed=3), log=True), {1: "human"}, console=console,
        answers=ScriptedAnswers(["?"], console),
    )  # fmt: skip
    session.run()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\n".join(PRIMER) in out


def test_docs_cite_the_rules_in_this_repository() -> None:
    rules = DOCS / "rules.md"
    headings = re.findall(r"^## (\d+)\. ", rules.read_text(encoding="utf-8"), re.M)
    assert headings == [str(n) for n in range(1, 15)]  # §1-§14, as the code cites them
    for path in [REPO / "README.md", *DOCS.glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text, path.name  # the shared reference outside the repo
        assert "shared/reference" not in text, path.name
        for target in re.findall(r"\]\(([^)#]+\.md)", text):
            assert (path.parent / target).is_file(), (path.name, target)
    for name in ("engine.md", "rulings.md", "scenarios.md"):
        assert "rules.md" in (DOCS / name).read_text(encoding="utf-8"), name

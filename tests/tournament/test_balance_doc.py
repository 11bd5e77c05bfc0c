"""docs/balance.md, followed word for word: each ``sh`` block's lines run, unchanged, in an
empty folder beside the checkout's ``plugins/``, by a shell whose ``pip`` installs into a fresh
environment (offline, with this environment's packages) and whose ``deathangel`` is that
environment's. Every command must succeed, and what it prints must be on the page, table for
table (the commands name their seeds and bot key, so the figures are the same every time); the
plots they draw are the ones the page shows.

Only the check's wall time differs from run to run: it is compared as ``(… s;``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from plugin_kit import ROOT, reader_shell, run_as_reader

DOC = ROOT / "docs" / "balance.md"
BLOCK = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)
SECONDS = re.compile(r"\(\d+\.\d s;")


def commands() -> list[str]:
    """Every line of the page's ``sh`` blocks, in order."""
    text = DOC.read_text(encoding="utf-8")
    return [
        line
        for match in BLOCK.finditer(text)
        if match["info"].strip() == "sh"
        for line in match["body"].splitlines()
        if line.strip()
    ]


def normal(text: str) -> str:
    return SECONDS.sub("(… s;", text)


def test_the_page_runs_balance_report_and_check() -> None:
    lines = commands()
    assert lines[0] == "pip install ./plugins/deathangel-broodwake"
    assert [line.split()[1] for line in lines[1:]] == [
        "balance", "tournament", "balance", "cards", "cards", "check",
    ]  # fmt: skip
    assert all("--bot-key 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b" in line for line in lines if
               line.split()[1] in ("tournament", "check") or "--with" in line)  # fmt: skip
    for image in ("balance.png", "forest.png", "survival.png"):
        assert f"](balance/{image})" in DOC.read_text(encoding="utf-8")
        assert (ROOT / "docs" / "balance" / image).stat().st_size > 10_000


@pytest.mark.long
def test_following_the_page_word_for_word_gives_its_figures(tmp_path: Path) -> None:
    work, env = reader_shell(tmp_path)
    (work / "plugins").symlink_to(ROOT / "plugins")
    page = normal(DOC.read_text(encoding="utf-8"))
    for line in commands():
        result = run_as_reader(line, work, env, timeout=600)
        assert result.returncode == 0, f"{line!r} failed:\n{result.stdout}\n{result.stderr}"
        printed = normal(result.stdout.strip())
        missing = [text for text in printed.splitlines() if text not in page]
        assert printed in page, f"{line!r} printed what the page does not show: {missing}"
    for image in ("balance.png", "forest.png", "survival.png"):
        assert (work / "docs" / "balance" / image).stat().st_size > 10_000

"""The example plugin is what modders copy: its cards read as a player's cards do, with the
numbers filled in, never a parameter's placeholder (``AMOUNT``)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "plugins" / "deathangel-example"


def test_the_example_plugins_cards_show_no_placeholder_words() -> None:
    files = sorted((EXAMPLE / "deathangel_example" / "cards").glob("*.toml"))
    assert files
    checked = 0
    for path in files:
        for kind, cards in tomllib.loads(path.read_text(encoding="utf-8")).items():
            for card in cards:
                text = card.get("text", "")
                params = {k.upper() for k in card.get("effect", {}) if k != "name"}
                shouting = set(re.findall(r"\b[A-Z]{2,}\b", text))
                assert not shouting & params, (path.name, kind, card["name"], text)
                assert not shouting, (path.name, card["name"], shouting)
                checked += 1
    assert checked >= 2

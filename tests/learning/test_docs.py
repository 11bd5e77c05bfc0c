"""docs/learning.md describes what the code does: every field and column of the encoding,
every verb of the action table in order, and the table's version and pinned digest."""

from __future__ import annotations

import re

from plugin_kit import ROOT

from deathangel.engine.game import Game, GameConfig, default_database
from deathangel.learning.actions import ACTION_TABLE_VERSION, VERBS, action_table
from deathangel.learning.encoding import ENCODING_VERSION, FIELDS, encoder

DOC = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text under the heading that starts with ``heading``, to the next heading of the
    same or a higher level."""
    match = re.search(rf"^(#+) {re.escape(heading)}[^\n]*$", DOC, re.MULTILINE)
    assert match, f"docs/learning.md has no heading {heading!r}"
    level = len(match.group(1))
    rest = DOC[match.end() :]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.MULTILINE)
    return rest[: end.start()] if end else rest


def test_every_field_and_column_of_the_encoding_is_documented() -> None:
    enc = encoder(Game(GameConfig(1)).table)
    text = section("The encoding")
    assert f"ENCODING_VERSION = {ENCODING_VERSION}" in text
    for field in enc.fields:
        part = section(f"`{field.name}`")
        assert f"({' × '.join(map(str, field.shape))}" in text, field.name
        named = set(re.findall(r"`([a-z_]+)`", part))
        for group in field.columns:
            side = group.split("_", 1)
            assert group in named or (side[0] in ("left", "right") and side[1] in named), (
                f"{field.name}.{group} is not in docs/learning.md"
            )
    assert [f.name for f in enc.fields] == list(FIELDS)


def test_the_action_table_section_lists_the_verbs_in_order_and_the_pinned_digest() -> None:
    text = section("The action table")
    verbs = re.search(r"^`card`, .*?`done`$", text, re.MULTILINE | re.DOTALL)
    assert verbs is not None
    assert re.findall(r"`(\w+)`", verbs.group(0)) == list(VERBS)
    table = action_table(default_database())
    assert f"ACTION_TABLE_VERSION = {ACTION_TABLE_VERSION}" in text
    assert f"{table.size:,} actions, digest {table.digest()}" in text

"""docs/plugins.md's reference covers everything a modder can write: every card-file field of
every kind, every manifest field, every timing with the arguments the engine passes, every
rule switch and every hook. A field or hook added without documentation fails here."""

from __future__ import annotations

import inspect
import re

import attrs
import pytest
from plugin_kit import ROOT

import deathangel.plugins.hookspecs as hookspecs
from deathangel.cards.catalogue import TIMINGS
from deathangel.cards.files import SECTIONS
from deathangel.cards.manifest import DECKS, Manifest
from deathangel.cards.model import ActionCard, Marine
from deathangel.engine.effects.dispatch import CALLS
from deathangel.engine.switches import SWITCH_NAMES

DOC = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text under the first heading that contains ``heading``, to the next heading."""
    match = re.search(rf"^#+ [^\n]*{re.escape(heading)}[^\n]*$", DOC, re.MULTILINE)
    assert match, f"docs/plugins.md has no heading with {heading!r}"
    rest = DOC[match.end() :]
    end = re.search(r"^#+ ", rest, re.MULTILINE)
    return rest[: end.start()] if end else rest


def documented(text: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", text))


@pytest.mark.parametrize("kind", [s for s in SECTIONS], ids=lambda s: s.key)
def test_every_field_of_every_card_kind_is_in_the_reference(kind: object) -> None:
    text = section(f"`[[{kind.key}]]`")  # type: ignore[attr-defined]
    fields = {f.name for f in attrs.fields(kind.cls)}  # type: ignore[attr-defined]
    assert fields <= documented(text), fields - documented(text)


@pytest.mark.parametrize("cls", [Marine, ActionCard])
def test_the_cards_inside_a_team_are_in_the_reference(cls: type) -> None:
    fields = {f.name for f in attrs.fields(cls)}
    assert fields <= documented(section("`[[team]]`"))


def test_the_manifest_fields_and_decks_are_in_the_reference() -> None:
    text = section("the manifest")
    assert {f.name for f in attrs.fields(Manifest)} <= documented(text)
    assert set(DECKS) <= documented(text)


def test_every_timing_and_its_arguments_are_in_the_reference() -> None:
    text = section("effects and timings")
    for timing in TIMINGS:
        row = re.search(rf"^\| `{timing}` \|[^\n]*$", text, re.MULTILINE)
        assert row, f"timing {timing!r} has no row"
        assert (
            "(" + ", ".join(CALLS[timing]) + ")" in row.group(0).replace("None)", "marine)")
            or timing == "on_entering"
        ), timing


def test_every_rule_switch_is_in_the_reference() -> None:
    assert set(SWITCH_NAMES) <= documented(section("rule variants"))


def test_every_hook_is_in_the_reference() -> None:
    hooks = {
        n
        for n, f in inspect.getmembers(hookspecs, inspect.isfunction)
        if n.startswith("deathangel_")
    }
    text = section("Reference: hooks")
    assert hooks == set(re.findall(r"`(deathangel_\w+)\(\)`", text))

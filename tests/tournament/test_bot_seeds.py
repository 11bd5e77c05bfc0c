"""A bot's seed leads nowhere (issue 17, finding 1).

Bot seeds were once ``game_seed * 8 + seat``: a strategy could divide its seed by eight,
build the same game beside the real one and know every deck order and future roll. Now each
is a keyed one-way hash (:mod:`deathangel.players.seeds`) under a secret of the run. The probe
here is the strategy a cheat would write (``twin`` in ``tests/tourney_bots.py``, registered
as a plugin the documented way); it plays a real tournament and must never find its game —
unless it is handed the tournament's key, which shows the probe itself works.
"""

from __future__ import annotations

from pathlib import Path

from support import TEST_BOT_KEY
from tourney_bots import Twin

from deathangel.players.seeds import bot_seed, check_bot_key, new_bot_key
from deathangel.tournament.runner import run_tournament
from deathangel.tournament.tournament import build_config

GAMES = 12
WINDOW = 1000
"""Game seeds the probe tries: the tournament's are among them (seeds 100..111)."""


def probe(tmp_path: Path, key: str = "") -> list[tuple[bool, int, int]]:
    spec = f"twin:window={WINDOW}" + (f",key={key}" if key else "")
    config = build_config(
        {
            "games": GAMES,
            "seed": 100,
            "players": 1,
            "plugins": ["tourney_bots"],
            "entry": [{"strategy": spec}],
            "bot_key": TEST_BOT_KEY,
        }
    )
    Twin.found.clear()
    summary = run_tournament(config, tmp_path / "probe.db", workers=0)
    assert (summary.played, summary.failures) == (GAMES, 0)
    found = list(Twin.found)
    assert len(found) == GAMES
    return found


def test_a_bot_cannot_find_its_game_from_its_seed(tmp_path: Path) -> None:
    found = probe(tmp_path)
    assert [twin for twin, _, _ in found] == [False] * GAMES


def test_the_probe_finds_the_game_whenever_the_key_leaks(tmp_path: Path) -> None:
    """The same probe, given the tournament's key, holds an exact twin of every game at every
    decision: what the old formula gave away to every bot."""
    found = probe(tmp_path, key=TEST_BOT_KEY)
    assert all(twin and in_step == asked > 0 for twin, in_step, asked in found), found


def test_seeds_match_no_guess_over_a_wide_window() -> None:
    """For each seat of many games, neither the old formula nor the hash under a key anyone
    could guess (or another run's key) gives the seed back for any candidate game seed."""
    key = new_bot_key()
    guesses = ["00" * 16, "ff" * 16, TEST_BOT_KEY, new_bot_key()]
    window = range(-500, 2500)
    for game_seed in range(0, 2500, 500):
        for seat in range(1, 7):
            seed = bot_seed(key, game_seed, seat)
            g, s = divmod(seed, 8)
            assert not (g in window and 1 <= s <= 6), "the old formula gives the game away"
            for guess in guesses:
                assert all(bot_seed(guess, c, seat) != seed for c in window)


def test_the_derivation_is_pinned_by_hand() -> None:
    """HMAC-SHA256 of 'deathangel bot seed v1|7|2|0' under the key 00..01, first 8 bytes
    big-endian, shifted right by one: computed with Python's hmac module by hand once
    (``hmac.new(bytes.fromhex('00'*15+'01'), b'...', 'sha256').digest()[:8]``) and written
    here, so a change of derivation (which changes every run's bots) is a visible decision."""
    assert bot_seed("00" * 15 + "01", 7, 2, 0) == 335385346686189121


def test_a_key_is_32_hex_digits() -> None:
    assert check_bot_key(" ABCDEF" + "0" * 26 + " ") == "abcdef" + "0" * 26
    for bad in ("", "xyz", "0" * 31, "0" * 33):
        try:
            check_bot_key(bad)
        except ValueError as exc:
            assert "32 hexadecimal digits" in str(exc)
        else:
            raise AssertionError(f"{bad!r} was taken as a key")

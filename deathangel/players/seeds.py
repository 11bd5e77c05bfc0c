"""Bot seeds that lead nowhere: each bot's seed is a keyed one-way hash of where it plays.

A bot is given a seed for its own random choices. If that seed were a formula of the game's
seed (it once was ``game_seed * 8 + seat``), a bot could work the game's seed out of its own,
build the same game beside the real one and know every deck order and every future die roll.
So a bot's seed is HMAC-SHA256, keyed by a secret of the *run*, over the game's seed, the
seat and the entry's salt, cut to 63 bits:

    bot_seed = HMAC-SHA256(key, "deathangel bot seed v1|<game seed>|<seat>|<salt>")[:8] >> 1

Without the key, the seed says nothing about the game: nobody can run the hash backwards,
nor forwards over candidate game seeds to find the one that gives their seed. The key is
made at random when a run starts (:func:`new_bot_key`) and kept with what the run writes
(a tournament's results database, a save file, the summary a simulation prints), so the same
run can be played again exactly; it is never given to a player.

What this does not stop: a game's own seed is not secret. A bot that guesses small game seeds
and compares the game each would deal with what it sees cheats on purpose, as a bot that
reads its process's memory does; competitions with untrusted bots use large random game seeds
and run each bot in its own process (``--isolate``).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets

BOT_KEY_BYTES = 16
"""A run's key: 128 random bits, written as 32 hexadecimal digits."""

_HEX_KEY = re.compile(rf"[0-9a-f]{{{2 * BOT_KEY_BYTES}}}")

_DOMAIN = "deathangel bot seed v1"
"""Names what the hash is for and the derivation's version: a new derivation gets a new one."""


def new_bot_key() -> str:
    """A fresh key for a run, from the operating system's secure random source."""
    return secrets.token_hex(BOT_KEY_BYTES)


def check_bot_key(text: str) -> str:
    """``text`` as a bot key (32 hexadecimal digits, any case), normalised to lower case.

    :raises ValueError: quoting the text, for anything else.
    """
    key = text.strip().lower()
    if not _HEX_KEY.fullmatch(key):
        raise ValueError(
            f"a bot key is {2 * BOT_KEY_BYTES} hexadecimal digits (as a run prints it), "
            f"not {text!r}"
        )
    return key


def bot_seed(key: str, game_seed: int, seat: int, salt: int = 0) -> int:
    """The seed of the bot at ``seat`` (1–6) in the game of seed ``game_seed``, for an entry
    seeded apart by ``salt`` (0 for most), under the run's ``key``.

    Distinct for every (game seed, seat, salt) in practice (a 63-bit hash), and the same for
    the same arguments in every process and version of this derivation.
    """
    message = f"{_DOMAIN}|{game_seed}|{seat}|{salt}".encode()
    digest = _keyed(key).copy()
    digest.update(message)
    # 63 bits: a non-negative number that fits a signed 64-bit integer (SQLite, numpy).
    return int.from_bytes(digest.digest()[:8], "big") >> 1


@functools.lru_cache(maxsize=8)
def _keyed(key: str) -> hmac.HMAC:
    """An HMAC-SHA256 of ``key`` with nothing hashed yet: each seed copies it. ``hmac.new``
    pads and hashes the key again for every message (measured: twice the instructions of
    a copy; every game seeds a bot per seat)."""
    return hmac.new(bytes.fromhex(key), digestmod=hashlib.sha256)

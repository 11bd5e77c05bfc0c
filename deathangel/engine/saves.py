"""Save files: the checks that make a save safe to read, and writing one atomically.

A save is JSON data (never pickle): the format's name and version, the config, the list of
decisions and the state they lead to. :meth:`deathangel.engine.game.Game.from_save` replays
the decisions; what is here checks everything read from the file first, each problem in one
message naming the field and quoting what the file holds (JSON, never a Python repr), and
writes a file so that a crash never leaves half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from deathangel.engine.config import SAVE_FORMAT, SAVE_VERSION, GameConfig
from deathangel.engine.lasting import from_code
from deathangel.errors import SaveFileError


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader (or a crash, or a closed terminal) sees
    the old file or the new one, never half of one."""
    path = Path(path)
    # A temporary file of its own beside the target, flushed to disk, then renamed over
    # it: the rename is atomic.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def save_config(data: Any) -> GameConfig:
    """The config a save recorded (its plugins and variants say what resuming needs).

    :raises SaveFileError: for anything that is not a deathangel save of a known format, or
        a malformed config.
    """
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError("not a deathangel save file")
    if data.get("version") != SAVE_VERSION:
        raise SaveFileError(
            f"save format version {data.get('version')!r} is not supported "
            f"(this engine reads version {SAVE_VERSION})"
        )
    return _saved_config(data.get("config"))


def saved_state(state: Any) -> Any:
    """The state a save recorded, its lasting effects read through their one codec: saves
    written before effects were typed hold their numbers as strings (``"2"``)."""
    if not isinstance(state, dict):
        return state
    state = dict(state)
    for key in ("effects", "next_effects"):
        codes = state.get(key)
        # A code that does not read is left as saved: the comparison with the replay refuses it.
        if isinstance(codes, list):
            with contextlib.suppress(ValueError):
                state[key] = [from_code(code).code() for code in codes]
    return state


def shown(value: Any) -> str:
    """A value from a save as the file writes it (JSON), cut short: never a Python repr."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _saved_config(raw: Any) -> GameConfig:
    """The config of a save, every field checked: one message per problem, naming it."""
    if not isinstance(raw, dict):
        if raw is None:
            raise SaveFileError("the save has no 'config' (players, seed, teams, handicap)")
        raise SaveFileError(f"'config' must be an object, not {shown(raw)}")

    def whole(key: str, default: int | None = None) -> int:
        if key not in raw and default is not None:
            return default
        if key not in raw:
            raise SaveFileError(f"'config' has no '{key}' (a whole number)")
        value = raw[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise SaveFileError(f"config.{key} must be a whole number, not {shown(value)}")
        return value

    players, seed, handicap = whole("players"), whole("seed"), whole("handicap", 0)
    if handicap < 0:
        raise SaveFileError(f"config.handicap must be 0 or more, not {handicap}")
    teams = raw.get("teams")
    if teams is not None and not (
        isinstance(teams, list)
        and all(isinstance(t, list) and all(isinstance(c, str) for c in t) for t in teams)
    ):
        raise SaveFileError(
            f"config.teams must be null or a list of team colours per seat, not {shown(teams)}"
        )
    pairs = {}
    for key, what in (("plugins", "[name, version]"), ("variants", "[name, value]")):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in value
        ):
            raise SaveFileError(f"config.{key} must be a list of {what} pairs, not {shown(value)}")
        pairs[key] = value
    try:
        return GameConfig(
            players=players,
            seed=seed,
            teams=teams,
            handicap=handicap,
            plugins=pairs["plugins"],
            variants=pairs["variants"],
        )
    except (TypeError, ValueError) as exc:
        raise SaveFileError(f"'config' does not make a game: {exc}") from None


def read_save_file(path: str | Path) -> dict[str, Any]:
    """The JSON object of a save file: read only, never executed, never changed.

    :raises SaveFileError: ``"<path>: ..."`` for an unreadable file or one that is not a JSON
        object.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:  # the reason in words: the path is named once, at the front
        raise SaveFileError(f"{path}: cannot read save file: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveFileError(f"{path}: cannot read save file: {exc}") from None
    if not isinstance(data, dict):
        raise SaveFileError(f"{path}: not a deathangel save file")
    return data

"""Where games are saved, which saves may be written over, and the commands that find them again.

Every game is saved after each decision: into ``--save FILE`` when given, else into the user's
data folder (``platformdirs``' user data dir, or ``$DEATHANGEL_DATA_DIR``), as
``saves/<date>-seed<seed>.json``. A file is written over only when it is a save of the same
game — same config, its decisions the start of this game's — so a typo in ``--save`` never
destroys another game or another file (``--force`` says the player means it).

The hints the program prints ("continue it with: ...") must work where the player is: the
command name is ``deathangel`` when that is on ``PATH`` and is this very program, else the full
path of the running executable (``make play`` runs ``.venv/bin/deathangel`` without putting it
on ``PATH``).
"""

from __future__ import annotations

import datetime
import json
import os
import shlex
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen
from filelock import FileLock

from deathangel import filelocks
from deathangel.engine.game import SAVE_FORMAT, Game
from deathangel.errors import DeathAngelError

DATA_DIR_ENV = "DEATHANGEL_DATA_DIR"
"""Overrides the user data folder (tests, portable installs); saves go to its ``saves/``."""

RECENT = 5
"""Unfinished games ``play --resume`` offers when no file is named."""


class SaveTargetError(DeathAngelError):
    """A save would write over a file that is not a save of the same game."""


# -- where -----------------------------------------------------------------------------------------


def data_dir() -> Path:
    """The user's data folder for deathangel (created on first save, not here)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("deathangel", appauthor=False))


def saves_dir() -> Path:
    return data_dir() / "saves"


def logs_dir() -> Path:
    """Where tracebacks are kept for a plugin's author (the player sees one line)."""
    return data_dir() / "logs"


def keep_traceback(text: str, name: str, *, now: datetime.datetime | None = None) -> Path:
    """Write ``text`` to a new file in :func:`logs_dir`, ``<date>T<time>-<name>.log``
    (``-2``, ``-3``... when taken); the path written.

    :raises OSError: when the folder or the file cannot be written.
    """
    folder = logs_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.datetime.now()).strftime("%Y-%m-%dT%H%M%S")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "error"
    path = folder / f"{stamp}-{safe}.log"
    n = 1
    while True:
        try:
            with path.open("x", encoding="utf-8") as out:
                out.write(text)
            return path
        except FileExistsError:
            n += 1
            path = folder / f"{stamp}-{safe}-{n}.log"


def autosave_path(game: Game, *, today: datetime.date | None = None) -> Path:
    """A fresh file in the saves folder for a new game: ``<date>-seed<seed>.json``, with
    ``-2``, ``-3``... when that name is taken by another game."""
    folder = saves_dir()
    stem = f"{(today or datetime.date.today()).isoformat()}-seed{game.config.seed}"
    path = folder / f"{stem}.json"
    n = 1
    while path.exists() and not is_same_game(path, game):
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


# -- may this file be written? ---------------------------------------------------------------------


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def is_same_game(path: Path, game: Game) -> bool:
    """Whether ``path`` holds a save of ``game``: its config, and decisions that ``game`` has
    made (the same ones, or fewer): writing there only carries that game on."""
    data = _read(path)
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        return False
    decisions = data.get("decisions")
    if data.get("config") != game.config.to_dict() or not isinstance(decisions, list):
        return False
    mine = [option.code() for option in game.history]
    return len(decisions) <= len(mine) and mine[: len(decisions)] == decisions


def check_target(path: str | Path, game: Game, *, force: bool = False) -> None:
    """Refuse to write ``game`` over a file that is something else.

    :raises SaveTargetError: ``"<path>: ..."``, saying what the file holds and how to go on.
    """
    target = Path(path)
    if force or not target.exists() or is_same_game(target, game):
        return
    if target.is_dir():
        raise SaveTargetError(f"{path}: is a folder; name a file to save to")
    data = _read(target)
    if isinstance(data, dict) and data.get("format") == SAVE_FORMAT:
        what = "holds another game"
        info = _describe(data)
        if info:
            what += f" ({info})"
    else:
        what = "exists and is not a deathangel save"
    raise SaveTargetError(f"{path}: {what}; save to another file, or add --force to overwrite it")


def _describe(data: dict[str, Any]) -> str:
    config = data.get("config")
    state = data.get("state")
    parts = []
    if isinstance(config, dict) and isinstance(config.get("seed"), int):
        parts.append(f"seed {config['seed']}")
    if isinstance(state, dict) and isinstance(state.get("round"), int):
        parts.append(f"round {state['round']}")
    decisions = data.get("decisions")
    if isinstance(decisions, list):
        parts.append(f"{len(decisions)} decision(s)")
    return ", ".join(parts)


# -- one game at a time on a save -----------------------------------------------------------------


class SaveInUseError(DeathAngelError):
    """The save file is being played on by another ``deathangel play``."""


class SaveLock:
    """The lock of the save file a game is writing: two ``play`` of one save (a game resumed
    in a second terminal while the first still has it open) would each write their own moves
    over the other's, after every decision. The second is refused instead.

    An operating-system lock on ``SAVE.lock`` beside the save (:mod:`deathangel.filelocks`),
    held while the game plays: the kernel lets go of it however the process ends, so a killed
    game never locks its save for good. The file is removed when the game lets go of it (one
    left by a killed game is harmless). Where no lock can be taken, the game plays on without.
    """

    def __init__(self) -> None:
        self._lock: FileLock | None = None
        self.path: Path | None = None
        """The save held (``None``: none)."""

    def take(self, save: str | Path) -> None:
        """Hold ``save`` (letting go of the one held before, once this one is held).

        :raises SaveInUseError: when another game holds it.
        """
        path = Path(save)
        if self.path is not None and path.absolute() == self.path.absolute():
            return
        try:
            lock = filelocks.take(path, wait=0)
        except filelocks.Timeout:
            raise SaveInUseError(
                f"{save}: this game is being played in another deathangel play; go on there, "
                "or quit it there first (it stays saved)"
            ) from None
        self.release()
        self._lock, self.path = lock, path

    def __enter__(self) -> SaveLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            # Removed once let go, so the saves folder keeps no lock files. A game starting
            # on this save in that very instant could hold a lock on the removed file while a
            # third makes a new one: three games on one save within a microsecond, which a
            # person at a terminal does not do.
            Path(self._lock.lock_file).unlink(missing_ok=True)
        self._lock = self.path = None


# -- unfinished games ------------------------------------------------------------------------------


@frozen
class SavedGame:
    """One save file in the saves folder, as the resume menu lists it."""

    path: Path
    modified: datetime.datetime
    players: int
    seed: int
    round: int
    open_elsewhere: bool = False
    """Being played in another ``deathangel play`` now (resuming it is refused)."""

    def label(self) -> str:
        where = " · open in another terminal" if self.open_elsewhere else ""
        return (
            f"{self.modified:%Y-%m-%d %H:%M} · {self.players} player(s) · seed {self.seed} · "
            f"round {self.round} · {self.path.name}{where}"
        )


def _saves(folder: Path) -> Iterator[SavedGame]:
    if not folder.is_dir():
        return
    for path in folder.glob("*.json"):
        data = _read(path)
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            continue
        config, state = data.get("config"), data.get("state")
        if data.get("pending") is None or not isinstance(config, dict):
            continue  # finished (or not a game at all): nothing to resume
        try:
            stamp = datetime.datetime.fromtimestamp(path.stat().st_mtime)
            players, seed = int(config["players"]), int(config["seed"])
            round_ = int(state["round"]) if isinstance(state, dict) else 0
        except (OSError, KeyError, TypeError, ValueError):
            continue
        open_elsewhere = filelocks.held_elsewhere(path) is True  # another game plays it now
        yield SavedGame(path, stamp, players, seed, round_, open_elsewhere)


def unfinished_games(folder: Path | None = None, *, limit: int = RECENT) -> list[SavedGame]:
    """The most recently saved unfinished games, newest first."""
    found = sorted(_saves(folder or saves_dir()), key=lambda s: s.modified, reverse=True)
    return found[:limit]


# -- commands that work here -----------------------------------------------------------------------


def _same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def program() -> str:
    """How to run this deathangel from the player's shell: ``deathangel`` when that name on
    ``PATH`` is this program, else its full path (or ``PYTHON -m deathangel``)."""
    on_path = shutil.which("deathangel")
    argv0 = sys.argv[0] if sys.argv else ""
    if Path(argv0).name in ("__main__.py", "-m", "-c", ""):
        # python -m deathangel: the console script of this same environment, if on PATH.
        beside = Path(sys.executable).parent / "deathangel"
        if on_path is not None and _same_file(on_path, beside):
            return "deathangel"
        return f"{shlex.quote(sys.executable)} -m deathangel"
    if on_path is not None and _same_file(on_path, argv0):
        return "deathangel"
    return shlex.quote(str(Path(argv0).absolute()))


def command(*args: str | Path) -> str:
    """A deathangel command line for the player to type, each argument quoted as needed."""
    return " ".join([program(), *(shlex.quote(str(a)) for a in args)])


def resume_command(path: str | Path) -> str:
    return command("play", "--resume", path)


def replay_command(path: str | Path) -> str:
    return command("replay", path)


def describe_choices(games: Sequence[SavedGame]) -> list[str]:
    return [f"  {i}) {game.label()}" for i, game in enumerate(games, start=1)]

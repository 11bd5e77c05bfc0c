"""How the commands write their output when its reader goes away (``deathangel report | head``).

A reader that stops reading is not an error of ours, so nothing is printed; but the output was
cut short, so the exit status says so the way every Unix tool says it. ``cat``, ``grep`` or
``git log`` piped into ``head`` are killed by SIGPIPE, which a shell reports as 128 + 13 = 141
(and which ``set -o pipefail`` sees): a deathangel command ends with that same status. Not 1,
which says "deathangel failed" (click's and rich's own handling, silently); not 0, which would
tell a script the whole output was written.

SIGPIPE itself stays ignored (Python's default) rather than reset to kill the process: the
tournament talks to its worker processes and Dask through pipes and sockets, where a reader
gone must be an exception the runner handles, never a silent death.
"""

from __future__ import annotations

import codecs
import functools
import io
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from deathangel.errors import DeathAngelError

if TYPE_CHECKING:
    from rich.console import Console

EXIT_BROKEN_PIPE = 128 + int(getattr(signal, "SIGPIPE", 13))
"""141: the status of a Unix tool killed by SIGPIPE, as a shell reports it."""

EXIT_INTERRUPTED = 128 + int(signal.SIGINT)
"""130: a run stopped by Ctrl-C or SIGTERM that kept what it had done (the same command, or
``--resume``, goes on), as a shell reports a tool stopped by Ctrl-C."""

F = TypeVar("F", bound=Callable[..., Any])

# -- terminals that cannot show every character ---------------------------------------------------

PLAIN = {
    "—": "-", "–": "-", "−": "-", "─": "-", "·": ".", "…": "~", "×": "x",
    "→": ">", "←": "<", "▶": ">", "❱": ">", "≤": "<", "≥": ">",
    "●": "o", "★": "*", "⛨": "#", "⚙": "@", "☠": "+", "✓": "v", "✗": "x", "•": "*",
    "±": "~", "µ": "u", "²": "2", "§": "S", "‘": "'", "’": "'", "“": '"', "”": '"',
}  # fmt: skip
"""A one-cell stand-in for each symbol the commands print, for a terminal whose encoding
lacks it: one cell, so the board's columns stay in line (``←`` facing left becomes ``<``)."""

PLAIN_ERRORS = "deathangel-plain"
"""The codec error handler that writes :data:`PLAIN`'s stand-ins (``?`` for any other)."""


def _plain(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(PLAIN.get(c, "?") for c in text), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def plain_where_unencodable() -> None:
    """Let standard output and error write what their encoding lacks as :data:`PLAIN`'s
    stand-ins, instead of failing. A terminal in Latin-1 or ASCII (an old SSH session's
    locale, a Windows console redirected to a file) made the first "—" of ``play`` a
    ``UnicodeEncodeError``, before the game began. Rich draws its boxes in ASCII there by
    itself; this covers the symbols of our own text."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors=PLAIN_ERRORS)


def pipe_friendly(command: F) -> F:
    """A command that ends quietly with :data:`EXIT_BROKEN_PIPE` when its output's reader
    goes away (click would otherwise exit 1 in silence). A write that met the closed pipe
    leaves nothing buffered, so Python's flush at exit has nothing more to say (checked by
    the tests: stderr stays empty)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            raise typer.Exit(EXIT_BROKEN_PIPE) from None

    return run  # type: ignore[return-value]


def output_folder(option: str, folder: Path) -> None:
    """Make the folder an option names for files (``--csv DIR``), or stop in one line: a file
    already there, or a folder that cannot be made."""
    if folder.exists() and not folder.is_dir():
        raise DeathAngelError(f"{option} {folder}: is a file, not a folder to write into")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DeathAngelError(
            f"{option} {folder}: cannot make the folder: {exc.strerror or exc}"
        ) from None


def output_console(**options: Any) -> Console:
    """A rich console for a command's output whose broken pipe is an ordinary
    ``BrokenPipeError`` (rich's own handling exits 1), ended by :func:`pipe_friendly`."""
    return _output_console_class()(**options)


@functools.cache
def _output_console_class() -> type[Console]:
    # Rich is imported when a command draws with it, not at every command's start: its
    # import was a tenth of the instructions of `deathangel simulate -n 1`, which prints
    # plain lines (docs/performance.md, "A command's start: rich when it draws").
    from rich.console import Console

    class OutputConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return OutputConsole


def write_files(option: str, folder: Path, write: Callable[[], list[Path]]) -> list[Path]:
    """The files ``write`` makes for ``--csv DIR`` or ``--plots DIR``; a write that fails is
    one line naming the option and the folder."""
    try:
        return write()
    except OSError as exc:
        raise DeathAngelError(f"{option} {folder}: cannot write: {exc.strerror or exc}") from None


def print_report(
    *,
    as_json: bool,
    markdown: bool,
    json_text: Callable[[], str],
    markdown_text: Callable[[], str],
    tables: Callable[[Console], None],
    width: int,
    written: list[Path],
) -> None:
    """How a report command ends: JSON, Markdown or rich tables on standard output, then the
    files it wrote (on standard error when the output is JSON or Markdown, so that stays
    clean to parse). Piped tables get ``width`` columns instead of rich's 80."""
    if as_json:
        typer.echo(json_text())
    elif markdown:
        typer.echo(markdown_text(), nl=False)
    else:
        columns = shutil.get_terminal_size((width, 24)).columns
        tables(output_console(highlight=False, emoji=False, width=columns))
    for path in written:
        typer.echo(f"wrote {path}", err=as_json or markdown)

"""File formats: TRF-16 and the crosstable text/CSV, recognised by content."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.formats.text import decode, too_big
from core.limits import MAX_FILE_BYTES
from core.model import Tournament, as_played
from core.problems import HarknessError, Problem

if TYPE_CHECKING:
    from core.formats.crosstable import read_crosstable, write_crosstable

__all__ = [
    "decode",
    "is_trf",
    "read_bytes",
    "read_crosstable",
    "read_file",
    "read_teams",
    "read_text",
    "read_tournament",
    "write_crosstable",
]


def is_trf(text: str) -> bool:
    """TRF-16 is recognised by its player lines, which start with ``001``.

    >>> is_trf("012 Open\\r\\n001    1 Ann"), is_trf("012 Open\\r001    1 Ann"), is_trf("#,Name")
    (True, True, False)
    """
    if text.startswith("001") or "\n001" in text:  # found without splitting a large file
        return True
    return any(line.startswith("001") for line in text.splitlines())


def read_text(text: str, path: str = "<input>", *, played: bool = False) -> Tournament:
    """Read TRF-16 or crosstable text, whichever ``text`` is.

    With ``played``, a crosstable is cut to the rounds played (:func:`core.model.as_played`:
    a round column with no game result yet is not a round of absence for everyone), as it
    is ranked; a TRF keeps its rounds (``XXR``), as FIDE's reference checker reads it.
    """
    if is_trf(text):
        from core.formats.trf import read_trf

        return read_trf(text, path)
    from core.formats.crosstable import read_crosstable

    tournament = read_crosstable(text, path, name=Path(path).stem if path != "<input>" else "")
    return as_played(tournament) if played else tournament


def read_bytes(data: bytes, path: str = "<input>", *, played: bool = False) -> Tournament:
    """Read a tournament file's bytes (an upload, say), whatever its encoding
    (:func:`~core.formats.text.decode`); ``played`` as in :func:`read_text`."""
    return read_text(decode(data, path), path, played=played)


def read_tournament(path: str | Path, *, played: bool = False) -> Tournament:
    """Read a tournament file (TRF-16 or crosstable text/CSV) from disk; its size is checked
    before it is read; ``played`` as in :func:`read_text`."""
    return read_text(read_file(path), str(path), played=played)


def read_teams(
    text: str, tournament: Tournament, path: str = "<input>"
) -> dict[str, tuple[int, ...]]:
    """The teams a tournament file names: a TRF-16 file's ``013`` team records, a
    crosstable's ``Team`` column; each team's starting numbers (empty when it names none).
    ``tournament`` is what :func:`read_text` read from ``text``."""
    from core.formats.trf import team_records

    teams = team_records(tournament.records)
    if teams or is_trf(text):
        return teams
    from core.formats.crosstable import read_team_column

    return read_team_column(text, path)


def read_file(path: str | Path) -> str:
    """A tournament file's text (:func:`~core.formats.text.decode`), its size checked before
    it is read."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise too_big(size, str(path))
        with path.open("rb") as file:  # a pipe or a device says size 0: read up to the limit
            data = file.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise too_big(len(data), str(path), more=" or more")
    except OSError as error:
        raise HarknessError(
            [Problem(f"cannot read the file: {error.strerror}", path=str(path), code="cannot-read")]
        ) from None
    return decode(data, str(path))


def __getattr__(name: str) -> Any:
    """The crosstable reader and writer, imported when first used: reading TRF-16 does not
    need them (the command starts faster)."""
    if name in ("read_crosstable", "write_crosstable"):
        from core.formats import crosstable

        return getattr(crosstable, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""File formats: TRF-16 and the crosstable text/CSV, recognised by content."""

from __future__ import annotations

from pathlib import Path

from core.formats.crosstable import read_crosstable, write_crosstable
from core.formats.text import decode, too_big
from core.limits import MAX_FILE_BYTES
from core.model import Tournament
from core.problems import HarknessError, Problem

__all__ = [
    "decode",
    "is_trf",
    "read_bytes",
    "read_crosstable",
    "read_text",
    "read_tournament",
    "write_crosstable",
]


def is_trf(text: str) -> bool:
    """TRF-16 is recognised by its player lines, which start with ``001``."""
    return any(line.startswith("001") for line in text.splitlines())


def read_text(text: str, path: str = "<input>") -> Tournament:
    """Read TRF-16 or crosstable text, whichever ``text`` is."""
    if is_trf(text):
        from core.formats.trf import read_trf

        return read_trf(text, path)
    return read_crosstable(text, path, name=Path(path).stem if path != "<input>" else "")


def read_bytes(data: bytes, path: str = "<input>") -> Tournament:
    """Read a tournament file's bytes (an upload, say), whatever its encoding
    (:func:`~core.formats.text.decode`)."""
    return read_text(decode(data, path), path)


def read_tournament(path: str | Path) -> Tournament:
    """Read a tournament file (TRF-16 or crosstable text/CSV) from disk; its size is checked
    before it is read."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise too_big(size, str(path))
        data = path.read_bytes()
    except OSError as error:
        raise HarknessError(
            [Problem(f"cannot read the file: {error.strerror}", path=str(path))]
        ) from None
    return read_bytes(data, str(path))

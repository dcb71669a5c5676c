"""File formats: TRF-16 and the crosstable text/CSV, recognised by content."""

from __future__ import annotations

from pathlib import Path

from core.formats.crosstable import read_crosstable, write_crosstable
from core.model import Tournament
from core.problems import HarknessError, Problem

__all__ = ["is_trf", "read_crosstable", "read_text", "read_tournament", "write_crosstable"]


def is_trf(text: str) -> bool:
    """TRF-16 is recognised by its player lines, which start with ``001``."""
    return any(line.startswith("001") for line in text.splitlines())


def read_text(text: str, path: str = "<input>") -> Tournament:
    """Read TRF-16 or crosstable text, whichever ``text`` is."""
    if is_trf(text):
        from core.formats.trf import read_trf

        return read_trf(text, path)
    return read_crosstable(text, path, name=Path(path).stem if path != "<input>" else "")


def read_tournament(path: str | Path) -> Tournament:
    """Read a tournament file (TRF-16 or crosstable text/CSV) from disk."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        text = path.read_text(encoding="latin-1")
    except OSError as error:
        raise HarknessError(
            [Problem(f"cannot read the file: {error.strerror}", path=str(path))]
        ) from None
    return read_text(text, str(path))

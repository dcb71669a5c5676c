"""What a picture shows, as plain data: a titled table of text cells, and notes under it.

The pictures of :mod:`core.pictures` build a :class:`Sheet`; :mod:`core.pictures.canvas`
draws it. Styles are names (``"win"``, ``"highlight"``, ``"above"``…) that each theme maps to
colours, so the light and dark variants share one layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Align = Literal["left", "right", "center"]

#: A phone screen is about 360 CSS pixels wide; pictures are drawn at twice that density, so a
#: picture at most this wide shows unscaled (its 24-pixel text reads as 12 CSS pixels).
PHONE_WIDTH = 720
#: The longest text a cell keeps before it is measured (names are cut to fit anyway)…
CELL_TEXT_MAX = 200
#: …and a title or a note (wrapped to the picture's width).
NOTE_TEXT_MAX = 2000


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: its text, an optional background style and outline marks (decisive cells)."""

    text: str
    fill: str | None = None
    marks: tuple[str, ...] = ()
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Heading:
    """A column: its heading and alignment; a ``shrink`` column (names) is cut to fit."""

    text: str
    align: Align = "right"
    shrink: bool = False


@dataclass(frozen=True, slots=True)
class Note:
    """A line under the table, wrapped to its width; ``swatch`` is a style shown before it."""

    text: str
    swatch: str | None = None


@dataclass(frozen=True, slots=True)
class Sheet:
    """A whole picture: title, subtitle, the table and its notes.

    ``row_fills`` gives a row its own background (the player's row of a "why" picture);
    ``max_width`` is a width budget in pixels that the ``shrink`` column is cut to meet.
    """

    title: str
    subtitle: str
    headings: tuple[Heading, ...]
    rows: tuple[tuple[Cell, ...], ...]
    row_fills: tuple[str | None, ...] = ()
    notes: tuple[Note, ...] = ()
    max_width: int | None = None


def printable(text: str, limit: int = CELL_TEXT_MAX) -> str:
    """``text`` as a picture shows it: control characters replaced, at most ``limit``
    characters.

    >>> printable("Ann\\x00\\tLee")
    'Ann  Lee'
    """
    text = text[:limit]
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else " " for c in text)

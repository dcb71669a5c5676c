"""Pictures of standings, explanations and crosstables, for a member reading on a phone.

Each picture is laid out here as a :class:`~core.pictures.layout.Sheet` (plain data: text
cells with a few named styles) and drawn by :mod:`core.pictures.canvas` with Pillow, which is
an optional extra (``pip install 'harkness[images]'``) imported only when a picture is drawn.
Every number shown is one the engine computed (a :class:`~core.tiebreaks.base.Column` display
or an :class:`~core.explain.Explanation`), nothing is recomputed; every picture carries an alt
text (:attr:`Picture.description`) made from the same cells, for screen readers and Discord's
attachment description.

Drawing is pure (no network, no database) and deterministic: the fonts ship with the package
(DejaVu Sans Condensed, which covers accented Latin, Greek, Cyrillic and ``½``), text is laid
out without a system shaping library, and the PNG carries no time stamp, so the same input
gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.problems import HarknessError, Problem

#: How to get the drawing library when it is missing.
INSTALL_HINT = "pictures need Pillow: pip install 'harkness[images]'"
THEMES = ("light", "dark")
#: What a picture can be written as.
FORMATS = ("png", "svg")
#: Discord shows an attachment's alt text (its ``description``) up to this many characters.
DESCRIPTION_MAX = 1024


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn picture: its bytes (``format`` is ``"png"`` or ``"svg"``), its size in pixels
    and its alt text."""

    data: bytes
    width: int
    height: int
    description: str
    format: str = "png"


def alt_text(head: str, parts: Sequence[str]) -> str:
    """``head``, then as many whole ``parts`` as fit in :data:`DESCRIPTION_MAX` characters,
    then how many were left out.

    >>> alt_text("Standings.", ["1. Ann 3", "2. Bob 2"])
    'Standings. 1. Ann 3; 2. Bob 2;'
    >>> alt_text("Standings.", ["a" * 600, "b" * 600])[-20:]
    'aaaaa; … and 1 more.'
    """
    text = head[: DESCRIPTION_MAX // 2]
    for n, part in enumerate(parts):
        rest = len(parts) - n - 1
        candidate = f"{text} {part};"
        reserve = len(f" … and {rest} more.") if rest else 0
        if len(candidate) + reserve > DESCRIPTION_MAX:
            return f"{text} … and {len(parts) - n} more."
        text = candidate
    return text


class PicturesUnavailable(HarknessError):
    """Pillow is not installed: pictures cannot be drawn (text answers still work)."""

    def __init__(self) -> None:
        super().__init__([Problem(INSTALL_HINT, code="pillow-missing")])

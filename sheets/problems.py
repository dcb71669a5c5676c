"""Problems found in a spreadsheet, each with the A1 reference of its cell.

A TD reads ``Results!E7: "W99": there is no player 99`` and knows where to look and what to
fix. Every reader collects all of them before deciding anything, as ``core`` does.

>>> print(SheetProblem("there is no player 99", "Results!E7", "W99"))
Results!E7: "W99": there is no player 99
>>> print(SheetProblem("the tab is missing", "Results"))
Results: the tab is missing
"""

from __future__ import annotations

from dataclasses import dataclass

from core.limits import QUOTED_CHARS, shorten


@dataclass(frozen=True, slots=True)
class SheetProblem:
    """One thing wrong with a spreadsheet: what, where (``cell``), and the text found there.

    ``cell`` is an A1 reference (``Results!E7``), a tab title when the problem is the tab
    itself, or None for the spreadsheet as a whole; ``text`` is what the cell holds (None
    when the problem is not about a cell's contents).
    """

    message: str
    cell: str | None = None
    text: str | None = None

    def __post_init__(self) -> None:
        # An error row quotes a cell, never a page of it.
        if self.text is not None and len(self.text) > QUOTED_CHARS:
            object.__setattr__(self, "text", shorten(self.text, QUOTED_CHARS))

    def __str__(self) -> str:
        parts = [self.cell] if self.cell else []
        if self.text is not None:
            parts.append(f'"{self.text}"')
        parts.append(self.message)
        return ": ".join(parts)

"""Problems found in input, each with the place it was found.

Parsers and validators collect every problem before they give up (as python-chess's
PGN reader does), so that a tournament director fixes a file in one pass, not one
error at a time.

>>> print(Problem("there is no player 99", path="club.txt", line=7, column=23))
club.txt:7:23: there is no player 99
>>> print(Problem("both sides must agree", player=3, round=2))
player 3, round 2: both sides must agree
>>> p = Problem("--tiebreaks: 'X' is given twice", code="code-twice", field="tiebreaks",
...             value="X", detail="'X' is given twice")
>>> p.field, p.detail
('tiebreaks', "'X' is given twice")
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, and where it is.

    A location is a file position (``path``, ``line``, ``column``), a place in the
    tournament (``player``, ``round``), or both; fields that do not apply stay None.
    """

    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    player: int | None = None
    round: int | None = None
    other: int | None = None
    """The other player of a game whose two sides disagree: their entry in ``round`` is
    the other half of the problem (not part of the location)."""
    code: str | None = None
    """What is wrong, for a front door to word (``"unknown-code"``, ``"unknown-profile"``…)."""
    field: str | None = None
    """The setting that is wrong (``"rules"``, ``"tiebreaks"``, ``"options"``)."""
    value: str | None = None
    """The value given for it (the unknown code, profile name or option key)."""
    detail: str | None = None
    """The message without naming the setting, for a front door that names it its own way
    (a sheet's cell, a slash command's option); :attr:`message` is the command line's."""

    @property
    def where(self) -> str:
        """The location alone, as an editor or a TD would read it."""
        parts: list[str] = []
        if self.path is not None or self.line is not None:
            position = self.path or "<input>"
            if self.line is not None:
                position += f":{self.line}"
                if self.column is not None:
                    position += f":{self.column}"
            parts.append(position)
        place = []
        if self.player is not None:
            place.append(f"player {self.player}")
        if self.round is not None:
            place.append(f"round {self.round}")
        if place:
            parts.append(", ".join(place))
        return " ".join(parts)

    def __str__(self) -> str:
        where = self.where
        return f"{where}: {self.message}" if where else self.message


class HarknessError(ValueError):
    """Input that cannot be used; carries every :class:`Problem` found, in order."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

"""The standings as a picture: place, name, score and the tiebreaks in the profile's order.

The cells are the text table's (:func:`core.render.cells`): shared places print ``3-4``, a
score carries the same mark as the text version (``*`` provisional, ``?`` disputed) when the
caller passes them, and the tiebreaks are named under the table. A page shows a run of rows
(``first``, ``count``) as the text pages do. The narrow layout fits a 360-pixel phone screen
(:data:`~core.pictures.layout.PHONE_WIDTH`): names are cut first, then up to
:data:`NARROW_DROP` tiebreak columns from the end of the order are left out (and named as
left out).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.pictures import Picture, alt_text
from core.pictures.layout import PHONE_WIDTH, Cell, Heading, Note, Sheet
from core.render import cells, names_of_tiebreaks, played_text
from core.standings import Standings

#: At most this many tiebreak columns are left out of the narrow layout.
NARROW_DROP = 2
#: Columns of :func:`core.render.cells` shown: Place, Name, Score (not ``#``), tiebreaks.
_PLACE, _NUMBER, _NAME, _SCORE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """What one standings picture shows: rows ``first`` to ``first + count`` of the table."""

    standings: Standings
    first: int = 0
    count: int | None = None
    marks: Mapping[int, str] | None = None
    legend: Sequence[str] = ()
    after_round: int | None = None
    planned: int | None = None

    @property
    def lines(self) -> list[list[str]]:
        """The rows shown, as the text table's cells (score marked)."""
        table = cells(self.standings)[1:]
        end = len(table) if self.count is None else self.first + self.count
        rows = table[self.first : end]
        if self.marks:
            for row in rows:
                row[_SCORE] += self.marks.get(int(row[_NUMBER]), "")
        return rows

    @property
    def codes(self) -> tuple[str, ...]:
        return self.standings.order

    def subtitle(self) -> str:
        """``uscf rules · after round 3 of 5 · places 1–15 of 40``."""
        t = self.standings.tournament
        k = t.rounds if self.after_round is None else self.after_round
        total = len(self.standings.rows)
        shown = len(self.lines)
        where = f" · rows {self.first + 1}–{self.first + shown} of {total}" if shown < total else ""
        return f"{self.standings.profile.name} rules · {played_text(k, self.planned)}{where}"

    @property
    def title(self) -> str:
        return self.standings.tournament.name or "Standings"


def sheet(page: StandingsPage, drop: int = 0, narrow: bool = False) -> Sheet:
    """The page laid out, leaving out the last ``drop`` tiebreak columns."""
    codes = page.codes[: len(page.codes) - drop] if drop else page.codes
    headings = (
        Heading("Place"),
        Heading("Name", "left", shrink=True),
        Heading("Score"),
        *(Heading(code) for code in codes),
    )
    keep = 4 + len(codes)
    rows = tuple(
        (
            Cell(line[_PLACE]),
            Cell(line[_NAME]),
            Cell(line[_SCORE], bold=True),
            *(Cell(text) for text in line[4:keep]),
        )
        for line in page.lines
    )
    notes = [Note(names_of_tiebreaks(page.standings))]
    if drop:
        notes.append(Note(f"Not shown on this narrow picture: {', '.join(page.codes[-drop:])}."))
    notes += [Note(text) for text in page.legend]
    return Sheet(
        page.title,
        page.subtitle(),
        headings,
        rows,
        notes=tuple(notes),
        max_width=PHONE_WIDTH if narrow else None,
    )


def description(page: StandingsPage, drop: int = 0) -> str:
    """The alt text: what the picture is, then each row's place, name, score and tiebreaks,
    cut to :data:`~core.pictures.DESCRIPTION_MAX` characters."""
    codes = page.codes[: len(page.codes) - drop] if drop else page.codes
    head = f"Standings picture: {page.title}, {page.subtitle()}."
    parts = []
    for line in page.lines:
        parts.append(row_text(line, codes))
    return alt_text(head, parts)


def row_text(line: Sequence[str], codes: Sequence[str]) -> str:
    """One row of a table (:func:`core.render.cells`) as an alt text says it: place, name,
    score, then each tiebreak of ``codes`` with its value.

    >>> row_text(["2-3", "7", "Ann", "2.5*", "6", "7.5"], ["MM", "SOLK"])
    '2-3. Ann 2.5* (MM 6, SOLK 7.5)'
    """
    values = ", ".join(f"{c} {v}" for c, v in zip(codes, line[4:], strict=False))
    return f"{line[_PLACE]}. {line[_NAME]} {line[_SCORE]}" + (f" ({values})" if values else "")


def standings_picture(
    page: StandingsPage, theme: str = "light", narrow: bool = False, fmt: str = "png"
) -> Picture:
    """The page drawn (PNG or SVG) with its alt text; narrow fits a phone screen."""
    from core.pictures import canvas

    drop = 0
    if narrow:
        most = min(NARROW_DROP, len(page.codes))
        while drop < most and canvas.least_width(sheet(page, drop, narrow)) > PHONE_WIDTH:
            drop += 1
    data, width, height = canvas.draw(sheet(page, drop, narrow), theme, fmt)
    return Picture(data, width, height, description(page, drop), fmt)

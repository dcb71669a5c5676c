""" "Why am I 3rd?" as a picture: the player's score group as a small table, their row
highlighted, and at each boundary around them the cell where the tie was broken.

It is sized for a phone (:data:`~core.pictures.layout.PHONE_WIDTH`): long names are cut,
but no tiebreak column is left out, since any of them may be the one that decided.
Everything comes from the engine: the rows are the standings' cells (the tiebreak columns'
own breakdowns, as the text table prints them) and the marks are the
:class:`~core.explain.Explanation`'s comparisons, worded by :mod:`core.explain_render`. A
comparison decided by a tiebreak marks that tiebreak's cell in both rows; the US Chess
all-unplayed-points rule marks the score; a shared place marks the place. Each mark's
sentence is written under the table beside a swatch of its colour.
"""

from __future__ import annotations

from core.explain import Explanation
from core.explain_render import GROUP_WINDOW, headline, note_text, points, sentence
from core.pictures import Picture, alt_text
from core.pictures.layout import PHONE_WIDTH, Cell, Heading, Note, Sheet
from core.pictures.standings import row_text
from core.render import cells
from core.standings import UNPLAYED, Standings

_PLACE, _NUMBER, _NAME, _SCORE = 0, 1, 2, 3


def _window(standings: Standings, e: Explanation) -> tuple[int, int]:
    """The lines (start, end) of the score group shown: the player and up to
    :data:`GROUP_WINDOW` on each side."""
    group = standings.score_group(e.player.id)
    first = standings.line_of(group[0].player.id)
    at = standings.line_of(e.player.id)
    return max(first, at - GROUP_WINDOW), min(first + len(group), at + GROUP_WINDOW + 1)


def _column(code: str | None, order: tuple[str, ...]) -> int:
    """The column (of Place, Name, Score, tiebreaks…) that a comparison was decided in."""
    if code is None:
        return 0
    if code == UNPLAYED:
        return 2
    return 3 + order.index(code)


def sheet(standings: Standings, e: Explanation) -> Sheet:
    """The explanation laid out: the score group, the player's row, the decisive cells."""
    start, end = _window(standings, e)
    lines = cells(standings)[1 + start : 1 + end]
    marks: dict[tuple[int, int], list[str]] = {}
    at = standings.line_of(e.player.id) - start
    notes = []
    for c in e.comparisons:
        style = "above" if c.above else "below"
        column = _column(c.decided_by, standings.order)
        other = at - 1 if c.above else at + 1
        for position in (other, at):
            marks.setdefault((position, column), []).append(style)
        notes.append(Note(f"{'Above' if c.above else 'Below'} you: {sentence(e, c)}", style))
    rows = []
    for n, line in enumerate(lines):
        texts = [line[_PLACE], line[_NAME], line[_SCORE], *line[4:]]
        rows.append(
            tuple(
                Cell(text, marks=tuple(marks.get((n, j), ())), bold=n == at or j == 2)
                for j, text in enumerate(texts)
            )
        )
    notes += [Note(note_text(e, n)) for n in e.notes]
    group = standings.score_group(e.player.id)
    hidden = len(group) - len(lines)
    more = f" ({hidden} more not shown)" if hidden else ""
    return Sheet(
        headline(e),
        f"Score group: {points(e.player.score)}, {len(group)} "
        f"player{'s' if len(group) != 1 else ''}{more} · {e.profile} rules",
        (
            Heading("Place"),
            Heading("Name", "left", shrink=True),
            Heading("Score"),
            *(Heading(code) for code in standings.order),
        ),
        tuple(rows),
        row_fills=tuple("highlight" if n == at else None for n in range(len(rows))),
        notes=tuple(notes),
        max_width=PHONE_WIDTH,
    )


def description(standings: Standings, e: Explanation) -> str:
    """The alt text: the headline, each comparison's sentence, then the rows shown."""
    start, end = _window(standings, e)
    head = " ".join([f"Why picture: {headline(e)}", *(sentence(e, c) for c in e.comparisons)])
    head += " Score group:"
    parts = []
    for line in cells(standings)[1 + start : 1 + end]:
        parts.append(row_text(line, standings.order))
    return alt_text(head, parts)


def why_picture(
    standings: Standings, e: Explanation, theme: str = "light", fmt: str = "png"
) -> Picture:
    """The explanation of ``e.player`` in ``standings`` drawn (PNG or SVG), with its alt
    text."""
    from core.pictures import canvas

    data, width, height = canvas.draw(sheet(standings, e), theme, fmt)
    return Picture(data, width, height, description(standings, e), fmt)

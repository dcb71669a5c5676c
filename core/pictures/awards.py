"""The prize list as a picture, for a member reading on a phone: who won what.

One row per player who takes cash or a trophy, in standings order: place, name, score, the
cash paid (rounded down to the cent) and the trophy. Under the table: the teams (rank,
score, trophy), the prizes not awarded, and the cents left over, in the words of
:mod:`core.explain_render`. Everything comes from the :class:`~core.awards.result.Awards`
the engine computed. The layout fits a 360-pixel phone screen
(:data:`~core.pictures.layout.PHONE_WIDTH`): names are cut, no column is left out.
"""

from __future__ import annotations

from core.awards.render import notes_of
from core.awards.result import Awards
from core.numbers import display, money
from core.pictures import Picture, alt_text
from core.pictures.layout import PHONE_WIDTH, Cell, Heading, Note, Sheet
from core.problems import HarknessError, Problem

__all__ = ["MAX_ROWS", "awards_picture", "sheet"]

#: The most prize winners a picture shows; a longer list keeps the text.
MAX_ROWS = 120


def _winners(awards: Awards) -> list[list[str]]:
    return [
        [
            row.place,
            row.name,
            display(row.score),
            money(row.paid, awards.currency) if row.paid else "",
            ", ".join(row.trophies),
        ]
        for row in awards.rows
        if row.cash or row.trophies
    ]


def _subtitle(awards: Awards) -> str:
    rules = f"{awards.rules} rules · " if awards.rules else ""
    return f"Prize list · {awards.method.value} · {rules}after round {awards.rounds}"


def _team_lines(awards: Awards) -> list[str]:
    lines = []
    for team in awards.teams:
        extra = []
        if team.paid:
            extra.append(money(team.paid, awards.currency))
        extra += list(team.trophies)
        more = f": {', '.join(extra)}" if extra else ""
        lines.append(f"Team {team.rank}. {team.name}, {display(team.score)}{more}")
    return lines


def sheet(awards: Awards) -> Sheet:
    """The prize list laid out."""
    rows = tuple(
        (
            Cell(line[0]),
            Cell(line[1]),
            Cell(line[2]),
            Cell(line[3], bold=True),
            Cell(line[4]),
        )
        for line in _winners(awards)
    )
    others = sum(1 for row in awards.rows if not (row.cash or row.trophies))
    notes = [Note(text) for text in _team_lines(awards)]
    notes += [Note(text) for text in notes_of(awards)]
    if others:
        notes.append(Note(f"{others} other player{'s' if others != 1 else ''}: no prize."))
    return Sheet(
        awards.title or "Prize list",
        _subtitle(awards),
        (
            Heading("Place"),
            Heading("Name", "left", shrink=True),
            Heading("Score"),
            Heading("Cash"),
            Heading("Trophy", "left", shrink=True),
        ),
        rows,
        notes=tuple(notes),
        max_width=PHONE_WIDTH,
    )


def description(awards: Awards) -> str:
    """The alt text: what the picture is, then each winner."""
    head = f"Prize list picture: {awards.title or 'prize list'}, {awards.method.value}."
    parts = [
        f"{place}. {name} {score}: {', '.join(filter(None, (cash, trophy))) or 'no prize'}"
        for place, name, score, cash, trophy in _winners(awards)
    ]
    return alt_text(head, parts + _team_lines(awards))


def awards_picture(awards: Awards, theme: str = "light", fmt: str = "png") -> Picture:
    """The prize list drawn (PNG or SVG) with its alt text; more than :data:`MAX_ROWS`
    winners raise :class:`HarknessError` (the text has them all)."""
    winners = len(_winners(awards))
    if winners > MAX_ROWS:
        raise HarknessError(
            [
                Problem(
                    f"a prize list picture shows at most {MAX_ROWS} winners (this list has "
                    f"{winners}); use the text",
                    code="picture-too-large",
                )
            ]
        )
    from core.pictures import canvas

    data, width, height = canvas.draw(sheet(awards), theme, fmt)
    return Picture(data, width, height, description(awards), fmt)

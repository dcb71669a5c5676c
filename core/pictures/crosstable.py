"""The crosstable as a picture: one row a player in standings order, one column a round,
each result coloured by its outcome (won, drawn, lost, not played).

The cells are the crosstable text's notation (``W9``, ``D5``, ``X4``, ``H``, ``-``;
:meth:`core.model.RoundEntry.__str__`) without the colour in brackets, so the letter says
what the colour says for a reader who cannot tell the colours apart. Sections of more than
:data:`MAX_PLAYERS` players or :data:`MAX_ROUNDS` rounds are too large to read as a picture:
they keep the text and CSV files.
"""

from __future__ import annotations

from core.model import EntryKind, RoundEntry
from core.numbers import half_points
from core.pictures import Picture, alt_text
from core.pictures.layout import Cell, Heading, Note, Sheet
from core.problems import HarknessError, Problem
from core.standings import Standings

MAX_PLAYERS = 60
MAX_ROUNDS = 12

#: The style of each kind of round entry: played games by result, forfeits as the points
#: they gave, byes, absences and withdrawals as not played.
OUTCOME = {
    EntryKind.WIN: "win",
    EntryKind.FORFEIT_WIN: "win",
    EntryKind.DRAW: "draw",
    EntryKind.LOSS: "loss",
    EntryKind.FORFEIT_LOSS: "loss",
    EntryKind.FULL_BYE: "unplayed",
    EntryKind.PAIRING_BYE: "unplayed",
    EntryKind.HALF_BYE: "unplayed",
    EntryKind.ZERO_BYE: "unplayed",
    EntryKind.ABSENT: "unplayed",
    EntryKind.WITHDRAWN: "unplayed",
}
LEGEND = (
    ("win", "won (X: forfeit win)"),
    ("draw", "drawn"),
    ("loss", "lost (F: forfeit loss)"),
    ("unplayed", "not played: B, H, U byes; - withdrawn; empty absent"),
)


def fits(standings: Standings) -> bool:
    """Whether the section is small enough to read as a picture."""
    t = standings.tournament
    return len(t) <= MAX_PLAYERS and t.rounds <= MAX_ROUNDS


def cell_text(entry: RoundEntry) -> str:
    """``W9``, ``X4``, ``H``: the crosstable notation without the colour.

    >>> cell_text(RoundEntry.win(9)), cell_text(RoundEntry.bye(EntryKind.HALF_BYE))
    ('W9', 'H')
    """
    return str(entry).split(" ", 1)[0]


def sheet(standings: Standings) -> Sheet:
    """The crosstable laid out, in standings order."""
    t = standings.tournament
    rows = tuple(
        (
            Cell(row.place),
            Cell(str(row.player.id)),
            Cell(row.player.name),
            *(Cell(cell_text(e), OUTCOME[e.kind]) for e in row.player.entries),
            Cell(half_points(row.half_points), bold=True),
        )
        for row in standings.rows
    )
    return Sheet(
        t.name or "Crosstable",
        f"Crosstable · {len(t)} players · after round {t.rounds} · {standings.profile.name} rules",
        (
            Heading("Place"),
            Heading("#"),
            Heading("Name", "left", shrink=True),
            *(Heading(f"Rd {r}", "center") for r in range(1, t.rounds + 1)),
            Heading("Score"),
        ),
        rows,
        notes=tuple(Note(words, style) for style, words in LEGEND),
        max_width=None,
    )


def description(standings: Standings) -> str:
    """The alt text: what the picture is, then each player's place, name, results and score."""
    t = standings.tournament
    head = (
        f"Crosstable picture: {t.name or 'Crosstable'}, {len(t)} players, "
        f"{t.rounds} rounds, in standings order."
    )
    parts = [
        f"{row.place}. #{row.player.id} {row.player.name}: "
        + " ".join(cell_text(e) or "absent" for e in row.player.entries)
        + f", {half_points(row.half_points)}"
        for row in standings.rows
    ]
    return alt_text(head, parts)


def crosstable_picture(standings: Standings, theme: str = "light") -> Picture:
    """The crosstable drawn (PNG) with its alt text; a section larger than
    :data:`MAX_PLAYERS` × :data:`MAX_ROUNDS` raises :class:`HarknessError`."""
    if not fits(standings):
        t = standings.tournament
        raise HarknessError(
            [
                Problem(
                    f"a crosstable picture shows at most {MAX_PLAYERS} players and "
                    f"{MAX_ROUNDS} rounds (this section has {len(t)} and {t.rounds}); "
                    "use the text or CSV crosstable",
                    code="picture-too-large",
                )
            ]
        )
    from core.pictures import canvas

    data, width, height = canvas.draw(sheet(standings), theme)
    return Picture(data, width, height, description(standings))

"""What the worker's own tabs say: standings, breakdown and errors, as rows of cells.

Every number and every sentence comes from ``core`` (:func:`core.render.cells` for the
standings, :func:`core.explain.explain` for the "why" and the breakdown, worded by
:mod:`core.explain_render`); this module only lays them out. Numbers are written as
numbers (so a TD can sort and sum them) and text as text: a name such as
``=IMPORTXML(...)`` is a string, never a formula.

>>> from fractions import Fraction
>>> [_number(Fraction(17, 2)).value, _number(Fraction(48)).value, _number(None, 0, None, "–").value]
[8.5, 48, '–']
>>> _number(Fraction(21, 2), 2).number_format, _place("3-4", 3).value, _place("3", 3).value
('0.00', '3-4', 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from fractions import Fraction
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.awards import Awards
from core.awards.render import award_cells, notes_of, team_cells
from core.explain import Explanation, RoundPart, explain_each
from core.explain_render import (
    award_note_text,
    reason_text,
    round_text,
    summary,
    taken_off_text,
)
from core.numbers import UNDEFINED_TEXT, as_json_number, decimals_kept, display
from core.render import cells as standings_cells
from core.render import names_of_tiebreaks
from core.standings import UNPLAYED, Standings
from core.tiebreaks import tiebreaks_of
from core.tiebreaks.notes import RoundNote
from sheets.layout import Role
from sheets.problems import SheetProblem

Value = str | int | float | None


@dataclass(frozen=True, slots=True)
class OutCell:
    """One cell the worker writes: its value, and optionally a note, a number format and a
    shading (``fill``: one of :data:`sheets.write.FILLS`)."""

    value: Value = None
    note: str | None = None
    number_format: str | None = None
    header: bool = False
    fill: str | None = None
    wrap: bool = False
    """Wrap the text within the column's width (long sentences: "Why", "Problem", "How")."""


@dataclass(frozen=True, slots=True)
class TabContent:
    """The whole contents of one of the worker's tabs; row 0 is the (frozen) header."""

    role: Role
    title: str
    rows: list[list[OutCell]] = field(default_factory=list)
    widths: tuple[int, ...] = ()
    """Each column's width in pixels, from column A (set when the tab is written whole or
    its columns change, so that the sentences wrap instead of running across the tab)."""
    keys: tuple[int, ...] = ()
    """The columns whose texts name what a row is about (a player, a player's tiebreak, a
    problem), so that a row that moved is moved, not written again (:mod:`sheets.changes`);
    none: rows are compared where they are."""

    @property
    def width(self) -> int:
        return max((len(row) for row in self.rows), default=1)


def _number(
    value: Fraction | None, digits: int | None = None, note: str | None = None, undefined: str = ""
) -> OutCell:
    """A value core computed, written as a number (with a fixed-decimals pattern when its
    display keeps a trailing zero, ``10.50``); ``undefined`` when it has none."""
    if value is None:
        return OutCell(undefined or None, note)
    number, pattern = _written(value.numerator, value.denominator, digits)
    return OutCell(number, note, pattern)


@lru_cache(maxsize=4096)
def _written(
    numerator: int, denominator: int, digits: int | None
) -> tuple[int | float | None, str | None]:
    """:func:`_number`'s value and pattern for ``numerator / denominator`` (a breakdown
    writes a few hundred values hundreds of thousands of times)."""
    value = Fraction(numerator, denominator)
    kept = decimals_kept(value, digits)
    return as_json_number(value, digits), "0." + "0" * kept if kept else None


def _place(place: str, rank: int, note: str | None = None) -> OutCell:
    """A place: a number, or text for a shared place (``3-4``)."""
    return OutCell(rank if place == str(rank) else place, note)


def _text(text: str | None, note: str | None = None, *, wrap: bool = False) -> OutCell:
    return OutCell(text if text else None, note, wrap=wrap)


#: Column widths in pixels: narrow numbers, codes, a name, and wide wrapped sentences.
NUMBER_WIDTH, CODE_WIDTH, NAME_WIDTH, SENTENCE_WIDTH, CELL_REF_WIDTH = 64, 90, 200, 480, 140


def _header(titles: Sequence[str], notes: Sequence[str | None] = ()) -> list[OutCell]:
    notes = list(notes) + [None] * (len(titles) - len(notes))
    return [OutCell(t, n, header=True) for t, n in zip(titles, notes, strict=True)]


def ranked_tabs(
    standings_title: str, breakdown_title: str, standings: Standings, footer: Sequence[str]
) -> tuple[TabContent, TabContent]:
    """The Standings and Breakdown tabs, from each player's explanation in turn: each is
    worded and let go, never all held at once (:func:`core.explain.explain_each`)."""
    reasons: dict[int, str] = {}
    breakdown = breakdown_tab(breakdown_title, standings, explain_each(standings), reasons)
    return standings_tab(standings_title, standings, reasons, footer), breakdown


def standings_tab(
    title: str, standings: Standings, reasons: Mapping[int, str], footer: Sequence[str]
) -> TabContent:
    """Place, starting number, name, score, the tiebreaks in order, and the "why" (each
    player's :func:`~core.explain_render.reason_text`, by starting number: ``reasons``)."""
    table = standings_cells(standings)
    registry = tiebreaks_of(standings.profile.family)
    codes = table[0][4:]
    rows = [
        _header(
            [*table[0], "Why"],
            [
                None,
                "Starting number",
                None,
                None,
                *(f"{registry[c].name} ({registry[c].rule})" for c in codes),
            ],
        )
    ]
    shading = tie_shading(standings)
    for n, (row, display_row) in enumerate(zip(standings.rows, table[1:], strict=True)):
        name = display_row[2]
        group, decisive = shading[n]
        i = row.player_index
        cells = [
            _place(row.place, row.rank),
            OutCell(row.player.id),
            OutCell(name),
            _number(row.score),
            *(
                _number(standings.value(c, i), registry[c].digits, undefined=UNDEFINED_TEXT)
                for c in codes
            ),
            _text(reasons[row.player.id], wrap=True),
        ]
        if group is not None:
            cells = [
                OutCell(
                    c.value,
                    c.note,
                    c.number_format,
                    c.header,
                    DECISIVE if j in decisive else group,
                    c.wrap,
                )
                for j, c in enumerate(cells)
            ]
        rows.append(cells)
    if footer:
        rows.append([])
        rows += [[OutCell(line)] for line in footer]
    widths: tuple[int, ...] = (NUMBER_WIDTH, NUMBER_WIDTH, NAME_WIDTH, NUMBER_WIDTH)
    widths += (NUMBER_WIDTH,) * len(codes) + (SENTENCE_WIDTH,)
    return TabContent(Role.STANDINGS, title, rows, widths, keys=(1,))


def standings_notice(title: str, lines: Sequence[str]) -> TabContent:
    """The Standings tab before any standings could be published: what happened, and where
    to look (the first sync of a sheet with problems, "Publish partial standings" No)."""
    rows = [[OutCell("No standings yet", header=True)]]
    rows += [[_text(line, wrap=True)] for line in lines]
    return TabContent(Role.STANDINGS, title, rows, (SENTENCE_WIDTH + NAME_WIDTH,))


#: Shadings of the Standings tab: score groups of two or more players alternate between two
#: tints, and the cell that broke a tie is highlighted.
TIED = ("tied", "tied-alternate")
DECISIVE = "decisive"


def tie_shading(standings: Standings) -> list[tuple[str | None, set[int]]]:
    """For each row of the Standings tab: the tint of its tied score group (None when the
    player's score is nobody else's) and the columns (of Place, #, Name, Score, tiebreaks…)
    of the cells that broke a tie with the row above or below it: the tiebreak that
    separated them (:attr:`core.standings.Standing.separated_by`), or the score for the US
    Chess rule on points won without playing.

    >>> from core.examples import load_example
    >>> from core.standings import compute_standings
    >>> s = compute_standings(load_example(), "mdchess")
    >>> [(tint, sorted(cols)) for tint, cols in tie_shading(s)]  # doctest: +NORMALIZE_WHITESPACE
    [('tied', [4]), ('tied', [4]), ('tied', [4, 5]), ('tied', [5]), (None, []), (None, []),
     (None, []), ('tied-alternate', [4]), ('tied-alternate', [4]), (None, [])]
    """
    rows = standings.rows
    column = {code: 4 + j for j, code in enumerate(standings.order)}
    column[UNPLAYED] = 3
    shading: list[tuple[str | None, set[int]]] = []
    groups = 0
    for n, row in enumerate(rows):
        tied = any(
            0 <= m < len(rows) and rows[m].half_points == row.half_points for m in (n - 1, n + 1)
        )
        if tied and (n == 0 or rows[n - 1].half_points != row.half_points):
            groups += 1
        shading.append((TIED[(groups - 1) % 2] if tied else None, set()))
    for n, row in enumerate(rows):
        if n and rows[n - 1].half_points == row.half_points and row.separated_by in column:
            shading[n - 1][1].add(column[row.separated_by])
            shading[n][1].add(column[row.separated_by])
    return shading


def breakdown_tab(
    title: str,
    standings: Standings,
    explained: Iterable[Explanation],
    reasons: dict[int, str] | None = None,
) -> TabContent:
    """One row per player and tiebreak: the value, each round's part, and how it adds up,
    from the players' explanations in the order of the standings' rows (each player's short
    why goes into ``reasons``, by starting number, for the Standings tab).

    A dropped round's part is shown in brackets; each part's note says where it came from.
    """
    rounds = standings.tournament.rounds
    rows = [
        _header(
            [
                "Place",
                "#",
                "Name",
                "Tiebreak",
                "Value",
                *(f"Rd {r}" for r in range(1, rounds + 1)),
                "Adjusted",
                "How",
            ]
        )
    ]
    worded: dict[int, str] = {}  # round_text of each note, by id: notes are shared
    codes: dict[tuple[str, str], OutCell] = {}
    for row, e in zip(standings.rows, explained, strict=True):
        if reasons is not None:
            reasons[row.player.id] = reason_text(e)
        player = [_place(row.place, row.rank), OutCell(row.player.id), OutCell(row.player.name)]
        # A round's part alike in several tiebreaks (an opponent's score, in Modified Median
        # and Solkoff) is one cell: parts of one explanation, by the ids of what they hold.
        alike: dict[tuple[str, int, int, bool], OutCell] = {}
        for tb in e.tiebreaks:
            parts = []
            for part in tb.parts:
                key = (part.entry, id(part.note), id(part.value), part.dropped)
                cell = alike.get(key)
                if cell is None:
                    cell = alike[key] = _part(part, _round_words(part.note, worded))
                parts.append(cell)
            parts += [BLANK_CELL] * (rounds - len(parts))
            adjusted = (
                _number(tb.adjustment, None, taken_off_text(tb.taken_off) or None)
                if tb.adjustment
                else BLANK_CELL
            )
            code = codes.get((tb.code, tb.name))
            if code is None:
                code = codes[(tb.code, tb.name)] = OutCell(tb.code, tb.name)
            rows.append(
                [
                    *player,
                    code,
                    _number(tb.value, tb.digits, undefined=tb.shown),
                    *parts,
                    adjusted,
                    _text(summary(tb), wrap=True),
                ]
            )
    widths: tuple[int, ...] = (NUMBER_WIDTH, NUMBER_WIDTH, NAME_WIDTH, CODE_WIDTH, NUMBER_WIDTH)
    widths += (NUMBER_WIDTH,) * rounds + (CODE_WIDTH, SENTENCE_WIDTH)
    return TabContent(Role.BREAKDOWN, title, rows, widths, keys=(1, 3))


BLANK_CELL = OutCell()


def _part(part: RoundPart, why: str) -> OutCell:
    """One round's part of a tiebreak, with a note saying where it came from (its entry and
    ``why``, the words of its round note); a dropped part in brackets."""
    reason = f"{part.entry}; {why}" if part.entry and why else part.entry or why
    if part.dropped:
        return OutCell(f"({display(part.value, None, '')})", f"{reason} — dropped")
    return _number(part.value, None, reason or None)


def _round_words(note: RoundNote | None, known: dict[int, str]) -> str:
    """:func:`~core.explain_render.round_text` of ``note``, remembered in ``known`` by the
    note's id while the notes live (players who met one opponent share its note)."""
    if note is None:
        return ""
    words = known.get(id(note))
    if words is None:
        words = known[id(note)] = round_text(note)
    return words


CHECKED_CELL = (0, 3)
"""Where the Errors tab says when the worker last checked the sheet: D1, in the frozen
header row (row, column from 0), so that an idle sync can update that one cell."""


def errors_tab(
    title: str, problems: Sequence[SheetProblem], status: Sequence[str], checked: str = ""
) -> TabContent:
    """Every problem with its cell reference and the text found there, then the status;
    ``checked`` (:func:`checked_at`) goes in :data:`CHECKED_CELL`."""
    rows = [_header(["Cell", "Entered", "Problem", checked])]
    for p in problems:
        rows.append([_text(p.cell), _text(p.text, wrap=True), _text(p.message, wrap=True)])
    rows.append([])
    rows += [[OutCell(line)] for line in status]
    widths = (CELL_REF_WIDTH, CELL_REF_WIDTH, SENTENCE_WIDTH, NAME_WIDTH)
    return TabContent(Role.ERRORS, title, rows, widths, keys=(0, 2))


def local_time(moment: datetime, time_zone: str = "") -> str:
    """``moment`` in the spreadsheet's time zone (as Google names it), to the minute; UTC
    when the zone is missing or unknown here.

    >>> at = datetime(2026, 3, 1, 14, 5, tzinfo=UTC)
    >>> local_time(at, "Europe/Paris"), local_time(at, "America/New_York"), local_time(at)
    ('2026-03-01 15:05 CET', '2026-03-01 09:05 EST', '2026-03-01 14:05 UTC')
    >>> local_time(at, "Nowhere/Atlantis"), local_time(at, "../../etc/passwd")
    ('2026-03-01 14:05 UTC', '2026-03-01 14:05 UTC')
    """
    zone: tzinfo = UTC
    if time_zone:
        try:
            zone = ZoneInfo(time_zone[:100])
        except (ZoneInfoNotFoundError, ValueError, OSError):
            zone = UTC
    local = moment.astimezone(zone)
    return f"{local:%Y-%m-%d %H:%M} {local:%Z}"


def synced_at(now: datetime | None = None, time_zone: str = "") -> str:
    """``Synced 2026-03-01 15:05 CET``: when the worker last wrote (something had changed)."""
    return f"Synced {local_time(now or datetime.now(UTC), time_zone)}"


def checked_at(now: datetime | None = None, time_zone: str = "") -> str:
    """``Last checked 2026-03-01 15:35 CET``: when the worker last looked at the sheet."""
    return f"Last checked {local_time(now or datetime.now(UTC), time_zone)}"


def describe(standings: Standings, rounds_set: int | None) -> str:
    """``After round 4 of 5 · 10 players · rules mdchess: MM = Modified Median, …``."""
    played = standings.tournament.rounds
    of = f" of {rounds_set}" if rounds_set and rounds_set != played else ""
    when = f"After round {played}{of}" if played else "No results yet"
    return (
        f"{when} · {len(standings.rows)} players · rules {standings.profile.name}: "
        f"{names_of_tiebreaks(standings)}"
    )


def awards_tab(title: str, awards: Awards, footer: Sequence[str]) -> TabContent:
    """The award list: each player in standings order with the cash paid (a number, rounded
    down to the cent), the prizes pooled or won, the trophies, and why (core's sentences);
    the teams below (rank, score, counting players, cash, prizes, trophies, why); then the
    prizes not awarded and the cents left over (:func:`core.awards.render.notes_of`)."""
    currency = f" ({awards.currency})" if awards.currency else ""
    players = award_cells(awards)
    heading = players[0]
    heading[4] += currency
    rows = [_header([*heading, "Why"], [None, "Starting number"])]
    for row, cells in zip(awards.rows, players[1:], strict=True):
        why = [award_note_text(n, awards.currency) for n in (*row.reasons, *row.why_not)]
        rows.append(
            [
                _place(row.place, int(row.place.split("-")[0]) if row.place[:1].isdigit() else 0),
                OutCell(row.id),
                OutCell(row.name),
                _number(row.score),
                _money(row.paid),
                *(_text(c) for c in cells[5:]),
                _text(" ".join(why), wrap=True),
            ]
        )
    teams = team_cells(awards)
    if len(teams) > 1:
        rows.append([])
        rows.append(_header([*teams[0][:4], teams[0][4] + currency, *teams[0][5:], "Why"]))
        for team, cells in zip(awards.teams, teams[1:], strict=True):
            why = [award_note_text(n, awards.currency) for n in team.reasons]
            rows.append(
                [
                    OutCell(team.rank),
                    OutCell(team.name),
                    _number(team.score),
                    _text(cells[3], wrap=True),
                    _money(team.paid),
                    *(_text(c) for c in cells[5:]),
                    _text(" ".join(why), wrap=True),
                ]
            )
    notes = [*notes_of(awards), *footer]
    if notes:
        rows.append([])
        rows += [[OutCell(line)] for line in notes]
    extra = (NAME_WIDTH,) if len(heading) > 7 else ()
    widths = (NUMBER_WIDTH, NUMBER_WIDTH, NAME_WIDTH, NUMBER_WIDTH, NUMBER_WIDTH, NAME_WIDTH)
    return TabContent(Role.AWARDS, title, rows, (*widths, NAME_WIDTH, *extra, SENTENCE_WIDTH))


def _money(paid: Fraction) -> OutCell:
    """Cash paid, as a number with two decimals (empty for none)."""
    if not paid:
        return OutCell()
    return OutCell(as_json_number(paid), number_format="0.00" if paid.denominator != 1 else None)


def awards_notice(title: str, lines: Sequence[str]) -> TabContent:
    """The Awards tab before any award list could be written (the prizes have problems)."""
    rows = [[OutCell("No awards yet", header=True)]]
    rows += [[_text(line, wrap=True)] for line in lines]
    return TabContent(Role.AWARDS, title, rows, (SENTENCE_WIDTH + NAME_WIDTH,))

"""Standings rendered for people and programs: terminal table, Markdown, CSV, JSON.

The JSON shape is a contract other tools depend on (core/README.md documents it):
``{"rules", "rounds", "tiebreaks": [code…], "standings": [{"rank", "place", "id", "name",
"score", "tiebreaks": {code: number|null}}], "warnings": [{"player", "line", "column",
"message"}]}`` in rank order; ``warnings`` is what the reader accepted but reports (a TRF
points column that disagrees with the results), empty when nothing was noticed.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import partial
from operator import itemgetter
from typing import Any

from core.names import markdown_safe, write_csv
from core.numbers import UNDEFINED_TEXT, display_units, half_points, json_units
from core.standings import Standings
from core.tiebreaks import Column, Tiebreak, tiebreaks_of

FORMATS = ("table", "json", "csv", "markdown")


def _tiebreaks(standings: Standings) -> list[Tiebreak]:
    registry = tiebreaks_of(standings.profile.family)
    return [registry[code] for code in standings.order]


def _texts(
    column: Column, digits: int | None, say: Callable[[Any, int, int | None], str]
) -> list[str]:
    """Each player's value in a column as text (by player index), ``say(units, scale,
    digits)`` called once per distinct value however many players share it (5,000 players
    have a few dozen different values)."""
    units = list(map(_UNITS, column.breakdowns))
    said = {u: say(u, column.scale, digits) for u in set(units)}
    return list(map(said.__getitem__, units))


_UNITS = itemgetter(0)  # Breakdown.units


def _json_member(key: str, units: Any, scale: int, digits: int | None) -> str:
    """``key`` (``"MM": ``) and a tiebreak's value as JSON text."""
    return key + _number(json_units(units, scale, digits))


def cells(standings: Standings, empty: str = UNDEFINED_TEXT) -> list[list[str]]:
    """Header and one row of display strings per player, in rank order; an undefined value
    is ``empty``."""
    tiebreaks = _tiebreaks(standings)
    header = ["Place", "#", "Name", "Score"] + [tb.code for tb in tiebreaks]
    say = partial(display_units, empty=empty)
    columns = [_texts(standings.columns[tb.code], tb.digits, say) for tb in tiebreaks]
    values = list(zip(*columns, strict=True)) if columns else None  # by player index
    scores: dict[int, str] = {}  # a few dozen different scores
    rows = [header]
    for row in standings.rows:
        score = scores.get(row.half_points)
        if score is None:
            score = scores[row.half_points] = half_points(row.half_points)
        rows.append(
            [row.place, str(row.player.id), row.player.name, score, *values[row.player_index]]
            if values
            else [row.place, str(row.player.id), row.player.name, score]
        )
    return rows


def to_json_dict(standings: Standings) -> dict[str, Any]:
    """The standings as the CLI's JSON contract (exact values shown as decimals)."""
    tiebreaks = _tiebreaks(standings)
    columns = [(tb.code, standings.columns[tb.code], tb.digits) for tb in tiebreaks]
    return {
        "rules": standings.profile.name,
        "rounds": standings.tournament.rounds,
        "tiebreaks": [tb.code for tb in tiebreaks],
        "standings": [
            {
                "rank": row.rank,
                "place": row.place,
                "id": row.player.id,
                "name": row.player.name,
                "score": json_units(row.half_points, 2),
                "tiebreaks": {
                    code: column.json(row.player_index, digits) for code, column, digits in columns
                },
            }
            for row in standings.rows
        ],
        "warnings": to_json_dict_warnings(standings),
    }


def to_json_dict_warnings(standings: Standings) -> list[dict[str, Any]]:
    """The ``warnings`` of the JSON contract: what the reader accepted but reports."""
    return [
        {"player": w.player, "line": w.line, "column": w.column, "message": w.message}
        for w in standings.tournament.warnings
    ]


def to_json(standings: Standings) -> str:
    """:func:`to_json_dict` as one line of JSON, character for character what
    ``json.dumps(to_json_dict(standings), ensure_ascii=False)`` writes, built row by row
    from text: no dict per row and per tiebreak (5,000 players in a few milliseconds).
    Strings go through json's own C string encoder, numbers through :func:`_number`."""
    import json  # here: the other formats need none of it
    from json.encoder import encode_basestring

    tiebreaks = _tiebreaks(standings)
    head = {
        "rules": standings.profile.name,
        "rounds": standings.tournament.rounds,
        "tiebreaks": [tb.code for tb in tiebreaks],
    }
    text = encode_basestring
    # Per tiebreak, every player's key and value as JSON text (by player index); then per
    # player, the members of their "tiebreaks" object.
    columns = [
        _texts(
            standings.columns[tb.code],
            tb.digits,
            partial(_json_member, f"{text(tb.code)}: "),
        )
        for tb in tiebreaks
    ]
    members = list(map(", ".join, zip(*columns, strict=True))) if columns else None
    scores: dict[int, str] = {}  # a few dozen different scores
    rows = []
    for row in standings.rows:
        score = scores.get(row.half_points)
        if score is None:
            score = scores[row.half_points] = _number(json_units(row.half_points, 2))
        cells = members[row.player_index] if members else ""
        rows.append(
            f'{{"rank": {row.rank}, "place": {text(row.place)}, "id": {row.player.id}, '
            f'"name": {text(row.player.name)}, "score": {score}, "tiebreaks": {{{cells}}}}}'
        )
    warnings = json.dumps(to_json_dict_warnings(standings), ensure_ascii=False)
    start = json.dumps(head, ensure_ascii=False)[:-1]
    return f'{start}, "standings": [{", ".join(rows)}], "warnings": {warnings}}}\n'


def _number(value: int | float | None) -> str:
    """A JSON number as ``json.dumps`` writes it (``null`` for None)."""
    return "null" if value is None else repr(value)


def to_csv(standings: Standings) -> str:
    return write_csv(cells(standings, empty=""))


def to_markdown(standings: Standings) -> str:
    """A Markdown table (GitHub and Discord flavour), numbers right-aligned."""
    rows = cells(standings)
    header, body = rows[0], rows[1:]
    align = ["---", "--:", ":--", "--:"] + ["--:"] * (len(header) - 4)
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += [
        "| " + " | ".join(markdown_safe(c) if j == 2 else c for j, c in enumerate(row)) + " |"
        for row in body
    ]
    return "\n".join(lines) + "\n"


def names_of_tiebreaks(standings: Standings) -> str:
    """One line naming the tiebreaks in order: ``MM = Modified Median, SOLK = Solkoff…``."""
    return ", ".join(f"{tb.code} = {tb.name}" for tb in _tiebreaks(standings))


#: Up to this many players the table is drawn by rich; beyond it rich takes seconds, so the
#: same columns are printed as plain aligned text.
RICH_TABLE_ROWS = 300


def _plain_table(rows: list[list[str]], title: str, caption: str) -> str:
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = [title, ""]
    for n, row in enumerate(rows):
        cells_ = [
            c.ljust(w) if j == 2 else c.rjust(w)
            for j, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells_).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join([*lines, "", caption]) + "\n"


def played_text(rounds: int, planned: int | None = None) -> str:
    """When standings of ``rounds`` rounds stand: ``after round 3 of 5``, or, before any
    round has been played (:func:`core.model.as_played`), ``no round played yet``.

    >>> played_text(3, 5), played_text(5), played_text(0, 4)
    ('after round 3 of 5', 'after round 5', 'no round played yet')
    """
    if rounds == 0:
        return "no round played yet"
    of = f" of {planned}" if planned and planned >= rounds else ""
    return f"after round {rounds}{of}"


def to_table(standings: Standings, width: int | None = None) -> str:
    """A readable terminal table (rich), with the tiebreaks named underneath.

    Sections of more than :data:`RICH_TABLE_ROWS` players print as plain aligned text.
    """
    rows = cells(standings)
    rounds = standings.tournament.rounds
    when = f"{rounds} rounds" if rounds else played_text(0)
    heading = f"{standings.tournament.name or 'Standings'} — {standings.profile.label}, {when}"
    if len(rows) - 1 > RICH_TABLE_ROWS:
        return _plain_table(rows, heading, names_of_tiebreaks(standings))
    from rich.console import Console
    from rich.table import Table

    table = Table(title=heading, caption=names_of_tiebreaks(standings), header_style="bold")
    for j, heading in enumerate(rows[0]):
        table.add_column(heading, justify="left" if j == 2 else "right", no_wrap=j != 2)
    for row in rows[1:]:
        table.add_row(*row)
    console = Console(
        width=width or 120, file=io.StringIO(), color_system=None, force_terminal=False
    )
    with console.capture() as capture:
        console.print(table)
    return capture.get()


RENDERERS = {"table": to_table, "json": to_json, "csv": to_csv, "markdown": to_markdown}


def render(standings: Standings, fmt: str = "table") -> str:
    """The standings in one of :data:`FORMATS`."""
    return RENDERERS[fmt](standings)

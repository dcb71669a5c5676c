"""The award list for people and programs: terminal table, Markdown, CSV and JSON.

The JSON shape is a contract (core/README.md documents it): ``{"method", "currency", "awards":
[{"id", "name", "score", "cash", "cash_exact", "prizes", "trophy"}], "prizes": [{"name",
"amount", "winners", "awarded"}], "teams": [{"team", "score", "rank", "counting"}]}``, one
``awards`` row per player in standings order; ``cash`` is what is paid, rounded down to the
cent, ``cash_exact`` the exact amount (``{"num": 325, "den": 2}``), ``prizes`` the names
pooled or won, ``trophy`` a name or null. Keys after those are additions: ``trophies`` (every
trophy held, additive ones too), a prize's ``trophy`` (its holder's starting number) and
``teams`` (a team prize's teams), a team's ``cash``, ``cash_exact``, ``prizes``,
``trophy``, and ``leftover_cents`` (what paying in cents rounded down keeps back).
"""

from __future__ import annotations

import io
import json
from fractions import Fraction
from typing import Any

from core.awards.reasons import AwardNote, AwardWhy
from core.awards.result import Awards
from core.explain_data import exact
from core.explain_render import award_note_text
from core.names import markdown_safe, write_csv
from core.numbers import as_json_number, display, money

__all__ = ["FORMATS", "award_cells", "render_awards", "to_json_dict"]

FORMATS = ("table", "json", "csv", "markdown")


def _cash(awards: Awards, amount: Fraction) -> str:
    return money(amount, awards.currency) if amount else ""


def award_cells(awards: Awards) -> list[list[str]]:
    """Header and one row of text per player, in standings order: place, starting number,
    name, score, cash paid, prizes pooled or won, trophies (and team, when there are
    teams)."""
    teams = any(row.team for row in awards.rows)
    header = ["Place", "#", "Name", "Score", "Cash", "Prizes", "Trophy"] + (["Team"] * teams)
    rows = [header]
    for row in awards.rows:
        cells = [
            row.place,
            str(row.id),
            row.name,
            display(row.score),
            _cash(awards, row.paid),
            ", ".join(row.prizes),
            ", ".join(row.trophies),
        ]
        rows.append(cells + ([row.team] if teams else []))
    return rows


def notes_of(awards: Awards) -> list[str]:
    """The lines under a list: prizes not awarded, the cents left over, what limits kept."""
    lines = [
        award_note_text(note, awards.currency)
        for result in awards.prizes
        for note in result.reasons
    ]
    lines += [
        award_note_text(AwardNote(AwardWhy.TEAM_TOO_SMALL, other=name, count=count))
        for name, count in awards.unranked
    ]
    if awards.leftover:
        lines.append(
            f"Paid in cents rounded down: {awards.leftover_cents} cent"
            f"{'s' if awards.leftover_cents != 1 else ''} left over."
        )
    if awards.unpaid:
        lines.append(f"Not paid above personal limits: {money(awards.unpaid, awards.currency)}.")
    return lines


def team_cells(awards: Awards) -> list[list[str]]:
    """Header and one row per ranked team: rank, team, score, counting players, cash,
    prizes, trophies."""
    names = {row.id: row.name for row in awards.rows}
    rows = [["Rank", "Team", "Score", "Counting", "Cash", "Prizes", "Trophy"]]
    for team in awards.teams:
        rows.append(
            [
                str(team.rank),
                team.name,
                display(team.score),
                "; ".join(names[i] for i in team.counting),
                _cash(awards, team.paid),
                ", ".join(team.prizes),
                ", ".join(team.trophies),
            ]
        )
    return rows


def _title(awards: Awards) -> str:
    rules = f" — {awards.rules}" if awards.rules else ""
    return f"{awards.title or 'Awards'}{rules}, {awards.method.value}"


#: Columns aligned right (numbers), by table: the players', the teams'.
_RIGHT = ((0, 1, 3, 4), (0, 2, 4))


def to_table(awards: Awards, width: int | None = None) -> str:
    """A terminal table (rich), teams below, the notes under them."""
    from rich.console import Console
    from rich.table import Table

    console = Console(
        width=width or 120, file=io.StringIO(), color_system=None, force_terminal=False
    )
    with console.capture() as capture:
        tables = ((award_cells(awards), _title(awards)), (team_cells(awards), "Teams"))
        for (cells, title), right in zip(tables, _RIGHT, strict=True):
            if len(cells) == 1:
                continue
            table = Table(title=title, header_style="bold")
            for j, heading in enumerate(cells[0]):
                table.add_column(heading, justify="right" if j in right else "left")
            for row in cells[1:]:
                table.add_row(*row)
            console.print(table)
        for line in notes_of(awards):
            console.print(line, markup=False, highlight=False)
    return capture.get()


def to_markdown(awards: Awards) -> str:
    """Markdown tables (GitHub and Discord flavour), every name escaped."""
    lines = []
    for cells, right in zip((award_cells(awards), team_cells(awards)), _RIGHT, strict=True):
        if len(cells) == 1:
            continue
        header, body = cells[0], cells[1:]
        align = ["--:" if j in right else ":--" for j in range(len(header))]
        lines += ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
        lines += ["| " + " | ".join(markdown_safe(c) for c in row) + " |" for row in body]
        lines.append("")
    lines += [markdown_safe(line) for line in notes_of(awards)]
    return "\n".join(lines).rstrip() + "\n"


def to_csv(awards: Awards) -> str:
    """The player rows as CSV, formula-safe (:func:`core.names.write_csv`)."""
    return write_csv(award_cells(awards))


def to_json_dict(awards: Awards) -> dict[str, Any]:
    """The award list as the JSON contract (see the module's docstring)."""
    return {
        "method": awards.method.value,
        "currency": awards.currency,
        "awards": [
            {
                "id": row.id,
                "name": row.name,
                "score": as_json_number(row.score),
                "cash": as_json_number(row.paid),
                "cash_exact": exact(row.cash),
                "prizes": list(row.prizes),
                "trophy": row.trophy,
                "trophies": list(row.trophies),
            }
            for row in awards.rows
        ],
        "prizes": [
            {
                "name": result.prize.name,
                "amount": as_json_number(result.amount),
                "winners": list(result.winners),
                "awarded": result.awarded,
                "trophy": result.trophy_holder,
            }
            | (
                {"teams": list(result.teams), "trophy_team": result.trophy_team}
                if result.prize.team
                else {}
            )
            for result in awards.prizes
        ],
        "teams": [
            {
                "team": team.name,
                "score": as_json_number(team.score),
                "rank": team.rank,
                "counting": list(team.counting),
                "cash": as_json_number(team.paid),
                "cash_exact": exact(team.cash),
                "prizes": list(team.prizes),
                "trophy": team.trophies[0] if team.trophies else None,
            }
            for team in awards.teams
        ],
        "leftover_cents": awards.leftover_cents,
    }


def to_json(awards: Awards) -> str:
    return json.dumps(to_json_dict(awards), ensure_ascii=False) + "\n"


RENDERERS = {"table": to_table, "json": to_json, "csv": to_csv, "markdown": to_markdown}


def render_awards(awards: Awards, fmt: str = "table") -> str:
    """The award list in one of :data:`FORMATS`."""
    return RENDERERS[fmt](awards)

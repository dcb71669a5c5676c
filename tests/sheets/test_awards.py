"""Awards in Google Sheets, end to end through the fake: the TD writes prizes in a Prizes tab
of their own (one a row), the method and currency in the Harkness tab, and players'
categories, teams and limits as columns of their rows; the worker writes an Awards tab (each
player's cash, prizes, trophies and why; the teams below) and each problem on the Errors tab
at its cell, never holding the standings back and never writing over what the TD typed.

The worked examples of core/RULEBOOK.md ("Awards") come out of the Awards tab exactly as the
engine gives them (:mod:`tests.awards.worked`)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from core.awards import PrizeList, compute_awards, read_prizes
from core.awards.writer import prize_keys, written_amount
from core.model import Tournament
from core.numbers import cents_down, display
from core.standings import compute_standings
from sheets.sync import SyncResult
from tests.awards.worked import CLUB_NIGHT, WORKED, Worked, with_a_game
from tests.fakes.sheets_api import SheetsFake
from tests.sheets.conftest import settings_rows

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]

HEADER = ["Name", "Amount", "Trophy", "Kind", "Value", "Rank", "Additive", "Team"]


def prizes_tab(prizes: PrizeList) -> list[list[Any]]:
    """A prize list as a TD types it in a Prizes tab: one prize a row."""
    rows: list[list[Any]] = [list(HEADER)]
    for prize in prizes.prizes:
        keys = prize_keys(prize)
        kind = next(k for k in ("place", "class", "under", "unrated", "category") if k in keys)
        value = keys[kind]
        text = (
            f"{value[0]}-{value[1]}"
            if kind == "class"
            else f"{value} from {keys['from']}"
            if "from" in keys
            else ""
            if kind == "unrated"
            else str(value)
        )
        rows.append(
            [
                prize.name,
                str(keys.get("amount", "")),
                "Yes" if prize.trophy else "",
                kind,
                text,
                str(keys.get("rank", "")),
                "Yes" if prize.additive else "",
                "Yes" if prize.team else "",
            ]
        )
    return rows


def results_tab(tournament: Tournament, prizes: PrizeList) -> list[list[Any]]:
    """The section as a crosstable, with the players' Categories, Team and Limit columns."""
    rounds = [f"Rd {r}" for r in range(1, tournament.rounds + 1)]
    rows: list[list[Any]] = [["#", "Name", "Rating", "Categories", "Team", "Limit", *rounds]]
    for p in tournament.players:
        categories = ", ".join(c for c, ids in prizes.categories.items() if p.id in ids)
        team = next((t for t, ids in prizes.teams.items() if p.id in ids), "")
        limit = prizes.limits.get(p.id)
        cells = [str(e) for e in p.entries]
        rows.append(
            [
                p.id,
                p.name,
                p.rating if p.rating is not None else "",
                categories,
                team,
                "" if limit is None else written_amount(limit),
                *cells,
            ]
        )
    return rows


def sheet_of(tournament: Tournament, prize_file: str) -> dict[str, list[list[Any]]]:
    """The TD's tabs for a section and a prize file."""
    prizes = read_prizes(prize_file)
    return {
        "Results": results_tab(tournament, prizes),
        "Prizes": prizes_tab(prizes),
        "Harkness": settings_rows(
            Prize_method=prizes.method.value,
            Currency=prizes.currency,
            Team_size=str(prizes.team_count),
        ),
    }


def awards_rows(fake: SheetsFake, sheet_id: str) -> dict[str, dict[str, str]]:
    """Name → the Awards tab's cells of that player's row, by heading."""
    rows = fake.values(sheet_id, "Awards")
    header = rows[0]
    players: dict[str, dict[str, str]] = {}
    for row in rows[1:]:
        if not row or row[0] == "Rank":
            break
        players[row[2]] = dict(zip(header, row, strict=False))
    return players


@pytest.mark.parametrize("case", WORKED, ids=[c.name for c in WORKED])
def test_the_worked_examples_come_out_of_the_awards_tab_exactly(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync, case: Worked
) -> None:
    tournament = with_a_game(case)
    sheet_id = make_sheet(sheet_of(tournament, case.prizes))
    result = run_sync(sheet_id)
    assert result.problems == () and result.published
    engine = compute_awards(compute_standings(tournament, "uscf"), read_prizes(case.prizes))
    rows = awards_rows(sheets_fake, sheet_id)
    currency = f" ({engine.currency})" if engine.currency else ""
    for row in engine.rows:
        cells = rows[row.name]
        assert cells.get(f"Cash{currency}", "") == shown_number(row.paid)
        assert cells.get("Trophy", "") == ", ".join(row.trophies)
        assert cells.get("Prizes", "") == ", ".join(row.prizes)
    for name, cash in case.cash.items():
        assert rows[name][f"Cash{currency}"] == shown_number(cents_down(cash))
    for name, trophy in case.trophies.items():
        assert rows[name]["Trophy"] == trophy
    tab = sheets_fake.values(sheet_id, "Awards")
    teams = [r[:3] for r in tab[next((i for i, r in enumerate(tab) if r[:1] == ["Rank"]), 0) :]]
    for team, score in case.teams.items():
        assert ["1", team, display(score)] in teams


def shown_number(value: Fraction) -> str:
    """A cash cell as Sheets shows it: empty for none, two decimals when there are cents."""
    if not value:
        return ""
    return f"{float(value):.2f}" if value.denominator != 1 else str(int(value))


def club_sheet() -> dict[str, list[list[Any]]]:
    """The club Swiss of the seed (core/examples) with a youth prize and a Prizes tab."""
    from core.examples import load_example

    return sheet_of(load_example(), CLUB_NIGHT)


def test_problems_with_the_prizes_are_at_their_cells_and_never_hold_the_standings_back(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    tabs = club_sheet()
    prizes = tabs["Prizes"]
    prizes[1][1] = "lots"  # 1st's amount
    prizes.append(["3rd", "50", "maybe", "plaec", "3", "", "", ""])
    prizes.append(["Top senior", "20", "", "category", "seniour", "", "", ""])
    results = tabs["Results"]
    results[2][4] = "Rooks\x07"  # player 2's team
    results[3][5] = "-5"  # player 3's limit
    tabs["Harkness"] = settings_rows(Prize_method="us-chess-2030", Currency="$")
    typed = {title: [list(map(str, row)) for row in rows] for title, rows in tabs.items()}
    sheet_id = make_sheet(tabs)
    result = run_sync(sheet_id)
    assert result.published  # the standings are written whatever the prizes say
    errors = {row[0]: row[1:] for row in sheets_fake.values(sheet_id, "Errors")[1:] if row}
    assert errors["Prizes!B2"] == [
        "lots",
        "amount must be a number above 0 and at most 1,000,000,000, in cents (2 decimals at "
        "most), got 'lots'",
    ]
    assert errors["Prizes!C6"][1] == "trophy must be Yes or No, got 'maybe'"
    assert errors["Prizes!D6"][1].startswith("kind must be one of place, class, under")
    assert errors["Prizes!E7"] == [
        "seniour",
        "no player's Categories cell names the category 'seniour'",
    ]
    assert errors["Results!E3"][1].startswith("a team name cannot hold control characters")
    assert errors["Results!F4"][1].startswith("a limit must be a number from 0")
    assert errors["Harkness!B17"][1].startswith(
        "method must be one of us-chess, us-chess-2003, fide-none, fide-equal, fide-hort, got "
        "'us-chess-2030'; did you mean 'us-chess-2003'?"
    )
    status = [row[0] for row in sheets_fake.values(sheet_id, "Errors") if len(row) == 1]
    assert "7 problems with the prizes (listed above): the Awards tab was not updated." in status
    assert sheets_fake.values(sheet_id, "Awards")[0] == ["No awards yet"]
    # What the TD typed is as they typed it.
    for title in ("Prizes", "Results", "Harkness"):
        assert sheets_fake.values(sheet_id, title) == as_shown(typed[title])


def as_shown(rows: list[list[str]]) -> list[list[str]]:
    """Rows as the Sheets API reads them back: without trailing empty cells."""
    shown = []
    for row in rows:
        cells = list(row)
        while cells and not cells[-1]:
            cells.pop()
        shown.append(cells)
    return shown


def test_the_awards_tab_is_written_once_and_healed_after_an_edit(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet(club_sheet())
    first = run_sync(sheet_id)
    assert first.changed and first.problems == ()
    rows = awards_rows(sheets_fake, sheet_id)
    assert [rows[f"Player {p}"]["Cash ($)"] for p in "ABCD"] == ["47.50"] * 4
    assert rows["Player A"]["Trophy"] == "1st"
    assert not run_sync(sheet_id).changed  # nothing changed: nothing written
    before = sheets_fake.values(sheet_id, "Awards")
    sheets_fake.set_values(sheet_id, "Awards!E2", [["1000000"]])
    assert run_sync(sheet_id).changed
    assert sheets_fake.values(sheet_id, "Awards") == before
    # The TD changes a prize: the Awards tab follows.
    sheets_fake.set_values(sheet_id, "Prizes!B2", [["150"]])
    assert run_sync(sheet_id).changed
    rows = awards_rows(sheets_fake, sheet_id)
    # Four tied on 3 points pool $150 + $60 + $30: $60 each (it was $47.50 each).
    assert [rows[f"Player {p}"]["Cash ($)"] for p in "ABCD"] == ["60"] * 4


def test_a_tab_called_awards_that_the_td_made_is_left_alone(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    tabs = club_sheet()
    tabs["Awards"] = [["My own notes"]]
    sheet_id = make_sheet(tabs)
    result = run_sync(sheet_id)
    assert result.published
    assert sheets_fake.values(sheet_id, "Awards") == [["My own notes"]]
    assert any("a tab named 'Awards' already exists" in str(p) for p in result.problems)


def test_a_game_list_takes_the_awards_columns_from_its_players_tab(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    from tests.sheets.conftest import seed_game_list

    games, players = seed_game_list()
    players[0] += ["Categories", "Team"]
    for row in players[1:]:
        row += ["youth" if row[0] == 4 else "", "Knights" if row[0] in (1, 2) else "Rooks"]
    prizes = [
        HEADER,
        ["Top youth", "30", "", "category", "youth"],
        ["Top team", "", "Yes", "place", "1", "", "", "Yes"],
    ]
    sheet_id = make_sheet({"Results": games, "Players": players, "Prizes": prizes})
    result = run_sync(sheet_id)
    assert result.problems == ()
    rows = awards_rows(sheets_fake, sheet_id)
    youth = next(cells for cells in rows.values() if cells["#"] == "4")
    assert (youth["Cash"], youth["Prizes"]) == ("30", "Top youth")
    tab = sheets_fake.values(sheet_id, "Awards")
    at = next(i for i, r in enumerate(tab) if r[:1] == ["Rank"])
    assert tab[at][:4] == ["Rank", "Team", "Score", "Counting"]
    assert {tab[at + 1][1], tab[at + 2][1]} == {"Knights", "Rooks"}
    assert "Top team" in tab[at + 1]


def test_a_sheet_without_a_prizes_tab_gets_no_awards_tab(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    tabs = club_sheet()
    del tabs["Prizes"]
    sheet_id = make_sheet(tabs)
    assert run_sync(sheet_id).problems == ()
    assert "Awards" not in sheets_fake.sheet_titles(sheet_id)

"""A club night run end to end in Discord with prizes set, kept in the TD's Google Sheet: the
award list is the same in ``/awards``, on the sheet's Awards tab, and from ``harkness awards``
on the bot's TRF export (``/tournament export``) with the same prize file.

The TD sets the prizes in Discord (a prize file) and writes the same prizes in the sheet (a
Prizes tab, the method and currency in its Harkness tab, Categories and Team columns in the
results tab); the members report and confirm every game in Discord; the bot writes each
result to the sheet and the sheet's tabs follow."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from core.cli import main
from sheets.settings_tab import default_rows
from tests.awards.worked import CLUB_NIGHT
from tests.bot.support import clicked, reported, running_tournament
from tests.fakes.discord_api import MessageRecord, Upload
from tests.link.conftest import LinkedClub

#: The TD's sheet: the same players (#1–#4, no result typed), their Categories and Team,
#: the same prizes in a Prizes tab, the method and currency in the Harkness tab.
RESULTS = [
    ["#", "Name", "Discord", "Categories", "Team", "Rd 1", "Rd 2", "Rd 3"],
    [1, "Alice", "", "", "Knights"],
    [2, "Bob", "", "", "Knights"],
    [3, "Carol", "", "", "Rooks"],
    [4, "Dave", "", "youth", "Rooks"],
]
PRIZES_TAB = [
    ["Name", "Amount", "Trophy", "Kind", "Value", "Rank", "Additive", "Team"],
    ["1st", "100", "Yes", "place", "1"],
    ["2nd", "60", "", "place", "2"],
    ["Top youth", "30", "Yes", "category", "youth"],
    ["Top team", "", "Yes", "place", "1", "", "", "Yes"],
]
#: The night: round by round, (reporter, opponent, result), each confirmed by the opponent.
NIGHT = [
    [("alice", "bob", "win"), ("carol", "dave", "draw")],
    [("alice", "carol", "draw"), ("bob", "dave", "win")],
    [("alice", "dave", "win"), ("carol", "bob", "win")],
]
NUMBER = {"alice": "#1", "bob": "#2", "carol": "#3", "dave": "#4"}

Awarded = dict[str, tuple[str, str]]
"""Who takes something: name → (cash paid, exact to the cent; the trophies)."""


def settings() -> list[list[str]]:
    rows = default_rows()
    for row in rows:
        if row[0] == "Currency":
            row[1] = "$"
    return rows


def from_discord(message: MessageRecord) -> tuple[Awarded, str]:
    """The award list of an ``/awards`` answer, and the teams field."""
    line = re.compile(
        r"^`[^`]+` (?P<name>[^:]+): (?:\$(?P<cash>[\d,.]+) \(.*\)|no cash prize); "
        r"(?:trophy (?P<trophy>.+)|no trophy)\.$"
    )
    embed = message.embeds[0]
    found: Awarded = {}
    for text in str(embed["description"]).splitlines():
        m = line.match(text)
        if m:
            cash = Decimal(m["cash"].replace(",", "")) if m["cash"] else Decimal(0)
            trophies = (m["trophy"] or "").replace(" and ", ", ")
            found[m["name"]] = (f"{cash:.2f}", trophies)
    teams = next(f["value"] for f in embed["fields"] if f["name"] == "Teams")
    return found, teams.splitlines()[0]


def from_the_sheet(club: LinkedClub) -> tuple[Awarded, str]:
    rows = club.tab("Awards")
    header = rows[0]
    found: Awarded = {}
    for row in rows[1:]:
        if not row or row[0] == "Rank":
            break
        cells = dict(zip(header, row, strict=False))
        cash = Decimal(cells.get("Cash ($)") or 0)
        if cash or cells.get("Trophy"):
            found[cells["Name"]] = (f"{cash:.2f}", cells.get("Trophy", ""))
    at = next(i for i, r in enumerate(rows) if r[:1] == ["Rank"])
    rank, team, score = rows[at + 1][:3]
    return found, f"{rank}. {team}, {score}: {rows[at + 1][6]}"


def from_the_command_line(trf: str, prize_file: str, folder: Path) -> tuple[Awarded, str]:
    (folder / "night.trf").write_text(trf, encoding="utf-8")
    (folder / "prizes.toml").write_text(prize_file, encoding="utf-8")
    out = folder / "awards.json"
    status = main(
        [
            "awards",
            str(folder / "night.trf"),
            "--prizes",
            str(folder / "prizes.toml"),
            "--format",
            "json",
            "--output",
            str(out),
        ]
    )
    assert status == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    found: Awarded = {
        row["name"]: (f"{Decimal(str(row['cash'])):.2f}", ", ".join(row["trophies"]))
        for row in data["awards"]
        if row["cash"] or row["trophies"]
    }
    team = data["teams"][0]
    return found, f"{team['rank']}. {team['team']}, {team['score']:g}: {team['trophy']}"


async def test_a_club_night_gives_the_same_award_list_in_discord_on_the_sheet_and_from_its_export(
    club: LinkedClub, tmp_path: Path
) -> None:
    await running_tournament(club, rounds=3)
    await club.ok("td", "prizes load", {"file": Upload("club.toml", CLUB_NIGHT.encode())})
    club.make_sheet({"Results": RESULTS, "Prizes": PRIZES_TAB, "Harkness": settings()})
    await club.link()
    for games in NIGHT:
        for round_number, (who, opponent, result) in [(NIGHT.index(games) + 1, g) for g in games]:
            message = await reported(club, who, round_number, NUMBER[opponent], result)
            await clicked(club, opponent, message, "Confirm")
    await club.settled()
    club.refresh()

    answer = await club.ok("erin", "awards")
    assert "from the Google Sheet “Club Night 2026”" in answer.text  # as /standings is
    in_discord, discord_team = from_discord(answer)
    on_the_sheet, sheet_team = from_the_sheet(club)
    export = await club.ok("td", "tournament export")
    trf = export.attachment("club-night.trf").text()
    prize_file = export.attachment("club-night-prizes.toml").text()
    from_export, export_team = from_the_command_line(trf, prize_file, tmp_path)

    # Alice 2½, Carol 2, Bob 1, Dave ½: 1st $100 to Alice, 2nd $60 to Carol, the youth
    # prize to Dave; the Knights (Alice and Bob, 3½) take the team trophy.
    expected = {
        "Alice": ("100.00", "1st"),
        "Carol": ("60.00", ""),
        "Dave": ("30.00", "Top youth"),
    }
    assert in_discord == on_the_sheet == from_export == expected
    assert discord_team == "1. Knights, 3.5: Top team"
    assert sheet_team == export_team == discord_team

    # Finishing posts the same list; and Discord's own results and prizes, the sheet
    # unlinked, give it too.
    finished = await club.run("td", "tournament finish", {"tournament": "Club Night"})
    await club.succeeded(finished)
    assert from_discord(await finished.followup(0)) == (expected, discord_team)
    await club.ok("td", "tournament unlink-sheet", {"tournament": "Club Night"})
    alone = await club.ok("erin", "awards", {"tournament": "Club Night"})
    assert "Google Sheet" not in alone.text
    assert from_discord(alone) == (expected, discord_team)


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_the_same_on_postgresql(club: LinkedClub, tmp_path: Path) -> None:
    await test_a_club_night_gives_the_same_award_list_in_discord_on_the_sheet_and_from_its_export(
        club, tmp_path
    )


async def test_a_sheet_without_prizes_is_awarded_with_the_prizes_set_in_discord(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    await club.ok("td", "prizes load", {"file": Upload("club.toml", CLUB_NIGHT.encode())})
    rows = [list(r) + [""] * (len(RESULTS[0]) - len(r)) for r in RESULTS]
    rows[1][5] = "W2 (w)"  # the TD typed round 1 in the sheet only: Alice beat Bob
    rows[2][5] = "L1 (b)"
    club.make_sheet({"Results": rows})
    await club.link()
    answer = await club.ok("erin", "awards")
    assert "from the Google Sheet" in answer.text
    assert "Alice: $100 (1st); trophy 1st." in answer.text  # the sheet's result, Discord's prizes
    assert "Awards" not in club.sheets.sheet_titles(club.sheet_id)


async def test_a_sheets_prizes_with_problems_are_the_tds_to_fix_first(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3)
    await club.ok("td", "prizes load", {"file": Upload("club.toml", CLUB_NIGHT.encode())})
    prizes = [list(r) for r in PRIZES_TAB]
    prizes[1][1] = "lots"
    club.make_sheet({"Results": RESULTS, "Prizes": prizes, "Harkness": settings()})
    await club.link()
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    await club.settled()
    club.refresh()
    error = await club.refused("erin", "awards")
    assert "The prizes on the Google Sheet have 1 problem(s): a TD sees them on its Errors tab" in (
        error.text
    )
    errors = {row[0]: row for row in club.tab("Errors")[1:] if row}
    assert errors["Prizes!B2"][1] == "lots"
    # /why still explains the place, without an award.
    why = await club.ok("alice", "why")
    assert "Alice:" in why.text and "$" not in why.text

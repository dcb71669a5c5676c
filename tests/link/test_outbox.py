"""Nothing is lost and nothing is written twice: results wait in the store's outbox until
their row is seen in the sheet, the bot looks for a row's key before writing it again, and
what a TD does in Discord (a decision, a bye, an undo) reaches the sheet too."""

from __future__ import annotations

import csv
import io
import json

from sheets.reports import REPORT_HEADER
from tests.bot.support import clicked, reported
from tests.fakes.sheets_api import Op
from tests.link.conftest import LinkedClub

KEY = REPORT_HEADER.index("Key")


def keys(club: LinkedClub) -> list[str]:
    return [row[KEY] for row in club.tab("Discord reports")[1:]]


async def test_a_write_that_times_out_but_lands_later_is_not_written_again(
    linked: LinkedClub,
) -> None:
    club = linked
    # Google takes longer than the bot waits (2 s) to answer the append, then carries it out.
    club.sheets.slow_next(1, 2.5, operation=Op.BATCH_UPDATE, spreadsheet_id=club.sheet_id)
    message = await reported(club, "alice", 2, "#3", "loss")
    confirmed = await clicked(club, "carol", message, "Confirm")
    assert confirmed.text.splitlines()[-1].startswith("⏳ Saved.")
    [item] = await club.store.pending_writes(club.guild, "Club Night")
    await club.settled()
    # The retry found the row's key in the tab and wrote nothing: the row is there once, and
    # only the write that timed out ever carried it.
    assert keys(club) == [item.payload["key"]]
    carrying = [
        c
        for c in club.sheets.calls(club.sheet_id, operation=Op.BATCH_UPDATE)
        if item.payload["key"] in json.dumps(c.body)
    ]
    assert len(carrying) == 1


async def test_results_pending_when_the_bot_stops_are_written_after_it_restarts(
    linked: LinkedClub,
) -> None:
    club = linked
    club.sheets.fail_for(600, 503)  # Google is down
    message = await reported(club, "alice", 2, "#3", "draw")
    await clicked(club, "carol", message, "Confirm")
    [item] = await club.store.pending_writes(club.guild, "Club Night")
    await club.restart()
    club.bot.sheets.clock = club.clock  # type: ignore[union-attr]
    club.sheets.clear_faults()  # Google is back
    await club.settled()
    assert keys(club) == [item.payload["key"]]


async def test_td_decisions_byes_and_undos_reach_the_sheet(linked: LinkedClub) -> None:
    club = linked
    set_ = await club.ok(
        "td",
        "result set",
        {"round": 2, "player": "#1", "opponent": "#2", "result": "draw", "colour": "white"},
    )
    assert set_.text.splitlines()[-1].startswith("📗 Written to the Google Sheet")
    await club.ok("td", "result bye", {"round": 2, "player": "#3", "kind": "half"})
    await club.ok("td", "result bye", {"round": 2, "player": "#4", "kind": "zero"})
    rows = club.tab("Discord reports")[1:]
    assert [row[1:7] for row in rows] == [
        ["2", "#1 Alice", "½-½", "#2 Bob", "White", "set by a TD"],
        ["2", "#3 Carol", "half-point bye", "", "", "bye"],
        ["2", "#4 Dave", "zero-point bye", "", "", "bye"],
    ]
    club.refresh()
    standings = await club.ok("erin", "standings")
    assert "after round 2" in standings.embeds[0]["title"]
    # The TD takes Dave's bye back: the undo is a row too, naming the row it undoes.
    undone = await club.ok("td", "result undo")
    assert undone.text.splitlines()[-1].startswith("📗 Written to the Google Sheet")
    last = club.tab("Discord reports")[-1]
    assert last[6] == "undone by a TD" and last[REPORT_HEADER.index("Undoes")] == rows[2][KEY]
    assert last[1:6] == ["2", "", "", "", ""]
    # On the sheet Dave has nothing in round 2 any more: an empty last cell, so withdrawn
    # (RULES.md); Carol keeps her half-point bye, Alice and Bob their draw.
    crosstable = await club.ok("erin", "crosstable")
    table = list(
        csv.DictReader(io.StringIO(crosstable.attachment("club-night-crosstable.csv").text()))
    )
    assert {row["Name"]: row["Rd 2"] for row in table} == {
        "Carol": "H",
        "Alice": "D2 (w)",
        "Bob": "D1 (b)",
        "Dave": "-",
    }

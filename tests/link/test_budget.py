"""Every action of the sheet link spends from the service account's budget, shared by every
process on the database, before it reaches Google: results, reads, linking and the players
tab alike (two shards and two workers: ``test_shards``). A member who waits is told why:
Harkness's own budget is not Google "not answering". And the budget is shared fairly: one
server busy with eight sheets leaves another server's sheet its share. Real bot (in this
process) on both loopback fakes."""

from __future__ import annotations

import pytest
from sqlalchemy import delete

from bot.store import Actor
from sheets.fleet import schema as fleet_schema
from tests.bot.support import clicked, reported, running_tournament
from tests.link.conftest import RESULTS, LinkedClub
from tests.link.servers import Server, with_commands

#: The service account's limits once the scene is set: 20 reads and 20 writes a minute, so
#: a budget of 18 of each (a tenth kept back), 3 of which a busy server leaves to others.
LIMIT = 20


async def budget_spent(club: LinkedClub) -> None:
    """Every request of this minute spent (by other processes of the database)."""
    quota = club.links.access.quota
    while not await club.fleet.spend_quota(
        club.account.email,
        reads=1,
        writes=1,
        reads_limit=quota.reads_budget,
        writes_limit=quota.writes_budget,
        window=quota.window,
        hold=quota.hold,
    ):
        pass


async def new_minute(club: LinkedClub, monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """The bot restarted with the service account's limits at ``limit`` a minute and an
    answer wait of one second, in a minute nothing was spent yet."""
    monkeypatch.setenv("HARKNESS_SHEETS_READS_PER_MINUTE", str(limit))
    monkeypatch.setenv("HARKNESS_SHEETS_WRITES_PER_MINUTE", str(limit))
    monkeypatch.setenv("HARKNESS_SHEETS_ANSWER_WAIT", "1")
    await club.restart()
    async with club.store.engine.begin() as conn:
        await conn.execute(delete(fleet_schema.quota_budget))


async def test_a_result_waiting_for_the_budget_says_so_not_that_google_is_silent(
    linked: LinkedClub,
) -> None:
    club = linked
    await budget_spent(club)
    message = await reported(club, "alice", 1, "#2", "win")
    confirmed = await clicked(club, "bob", message, "Confirm")
    assert confirmed.text.splitlines()[-1] == (
        "⏳ Saved. Harkness has used its share of Google Sheets requests for this minute, so "
        "it will be written to the sheet within a minute (pending); nothing is lost."
    )
    assert club.sheets.call_count(club.sheet_id, kind="write") == 2  # linking's alone
    assert len(await club.store.linked.pending_writes(club.guild, "Club Night")) == 1


async def test_the_players_tab_is_written_only_within_the_budget(linked: LinkedClub) -> None:
    club = linked
    club.fake.add_member("grace")
    await budget_spent(club)
    club.sheets.reset_calls()
    await club.ok("grace", "join", {"tournament": "Club Night"})
    assert club.sheets.call_count(club.sheet_id) == 0  # nothing reached Google


async def test_a_server_busy_with_eight_sheets_leaves_another_server_its_share(
    club: LinkedClub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guild A keeps eight linked sheets busy (members asking for standings, each a read and
    the sync's write); guild B's one sheet is still read at once, with B's share."""
    await running_tournament(club, rounds=3)
    td = Actor(str(club.member("td").user.id), "TD", td=True)
    for k in range(1, 9):
        club.make_sheet({"Results": [list(r) for r in RESULTS]}, title=f"A sheet {k}")
        club.name_server(club.guild)
        if k > 1:
            await club.store.create_tournament(club.guild, f"Night {k}", rounds=3, actor=td)
        await club.link("Club Night" if k == 1 else f"Night {k}")
    other = Server(club, 1)
    await club.restart()
    with_commands(club.fake, other.guild)
    b_sheet = club.sheets.create_spreadsheet(
        "B's sheet",
        {"Results": [list(r) for r in RESULTS], "Harkness": [["Discord servers", f"'{other.id}"]]},
        shared_with=[club.account.email],
    )
    member = other.add_member("b-member")
    await other.ok(None, "tournament create", {"name": "B Night", "rounds": 3})
    linked = await other.ok(
        None,
        "tournament link-sheet",
        {"url": f"https://docs.google.com/spreadsheets/d/{b_sheet}/edit", "tournament": "B Night"},
    )
    assert linked.text.startswith("🔗 **B Night** is kept in the Google Sheet")
    await new_minute(club, monkeypatch, LIMIT)

    # Guild A's members ask for the standings of its eight tournaments, three times each.
    footers = []
    for _ in range(3):
        for name in ["Club Night", *(f"Night {k}" for k in range(2, 9))]:
            club.refresh()
            answer = await club.ok("carol", "standings", {"tournament": name})
            footers.append(answer.embeds[0]["footer"]["text"])
    # Guild B's member asks: B's sheet is read now, within B's share ...
    club.refresh()
    answer = await other.ok(member, "standings", {"tournament": "B Night"})
    assert "from the Google Sheet “B's sheet”" in answer.embeds[0]["footer"]["text"]
    assert "this is the last read" not in answer.embeds[0]["footer"]["text"]
    # ... though guild A had spent all it could: its later answers were its last reads.
    assert any("Harkness has used its share of Google Sheets requests" in f for f in footers)
    assert club.sheets.call_count(status=429) == 0

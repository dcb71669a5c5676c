"""A spreadsheet belongs to the first Discord server that links it: another server's TD
cannot link it, read it or write to it, unless the sheet itself (its Harkness tab, which
only the sheet's editors can change) names that server too."""

from __future__ import annotations

from bot.store import Actor
from tests.bot.support import clicked, reported, running_tournament
from tests.link.conftest import RESULTS, LinkedClub

OTHER_SERVER = "990000000000000001"
SETTINGS = [["Setting", "Value"], ["Discord servers", ""]]


async def linked_first_elsewhere(club: LinkedClub) -> None:
    """Another server (on the same bot) links the spreadsheet first."""
    td = Actor("424242", "Their TD", True)
    await club.store.create_tournament(OTHER_SERVER, "Their Night", rounds=3, actor=td)
    await club.store.linked.link_sheet(
        OTHER_SERVER, "Their Night", td, spreadsheet_id=club.sheet_id
    )


def contents(club: LinkedClub) -> dict[str, list[list[str]]]:
    return {title: club.tab(title) for title in club.sheets.sheet_titles(club.sheet_id)}


async def test_another_servers_sheet_is_refused_unless_the_sheet_names_this_server(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet({"Results": [list(r) for r in RESULTS], "Harkness": SETTINGS})
    await linked_first_elsewhere(club)
    before = contents(club)
    error = await club.refused(
        "td", "tournament link-sheet", {"url": club.url, "tournament": "Club Night"}
    )
    assert error.text.startswith("That spreadsheet belongs to another Discord server")
    assert club.guild in error.text and "Discord servers" in error.text
    assert contents(club) == before  # nothing written: no tab of the bot's, no standings
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None
    # An editor of the sheet shares it with this server: now it links.
    club.sheets.set_values(club.sheet_id, "Harkness!B2", [[f"'{club.guild}"]])
    linked = await club.link()
    assert linked.text.startswith("🔗 **Club Night** is kept in the Google Sheet")
    assert await club.store.linked.sheet_owner(club.sheet_id) == OTHER_SERVER  # still theirs


async def test_a_server_the_sheet_stops_naming_can_neither_read_nor_write_it(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet({"Results": [list(r) for r in RESULTS], "Harkness": SETTINGS})
    club.sheets.set_values(club.sheet_id, "Harkness!B2", [[f"'{club.guild}"]])
    await linked_first_elsewhere(club)
    await club.link()
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    await club.settled()
    assert len(club.tab("Discord reports")) == 2
    assert "Club Night 2026" in (await club.ok("bob", "standings")).text  # read from the sheet
    # The sheet's editors take this server off; its next read and write are refused.
    club.sheets.set_values(club.sheet_id, "Harkness!B2", [[""]])
    club.refresh()
    standings = await club.ok("bob", "standings")  # Discord's own results, not the sheet's
    assert "the Google Sheet no longer names this server" in standings.text
    assert "Club Night 2026" not in standings.text
    why = await club.ok("alice", "why")
    assert "Club Night 2026" not in why.text
    before = contents(club)
    message = await reported(club, "carol", 1, "#4", "win")
    await clicked(club, "dave", message, "Confirm")
    await club.links.flush()
    assert contents(club) == before
    assert len(await club.store.linked.pending_writes(club.guild, "Club Night")) == 1

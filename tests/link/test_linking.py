"""Linking a tournament to a Google Sheet (``/tournament link-sheet``) and unlinking it: the
bot checks at once that its service account can open and edit the sheet and, when it cannot,
says exactly which address to share the sheet with; without Sheets settings it says how to
set them up; nothing is linked by halves. (Who may link a sheet at all: ``test_ownership``.)"""

from __future__ import annotations

from bot.store import Actor
from sheets.discord_tabs import REPORT_HEADER
from tests.bot.support import Club, clicked, reported, running_tournament
from tests.fakes.sheets_api import Op
from tests.link.conftest import RESULTS, LinkedClub


async def test_a_sheet_not_shared_is_refused_with_the_address_to_share_it_with(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet(shared=False)
    email = club.account.email
    error = await club.refused("td", "tournament link-sheet", {"url": club.url})
    assert error.text == (
        f"Harkness may not open and edit that spreadsheet. Share it with {email} as an Editor "
        f"(Share → add {email} → Editor), then run /tournament link-sheet again."
    )
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None
    assert club.sheets.call_count(club.sheet_id, kind="write") == 0


async def test_a_sheet_shared_read_only_is_refused_the_same_way_and_left_as_it_was(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet(role="reader")
    club.name_server(club.guild)  # its editors let this server use it
    error = await club.refused("td", "tournament link-sheet", {"url": club.url})
    assert f"Share it with {club.account.email} as an Editor" in error.text
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None
    assert club.sheets.sheet_titles(club.sheet_id) == ["Results", "Harkness"]


async def test_only_a_td_links_or_unlinks_a_sheet(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    for command, options in (
        ("tournament link-sheet", {"url": club.url}),
        ("tournament unlink-sheet", {}),
    ):
        error = await club.refused("alice", command, options)
        assert error.text.startswith("Only a tournament director can")
    assert club.sheets.call_count(club.sheet_id) == 0


async def test_a_link_that_is_not_a_google_sheet_is_refused(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3)
    error = await club.refused(
        "td", "tournament link-sheet", {"url": "https://example.org/club-night.xlsx"}
    )
    assert error.text == (
        "'https://example.org/club-night.xlsx' is not a Google Sheets link: "
        "copy the spreadsheet's address from your browser."
    )


async def test_a_tab_named_like_the_bots_but_not_the_bots_is_left_alone(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet({"Results": [list(r) for r in RESULTS], "Discord reports": [["My own notes"]]})
    club.name_server(club.guild)
    error = await club.refused("td", "tournament link-sheet", {"url": club.url})
    assert error.text == (
        "The spreadsheet already has a tab named “Discord reports” that "
        "Harkness did not make: rename it, then link the sheet again."
    )
    assert club.tab("Discord reports") == [["My own notes"]]
    assert club.sheets.call_count(club.sheet_id, kind="write") == 0


async def test_a_bot_without_sheets_settings_says_how_to_set_them_up_and_keeps_working(
    unconfigured: Club,
) -> None:
    club = unconfigured
    await running_tournament(club, rounds=3)
    error = await club.refused(
        "td",
        "tournament link-sheet",
        {"url": "https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUv/edit"},
    )
    assert error.text.startswith(
        "This bot is not set up for Google Sheets: its operator gives "
        "it a Google service account's key "
        "(GOOGLE_APPLICATION_CREDENTIALS, the JSON key file;"
    )
    # A tournament linked earlier (by a bot that had the settings) keeps working in Discord.
    await club.store.linked.link_sheet(
        club.guild,
        "Club Night",
        Actor("1", "TD", td=True),
        spreadsheet_id="1AbCdEfGhIjKlMnOpQrStUv",
        named=[club.guild],
    )
    message = await reported(club, "alice", 1, "#2", "win")
    confirmed = await clicked(club, "bob", message, "Confirm")
    assert confirmed.text.splitlines()[-1] == (
        "⏳ Saved in Discord; it will be written to the Google Sheet once this bot is set up "
        "for Google Sheets (pending)."
    )
    assert len(await club.store.linked.pending_writes(club.guild, "Club Night")) == 1
    standings = await club.ok("carol", "standings")
    assert standings.embeds[0]["footer"]["text"].endswith(
        "Discord's results only (this bot cannot read Google Sheets)"
    )


async def test_linking_registers_the_sheets_players_discord_does_not_know(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3)
    rows = [list(r) for r in RESULTS] + [[5, "Eve Offline", 1500, "", "", "", ""]]
    club.make_sheet({"Results": rows})
    linked = await club.link()
    assert (
        "The sheet lists 5 players; 4 of them are already registered here, and 1 was "
        "added so members can name them: Eve Offline."
    ) in linked.text
    # Alice can now report her game against Eve, who has no Discord account; a TD confirms.
    message = await reported(club, "alice", 2, "Eve Offline", "draw")
    assert "Eve Offline has no Discord account linked: a TD can confirm it below." in message.text
    confirmed = await clicked(club, "td", message, "Confirm")
    assert "📗 Written to the Google Sheet" in confirmed.text
    assert club.tab("Discord reports")[1][1:5] == ["2", "#1 Alice", "½-½", "#5 Eve Offline"]


async def test_players_registered_here_but_not_on_the_sheet_are_named(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3, players=("alice", "bob", "carol", "dave", "erin"))
    club.make_sheet()
    linked = await club.link()
    assert (
        "⚠️ Registered here but not on the sheet: Erin — add them to the results tab (or "
        "write their Discord name in its Discord column) so their games count there."
    ) in linked.text


async def test_unlinking_keeps_discord_results_and_the_writes_still_queued(
    linked: LinkedClub,
) -> None:
    club = linked
    club.sheets.fail_for(600, 503)
    message = await reported(club, "alice", 1, "#2", "win")
    confirmed = await clicked(club, "bob", message, "Confirm")
    assert confirmed.text.splitlines()[-1].startswith("⏳ Saved.")
    answer = await club.ok("td", "tournament unlink-sheet")
    assert answer.text.splitlines() == [
        "**Club Night** is no longer linked to its Google Sheet: Discord keeps the results, "
        "and the sheet is left as it is.",
        "1 result(s) were still waiting to be written to the sheet; they stay queued and are "
        "written if you link the same sheet again.",
    ]
    standings = await club.ok("carol", "standings")
    assert "Google Sheet" not in standings.embeds[0]["footer"]["text"]
    assert "Alice" in standings.text.split("Bob")[0]  # Discord's own result counts again
    # Linking the same sheet again (Google is back) writes what was waiting, once.
    club.sheets.clear_faults()
    await club.link()
    await club.settled()
    header, row = club.tab("Discord reports")
    assert header == REPORT_HEADER and row[1:5] == ["1", "#1 Alice", "1-0", "#2 Bob"]


async def test_linking_costs_three_reads_and_two_writes(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    await club.link()
    # A read to see whether the sheet names this server (it does not: a code, nothing
    # written); once an editor typed it, a read to check it and one write for the bot's tabs
    # (proving it may edit), then the worker's sync: one read and one write of the
    # Standings, Breakdown and Errors tabs.
    assert [c.operation for c in club.sheets.calls(club.sheet_id)] == [
        Op.GET,
        Op.GET,
        Op.BATCH_UPDATE,
        Op.GET,
        Op.BATCH_UPDATE,
    ]

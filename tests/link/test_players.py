"""Who is who: players on the sheet are linked to Discord members by a ``Discord`` column —
the TD's own (a user id or ``@name``), or the bot's ``Discord players`` tab, which ``/join``
and ``/player link`` fill in. The TD's tabs are never written."""

from __future__ import annotations

from sheets.reports import PLAYERS_HEADER
from tests.bot.support import appoint_tds, clicked, reported, running_tournament
from tests.link.conftest import RESULTS, LinkedClub, as_shown


async def registering(club: LinkedClub, rows: list[list[object]]) -> None:
    """Club Night is open for registration and linked to a sheet listing ``rows``."""
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    club.make_sheet({"Results": rows})
    await club.link()


async def test_join_makes_the_member_the_sheets_player_and_says_so_on_the_bots_tab(
    club: LinkedClub,
) -> None:
    await registering(club, [list(r) for r in RESULTS])
    # The sheet's players were registered when the TD linked it; Carol claims hers.
    joined = await club.ok("carol", "join")
    assert joined.text.splitlines() == [
        f"✍️ #3 Carol (1700) <@{club.member('carol').id}> joined **Club Night**.",
        "📗 On the Google Sheet you are #3 Carol.",
    ]
    assert len(await club.store.players(club.guild, "Club Night")) == 4
    assert club.tab("Discord players") == [
        PLAYERS_HEADER,
        ["3", "Carol", str(club.member("carol").id), "@carol"],
    ]
    assert club.values("Results!A1:G5") == as_shown(RESULTS)  # the TD's tab: untouched


async def test_join_by_someone_the_sheet_does_not_list_is_registered_with_a_warning(
    club: LinkedClub,
) -> None:
    await registering(club, [list(r) for r in RESULTS])
    joined = await club.ok("erin", "join")
    assert joined.text.splitlines()[-1] == (
        "⚠️ The Google Sheet has no player called Erin: ask a TD to add you to its results "
        "tab, or to link you with /player link."
    )
    assert club.tab("Discord players") == [
        PLAYERS_HEADER,
        ["", "Erin", str(club.member("erin").id), "@erin"],
    ]


async def test_player_link_says_which_member_a_sheet_player_is(club: LinkedClub) -> None:
    rows = [list(r) for r in RESULTS]
    rows[2][1] = "Robert Smith"  # Bob's name on the sheet
    await registering(club, rows)
    bob = club.member("bob")
    answer = await club.ok("td", "player link", {"player": "Robert Smith", "member": bob})
    assert answer.text.splitlines() == [
        f"🔗 #2 Robert Smith is <@{bob.id}> in **Club Night**.",
        "📗 On the Google Sheet: #2 Robert Smith.",
    ]
    assert ["2", "Robert Smith", str(bob.id), "Robert Smith"] in club.tab("Discord players")
    await club.ok("alice", "join")
    await club.ok("td", "tournament start")
    # Bob now reports as the sheet's Robert Smith, and /why finds him there.
    message = await reported(club, "bob", 1, "#1", "loss")
    await clicked(club, "alice", message, "Confirm")
    assert club.tab("Discord reports")[1][1:5] == ["1", "#2 Robert Smith", "0-1", "#1 Alice"]
    why = await club.ok("bob", "why")
    assert why.text.startswith("**Robert Smith:")


async def test_player_link_adds_a_sheet_player_discord_does_not_know_yet(club: LinkedClub) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    await club.link()
    club.sheets.set_values(club.sheet_id, "Results!A6:B6", [[5, "Frank Late"]])  # the TD
    club.refresh()
    frank = club.member("frank")
    answer = await club.ok("td", "player link", {"player": "Frank Late", "member": frank})
    assert answer.text.splitlines() == [
        f"🔗 #5 Frank Late is <@{frank.id}> in **Club Night**.",
        "📗 On the Google Sheet: #5 Frank Late.",
    ]
    assert ["5", "Frank Late", str(frank.id), "Frank Late"] in club.tab("Discord players")


async def test_the_tds_discord_column_names_a_member_by_at_name(club: LinkedClub) -> None:
    rows = [list(r) for r in RESULTS]
    rows[2][1], rows[2][3] = "Robert Smith", "@bob"
    await running_tournament(club, rounds=3)
    club.make_sheet({"Results": rows})
    linked = await club.link()
    assert "4 of them are already registered here" in linked.text
    why = await club.ok("bob", "why", {"after_round": 1})
    assert why.text.startswith("**Robert Smith: ")
    message = await reported(club, "alice", 2, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    assert club.tab("Discord reports")[1][1:5] == ["2", "#1 Alice", "1-0", "#2 Robert Smith"]
    # The bot's tab repeats the link; the TD's column keeps what the TD typed.
    assert ["2", "Robert Smith", str(club.member("bob").id), "@bob"] in club.tab("Discord players")
    assert club.values("Results!D3") == [["@bob"]]


async def test_player_link_without_a_member_unlinks(linked: LinkedClub) -> None:
    club = linked
    answer = await club.ok("td", "player link", {"player": "#4"})
    assert answer.text.splitlines()[0] == "🔗 #4 Dave is no longer linked to a Discord member."
    assert str(club.member("dave").id) not in str(club.tab("Discord players"))

"""Who is who: players on the sheet are linked to Discord members by a ``Discord`` column —
the TD's own (a user id or ``@name``), or the bot's ``Discord players`` tab, which ``/join``
and ``/player link`` fill in. The TD's tabs are never written."""

from __future__ import annotations

from sheets.discord_tabs import PLAYERS_HEADER
from tests.bot.support import appoint_tds, clicked, reported, running_tournament
from tests.link.conftest import RESULTS, LinkedClub, as_shown


async def registering(club: LinkedClub, rows: list[list[object]]) -> None:
    """Club Night is open for registration and linked to a sheet listing ``rows``."""
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    club.make_sheet({"Results": rows})
    await club.link()


async def test_join_never_claims_a_sheet_player_by_name(club: LinkedClub) -> None:
    """Claiming the sheet's Carol takes a TD: a plain /join with her name, whoever sends
    it, registers nobody and says why, and nobody can then act as her."""
    await registering(club, [list(r) for r in RESULTS])
    before = await club.store.players(club.guild, "Club Night")
    for member, options in (
        ("erin", {"name": "Carol"}),
        ("erin", {"name": " carol "}),
        ("carol", {}),
    ):
        error = await club.refused(member, "join", options)
        assert error.text == (
            "The Google Sheet of Club Night already has a player called Carol (#3). If that "
            "is you, ask a TD to link you (/player link player:#3); otherwise join under "
            "another name (the name option)."
        )
    assert await club.store.players(club.guild, "Club Night") == before
    assert club.tab("Discord players") == [PLAYERS_HEADER]
    # The TD says who Carol is; then she is registered, once.
    carol = club.member("carol")
    linked = await club.ok("td", "player link", {"player": "#3", "member": carol})
    assert linked.text.splitlines()[0] == f"🔗 #3 Carol is <@{carol.id}> in **Club Night**."
    assert club.tab("Discord players") == [PLAYERS_HEADER, ["3", "Carol", str(carol.id), "@carol"]]
    again = await club.refused("carol", "join")
    assert again.text.startswith(f"\\<\\@{carol.id}\\> is already registered")
    assert len(await club.store.players(club.guild, "Club Night")) == 4
    assert club.values("Results!A1:G5") == as_shown(RESULTS)  # the TD's tab: untouched


async def test_join_while_the_sheet_cannot_be_read_waits_for_it_when_it_may_name_the_member(
    club: LinkedClub,
) -> None:
    """The sheet has a Carol who may be this member, but only the sheet can say: while it
    cannot be read, /join registers nobody and asks to try again (it does not send the
    member to a TD as if the sheet had said no)."""
    await registering(club, [list(r) for r in RESULTS])
    before = await club.store.players(club.guild, "Club Night")
    await club.restart()  # a bot process that has not read the sheet yet
    club.sheets.fail_for(120, status=503)
    error = await club.refused("carol", "join")
    assert "could not be read just now" in error.text
    assert error.text.endswith("try /join again in a minute.")
    assert await club.store.players(club.guild, "Club Night") == before
    club.sheets.clear_faults()
    club.refresh()
    error = await club.refused("carol", "join")
    assert "ask a TD to link you" in error.text


async def test_join_follows_the_sheets_own_discord_column(club: LinkedClub) -> None:
    """The sheet's editors may say who a player is (its Discord column): then /join links."""
    rows = [list(r) for r in RESULTS]
    rows[3][3] = "@carol"
    await registering(club, rows)
    joined = await club.ok("carol", "join")
    assert joined.text.splitlines() == [
        f"✍️ #3 Carol (1700) <@{club.member('carol').id}> joined **Club Night**.",
        "📗 On the Google Sheet you are #3 Carol.",
    ]
    assert len(await club.store.players(club.guild, "Club Night")) == 4
    error = await club.refused("erin", "join", {"name": "Carol"})
    assert "already has a player called Carol (#3)" in error.text


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
    await club.ok("td", "player link", {"player": "#1", "member": club.member("alice")})
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


async def test_a_sheet_name_that_breaks_the_name_rules_is_not_registered_and_the_td_is_told(
    club: LinkedClub,
) -> None:
    rows = [list(r) for r in RESULTS]
    rows[4][1] = "Dave\u202eevaD"
    await registering(club, rows)
    linked = await club.link()
    assert (
        "⚠️ Not registered here (fix the name on the sheet, then a TD adds them with /player "
        "link): #4: a player name cannot hold control characters (U+202E at character 5)"
        in linked.text
    )
    assert "\u202e" not in linked.text
    names = [p.name for p in await club.store.players(club.guild, "Club Night")]
    assert names == ["Alice", "Bob", "Carol"]


async def test_a_player_not_on_the_sheet_is_worded_as_in_any_tournament(linked: LinkedClub) -> None:
    """/why on a linked tournament looks the player up on the sheet, and says so in the
    words of a tournament without a sheet, suggestions included; so does a round the
    sheet has no results for."""
    club = linked
    error = await club.refused("erin", "why", {"player": "Crol"})
    assert error.text == (
        "The Google Sheet of Club Night has no player called 'Crol'; did you mean Carol?"
    )
    number = await club.refused("erin", "why", {"player": "#9"})
    assert number.text == "The Google Sheet of Club Night has no player #9."
    later = await club.refused("erin", "standings", {"after_round": 3})
    assert later.text == (
        "Round 3 has no results: the Google Sheet of Club Night has results for rounds 1–1."
    )
    # /player link looks on the sheet for a player Discord does not know: the same words.
    member = {"member": club.member("erin")}
    unknown = await club.refused("td", "player link", {"player": "Erni", **member})
    assert unknown.text == ("Club Night, here or on its Google Sheet, has no player called 'Erni'.")

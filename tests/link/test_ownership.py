"""A sheet is linked only by someone who can edit it, the first server included: the bot gives
the TD a code, to them alone, and links nothing and shows nothing of the sheet until an
editor of the sheet has typed the code into its Harkness tab (the "Discord servers" row,
which only its editors can change). The sheet's editors withdraw a server by deleting its
entry: the bot notices at its next read or write of the sheet, stops using it, unlinks the
tournament, and says so to the TD and in the answers. A server that knows a sheet's address
(every sheet is shared with the one service account) gets nowhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import insert, update

from bot.store import schema
from tests.bot.support import clicked, reported, running_tournament
from tests.link.conftest import RESULTS, LinkedClub, link_code
from tests.link.servers import Server, with_commands

SQUATTER = 1  # the other server's number in the fake (tests.link.servers)


def contents(club: LinkedClub) -> dict[str, list[list[str]]]:
    return {title: club.tab(title) for title in club.sheets.sheet_titles(club.sheet_id)}


async def squatter(club: LinkedClub) -> Server:
    """Another server on the same bot (restarted to see it), whose TD knows the club's
    spreadsheet's address but cannot edit the sheet; it has a tournament of its own."""
    server = Server(club, SQUATTER)
    await club.restart()
    with_commands(club.fake, server.guild)
    await server.ok(None, "tournament create", {"name": "Their Night", "rounds": 3})
    return server


def dms(club: LinkedClub, name: str = "td") -> list[str]:
    return [m.text for m in club.fake.messages_in(club.fake.dm_channel(club.member(name)))]


async def test_a_server_that_cannot_edit_the_sheet_never_links_it_nor_sees_it(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    other = await squatter(club)
    before = contents(club)
    asked = {"url": club.url, "tournament": "Their Night"}
    answer = await other.ok(None, "tournament link-sheet", asked)
    code = link_code(answer.text)
    assert code is not None and answer.ephemeral  # a code for its TD alone, not a link
    assert "Club Night 2026" not in answer.text and "Alice" not in answer.text
    assert "Nothing was written to the sheet" in answer.text
    again = await other.click(answer, "Link")  # nobody who can edit the sheet typed it
    assert link_code(again.text) == code
    assert (await club.store.tournament(other.id, "Their Night")).sheet is None
    assert contents(club) == before  # not a tab, not a cell
    crosstable = await other.ok(None, "crosstable", {"tournament": "Their Night"})
    assert "Alice" not in crosstable.text and "Club Night 2026" not in crosstable.text
    # The club's own server is not refused: an editor of the sheet types its code.
    linked = await club.link()
    assert linked.text.startswith("🔗 **Club Night** is kept in the Google Sheet")
    # The squatter still gets nowhere: the sheet names the club's server only.
    answer = await other.ok(None, "tournament link-sheet", asked)
    assert link_code(answer.text) == code
    assert (await club.store.tournament(other.id, "Their Night")).sheet is None
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    await club.settled()
    assert "Their Night" not in str(club.tab("Discord reports"))


async def test_the_first_server_too_links_a_sheet_only_once_an_editor_typed_its_code(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    before = contents(club)
    answer = await club.ask_to_link()
    code = link_code(answer.text)
    assert code is not None and answer.ephemeral
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None
    assert contents(club) == before
    assert [c.kind for c in club.sheets.calls(club.sheet_id)] == ["read"]
    not_yet = await clicked(club, "td", answer, "Link")
    assert link_code(not_yet.text) == code  # the same code: nothing typed yet
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None
    # An editor of the sheet types the code; the TD presses Link: linked, the channel told.
    club.name_server(code)
    linked = await clicked(club, "td", answer, "Link")
    assert linked.text.startswith("🔗 **Club Night** is kept in the Google Sheet")
    await club.fake.wait_for(
        lambda: (
            [
                m
                for m in club.fake.messages_in(club.fake.default_channel)
                if m.text.startswith("🔗 **Club Night** is kept in the Google Sheet")
            ]
            or None
        ),
        5,
        "the channel told that the tournament is linked",
    )
    info = await club.store.tournament(club.guild, "Club Night")
    assert info.sheet is not None and info.sheet.spreadsheet_id == club.sheet_id
    assert club.values("Harkness!B1") == [[code]]  # the code stays: this server's entry
    # Unlinked and linked again: the sheet still names the server, so no new code.
    await club.ok("td", "tournament unlink-sheet")
    again = await club.ask_to_link()
    assert again.text.startswith("🔗 **Club Night** is kept in the Google Sheet")


async def test_the_sheets_editors_withdraw_the_server_and_the_bot_unlinks_and_says_so(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    code = link_code((await club.ask_to_link()).text)
    assert code is not None
    club.name_server(code)
    await club.ask_to_link()  # running the command again links it, as Link does
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    await club.settled()
    assert "Club Night 2026" in (await club.ok("bob", "standings")).text  # read from the sheet
    # The sheet's editors take this server off; the bot's next read notices.
    club.unname_server(code)
    before = contents(club)
    club.refresh()
    standings = await club.ok("bob", "standings")
    footer = standings.embeds[0]["footer"]["text"]
    assert "Discord's results only (the Google Sheet no longer names this server" in footer
    assert "Club Night 2026" not in standings.text
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None
    [told] = dms(club)
    assert "no longer names this Discord server" in told and "Club Night" in told
    # From now on Discord keeps the results alone: nothing more reaches the sheet.
    message = await reported(club, "carol", 1, "#4", "win")
    confirmed = await clicked(club, "dave", message, "Confirm")
    assert "Google Sheet" not in confirmed.text
    assert "Club Night 2026" not in (await club.ok("alice", "why")).text
    await club.links.flush()
    assert contents(club) == before
    # Linking again takes the editors' word again.
    assert link_code((await club.ask_to_link()).text) is not None


async def test_a_withdrawal_noticed_at_a_write_unlinks_and_the_member_is_told(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    club.name_server(club.guild)  # named by the server's id: the same as a code
    await club.link()
    club.unname_server(club.guild)
    before = contents(club)
    message = await reported(club, "alice", 1, "#2", "win")
    confirmed = await clicked(club, "bob", message, "Confirm")
    assert "the Google Sheet no longer names this server" in confirmed.text.splitlines()[-1]
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None
    assert contents(club) == before
    assert len(dms(club)) == 1


async def test_a_link_made_before_sheets_named_their_servers_has_a_grace_period(
    club: LinkedClub,
) -> None:
    """Links made before the upgrade keep working while the sheet's Discord servers row is
    empty, until their grace period ends (revision 0011 gives it to every first server);
    the TD is told once how to confirm the link. Writing any server into the row ends it
    at once; so does the end of the period."""
    await running_tournament(club, rounds=3)
    club.make_sheet()
    info = await club.store.tournament(club.guild, "Club Night")
    now = datetime.now(UTC)
    t, o = schema.tournaments, schema.sheet_owners
    async with club.store.engine.begin() as conn:  # as the upgrade leaves a link made before
        await conn.execute(
            update(t)
            .where(t.c.id == info.id)
            .values(
                sheet_id=club.sheet_id,
                sheet_url=club.url,
                sheet_linked_by=str(club.member("td").user.id),
                sheet_linked_at=now - timedelta(days=30),
            )
        )
        await conn.execute(
            insert(o).values(
                spreadsheet_id=club.sheet_id,
                guild_id=club.guild,
                claimed_by="td",
                claimed_at=now - timedelta(days=30),
                grace_until=now + timedelta(days=14),
            )
        )
    message = await reported(club, "alice", 1, "#2", "win")  # written to the sheet too
    assert "📗 Written to the Google Sheet" in (await clicked(club, "bob", message, "Confirm")).text
    standings = await club.ok("bob", "standings")
    assert "from the Google Sheet “Club Night 2026”" in standings.embeds[0]["footer"]["text"]
    club.refresh()
    await club.ok("bob", "standings")
    await club.fake.wait_for(lambda: dms(club) or None, 5, "the TD told of the grace period")
    [told] = dms(club)
    assert "Club Night" in told and "/tournament link-sheet" in told
    # The grace period ends: the next read unlinks it, and says so.
    async with club.store.engine.begin() as conn:
        await conn.execute(update(o).values(grace_until=now - timedelta(seconds=1)))
    club.refresh()
    standings = await club.ok("bob", "standings")
    assert "no longer names this server" in standings.embeds[0]["footer"]["text"]
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None


async def test_in_its_grace_period_a_link_ends_once_the_sheet_names_servers_but_not_it(
    club: LinkedClub,
) -> None:
    await running_tournament(club, rounds=3)
    club.make_sheet()
    info = await club.store.tournament(club.guild, "Club Night")
    now = datetime.now(UTC)
    t, o = schema.tournaments, schema.sheet_owners
    async with club.store.engine.begin() as conn:
        await conn.execute(
            update(t)
            .where(t.c.id == info.id)
            .values(sheet_id=club.sheet_id, sheet_linked_by="1", sheet_linked_at=now)
        )
        await conn.execute(
            insert(o).values(
                spreadsheet_id=club.sheet_id,
                guild_id=club.guild,
                claimed_by="1",
                claimed_at=now,
                grace_until=now + timedelta(days=14),
            )
        )
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    assert "Club Night 2026" in (await club.ok("bob", "standings")).embeds[0]["footer"]["text"]
    # The sheet was linked first by a squatter; its editors name their own server instead.
    club.name_server("990000000000000001")
    club.refresh()
    standings = await club.ok("bob", "standings")
    assert "no longer names this server" in standings.embeds[0]["footer"]["text"]
    assert (await club.store.tournament(club.guild, "Club Night")).sheet is None


async def test_a_sheet_naming_the_server_by_its_id_links_without_a_code(club: LinkedClub) -> None:
    """An editor may name the server by its id instead (as the refusal says)."""
    await running_tournament(club, rounds=3)
    club.make_sheet({"Results": [list(r) for r in RESULTS]})
    club.name_server(club.guild)
    answer = await club.ask_to_link()
    assert answer.text.startswith("🔗 **Club Night** is kept in the Google Sheet")


async def test_a_sheet_shared_by_two_servers_tells_each_only_its_own_conflicts(
    club: LinkedClub,
) -> None:
    """Both servers are named by the sheet, so both read it; but a Discord report of one that
    disagrees with the TD's cell is told to that server's TD alone, and listed in its own
    /result open only."""
    await running_tournament(club, rounds=3)
    club.make_sheet()
    other = await squatter(club)  # here a friendly server: the sheet names it too
    club.name_server(club.guild)
    club.name_server(other.id)
    await club.link()
    asked = {"url": club.url, "tournament": "Their Night"}
    linked = await other.ok(None, "tournament link-sheet", asked)
    assert linked.text.startswith("🔗 **Their Night** is kept in the Google Sheet")
    # Their TD sets Dave's win over Carol in round 1; the sheet's cell says Carol won.
    decided = {"round": 1, "player": "Dave", "opponent": "Carol", "result": "win"}
    await other.ok(None, "result set", {**decided, "tournament": "Their Night"})
    owner = other.owner.user
    await club.fake.wait_for(
        lambda: club.fake.messages_in(club.fake.dm_channel(owner)) or None,
        10,
        "their TD told of the conflict",
    )
    club.refresh()
    await club.ok("bob", "standings")  # the club's server reads the sheet too
    assert not any("disagree" in text for text in dms(club))
    assert "Results!E5" not in (await club.ok("td", "result open")).text
    theirs = await other.ok(None, "result open", {"tournament": "Their Night"})
    assert "Results!E5" in theirs.text

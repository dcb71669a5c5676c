"""A name is data, never markup: whatever a member calls themselves, every answer shows the
characters they typed (no mention, emphasis, masked link or broken code block), and names
that could not be shown honestly (control characters, too long) are refused at the door."""

from __future__ import annotations

import csv
import io

from core.names import markdown_safe
from tests.bot.support import Club, appoint_tds, clicked, reported
from tests.fakes.discord_api import Upload


def evil_name(club: Club) -> str:
    """A name that would mention Bob, shout, link away and close a code block."""
    bob = club.member("bob")
    return f"<@{bob.id}> **Big** ``` [Bob](https://e.x) @everyone"


def assert_shown_as_typed(text: str, name: str) -> None:
    assert name not in text, text
    assert markdown_safe(name) in text, text


async def evil_tournament(club: Club) -> str:
    """Mallory (the member ``carol``) joins under a hostile name; alice and bob join too."""
    name = evil_name(club)
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    await club.ok("alice", "join")
    joined = await club.ok("carol", "join", {"name": name})
    assert_shown_as_typed(joined.text, name)
    await club.ok("bob", "join")
    await club.ok("td", "tournament start")
    return name


async def test_a_report_and_its_confirmation_show_the_name_as_typed(club: Club) -> None:
    name = await evil_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    assert_shown_as_typed(message.text, name)
    after = await clicked(club, "carol", message, "Confirm")
    assert_shown_as_typed(after.text, name)
    # The report by the hostile player, confirmed by alice.
    message = await reported(club, "carol", 2, "#1", "draw")
    assert_shown_as_typed(message.text, name)
    after = await clicked(club, "alice", message, "Confirm")
    assert_shown_as_typed(after.text, name)


async def test_td_answers_show_the_name_as_typed(club: Club) -> None:
    name = await evil_tournament(club)
    answer = await club.ok(
        "td", "result set", {"round": 1, "player": "#2", "opponent": "#3", "result": "loss"}
    )
    assert_shown_as_typed(answer.text, name)
    answer = await club.ok("td", "result bye", {"round": 1, "player": "#1"})
    answer = await club.ok("td", "result bye", {"round": 2, "player": "#2", "kind": "half"})
    assert_shown_as_typed(answer.text, name)
    listing = await club.ok("td", "result history")
    assert_shown_as_typed(listing.text, name)


async def test_why_and_standings_show_the_name_as_typed(club: Club) -> None:
    name = await evil_tournament(club)
    await club.ok(
        "td", "result set", {"round": 1, "player": "#2", "opponent": "#1", "result": "draw"}
    )
    why = await club.ok("alice", "why", {"player": "#2"})
    headline, group, *_ = why.text.splitlines()
    assert_shown_as_typed(headline, name)
    assert_shown_as_typed(group, name)
    why = await club.ok("alice", "why")  # alice's neighbour is the hostile player
    assert_shown_as_typed(why.text, name)
    details = await club.succeeded(await club.click("alice", why, "Show details"))
    assert name not in details.text
    standings = await club.ok("bob", "standings")
    description = standings.embeds[0]["description"]
    assert description.startswith("```\n") and description.count("```") == 2


async def test_names_with_control_characters_or_too_long_are_refused(club: Club) -> None:
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    error = await club.refused("alice", "join", {"name": "Ann\u202eyzal"})
    assert "control characters (U+202E at character 4)" in error.text
    error = await club.refused("td", "player add", {"name": "Bob\x07"})
    assert "control characters (U+0007 at character 4)" in error.text
    assert await club.store.players(club.guild, "Club Night") == []
    crosstable = "#  Name  Rd 1\n1  Ann\x1b[2J  W2\n2  Bob  L1\n"
    upload = Upload("club.txt", crosstable.encode(), "text/plain")
    error = await club.refused("td", "tournament import", {"file": upload, "name": "Imported"})
    assert "player 1" in error.text and "U+001B" in error.text


async def test_the_crosstable_csv_never_holds_a_formula(club: Club) -> None:
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    await club.ok("alice", "join", {"name": '=HYPERLINK("https://e.x","Ann")'})
    await club.ok("bob", "join", {"name": "+Bob"})
    await club.ok("td", "tournament start")
    reply = await club.ok("bob", "crosstable")
    rows = list(csv.reader(io.StringIO(reply.attachment("club-night-crosstable.csv").text())))
    assert rows[0][0].startswith("Start date: ")  # above the header (core's crosstable)
    assert [row[1] for row in rows[2:]] == ['\'=HYPERLINK("https://e.x","Ann")', "'+Bob"]


async def test_a_tournament_name_is_shown_as_typed_in_every_title(club: Club) -> None:
    """A tournament's name is data too: embed titles (info, tiebreaks, open games, history,
    standings) show the characters the TD typed, never emphasis or a mention."""
    bob = club.member("bob")
    name = f"**Big** <@{bob.id}> _Open_"
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": name, "rounds": 3})
    for member in ("alice", "bob"):
        await club.ok(member, "join")
    await club.ok("td", "tournament start")
    await club.ok(
        "td", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "win"}
    )
    for who, command in (
        ("alice", "tournament info"),
        ("alice", "tiebreaks"),
        ("td", "result open"),
        ("td", "result history"),
        ("alice", "standings"),
    ):
        title = (await club.ok(who, command)).embeds[0]["title"]
        assert name not in title and markdown_safe(name) in title, (command, title)

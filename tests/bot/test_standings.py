"""Reading a tournament in Discord: ``/standings`` (paginated), ``/crosstable`` (files),
``/why`` (summary, then details on request) and ``/tiebreaks`` (in words)."""

from __future__ import annotations

import csv
import io

from core.standings import compute_standings
from tests.bot.support import Club, clicked, imported_swiss, reported, running_tournament


def _table_rows(description: str) -> list[list[str]]:
    lines = description.strip("`\n").splitlines()
    return [line.split() for line in lines[1:]]


async def test_standings_show_places_scores_tiebreaks_and_marks(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    await clicked(club, "bob", message, "Confirm")
    await reported(club, "carol", 1, "#4", "draw")  # not confirmed yet
    standings = await club.ok("erin", "standings")
    assert not standings.ephemeral
    embed = standings.embeds[0]
    assert embed["title"] == "Club Night — standings after round 1 of 4"
    assert embed["description"].splitlines()[1].split() == [
        "Place",
        "#",
        "Name",
        "Score",
        "MM",
        "SOLK",
        "CUM",
        "OCUM",
    ]
    assert _table_rows(embed["description"]) == [
        ["1", "1", "Alice", "1", "0", "0", "1", "0"],
        ["2-3", "3", "Carol", "0.5*", "0", "0.5", "0.5", "0.5"],
        ["2-3", "4", "Dave", "0.5*", "0", "0.5", "0.5", "0.5"],
        ["4", "2", "Bob", "0", "0", "1", "0", "1"],
    ]
    assert embed["footer"]["text"] == (
        "MM = Modified Median, SOLK = Solkoff, CUM = Cumulative, "
        "OCUM = Opponents' Cumulative · * provisional result "
        "(not yet confirmed)"
    )
    assert standings.buttons() == []  # one page: no page buttons


async def test_standings_before_any_result_say_so(club: Club) -> None:
    await running_tournament(club)
    error = await club.refused("alice", "standings")
    assert error.text == "Club Night has no results yet."


async def test_standings_after_a_round_that_has_no_results_are_refused(club: Club) -> None:
    await running_tournament(club)
    await club.ok(
        "td", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "win"}
    )
    error = await club.refused("alice", "standings", {"after_round": 3})
    assert error.text == "Round 3 has no results: Club Night has results for rounds 1–1."


async def test_a_large_event_is_paginated_with_buttons_that_turn_pages(club: Club) -> None:
    swiss = await imported_swiss(club, 40, 5)
    expected = [str(row.player.id) for row in compute_standings(swiss, "uscf").rows]
    first = await club.ok("alice", "standings", {"tournament": "Big Swiss"})
    assert first.embeds[0]["footer"]["text"].startswith("Page 1 of 3 · ")
    previous, following = first.buttons()
    assert (previous["label"], previous["disabled"]) == ("Previous", True)
    assert (following["label"], following["disabled"]) == ("Next", False)
    seen = [first.embeds[0]["description"]]
    page = first
    for number in (2, 3):
        page = await clicked(club, "bob", page, "Next")  # anyone may turn the pages
        assert page.id == first.id
        assert page.embeds[0]["footer"]["text"].startswith(f"Page {number} of 3 · ")
        seen.append(page.embeds[0]["description"])
    assert page.button("Next")["disabled"] is True
    back = await clicked(club, "carol", page, "Previous")
    assert back.embeds[0]["footer"]["text"].startswith("Page 2 of 3 · ")
    numbers = [row[1] for description in seen for row in _table_rows(description)]
    assert numbers == expected  # all 40, in the engine's order, each once


async def test_standings_after_an_earlier_round(club: Club) -> None:
    swiss = await imported_swiss(club, 12, 4, name="Small Swiss")
    reply = await club.ok("alice", "standings", {"tournament": "Small Swiss", "after_round": 2})
    assert reply.embeds[0]["title"] == "Small Swiss — standings after round 2 of 4"
    leader = compute_standings(swiss.after_round(2), "uscf").rows[0].player
    assert _table_rows(reply.embeds[0]["description"])[0][1] == str(leader.id)


async def test_a_very_large_event_stays_within_discords_limits(club: Club) -> None:
    await imported_swiss(club, 300, 9, name="Open 300")
    reply = await club.ok("alice", "standings", {"tournament": "Open 300"})
    assert reply.embeds[0]["footer"]["text"].startswith("Page 1 of 20 · ")
    crosstable = await club.ok("alice", "crosstable", {"tournament": "Open 300"})
    assert len(crosstable.attachment("open-300-crosstable.csv").text().splitlines()) == 301
    why = await club.ok("alice", "why", {"tournament": "Open 300", "player": "#150"})
    assert len(why.content) <= 2000
    # Every message above went through the fake, which refuses anything over Discord's
    # limits (2,000 characters, 4,096 per description, 6,000 per embed): none was refused.
    club.fake.assert_clean()


async def test_crosstable_comes_as_text_and_csv_attachments(club: Club) -> None:
    await running_tournament(club)
    await club.ok(
        "td",
        "result set",
        {"round": 1, "player": "#1", "opponent": "#2", "result": "win", "colour": "white"},
    )
    await club.ok(
        "td", "result set", {"round": 1, "player": "#3", "opponent": "#4", "result": "draw"}
    )
    reply = await club.ok("bob", "crosstable")
    assert not reply.ephemeral
    assert "Crosstable of **Club Night** after 1 of 4 rounds, 4 players" in reply.text
    text = reply.attachment("club-night-crosstable.txt").text()
    # The day it started, which harkness reads back (it picks the C.07 text under fide).
    assert text.startswith("Start date: 20")
    assert text.splitlines()[2].split() == ["1", "Alice", "W2", "(w)", "1", "0", "0", "1", "0"]
    rows = list(csv.reader(io.StringIO(reply.attachment("club-night-crosstable.csv").text())))
    assert rows[0] == [text.splitlines()[0]]
    assert rows[1] == ["#", "Name", "Rd 1", "Tot", "TBrk[M]", "TBrk[S]", "TBrk[C]", "TBrk[O]"]
    assert rows[2][:4] == ["1", "Alice", "W2 (w)", "1"]


async def test_why_explains_you_by_default_and_shows_details_on_request(club: Club) -> None:
    await running_tournament(club)
    for player, opponent, result in (("#1", "#2", "win"), ("#3", "#4", "win")):
        await club.ok(
            "td",
            "result set",
            {"round": 1, "player": player, "opponent": opponent, "result": result},
        )
    summary = await club.ok("carol", "why")
    assert summary.ephemeral
    assert summary.text.splitlines()[0] == "**Carol: 1st–2nd place (shared), 1 point of 1.**"
    assert "Alice" in summary.text
    details = await club.succeeded(await club.click("carol", summary, "Show details"))
    assert details.ephemeral
    assert details.embeds[0]["title"] == "Carol: tiebreaks in detail"
    assert "**Modified Median" in details.embeds[0]["description"]


async def test_why_for_another_player_by_name(club: Club) -> None:
    await running_tournament(club)
    await club.ok(
        "td", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "draw"}
    )
    reply = await club.ok("erin", "why", {"player": "bob"})
    assert reply.text.startswith("**Bob: 1st–2nd place (shared), 0.5 points of 1.**")


async def test_a_mistyped_player_is_answered_with_the_names_close_to_it(club: Club) -> None:
    """Not only on a linked sheet: the tournament's own players are suggested too, in the
    one wording of a player not found (and the same for a TD's command)."""
    await running_tournament(club)
    error = await club.refused("erin", "why", {"player": "Crol"})
    assert error.text == "Club Night has no player called 'Crol'; did you mean Carol?"
    options = {"round": 1, "player": "Alcie", "opponent": "#2", "result": "win"}
    refused = await club.refused("td", "result set", options)
    assert refused.text == "Club Night has no player called 'Alcie'; did you mean Alice?"
    nobody = await club.refused("erin", "why", {"player": "Zed"})
    assert nobody.text == "Club Night has no player called 'Zed'."
    number = await club.refused("erin", "why", {"player": "#9"})
    assert number.text == "Club Night has no player #9."


async def test_why_for_a_member_who_does_not_play_asks_for_a_player(club: Club) -> None:
    await running_tournament(club)
    await club.ok(
        "td", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "draw"}
    )
    error = await club.refused("erin", "why")
    assert error.text == (
        "You are not registered in Club Night: name a player with the "
        "player option, or /join the tournament."
    )


async def test_tiebreaks_are_named_in_order_with_their_rules(club: Club) -> None:
    await running_tournament(club)
    reply = await club.ok("alice", "tiebreaks")
    description = reply.embeds[0]["description"]
    assert reply.embeds[0]["title"] == "Tiebreaks of Club Night"
    assert [line for line in description.splitlines() if line[:1].isdigit()] == [
        "1. **Modified Median** (`MM`) — US Chess 34E1",
        "2. **Solkoff** (`SOLK`) — US Chess 34E2",
        "3. **Cumulative** (`CUM`) — US Chess 34E3",
        "4. **Opponents' Cumulative** (`OCUM`) — US Chess 34E",
    ]


async def test_a_tds_own_tiebreak_order_is_the_one_shown(club: Club) -> None:
    await running_tournament(club)
    await club.ok(
        "td", "tournament create", {"name": "Blitz", "rounds": 5, "tiebreaks": "solk, h2h"}
    )
    reply = await club.ok("alice", "tiebreaks", {"tournament": "Blitz"})
    lines = [line for line in reply.embeds[0]["description"].splitlines() if line[:1].isdigit()]
    assert lines == [
        "1. **Solkoff** (`SOLK`) — US Chess 34E2",
        "2. **Result between tied players** (`H2H`) — US Chess 34E",
    ]


async def test_a_fide_round_robin_lists_the_round_robin_order(club: Club) -> None:
    """``/tiebreaks`` shows the order the standings use: a FIDE round robin is ranked by
    DE, WIN, SB, KS, never by the Swiss order."""
    from tests.bot.support import appoint_tds
    from tests.fakes.discord_api import Upload

    table = "#\tName\tRd 1\tRd 2\tRd 3\n1\tAnn\tW2 (w)\tD3 (b)\tU\n2\tBob\tL1 (b)\tU\tW3 (w)\n"
    table += "3\tCy\tU\tD1 (w)\tL2 (b)\n"
    await appoint_tds(club)
    upload = Upload("rr.txt", table.encode(), "text/plain")
    await club.ok(
        "td", "tournament import", {"file": upload, "name": "Triangle", "profile": "fide-2024"}
    )
    reply = await club.ok("alice", "tiebreaks", {"tournament": "Triangle"})
    lines = [line for line in reply.embeds[0]["description"].splitlines() if line[:1].isdigit()]
    assert [line.split("(`")[1].split("`)")[0] for line in lines] == ["DE", "WIN", "SB", "KS"]
    standings = await club.ok("alice", "standings", {"tournament": "Triangle"})
    assert standings.embeds[0]["description"].splitlines()[1].split()[-4:] == [
        "DE",
        "WIN",
        "SB",
        "KS",
    ]


async def _scholastic_after_two_rounds(club: Club) -> None:
    """A TD runs "Scholastic" (mdchess, 5 rounds) and sets rounds 1 and 2 of #1–#4."""
    from tests.bot.support import appoint_tds

    await appoint_tds(club)
    await club.ok(
        "td", "tournament create", {"name": "Scholastic", "rounds": 5, "profile": "mdchess"}
    )
    for member in ("alice", "bob", "carol", "dave"):
        await club.ok(member, "join")
    await club.ok("td", "tournament start")
    for r, (a, b) in ((1, ("#1", "#2")), (1, ("#3", "#4")), (2, ("#1", "#3")), (2, ("#2", "#4"))):
        await club.ok("td", "result set", {"round": r, "player": a, "opponent": b, "result": "win"})


def _listed_order(reply_description: str) -> list[str]:
    lines = [line for line in reply_description.splitlines() if line[:1].isdigit()]
    return [line.split("(`")[1].split("`)")[0] for line in lines]


async def test_a_short_mdchess_section_lists_the_order_its_standings_use(club: Club) -> None:
    """mdchess after round 2 of a 5-round event: ``/tiebreaks`` lists the order for the
    rounds played (Solkoff first, as the standings rank), not the one for the 5 planned."""
    await _scholastic_after_two_rounds(club)
    order = ["SOLK", "CUM", "OCUM", "MM"]
    reply = await club.ok("alice", "tiebreaks")
    assert _listed_order(reply.embeds[0]["description"]) == order
    standings = await club.ok("alice", "standings")
    assert standings.embeds[0]["description"].splitlines()[1].split()[-4:] == order


async def test_a_round_whose_only_game_is_disputed_gives_one_order_everywhere(
    club: Club,
) -> None:
    """mdchess, 5 rounds: rounds 1–2 confirmed, round 3's only game disputed. The round was
    played (core.model.rounds_played with the pending round), so ``/standings``,
    ``/tiebreaks``, ``/tournament info`` and ``/crosstable`` all say 3 rounds, and the
    order is the one for 3 rounds (Modified Median first), the same in both lists."""
    await _scholastic_after_two_rounds(club)
    await reported(club, "alice", 3, "#4", "win")
    second = await reported(club, "dave", 3, "#1", "win")
    assert "Disputed" in second.text
    standings = await club.ok("alice", "standings")
    embed = standings.embeds[0]
    assert embed["title"] == "Scholastic — standings after round 3 of 5"
    ranked_by = embed["description"].splitlines()[1].split()[-4:]
    tiebreaks = await club.ok("alice", "tiebreaks")
    assert _listed_order(tiebreaks.embeds[0]["description"]) == ranked_by
    assert ranked_by == ["MM", "SOLK", "CUM", "OCUM"]
    info = await club.ok("alice", "tournament info")
    fields = {f["name"]: f["value"] for f in info.embeds[0]["fields"]}
    assert fields["Rounds with results"] == "3 of 5"
    crosstable = await club.ok("alice", "crosstable")
    assert "after 3 of 5 rounds" in crosstable.text
    header = crosstable.attachment("scholastic-crosstable.csv").text().splitlines()[1]
    assert header.endswith("Tot,TBrk[M],TBrk[S],TBrk[C],TBrk[O]")

"""Prizes and awards in Discord, end to end through the fake: a TD sets the prizes (a prize
file, one prize at a time, the method, players' categories, teams and limits), ``/awards``
shows the award list to the channel with its picture, ``/why`` adds a member's award and
why (or why not), the list is posted when the TD finishes the tournament (provisional while
results are), and ``/tournament export`` hands the prize file back.

The worked examples of core/RULEBOOK.md ("Awards") come out of ``/awards`` exactly as the
engine gives them (:mod:`tests.awards.worked`)."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from bot.awards import awards_of
from core.awards import compute_awards, read_prizes
from core.explain_render import award_headline
from core.formats.trf import write_trf
from core.names import markdown_safe
from core.numbers import cents_down, display, money
from core.standings import compute_standings
from tests.awards.worked import CLUB_NIGHT, WORKED, YOUTH, Worked, with_a_game
from tests.bot.support import Club, appoint_tds, clicked, reported, running_tournament
from tests.fakes.discord_api import MessageRecord, Upload
from tests.generate import random_swiss


def description(message: MessageRecord) -> str:
    return str(message.embeds[0]["description"])


async def imported(club: Club, case: Worked) -> None:
    """A TD imports the case's section (a TRF-16 upload) and loads its prize file."""
    trf = write_trf(with_a_game(case)).encode()
    await club.ok("td", "tournament import", {"file": Upload("case.trf", trf), "name": case.name})
    loaded = await club.ok(
        "td",
        "prizes load",
        {"file": Upload("prizes.toml", case.prizes.encode()), "tournament": case.name},
    )
    assert f"The prizes of **{case.name}** are set from `prizes.toml`" in loaded.text


@pytest.mark.parametrize("case", WORKED, ids=[c.name for c in WORKED])
async def test_the_worked_examples_come_out_of_awards_exactly(club: Club, case: Worked) -> None:
    await appoint_tds(club)
    await imported(club, case)
    answer = await club.ok("erin", "awards", {"tournament": case.name})
    assert not answer.ephemeral  # the channel sees the award list
    assert answer.attachments[0].filename == f"{case.name}-awards-dark.png"
    text = description(answer)
    engine = compute_awards(compute_standings(with_a_game(case), "uscf"), read_prizes(case.prizes))
    lines = {line for line in text.splitlines() if line.startswith("`")}
    shown = {
        f"`{row.place}` {markdown_safe(award_headline(row))}"
        for row in engine.rows
        if row.cash or row.trophies
    }
    assert lines == shown  # every winner in the engine's words, nobody else
    currency = read_prizes(case.prizes).currency
    for name, cash in case.cash.items():
        line = next(x for x in lines if x.split("` ", 1)[1].startswith(f"{name}:"))
        assert f"{name}: {money(cents_down(cash), currency)} (" in line
    for name, trophy in case.trophies.items():
        assert any(f"{name}:" in x and f"trophy {trophy}." in x for x in lines)
    for team, score in case.teams.items():
        teams = next(f for f in answer.embeds[0]["fields"] if f["name"] == "Teams")
        assert f"1. {team}, {display(score)}" in teams["value"]


async def test_a_prize_file_is_refused_with_its_lines_and_nothing_is_kept(club: Club) -> None:
    await running_tournament(club)
    bad = 'method = "us-chess"\n[[prize]]\nname = "1st"\nplace = 1\namont = 5\n'
    error = await club.refused("td", "prizes load", {"file": Upload("p.toml", bad.encode())})
    assert "p.toml:5: prize 1 ('1st'): unknown key 'amont'; did you mean 'amount'?" in error.text
    assert "p.toml:2: prize 1 ('1st'): a prize needs an amount, or trophy = true" in error.text
    stranger = YOUTH.replace("[3]", "[3, 7]")  # Club Night has players 1–4
    error = await club.refused("td", "prizes load", {"file": Upload("p.toml", stranger.encode())})
    assert "there is no player 7 in the section (players 1–4)" in error.text
    assert await club.store.prizes.get(club.guild, "Club Night") is None
    member = await club.refused("alice", "prizes load", {"file": Upload("p.toml", b"")})
    assert "Only a tournament director can set the prizes" in member.text


async def test_a_prize_file_over_the_limit_is_refused_before_it_is_downloaded(club: Club) -> None:
    await running_tournament(club)
    upload = Upload("huge.toml", b"#" * (256 * 1024 + 1))
    error = await club.refused("td", "prizes load", {"file": upload})
    assert "a prize file has at most 256 KB" in error.text
    assert not any(r.path.startswith("/attachments/") for r in club.fake.requests)


async def test_a_td_sets_the_prizes_one_at_a_time_and_marks_players(club: Club) -> None:
    await running_tournament(club)
    added = await club.ok(
        "td", "prizes add", {"name": "1st", "kind": "place", "value": "1", "amount": "$100"}
    )
    assert "Added to the prizes of **Club Night**: **1st** — 100 · place 1 (prize 1)" in added.text
    await club.ok(
        "td", "prizes add", {"name": "2nd", "kind": "place", "value": "2", "amount": "60"}
    )
    youth = await club.ok(
        "td",
        "prizes add",
        {
            "name": "Top *youth*",
            "kind": "category",
            "value": "youth",
            "amount": "30",
            "trophy": True,
        },
    )
    assert "**Top \\*youth\\*** — 30 + trophy · category youth (prize 3)" in youth.text
    # Typed wrong: told at the option, nothing added.
    error = await club.refused(
        "td", "prizes add", {"name": "3rd", "kind": "place", "value": "third", "amount": "1.005"}
    )
    assert "value: place must be a whole number from 1 to 9,999, got 'third'" in error.text
    assert "amount: amount must be a number above 0 and at most 1,000,000,000" in error.text
    twice = await club.refused(
        "td", "prizes add", {"name": "1ST", "kind": "place", "value": "3", "amount": "5"}
    )
    assert "name: name '1ST' is given twice (prize 1 and prize 4)" in twice.text
    options = await club.ok("td", "prizes options", {"currency": "$", "method": "us-chess-2003"})
    assert "method us-chess-2003, currency $" in options.text
    marked = await club.ok(
        "td", "prizes player", {"player": "#4", "categories": "Youth, junior", "limit": "50"}
    )
    assert "#4 Dave in **Club Night**: categories Youth, junior; no team; limit $50." in marked.text
    error = await club.refused("td", "prizes player", {"player": "#2", "limit": "lots"})
    assert "limit: the limit must be a number from 0" in error.text
    choices = await club.choices("td", "prizes remove", "name", "top")
    assert [c["value"] for c in choices] == ["Top *youth*"]
    removed = await club.ok("td", "prizes remove", {"name": "2ND"})
    assert "Removed **2nd** from the prizes of **Club Night** (2 left)." in removed.text
    listing = await club.ok("erin", "prizes list")
    assert not listing.ephemeral
    text = listing.text
    assert "Method: **us-chess-2003** · currency $" in text
    assert "1. **1st** — $100 · place 1" in text and "2. **Top \\*youth\\*** — $30" in text
    assert "Categories\n**Youth**: #4 Dave\n**junior**: #4 Dave" in text
    assert "Personal limits\n#4 Dave: $50" in text
    prize_file = listing.attachment("club-night-prizes.toml").text()
    again = read_prizes(prize_file)
    assert [p.name for p in again.prizes] == ["1st", "Top *youth*"]
    assert (again.categories, again.limits) == ({"Youth": (4,), "junior": (4,)}, {4: 50})
    # The file handed back loads again, the same list.
    await club.ok("td", "prizes load", {"file": Upload("again.toml", prize_file.encode())})
    kept = await club.store.prizes.get(club.guild, "Club Night")
    assert kept is not None and replace(kept, path=None) == replace(again, path=None)


async def club_night_with_prizes(club: Club) -> None:
    """Club Night (alice, bob, carol, dave: #1–#4), prizes from :data:`CLUB_NIGHT` (dave a
    youth); round 1: alice beats bob (confirmed), carol beats dave (confirmed)."""
    await running_tournament(club, rounds=2)
    loaded = await club.ok("td", "prizes load", {"file": Upload("club.toml", CLUB_NIGHT.encode())})
    assert "`club.toml`: 4 prizes, method us-chess; 1 category, 2 teams." in loaded.text
    await clicked(club, "bob", await reported(club, "alice", 1, "#2", "win"), "Confirm")
    await clicked(club, "dave", await reported(club, "carol", 1, "#4", "win"), "Confirm")


async def test_why_adds_the_members_award_and_why_not(club: Club) -> None:
    await club_night_with_prizes(club)
    why = await club.ok("alice", "why")
    # Alice and Carol tied on 1 point: 1st and 2nd pooled, $80 each; the trophy by tiebreaks.
    assert "2 players tied on 1 point (Alice and Carol) pool $100 (1st) + $60 (2nd)" in why.text
    assert "$160 split 2 ways, $80 each (US Chess 32B3)" in why.text
    bob = await club.ok("bob", "why")
    assert "**Bob: no cash prize; no trophy.**" in bob.text
    assert "_Every cash prize you could win went to higher scores" in bob.text
    dave = await club.ok("dave", "why")
    assert "Dave: $30 (Top youth); trophy Top youth." in dave.text


async def test_awards_is_provisional_while_a_result_waits(club: Club) -> None:
    await club_night_with_prizes(club)
    await reported(club, "alice", 2, "#3", "win")  # not confirmed yet
    answer = await club.ok("erin", "awards")
    assert "⏳ **Provisional: 1 result not yet confirmed; the awards may change.**" in answer.text
    assert "`1` Alice: $100 (1st); trophy 1st." in answer.text


async def test_finishing_posts_the_award_list_and_the_export_holds_the_prize_file(
    club: Club,
) -> None:
    await club_night_with_prizes(club)
    record = await club.run("td", "tournament finish")
    finished = await club.succeeded(record)
    assert "is finished" in finished.text
    posted = await record.followup(0)
    assert not posted.ephemeral
    assert "🏆 Awards of Club Night" in posted.text
    assert "`1-2` Alice: $80 (1st and 2nd pooled); trophy 1st." in posted.text
    assert "Dave: $30 (Top youth); trophy Top youth." in posted.text
    export = await club.ok("erin", "tournament export", {"tournament": "Club Night"})
    prizes = read_prizes(export.attachment("club-night-prizes.toml").text())
    assert prizes == read_prizes(CLUB_NIGHT)


async def test_awards_without_prizes_says_how_to_set_them(club: Club) -> None:
    await running_tournament(club)
    error = await club.refused("erin", "awards")
    assert "Club Night has no prizes yet: a TD sets them with /prizes load" in error.text


def test_the_worked_cash_is_what_the_engine_gives_with_the_game_played() -> None:
    for case in WORKED:
        standings = compute_standings(with_a_game(case), "uscf")
        result = compute_awards(standings, read_prizes(case.prizes))
        got = {row.name: row.cash for row in result.rows if row.cash}
        assert got == {n: c for n, c in case.cash.items() if c}, case.name
        assert {t.name: t.score for t in result.teams} == case.teams
        assert all(isinstance(c, Fraction) for c in case.cash.values())


async def test_a_long_award_list_fits_discord_and_every_name_is_shown_as_typed(
    club: Club,
) -> None:
    """300 players, 200 place prizes with trophies: the award list is cut to Discord's
    limits with how many more there are (the fake refuses anything longer), the picture
    left out (too many winners to read), and a name holding Markdown and a mention is shown
    as typed, pinging nobody."""
    swiss = random_swiss(300, 7, seed=5)
    name = "**Bold** @everyone <@1> `x`_y_"
    first = replace(swiss.players[0], name=name)
    swiss = replace(swiss, players=(first, *swiss.players[1:]))
    await appoint_tds(club)
    upload = Upload("big.trf", write_trf(swiss).encode())
    await club.ok("td", "tournament import", {"file": upload, "name": "Big Swiss"})
    prizes = "".join(
        f'[[prize]]\nname = "Place {n}"\nplace = {n}\namount = {1000 - n}\ntrophy = true\n'
        for n in range(1, 201)
    )
    await club.ok(
        "td", "prizes load", {"file": Upload("p.toml", prizes.encode()), "tournament": "Big Swiss"}
    )
    answer = await club.ok("erin", "awards", {"tournament": "Big Swiss"})
    text = description(answer)
    assert len(text) <= 4096 and re.search(r"… and \d+ more$", text)
    assert answer.attachments == []  # more winners than a picture shows
    assert markdown_safe(name) in text  # #1, the top seed, is among the first winners
    assert "<@1>" not in text.replace(markdown_safe("<@1>"), "")
    listing = await club.ok("erin", "prizes list", {"tournament": "Big Swiss"})
    assert re.search(r"… and \d+ more", listing.text)
    assert read_prizes(listing.attachment("big-swiss-prizes.toml").text()).prizes[199].amount == 800


async def test_the_award_list_of_unchanged_standings_is_computed_once() -> None:
    """Every member's /why asks for the same award list: it is computed once while the
    standings and the prize list stay the same."""
    standings = compute_standings(with_a_game(WORKED[0]), "uscf")
    prizes = read_prizes(WORKED[0].prizes)
    first = await awards_of("g", standings, prizes)
    assert await awards_of("g", standings, read_prizes(WORKED[0].prizes)) is first
    other = await awards_of("g", standings, replace(prizes, currency="EUR"))
    assert other is not first and other.currency == "EUR"
    again = await awards_of("g", compute_standings(with_a_game(WORKED[0]), "uscf"), prizes)
    assert again is not first and again.rows == first.rows

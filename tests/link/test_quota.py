"""Quotas: Google allows a service account 60 read and 60 write requests a minute. A linked
tournament's ``/standings``, ``/crosstable`` and ``/why`` read the sheet at most once every
``HARKNESS_SHEETS_REFRESH`` seconds (5) however many members ask, and the standings of an
unchanged sheet are not computed or written again.

The fake counts the calls; here it and the bot's freshness clock share a manual clock, so a
minute passes without waiting one, and the fake enforces Google's per-user limits (it would
answer 429 beyond them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.bot.support import clicked, reported
from tests.fakes.sheets_api import ManualClock, SheetsFake
from tests.link.conftest import LinkedClub

GOOGLE_PER_MINUTE = 60


@pytest.fixture
def sheets_fake(freshness: ManualClock) -> Iterator[SheetsFake]:
    """The Sheets fake on the same manual clock as the bot's freshness clock."""
    with SheetsFake(clock=freshness) as fake:
        yield fake
        assert not fake.internal_errors, f"the Sheets fake crashed: {fake.internal_errors!r}"


def calls(club: LinkedClub) -> tuple[int, int]:
    """(reads, writes) of the sheet since the last reset."""
    return (
        club.sheets.call_count(club.sheet_id, kind="read"),
        club.sheets.call_count(club.sheet_id, kind="write"),
    )


async def test_twenty_members_asking_for_the_standings_within_a_minute_cost_ten_reads(
    linked: LinkedClub,
) -> None:
    club = linked
    members = [club.fake.add_member(f"member{n:02d}") for n in range(20)]
    club.sheets.enforce_quotas(
        reads_per_minute=GOOGLE_PER_MINUTE, writes_per_minute=GOOGLE_PER_MINUTE
    )
    club.sheets.reset_calls()
    for member in members:  # one every 3 seconds: 20 in a minute
        club.clock.advance(3)
        answer = await club.ok(member, "standings")
        assert "from the Google Sheet" in answer.embeds[0]["footer"]["text"]
    # A read at most every 5 s: at 6, 12, …, 60 s. Nothing changed, so nothing is written.
    assert calls(club) == (10, 0)
    assert club.sheets.max_calls_in_any_minute(kind="read") <= GOOGLE_PER_MINUTE // 6
    assert club.sheets.call_count(status=429) == 0


async def test_twenty_members_asking_at_the_same_moment_cost_one_read(linked: LinkedClub) -> None:
    club = linked
    members = [club.fake.add_member(f"member{n:02d}") for n in range(20)]
    club.refresh()
    club.sheets.reset_calls()
    answers = await asyncio.gather(*(club.ok(m, "standings") for m in members))
    assert len(answers) == 20 and len({a.embeds[0]["description"] for a in answers}) == 1
    assert calls(club) == (1, 0)


async def test_a_busy_minute_of_reports_and_questions_stays_within_googles_limits(
    linked: LinkedClub,
) -> None:
    club = linked
    members = [club.fake.add_member(f"member{n:02d}") for n in range(20)]
    club.sheets.enforce_quotas(
        reads_per_minute=GOOGLE_PER_MINUTE, writes_per_minute=GOOGLE_PER_MINUTE
    )
    club.sheets.reset_calls()
    games = [
        (2, "alice", "#2", "bob"),
        (2, "carol", "#4", "dave"),
        (3, "alice", "#3", "carol"),
        (3, "bob", "#4", "dave"),
    ]
    asked = iter(members)
    for round_number, reporter, opponent, confirmer in games:
        club.clock.advance(3)
        message = await reported(club, reporter, round_number, opponent, "win")
        confirmed = await clicked(club, confirmer, message, "Confirm")
        assert "📗 Written to the Google Sheet" in confirmed.text
        for _ in range(5):  # and five members look at the standings after each game
            club.clock.advance(2)
            await club.ok(next(asked), "standings")
    # Each result: a read to find its key, a write, a read to see it there, the worker's
    # write of the Standings tab. The questions read at most every 5 s.
    # After a result lands the bot has just read the sheet, so the next questions reuse it.
    assert calls(club) == (12, 8)  # 4 results, 20 questions, in 28 seconds
    assert club.sheets.max_calls_in_any_minute(kind="read") < GOOGLE_PER_MINUTE
    assert club.sheets.max_calls_in_any_minute(kind="write") < GOOGLE_PER_MINUTE
    assert club.sheets.call_count(status=429) == 0

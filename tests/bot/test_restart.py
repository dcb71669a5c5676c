"""Buttons outlive the bot: their custom_ids carry the tournament and the report, so a
Confirm pressed after a restart still confirms the right game."""

from __future__ import annotations

from bot.store import ResultStatus
from tests.bot.support import Club, clicked, imported_swiss, reported, running_tournament


async def test_confirm_works_after_the_bot_restarts(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    await club.restart()
    after = await clicked(club, "bob", message, "Confirm")
    assert "✅ Confirmed: round 1, #1 Alice 1-0 #2 Bob." in after.text
    state = await club.store.state(club.guild, "Club Night")
    assert state.games[0].status is ResultStatus.CONFIRMED


async def test_dispute_works_after_the_bot_restarts(club: Club) -> None:
    await running_tournament(club)
    message = await reported(club, "alice", 1, "#2", "win")
    await club.restart()
    after = await clicked(club, "bob", message, "Dispute")
    assert "⚠️ Disputed" in after.text


async def test_standings_pages_turn_after_a_restart(club: Club) -> None:
    await imported_swiss(club, 40, 3)
    first = await club.ok("alice", "standings", {"tournament": "Big Swiss"})
    await club.restart()
    second = await clicked(club, "alice", first, "Next")
    assert second.embeds[0]["footer"]["text"].startswith("Page 2 of 3 · ")

"""Button clicks are counted and timed in the metrics like slash commands (the bot in this
process, on the loopback Discord fake; read from prometheus_client's registry)."""

from __future__ import annotations

from prometheus_client import REGISTRY

from tests.bot.support import Club, clicked, reported, running_tournament


def sample(name: str, **labels: str) -> float:
    """A sample's value now (0 before it was first recorded)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_confirm_and_dispute_clicks_are_counted_and_their_ack_timed(club: Club) -> None:
    await running_tournament(club, rounds=3)
    confirms = sample("harkness_interactions_total", command="button confirm")
    disputes = sample("harkness_interactions_total", command="button dispute")
    reports = sample("harkness_interactions_total", command="report")
    acks = sample("harkness_ack_seconds_count")
    message = await reported(club, "alice", 1, "#2", "win")
    after = await clicked(club, "bob", message, "Confirm")
    assert "Confirmed" in after.text
    message = await reported(club, "carol", 1, "#4", "win")
    after = await clicked(club, "dave", message, "Dispute")
    assert "A TD decides" in after.text
    assert sample("harkness_interactions_total", command="button confirm") == confirms + 1
    assert sample("harkness_interactions_total", command="button dispute") == disputes + 1
    assert sample("harkness_interactions_total", command="report") == reports + 2
    # Two commands and two clicks, each acknowledged once.
    assert sample("harkness_ack_seconds_count") == acks + 4

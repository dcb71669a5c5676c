"""A tournament's rules in Discord: the ``swisssys`` profile, the profile options a TD sets
(``/tournament create``, ``/tournament rules``), and how ``/tiebreaks`` and ``/why`` word them."""

from __future__ import annotations

from tests.bot.support import Club, appoint_tds, clicked, running_tournament


async def _bye_night(club: Club, rules: dict[str, object] | None = None) -> None:
    """Club Night under ``rules``: Alice beats Bob, Carol has a half-point bye in round 1."""
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3, **(rules or {})})
    for player in ("alice", "bob", "carol"):
        await club.ok(player, "join", {"tournament": "Club Night"})
    await club.ok("td", "tournament start", {})
    await club.ok(
        "td", "result set", {"round": 1, "player": "#1", "opponent": "#2", "result": "win"}
    )
    await club.ok("td", "result bye", {"round": 1, "player": "#3", "kind": "half"})


def _cumulative(standings_description: str, name: str) -> str:
    for line in standings_description.strip("`\n").splitlines():
        cells = line.split()
        if name in cells:
            return cells[-2]
    raise AssertionError(name)


async def test_swisssys_is_a_profile_choice_and_tiebreaks_words_it(club: Club) -> None:
    await _bye_night(club, {"profile": "swisssys"})
    reply = await club.ok("alice", "tiebreaks")
    description = reply.embeds[0]["description"]
    assert "(rules: **swisssys**)" in description
    assert "Unplayed rounds: Cumulative −½ per half-point bye; no all-unplayed pre-check." in (
        description
    )
    assert "SwissSys: Modified Median, Solkoff, Cumulative" in description
    standings = await club.ok("alice", "standings")
    assert _cumulative(standings.embeds[0]["description"], "Carol") == "0"


async def test_an_option_set_at_creation_counts_and_why_explains_it(club: Club) -> None:
    await _bye_night(club, {"cumulative-half-bye": True})
    standings = await club.ok("alice", "standings")
    assert _cumulative(standings.embeds[0]["description"], "Carol") == "0"
    info = await club.ok("alice", "tournament info", {})
    assert "uscf (cumulative-half-bye=yes)" in info.embeds[0]["description"]
    summary = await club.ok("carol", "why")
    assert "Tiebreaks (uscf, Cumulative −½ per half-point bye)" in summary.text
    details = await clicked(club, "carol", summary, "Show details")
    text = details.embeds[0]["description"]
    assert "−½ for your half-point bye in round 1" in text


async def test_a_td_changes_the_rules_and_options_of_a_tournament(club: Club) -> None:
    await _bye_night(club)
    standings = await club.ok("alice", "standings")
    assert _cumulative(standings.embeds[0]["description"], "Carol") == "0.5"
    error = await club.refused("bob", "tournament rules", {"cumulative-half-bye": True})
    assert "tournament director" in error.text
    changed = await club.ok("td", "tournament rules", {"cumulative-half-bye": True})
    assert "uscf (cumulative-half-bye=yes)" in changed.text
    standings = await club.ok("alice", "standings")
    assert _cumulative(standings.embeds[0]["description"], "Carol") == "0"
    # A new profile starts from its own options; an option equal to the profile's is none.
    changed = await club.ok("td", "tournament rules", {"profile": "swisssys"})
    assert "· swisssys." in changed.text
    changed = await club.ok("td", "tournament rules", {"unplayed-rule": False})
    assert "· swisssys." in changed.text
    shown = await club.ok("alice", "tournament rules", {})
    assert "swisssys" in shown.text and shown.ephemeral
    why = await club.ok("carol", "why")
    assert "Tiebreaks (swisssys)" in why.text


async def test_options_under_fide_are_refused_with_the_reason(club: Club) -> None:
    await running_tournament(club)
    error = await club.refused(
        "td",
        "tournament create",
        {"name": "Open", "rounds": 5, "profile": "fide-2024", "unplayed-rule": True},
    )
    assert "only for the US Chess profiles" in error.text

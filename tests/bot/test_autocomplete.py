"""Autocomplete: at most 25 choices, filtered by what the member typed."""

from __future__ import annotations

from bot.store import Actor
from tests.bot.support import Club, running_tournament

TD = Actor("1", "Setup", td=True)


async def test_tournaments_are_filtered_by_what_was_typed_and_capped_at_25(club: Club) -> None:
    for year in range(1990, 2020):
        await club.store.create_tournament(club.guild, f"Spring Open {year}", rounds=5, actor=TD)
    await club.store.create_tournament(club.guild, "Summer Rapid", rounds=7, actor=TD)
    choices = await club.choices("alice", "standings", "tournament", "spring")
    assert len(choices) == 25
    assert all(c["value"].startswith("Spring Open ") for c in choices)
    assert choices[0] == {"name": "Spring Open 2019 (registering)", "value": "Spring Open 2019"}
    rapid = await club.choices("alice", "standings", "tournament", "RAP")
    assert rapid == [{"name": "Summer Rapid (registering)", "value": "Summer Rapid"}]
    assert await club.choices("alice", "standings", "tournament", "winter") == []


async def test_players_match_by_name_or_starting_number(club: Club) -> None:
    await running_tournament(club, players=("alice", "bob", "carol", "dave", "erin"))
    by_name = await club.choices("alice", "report", "opponent", "car")
    assert by_name == [{"name": "#3 Carol", "value": "#3"}]
    by_number = await club.choices("alice", "report", "opponent", "#5")
    assert by_number == [{"name": "#5 Erin", "value": "#5"}]
    everyone = await club.choices("alice", "report", "opponent", "")
    assert [c["value"] for c in everyone] == ["#1", "#2", "#3", "#4", "#5"]


async def test_player_choices_follow_the_tournament_chosen_in_the_same_command(club: Club) -> None:
    await running_tournament(club, "Club Night", players=("alice", "bob"))
    await club.ok("td", "tournament create", {"name": "Blitz", "rounds": 3})
    await club.ok("carol", "join", {"tournament": "Blitz", "rating": 1720})
    choices = await club.choices("td", "result set", "player", "", {"tournament": "Blitz"})
    assert choices == [{"name": "#1 Carol (1720)", "value": "#1"}]


async def test_a_large_field_offers_25_players(club: Club) -> None:
    await running_tournament(club, players=())
    for n in range(40):
        await club.store.add_player(club.guild, "Club Night", f"Player {n:02d}", actor=TD)
    choices = await club.choices("alice", "why", "player", "player")
    assert len(choices) == 25
    assert choices[0]["value"] == "#1"


async def test_without_tournaments_there_is_nothing_to_offer(club: Club) -> None:
    assert await club.choices("alice", "report", "opponent", "bo") == []
    assert await club.choices("alice", "standings", "tournament", "") == []

"""What every slash command does before its own work, in one place: it is acknowledged
before anything reads the database, a TD-only command refuses anyone else in the same words
(one check), and the tournament option (a transformer) offers and picks tournaments by the
stages the command looks at."""

from __future__ import annotations

from discord import app_commands

from bot.cogs.base import HarknessCog
from bot.lookup import TournamentChoice
from bot.store import Actor, TournamentStatus
from tests.bot.support import TD_ROLE, Club, appoint_tds, running_tournament

TD = Actor("1", "Setup", td=True)
NO_TD_ROLE = "a TD role (a server manager sets it with /config td-role)"


async def test_every_command_is_acknowledged_first_and_names_its_tournament_by_stage(
    club: Club,
) -> None:
    assert club.bot is not None
    commands = [c for c in club.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(commands) >= 30
    with_tournament = 0
    for command in commands:
        assert isinstance(command.binding, HarknessCog), command.qualified_name
        option = command.get_parameter("tournament")
        if option is not None:
            with_tournament += 1
            assert isinstance(option.default, TournamentChoice), command.qualified_name
            assert option.autocomplete, command.qualified_name
    assert with_tournament >= 25


async def test_a_td_only_command_refuses_a_member_after_acknowledging_in_todays_words(
    club: Club,
) -> None:
    await running_tournament(club)
    role = club.fake.role(TD_ROLE).id
    record = await club.run("alice", "round preview")
    refused = await club.failed(record)
    first = await record.response()
    assert (first.type, first.ephemeral) == (5, True)  # "thinking…" before the TD role is read
    assert refused.text == (
        f"Only a tournament director can pair rounds: that is the <@&{role}> role or the "
        "Manage Server permission."
    )
    assert await club.store.round_pairings(club.guild, "Club Night") == {}


async def test_a_public_td_command_refuses_first_and_privately_before_looking_anything_up(
    club: Club,
) -> None:
    await club.store.create_tournament(club.guild, "Club Night", rounds=3, actor=TD)
    options = {"round": 1, "player": "#1", "opponent": "#2", "result": "win"}
    record = await club.run("alice", "result set", {**options, "tournament": "Nowhere"})
    refused = await club.failed(record)
    first = await record.response()
    assert (first.type, first.ephemeral) == (4, True)  # never a public "thinking…"
    assert refused.text == (
        f"Only a tournament director can set results: that is {NO_TD_ROLE} or the Manage "
        "Server permission."
    )


async def test_rules_are_for_everyone_to_see_and_for_tds_to_change(club: Club) -> None:
    await running_tournament(club)
    shown = await club.ok("alice", "tournament rules")
    assert shown.ephemeral and shown.text.startswith("**Club Night**: running")
    refused = await club.refused("alice", "tournament rules", {"profile": "fide"})
    assert refused.text.startswith("Only a tournament director can change the tiebreak rules: ")
    changed = await club.ok("td", "tournament rules", {"profile": "fide"})
    assert not changed.ephemeral and "now" in changed.text


async def test_the_tournament_option_offers_the_commands_stages_first(club: Club) -> None:
    for name, status in (
        ("Autumn Open", TournamentStatus.FINISHED),
        ("Summer Open", TournamentStatus.RUNNING),
        ("Winter Open", TournamentStatus.REGISTERING),
    ):
        await club.store.create_tournament(club.guild, name, rounds=3, actor=TD)
        if status is not TournamentStatus.REGISTERING:
            await club.store.set_status(club.guild, name, TournamentStatus.RUNNING, TD)
        if status is TournamentStatus.FINISHED:
            await club.store.set_status(club.guild, name, status, TD)

    async def offered(command: str, typed: str = "open") -> list[str]:
        return [c["name"] for c in await club.choices("td", command, "tournament", typed)]

    running_first = ["Summer Open (running)", "Winter Open (registering)", "Autumn Open (finished)"]
    assert await offered("standings") == running_first
    assert await offered("tournament finish") == running_first
    registering_first = [
        "Winter Open (registering)",
        "Summer Open (running)",
        "Autumn Open (finished)",
    ]
    assert await offered("tournament start") == registering_first
    assert await offered("join") == registering_first
    assert await offered("report", "UMN") == ["Autumn Open (finished)"]
    assert await offered("report", "winter") == ["Winter Open (registering)"]


async def test_a_left_out_tournament_is_the_one_in_the_stage_the_command_looks_at(
    club: Club,
) -> None:
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Blitz", "rounds": 3})
    refused = await club.refused("alice", "report", {"round": 1, "result": "win"})
    assert refused.text == (
        "There is no running tournament here: name one with the tournament option "
        "(/tournament list shows them all)."
    )
    joined = await club.ok("alice", "join")
    assert "joined **Blitz**" in joined.text
    await club.ok("bob", "join")
    # Players are offered from the tournament the command would use: /why reads the
    # registering Blitz, /report only a running tournament (there is none).
    assert [c["value"] for c in await club.choices("alice", "why", "player")] == ["#1", "#2"]
    assert await club.choices("alice", "report", "opponent") == []
    started = await club.ok("td", "tournament start")
    assert "**Blitz** has started" in started.text
    await club.ok("td", "tournament create", {"name": "Rapid", "rounds": 3})
    assert "joined **Rapid**" in (await club.ok("carol", "join")).text
    info = await club.ok("carol", "tournament info")
    assert info.embeds[0]["title"].startswith("Blitz")

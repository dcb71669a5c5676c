"""Running tournaments: ``/tournament create|list|info|start|finish|import|export`` and
``/config td-role``, as the club's members, TDs and managers use them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.support import TD_ROLE, Club, appoint_tds, running_tournament
from tests.fakes.discord_api import CommandUnavailable, Upload

CLUB_SWISS = Path(__file__).parents[2] / "core" / "examples" / "club-swiss.trf"


async def test_a_member_cannot_create_a_tournament(club: Club) -> None:
    error = await club.refused("alice", "tournament create", {"name": "Alice Open", "rounds": 3})
    assert "Only a tournament director can create a tournament" in error.text
    assert "Manage Server" in error.text
    assert await club.store.tournaments(str(club.fake.guild.id)) == []


async def test_a_server_manager_counts_as_td_without_any_role_set(club: Club) -> None:
    reply = await club.ok("manager", "tournament create", {"name": "Spring Open", "rounds": 5})
    assert not reply.ephemeral
    assert "Spring Open" in reply.text and "registering players · 5 rounds · uscf" in reply.text
    assert "/join" in reply.text


async def test_the_td_role_holder_is_a_td_once_the_role_is_configured(club: Club) -> None:
    refused = await club.refused("td", "tournament create", {"name": "Spring Open", "rounds": 5})
    assert "a TD role" in refused.text and "/config td-role" in refused.text
    await appoint_tds(club)
    reply = await club.ok("td", "tournament create", {"name": "Spring Open", "rounds": 5})
    assert "Spring Open" in reply.text


async def test_config_td_role_is_for_server_managers_only(club: Club) -> None:
    with pytest.raises(CommandUnavailable):
        await club.run("alice", "config td-role", {"role": club.fake.role(TD_ROLE)})
    reply = await club.ok("manager", "config td-role", {"role": club.fake.role(TD_ROLE)})
    assert reply.ephemeral
    assert f"<@&{club.fake.role(TD_ROLE).id}>" in reply.text
    assert await club.store.td_role(str(club.fake.guild.id)) == str(club.fake.role(TD_ROLE).id)
    shown = await club.ok("manager", "config td-role")
    assert f"The TD role is <@&{club.fake.role(TD_ROLE).id}>" in shown.text
    cleared = await club.ok("manager", "config td-role", {"clear": True})
    assert "cleared" in cleared.text
    assert await club.store.td_role(str(club.fake.guild.id)) is None


async def test_everyone_cannot_be_the_td_role(club: Club) -> None:
    error = await club.refused("owner", "config td-role", {"role": club.fake.guild.everyone})
    assert "@everyone cannot be the TD role" in error.text


async def test_a_tournament_name_is_unique_in_the_server(club: Club) -> None:
    await club.ok("manager", "tournament create", {"name": "Spring Open", "rounds": 5})
    error = await club.refused(
        "manager", "tournament create", {"name": "spring  open", "rounds": 3}
    )
    assert error.text == "There is already a tournament called 'Spring Open' here."


async def test_an_unknown_tiebreak_code_is_refused_with_the_known_ones(club: Club) -> None:
    error = await club.refused(
        "manager", "tournament create", {"name": "Spring Open", "rounds": 5, "tiebreaks": "MM,XYZ"}
    )
    assert "'XYZ'" in error.text and "SOLK" in error.text


async def test_list_and_info_show_stage_rules_and_players(club: Club) -> None:
    await running_tournament(club, "Club Night", rounds=4)
    await club.ok(
        "td", "tournament create", {"name": "Summer Rapid", "rounds": 7, "profile": "fide-2024"}
    )
    listing = await club.ok("erin", "tournament list")
    assert listing.ephemeral
    assert "**Summer Rapid** — registering players · 7 rounds · fide-2024" in listing.text
    assert "**Club Night** — running · 4 rounds · uscf" in listing.text
    assert listing.text.index("Summer Rapid") < listing.text.index("Club Night")
    info = await club.ok("erin", "tournament info")  # the running one by default
    assert info.embeds[0]["title"] == "Club Night"
    fields = {f["name"]: f["value"] for f in info.embeds[0]["fields"]}
    assert fields["Rounds with results"] == "0 of 4"
    assert fields["Players"] == "4"
    assert fields["Starting list"].splitlines()[0] == f"#1 Alice <@{club.member('alice').id}>"


async def test_start_and_finish_move_the_tournament_through_its_stages(club: Club) -> None:
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": "Club Night", "rounds": 3})
    early = await club.refused("alice", "report", {"round": 1, "opponent": "#2", "result": "win"})
    assert "no running tournament" in early.text
    started = await club.ok("td", "tournament start")  # the one registering players
    assert "has started" in started.text and not started.ephemeral
    again = await club.refused("td", "tournament start", {"tournament": "Club Night"})
    assert again.text == "Club Night is already running."
    finished = await club.ok("td", "tournament finish")
    assert "is finished" in finished.text
    info = await club.store.tournament(str(club.fake.guild.id), "Club Night")
    assert info.status.value == "finished"


async def test_a_member_cannot_start_or_finish(club: Club) -> None:
    await running_tournament(club)
    error = await club.refused("bob", "tournament finish")
    assert "Only a tournament director can finish a tournament" in error.text


async def test_when_two_tournaments_run_the_member_must_choose(club: Club) -> None:
    await running_tournament(club, "Club Night")
    await club.ok("td", "tournament create", {"name": "Blitz", "rounds": 3})
    await club.ok("td", "tournament start", {"tournament": "Blitz"})
    error = await club.refused("alice", "standings")
    assert "there are 2 running tournaments here" in error.text.lower()
    assert "Blitz" in error.text and "Club Night" in error.text


async def test_a_td_imports_a_trf_file_and_everyone_can_read_it(club: Club) -> None:
    await appoint_tds(club)
    upload = Upload("club-swiss.trf", CLUB_SWISS.read_bytes(), "text/plain")
    reply = await club.ok("td", "tournament import", {"file": upload, "name": "Autumn Swiss"})
    assert "Imported **Autumn Swiss** from `club-swiss.trf`: 12 players, 5 rounds" in reply.text
    standings = await club.ok("alice", "standings", {"tournament": "Autumn Swiss"})
    assert "Chen, Wei" in standings.text


async def test_a_broken_file_is_refused_with_where_it_is_wrong(club: Club) -> None:
    await appoint_tds(club)
    upload = Upload("broken.txt", b"#  Name  Rd 1\n1  Ann  W7\n2  Bob  L1\n", "text/plain")
    error = await club.refused("td", "tournament import", {"file": upload, "name": "Broken"})
    assert error.text.startswith("broken.txt cannot be imported:\n")
    assert await club.store.tournaments(str(club.fake.guild.id)) == []


async def test_a_member_cannot_import(club: Club) -> None:
    upload = Upload("club-swiss.trf", CLUB_SWISS.read_bytes(), "text/plain")
    error = await club.refused("alice", "tournament import", {"file": upload, "name": "Mine"})
    assert "Only a tournament director can import a tournament" in error.text


async def test_export_attaches_trf_and_crosstable_files(club: Club) -> None:
    await appoint_tds(club)
    upload = Upload("club-swiss.trf", CLUB_SWISS.read_bytes(), "text/plain")
    await club.ok("td", "tournament import", {"file": upload, "name": "Autumn Swiss"})
    reply = await club.ok("bob", "tournament export", {"tournament": "Autumn Swiss"})
    assert reply.ephemeral
    assert [a.filename for a in reply.attachments] == [
        "autumn-swiss.trf",
        "autumn-swiss-crosstable.txt",
    ]
    trf = reply.attachment("autumn-swiss.trf").text()
    assert sum(line.startswith("001") for line in trf.splitlines()) == 12
    assert "Alvarez, Maria" in reply.attachment("autumn-swiss-crosstable.txt").text()


async def test_an_unknown_tournament_is_named_in_the_error(club: Club) -> None:
    error = await club.refused("alice", "tournament info", {"tournament": "Winter Open"})
    assert "Winter Open" in error.text


async def test_with_no_tournament_at_all_members_are_told_how_one_starts(club: Club) -> None:
    error = await club.refused("alice", "standings")
    assert error.text == (
        "There is no tournament here yet: a TD creates one with /tournament create."
    )


async def test_an_import_answer_names_the_players_whose_points_column_disagrees(
    club: Club,
) -> None:
    await appoint_tds(club)
    trf = (
        "012 Points\nXXR 1\n"
        "001    1      *Ann*                                                              2.0    1"
        "     2 w 1\n"
        "001    2      Bob                                                                0.0    2"
        "     1 b 0\n"
    )
    upload = Upload("points.trf", trf.encode(), "text/plain")
    reply = await club.ok("td", "tournament import", {"file": upload, "name": "Points"})
    lines = reply.text.splitlines()
    assert lines[0].startswith("📥 Imported **Points** from `points.trf`: 2 players, 1 rounds")
    assert lines[2] == (
        "⚠️ points.trf:3:81 player 1: \\*Ann\\*: the points column says 2.0, the results add "
        "up to 1; the results are used"
    )


async def test_an_import_keeps_a_double_forfeit(club: Club) -> None:
    await appoint_tds(club)
    trf = (
        "XXR 1\n"
        "001    1      Ann                                                                0.0    1"
        "     2 w -\n"
        "001    2      Bob                                                                0.0    2"
        "     1 b -\n"
    )
    upload = Upload("double.trf", trf.encode(), "text/plain")
    reply = await club.ok("td", "tournament import", {"file": upload, "name": "Double"})
    assert "⚠️" not in reply.text
    state = await club.store.state(str(club.fake.guild.id), "Double")
    assert [str(p.entries[0]) for p in state.tournament] == ["F2", "F1"]

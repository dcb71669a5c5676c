"""The command tree Harkness registers with Discord: names, options, descriptions,
default permissions, and where they are registered."""

from __future__ import annotations

from typing import Any

from tests.bot.support import Club
from tests.fakes.discord_api import Permission

TOP_LEVEL = {
    "tournament",
    "config",
    "join",
    "player",
    "report",
    "result",
    "standings",
    "crosstable",
    "why",
    "tiebreaks",
    "round",
    "bye",
    "prizes",
    "awards",
}
SUBCOMMANDS = {
    "tournament": {
        "create",
        "list",
        "info",
        "start",
        "finish",
        "import",
        "rules",
        "export",
        "link-sheet",
        "unlink-sheet",
    },
    "config": {"td-role"},
    "player": {"add", "withdraw", "link"},
    "result": {"set", "bye", "undo", "open", "history"},
    "round": {"preview", "pair", "swap", "show", "avoid", "accelerate"},
    "bye": {"request"},
    "prizes": {"load", "add", "remove", "options", "player", "list"},
}


def _options(command: dict[str, Any], sub: str | None = None) -> dict[str, dict[str, Any]]:
    options = command.get("options") or []
    if sub is not None:
        options = next(o for o in options if o["name"] == sub).get("options") or []
    return {o["name"]: o for o in options}


def _walk(command: dict[str, Any]) -> list[dict[str, Any]]:
    found = [command]
    for option in command.get("options") or []:
        found += _walk(option)
    return found


async def test_the_commands_are_synced_to_the_dev_guild_and_not_globally(club: Club) -> None:
    guild_commands = club.fake.registered_commands(club.fake.guild)
    assert {c["name"] for c in guild_commands} == TOP_LEVEL
    assert club.fake.registered_commands(None) == []
    for name, subs in SUBCOMMANDS.items():
        command = club.fake.registered_command(name, club.fake.guild)
        assert set(_options(command)) == subs, name


async def test_every_command_option_and_choice_is_described(club: Club) -> None:
    for command in club.fake.registered_commands(club.fake.guild):
        for item in _walk(command):
            assert item.get("description"), f"{item['name']} in /{command['name']}"
            assert len(item["description"]) <= 100


async def test_only_config_is_hidden_from_members_by_default(club: Club) -> None:
    by_name = {c["name"]: c for c in club.fake.registered_commands(club.fake.guild)}
    assert int(by_name["config"]["default_member_permissions"]) == Permission.MANAGE_GUILD
    for name, command in by_name.items():
        if name != "config":
            # TD commands stay visible: the TD role is Harkness's own, checked by the bot.
            assert command.get("default_member_permissions") is None, name


async def test_every_command_is_for_servers_only(club: Club) -> None:
    # Discord keeps no contexts for guild commands, so look at what the bot asked for: it
    # matters when the same tree is synced globally in production.
    sent = club.fake.command_syncs[-1].json
    assert {c["name"] for c in sent} == TOP_LEVEL
    for command in sent:
        assert command["dm_permission"] is False and command["contexts"] == [0], command["name"]


async def test_report_takes_round_result_and_optional_opponent_and_colour(club: Club) -> None:
    # The opponent and colour default to the published board.
    report = _options(club.fake.registered_command("report", club.fake.guild))
    assert list(report) == ["round", "result", "opponent", "colour", "tournament"]
    assert [report[n]["required"] for n in report] == [True, True, False, False, False]
    assert report["round"]["min_value"] == 1
    assert report["opponent"]["autocomplete"] is True
    assert [c["value"] for c in report["result"]["choices"]] == [
        "win",
        "draw",
        "loss",
        "forfeit win",
        "forfeit loss",
    ]
    assert [c["value"] for c in report["colour"]["choices"]] == ["white", "black"]
    assert report["tournament"]["autocomplete"] is True


async def test_standings_why_and_import_options(club: Club) -> None:
    standings = _options(club.fake.registered_command("standings", club.fake.guild))
    assert set(standings) == {"tournament", "after_round", "theme"}
    assert [c["value"] for c in standings["theme"]["choices"]] == ["dark", "light"]
    assert not any(o.get("required") for o in standings.values())
    why = _options(club.fake.registered_command("why", club.fake.guild))
    assert set(why) == {"player", "tournament", "after_round", "theme"}
    assert why["player"]["autocomplete"] is True
    imported = _options(club.fake.registered_command("tournament", club.fake.guild), "import")
    assert imported["file"]["type"] == 11  # ATTACHMENT
    assert imported["file"]["required"] and imported["name"]["required"]
    td_role = _options(club.fake.registered_command("config", club.fake.guild), "td-role")
    assert td_role["role"]["type"] == 8  # ROLE


async def test_a_restart_syncs_the_same_tree_again(club: Club) -> None:
    before = {c["name"]: c["id"] for c in club.fake.registered_commands(club.fake.guild)}
    await club.restart()
    after = {c["name"]: c["id"] for c in club.fake.registered_commands(club.fake.guild)}
    assert after.keys() == before.keys()
    assert len(club.fake.command_syncs) == 2


async def test_prizes_add_takes_a_prize_as_a_prizes_tab_row(club: Club) -> None:
    """/prizes add's options are the columns of a sheet's Prizes tab (one way to type a
    prize), kind a choice, every cash amount text (exact, as typed)."""
    add = _options(club.fake.registered_command("prizes", club.fake.guild), "add")
    assert list(add) == [
        "name",
        "kind",
        "value",
        "amount",
        "trophy",
        "rank",
        "additive",
        "team",
        "tournament",
    ]
    assert [c["value"] for c in add["kind"]["choices"]] == [
        "place",
        "class",
        "under",
        "unrated",
        "category",
    ]
    assert add["amount"]["type"] == 3  # a string: never a float

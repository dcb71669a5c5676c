"""The fake Discord, proved with a tiny real discord.py bot defined here.

The bot ("Harkness-lite") logs in, syncs its commands globally and to the club's guild,
and answers every kind of interaction: replies (public and ephemeral), a subcommand group
with a member option, autocomplete, a deferred command completed by a follow-up with an
attachment, an edit of the original response, buttons, a modal, an uploaded file. Its
``/misbehave`` commands break one Discord rule each, and the fake must catch every one.
"""

from __future__ import annotations

import asyncio
import csv
import io
import time
from typing import TYPE_CHECKING, Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakes.discord_api import (
    CallbackType,
    CommandUnavailable,
    DiscordFake,
    DiscordLimitError,
    FakeUsageError,
    MessageFlag,
    Permission,
    Upload,
    ViolationKind,
    apply_discord_endpoints,
    current_discord_endpoints,
    discord_endpoints,
    endpoints_from_env,
    running_bot,
)
from tests.fakes.discord_fake.limits import (
    autocomplete_problems,
    command_list_problems,
    component_problems,
    message_problems,
    modal_problems,
)

if TYPE_CHECKING:
    from tests.fakes.discord_fixtures import BotRunner

pytest_plugins = ["tests.fakes.discord_fixtures"]

TOURNAMENTS = [f"Spring Open {year}" for year in range(2000, 2030)] + ["Summer Rapid"]


class DisputeModal(discord.ui.Modal, title="Dispute the result"):
    """The opponent says why the reported result is wrong."""

    reason: discord.ui.TextInput[DisputeModal] = discord.ui.TextInput(
        label="Reason", max_length=200
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"Dispute noted: {self.reason.value}", ephemeral=True
        )


class ConfirmView(discord.ui.View):
    """Confirm / Dispute buttons under a reported result."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success, custom_id="confirm")
    async def confirm(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[ConfirmView]
    ) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} confirmed the result.", view=None
        )

    @discord.ui.button(label="Dispute", style=discord.ButtonStyle.danger, custom_id="dispute")
    async def dispute(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[ConfirmView]
    ) -> None:
        await interaction.response.send_modal(DisputeModal())


class SixRowsView(discord.ui.View):
    """A hand-built component payload with one action row too many."""

    def to_components(self) -> list[dict[str, Any]]:
        return [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": f"{i}", "custom_id": f"row{i}"}],
            }
            for i in range(6)
        ]


class RoundView(discord.ui.View):
    """A select menu of rounds."""

    @discord.ui.select(
        custom_id="round",
        placeholder="Round",
        options=[discord.SelectOption(label=f"Round {n}", value=str(n)) for n in (1, 2, 3)],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[RoundView]
    ) -> None:
        await interaction.response.edit_message(content=f"Round {select.values[0]}", view=None)


class LiteBot(commands.Bot):
    """A tiny Harkness-like bot; ``errors`` collects what Discord (the fake) refused."""

    def __init__(self, guild_id: int, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            help_command=None,
        )
        self.guild_id = guild_id
        self.errors: list[BaseException] = []
        self.tree.on_error = self.record_error  # type: ignore[method-assign]
        add_commands(self)

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        await self.tree.sync()

    async def record_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        self.errors.append(getattr(error, "original", error))


def add_commands(bot: LiteBot) -> None:
    """The bot's commands: one of each kind of interaction, then the misbehaving ones."""
    tree = bot.tree

    @tree.command(name="echo", description="Repeat your words")
    @app_commands.describe(words="What to repeat", secret="Only you see the answer")
    async def echo(interaction: discord.Interaction[Any], words: str, secret: bool = False) -> None:
        await interaction.response.send_message(words, ephemeral=secret)

    async def tournament_names(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        found = [t for t in TOURNAMENTS if current.lower() in t.lower()]
        return [app_commands.Choice(name=t, value=t) for t in found[:25]]

    tournament = app_commands.Group(name="tournament", description="Run tournaments")
    player = app_commands.Group(
        name="player", description="Players of a tournament", parent=tournament
    )

    @tournament.command(name="create", description="Create a tournament")
    @app_commands.describe(name="Name of the event", rounds="Number of rounds")
    async def create(
        interaction: discord.Interaction[Any],
        name: str,
        rounds: app_commands.Range[int, 1, 15] = 5,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed = discord.Embed(title=name, description=f"{rounds} rounds, Swiss")
        await interaction.edit_original_response(embed=embed)

    @player.command(name="add", description="Add a player to a tournament")
    @app_commands.describe(tournament="The event", who="The member to add", rating="Their rating")
    @app_commands.autocomplete(tournament=tournament_names)
    async def add(
        interaction: discord.Interaction[Any],
        tournament: str,
        who: discord.Member,
        rating: int | None = None,
    ) -> None:
        embed = discord.Embed(title=f"Players of {tournament}")
        embed.add_field(name=who.display_name, value=str(rating or "unrated"))
        await interaction.response.send_message(embed=embed)

    @tournament.command(name="import", description="Import a TRF file")
    async def import_(interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
        lines = (await file.read()).decode().splitlines()
        await interaction.response.send_message(f"{file.filename}: {len(lines)} lines")

    tree.add_command(tournament)

    @tree.command(name="standings", description="Standings of a tournament")
    @app_commands.autocomplete(tournament=tournament_names)
    async def standings(interaction: discord.Interaction[Any], tournament: str) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)  # "the database"
        table = io.StringIO()
        csv.writer(table).writerows([["rank", "player", "points"], [1, "Alice", 2.5]])
        embed = discord.Embed(title=f"Standings: {tournament}", description="1. Alice 2½")
        file = discord.File(io.BytesIO(table.getvalue().encode()), filename="standings.csv")
        await interaction.followup.send(embed=embed, file=file)
        await interaction.followup.send("Provisional results are marked *", ephemeral=True)

    @tree.command(name="report", description="Report your game")
    async def report(interaction: discord.Interaction[Any], opponent: discord.Member) -> None:
        await interaction.response.send_message(
            f"{interaction.user.display_name} reports 1-0 against {opponent.mention}",
            view=ConfirmView(),
        )

    @tree.command(name="config", description="Configure the bot")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def config(interaction: discord.Interaction[Any], td_role: discord.Role) -> None:
        await interaction.response.send_message(f"TD role: {td_role.name}", ephemeral=True)

    @tree.command(name="clock", description="Start a game clock")
    async def clock(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Clock starts in 3…")
        await interaction.edit_original_response(content="Clock running")
        flag = await interaction.followup.send("Flag fell!", wait=True)
        await flag.edit(content="Flag fell on move 40")
        await flag.delete()

    @tree.command(name="round", description="Pick a round")
    async def round_(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Which round?", view=RoundView())

    @tree.command(name="notify", description="Ask your opponent to confirm, by DM")
    @app_commands.guild_only()
    async def notify(interaction: discord.Interaction[Any], opponent: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True)
        who = interaction.user.display_name
        await opponent.send(f"{who} reported a game against you.", view=ConfirmView())
        assert interaction.guild is not None
        results = discord.utils.get(interaction.guild.text_channels, name="results")
        assert results is not None
        await results.send(f"{who} reported a game; waiting for {opponent.display_name}.")
        await interaction.followup.send("Your opponent was asked to confirm.")

    misbehave = app_commands.Group(name="misbehave", description="Break one Discord rule")

    @misbehave.command(name="long-content", description="2,001 characters")
    async def long_content(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("♞" * 2001)

    @misbehave.command(name="many-fields", description="An embed with 26 fields")
    async def many_fields(interaction: discord.Interaction[Any]) -> None:
        embed = discord.Embed(title="Crosstable")
        for i in range(26):
            embed.add_field(name=f"Player {i + 1}", value="½ 1 0")
        await interaction.response.send_message(embed=embed)

    @misbehave.command(name="six-rows", description="Six rows of buttons")
    async def six_rows(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Pick a round", view=SixRowsView())

    async def every_tournament(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=t, value=t) for t in TOURNAMENTS[:26]]

    @misbehave.command(name="choices", description="26 autocomplete choices")
    @app_commands.autocomplete(tournament=every_tournament)
    async def choices(interaction: discord.Interaction[Any], tournament: str) -> None:
        await interaction.response.send_message(tournament)

    @misbehave.command(name="late", description="Answer after 3 seconds")
    async def late(interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(3.2)
        await interaction.response.send_message("Standings are ready")

    @misbehave.command(name="twice", description="Answer twice, as two bot processes would")
    async def twice(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("first")
        route = discord.http.Route(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            interaction_id=interaction.id,
            token=interaction.token,
        )
        await interaction.client.http.request(
            route, json={"type": 4, "data": {"content": "second"}}
        )

    @misbehave.command(name="early-followup", description="Follow up before answering")
    async def early_followup(interaction: discord.Interaction[Any]) -> None:
        await interaction.followup.send("too early")

    tree.add_command(misbehave)


@pytest.fixture
async def bot(discord_fake: DiscordFake, run_bot: BotRunner) -> LiteBot:
    """Harkness-lite, logged in to the fake and ready."""
    lite = LiteBot(discord_fake.guild.id)
    await run_bot(lite)
    return lite


# --------------------------------------------------------------------------- login


async def test_bot_logs_in_identifies_and_receives_the_chess_club(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    assert bot.user is not None and bot.user.id == discord_fake.application_id
    assert [r.path for r in discord_fake.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]
    guild = bot.get_guild(discord_fake.guild.id)
    assert guild is not None and guild.name == "Harkness Chess Club"
    assert {"general", "results", "td-desk"} <= {c.name for c in guild.text_channels}
    assert "Tournament Director" in {r.name for r in guild.roles}
    assert discord_fake.gateway.identifies == 1
    session = discord_fake.gateway.session
    assert session is not None and session.connection is not None
    assert session.connection.heartbeats >= 1  # discord.py beats right after HELLO
    assert session.connection.compressed  # zlib-stream, as discord.py asks
    assert session.intents == discord.Intents.default().value


async def test_a_wrong_token_is_refused_at_login(discord_fake: DiscordFake) -> None:
    with pytest.raises(discord.LoginFailure):
        async with running_bot(discord_fake, LiteBot(discord_fake.guild.id), token="stolen"):
            pass
    assert discord_fake.requests[0].status == 401
    assert discord_fake.gateway.identifies == 0


async def test_the_endpoints_come_from_the_environment(
    discord_fake: DiscordFake, discord_env: dict[str, str]
) -> None:
    assert endpoints_from_env() == (discord_fake.api_base, discord_fake.gateway_url)
    lite = LiteBot(discord_fake.guild.id)
    with discord_endpoints(*current_discord_endpoints()):  # restores them afterwards
        apply_discord_endpoints(*endpoints_from_env())  # what the production bot does
        async with running_bot(discord_fake, lite, configure_endpoints=False):
            record = await discord_fake.command(
                discord_fake.member("erin"), "echo", {"words": "hi"}
            )
            assert (await record.reply()).content == "hi"
    assert discord_fake.gateway.identifies == 1


async def test_gateway_resume_replays_missed_events_and_interactions_keep_flowing(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    session = discord_fake.gateway.session
    assert session is not None
    await discord_fake.gateway.drop()  # code 4000: discord.py reconnects and RESUMEs
    arbiter = discord_fake.add_role("Arbiter")  # dispatched while the bot is away
    await discord_fake.wait_for(
        lambda: True if session.resumes == 1 and session.connected else None, 10, "a RESUME"
    )
    guild = bot.get_guild(discord_fake.guild.id)
    assert guild is not None
    await discord_fake.wait_for(lambda: guild.get_role(arbiter.id), 5, "the replayed role")
    await discord_fake.gateway_reconnect()  # op 7
    assert (session.resumes, discord_fake.gateway.identifies) == (2, 1)
    record = await discord_fake.command(
        discord_fake.member("alice"), "echo", {"words": "still here"}
    )
    assert (await record.reply()).content == "still here"


# --------------------------------------------------------------------------- command sync


async def test_command_sync_records_names_options_descriptions_and_permissions(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    global_names = {c["name"] for c in discord_fake.registered_commands()}
    guild_names = {c["name"] for c in discord_fake.registered_commands(discord_fake.guild)}
    assert global_names == guild_names == {
        "echo", "tournament", "standings", "report", "config", "clock", "round", "notify",
        "misbehave",
    }  # fmt: skip
    tournament = discord_fake.registered_command("tournament", discord_fake.guild)
    assert tournament["guild_id"] == str(discord_fake.guild.id)
    by_name = {o["name"]: o for o in tournament["options"]}
    assert by_name["player"]["type"] == 2  # a subcommand group
    add = by_name["player"]["options"][0]
    assert (add["name"], add["description"]) == ("add", "Add a player to a tournament")
    options = {o["name"]: o for o in add["options"]}
    assert options["tournament"]["autocomplete"] is True
    assert (options["who"]["type"], options["who"]["required"]) == (6, True)
    assert (options["rating"]["type"], options["rating"]["required"]) == (4, False)
    create = by_name["create"]["options"]
    assert create[1] == {
        "type": 4,
        "name": "rounds",
        "description": "Number of rounds",
        "required": False,
        "min_value": 1,
        "max_value": 15,
    }
    config = discord_fake.registered_command("config")
    assert config["default_member_permissions"] == str(int(Permission.MANAGE_GUILD))
    assert config["contexts"] == [0]
    assert discord_fake.registered_command("echo")["default_member_permissions"] is None
    assert len(discord_fake.command_syncs) == 2


async def test_invalid_command_definitions_are_refused_at_sync(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    bad = [
        {"name": "Standings", "description": "Upper-case name", "type": 1},
        {"name": "why", "description": "", "type": 1},  # the description allows "", the docs not
    ]
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.bulk_upsert_global_commands(discord_fake.application_id, bad)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "0.name" in str(refused.value) and "1.description" in str(refused.value)
    assert "standings" in {c["name"] for c in discord_fake.registered_commands()}  # unchanged
    with pytest.raises(DiscordLimitError) as caught:
        discord_fake.assert_clean()
    assert caught.value.kinds == {ViolationKind.COMMAND_SYNC}


# --------------------------------------------------------------------------- interactions


async def test_a_slash_command_reply_is_recorded_public_or_ephemeral(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    alice = discord_fake.member("alice")
    public = await discord_fake.command(alice, "echo", {"words": "Good game!"})
    secret = await discord_fake.command(alice, "echo", {"words": "I resign", "secret": True})
    first = await public.response()
    assert first.kind is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE and first.elapsed < 3
    reply = await public.reply()
    assert (reply.content, reply.ephemeral, reply.author) == (
        "Good game!",
        False,
        discord_fake.bot_user,
    )
    assert reply.channel_id == discord_fake.channel("general").id
    assert (await secret.reply()).ephemeral
    assert [m.content for m in discord_fake.messages_in(discord_fake.channel("general"))] == [
        "Good game!"
    ]


async def test_subcommand_group_sends_options_and_resolved_member(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    bob = discord_fake.member("bob")
    record = await discord_fake.command(
        discord_fake.member("td"),
        "tournament player add",
        {"tournament": "Summer Rapid", "who": bob, "rating": 1840},
    )
    group = record.payload["data"]["options"][0]
    assert (group["name"], group["options"][0]["name"]) == ("player", "add")
    assert record.payload["data"]["resolved"]["members"][str(bob.id)]["roles"] == []
    reply = await record.reply()
    assert reply.embeds[0]["title"] == "Players of Summer Rapid"
    assert reply.embeds[0]["fields"][0] == {"name": "Bob", "value": "1840", "inline": True}


async def test_the_client_refuses_what_discord_would_not_send(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    td = discord_fake.member("td")
    with pytest.raises(FakeUsageError, match=r"within 1\.\.15"):
        await discord_fake.command(td, "tournament create", {"name": "Blitz", "rounds": 16})
    with pytest.raises(FakeUsageError, match="without"):
        await discord_fake.command(td, "tournament player add", {"tournament": "Summer Rapid"})
    with pytest.raises(FakeUsageError, match="needs a subcommand"):
        await discord_fake.command(td, "tournament")
    with pytest.raises(CommandUnavailable, match="not registered"):
        await discord_fake.command(td, "crosstable")


async def test_autocomplete_offers_choices_for_the_focused_option(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.autocomplete(
        discord_fake.member("alice"), "tournament player add", "tournament", "rapid"
    )
    focused = record.payload["data"]["options"][0]["options"][0]["options"][0]
    assert focused == {"type": 3, "name": "tournament", "value": "rapid", "focused": True}
    assert await record.choices() == [{"name": "Summer Rapid", "value": "Summer Rapid"}]


async def test_a_deferred_command_is_completed_by_its_first_follow_up_with_a_file(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(
        discord_fake.member("carol"), "standings", {"tournament": "Summer Rapid"}
    )
    assert (await record.response()).kind is CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    reply = await record.reply()  # Discord turns the first follow-up into the edit
    assert reply is record.original and not reply.loading and not reply.ephemeral
    assert reply.embeds[0]["title"] == "Standings: Summer Rapid"
    table = reply.attachment("standings.csv")
    assert table.content_type == "text/csv"
    assert list(csv.reader(io.StringIO(table.text()))) == [
        ["rank", "player", "points"],
        ["1", "Alice", "2.5"],
    ]
    note = await record.followup(0)
    assert (note.content, note.ephemeral) == ("Provisional results are marked *", True)
    sent = [r for r in discord_fake.requests if r.path.startswith("/webhooks/")]
    assert sent[0].files[0].filename == "standings.csv"
    assert sent[0].json["attachments"] == [{"id": 0, "filename": "standings.csv"}]


async def test_an_ephemeral_deferral_is_completed_by_editing_the_original(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(
        discord_fake.member("td"), "tournament create", {"name": "Autumn Swiss", "rounds": 7}
    )
    first = await record.response()
    assert first.data == {"flags": int(MessageFlag.EPHEMERAL)}
    reply = await record.reply()
    assert reply.ephemeral and reply.embeds[0]["description"] == "7 rounds, Swiss"
    assert record.original_edits == 1 and reply.history[0]["flags"] & MessageFlag.LOADING


async def test_buttons_update_their_message_and_disappear_once_used(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    alice, bob = discord_fake.member("alice"), discord_fake.member("bob")
    report = await discord_fake.command(alice, "report", {"opponent": bob})
    message = await report.reply()
    assert [b["label"] for b in message.buttons()] == ["Confirm", "Dispute"]
    click = await discord_fake.click(bob, message, "Confirm")
    assert click.payload["message"]["id"] == str(message.id)
    assert (await click.response()).kind is CallbackType.UPDATE_MESSAGE
    assert (await click.reply()).content == "Bob confirmed the result."
    assert message.components == [] and len(message.history) == 1
    with pytest.raises(FakeUsageError, match="no button"):
        await discord_fake.click(alice, message, "Confirm")


async def test_a_button_can_open_a_modal_whose_submission_reaches_the_bot(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    alice, bob = discord_fake.member("alice"), discord_fake.member("bob")
    message = await (await discord_fake.command(alice, "report", {"opponent": bob})).reply()
    dispute = await discord_fake.click(bob, message, "Dispute")
    modal = await dispute.modal()
    assert modal["title"] == "Dispute the result"
    with pytest.raises(FakeUsageError, match="only bob"):
        await discord_fake.submit_modal(alice, dispute, {"Reason": "I won"})
    with pytest.raises(FakeUsageError, match="required"):
        await discord_fake.submit_modal(bob, dispute, {})
    submitted = await discord_fake.submit_modal(bob, dispute, {"Reason": "I had mate in two"})
    answer = await submitted.reply()
    assert (answer.content, answer.ephemeral) == ("Dispute noted: I had mate in two", True)


async def test_an_uploaded_file_option_is_readable_by_the_bot(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    trf = Upload("club.trf", b"012 Club Swiss\n001    1 m    Alice\n001    2 m    Bob\n")
    record = await discord_fake.command(
        discord_fake.member("td"), "tournament import", {"file": trf}
    )
    assert (await record.reply()).content == "club.trf: 3 lines"
    assert any(r.path.startswith("/attachments/") for r in discord_fake.requests)


async def test_edits_and_deletions_of_responses_are_recorded(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(discord_fake.member("dave"), "clock")
    await discord_fake.wait_for(
        lambda: True if record.followups and record.followups[0].deleted else None,
        5,
        "the flag message to be deleted",
    )
    assert record.original is not None and record.original.content == "Clock running"
    assert [h["content"] for h in record.original.history] == ["Clock starts in 3…"]
    (flag,) = record.followups
    assert flag.content == "Flag fell on move 40" and flag.history[0]["content"] == "Flag fell!"
    assert [(r.method, r.status) for r in discord_fake.requests if "/webhooks/" in r.path] == [
        ("PATCH", 200), ("POST", 200), ("PATCH", 200), ("DELETE", 204),
    ]  # fmt: skip


async def test_a_select_menu_choice_reaches_the_bot(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    erin = discord_fake.member("erin")
    message = await (await discord_fake.command(erin, "round")).reply()
    with pytest.raises(FakeUsageError, match="not all among the options"):
        await discord_fake.select(erin, message, ["4"])
    picked = await discord_fake.select(erin, message, ["2"])
    assert picked.payload["data"] == {"custom_id": "round", "component_type": 3, "values": ["2"]}
    assert (await picked.reply()).content == "Round 2"


async def test_the_bot_can_post_in_channels_and_dms_and_dm_buttons_work(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    alice, bob = discord_fake.member("alice"), discord_fake.member("bob")
    record = await discord_fake.command(alice, "notify", {"opponent": bob})
    reply = await record.reply()
    assert (reply.content, reply.ephemeral) == ("Your opponent was asked to confirm.", True)
    (posted,) = discord_fake.messages_in(discord_fake.channel("results"))
    assert posted.content == "Alice reported a game; waiting for Bob." and posted.via == "channel"
    (dm,) = discord_fake.messages_in(discord_fake.dm_channel(bob))
    assert dm.content == "Alice reported a game against you." and dm.guild_id is None
    with pytest.raises(FakeUsageError, match="not in the DM"):
        await discord_fake.click(alice, dm, "Confirm")
    confirmed = await discord_fake.click(bob, dm, "Confirm")
    assert "member" not in confirmed.payload and confirmed.payload["user"]["username"] == "bob"
    assert (await confirmed.reply()).content == "Bob confirmed the result."


async def test_a_bot_with_the_members_intent_sees_members_and_their_role_changes(
    discord_fake: DiscordFake, run_bot: BotRunner
) -> None:
    intents = discord.Intents.default()
    intents.members = True
    lite = LiteBot(discord_fake.guild.id, intents=intents)
    await run_bot(lite)
    guild = lite.get_guild(discord_fake.guild.id)
    assert guild is not None
    assert {"owner", "td", "manager", "alice", "Harkness"} <= {m.name for m in guild.members}
    assert [m.name for m in await guild.query_members("ali")] == ["alice"]
    assert [f.data["query"] for f in discord_fake.gateway.received if f.op == 8] == ["ali"]

    alice = discord_fake.member("alice")
    arbiter = discord_fake.add_role("Arbiter", Permission.MANAGE_GUILD)
    updated = asyncio.ensure_future(lite.wait_for("member_update", timeout=5))
    discord_fake.set_roles(alice, [arbiter])
    _, after = await updated
    assert [r.name for r in after.roles] == ["@everyone", "Arbiter"]
    role = discord_fake.role("Tournament Director")
    record = await discord_fake.command(alice, "config", {"td_role": role})  # Manage Server now
    assert (await record.reply()).content == "TD role: Tournament Director"


async def test_privileged_intents_the_application_lacks_are_refused() -> None:
    intents = discord.Intents.default()
    intents.members = True
    async with DiscordFake(allowed_privileged_intents=0) as fake:
        with pytest.raises(discord.PrivilegedIntentsRequired):
            async with running_bot(fake, LiteBot(fake.guild.id, intents=intents)):
                pass


async def test_default_member_permissions_hide_a_command_from_members(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    td_role = discord_fake.role("Tournament Director")
    with pytest.raises(CommandUnavailable, match="hidden from alice"):
        await discord_fake.command(discord_fake.member("alice"), "config", {"td_role": td_role})
    record = await discord_fake.command(
        discord_fake.member("manager"), "config", {"td_role": td_role}
    )
    assert (await record.reply()).content == "TD role: Tournament Director"
    stranger = discord_fake.add_user("stranger")
    with pytest.raises(CommandUnavailable, match="DMs"):
        await discord_fake.command(stranger, "config", {"td_role": td_role})
    in_dm = await discord_fake.command(stranger, "echo", {"words": "hello from a DM"})
    assert "user" in in_dm.payload and "member" not in in_dm.payload
    assert (await in_dm.reply()).guild_id is None


async def test_fifty_concurrent_interactions_are_all_answered_once_and_in_time(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    players = [discord_fake.member(n) for n in ("alice", "bob", "carol", "dave", "erin")]
    started = time.monotonic()
    records = await asyncio.gather(
        *(
            discord_fake.command(
                players[i % 5], "standings" if i % 2 else "echo",
                {"tournament": f"Event {i}"} if i % 2 else {"words": f"game {i}"},
            )
            for i in range(50)
        )
    )  # fmt: skip
    replies = await asyncio.gather(*(r.reply(timeout=10) for r in records))
    assert len({r.id for r in records}) == 50
    for i, (record, reply) in enumerate(zip(records, replies, strict=True)):
        assert len(record.callbacks) == 1 and record.callbacks[0].elapsed < 3
        expected = f"Standings: Event {i}" if i % 2 else f"game {i}"
        assert expected in reply.text
    assert time.monotonic() - started < 10


# --------------------------------------------------------------------------- limits


async def test_content_over_2000_characters_fails_the_test(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(discord_fake.member("alice"), "misbehave long-content")
    with pytest.raises(DiscordLimitError, match="2000 or fewer") as caught:
        await record.response()
    (violation,) = caught.value.violations
    assert violation.kind is ViolationKind.INVALID_FORM_BODY
    assert [p.where for p in violation.problems] == ["data.content"]
    assert record.callbacks[0].status == 400 and not record.callbacks[0].accepted
    assert isinstance(bot.errors[-1], discord.HTTPException) and bot.errors[-1].code == 50035


async def test_an_embed_with_26_fields_fails_the_test(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(discord_fake.member("alice"), "misbehave many-fields")
    with pytest.raises(DiscordLimitError) as caught:
        await record.reply()
    assert [p.where for p in caught.value.violations[0].problems] == ["data.embeds.0.fields"]


async def test_six_action_rows_fail_the_test(discord_fake: DiscordFake, bot: LiteBot) -> None:
    record = await discord_fake.command(discord_fake.member("alice"), "misbehave six-rows")
    with pytest.raises(DiscordLimitError, match="5 or fewer"):
        await record.response()


async def test_26_autocomplete_choices_fail_the_test(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.autocomplete(
        discord_fake.member("alice"), "misbehave choices", "tournament", "spring"
    )
    with pytest.raises(DiscordLimitError, match="25 or fewer") as caught:
        await record.choices()
    assert caught.value.violations[0].problems[0].where == "data.choices"


async def test_a_response_after_three_seconds_is_an_unknown_interaction(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(discord_fake.member("alice"), "misbehave late")
    with pytest.raises(DiscordLimitError, match="allows 3s") as caught:
        await record.response()
    assert caught.value.kinds == {ViolationKind.LATE_RESPONSE}
    late = record.callbacks[0]
    assert (late.status, late.accepted) == (404, False) and late.elapsed > 3
    await discord_fake.wait_for(lambda: bot.errors or None, 5, "the bot's error")
    assert isinstance(bot.errors[-1], discord.NotFound) and bot.errors[-1].code == 10062


async def test_a_second_initial_response_is_refused_as_already_acknowledged(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(discord_fake.member("alice"), "misbehave twice")
    await discord_fake.wait_for(lambda: bot.errors or None, 5, "the bot's error")
    assert [c.accepted for c in record.callbacks] == [True, False]
    assert isinstance(bot.errors[-1], discord.HTTPException) and bot.errors[-1].code == 40060
    with pytest.raises(DiscordLimitError) as caught:
        record.raise_for_violations()
    assert caught.value.kinds == {ViolationKind.DOUBLE_RESPONSE}


async def test_a_follow_up_before_any_response_is_an_unknown_webhook(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    record = await discord_fake.command(discord_fake.member("alice"), "misbehave early-followup")
    with pytest.raises(DiscordLimitError) as caught:
        await record.response()
    assert ViolationKind.UNKNOWN_WEBHOOK in caught.value.kinds


async def test_a_route_the_fake_lacks_is_a_violation(
    discord_fake: DiscordFake, bot: LiteBot
) -> None:
    route = discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=discord_fake.guild.id)
    with pytest.raises(discord.NotFound):
        await bot.http.request(route)
    assert [r.path for r in discord_fake.unhandled_requests] == [
        f"/guilds/{discord_fake.guild.id}/bans"
    ]
    with pytest.raises(DiscordLimitError, match="does not implement"):
        discord_fake.assert_clean()


# --------------------------------------------------------------------------- limits, directly


@pytest.mark.parametrize(
    ("message", "where"),
    [
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description"),
        ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, "embeds.0.fields.0.name"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value"),
        ({"embeds": [{"fields": [{"name": "", "value": "v"}]}]}, "embeds.0.fields.0.name"),
        ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embeds.0.footer.text"),
        ({"embeds": [{"author": {"name": "a" * 257}}]}, "embeds.0.author.name"),
        ({"embeds": [{"title": "x"}] * 11}, "embeds"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "embeds"),
        ({"components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": f"{i}", "custom_id": f"b{i}"} for i in range(6)
        ]}]}, "components.0.components"),
        ({"components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "L" * 81, "custom_id": "b"}
        ]}]}, "components.0.components.0.label"),
        ({"components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "a", "custom_id": "same"},
            {"type": 2, "style": 2, "label": "b", "custom_id": "same"},
        ]}]}, "components"),
    ],
)  # fmt: skip
def test_message_limits_name_the_field_that_breaks_them(
    message: dict[str, Any], where: str
) -> None:
    assert where in [p.where for p in message_problems(message)]


def test_the_limits_accept_a_message_exactly_at_every_maximum() -> None:
    fields = [{"name": "n" * 10, "value": "v" * 100} for _ in range(25)]
    embed = {
        "title": "t" * 256,
        "description": "d" * 2000,
        "fields": fields,
        "footer": {"text": "f"},
    }
    assert message_problems({"content": "c" * 2000, "embeds": [embed]}) == []


def test_autocomplete_values_must_match_the_option_type() -> None:
    assert autocomplete_problems({"choices": [{"name": "Round 1", "value": 1}]}, 4) == []
    wrong = autocomplete_problems({"choices": [{"name": "Round 1", "value": "1"}]}, 4)
    assert [p.where for p in wrong] == ["data.choices.0.value"]
    long_value = autocomplete_problems({"choices": [{"name": "n", "value": "v" * 101}]}, 3)
    assert [p.where for p in long_value] == ["data.choices.0.value"]


def test_a_modal_needs_a_short_title_and_one_to_five_inputs() -> None:
    text_input = {"type": 4, "custom_id": "r", "style": 1, "label": "Reason"}
    row = {"type": 1, "components": [text_input]}
    assert modal_problems({"custom_id": "m", "title": "Dispute", "components": [row]}) == []
    too_many = modal_problems({"custom_id": "m", "title": "T" * 46, "components": [row] * 6})
    assert {p.where for p in too_many} == {"data.title", "data.components"}


def test_command_definitions_follow_discords_validation() -> None:
    def command(name: str, **extra: Any) -> dict[str, Any]:
        return {"name": name, "description": "d", "type": 1, **extra}

    assert command_list_problems([command(f"c{i}") for i in range(100)]) == []
    assert [p.code for p in command_list_problems([command(f"c{i}") for i in range(101)])] == [
        "BASE_TYPE_MAX_LENGTH"
    ]
    options = [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]
    assert [p.where for p in command_list_problems([command("why", options=options)])] == [
        "0.options"
    ]
    late_required = [
        {"type": 3, "name": "a", "description": "d"},
        {"type": 3, "name": "b", "description": "d", "required": True},
    ]
    assert [p.where for p in command_list_problems([command("x", options=late_required)])] == [
        "0.options.1.required"
    ]
    assert command_list_problems([command("x" * 33)])[0].where == "0.name"
    assert command_list_problems([command("duplicate"), command("duplicate")])[0].code == (
        "APPLICATION_COMMANDS_DUPLICATE_NAME"
    )


def test_components_v2_allow_forty_components_but_no_more() -> None:
    texts = [{"type": 10, "content": "row"} for _ in range(40)]
    assert component_problems(texts, int(MessageFlag.IS_COMPONENTS_V2)) == []
    assert component_problems([*texts, texts[0]], int(MessageFlag.IS_COMPONENTS_V2)) != []

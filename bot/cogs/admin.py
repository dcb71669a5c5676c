"""Running tournaments (``/tournament …``) and the server's settings (``/config …``).

Creating, starting, finishing, importing and linking to a Google Sheet are for tournament
directors; listing, looking at and exporting a tournament are for everyone. ``/config
td-role`` is for server managers.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import render
from bot.buttons import answer_linking
from bot.checks import actor, guild_of, in_servers, managers_only, td_of, td_only
from bot.cogs.awards import post_awards, prize_file
from bot.cogs.base import HarknessCog
from bot.errors import UserError
from bot.lookup import (
    REGISTERING_HELP,
    REGISTERING_ONLY,
    RUNNING_FIRST,
    RUNNING_HELP,
    RUNNING_ONLY,
    RegisteringOnly,
    RunningFirst,
    RunningOnly,
)
from bot.respond import Interaction, public, reply
from bot.sheetlink import NOT_SET_UP, links_or_refusal
from bot.store import TournamentInfo, TournamentStatus
from core.limits import MAX_FILE_BYTES, shorten
from core.problems import Problem
from core.profiles import OPTION_BY_KEY, PROFILES

#: Largest tournament file the bot reads, checked against Discord's size of the attachment
#: before it is downloaded (a TRF of 1,000 players is about 200 KB).
IMPORT_MAX_BYTES = MAX_FILE_BYTES

PROFILE_CHOICES = [
    app_commands.Choice(name=shorten(f"{name} — {profile.description}", 100), value=name)
    for name, profile in PROFILES.items()
] + [
    app_commands.Choice(name="fide — FIDE C.07, the text in force at the start date", value="fide")
]

#: The profile options as slash-command options: their names and questions are core's.
OPTION_NAMES = {"cumulative_half_bye": "cumulative-half-bye", "unplayed_rule": "unplayed-rule"}
OPTION_HELP = {
    param: shorten(f"{OPTION_BY_KEY[key].on}? (default: the profile's)", 100)
    for param, key in OPTION_NAMES.items()
}


async def profile_autocomplete(
    interaction: discord.Interaction[discord.Client], current: str
) -> list[app_commands.Choice[str]]:
    """The profiles whose choice contains what was typed (``/tournament rules`` offers them
    this way: one more list of choices would pass Discord's size limit of a command)."""
    typed = current.strip().lower()
    return [c for c in PROFILE_CHOICES if typed in c.name.lower()][:25]


def chosen_options(cumulative_half_bye: bool | None, unplayed_rule: bool | None) -> dict[str, bool]:
    """The profile options a TD gave, by core's keys (left out: not in the result)."""
    given = {"cumulative_half_bye": cumulative_half_bye, "unplayed_rule": unplayed_rule}
    return {OPTION_NAMES[p]: on for p, on in given.items() if on is not None}


def changes_rules(options: app_commands.Namespace) -> bool:
    """Whether ``/tournament rules`` was given a change (else it shows the rules)."""
    names = ("profile", "tiebreaks", *OPTION_NAMES.values())
    return any(getattr(options, name, None) is not None for name in names)


class Admin(HarknessCog):
    """``/tournament`` and ``/config``."""

    tournament = app_commands.Group(
        name="tournament",
        description="Create and run tournaments",
        guild_only=True,
        allowed_contexts=in_servers(),
    )
    config = app_commands.Group(
        name="config",
        description="Harkness settings of this server",
        guild_only=True,
        allowed_contexts=in_servers(),
        default_permissions=discord.Permissions(manage_guild=True),
    )

    # -- /tournament --------------------------------------------------------------------

    @tournament.command(name="create", description="Create a tournament (TD)", extras=public())
    @td_only("create a tournament")
    @app_commands.describe(
        name="The tournament's name, e.g. Spring Open 2026",
        rounds="How many rounds are planned",
        profile="Tiebreak rules (default: uscf, US Chess Rule 34E)",
        tiebreaks="Your own tiebreak order instead of the profile's, e.g. MM,SOLK,CUM,OCUM",
        **OPTION_HELP,
    )
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.choices(profile=PROFILE_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        rounds: app_commands.Range[int, 1, 99],
        profile: str = "uscf",
        tiebreaks: app_commands.Range[str, 1, 200] | None = None,
        cumulative_half_bye: bool | None = None,
        unplayed_rule: bool | None = None,
    ) -> None:
        info = await self.store.create_tournament(
            guild_of(interaction),
            name,
            rounds=rounds,
            actor=td_of(interaction),
            profile=profile,
            tiebreaks=tiebreaks,
            options=chosen_options(cumulative_half_bye, unplayed_rule),
        )
        await reply(
            interaction,
            render.joined(
                [
                    f"🏁 **{render.plain(info.name)}** is open for registration: "
                    f"{render.status_line(info)}.",
                    "Members register with `/join`; a TD adds others with `/player add` and starts "
                    "it with `/tournament start`.",
                ]
            ),
        )

    @tournament.command(name="list", description="The server's tournaments")
    async def list_(self, interaction: Interaction) -> None:
        found = await self.store.tournaments(guild_of(interaction), limit=50)
        await reply(interaction, embed=render.tournament_list(found))

    @tournament.command(name="info", description="A tournament at a glance")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def info(
        self, interaction: Interaction, tournament: RunningFirst = RUNNING_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        state = await self.store.state(found.guild, found.name)
        role = await self.store.td_role(found.guild)
        await reply(interaction, embed=render.tournament_info(state, role))

    async def _set_status(
        self, interaction: Interaction, found: TournamentInfo, status: TournamentStatus
    ) -> None:
        if found.status is status:
            raise UserError(f"{found.name} is already {status.value}")
        info = await self.store.set_status(found.guild, found.name, status, td_of(interaction))
        name = render.plain(info.name)
        if status is TournamentStatus.RUNNING:
            text = (
                f"♟️ **{name}** has started ({render.status_line(info)}). Report your games "
                "with `/report`; see the table with `/standings`."
            )
        else:
            text = (
                f"🏆 **{name}** is finished after {info.rounds} rounds. Final standings: "
                "`/standings`; files: `/crosstable`, `/tournament export`."
            )
        await reply(interaction, text)

    @tournament.command(
        name="start", description="Start a tournament: members can report (TD)", extras=public()
    )
    @td_only("start a tournament")
    @app_commands.describe(tournament=REGISTERING_HELP)
    async def start(
        self, interaction: Interaction, tournament: RegisteringOnly = REGISTERING_ONLY.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        await self._set_status(interaction, found, TournamentStatus.RUNNING)

    @tournament.command(name="finish", description="Finish a tournament (TD)", extras=public())
    @td_only("finish a tournament")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def finish(
        self, interaction: Interaction, tournament: RunningOnly = RUNNING_ONLY.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        await self._set_status(interaction, found, TournamentStatus.FINISHED)
        await post_awards(interaction, found)

    @tournament.command(
        name="import",
        description="Import a tournament from a TRF-16 or crosstable file (TD)",
        extras=public(),
    )
    @td_only("import a tournament")
    @app_commands.describe(
        file="A TRF-16 file (.trf) or a crosstable as text or CSV",
        name="The tournament's name here",
        profile="Tiebreak rules (default: uscf)",
        tiebreaks="Your own tiebreak order, e.g. MM,SOLK,CUM,OCUM",
        rounds="Planned rounds, if more than the file has played",
        **OPTION_HELP,
    )
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.choices(profile=PROFILE_CHOICES)
    async def import_(
        self,
        interaction: Interaction,
        file: discord.Attachment,
        name: app_commands.Range[str, 1, 100],
        profile: str = "uscf",
        tiebreaks: app_commands.Range[str, 1, 200] | None = None,
        rounds: app_commands.Range[int, 1, 99] | None = None,
        cumulative_half_bye: bool | None = None,
        unplayed_rule: bool | None = None,
    ) -> None:
        store, guild = self.store, guild_of(interaction)
        if file.size > IMPORT_MAX_BYTES:  # Discord says the size: nothing is downloaded
            raise UserError(
                f"{shorten(file.filename, 100)} is {file.size // 1024:,} KB: the most Harkness "
                f"reads is {IMPORT_MAX_BYTES // 1024 // 1024} MB"
            )
        await store.check_import(guild)  # the server's limits, before anything is downloaded
        try:
            data = await file.read()
        except discord.HTTPException:
            raise UserError(
                f"{shorten(file.filename, 100)} could not be downloaded from Discord; "
                "please try again"
            ) from None
        warnings: list[Problem] = []
        info = await store.import_tournament(
            guild,
            name,
            data,
            actor=td_of(interaction),
            filename=file.filename,
            profile=profile,
            tiebreaks=tiebreaks,
            rounds=rounds,
            options=chosen_options(cumulative_half_bye, unplayed_rule),
            warnings=warnings,
        )
        state = await store.state(guild, info.name)
        await reply(
            interaction,
            render.joined(
                [
                    f"📥 Imported **{render.plain(info.name)}** from "
                    f"`{file.filename}`: {len(state.players)} players, {state.tournament.rounds} "
                    f"rounds with results ({render.status_line(info)}).",
                    "See it with `/standings` and `/crosstable`.",
                    *render.warning_lines(warnings),
                ]
            ),
        )

    @tournament.command(
        name="rules",
        description="See or change a tournament's tiebreak rules (TD to change)",
        extras=public(when=changes_rules),
    )
    @td_only("change the tiebreak rules", when=changes_rules)
    @app_commands.describe(
        tournament=RUNNING_HELP,
        profile="Tiebreak rules (a new profile starts from its own order and options)",
        tiebreaks="Your own tiebreak order, e.g. MM,SOLK,CUM,OCUM; 'default': the profile's",
        **OPTION_HELP,
    )
    @app_commands.rename(**OPTION_NAMES)
    @app_commands.autocomplete(profile=profile_autocomplete)
    async def rules(
        self,
        interaction: Interaction,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
        profile: str | None = None,
        tiebreaks: app_commands.Range[str, 1, 200] | None = None,
        cumulative_half_bye: bool | None = None,
        unplayed_rule: bool | None = None,
    ) -> None:
        found = await tournament.pick(interaction)
        if not changes_rules(interaction.namespace):
            await reply(
                interaction,
                f"**{render.plain(found.name)}**: {render.status_line(found)}. A TD changes "
                "the rules with `/tournament rules profile:` (or `tiebreaks:` and the options).",
            )
            return
        given = chosen_options(cumulative_half_bye, unplayed_rule)
        same = profile is None or profile == found.profile
        order = found.tiebreaks if same else None
        if tiebreaks is not None:
            order = None if tiebreaks.strip().lower() == "default" else tiebreaks
        options = {**(found.option_values if same else {}), **given}
        info = await self.store.set_rules(
            found.guild,
            found.name,
            td_of(interaction),
            profile=profile or found.profile,
            tiebreaks=order,
            options=options,
        )
        await reply(
            interaction,
            f"⚖️ The rules of **{render.plain(info.name)}** are now: {render.status_line(info)}. "
            "`/tiebreaks` explains them; standings follow at once.",
        )

    @tournament.command(name="export", description="The tournament as TRF-16 and crosstable files")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def export(
        self, interaction: Interaction, tournament: RunningFirst = RUNNING_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        trf = await self.store.export(found.guild, found.name, "trf")
        table = await self.store.export(found.guild, found.name, "crosstable")
        prizes = await self.store.prizes.get(found.guild, found.name)
        base = render.slug(found.name)
        await reply(
            interaction,
            f"Files of **{render.plain(found.name)}** "
            "(provisional results included, disputed ones left out)"
            + (
                ", and its prize list as a prize file (TRF-16 has no place for prizes):"
                if prizes
                else ":"
            ),
            files=[
                render.text_file(f"{base}.trf", trf, "TRF-16"),
                render.text_file(f"{base}-crosstable.txt", table, "Crosstable"),
                *([prize_file(found, prizes)] if prizes else []),
            ],
        )

    @tournament.command(
        name="link-sheet",
        description="Keep the tournament in a Google Sheet: the TD's sheet wins (TD)",
    )
    @td_only("link a Google Sheet")
    @app_commands.describe(
        url="The spreadsheet's address (shared with the bot's service account as an Editor)",
        tournament=RUNNING_HELP,
    )
    async def link_sheet(
        self,
        interaction: Interaction,
        url: app_commands.Range[str, 1, 500],
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        """Answered to the TD alone (a code for the sheet's editors is theirs to pass on);
        once linked, the channel is told too."""
        found = await tournament.pick(interaction)
        links = links_or_refusal(interaction)
        if not links.available:
            raise UserError(links.why_not or NOT_SET_UP, markup=True)
        linking = await links.link(found.guild, found, url, td_of(interaction))
        await answer_linking(interaction, found.id, linking)

    @tournament.command(
        name="unlink-sheet",
        description="Stop keeping the tournament in its Google Sheet (TD)",
        extras=public(),
    )
    @td_only("unlink a Google Sheet")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def unlink_sheet(
        self, interaction: Interaction, tournament: RunningFirst = RUNNING_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        lines = await links_or_refusal(interaction).unlink(found.guild, found, td_of(interaction))
        await reply(interaction, render.joined(lines))

    # -- /config ------------------------------------------------------------------------

    @config.command(
        name="td-role", description="Which role counts as tournament director (Manage Server)"
    )
    @app_commands.describe(
        role="The tournament directors' role",
        clear="Remove the TD role (then only Manage Server counts)",
    )
    @managers_only("choose the TD role")
    async def td_role(
        self, interaction: Interaction, role: discord.Role | None = None, clear: bool = False
    ) -> None:
        store, guild = self.store, guild_of(interaction)
        who = await actor(store, interaction)
        if role is not None and clear:
            raise UserError("give a role or clear, not both")
        if role is not None:
            if role.is_default():
                raise UserError(
                    "@everyone cannot be the TD role: choose a role that only "
                    "tournament directors hold"
                )
            await store.set_td_role(guild, str(role.id), who)
            text = (
                f"Members with {role.mention} are now tournament directors (as are "
                "members with Manage Server)."
            )
        elif clear:
            await store.set_td_role(guild, None, who)
            text = "The TD role is cleared: only members with Manage Server are TDs now."
        else:
            current = await store.td_role(guild)
            text = (
                f"The TD role is <@&{current}>."
                if current
                else "No TD role is set: only members with Manage Server are TDs."
            )
            text += " Set it with `/config td-role role:@Role`."
        await reply(interaction, text)

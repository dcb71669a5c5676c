"""Pairing rounds: ``/round preview`` (a TD's draft), ``/round swap`` (a TD's fix of the
draft), ``/round pair`` (publish it: the board list for everyone), ``/round show`` (a
round's pairing), and ``/bye request`` (a member asks for a bye before the round is paired).

A TD keeps players apart (``/round avoid add|remove|list``: team-mates, family, never paired
together) and announces accelerated pairings before round 1 (``/round accelerate``: FIDE's
Baku Acceleration, C.04.5.1); every pairing of the tournament honours both.

Pairings are by the FIDE Dutch system (C.04.3), computed by core's engine off the event loop
and checked against the absolute criteria before they are shown (see :mod:`core.pairing`);
they are kept as events of the results log (see :mod:`bot.store.pairings`).
"""

from __future__ import annotations

from discord import app_commands

from bot import pictures
from bot.checks import actor, in_servers, td_of, td_only
from bot.cogs.base import HarknessCog
from bot.errors import UserError
from bot.lookup import (
    OPEN_FIRST,
    RUNNING_HELP,
    RUNNING_ONLY,
    OpenFirst,
    RunningOnly,
    player_autocomplete,
)
from bot.render import plain
from bot.render_pairing import pairing_message
from bot.respond import Interaction, public, reply
from bot.store import Store, TournamentInfo
from bot.store.errors import problems_words
from bot.store.pairings import RoundDraft
from core.pairing import PairingRequest, RoundPairing
from core.pairing.acceleration import Acceleration
from core.pairing.isolated import pair_in_background
from core.problems import HarknessError

REQUEST_CHOICES = [
    app_commands.Choice(name="Half-point bye (½)", value="half"),
    app_commands.Choice(name="Zero-point bye (0)", value="zero"),
]
ACCELERATION_CHOICES = [
    app_commands.Choice(name="Baku Acceleration (FIDE C.04.5.1)", value="baku"),
    app_commands.Choice(name="None: the Dutch system alone", value="none"),
]
DRAFT_FOOTER = "Publish with `/round pair`; exchange two players with `/round swap`."
PUBLISHED_FOOTER = "Report your result with `/report round:{round} result:…` (no opponent needed)."


async def _computed(
    store: Store, info: TournamentInfo, round: int | None
) -> tuple[PairingRequest, RoundPairing]:
    request = await store.pairing_request(info.guild, info.name, round)
    try:
        # The engine takes up to seconds on a large section: in a child process within the
        # pairing ceiling, one per tournament, killed if the command is cancelled.
        pairing = await pair_in_background(request, key=("discord", info.guild, info.name))
    except HarknessError as error:
        raise UserError(problems_words(error)) from None
    return request, pairing


class Rounds(HarknessCog):
    """``/round …`` and ``/bye request``."""

    round = app_commands.Group(
        name="round",
        description="Pair rounds by the FIDE Dutch system (TD)",
        guild_only=True,
        allowed_contexts=in_servers(),
    )
    avoid = app_commands.Group(
        name="avoid",
        description="Players never paired together: team-mates, family (TD)",
        parent=round,
    )
    bye = app_commands.Group(
        name="bye",
        description="Byes asked for before a round is paired",
        guild_only=True,
        allowed_contexts=in_servers(),
    )

    async def _answer(
        self,
        interaction: Interaction,
        info: TournamentInfo,
        request: PairingRequest,
        draft: RoundDraft,
    ) -> None:
        footer = (
            PUBLISHED_FOOTER.format(round=draft.pairing.round) if draft.published else DRAFT_FOOTER
        )
        text, files = pairing_message(info, request, draft, footer)
        picture = await pictures.pairing(request, draft.pairing, pictures.DEFAULT_THEME)
        await reply(interaction, text, files=[*files, *([picture] if picture else [])])

    @round.command(name="preview", description="Pair the next round as a draft only you see (TD)")
    @td_only("pair rounds")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def preview(
        self, interaction: Interaction, tournament: RunningOnly = RUNNING_ONLY.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        request, pairing = await _computed(self.store, found, None)
        draft = await self.store.save_pairing(
            found.guild, found.name, td_of(interaction), request, pairing, publish=False
        )
        await self._answer(interaction, found, request, draft)

    @round.command(
        name="pair", description="Pair the next round and publish the boards (TD)", extras=public()
    )
    @td_only("pair rounds")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def pair(
        self, interaction: Interaction, tournament: RunningOnly = RUNNING_ONLY.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        store, guild, who = self.store, found.guild, td_of(interaction)
        request = await store.pairing_request(guild, found.name)
        drafts = await store.round_pairings(guild, found.name)
        current = drafts.get(request.round)
        if current is not None and not current.published:
            draft, request = await store.publish_pairing(guild, found.name, who, request.round)
        else:
            request, pairing = await _computed(store, found, request.round)
            draft = await store.save_pairing(guild, found.name, who, request, pairing, publish=True)
        await self._answer(interaction, found, request, draft)

    @round.command(name="swap", description="Exchange two players in the draft pairing (TD)")
    @td_only("change pairings")
    @app_commands.describe(
        player="One player: name or starting number",
        other="The player to exchange places with",
        tournament=RUNNING_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete, other=player_autocomplete)
    async def swap(
        self,
        interaction: Interaction,
        player: str,
        other: str,
        tournament: RunningOnly = RUNNING_ONLY.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        draft, request = await self.store.swap_pairing(
            found.guild, found.name, td_of(interaction), player, other
        )
        await self._answer(interaction, found, request, draft)

    @round.command(name="show", description="A round's pairing (default: the latest published)")
    @app_commands.describe(
        round="The round (default: the latest published)",
        tournament=RUNNING_HELP,
    )
    async def show(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, 1, 99] | None = None,
        tournament: RunningOnly = RUNNING_ONLY.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        store, guild = self.store, found.guild
        published = {
            r: d for r, d in (await store.round_pairings(guild, found.name)).items() if d.published
        }
        if not published:
            raise UserError(f"{found.name} has no published pairing yet")
        number = round or max(published)
        if number not in published:
            raise UserError(f"round {number} of {found.name} is not published")
        request = await store.pairing_request(guild, found.name, number)
        await self._answer(interaction, found, request, published[number])

    @avoid.command(name="add", description="Keep two or more players apart in every pairing (TD)")
    @td_only("keep players apart")
    @app_commands.describe(
        player="A player: name or starting number",
        other="A player never to be paired with them",
        third="Another player of the group (optional)",
        fourth="Another player of the group (optional)",
        tournament=RUNNING_HELP,
    )
    @app_commands.autocomplete(
        player=player_autocomplete,
        other=player_autocomplete,
        third=player_autocomplete,
        fourth=player_autocomplete,
    )
    async def avoid_add(
        self,
        interaction: Interaction,
        player: str,
        other: str,
        third: str | None = None,
        fourth: str | None = None,
        tournament: OpenFirst = OPEN_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        named = [p for p in (player, other, third, fourth) if p is not None]
        group = await self.store.keep_apart(found.guild, found.name, td_of(interaction), named)
        await reply(
            interaction,
            f"✅ {plain(group.label)} will not be paired together in {plain(found.name)} "
            f"(group {group.number}).",
        )

    @avoid.command(name="remove", description="Stop keeping a group of players apart (TD)")
    @td_only("keep players apart")
    @app_commands.describe(
        group="The group's number in /round avoid list",
        tournament=RUNNING_HELP,
    )
    async def avoid_remove(
        self,
        interaction: Interaction,
        group: app_commands.Range[int, 1, 999],
        tournament: OpenFirst = OPEN_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        removed = await self.store.stop_keeping_apart(
            found.guild, found.name, td_of(interaction), group
        )
        await reply(
            interaction,
            f"✅ {plain(removed.label)} may be paired together again in {plain(found.name)}.",
        )

    @avoid.command(name="list", description="The players kept apart in the pairings (TD)")
    @td_only("see the players kept apart")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def avoid_list(
        self, interaction: Interaction, tournament: OpenFirst = OPEN_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        groups = await self.store.kept_apart(found.guild, found.name)
        if not groups:
            await reply(interaction, f"{plain(found.name)} keeps no players apart.")
            return
        lines = [f"{g.number}. {plain(g.label)}" for g in groups]
        await reply(
            interaction,
            f"Never paired together in {plain(found.name)}:\n" + "\n".join(lines),
        )

    @round.command(
        name="accelerate", description="Announce accelerated pairings, before round 1 (TD)"
    )
    @td_only("announce accelerated pairings")
    @app_commands.describe(
        method="Baku Acceleration, or none",
        tournament=RUNNING_HELP,
    )
    @app_commands.choices(method=ACCELERATION_CHOICES)
    async def accelerate(
        self, interaction: Interaction, method: str, tournament: OpenFirst = OPEN_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        chosen = None if method == "none" else Acceleration(method)
        info = await self.store.set_acceleration(
            found.guild, found.name, td_of(interaction), chosen
        )
        said = (
            "paired with FIDE's Baku Acceleration (C.04.5.1): the top half of round 1's "
            "players start with virtual points in the first rounds"
            if info.acceleration
            else "paired by the Dutch system without acceleration"
        )
        await reply(interaction, f"✅ {plain(found.name)} will be {said}.")

    @bye.command(name="request", description="Ask for a bye in a round that is not paired yet")
    @app_commands.describe(
        round="The round you will miss",
        kind="Half-point (default) or zero-point bye",
        tournament=RUNNING_HELP,
    )
    @app_commands.choices(kind=REQUEST_CHOICES)
    async def request(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, 1, 99],
        kind: str = "half",
        tournament: RunningOnly = RUNNING_ONLY.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        who = await actor(self.store, interaction)
        said = await self.store.request_bye(found.guild, found.name, who, round=round, kind=kind)
        await reply(
            interaction,
            f"✅ Noted: {plain(said)}. The pairing of round {round} will leave you out.",
        )

"""The bot's services: load from the store, ask core, hand back what the renderers need.

Shared by slash commands and by the buttons that outlive them (a standings page, the
details of ``/why``), so both give the same answer. No tiebreak is computed here: standings
come from the store (which asks :mod:`core.standings`), explanations from
:mod:`core.explain`, and the tiebreak order from :mod:`core.profiles`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import UserError
from bot.render import StandingsPages, standings_pages
from bot.store import (
    DiscordUser,
    PlayerRef,
    ResultStatus,
    StandingsView,
    Store,
    StoreError,
    TournamentInfo,
)
from core.explain import Explanation, explain
from core.explain_render import MarkdownExplanation, to_markdown


async def tournament_by_id(store: Store, guild: str, tournament_id: int) -> TournamentInfo:
    """The server's tournament with this id (buttons carry ids, which never change)."""
    for info in await store.tournaments(guild):
        if info.id == tournament_id:
            return info
    raise UserError("that tournament no longer exists here")


async def standings(store: Store, guild: str, tournament: str,
                    after_round: int | None) -> tuple[StandingsView, StandingsPages]:
    """The standings (after the last round with results, or ``after_round``) and their pages."""
    view = await store.standings(guild, tournament, after_round=after_round)
    return view, standings_pages(view)


@dataclass(frozen=True, slots=True)
class Why:
    """An explanation and how it is shown: the player's number, the round it is after, the
    Markdown (summary and detail parts) and the player's weakest result mark."""

    explanation: Explanation
    markdown: MarkdownExplanation
    number: int
    after_round: int
    marked: ResultStatus | None
    tournament: TournamentInfo


async def why(store: Store, guild: str, tournament: str, player: PlayerRef,
              after_round: int | None) -> Why:
    """Why ``player`` stands where they do (after ``after_round`` or the last round)."""
    info = await store.tournament(guild, tournament)
    try:
        who = await store.player(guild, info.name, player)
    except StoreError as error:
        if isinstance(player, DiscordUser) and error.code == "unknown-player":
            raise UserError(f"you are not registered in {info.name}: name a player with the "
                            "player option, or /join the tournament") from None
        raise
    view = await store.standings(guild, info.name, after_round=after_round)
    explanation = explain(view.standings, who.number, after_round)
    return Why(explanation, to_markdown(explanation), who.number, view.after_round,
               view.marked(who.number), info)


def tiebreak_order(info: TournamentInfo) -> tuple[str, list[tuple[str, str, str]]]:
    """The profile's description and its tiebreaks in order as (code, name, rule)."""
    import core.tiebreaks  # noqa: F401  (registers every family's profiles)
    from core.profiles import resolve_for
    from core.tiebreaks import tiebreaks_of

    profile = resolve_for(info.start_date, info.profile, info.tiebreaks)
    registry = tiebreaks_of(profile.family)
    order = [(code, registry[code].name, registry[code].rule)
             for code in profile.order(info.rounds)]
    description = profile.description
    if info.tiebreaks:
        description = f"The TD's own order under {profile.name}: {', '.join(profile.tiebreaks)}."
    return description, order

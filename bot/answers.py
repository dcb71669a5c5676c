"""The answers to the standings questions (``/standings``, ``/crosstable``, ``/why``,
``/tiebreaks``): load from the store, ask core, hand back what the renderers need.

Shared by slash commands and by the buttons that outlive them (a standings page, the
details of ``/why``), so both give the same answer. No tiebreak is computed here: standings
come from the store (which asks :mod:`core.standings`), explanations from
:mod:`core.explain`, and the order that applies from
:func:`core.standings.applicable_order`.

A tournament linked to a Google Sheet answers from the sheet (:mod:`bot.sheetlink`): the
TD's results merged with the Discord reports, under the sheet's rules. If this bot cannot
read the sheet, it answers from Discord's own results and says so.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace

from bot.errors import UserError
from bot.render import EMBED_FOOTER_MAX, StandingsPages, standings_pages
from bot.sheetlink import SheetLinks, SheetUnreadable, SheetView
from bot.store import (
    DiscordUser,
    PlayerRef,
    ResultStatus,
    StandingsView,
    Store,
    StoreError,
    TournamentInfo,
)
from bot.store.cache import MB, Kept
from bot.store.offload import JOBS
from core.awards import Awards
from core.explain import Explanation, explain
from core.explain_render import MarkdownExplanation, to_markdown
from core.limits import shorten
from core.standings import Standings, applicable_order
from core.tiebreaks import tiebreaks_of


async def tournament_by_id(store: Store, guild: str, tournament_id: int) -> TournamentInfo:
    """The server's tournament with this id (buttons carry ids, which never change)."""
    for info in await store.tournaments(guild):
        if info.id == tournament_id:
            return info
    raise UserError("that tournament no longer exists here")


async def linked_sheet(
    links: SheetLinks | None, guild: str, info: TournamentInfo
) -> tuple[SheetView | None, str]:
    """The linked sheet as read (None when the tournament is not linked, or the sheet cannot
    be read), and a note on where the answer comes from."""
    if links is None or info.sheet is None:
        return None, ""
    if not links.available:
        return None, "Discord's results only (this bot cannot read Google Sheets)"
    try:
        view = await links.view(guild, info)
    except SheetUnreadable as error:  # the sheet does not name this server, or is unread
        return None, f"Discord's results only ({error.note})"
    return view, links.source_note(view)


async def standings(
    store: Store,
    guild: str,
    tournament: str,
    after_round: int | None,
    links: SheetLinks | None = None,
    info: TournamentInfo | None = None,
) -> tuple[StandingsView, StandingsPages]:
    """The standings (after the last round with results, or ``after_round``) and their pages;
    from the Google Sheet for a linked tournament (given ``links``; ``info``, the
    tournament just read, tells whether it is linked)."""
    note = ""
    if links is not None:
        info = info or await store.tournament(guild, tournament)
        sheet, note = await linked_sheet(links, guild, info)
        if sheet is not None:
            view = links.standings_view(sheet, info, after_round)
            return view, _noted(await pages_of(view), note)
    view = await store.standings(guild, tournament, after_round=after_round)
    return view, _noted(await pages_of(view), note)


#: The pages of the standings answered lately, by the view's stamp: laid out once a view (a
#: section of 10,000 players has 400 pages), not once a member; bounded in bytes, with a
#: share a server.
PAGES_BYTES = 32 * MB
GUILD_PAGES_BYTES = 16 * MB
_PAGES: Kept[Hashable, StandingsPages] = Kept(PAGES_BYTES, GUILD_PAGES_BYTES)


async def pages_of(view: StandingsView) -> StandingsPages:
    """The pages of ``view``, laid out off the event loop in its server's turn (once a
    view of the store's: they are kept by its stamp)."""
    guild = view.state.info.guild
    found = _PAGES.get(view.stamp) if view.stamp is not None else None
    if found is not None:
        return found
    pages = await JOBS.run(
        guild, lambda: standings_pages(view), size=0, what="laying out the standings"
    )
    if view.stamp is not None:
        size = sum(len(page) for page in pages.pages) * 2 + 1024
        _PAGES.put(view.stamp, guild, pages, size)
    return pages


def _noted(pages: StandingsPages, note: str) -> StandingsPages:
    if not note:
        return pages
    return replace(pages, footer=shorten(f"{pages.footer} · {note}", EMBED_FOOTER_MAX))


@dataclass(frozen=True, slots=True)
class Crosstable:
    """A crosstable as text and CSV, with what it covers and where it comes from."""

    text: str
    csv: str
    rounds: int
    planned: int
    players: int
    source: str
    standings: Standings | None = None


async def crosstable(
    store: Store, guild: str, info: TournamentInfo, links: SheetLinks | None = None
) -> Crosstable:
    """The crosstable of the tournament (of its Google Sheet, when linked)."""
    sheet, note = await linked_sheet(links, guild, info)
    if sheet is not None and links is not None and sheet.standings is not None:
        from core.formats.crosstable import write_crosstable

        view = links.standings_view(sheet, info, None)
        t = view.standings.tournament
        return Crosstable(
            write_crosstable(t, view.standings),
            write_crosstable(t, view.standings, ","),
            t.rounds,
            view.state.info.rounds,
            len(t.players),
            note,
            view.standings,
        )
    text = await store.export(guild, info.name, "crosstable")
    csv = await store.export(guild, info.name, "crosstable", separator=",")
    state = await store.state(guild, info.name)
    played = state.rounds_played
    standings = (await store.standings(guild, info.name)).standings if played else None
    return Crosstable(text, csv, played, info.rounds, len(state.players), note, standings)


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
    source: str = ""
    standings: Standings | None = None
    #: The stamp of the standings explained (:attr:`StandingsView.stamp`), when the store's.
    stamp: Hashable | None = None


async def why(
    store: Store,
    guild: str,
    tournament: str,
    player: PlayerRef,
    after_round: int | None,
    links: SheetLinks | None = None,
    username: str | None = None,
) -> Why:
    """Why ``player`` stands where they do (after ``after_round`` or the last round), and
    their award when a prize list applies (:mod:`bot.awards`); from the Google Sheet for a
    linked tournament (``username`` helps find the member there)."""
    from bot.awards import awards_for  # bot.awards answers from the sheet through this module

    info = await store.tournament(guild, tournament)
    sheet, note = await linked_sheet(links, guild, info)
    if sheet is not None and links is not None:
        view = links.standings_view(sheet, info, after_round)
        number = await links.number_of(guild, info, sheet, player, username)
        awards = await awards_for(store, info, view.standings, sheet)
        explanation, markdown = await JOBS.run(
            guild,
            lambda: _explained(view.standings, number, after_round, awards),
            size=0,
            what="explaining the standings",
        )
        return Why(
            explanation,
            markdown,
            number,
            view.after_round,
            None,
            info,
            note,
            view.standings,
        )
    try:
        who = await store.player(guild, info.name, player)
    except StoreError as error:
        if isinstance(player, DiscordUser) and error.code == "unknown-player":
            raise UserError(
                f"you are not registered in {info.name}: name a player with the "
                "player option, or /join the tournament"
            ) from None
        raise
    view = await store.standings(guild, info.name, after_round=after_round)
    awards = await awards_for(store, info, view.standings)
    explanation, markdown = await JOBS.run(
        guild,
        lambda: _explained(view.standings, who.number, after_round, awards),
        size=0,
        what="explaining the standings",
    )
    return Why(
        explanation,
        markdown,
        who.number,
        view.after_round,
        view.marked(who.number),
        info,
        note,
        view.standings,
        view.stamp,
    )


def _explained(
    standings: Standings, number: int, after_round: int | None, awards: Awards | None
) -> tuple[Explanation, MarkdownExplanation]:
    explanation = explain(standings, number, after_round, awards)
    return explanation, to_markdown(explanation)


@dataclass(frozen=True, slots=True)
class TiebreakOrder:
    """What ``/tiebreaks`` shows: the rules (the profile and any option the TD changed), the
    profile's description, the tiebreaks in order as (code, name, rule), and how this
    profile treats what US programs differ on (core's words)."""

    rules: str
    description: str
    order: list[tuple[str, str, str]]
    variants: tuple[str, ...]


async def tiebreak_order(
    store: Store, guild: str, info: TournamentInfo, links: SheetLinks | None = None
) -> TiebreakOrder:
    """The tournament's tiebreak order and rules, as core decides them for the tournament
    as played (a round robin's own order, a short section's): the order of the standings
    themselves (of the Google Sheet's, when linked)."""
    from core.profiles import resolve_for

    sheet, _ = await linked_sheet(links, guild, info)
    if sheet is not None and sheet.standings is not None:
        profile, codes = sheet.standings.profile, sheet.standings.order
    else:
        state = await store.state(guild, info.name)
        profile = resolve_for(info.start_date, info.profile, info.tiebreaks, info.option_values)
        codes = applicable_order(state.as_played, profile, planned=info.rounds)
    registry = tiebreaks_of(profile.family)
    order = [(code, registry[code].name, registry[code].rule) for code in codes]
    description = profile.description
    if info.tiebreaks:
        description = f"The TD's own order under {profile.name}: {', '.join(profile.tiebreaks)}."
    return TiebreakOrder(profile.label, description, order, profile.variants())

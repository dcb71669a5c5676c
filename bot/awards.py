"""The answers about awards: ``/awards`` (the award list), the award part of ``/why``, and
the list the bot posts when a TD finishes a tournament.

The awards are core's (:func:`core.awards.compute_awards`), on the standings the bot
answers with: its store's, or a linked Google Sheet's, as ``/standings`` does. The prizes
are the tournament's prize list set in Discord (``/prizes``, :mod:`bot.store.awards`); a
linked sheet with a Prizes tab of its own gives its own (the TD's sheet wins, as for
results), so that ``/awards`` shows what the sheet's Awards tab shows. Teams are the prize
list's, else those of an imported TRF-16 file's team records. The awards are computed off
the event loop. Nothing here decides what a prize is worth.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.answers import linked_sheet
from bot.errors import UserError
from bot.sheetlink import SheetLinks, SheetView
from bot.store import ResultStatus, StandingsView, Store, StoreError, TournamentInfo
from bot.store.cache import MB, Kept
from bot.store.offload import JOBS
from bot.store.store import ROW_BYTES
from core.awards import Awards, PrizeList, compute_awards, section_problems
from core.formats.trf import team_records
from core.standings import Standings


@dataclass(frozen=True, slots=True)
class AwardList:
    """The award list of a tournament and what it stands on: the standings (after
    ``after_round``), how many results counted are still provisional and how many disputed
    games are not counted yet, and where it comes from (a linked sheet)."""

    awards: Awards
    info: TournamentInfo
    after_round: int
    provisional: int = 0
    disputed: int = 0
    source: str = ""

    @property
    def final(self) -> bool:
        """Whether every result it stands on is settled (no game waits for anyone)."""
        return not (self.provisional or self.disputed)


def _teams(standings: Standings) -> Mapping[str, Sequence[int]]:
    """The teams an imported TRF-16 file named (its ``013`` records), if any."""
    return team_records(standings.tournament.records)


def _computed(standings: Standings, prizes: PrizeList) -> Awards:
    """The awards (in a worker thread), once the list is checked against the section."""
    teams = _teams(standings)
    problems = section_problems(prizes, standings.tournament, teams, "013")
    if problems:
        shown = "; ".join(p.detail or p.message for p in problems[:5])
        raise UserError(f"the prize list does not fit the players: {shown}")
    return compute_awards(standings, prizes, teams)


#: Award lists computed lately (a large section's takes most of a second), with the standings
#: they were computed from, bounded in bytes with a share a server: the standings are counted
#: as the store counts them (:data:`bot.store.store.ROW_BYTES` a player), since the list keeps
#: them alive.
AWARDS_BYTES = 64 * MB
GUILD_AWARDS_BYTES = 32 * MB
_KEPT: Kept[int, tuple[Standings, PrizeList, Awards]] = Kept(AWARDS_BYTES, GUILD_AWARDS_BYTES)


async def awards_of(guild: str, standings: Standings, prizes: PrizeList) -> Awards:
    """The awards of ``standings`` under ``prizes``, computed off the event loop in
    ``guild``'s turn; kept while the same standings (the store keeps them until the
    tournament changes) and an equal prize list are asked about again, so that every
    member's ``/why`` costs one computation."""
    kept = _KEPT.get(id(standings))
    if kept is not None and kept[0] is standings and kept[1] == prizes:
        return kept[2]
    awards = await JOBS.run(
        guild,
        lambda: _computed(standings, prizes),
        size=len(standings.rows),
        what="computing the awards",
    )
    _KEPT.put(
        id(standings), guild, (standings, prizes, awards), 2 * ROW_BYTES * len(standings.rows)
    )
    return awards


def _sheet_prizes(sheet: SheetView) -> PrizeList | None:
    """A linked sheet's own prizes (None: it has no Prizes tab); refused while they have
    problems (the TD sees them on the sheet's Errors tab)."""
    found = sheet.input.prizes
    if found is None:
        return None
    if found.prizes is None:
        raise UserError(
            f"the prizes on the Google Sheet have {len(found.problems)} problem(s): a TD sees "
            f"them on its {sheet.input.settings.errors_tab} tab"
        )
    return found.prizes


async def prizes_of(
    store: Store, info: TournamentInfo, sheet: SheetView | None = None
) -> PrizeList | None:
    """The prize list that applies: a linked sheet's own, else the one set in Discord."""
    if sheet is not None:
        own = _sheet_prizes(sheet)
        if own is not None:
            return own
    return await store.prizes.get(info.guild, info.name)


def no_prizes(info: TournamentInfo) -> UserError:
    """The refusal of a tournament without a prize list, saying how a TD sets one."""
    return UserError(
        f"{info.name} has no prizes yet: a TD sets them with /prizes load (a prize file) or "
        "/prizes add"
    )


def open_counts(view: StandingsView) -> tuple[int, int]:
    """Results counted while provisional, and disputed games not counted yet, up to the
    round the standings are after (what makes an award list provisional)."""
    games = [g for g in view.state.open_games if g.round <= view.after_round]
    provisional = sum(1 for g in games if g.status is ResultStatus.PROVISIONAL)
    return provisional, len(games) - provisional


async def award_list(
    store: Store,
    info: TournamentInfo,
    after_round: int | None = None,
    links: SheetLinks | None = None,
) -> AwardList:
    """The award list of a tournament (after ``after_round``, or the last round with
    results); refused while no prize list applies."""
    sheet, note = await linked_sheet(links, info.guild, info)
    prizes = await prizes_of(store, info, sheet)
    if prizes is None:
        raise no_prizes(info)
    if sheet is not None and links is not None:
        view = links.standings_view(sheet, info, after_round)
    else:
        view = await store.standings(info.guild, info.name, after_round=after_round)
    awards = await awards_of(info.guild, view.standings, prizes)
    provisional, disputed = open_counts(view) if sheet is None else (0, 0)
    return AwardList(awards, info, view.after_round, provisional, disputed, note)


async def awards_for(
    store: Store, info: TournamentInfo, standings: Standings, sheet: SheetView | None = None
) -> Awards | None:
    """The awards of these standings when a prize list applies (for ``/why``), else None;
    None too when the list cannot be used now (``/awards`` says why)."""
    try:
        prizes = await prizes_of(store, info, sheet)
        return None if prizes is None else await awards_of(info.guild, standings, prizes)
    except (UserError, StoreError):
        return None

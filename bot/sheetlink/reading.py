"""Reading a linked sheet for ``/standings``, ``/crosstable`` and ``/why``, cached, and
syncing its output tabs from what was read.

What the TD typed, merged with the Discord reports (:mod:`sheets.discord_tabs`), is ranked by
``core`` under the sheet's own rules. A read is reused for ``HARKNESS_SHEETS_REFRESH``
seconds however many members ask (one read at a time per sheet), and its standings for as
long as the input's hash is the same, so a busy evening costs a few reads a minute. Each
read is synced as the worker does (:func:`sheets.sync.sync`: one read, at most one write), so
the sheet's Standings tab shows the same places as Discord, and new conflicts are told to
the TD (:mod:`bot.sheetlink.conflicts`). The read and its sync hold the sheet's lease, like
every other write, so several bot processes never interleave them, and are spent from the
server's share of the service account's budget first; a sheet that cannot be read is
answered from the last read, or from Discord's own results, saying why
(:func:`~bot.sheetlink.access.waiting_reason`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

from bot.errors import UserError
from bot.sheetlink.access import (
    OverBudget,
    SheetAccess,
    SheetUnreadable,
    waiting_reason,
)
from bot.sheetlink.api import (
    ReportConflict,
    SheetInput,
    SheetsError,
    SheetsPermissionError,
    Snapshot,
    read_input,
    read_snapshot,
    sync,
)
from bot.sheetlink.conflicts import ConflictNotices
from bot.sheetlink.lease import SheetBusy
from bot.store import StandingsView, TournamentInfo, TournamentState
from bot.store.outbox import key_guild
from bot.store.store import standings_round
from core.standings import Standings, standings_after
from sheets.metrics import SYNC_JOBS

log = logging.getLogger("harkness.bot")


@dataclass(frozen=True)
class SheetView:
    """A linked sheet as last read: its input (merged with the Discord reports), and its
    standings under the sheet's own rules. ``held`` is True when the sheet has problems now
    and these are the last good standings (as the worker keeps them on the Standings tab);
    ``stale`` says why the sheet could not be read again, when this is the last read."""

    spreadsheet_id: str
    title: str
    fetched: float
    input: SheetInput
    standings: Standings | None
    held: bool = False
    stale: str = ""

    @property
    def conflicts(self) -> list[ReportConflict]:
        """Discord reports that disagree with what the TD typed (not applied), of every
        server the sheet names."""
        return [n for n in self.input.notices if isinstance(n, ReportConflict)]

    def conflicts_of(self, guild: str) -> list[ReportConflict]:
        """The conflicts of ``guild``'s own reports: a sheet shared by several servers shows
        each only its own."""
        return [c for c in self.conflicts if key_guild(c.key) == guild]


class SheetReader:
    """The linked sheets as last read (this reader's cache, one view per spreadsheet), and
    reading them again when that is too old."""

    def __init__(self, access: SheetAccess, conflicts: ConflictNotices) -> None:
        self.access = access
        self.conflicts = conflicts
        self._views: dict[str, SheetView] = {}

    def cached(self, spreadsheet: str) -> SheetView | None:
        """The spreadsheet as last read, however old (None before its first read)."""
        return self._views.get(spreadsheet)

    def forget(self, spreadsheet: str) -> None:
        """Drop the last read of ``spreadsheet`` (linked or unlinked anew): the next one reads."""
        self._views.pop(spreadsheet, None)

    def _fresh(self, view: SheetView) -> bool:
        return self.access.clock() - view.fetched < self.access.refresh_seconds

    async def view(self, guild: str, info: TournamentInfo, *, force: bool = False) -> SheetView:
        """The linked sheet as read at most ``HARKNESS_SHEETS_REFRESH`` seconds ago (read now,
        and synced, when older). When it cannot be read, the last read is answered (marked
        stale) or :class:`SheetUnreadable` raised."""
        client = self.access.sheets_client()
        assert info.sheet is not None
        sheet = info.sheet.spreadsheet_id
        cached = self._views.get(sheet)
        if not force and cached is not None and self._fresh(cached):
            await self._check(guild, cached)
            return cached
        async with self.access.lock(sheet):
            cached = self._views.get(sheet)
            if not force and cached is not None and self._fresh(cached):
                await self._check(guild, cached)
                return cached  # someone else read it while this one waited
            async with self._syncing(sheet) as syncs:
                try:
                    # One read, and the sync's write when the bot makes it.
                    writes = 1 if syncs and not self.access.sync_jobs else 0
                    await self.access.spent(1, writes, guild=guild)
                    snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
                except (SheetsError, OverBudget) as error:
                    log.warning(
                        "cannot read the sheet of %s: %s",
                        info.name,
                        error,
                        extra={"guild_id": guild, "spreadsheet": sheet},
                    )
                    why = waiting_reason(error)
                    if cached is not None:
                        await self._check(guild, cached)
                        return replace(cached, stale=why)
                    if isinstance(error, SheetsPermissionError):
                        raise SheetUnreadable(
                            f"the Google Sheet of {info.name} is no longer shared "
                            f"with {error.share_with}: a TD shares it again (as "
                            "an Editor)",
                            "the Google Sheet is no longer shared with this bot",
                        ) from None
                    raise SheetUnreadable(
                        f"the Google Sheet of {info.name} cannot be read just now ({why})",
                        f"the Google Sheet cannot be read just now: {why}",
                    ) from None
                return await self.adopt(guild, info, snapshot, syncs=syncs)

    async def _check(self, guild: str, view: SheetView) -> None:
        """Whether ``guild`` may be shown ``view`` (:meth:`SheetAccess.check_use`)."""
        await self.access.check_use(
            guild, view.spreadsheet_id, view.input.settings.discord_servers, title=view.title
        )

    @contextlib.asynccontextmanager
    async def _syncing(self, sheet: str) -> AsyncIterator[bool]:
        """Whether a read in the block may sync the sheet. With sync jobs it always may (the
        workers write, under the sheet's lease). Inline, the read and its sync hold the
        sheet's lease in the fleet (:meth:`SheetAccess.leased`), as every other writer does,
        so that no other process writes the sheet between them; when another process holds
        it, the member is answered from the read and the sync is left to that process (the
        bot's result writer and the Sheets workers sync after writing) or to the next read."""
        if self.access.sync_jobs:
            yield True
            return
        async with contextlib.AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(self.access.leased(sheet))
                held = True
            except SheetBusy:
                held = False
            yield held

    async def adopt(
        self, guild: str, info: TournamentInfo, snapshot: Snapshot, *, syncs: bool = True
    ) -> SheetView:
        """Make ``snapshot`` the sheet's current view, sync the sheet from it unless ``syncs``
        is False (the worker's write, only when its input changed; or a sync job for the
        workers, with ``HARKNESS_SHEETS_SYNC_JOBS``), and tell the TD of new conflicts.
        Called with the sheet's lock held, and its lease when syncing inline. A sheet the
        server may not use is neither shown nor written."""
        client = self.access.sheets_client()
        sheet = snapshot.spreadsheet_id or (info.sheet.spreadsheet_id if info.sheet else "")
        view = await asyncio.to_thread(self._view_of, sheet, snapshot, self._views.get(sheet))
        self._views[sheet] = view  # what the sheet says now, whichever server asks next
        await self._check(guild, view)
        try:
            if not syncs:
                log.debug(
                    "another process is writing the sheet of %s: it syncs it",
                    info.name,
                    extra={"guild_id": guild, "spreadsheet": sheet},
                )
            elif self.access.sync_jobs:  # a harkness-sheets serve worker syncs it (coalesced)
                await self.access.fleet.request_sync(
                    sheet,
                    reason="results from Discord",
                    debounce=self.access.sync_debounce,
                    account=client.service_account_email,  # it just read the sheet
                )
                SYNC_JOBS.labels("queued").inc()
            else:
                await asyncio.to_thread(sync, client, sheet, snapshot=snapshot)
        except SheetsError as error:
            log.warning(
                "could not update the output tabs of the sheet of %s: %s",
                info.name,
                error,
                extra={"guild_id": guild, "spreadsheet": sheet},
            )
        await self.conflicts.tell(guild, info, view.conflicts_of(guild))
        return view

    def _view_of(self, sheet: str, snapshot: Snapshot, previous: SheetView | None) -> SheetView:
        """Read and rank a snapshot (in a worker thread); the standings of an unchanged input
        are reused."""
        found = read_input(snapshot)
        if previous is not None and previous.input.digest == found.digest:
            return SheetView(
                sheet, snapshot.title, self.access.clock(), found, previous.standings, previous.held
            )
        t, profile = found.tournament, found.profile
        if t is not None and profile is not None and t.rounds:
            return SheetView(
                sheet, snapshot.title, self.access.clock(), found, standings_after(t, profile)
            )
        if t is None and previous is not None and previous.standings is not None:
            return SheetView(
                sheet, snapshot.title, self.access.clock(), found, previous.standings, True
            )
        return SheetView(sheet, snapshot.title, self.access.clock(), found, None)

    def standings_view(
        self, view: SheetView, info: TournamentInfo, after_round: int | None
    ) -> StandingsView:
        """The sheet's standings (after ``after_round``), shaped for the bot's renderers."""
        standings = view.standings
        if standings is None:
            problems = len(view.input.problems)
            if problems:
                raise UserError(
                    f"the Google Sheet of {info.name} has {problems} problem(s), so "
                    "it has no standings yet: a TD sees them on its Errors tab"
                )
            raise UserError(f"{info.name} has no results on its Google Sheet yet")
        t = standings.tournament  # core.model.as_played: the rounds played, maybe none
        k = standings_round(f"the Google Sheet of {info.name}", t.rounds, after_round)
        if k != t.rounds:
            standings = standings_after(t, standings.profile, k)
        planned = view.input.settings.rounds or max(info.rounds, t.rounds)
        state = TournamentState(
            replace(info, rounds=planned), (), standings.tournament, {}, (), (), 0
        )
        return StandingsView(state, standings, k)

    @staticmethod
    def source_note(view: SheetView) -> str:
        """Where the answer comes from, for a footer."""
        note = f"from the Google Sheet “{view.title}”"
        if view.held:
            note += " (the sheet has problems now: these are its last good standings)"
        if view.stale:
            note += f" (it cannot be read again just now, as {view.stale}: this is the last read)"
        return note

    async def conflict_lines(self, guild: str, info: TournamentInfo) -> list[str]:
        """The Discord reports the sheet disagrees with, in words (for ``/result open``)."""
        if info.sheet is None or not self.access.available:
            return []
        try:
            view = await self.view(guild, info)
        except UserError:
            return []
        return [
            f"{c.cell} says “{c.text}”, but Discord has {c.report}"
            for c in view.conflicts_of(guild)
        ]

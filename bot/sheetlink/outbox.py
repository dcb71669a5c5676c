"""Writing results made final in Discord to a linked sheet's ``Discord reports`` tab, from
the store's outbox (:mod:`bot.store.outbox`), exactly once.

The command that made the result waits a few seconds for it to land and otherwise tells the
member it is pending, and why (:class:`~bot.sheetlink.access.Waiting`: this server's share of
the budget, Google's refusal, Google not answering, another process writing the sheet); a
background task writes whatever is due, backing off while Google is unreachable or over
quota. Before writing it reads the tab and skips rows whose key is
already there, and it marks a result written only once it has seen its row in the sheet.
After writing, the sheet is synced (:meth:`bot.sheetlink.reading.SheetReader.adopt`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from collections.abc import Sequence
from datetime import timedelta

from bot.metrics import OUTBOX_DEPTH, OUTBOX_OLDEST_DUE
from bot.settings import BotSettings
from bot.sheetlink.access import SheetAccess, SheetNotNamed, Waiting
from bot.sheetlink.api import (
    SHEETS_MISSING,
    RetryPolicy,
    SheetsError,
    SheetsTimeoutError,
    SheetsUnavailableError,
    TabTaken,
    append_requests,
    labels_of,
    match_players,
    player_rows,
    players_requests,
    read_input,
    read_snapshot,
    report_row,
    written_keys,
)
from bot.sheetlink.lease import KIND, SheetBusy
from bot.sheetlink.players import PlayerLinks
from bot.sheetlink.reading import SheetReader
from bot.store import OutboxItem, TournamentInfo
from bot.store.outbox import key as outbox_key
from sheets import metrics
from sheets.fleet import Held, cancel_and_wait

log = logging.getLogger("harkness.bot")


def stopped(worker: str, me: str) -> bool:
    """Whether the outbox worker ``worker`` is a bot process of this host that has stopped.

    Worker names are ``harkness-bot:HOST:PID:TAG`` (:func:`sheets.fleet.process_name`,
    ``TAG`` random per start). On the same
    host, a worker is gone when its process id is not running, or when it is this process's
    own id with another tag (an earlier run: in a container the bot is always process 1).
    Workers of other hosts are never judged: their short leases run out by themselves.

    >>> me = "harkness-bot:club-vm:1:aaaa1111"
    >>> stopped("harkness-bot:club-vm:1:bbbb2222", me)  # the container's previous run
    True
    >>> stopped(me, me), stopped("harkness-bot:other-vm:1:bbbb2222", me)
    (False, False)
    """
    parts, mine = worker.split(":"), me.split(":")
    if len(parts) != 4 or parts[0] != KIND or worker == me:
        return False
    host, pid = parts[1], parts[2]
    if host != mine[1] or not pid.isdigit():
        return False
    return pid == mine[2] or not _running(int(pid))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process, or a pid we cannot ask about: alive
        return True
    return True


WRITTEN = "📗 Written to the Google Sheet (its Discord reports tab); its Standings tab is updated."
#: What writing a sheet's results costs of the service account's per-minute quota, spent
#: before it starts (:meth:`sheets.fleet.Fleet.spend_quota`): the read before and after, the
#: append, and the Standings the sync after it may write.
WRITE_READS, WRITE_WRITES = 2, 2
#: When results of a spreadsheet another bot process is writing are looked at again.
BUSY_RETRY = timedelta(seconds=2)

PENDING = (
    "⏳ Saved. Google Sheets is not answering just now, so it will be written to the "
    "sheet as soon as it does (pending); nothing is lost."
)
#: What a member whose result waits is told, by why it waits (None: not known here).
PENDING_BECAUSE = {
    Waiting.SILENT: PENDING,
    Waiting.BUDGET: (
        "⏳ Saved. Harkness has used its share of Google Sheets requests for this minute, so "
        "it will be written to the sheet within a minute (pending); nothing is lost."
    ),
    Waiting.REFUSED: (
        "⏳ Saved. Google Sheets refused more requests this minute (its quota), so it will "
        "be written to the sheet as soon as Google allows (pending); nothing is lost."
    ),
    Waiting.BUSY: (
        "⏳ Saved. Another Harkness process is writing the sheet just now, so it will be "
        "written right after (pending); nothing is lost."
    ),
    Waiting.UNNAMED: (
        "⚠️ Saved in Discord only: the Google Sheet no longer names this server, so the "
        "tournament was unlinked from it (the TD has been told); it is written if a TD links "
        "the sheet again."
    ),
    Waiting.FAILED: (
        "⏳ Saved. The Google Sheet could not be written just now, so it will be tried "
        "again shortly (pending); nothing is lost."
    ),
    None: "⏳ Saved. It will be written to the sheet in a moment (pending); nothing is lost.",
}
PENDING_NO_SHEETS = (
    "⏳ Saved in Discord; it will be written to the Google Sheet once this bot "
    "is set up for Google Sheets (pending)."
)


class OutboxWriter:
    """The writer of due results: a background task, and a bounded wait for one result.
    Keeps its own schedule (when to look again, sheets held back after a timed-out write)."""

    def __init__(
        self,
        access: SheetAccess,
        reader: SheetReader,
        players: PlayerLinks,
        settings: BotSettings,
    ) -> None:
        self.access = access
        self.reader = reader
        self.players = players
        self.store = access.store
        self.linked = access.store.linked
        self.poll_seconds = settings.sheets_outbox_poll
        self.retry = (
            RetryPolicy(0, settings.sheets_outbox_retry, settings.sheets_outbox_max)
            if SHEETS_MISSING is None
            else None
        )
        self._rng = random.Random()
        self._hold: dict[str, float] = {}
        self._wake = asyncio.Event()
        self._next_due: float | None = None
        self._loop: asyncio.Task[None] | None = None
        # What this process's flushes hold: how many are still claiming, the keys of the
        # results claimed and not yet written or given back, and an event set when that
        # changes (:meth:`_settle`).
        self._claiming = 0
        self._writing: set[str] = set()
        self._moved = asyncio.Event()
        self.linked.on_queued(self.wake)

    def start(self) -> None:
        """Start writing due results in the background (when Sheets is available); the
        link's :meth:`~bot.sheetlink.access.SheetAccess.close` stops it."""
        if self.access.available and (self._loop is None or self._loop.done()):
            self._loop = self.access.spawn(self._run(), name="harkness-sheets-outbox")

    def wake(self) -> None:
        """Look for results to write now: the store calls it when a change queued one
        (:meth:`bot.store.LinkedSheets.on_queued`); else the writer looks every poll interval."""
        self._wake.set()

    async def _run(self) -> None:
        try:
            freed = await self.linked.release_claims(
                lambda worker: stopped(worker, self.access.worker)
            )
            await self.access.fleet.release_sheets(
                lambda worker: stopped(worker, self.access.worker)
            )
        except Exception:
            log.exception("could not free the results held by a stopped bot")
        else:
            if freed:
                log.info("%d results held by a stopped bot are due again", freed)
        while True:
            try:
                await self.flush()
            except Exception:  # one bad sheet or a database hiccup must not stop the writer
                log.exception("writing results to Google Sheets failed")
            wait = self.poll_seconds
            if self._next_due is not None:
                wait = max(0.05, min(wait, self._next_due - time.monotonic()))
            self._next_due = None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._wake.clear()

    async def landed(self, guild: str, info: TournamentInfo, seq: int) -> str:
        """Write the result of event ``seq`` to the sheet now (waiting at most the answer
        wait), and say in a line what became of it: written, pending, or written but
        disagreeing with the sheet."""
        if info.sheet is None:
            return ""
        if not self.access.available:
            return PENDING_NO_SHEETS
        sheet = info.sheet.spreadsheet_id
        deadline = time.monotonic() + self.access.answer_wait
        await self.access.bounded(self.flush(guild))
        # The background writer, woken by the same change, may have claimed it first.
        await self._settle(outbox_key(guild, info.id, seq), deadline)
        pending = await self._pending(guild, info, seq)
        lock = self.access.lock(sheet)
        if pending is not None and lock.locked():  # the background writer has it: let it finish
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    async with lock:
                        pass
            pending = await self._pending(guild, info, seq)
        if pending is not None:
            return PENDING_BECAUSE[Waiting.noted_in(pending.last_error)]
        view = self.reader.cached(sheet)
        key = outbox_key(guild, info.id, seq)
        clash = [c for c in view.conflicts if c.key == key] if view is not None else []
        if clash:
            return (
                f"⚠️ Written to the Google Sheet, but its cell {clash[0].cell} says "
                f"“{clash[0].text}”: what the TD typed there stands, and the TD has been "
                "told."
            )
        return WRITTEN

    async def _pending(self, guild: str, info: TournamentInfo, seq: int) -> OutboxItem | None:
        """The result of event ``seq`` while it is still to be written (None once it is)."""
        waiting = await self.linked.pending_writes(guild, info.name)
        return next((i for i in waiting if i.event_seq == seq), None)

    async def _settle(self, key: str, deadline: float) -> None:
        """Wait (until ``deadline``) while a flush of this process may hold the result
        ``key``: one still claiming, or one that claimed it and is writing it."""
        while self._claiming or key in self._writing:
            moved = self._moved
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    await moved.wait()
            except TimeoutError:
                return

    def _move(self) -> None:
        """Tell :meth:`_settle` that what the flushes hold changed."""
        self._moved.set()
        self._moved = asyncio.Event()

    async def flush(self, guild: str | None = None) -> None:
        """Write every result that is due (of ``guild``, or of every guild), sheet by sheet."""
        if not self.access.available:
            return
        if metrics.serving and guild is None:
            depth, oldest = await self.linked.outbox_backlog()
            OUTBOX_DEPTH.set(depth)
            OUTBOX_OLDEST_DUE.set(oldest)
        self._claiming += 1
        items: Sequence[OutboxItem] = ()
        try:
            busy = await self.access.fleet.held_by_others(self.access.worker)
            items = await self.linked.claim_writes(
                self.access.worker, limit=100, lease=self.access.lease, guild=guild, busy=busy
            )
        finally:
            self._claiming -= 1
            held = {str(i.payload.get("key")) for i in items}
            self._writing |= held
            self._move()
        try:
            await self._write_claimed(items)
        finally:
            self._writing -= held
            self._move()

    async def _write_claimed(self, items: Sequence[OutboxItem]) -> None:
        """Write results claimed by :meth:`flush`, sheet by sheet."""
        if not items:
            return
        groups: dict[tuple[str, str, str], list[OutboxItem]] = {}
        for item in items:
            groups.setdefault((item.guild, item.tournament, item.spreadsheet_id), []).append(item)
        renewal = asyncio.create_task(self._renew(items), name="harkness-sheets-lease")
        try:
            for (g, name, sheet), batch in groups.items():
                try:
                    await self._write(g, name, sheet, batch)
                except Exception as error:  # a bug or the database: give them back, go on
                    log.exception(
                        "writing results of %s to its sheet failed",
                        name,
                        extra={"guild_id": g, "spreadsheet": sheet},
                    )
                    await self._give_back(batch, f"{type(error).__name__}: {error}")
        finally:
            await cancel_and_wait(renewal)

    async def _renew(self, items: Sequence[OutboxItem]) -> None:
        """Keep the lease on ``items`` while they are being written (until cancelled)."""
        held: Sequence[OutboxItem | int] = items
        while held:
            await asyncio.sleep(self.access.lease.total_seconds() / 4)
            try:
                held = await self.linked.renew_claims(
                    held, self.access.worker, lease=self.access.lease
                )
            except Exception:  # the database may be back by the next renewal
                log.exception("could not renew the lease on results being written")

    async def _give_back(
        self, items: Sequence[OutboxItem], why: str, at_least: float = 0.0
    ) -> None:
        """Return claimed results to the outbox, due again after a backoff."""
        assert self.retry is not None
        for item in items:
            wait = max(at_least, self.retry.backoff(item.attempts, self._rng))
            await self.linked.mark_failed(
                item, self.access.worker, why, retry_in=timedelta(seconds=wait)
            )
            self._due_in(wait)

    def _due_in(self, seconds: float) -> None:
        due = time.monotonic() + seconds
        self._next_due = due if self._next_due is None else min(self._next_due, due)

    async def _write(self, guild: str, name: str, sheet: str, batch: list[OutboxItem]) -> None:
        """Append one sheet's results (those not there yet), check they are there, sync,
        holding the spreadsheet (:meth:`SheetAccess.writing`); when another bot process holds
        it, the results are due again shortly (not counted as a failure)."""
        hold = self._hold.get(sheet, 0.0) - time.monotonic()
        if hold > 0:
            await self._give_back(
                batch, "an earlier write to this sheet may still be landing", hold
            )
            return
        try:
            async with self.access.writing(sheet, wait=0) as held:
                await self._write_held(guild, name, sheet, batch, held)
        except SheetBusy:  # another bot process is writing to it: after that one
            await self.linked.postpone_writes(
                batch, self.access.worker, retry_in=BUSY_RETRY, why=Waiting.BUSY.noted()
            )
            self._due_in(BUSY_RETRY.total_seconds())

    async def _write_held(
        self, guild: str, name: str, sheet: str, batch: list[OutboxItem], held: Held
    ) -> None:
        client = self.access.sheets_client()
        info = await self.store.tournament(guild, name)
        if info.sheet is None or info.sheet.spreadsheet_id != sheet:
            await self._give_back(batch, "the tournament is no longer linked to this sheet")
            return
        wait = await self.access.spend(WRITE_READS, WRITE_WRITES, guild=guild)
        if wait:  # the server's share of the account's minute is spent: after it
            await self.linked.postpone_writes(
                batch,
                self.access.worker,
                retry_in=timedelta(seconds=wait),
                why=Waiting.BUDGET.noted(f"for {wait:.1f} s"),
            )
            self._due_in(wait)
            return
        try:
            snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
            there = written_keys(snapshot)
            found = await asyncio.to_thread(read_input, snapshot)
            await self.access.check_use(
                guild, sheet, found.settings.discord_servers, title=snapshot.title
            )
            members = await self.players.members(
                await self.store.players(guild, name), found.players
            )
            matched = match_players(members, found.players)
            labels = labels_of(members, found.players, matched)
            rows = [
                report_row(i.payload, labels) for i in batch if i.payload.get("key") not in there
            ]
            requests = append_requests(snapshot, rows) if rows else []
            requests += players_requests(snapshot, player_rows(members, found.players, matched))
            after = snapshot  # nothing written: what was read is what is there
            if requests:
                await asyncio.to_thread(
                    client.http_client.batch_update, sheet, {"requests": requests}
                )
                after = await asyncio.to_thread(read_snapshot, client, sheet)
        except (TabTaken, SheetNotNamed) as error:
            log.warning("%s: %s", name, error, extra={"guild_id": guild})
            why = Waiting.of(error).noted(str(error))
            await self._give_back(batch, why, self.retry.maximum if self.retry else 0)
            return
        except SheetsError as error:
            if isinstance(error, SheetsTimeoutError) or (
                isinstance(error, SheetsUnavailableError) and error.status is None
            ):
                # The write may land later: wait before writing this sheet again, so that
                # nothing written meanwhile can be overwritten by it.
                self._hold[sheet] = time.monotonic() + 2 * self.access.timeout
                held.keep = timedelta(
                    seconds=2 * self.access.timeout
                )  # and no other process either
            log.warning(
                "results of %s are pending: %s",
                name,
                error,
                extra={"guild_id": guild, "spreadsheet": sheet},
            )
            await self._give_back(batch, Waiting.of(error).noted(str(error)))
            return
        landed = written_keys(after)
        missing = []
        for item in batch:
            if item.payload.get("key") in landed:
                await self.linked.mark_written(item, self.access.worker)
            else:
                missing.append(item)
        if missing:
            await self._give_back(missing, "its row was not in the sheet after writing")
        await self.reader.adopt(guild, info, after)

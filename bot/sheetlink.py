"""The bot's side of the Discord ↔ Google Sheets link (issue 8).

A tournament linked to a spreadsheet (``/tournament link-sheet``) is kept in the TD's sheet:
the sheet is the source of truth. :class:`SheetLinks` (one per bot, ``bot.sheets``):

- **writes** each result made final in Discord to the sheet's ``Discord reports`` tab, from
  the store's outbox (:mod:`bot.store.outbox`). The command that made the result waits a few
  seconds for it to land and otherwise tells the member it is pending; a background task
  writes whatever is due, backing off while Google is unreachable or over quota. Before
  writing it reads the tab and skips rows whose key is already there, and it marks a result
  written only once it has seen its row in the sheet: a result lands once, exactly once;
- then **syncs** the sheet as the worker does (:func:`sheets.sync.sync`: one read, at most
  one write), so its Standings tab shows the same places as Discord;
- **reads** the sheet for ``/standings``, ``/crosstable`` and ``/why``: what the TD typed,
  merged with the Discord reports (:mod:`sheets.reports`), ranked by ``core`` under the
  sheet's own rules. A read is reused for ``HARKNESS_SHEETS_REFRESH`` seconds however many
  members ask (one read at a time per sheet), and its standings for as long as the input's
  hash is the same, so a busy evening costs a few reads a minute;
- tells the TD who linked the sheet, in a direct message, when a Discord report disagrees
  with what they typed (their cell stands); ``/result open`` lists those too;
- keeps the sheet's ``Discord players`` tab saying which member each player is.

gspread is synchronous, so every Sheets call runs in a worker thread, and the calls for one
spreadsheet are made one at a time. Nothing here computes a tiebreak: standings are
:func:`core.standings.compute_standings`'s. Without Sheets settings (no
``GOOGLE_APPLICATION_CREDENTIALS``) linking is refused with instructions, and a linked
tournament answers from Discord's own results, saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import socket
import time
import uuid
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, TypeVar

import discord

from bot.errors import UserError
from bot.settings import BotSettings
from bot.store import (
    Actor,
    DiscordUser,
    OutboxItem,
    PlayerInfo,
    PlayerRef,
    StandingsView,
    Store,
    StoreError,
    TournamentInfo,
    TournamentState,
)
from bot.store.outbox import key as outbox_key
from core.problems import HarknessError
from core.standings import Standings, compute_standings

SHEETS_MISSING: str | None = None
try:  # the bot also runs without the Sheets extra: linking then says what is missing
    from sheets.client import (
        RetryPolicy,
        SheetsAuthError,
        SheetsClient,
        SheetsError,
        SheetsNotFoundError,
        SheetsPermissionError,
        SheetsTimeoutError,
        SheetsUnavailableError,
        open_client,
    )
    from sheets.read import PlayerRow
    from sheets.reports import (
        PLAYERS_MARKER,
        PLAYERS_TAB,
        REPORTS_MARKER,
        REPORTS_TAB,
        Member,
        ReportConflict,
        TabTaken,
        append_requests,
        discord_of,
        foreign_tab,
        labels_of,
        match_players,
        names_member,
        player_rows,
        players_requests,
        report_row,
        written_keys,
    )
    from sheets.settings import SheetsSettings
    from sheets.snapshot import Snapshot
    from sheets.sync import SheetInput, read_input, read_snapshot, spreadsheet_id, sync
except ImportError as missing:  # pragma: no cover - the test environment has the extra
    SHEETS_MISSING = str(missing)

log = logging.getLogger("harkness.bot")
T = TypeVar("T")

NOT_SET_UP = (
    "this bot is not set up for Google Sheets: its operator gives it a Google service "
    "account's key (GOOGLE_APPLICATION_CREDENTIALS, the JSON key file; see the README, "
    "\"Google Sheets\") and restarts it. Until then the tournament is kept in Discord only")
NOT_INSTALLED = (
    "this bot was installed without Google Sheets support: its operator installs "
    "harkness[sheets] (gspread and google-auth) and restarts it")
#: How long a worker may hold results it is writing before another may take them.
LEASE = timedelta(minutes=10)
#: Who the bot is when it records something of its own (conflicts it told the TD about).
HARKNESS = Actor("harkness", "Harkness", td=True)
#: Guild setting holding the conflicts already told to the TD, by tournament id.
CONFLICTS_TOLD = "sheet_conflicts:{tournament}"

WRITTEN = "📗 Written to the Google Sheet (its Discord reports tab); its Standings tab is updated."
PENDING = ("⏳ Saved. Google Sheets is not answering just now, so it will be written to the "
           "sheet as soon as it does (pending); nothing is lost.")
PENDING_NO_SHEETS = ("⏳ Saved in Discord; it will be written to the Google Sheet once this bot "
                     "is set up for Google Sheets (pending).")


class SheetUnreadable(UserError):
    """The linked sheet cannot be read now, and nothing read earlier is at hand."""


@dataclass(frozen=True)
class SheetView:
    """A linked sheet as last read: its input (merged with the Discord reports), and its
    standings under the sheet's own rules. ``held`` is True when the sheet has problems now
    and these are the last good standings (as the worker keeps them on the Standings tab);
    ``stale`` when the sheet could not be read again and this is the last read."""

    spreadsheet_id: str
    title: str
    fetched: float
    input: SheetInput
    standings: Standings | None
    held: bool = False
    stale: bool = False

    @property
    def conflicts(self) -> list[ReportConflict]:
        """Discord reports that disagree with what the TD typed (not applied)."""
        return [n for n in self.input.notices if isinstance(n, ReportConflict)]


def links_of(interaction: discord.Interaction[discord.Client]) -> SheetLinks | None:
    """The sheet links of the bot that received the interaction (None before start-up)."""
    links = getattr(interaction.client, "sheets", None)
    return links if isinstance(links, SheetLinks) else None


def _short(error: BaseException) -> str:
    text = str(error).split(" (Google:")[0]
    return text if len(text) <= 300 else text[:299] + "…"


class SheetLinks:
    """The link between the bot's tournaments and their spreadsheets (see the module).

    ``clock`` measures how fresh a read is (tests move it by hand); the outbox's retry times
    are the store's.
    """

    def __init__(self, bot: discord.Client, store: Store, settings: BotSettings,
                 client: SheetsClient | None, why_not: str | None = None, *,
                 timeout: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.store = store
        self.client = client
        self.why_not = why_not
        self.clock = clock
        self.refresh_seconds = settings.sheets_refresh
        self.poll_seconds = settings.sheets_outbox_poll
        self.answer_wait = settings.sheets_answer_wait
        self.retry = RetryPolicy(0, settings.sheets_outbox_retry, settings.sheets_outbox_max) \
            if SHEETS_MISSING is None else None
        self.timeout = timeout
        self.worker = f"harkness-bot:{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._rng = random.Random()
        self._views: dict[str, SheetView] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._hold: dict[str, float] = {}
        self._usernames: dict[str, str | None] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = asyncio.Event()
        self._next_due: float | None = None
        self._loop: asyncio.Task[None] | None = None

    @classmethod
    def from_environment(cls, bot: discord.Client, store: Store, settings: BotSettings
                         ) -> SheetLinks:
        """Sheet links configured from the environment, or switched off with the reason."""
        if SHEETS_MISSING is not None:
            log.warning("Google Sheets is off: %s", SHEETS_MISSING)
            return cls(bot, store, settings, None, NOT_INSTALLED)
        try:
            sheets_settings = SheetsSettings()
        except ValueError as error:
            log.warning("Google Sheets is off: bad settings: %s", error)
            return cls(bot, store, settings, None,
                       "this bot's Google Sheets settings are wrong: its operator sees why in "
                       "the log")
        if sheets_settings.google_application_credentials is None:
            log.info("Google Sheets is off: GOOGLE_APPLICATION_CREDENTIALS is not set")
            return cls(bot, store, settings, None, NOT_SET_UP)
        try:
            client = open_client(sheets_settings)
        except SheetsError as error:
            log.warning("Google Sheets is off: %s", error)
            return cls(bot, store, settings, None,
                       "this bot's Google service account key cannot be used: its operator "
                       "sees why in the log")
        log.info("Google Sheets is on, as service account %s", client.service_account_email)
        return cls(bot, store, settings, client, timeout=sheets_settings.timeout)

    @property
    def available(self) -> bool:
        """Whether this bot can reach Google Sheets at all."""
        return self.client is not None

    def _client(self) -> SheetsClient:
        if self.client is None:
            raise UserError(self.why_not or NOT_SET_UP)
        return self.client

    def _lock(self, spreadsheet: str) -> asyncio.Lock:
        return self._locks.setdefault(spreadsheet, asyncio.Lock())

    def _spawn(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``work`` as a task the bot keeps (and cancels when it stops); a failure is
        logged, never left unseen."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("Google Sheets work failed", exc_info=task.exception())

    async def _bounded(self, work: Coroutine[Any, Any, T]) -> T | None:
        """Run ``work`` for at most the answer wait; it goes on in the background after.
        None when it is not done by then or failed (the failure is logged)."""
        task = self._spawn(work)
        done, _ = await asyncio.wait({task}, timeout=self.answer_wait)
        if task not in done or task.cancelled() or task.exception() is not None:
            return None
        return task.result()

    # -- running ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start writing due results in the background (when Sheets is available)."""
        if self.client is not None and self._loop is None:
            self._loop = asyncio.create_task(self._run(), name="harkness-sheets-outbox")

    def wake(self) -> None:
        """Look for results to write now."""
        self._wake.set()

    async def close(self) -> None:
        """Stop the background work (a write in flight is finished by its thread)."""
        tasks = [t for t in (self._loop, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._loop = None

    async def _run(self) -> None:
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

    # -- linking ---------------------------------------------------------------------------

    async def link(self, guild: str, info: TournamentInfo, url: str, td: Actor) -> list[str]:
        """Link ``info`` to the spreadsheet at ``url`` (TD): check at once that the service
        account can open and edit it, add the bot's tabs, add the sheet's players Discord does
        not know yet, and sync. Answers the lines of the reply."""
        client = self._client()
        try:
            sheet = spreadsheet_id(url)
        except SheetsError:
            raise UserError(f"{url.strip()[:200]!r} is not a Google Sheets link: copy the "
                            "spreadsheet's address from your browser") from None
        async with self._lock(sheet):
            try:
                snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
                for title, marker in ((REPORTS_TAB, REPORTS_MARKER),
                                      (PLAYERS_TAB, PLAYERS_MARKER)):
                    taken = foreign_tab(snapshot, title, marker)
                    if taken is not None:
                        raise UserError(f"the spreadsheet already has a tab named "
                                        f"“{taken.title}” that Harkness did not make: rename "
                                        "it, then link the sheet again")
                found = await asyncio.to_thread(read_input, snapshot)
                members = await self._members(await self.store.players(guild, info.name),
                                              found.players)
                matched = match_players(members, found.players)
                requests = append_requests(snapshot, []) + players_requests(
                    snapshot, player_rows(members, found.players, matched))
                if not requests:  # nothing to add: a harmless write still proves edit access
                    tab = snapshot.tab(REPORTS_TAB)
                    assert tab is not None
                    requests = [{"updateSheetProperties": {
                        "properties": {"sheetId": tab.sheet_id,
                                       "gridProperties": {"frozenRowCount": 1}},
                        "fields": "gridProperties.frozenRowCount"}}]
                await asyncio.to_thread(client.http_client.batch_update, sheet,
                                        {"requests": requests})
            except SheetsError as error:
                raise self._refusal(error) from None
            linked = await self.store.link_sheet(guild, info.name, td, spreadsheet_id=sheet,
                                                 url=url.strip())
            added = await self._add_sheet_players(guild, linked, found.players, matched, td)
        self._views.pop(sheet, None)
        lines = [f"🔗 **{linked.name}** is kept in the Google Sheet “{snapshot.title}” from now "
                 "on: what the TD types there wins.",
                 "Results confirmed in Discord are added to its **Discord reports** tab, and "
                 "`/standings`, `/crosstable` and `/why` read the sheet."]
        known = len(found.players)
        lines.append(f"The sheet lists {known} player{'s' if known != 1 else ''}; "
                     f"{len(matched)} of them {'is' if len(matched) == 1 else 'are'} already "
                     "registered here"
                     + (f", and {len(added)} {'was' if len(added) == 1 else 'were'} added so "
                        f"members can name them: {', '.join(added[:10])}" if added else "")
                     + ".")
        strangers = [m.name for m in members if m.key not in matched]
        if strangers:
            lines.append(f"⚠️ Registered here but not on the sheet: {', '.join(strangers[:10])}"
                         " — add them to the results tab (or write their Discord name in its "
                         "Discord column) so their games count there.")
        try:
            view = await self.view(guild, linked, force=True)
        except SheetUnreadable as error:
            lines.append(f"The standings will be read when Google answers ({error.message}).")
        else:
            if view.input.problems:
                lines.append(f"The sheet has {len(view.input.problems)} problem(s): they are "
                             "listed on its Errors tab.")
        return lines

    async def unlink(self, guild: str, info: TournamentInfo, td: Actor) -> list[str]:
        """Unlink the spreadsheet (TD); results waiting to be written stay queued."""
        if info.sheet is None:
            raise UserError(f"{info.name} is not linked to a Google Sheet")
        waiting = len(await self.store.pending_writes(guild, info.name))
        await self.store.unlink_sheet(guild, info.name, td)
        self._views.pop(info.sheet.spreadsheet_id, None)
        lines = [f"**{info.name}** is no longer linked to its Google Sheet: Discord keeps the "
                 "results, and the sheet is left as it is."]
        if waiting:
            lines.append(f"{waiting} result(s) were still waiting to be written to the sheet; "
                         "they stay queued and are written if you link the same sheet again.")
        return lines

    def _refusal(self, error: SheetsError) -> UserError:
        """What a TD is told when the sheet cannot be linked."""
        if isinstance(error, SheetsPermissionError):
            return UserError(
                f"Harkness may not open and edit that spreadsheet. Share it with "
                f"{error.share_with} as an Editor (Share → add {error.share_with} → Editor), "
                "then run /tournament link-sheet again")
        if isinstance(error, SheetsNotFoundError):
            return UserError("there is no spreadsheet at that link (or it was deleted): copy "
                             "the spreadsheet's address from your browser")
        if isinstance(error, SheetsAuthError):
            log.error("Google refused the service account: %s", error)
            return UserError("Google refused this bot's service account; nothing was linked. "
                             "Tell the bot's operator (the log says why)")
        return UserError(f"Google Sheets did not answer just now, so nothing was linked: try "
                         f"again in a minute ({_short(error)})")

    async def _add_sheet_players(self, guild: str, info: TournamentInfo,
                                 players: Mapping[int, PlayerRow], matched: Mapping[int, int],
                                 td: Actor) -> list[str]:
        """Register the sheet's players Discord does not know, so members can name them."""
        known = set(matched.values())
        added = []
        for number, player in sorted(players.items()):
            if number in known:
                continue
            value = discord_of(player).strip().removeprefix("<@").removesuffix(">").lstrip("!")
            try:
                await self.store.add_player(guild, info.name, player.name, actor=td,
                                            rating=player.rating,
                                            discord_id=value if value.isdigit() else None)
            except StoreError as error:
                log.info("sheet player %s not added: %s", player.name, error.message)
                continue
            added.append(player.name)
        return added

    # -- reading ---------------------------------------------------------------------------

    def _fresh(self, view: SheetView) -> bool:
        return self.clock() - view.fetched < self.refresh_seconds

    async def view(self, guild: str, info: TournamentInfo, *, force: bool = False) -> SheetView:
        """The linked sheet as read at most ``HARKNESS_SHEETS_REFRESH`` seconds ago (read now,
        and synced, when older). When it cannot be read, the last read is answered (marked
        stale) or :class:`SheetUnreadable` raised."""
        client = self._client()
        assert info.sheet is not None
        sheet = info.sheet.spreadsheet_id
        cached = self._views.get(sheet)
        if not force and cached is not None and self._fresh(cached):
            return cached
        async with self._lock(sheet):
            cached = self._views.get(sheet)
            if not force and cached is not None and self._fresh(cached):
                return cached  # someone else read it while this one waited
            try:
                snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
            except SheetsError as error:
                log.warning("cannot read the sheet of %s: %s", info.name, error,
                            extra={"guild_id": guild, "spreadsheet": sheet})
                if cached is not None:
                    return replace(cached, stale=True)
                if isinstance(error, SheetsPermissionError):
                    raise SheetUnreadable(f"the Google Sheet of {info.name} is no longer shared "
                                          f"with {error.share_with}: a TD shares it again (as "
                                          "an Editor)") from None
                raise SheetUnreadable(f"the Google Sheet of {info.name} cannot be read just "
                                      f"now ({_short(error)})") from None
            return await self._adopt(guild, info, snapshot)

    async def _adopt(self, guild: str, info: TournamentInfo, snapshot: Snapshot) -> SheetView:
        """Make ``snapshot`` the sheet's current view, sync the sheet from it (the worker's
        write, only when its input changed), and tell the TD of new conflicts. Called with
        the sheet's lock held."""
        client = self._client()
        sheet = snapshot.spreadsheet_id or (info.sheet.spreadsheet_id if info.sheet else "")
        view = await asyncio.to_thread(self._view_of, sheet, snapshot, self._views.get(sheet))
        self._views[sheet] = view
        try:
            await asyncio.to_thread(sync, client, sheet, snapshot=snapshot)
        except SheetsError as error:
            log.warning("could not update the output tabs of the sheet of %s: %s", info.name,
                        error, extra={"guild_id": guild, "spreadsheet": sheet})
        await self._tell_conflicts(guild, info, view)
        return view

    def _view_of(self, sheet: str, snapshot: Snapshot, previous: SheetView | None) -> SheetView:
        """Read and rank a snapshot (in a worker thread); the standings of an unchanged input
        are reused."""
        found = read_input(snapshot)
        if previous is not None and previous.input.digest == found.digest:
            return SheetView(sheet, snapshot.title, self.clock(), found, previous.standings,
                             previous.held)
        t, profile = found.tournament, found.profile
        if t is not None and profile is not None and t.rounds:
            return SheetView(sheet, snapshot.title, self.clock(), found,
                             compute_standings(t, profile))
        if t is None and previous is not None and previous.standings is not None:
            return SheetView(sheet, snapshot.title, self.clock(), found, previous.standings,
                             True)
        return SheetView(sheet, snapshot.title, self.clock(), found, None)

    def standings_view(self, view: SheetView, info: TournamentInfo,
                       after_round: int | None) -> StandingsView:
        """The sheet's standings (after ``after_round``), shaped for the bot's renderers."""
        standings = view.standings
        if standings is None:
            problems = len(view.input.problems)
            if problems:
                raise UserError(f"the Google Sheet of {info.name} has {problems} problem(s), so "
                                "it has no standings yet: a TD sees them on its Errors tab")
            raise UserError(f"{info.name} has no results on its Google Sheet yet")
        t = standings.tournament
        k = t.rounds if after_round is None else after_round
        if not 1 <= k <= t.rounds:
            raise UserError(f"round {k} has no results: the Google Sheet of {info.name} has "
                            f"results for rounds 1–{t.rounds}")
        if k != t.rounds:
            standings = compute_standings(t.after_round(k), standings.profile)
        planned = view.input.settings.rounds or max(info.rounds, t.rounds)
        state = TournamentState(replace(info, rounds=planned), (), standings.tournament, {}, (),
                                (), 0)
        return StandingsView(state, standings, k)

    @staticmethod
    def source_note(view: SheetView) -> str:
        """Where the answer comes from, for a footer."""
        note = f"from the Google Sheet “{view.title}”"
        if view.held:
            note += " (the sheet has problems now: these are its last good standings)"
        if view.stale:
            note += " (it cannot be read just now: this is the last read)"
        return note

    async def number_of(self, guild: str, info: TournamentInfo, view: SheetView,
                        player: PlayerRef, username: str | None = None) -> int:
        """The sheet's starting number of ``player``: a number, ``#n``, a name, a mention, or
        a member (by the sheet's Discord column, else by their registration here)."""
        standings = view.standings
        assert standings is not None
        t = standings.tournament
        if isinstance(player, str) and player.strip().startswith("<@"):
            player = DiscordUser(player.strip().strip("<@!>"))
        if isinstance(player, DiscordUser):
            if username:
                self._usernames[player.id] = username
            for number, row in view.input.players.items():
                if names_member(discord_of(row), player.id, username):
                    return number
            registered = [p for p in await self.store.players(guild, info.name)
                          if p.discord_id == player.id]
            if registered:
                members = await self._members(registered, view.input.players)
                found = match_players(members, view.input.players).get(registered[0].id)
                if found is not None:
                    return found
            raise UserError(f"you are not on the Google Sheet of {info.name}: name a player "
                            "with the player option, or ask a TD to link you (/player link)")
        if isinstance(player, int):
            if not any(p.id == player for p in t.players):
                raise UserError(f"the Google Sheet of {info.name} has no player #{player}")
            return player
        from core.explain import find_player

        try:
            return find_player(t, player).id
        except HarknessError as error:
            raise UserError(error.problems[0].message.removeprefix("PLAYER ")) from None

    async def conflict_lines(self, guild: str, info: TournamentInfo) -> list[str]:
        """The Discord reports the sheet disagrees with, in words (for ``/result open``)."""
        if info.sheet is None or self.client is None:
            return []
        try:
            view = await self.view(guild, info)
        except UserError:
            return []
        return [f"{c.cell} says “{c.text}”, but Discord has {c.report}" for c in view.conflicts]

    # -- writing ---------------------------------------------------------------------------

    async def landed(self, guild: str, info: TournamentInfo, seq: int) -> str:
        """Write the result of event ``seq`` to the sheet now (waiting at most the answer
        wait), and say in a line what became of it: written, pending, or written but
        disagreeing with the sheet."""
        if info.sheet is None:
            return ""
        if self.client is None:
            return PENDING_NO_SHEETS
        sheet = info.sheet.spreadsheet_id
        deadline = time.monotonic() + self.answer_wait
        await self._bounded(self.flush(guild))
        pending = await self._pending(guild, info, seq)
        lock = self._lock(sheet)
        if pending and lock.locked():  # the background writer has it: let it finish
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    async with lock:
                        pass
            pending = await self._pending(guild, info, seq)
        if pending:
            return PENDING
        view = self._views.get(sheet)
        key = outbox_key(guild, info.id, seq)
        clash = [c for c in view.conflicts if c.key == key] if view is not None else []
        if clash:
            return (f"⚠️ Written to the Google Sheet, but its cell {clash[0].cell} says "
                    f"“{clash[0].text}”: what the TD typed there stands, and the TD has been "
                    "told.")
        return WRITTEN

    async def _pending(self, guild: str, info: TournamentInfo, seq: int) -> bool:
        return any(i.event_seq == seq for i in await self.store.pending_writes(guild, info.name))

    async def flush(self, guild: str | None = None) -> None:
        """Write every result that is due (of ``guild``, or of every guild), sheet by sheet."""
        if self.client is None:
            return
        items = await self.store.claim_writes(self.worker, limit=100, lease=LEASE, guild=guild)
        groups: dict[tuple[str, str, str], list[OutboxItem]] = {}
        for item in items:
            groups.setdefault((item.guild, item.tournament, item.spreadsheet_id), []).append(item)
        for (g, name, sheet), batch in groups.items():
            try:
                await self._write(g, name, sheet, batch)
            except Exception as error:  # a bug or the database: give them back, go on
                log.exception("writing results of %s to its sheet failed", name,
                              extra={"guild_id": g, "spreadsheet": sheet})
                await self._give_back(batch, f"{type(error).__name__}: {error}")

    async def _give_back(self, items: Sequence[OutboxItem], why: str,
                         at_least: float = 0.0) -> None:
        """Return claimed results to the outbox, due again after a backoff."""
        assert self.retry is not None
        for item in items:
            wait = max(at_least, self.retry.backoff(item.attempts, self._rng))
            await self.store.mark_failed(item, self.worker, why, retry_in=timedelta(seconds=wait))
            due = time.monotonic() + wait
            self._next_due = due if self._next_due is None else min(self._next_due, due)

    async def _write(self, guild: str, name: str, sheet: str, batch: list[OutboxItem]) -> None:
        """Append one sheet's results (those not there yet), check they are there, sync."""
        client = self._client()
        hold = self._hold.get(sheet, 0.0) - time.monotonic()
        if hold > 0:
            await self._give_back(batch, "an earlier write to this sheet may still be landing",
                                  hold)
            return
        async with self._lock(sheet):
            info = await self.store.tournament(guild, name)
            if info.sheet is None or info.sheet.spreadsheet_id != sheet:
                await self._give_back(batch, "the tournament is no longer linked to this sheet")
                return
            try:
                snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
                there = written_keys(snapshot)
                found = await asyncio.to_thread(read_input, snapshot)
                members = await self._members(await self.store.players(guild, name),
                                              found.players)
                matched = match_players(members, found.players)
                labels = labels_of(members, found.players, matched)
                rows = [report_row(i.payload, labels) for i in batch
                        if i.payload.get("key") not in there]
                requests = append_requests(snapshot, rows) if rows else []
                requests += players_requests(snapshot,
                                             player_rows(members, found.players, matched))
                after = snapshot  # nothing written: what was read is what is there
                if requests:
                    await asyncio.to_thread(client.http_client.batch_update, sheet,
                                            {"requests": requests})
                    after = await asyncio.to_thread(read_snapshot, client, sheet)
            except TabTaken as error:
                log.warning("%s: %s", name, error, extra={"guild_id": guild})
                await self._give_back(batch, str(error), self.retry.maximum if self.retry else 0)
                return
            except SheetsError as error:
                if isinstance(error, SheetsTimeoutError) or (
                        isinstance(error, SheetsUnavailableError) and error.status is None):
                    # The write may land later: wait before writing this sheet again, so that
                    # nothing written meanwhile can be overwritten by it.
                    self._hold[sheet] = time.monotonic() + 2 * self.timeout
                log.warning("results of %s are pending: %s", name, error,
                            extra={"guild_id": guild, "spreadsheet": sheet})
                await self._give_back(batch, str(error))
                return
            landed = written_keys(after)
            missing = []
            for item in batch:
                if item.payload.get("key") in landed:
                    await self.store.mark_written(item, self.worker)
                else:
                    missing.append(item)
            if missing:
                await self._give_back(missing, "its row was not in the sheet after writing")
            await self._adopt(guild, info, after)

    # -- players -----------------------------------------------------------------------------

    async def _username(self, discord_id: str) -> str | None:
        """A member's Discord username (for ``@name`` in a Discord column), cached."""
        if discord_id not in self._usernames:
            name: str | None = None
            with contextlib.suppress(ValueError, discord.HTTPException):
                user = self.bot.get_user(int(discord_id)) or await self.bot.fetch_user(
                    int(discord_id))
                name = user.name
            self._usernames[discord_id] = name
        return self._usernames[discord_id]

    async def _members(self, registered: Sequence[PlayerInfo], players: Mapping[int, PlayerRow]
                       ) -> list[Member]:
        """The registered players as :class:`~sheets.reports.Member` s. Their usernames are
        the ones seen in commands, and are looked up only when the sheet names someone by
        ``@name``."""
        by_name = any(discord_of(p).strip().startswith("@") for p in players.values())
        members = []
        for p in registered:
            name = self._usernames.get(p.discord_id) if p.discord_id else None
            if name is None and by_name and p.discord_id:
                name = await self._username(p.discord_id)
            members.append(Member(p.id, p.name, p.number, p.discord_id, name))
        return members

    async def join(self, guild: str, info: TournamentInfo, who: Actor, *, name: str | None,
                   rating: int | None, username: str | None) -> tuple[PlayerInfo, str]:
        """``/join`` on a linked tournament: the member becomes the sheet's player of their
        name (or whom its Discord column names), and the sheet's Discord players tab says so.
        Answers the player and a line about the sheet."""
        try:
            view = await self.view(guild, info)
        except UserError as error:
            player = await self.store.join(guild, info.name, who, name=name, rating=rating)
            return player, f"(The Google Sheet could not be read: {error.message}.)"
        if username:
            self._usernames[who.user] = username
        players = view.input.players
        wanted = " ".join((name or who.label).casefold().split())
        by_discord = [n for n, p in players.items()
                      if names_member(discord_of(p), who.user, username)]
        by_name = [n for n, p in players.items() if " ".join(p.name.casefold().split()) == wanted]
        number = by_discord[0] if by_discord else by_name[0] if len(by_name) == 1 else None
        if number is None:
            player = await self.store.join(guild, info.name, who, name=name, rating=rating)
            note = (f"⚠️ The Google Sheet has no player called {player.name}: ask a TD to add "
                    "you to its results tab, or to link you with /player link.")
        else:
            sheet_name = players[number].name
            free = [p for p in await self.store.players(guild, info.name)
                    if p.discord_id is None and " ".join(p.name.casefold().split())
                    == " ".join(sheet_name.casefold().split())]
            if free:  # the sheet's player is registered already (by the TD): it is them
                player = await self.store.link_player(guild, info.name, free[0].number,
                                                      who.user, replace(who, td=True))
            else:
                player = await self.store.join(guild, info.name, who, name=sheet_name,
                                               rating=rating)
            note = f"📗 On the Google Sheet you are #{number} {sheet_name}."
        await self.players_changed(guild, info)
        return player, note

    async def players_changed(self, guild: str, info: TournamentInfo) -> None:
        """Bring the sheet's Discord players tab up to date (waiting at most the answer wait;
        the next write of a result does it otherwise)."""
        if info.sheet is not None and self.client is not None:
            await self._bounded(self._write_players(guild, info))

    async def _write_players(self, guild: str, info: TournamentInfo) -> None:
        client = self._client()
        assert info.sheet is not None
        sheet = info.sheet.spreadsheet_id
        async with self._lock(sheet):
            try:
                snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
                found = await asyncio.to_thread(read_input, snapshot)
                members = await self._members(await self.store.players(guild, info.name),
                                              found.players)
                matched = match_players(members, found.players)
                requests = players_requests(snapshot, player_rows(members, found.players,
                                                                  matched))
                if requests:
                    await asyncio.to_thread(client.http_client.batch_update, sheet,
                                            {"requests": requests})
            except (SheetsError, TabTaken) as error:
                log.warning("the Discord players tab of %s was not updated: %s", info.name,
                            error, extra={"guild_id": guild, "spreadsheet": sheet})

    async def sheet_name_of(self, guild: str, info: TournamentInfo, player: PlayerInfo
                            ) -> str:
        """How the sheet knows a registered player (``#3 Carol``), or a warning line."""
        try:
            view = await self.view(guild, info)
        except UserError:
            return ""
        members = await self._members([player], view.input.players)
        number = match_players(members, view.input.players).get(player.id)
        if number is None:
            return (f"⚠️ {player.name} is not on the Google Sheet: add them to its results tab "
                    "so their games count there.")
        return f"📗 On the Google Sheet: #{number} {view.input.players[number].name}."

    # -- telling the TD ------------------------------------------------------------------------

    async def _tell_conflicts(self, guild: str, info: TournamentInfo, view: SheetView) -> None:
        """Send the TD who linked the sheet the conflicts they have not been told of yet."""
        setting = CONFLICTS_TOLD.format(tournament=info.id)
        now = {f"{c.key}|{c.cell}|{c.text}": c for c in view.conflicts}
        told = set(json.loads(await self.store.get_setting(guild, setting) or "[]"))
        if set(now) == told:
            return
        await self.store.set_setting(guild, setting, json.dumps(sorted(now)) if now else None,
                                     HARKNESS)
        new = [c for signature, c in now.items() if signature not in told]
        if new and info.sheet is not None:
            await self._direct_message(info.sheet.linked_by, conflict_message(info.name, new))

    async def _direct_message(self, user_id: str, text: str) -> None:
        try:
            user = self.bot.get_user(int(user_id)) or await self.bot.fetch_user(int(user_id))
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except (ValueError, discord.HTTPException) as error:
            log.warning("could not send the TD a direct message: %s", error,
                        extra={"user_id": user_id})


def conflict_message(tournament: str, conflicts: Sequence[ReportConflict]) -> str:
    """The direct message to the TD about reports that disagree with their sheet."""
    from bot.render import MESSAGE_MAX, lines_within

    count = len(conflicts)
    head = (f"⚠️ **{tournament}**: {count} result{'s' if count != 1 else ''} reported in "
            f"Discord disagree{'s' if count == 1 else ''} with your Google Sheet. What you typed "
            "stands (nothing in your tabs was changed), and the sheet's Errors tab lists it:")
    tail = ("Correct the cell if Discord is right, or correct Discord with `/result set` "
            "(`/result open` lists these).")
    lines = [f"• {c.cell} says “{c.text}”, but Discord has {c.report}." for c in conflicts]
    body = lines_within(lines, MESSAGE_MAX - len(head) - len(tail) - 2)
    return f"{head}\n{body}\n{tail}"

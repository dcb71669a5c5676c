"""``harkness-sheets serve``: the endpoint the Apps Script add-on calls when a TD edits.

Every ``POST`` names one spreadsheet (``{"spreadsheetId": "1AbC…"}``) and carries that
sheet's own key in ``X-Harkness-Key``, checked by the gate (:mod:`sheets.gate`; the key is
:mod:`sheets.addon_keys`'s): a key opens its sheet and no other.

- ``POST /connect``: the add-on connects its sheet (the worker reads the key's hash from
  the sheet's developer metadata, where only an editor can have written it, and keeps it).
- ``POST /sync``: asks for a sync of the sheet. The answer comes at once (``202
  Accepted``); the sync runs later, **debounced** (``debounce`` seconds after the last
  request for that sheet, but no later than ``max_wait`` after the first, so a burst of
  edits costs one sync; a request while the sheet's sync runs schedules one more after it)
  and **queued** (one at a time, in the order they fell due, in a worker thread, no more
  than ``syncs_per_minute`` starting in any minute).
- ``POST /pair``: pairs the sheet's next round (:mod:`sheets.pairing`) and says what it did,
  in a turn at the sheet (:mod:`sheets.turns`): one pairing of a sheet at a time, the
  sheet's lease held (no bot shard or sync writes it meanwhile), its requests spent from the
  service account's budget first; ``503`` with ``Retry-After`` and the reason when it gets
  no turn within seconds. Pressed twice, it pairs once and then says "already paired".
- ``POST /disconnect``: the worker forgets the sheet's keys (every editor's).
- ``GET /healthz`` answers ``{"ok": true, "pending": n, "set_aside": m}`` (``m``: syncs no
  running worker's service account can open, :mod:`sheets.jobs`).

Slow callers are cut: a connection that has not sent a whole request's headers within
:data:`HEADER_SECONDS` is closed, a body not in within :data:`sheets.gate.BODY_SECONDS` is
answered ``408`` and the connection closed, a body over :data:`BODY_MAX_BYTES` is refused
(``413``). The ``Server`` header names no versions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from aiohttp import hdrs, web, web_response
from aiohttp.typedefs import Handler, Middleware

from core.pairing.isolated import stop_all as stop_all_pairings
from sheets.addon_keys import KeyWithdrawn, commitment, digests_of
from sheets.budget import PAIR_READS, PAIR_WRITES, SYNC_READS, SYNC_WRITES
from sheets.forwarded import Network, client_address
from sheets.gate import Gate, loggable
from sheets.metrics import SYNC_JOBS
from sheets.sync import SyncResult
from sheets.turns import Busy, Turns

logger = logging.getLogger(__name__)


class QueueFull(Exception):
    """Too many spreadsheets are waiting for a sync."""


class Queue(Protocol):
    """What the endpoint needs of a queue of syncs: in memory (:class:`SyncQueue`, one
    process) or in the database (:class:`sheets.jobs.DurableSyncQueue`, any worker)."""

    async def ask(self, spreadsheet_id: str, reason: str = "") -> str: ...

    async def waiting(self) -> int: ...

    async def set_aside(self) -> int: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


@dataclass
class SyncQueue:
    """Debounced, de-duplicated, one-at-a-time syncs of spreadsheets by ID.

    ``sync`` is called with a spreadsheet ID in a worker thread; its exceptions are logged,
    never raised, so one bad sheet does not stop the queue.
    """

    sync: Callable[[str], SyncResult]
    debounce: float = 5.0
    max_wait: float = 30.0
    max_pending: int = 1000
    syncs_per_minute: float = 50.0
    """The most syncs started in any minute (each is one read, and usually one write)."""
    clock: Callable[[], float] = time.monotonic
    completed: deque[tuple[str, SyncResult | None]] = field(
        default_factory=lambda: deque(maxlen=100)
    )
    """The latest syncs run (ID, result; None when it failed), newest last."""
    turns: Turns | None = None
    """Turns at the sheets (this process's lock and budget, :mod:`sheets.turns`), shared
    with the add-on's pairings: a sync waits for its turn."""
    _timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    _first: dict[str, float] = field(default_factory=dict)
    _queued: set[str] = field(default_factory=set)
    _running: set[str] = field(default_factory=set)
    _again: set[str] = field(default_factory=set)
    _queue: asyncio.Queue[str] | None = None
    _worker: asyncio.Task[None] | None = None

    @property
    def pending(self) -> int:
        """Spreadsheets waiting (debouncing or queued), not counting the one running."""
        return len(self._timers) + len(self._queued) + len(self._again)

    def request(self, spreadsheet_id: str) -> str:
        """Ask for a sync; answers ``"scheduled"``, ``"queued"`` or ``"after the running sync"``."""
        if spreadsheet_id in self._queued:
            return "queued"  # it has not started, so it will read this edit too
        if spreadsheet_id in self._running:
            self._again.add(spreadsheet_id)
            return "after the running sync"
        if spreadsheet_id not in self._timers and self.pending >= self.max_pending:
            raise QueueFull(f"{self.pending} spreadsheets are already waiting")
        self._schedule(spreadsheet_id)
        return "scheduled"

    async def ask(self, spreadsheet_id: str, reason: str = "") -> str:
        """:meth:`request`, as the endpoint asks every queue (:class:`Queue`)."""
        answer = self.request(spreadsheet_id)
        SYNC_JOBS.labels("queued").inc()
        return answer

    async def waiting(self) -> int:
        return self.pending

    async def set_aside(self) -> int:
        """None in memory: with one key, a failed sync is retried like any other."""
        return 0

    def _schedule(self, spreadsheet_id: str) -> None:
        loop = asyncio.get_running_loop()
        now = self.clock()
        first = self._first.setdefault(spreadsheet_id, now)
        delay = max(0.0, min(now + self.debounce, first + self.max_wait) - now)
        old = self._timers.pop(spreadsheet_id, None)
        if old is not None:
            old.cancel()
        self._timers[spreadsheet_id] = loop.call_later(delay, self._due, spreadsheet_id)

    def _due(self, spreadsheet_id: str) -> None:
        self._timers.pop(spreadsheet_id, None)
        self._first.pop(spreadsheet_id, None)
        assert self._queue is not None
        self._queued.add(spreadsheet_id)
        self._queue.put_nowait(spreadsheet_id)

    async def start(self) -> None:
        """Start the worker (on the running event loop)."""
        self._queue = asyncio.Queue()
        self._worker = asyncio.create_task(self._work(), name="harkness-sync-queue")

    async def stop(self) -> None:
        """Cancel waiting syncs and stop the worker (a sync already running finishes)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker

    async def _work(self) -> None:
        assert self._queue is not None
        last_start: float | None = None
        while True:
            spreadsheet_id = await self._queue.get()
            if last_start is not None:
                # Keep within the quota: Google allows a service account 60 reads a minute.
                await asyncio.sleep(
                    max(0.0, last_start + 60.0 / self.syncs_per_minute - self.clock())
                )
            last_start = self.clock()
            self._queued.discard(spreadsheet_id)
            self._running.add(spreadsheet_id)
            result: SyncResult | None = None
            try:
                SYNC_JOBS.labels("run").inc()
                async with contextlib.AsyncExitStack() as turn:
                    if self.turns is not None:
                        await turn.enter_async_context(
                            self.turns.at(
                                spreadsheet_id, reads=SYNC_READS, writes=SYNC_WRITES, wait=math.inf
                            )
                        )
                    result = await asyncio.to_thread(self.sync, spreadsheet_id)
            except Exception as error:  # logged; the queue goes on with the next sheet
                SYNC_JOBS.labels("failed").inc()
                logger.error("sync of %s failed: %s", spreadsheet_id, error)
            finally:
                self._running.discard(spreadsheet_id)
                self.completed.append((spreadsheet_id, result))
            if spreadsheet_id in self._again:
                self._again.discard(spreadsheet_id)
                self._schedule(spreadsheet_id)

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until nothing is pending or running (for tests and orderly shutdown)."""
        deadline = self.clock() + timeout
        while self.pending or self._running:
            if self.clock() > deadline:
                raise TimeoutError(f"{self.pending} syncs still pending after {timeout} s")
            await asyncio.sleep(0.01)


QUEUE_KEY: web.AppKey[Queue] = web.AppKey("queue")


def caller_middleware(trusted: Sequence[Network]) -> Middleware:
    """Sets ``request.remote`` to the caller's address (:func:`sheets.forwarded.client_address`)
    when a trusted proxy forwarded the request."""

    @web.middleware
    async def caller(request: web.Request, handler: Handler) -> web.StreamResponse:
        remote = client_address(
            request.remote, request.headers.getall(hdrs.X_FORWARDED_FOR, ()), trusted
        )
        if remote is not None and remote != request.remote:
            request = request.clone(remote=remote)
        return await handler(request)

    return caller


#: Seconds a connection may stay open without a complete request: from its start until its
#: request's headers are in, and between requests (aiohttp's ``keepalive_timeout``).
HEADER_SECONDS = 5.0
#: Seconds an answered request's unread body is read and dropped before the connection is
#: closed (aiohttp's ``lingering_time``).
LINGER_SECONDS = 1.0
#: The largest request body taken (a request names one spreadsheet).
BODY_MAX_BYTES = 16 * 1024
#: What ``serve`` calls itself in its answers' ``Server`` header: no versions.
SERVER_NAME = "harkness-sheets"


async def _no_versions(request: web.Request, response: web.StreamResponse) -> None:
    """Name the server without the versions aiohttp would send (``Python/3.11 aiohttp/…``)."""
    response.headers[hdrs.SERVER] = SERVER_NAME


def make_app(
    queue: Queue,
    gate: Gate,
    *,
    pair: Callable[[str, str], tuple[bool, str]] | None = None,
    trusted_proxies: Sequence[Network] = (),
) -> web.Application:
    """The aiohttp application: ``POST /connect``, ``/sync``, ``/pair``, ``/disconnect`` and
    ``GET /healthz``; every ``POST`` passes the ``gate`` (:mod:`sheets.gate`).

    ``pair`` pairs a spreadsheet's next round (in a worker thread: the engine takes seconds
    on a large section), given the key hash the caller connected with (the sheet must
    still hold it: :class:`~sheets.addon_keys.KeyWithdrawn` otherwise), and answers whether
    it did and what to tell the TD; ``POST /pair`` answers ``200`` with ``{"paired": bool,
    "message": str}``, or ``501`` without it. ``trusted_proxies`` are the reverse proxies
    whose ``X-Forwarded-For`` names the caller (none unless named).

    A connection that has not sent a whole request's headers within :data:`HEADER_SECONDS`
    (from its start, or from its last answer) is closed, and so is one whose body has not
    arrived within :data:`~sheets.gate.BODY_SECONDS` (``408``). A pairing takes a turn at
    its sheet (:mod:`sheets.turns`: one writer at a time, within the service account's
    budget), and says why when it gets none within seconds (``503``, ``Retry-After``).
    """

    async def connect_handler(request: web.Request) -> web.Response:
        asked = await gate.sheet_request(request)
        if isinstance(asked, web.Response):
            return asked
        return await gate.connect(asked)

    async def disconnect_handler(request: web.Request) -> web.Response:
        asked = await gate.admit(request, "a disconnect")
        if isinstance(asked, web.Response):
            return asked
        await gate.keys.keep(asked.spreadsheet_id, ())
        logger.info("disconnected %s (from %s)", asked.spreadsheet_id, asked.source)
        return web.json_response({"connected": False})

    async def sync_handler(request: web.Request) -> web.Response:
        asked = await gate.admit(request, "a sync")
        if isinstance(asked, web.Response):
            return asked
        key = asked.spreadsheet_id
        reason = asked.body.get("reason")
        try:
            state = await queue.ask(key, reason if isinstance(reason, str) else "")
        except QueueFull as error:
            return web.json_response(
                {"error": str(error)}, status=503, headers={"Retry-After": "60"}
            )
        logger.info(
            "sync of %s %s (%s)",
            key,
            state,
            "no reason given" if reason is None else f"reason: {loggable(reason)}",
        )
        return web.json_response({"spreadsheetId": key, "status": state}, status=202)

    async def pair_handler(request: web.Request) -> web.Response:
        asked = await gate.admit(request, "a pairing")
        if isinstance(asked, web.Response):
            return asked
        assert asked.digest is not None
        key = asked.spreadsheet_id
        if pair is None:
            return web.json_response({"error": "this worker does not pair rounds"}, status=501)
        try:
            async with gate.turns.at(key, reads=PAIR_READS, writes=PAIR_WRITES):
                paired, message = await asyncio.to_thread(pair, key, commitment(asked.digest))
        except Busy as busy:
            logger.info("pairing of %s waits: %s", key, busy.message)
            return web.json_response(
                {"paired": False, "message": busy.message},
                status=503,
                headers={"Retry-After": str(math.ceil(busy.retry_after))},
            )
        except KeyWithdrawn as withdrawn:
            await gate.keys.keep(key, digests_of(withdrawn.vouched))  # what the sheet holds
            logger.warning("pairing of %s refused: the sheet no longer holds its key", key)
            return web.json_response(
                {"error": "this spreadsheet no longer holds this key: connect it again"},
                status=401,
            )
        except Exception as error:  # logged; the endpoint goes on serving
            logger.error("pairing %s failed: %s", key, error)
            return web.json_response(
                {"paired": False, "message": "the worker could not pair the sheet just now"},
                status=502,
            )
        logger.info("pairing of %s: %s", key, loggable(message))
        return web.json_response({"paired": paired, "message": message})

    async def health(request: web.Request) -> web.Response:
        return web.json_response(
            {"ok": True, "pending": await queue.waiting(), "set_aside": await queue.set_aside()}
        )

    async def on_startup(app: web.Application) -> None:
        await app[QUEUE_KEY].start()

    async def on_cleanup(app: web.Application) -> None:
        stop_all_pairings()  # a pairing engine still running is killed, not waited for
        await app[QUEUE_KEY].stop()

    app = web.Application(
        client_max_size=BODY_MAX_BYTES,
        middlewares=[caller_middleware(tuple(trusted_proxies))],
        handler_args={"keepalive_timeout": HEADER_SECONDS, "lingering_time": LINGER_SECONDS},
    )
    app[QUEUE_KEY] = queue
    app.router.add_post("/connect", connect_handler)
    app.router.add_post("/sync", sync_handler)
    app.router.add_post("/pair", pair_handler)
    app.router.add_post("/disconnect", disconnect_handler)
    app.router.add_get("/healthz", health)
    app.on_response_prepare.append(_no_versions)
    app.on_startup.append(on_startup)
    app.on_cleanup.append(on_cleanup)
    return app


def _no_versions_anywhere() -> None:
    """Name the server without versions in the answers aiohttp makes before any application
    code runs (``400`` to a request it cannot parse), which no signal reaches: they take
    ``aiohttp.web_response``'s default ``Server`` value. This process serves nothing else."""
    setattr(web_response, "SERVER_SOFTWARE", SERVER_NAME)  # noqa: B010 (not re-exported)


async def serve(
    app: web.Application,
    host: str,
    port: int,
    stop: asyncio.Event | None = None,
    listening: Callable[[int], None] | None = None,
) -> None:
    """Run ``app`` on ``host:port`` until ``stop`` is set (or forever); ``listening`` is
    told the port (the one chosen, for port 0)."""
    _no_versions_anywhere()
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    port = int(runner.addresses[0][1])
    logger.info("listening on http://%s:%d (POST /connect, /sync, /pair, /disconnect)", host, port)
    if listening is not None:
        listening(port)
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await runner.cleanup()

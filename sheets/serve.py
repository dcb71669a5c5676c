"""``harkness-sheets serve``: the endpoint the Apps Script add-on calls when a TD edits.

``POST /sync`` with the header ``X-Harkness-Secret: <shared secret>`` and the body
``{"spreadsheetId": "1AbC…"}`` asks for a sync of that spreadsheet. The answer comes at once
(``202 Accepted``); the sync runs later:

- **debounced**: a TD typing a round's results sends an edit a cell. The sync starts
  ``debounce`` seconds after the last request for that sheet (but no later than ``max_wait``
  after the first), so a burst of edits costs one sync. A request that arrives while the
  sheet's sync is running schedules one more after it.
- **queued**: syncs run one at a time, in the order they fell due, in a worker thread
  (gspread is synchronous), and no more than ``syncs_per_minute`` start in any minute, so a
  busy evening stays within Google's per-minute quotas.

A wrong or missing secret is answered ``401`` and nothing is queued; the secret is compared in
constant time and never logged. After :data:`FAILURES_ALLOWED` wrong secrets from one caller
within :data:`FAILURE_WINDOW` seconds, that caller's wrong secrets are answered ``429`` (with
``Retry-After``) until the window has passed, without being logged one by one. The right
secret is still accepted from it (compared in constant time like every other): Apps Script
calls from addresses Google shares among its users, so whoever shares the add-on's address
could otherwise lock it out; guessing is stopped by the secret's strength
(:func:`secret_problem`: ``serve`` refuses to start with a weak one), the limit keeps the log
and the work small. Behind a trusted reverse proxy the caller is the address the proxy names
in ``X-Forwarded-For`` (:mod:`sheets.forwarded`), for the limit and the log alike.
With a watch configuration given, only its spreadsheets are accepted (``403`` for others).
What a caller sends is logged escaped (``repr``), so it cannot forge a log line.
``GET /healthz`` answers ``{"ok": true, "pending": n, "set_aside": m}`` (``m``: syncs no
running worker's service account can open, :mod:`sheets.jobs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler, Middleware

from core.pairing.isolated import stop_all as stop_all_pairings
from sheets.client import is_spreadsheet_id
from sheets.forwarded import DEFAULT_PROXIES, Network, client_address
from sheets.metrics import SYNC_JOBS
from sheets.sync import SyncResult

logger = logging.getLogger(__name__)

SECRET_HEADER = "X-Harkness-Secret"

#: The shortest shared secret ``serve`` accepts, and how many different characters it needs
#: (``secrets.token_urlsafe(32)`` gives 43 characters of 64 kinds).
SECRET_MIN_LENGTH = 32
SECRET_MIN_KINDS = 12
#: Wrong secrets one caller may send within :data:`FAILURE_WINDOW` seconds before its wrong
#: secrets are answered 429 until the window has passed.
FAILURES_ALLOWED = 5
FAILURE_WINDOW = 60.0
#: How many addresses the limiter remembers (the oldest are forgotten first).
FAILURE_SOURCES_MAX = 10_000
#: The longest caller-given text that is logged.
LOGGED_TEXT_MAX = 200


def secret_problem(secret: str) -> str | None:
    """Why ``secret`` is too weak for the webhook, or None: it needs at least
    :data:`SECRET_MIN_LENGTH` characters of at least :data:`SECRET_MIN_KINDS` kinds.

    >>> secret_problem("correct horse battery staple")
    'too weak: use at least 32 characters (it has 28) of at least 12 different kinds, e.g. \
the output of: python -c "import secrets; print(secrets.token_urlsafe(32))"'
    >>> secret_problem("Yq3v8wVZ0m1nC4pR7sT2uX5yA6bD9eFg") is None
    True
    """
    if len(secret) >= SECRET_MIN_LENGTH and len(set(secret)) >= SECRET_MIN_KINDS:
        return None
    return (
        f"too weak: use at least {SECRET_MIN_LENGTH} characters (it has {len(secret)}) of at "
        f"least {SECRET_MIN_KINDS} different kinds, e.g. the output of: "
        'python -c "import secrets; print(secrets.token_urlsafe(32))"'
    )


def loggable(value: object) -> str:
    """What a caller sent, as a log line may hold it: quoted and escaped (``repr``), so a
    newline or a terminal control sequence cannot forge or hide a line; at most
    :data:`LOGGED_TEXT_MAX` characters.

    >>> print(loggable("edit\\nWARNING forged"))
    'edit\\nWARNING forged'
    """
    text = value if isinstance(value, str) else str(type(value).__name__)
    return repr(text[:LOGGED_TEXT_MAX])


@dataclass
class FailureLimiter:
    """Counts wrong secrets per source address in a sliding window."""

    allowed: int = FAILURES_ALLOWED
    window: float = FAILURE_WINDOW
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def _recent(self, source: str) -> deque[float]:
        times = self._failures.get(source)
        if times is None:
            return deque()
        now = self.clock()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[source]
        return times

    def blocked_for(self, source: str) -> float:
        """Seconds until ``source`` may try again (0 when it may now)."""
        times = self._recent(source)
        if len(times) < self.allowed:
            return 0.0
        return max(0.0, times[-self.allowed] + self.window - self.clock())

    def failed(self, source: str) -> int:
        """Count one wrong secret from ``source``; answers how many are in its window."""
        times = self._recent(source)
        if source not in self._failures:
            if len(self._failures) >= FAILURE_SOURCES_MAX:
                self._failures.pop(next(iter(self._failures)))
            self._failures[source] = times
        times.append(self.clock())
        return len(times)


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


def make_app(
    queue: Queue,
    secret: str,
    allowed: Collection[str] | None = None,
    *,
    pair: Callable[[str], tuple[bool, str]] | None = None,
    trusted_proxies: Sequence[Network] = DEFAULT_PROXIES,
) -> web.Application:
    """The aiohttp application: ``POST /sync``, ``POST /pair`` and ``GET /healthz``.

    ``allowed``, when given, is the set of spreadsheet IDs the endpoint accepts. ``pair``
    pairs a spreadsheet's next round (in a worker thread: the engine takes seconds on a
    large section) and answers whether it did and what to tell the TD; ``POST /pair``
    answers ``200`` with ``{"paired": bool, "message": str}``, or ``501`` without it.
    ``trusted_proxies`` are the reverse proxies whose ``X-Forwarded-For`` names the caller.
    """
    if not secret:
        raise ValueError("serve needs a shared secret (HARKNESS_SHEETS_WEBHOOK_SECRET)")
    weak = secret_problem(secret)
    if weak is not None:
        raise ValueError(f"the shared secret is {weak}")
    expected = secret.encode("utf-8")
    limiter = FailureLimiter()

    async def checked(request: web.Request) -> tuple[str | None, Any, web.Response | None]:
        """The spreadsheet ID and body of an authorised request, or the refusal."""
        source = request.remote or "unknown"
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8")
        # Every secret is compared, in constant time: the right one passes even from a
        # caller whose wrong ones are being answered 429.
        if not hmac.compare_digest(given, expected):
            wait = limiter.blocked_for(source)
            if wait:
                return (
                    None,
                    None,
                    web.json_response(
                        {"error": "too many wrong secrets from this address: try again later"},
                        status=429,
                        headers={"Retry-After": str(int(wait) + 1)},
                    ),
                )
            failures = limiter.failed(source)
            if failures < limiter.allowed:
                logger.warning("refused a sync request from %s: wrong or missing secret", source)
            else:
                logger.warning(
                    "refused a sync request from %s: wrong or missing secret; %d wrong "
                    "secrets in %.0f s, so it is refused for a while",
                    source,
                    failures,
                    limiter.window,
                )
            return None, None, web.json_response({"error": "wrong or missing secret"}, status=401)
        try:
            body: Any = await request.json()
        except ValueError:
            body = None
        key = body.get("spreadsheetId") if isinstance(body, dict) else None
        if not isinstance(key, str) or not is_spreadsheet_id(key):
            return (
                None,
                None,
                web.json_response(
                    {"error": 'send {"spreadsheetId": "<the spreadsheet ID>"}'}, status=400
                ),
            )
        if allowed is not None and key not in allowed:
            return (
                None,
                None,
                web.json_response(
                    {"error": "this worker does not serve that spreadsheet"}, status=403
                ),
            )
        return key, body, None

    async def sync_handler(request: web.Request) -> web.Response:
        key, body, refused = await checked(request)
        if refused is not None:
            return refused
        assert key is not None
        reason = body.get("reason")
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
        key, _, refused = await checked(request)
        if refused is not None:
            return refused
        assert key is not None
        if pair is None:
            return web.json_response({"error": "this worker does not pair rounds"}, status=501)
        try:
            paired, message = await asyncio.to_thread(pair, key)
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
        client_max_size=16 * 1024, middlewares=[caller_middleware(tuple(trusted_proxies))]
    )
    app[QUEUE_KEY] = queue
    app.router.add_post("/sync", sync_handler)
    app.router.add_post("/pair", pair_handler)
    app.router.add_get("/healthz", health)
    app.on_startup.append(on_startup)
    app.on_cleanup.append(on_cleanup)
    return app


async def serve(
    app: web.Application, host: str, port: int, stop: asyncio.Event | None = None
) -> None:
    """Run ``app`` on ``host:port`` until ``stop`` is set (or forever)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    logger.info("listening on http://%s:%d (POST /sync, GET /healthz)", host, port)
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await runner.cleanup()

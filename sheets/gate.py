"""Who may ask ``harkness-sheets serve`` to act on a spreadsheet: the gate every request
passes (the key itself is :mod:`sheets.addon_keys`'s).

A request names one spreadsheet (``{"spreadsheetId": …}``) and carries that sheet's key in
:data:`~sheets.addon_keys.KEY_HEADER`. The gate answers, in this order:

- ``408`` when the body has not arrived within :data:`BODY_SECONDS` (the connection is
  closed); ``400`` when it does not name a spreadsheet; ``403`` when a watch configuration
  lists the sheets served and this is not one of them.
- It lets the request through when the key's SHA-256 is one of those kept for *that* sheet
  (its editors' keys). No other sheet's key, and no worker-wide secret, opens it.
- ``401`` with ``"connect": true`` when a well-formed key comes for a sheet no key is kept
  for (never connected, or forgotten by a restart without a database): the add-on then
  connects (``POST /connect``) and asks again. This costs nothing and is not counted.
- ``401`` for every other credential problem: no key, a key that is not one (too short,
  not ASCII, bytes that are not UTF-8), or another key. These are counted per caller: after
  :data:`FAILURES_ALLOWED` within :data:`FAILURE_WINDOW` seconds, that caller's refusals are
  ``429`` (with ``Retry-After``) until the window has passed, without a log line each. The
  right key still passes from a caller answered 429: Apps Script calls from addresses
  Google shares among all its users, so whoever shares the add-on's address could otherwise
  lock it out; guessing is stopped by the key's 244 random bits, and the limit keeps the
  log and the work small. Behind a trusted reverse proxy the caller is the address the
  proxy names (:mod:`sheets.forwarded`).

``POST /connect`` reads the sheet's developer metadata (one read of Google's quota) unless
the key is already one of those kept; when the sheet holds the key's hash, the worker keeps
every hash the sheet holds now (its editors wrote them all), and only those. The read is
spent from the service account's budget first (:meth:`sheets.turns.Turns.spend`: ``503``
with ``Retry-After`` when it does not fit within seconds). So that callers without a key
cannot spend that budget, a caller answered 429 is not read for, and this process reads for
at most :data:`CONNECTS_PER_MINUTE` connects a minute (then ``429``). The refusal of a connect says
the same whatever the reason (no such sheet, not shared with the service account, no key
in it, another key), so it tells a stranger nothing about the sheet.

What a caller sends is logged escaped (:func:`loggable`), so it cannot forge a log line; a
key is never logged.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from sheets.addon_keys import KEY_HEADER, KeyStore, commitment, digests_of, key_digest
from sheets.budget import CONNECT_READS
from sheets.client import SheetsError, SheetsNotFoundError, SheetsPermissionError, is_spreadsheet_id
from sheets.turns import Busy, Turns

logger = logging.getLogger("sheets.serve")

#: Wrong keys one caller may send within :data:`FAILURE_WINDOW` seconds before its wrong
#: keys are answered 429 until the window has passed.
FAILURES_ALLOWED = 5
FAILURE_WINDOW = 60.0
#: How many addresses the limiter remembers (the oldest are forgotten first).
FAILURE_SOURCES_MAX = 10_000
#: The most connects a minute this process reads a sheet for (each is one read).
CONNECTS_PER_MINUTE = 10
#: Seconds a caller has to send the body of its request, once its headers are in.
BODY_SECONDS = 5.0
#: The longest caller-given text that is logged.
LOGGED_TEXT_MAX = 200

WRONG_KEY = "wrong or missing key for this spreadsheet"
NOT_CONNECTED = (
    "this spreadsheet is not connected to this worker: connect it from its Harkness menu"
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
    """Counts events per source (wrong keys per address, connects per process) in a sliding
    window."""

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
        """Count one event from ``source``; answers how many are in its window."""
        times = self._recent(source)
        if source not in self._failures:
            if len(self._failures) >= FAILURE_SOURCES_MAX:
                self._failures.pop(next(iter(self._failures)))
            self._failures[source] = times
        times.append(self.clock())
        return len(times)


@dataclass(frozen=True)
class SheetRequest:
    """A request that names a spreadsheet, with the hash of the key it carries (None: it
    carries none that could be a key)."""

    spreadsheet_id: str
    digest: str | None
    body: dict[str, Any]
    source: str


def _answer(status: int, error: str, **extra: Any) -> web.Response:
    headers = {"Retry-After": str(extra.pop("retry_after"))} if "retry_after" in extra else None
    return web.json_response({"error": error, **extra}, status=status, headers=headers)


@dataclass
class Gate:
    """The credential check of every request naming a sheet (see the module docstring).

    ``read_commitment`` reads a sheet's key hash with the service account (in a worker
    thread: gspread is synchronous); ``share_with`` is that account's address, for the TD.
    """

    keys: KeyStore
    read_commitment: Callable[[str], frozenset[str]]
    allowed: Collection[str] | None = None
    share_with: str | None = None
    turns: Turns = field(default_factory=lambda: Turns(account=""))
    """Turns at the sheets of this worker's service account (:mod:`sheets.turns`): a
    connect's read is spent from its budget."""
    limiter: FailureLimiter = field(default_factory=FailureLimiter)
    connects: FailureLimiter = field(
        default_factory=lambda: FailureLimiter(allowed=CONNECTS_PER_MINUTE, window=60.0)
    )

    async def sheet_request(self, request: web.Request) -> SheetRequest | web.Response:
        """The spreadsheet a request names and its key's hash, or why it is refused before
        any key is looked at (408, 400, 403)."""
        try:
            async with asyncio.timeout(BODY_SECONDS):
                raw = await request.read()
        except TimeoutError:
            response = _answer(408, f"the request's body did not arrive within {BODY_SECONDS:g} s")
            response.force_close()
            return response
        try:
            body: Any = json.loads(raw)
        except ValueError:
            body = None
        key = body.get("spreadsheetId") if isinstance(body, dict) else None
        if not isinstance(key, str) or not is_spreadsheet_id(key):
            return _answer(400, 'send {"spreadsheetId": "<the spreadsheet ID>"}')
        assert isinstance(body, dict)
        if self.allowed is not None and key not in self.allowed:
            return _answer(403, "this worker does not serve that spreadsheet")
        digest = key_digest(request.headers.get(KEY_HEADER))
        return SheetRequest(key, digest, body, request.remote or "unknown")

    async def _is_kept(self, asked: SheetRequest) -> tuple[bool, frozenset[str]]:
        kept = await self.keys.kept(asked.spreadsheet_id)
        given = (asked.digest or "").encode()
        found = [hmac.compare_digest(given, digest.encode()) for digest in kept]
        return asked.digest is not None and any(found), kept

    def _refused(self, asked: SheetRequest, what: str) -> web.Response:
        """A credential problem: 401, or 429 once this caller has had too many."""
        wait = self.limiter.blocked_for(asked.source)
        if wait:
            return _answer(
                429,
                "too many wrong keys from this address: try again later",
                retry_after=int(wait) + 1,
            )
        failures = self.limiter.failed(asked.source)
        line = "refused %s of %s from %s: %s"
        args: tuple[object, ...] = (what, asked.spreadsheet_id, asked.source, WRONG_KEY)
        if failures >= self.limiter.allowed:
            line += "; %d wrong keys in %.0f s, so it is refused for a while"
            args += (failures, self.limiter.window)
        logger.warning(line, *args)
        return _answer(401, WRONG_KEY)

    async def check(self, asked: SheetRequest, what: str) -> web.Response | None:
        """None when ``asked`` carries its sheet's key; else the refusal (401 or 429)."""
        same, kept = await self._is_kept(asked)
        if same:
            return None
        if not kept and asked.digest is not None:
            logger.info("%s of %s from %s: not connected", what, asked.spreadsheet_id, asked.source)
            return _answer(401, NOT_CONNECTED, connect=True)
        return self._refused(asked, what)

    async def admit(self, request: web.Request, what: str) -> SheetRequest | web.Response:
        """The sheet a request may act on with its key (:meth:`sheet_request`, then
        :meth:`check`), or the refusal."""
        asked = await self.sheet_request(request)
        if isinstance(asked, web.Response):
            return asked
        refused = await self.check(asked, what)
        return asked if refused is None else refused

    async def connect(self, asked: SheetRequest) -> web.Response:
        """``POST /connect``: keep the key's hash for the sheet if the sheet vouches for it."""
        same, _ = await self._is_kept(asked)
        if same:
            return web.json_response({"connected": True, "message": "This sheet is connected."})
        if asked.digest is None:
            return self._refused(asked, "a connect")
        wait = max(self.limiter.blocked_for(asked.source), self.connects.blocked_for(""))
        if wait:
            return _answer(
                429, "too many connects just now: try again later", retry_after=int(wait) + 1
            )
        self.connects.failed("")
        try:  # every connect on one fair share: many sheets asked for take no more than that
            await self.turns.spend(CONNECT_READS, 0)
        except Busy as busy:
            return _answer(503, busy.message, retry_after=math.ceil(busy.retry_after))
        try:
            vouched = await asyncio.to_thread(self.read_commitment, asked.spreadsheet_id)
        except (SheetsNotFoundError, SheetsPermissionError):
            vouched = frozenset()
        except SheetsError as error:
            logger.error("connect of %s: %s", asked.spreadsheet_id, error.summary)
            return _answer(
                503,
                "Google Sheets is not answering just now: try again in a minute",
                retry_after=60,
            )
        if commitment(asked.digest) not in vouched:
            refused = self._refused(asked, "a connect")
            if refused.status == 401:
                where = f" with {self.share_with}" if self.share_with else ""
                return _answer(
                    401,
                    "this spreadsheet does not hold this key: connect it again from its "
                    f"Harkness menu (as an editor), and check it is shared{where} as an Editor",
                )
            return refused
        await self.keys.keep(asked.spreadsheet_id, digests_of(vouched))
        logger.info("connected %s (from %s)", asked.spreadsheet_id, asked.source)
        return web.json_response({"connected": True, "message": "This sheet is connected."})

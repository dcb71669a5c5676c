"""Google's per-minute quota as a budget, shared fairly, and how often to poll a sheet
within it.

Google Sheets allows each service account 60 read and 60 write requests in any minute
(the documented per-user defaults). :class:`Window` counts the requests spent in the last
``window`` seconds and says how long to wait before spending more; the fleet keeps one per
service account in the database, so every process (bot shards, ``serve`` and ``watch``
workers) spends from the same budget (:meth:`sheets.fleet.Fleet.spend_quota`), and the
simulation benchmark (``tests/bench/sync_sim.py``) runs the same arithmetic.

**Fair shares.** A request is spent on behalf of a *share*: the bot spends for a Discord
server, the workers for a spreadsheet (:func:`share_label`: only a short hash of it is
kept). A share may spend whatever fits while it has spent less than its fair part of the
window, ``limit / (active + 1)`` with ``active`` the shares that spent in it (the one more
is for a share yet to come); beyond that it borrows what the others leave unused, but never
the last :func:`reserve` requests of the window. So one busy server (or sheet) has the whole
budget but that reserve to itself while it is alone, and another that comes finds the
reserve free and spends at once, before the busy one spends again.

:class:`PollPolicy` spreads the budget across sheets: a sheet whose add-on pushes its edits
is polled rarely (``pushed``); one without is polled often while it is being edited and
less and less as it stays unchanged (a quarter of the time since its last change, between
``fastest`` and ``slowest``), ``slowest`` being fitted to the sheets one service account
serves (:meth:`PollPolicy.fitted`).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

#: Google's documented per-minute, per-user defaults.
READS_PER_MINUTE = 60
WRITES_PER_MINUTE = 60
#: How long after requests are spent they may be made (a sync's token fetch, a slow answer):
#: they are counted in the window that long more.
HOLD = 5.0
#: What a sync may cost: one read of the whole sheet, and at most one batch of writes.
SYNC_READS = 1
SYNC_WRITES = 1
#: What "Pair next round" may cost: one read, the Pairings tab's batch and the rows appended
#: to the TD's game list.
PAIR_READS = 1
PAIR_WRITES = 2
#: What connecting the add-on costs: one read of the sheet's developer metadata.
CONNECT_READS = 1
#: The part of a window kept from shares beyond their fair part (:func:`reserve`).
RESERVE_PART = 6


def reserve(limit: int, cost: int = 1) -> int:
    """The last requests of a window of ``limit`` that a share beyond its fair part may not
    spend (a sixth, at least one), leaving room for a spend of ``cost``.

    >>> reserve(54), reserve(6), reserve(2, cost=2)
    (9, 1, 0)
    """
    return max(0, min(max(1, limit // RESERVE_PART), limit - cost))


def share_label(share: str) -> str:
    """What the fleet keeps of a share's name (a Discord server's or a spreadsheet's id): a
    short hash, so that the budget's row names no server and no sheet; "" stays "".

    >>> share_label("guild:80351110224678912") == share_label("guild:80351110224678912")
    True
    >>> len(share_label("sheet:1AbC")), share_label("")
    (12, '')
    """
    return hashlib.blake2b(share.encode(), digest_size=6).hexdigest() if share else ""


class SharedBudgets(Protocol):
    """Where the budgets of every process live: the fleet (:meth:`sheets.fleet.Fleet.
    spend_quota`), named here by what it does so that this arithmetic imports no database."""

    async def spend_quota(
        self,
        account: str,
        *,
        reads: int,
        writes: int,
        reads_limit: int,
        writes_limit: int,
        window: float,
        hold: float,
        share: str | None = None,
    ) -> float: ...


@dataclass(frozen=True)
class Quota:
    """A service account's per-minute limits (Google's defaults unless an operator's
    project has others); ``window`` is 60 s but for tests, which see a "minute" pass in a few
    seconds."""

    reads_per_minute: int = READS_PER_MINUTE
    writes_per_minute: int = WRITES_PER_MINUTE
    window: float = 60.0

    @property
    def reads_budget(self) -> int:
        """The reads a window the processes spend: a tenth below the limit, for a retried
        request or one made late on a busy machine.

        >>> Quota().reads_budget, Quota().writes_budget
        (54, 54)
        """
        return self.reads_per_minute - max(1, self.reads_per_minute // 10)

    @property
    def writes_budget(self) -> int:
        return self.writes_per_minute - max(1, self.writes_per_minute // 10)

    @property
    def hold(self) -> float:
        """How long after being spent requests may still be made (:data:`HOLD` a minute)."""
        return HOLD * self.window / 60.0

    @property
    def syncs_per_minute(self) -> float:
        """The most syncs a minute the budget allows (each spends a read)."""
        return self.reads_budget * 60.0 / self.window

    async def spend(
        self, budgets: SharedBudgets, account: str, *, reads: int, writes: int, share: str = ""
    ) -> float:
        """Spend ``reads`` and ``writes`` from ``account``'s budget in ``budgets``, shared by
        every process on the database, on behalf of ``share`` (``guild:ID`` for a Discord
        server, ``sheet:ID`` for a spreadsheet; "" for a caller that names none, which
        counts as one share): 0 when spent, else the seconds until they fit (nothing
        spent). Shares are fair (see the module)."""
        return await budgets.spend_quota(
            account,
            reads=reads,
            writes=writes,
            reads_limit=self.reads_budget,
            writes_limit=self.writes_budget,
            window=self.window,
            hold=self.hold,
            share=share_label(share),
        )


@dataclass
class Window:
    """Requests spent in a sliding window: at most ``limit`` in any ``window`` seconds.
    ``shares`` says on whose behalf each of ``uses`` was spent ("" when not said).

    >>> w = Window(limit=2, window=60.0)
    >>> w.spend(0.0), w.spend(10.0), w.spend(20.0)
    (0.0, 0.0, 40.0)
    >>> w.spend(60.0), w.spend(60.5)
    (0.0, 9.5)

    Fair shares (given a ``share``): alone, a busy share spends all but the reserve, which
    another share then finds free.

    >>> w = Window(limit=12, window=60.0)
    >>> [w.spend(float(t), share="a") for t in range(11)][-2:]  # 10 of 12: the reserve is 2
    [0.0, 50.0]
    >>> w.spend(12.0, share="b"), w.spend(12.0, share="b"), w.spend(12.0, share="a")
    (0.0, 0.0, 50.0)
    """

    limit: int = READS_PER_MINUTE
    window: float = 60.0
    uses: list[float] = field(default_factory=list)
    shares: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.shares) != len(self.uses):  # written by a process that kept no shares
            self.shares = [""] * len(self.uses)

    def _prune(self, now: float) -> None:
        keep = now - self.window
        gone = 0
        while gone < len(self.uses) and self.uses[gone] <= keep:
            gone += 1
        if gone:
            del self.uses[:gone], self.shares[:gone]

    def _until(self, times: list[float], keep: int, now: float) -> float:
        """Seconds from ``now`` until at most ``keep`` of ``times`` (sorted) are in the
        window (infinite when ``keep`` is negative)."""
        if keep < 0:
            return math.inf
        over = len(times) - keep
        return 0.0 if over <= 0 else max(0.0, times[over - 1] + self.window - now)

    def wait(self, now: float, cost: int = 1, share: str | None = None) -> float:
        """Seconds from ``now`` until ``cost`` more requests fit (0: they fit now), for
        ``share`` when given (fair shares: see the module), else first come first served."""
        if cost > self.limit:
            raise ValueError(f"{cost} requests never fit a budget of {self.limit}")
        self._prune(now)
        fits = self._until(self.uses, self.limit - cost, now)
        if share is None:
            return fits
        own = [t for t, s in zip(self.uses, self.shares, strict=True) if s == share]
        fair = self.limit / (len(set(self.shares) | {share}) + 1)
        if len(own) + cost <= fair:
            return fits  # within its fair part: whatever fits
        # Beyond it: what leaves the reserve free, or once its own spends fall within it.
        borrowing = self._until(self.uses, self.limit - reserve(self.limit, cost) - cost, now)
        within = max(fits, self._until(own, math.floor(fair) - cost, now))
        return min(borrowing, within)

    def spend(
        self, now: float, cost: int = 1, hold: float = 0.0, share: str | None = None
    ) -> float:
        """Spend ``cost`` requests now if they fit (answers 0), else the wait (nothing spent).

        The requests are made after they are spent, within ``hold`` seconds: they are
        counted as made at ``now + hold``, so that they stay in the window as long as Google
        counts them."""
        wait = self.wait(now, cost, share)
        if wait == 0.0:
            new = [(now + hold, share or "")] * cost
            spent = sorted([*zip(self.uses, self.shares, strict=True), *new])
            self.uses = [t for t, _ in spent]
            self.shares = [s for _, s in spent]
        return wait


@dataclass
class Budget:
    """A service account's read and write windows: a sync spends from both or neither."""

    reads: Window = field(default_factory=lambda: Window(READS_PER_MINUTE))
    writes: Window = field(default_factory=lambda: Window(WRITES_PER_MINUTE))

    def spend(
        self,
        now: float,
        reads: int = SYNC_READS,
        writes: int = SYNC_WRITES,
        hold: float = 0.0,
        share: str | None = None,
    ) -> float:
        """Spend a sync's requests if both fit now (answers 0), else the wait; on behalf of
        ``share`` when given (fair shares), else first come first served."""
        wait = max(self.reads.wait(now, reads, share), self.writes.wait(now, writes, share))
        if wait == 0.0:
            self.reads.spend(now, reads, hold, share)
            self.writes.spend(now, writes, hold, share)
        return wait

    def to_json(self) -> dict[str, list[float] | list[str]]:
        return {
            "reads": list(self.reads.uses),
            "writes": list(self.writes.uses),
            "read_shares": list(self.reads.shares),
            "write_shares": list(self.writes.shares),
        }

    @classmethod
    def from_json(
        cls,
        data: dict[str, Iterable[float | str]],
        reads_limit: int = READS_PER_MINUTE,
        writes_limit: int = WRITES_PER_MINUTE,
        *,
        window: float = 60.0,
    ) -> Budget:
        """The budget as :meth:`to_json` kept it (or as a process that kept no shares did:
        its requests count as the share "")."""
        return cls(
            _window(data, "reads", "read_shares", reads_limit, window),
            _window(data, "writes", "write_shares", writes_limit, window),
        )


def _window(
    data: dict[str, Iterable[float | str]], uses: str, shares: str, limit: int, window: float
) -> Window:
    spent = [float(t) for t in data.get(uses, ())]
    whose = [str(s) for s in data.get(shares, ())]
    if len(whose) != len(spent):
        whose = [""] * len(spent)
    pairs = sorted(zip(spent, whose, strict=True))
    return Window(limit, window, [t for t, _ in pairs], [s for _, s in pairs])


@dataclass
class LocalBudgets:
    """:class:`SharedBudgets` of one process (no database): each account's :class:`Budget`
    in memory, so that what this process spends on one account stays within its quota."""

    clock: Callable[[], float] = time.monotonic
    _budgets: dict[str, Budget] = field(default_factory=dict)

    async def spend_quota(
        self,
        account: str,
        *,
        reads: int,
        writes: int,
        reads_limit: int,
        writes_limit: int,
        window: float,
        hold: float,
        share: str | None = None,
    ) -> float:
        budget = self._budgets.get(account)
        if budget is None:
            budget = Budget(Window(reads_limit, window), Window(writes_limit, window))
            self._budgets[account] = budget
        return budget.spend(self.clock(), reads, writes, hold, share)


@dataclass(frozen=True)
class PollPolicy:
    """How long until a sheet is polled again, from how long it has been unchanged.

    >>> p = PollPolicy()
    >>> p.interval(idle=0.0), p.interval(idle=20 * 60.0), p.interval(idle=6 * 3600.0)
    (60.0, 300.0, 1800.0)
    >>> p.interval(idle=0.0, pushed=True)
    3600.0
    """

    fastest: float = 60.0
    """A sheet that has just changed (its TD is typing results) is polled every minute."""
    slowest: float = 1800.0
    """A sheet unchanged for two hours or more is polled every half hour."""
    pushed: float = 3600.0
    """A sheet whose add-on asks for a sync on every edit is polled hourly, as a safety net."""
    share: float = 0.25
    """Between those, the interval is this share of the time since the last change."""

    def interval(self, idle: float, *, pushed: bool = False) -> float:
        if pushed:
            return self.pushed
        return min(self.slowest, max(self.fastest, idle * self.share))

    def fitted(
        self, polled: int, pushed: int, reads_per_minute: float, reserve: float = 0.2
    ) -> PollPolicy:
        """This policy for one service account's ``polled`` sheets (no add-on) and
        ``pushed`` sheets (add-on): the slowest poll is as fast as the reads a minute allow,
        keeping ``reserve`` of them for pushed syncs and the bot's writes.

        >>> p = PollPolicy()
        >>> p.fitted(polled=250, pushed=0, reads_per_minute=60).slowest  # 250 sheets a key
        312.5
        >>> p.fitted(polled=20, pushed=0, reads_per_minute=60).slowest  # few: every minute
        60.0
        >>> p.fitted(polled=1000, pushed=0, reads_per_minute=60).slowest  # too many: slower
        1250.0
        """
        spare = reads_per_minute * (1 - reserve) - pushed * 60.0 / self.pushed
        if polled == 0:
            return self
        needed = polled * 60.0 / max(spare, 1e-9)
        return replace(self, slowest=max(self.fastest, needed))

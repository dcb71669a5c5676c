"""1,000 linked sheets within Google's quota: a simulation (run by hand:
``python tests/bench/sync_sim.py``; not a test).

An evening of four hours is simulated second by second for 1,000 spreadsheets spread over
one or more service accounts. About a third of the sheets are played tonight: their TD types
results in two or three sessions (a round's results, a few to twenty edits some seconds
apart); the others see a stray edit now and then. A sheet with the add-on asks for a sync on
each edit (debounced: 5 s after the last edit, at most 30 s after the first) and is polled
hourly; a sheet without it is polled by :class:`sheets.budget.PollPolicy`, fitted to the
sheets of its account (a sheet that just changed every minute, an idle one as fast as the
account's reads allow, keeping a fifth of them for pushed syncs). Every sync spends one read
and, when something changed (or the "Last checked" stamp is ten minutes old), one write from
its account's :class:`sheets.budget.Budget` (Google allows 60 reads and 60 writes in any
minute; the processes spend 54 of each, as Harkness does): a sync that does not fit waits,
pushed syncs first, then the most overdue poll.

For each scenario and service account it prints the sheets served, the delay from an edit to
the start of the sync that reads it (median, 95th percentile, worst), and the requests a
minute (mean, and the most in any sliding minute, which must stay at or under 60).
"""

from __future__ import annotations

import heapq
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sheets.budget import (  # noqa: E402
    READS_PER_MINUTE,
    WRITES_PER_MINUTE,
    Budget,
    PollPolicy,
    Quota,
    Window,
)
from sheets.sync import CHECK_STAMP_EVERY  # noqa: E402

EVENING = 4 * 3600
SHEETS = 1000
DEBOUNCE, MAX_WAIT = 5.0, 30.0
STAMP = CHECK_STAMP_EVERY.total_seconds()
#: Google's limits; the processes spend a tenth less (:attr:`sheets.budget.Quota.reads_budget`).
QUOTA = Quota()


@dataclass
class Sheet:
    number: int
    account: int
    pushed: bool
    edits: list[float]
    last_change: float = -3600.0
    last_sync: float = -1e9
    last_stamp: float = -1e9
    next_poll: float = 0.0
    first_request: float | None = None
    last_request: float | None = None
    read_upto: int = 0  # edits[:read_upto] were read by a sync


@dataclass
class Account:
    sheets: list[Sheet] = field(default_factory=list)
    budget: Budget = field(
        default_factory=lambda: Budget(Window(QUOTA.reads_budget), Window(QUOTA.writes_budget))
    )
    reads: list[float] = field(default_factory=list)
    writes: list[float] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)


def edits_of(rng: random.Random) -> list[float]:
    """One sheet's edits this evening (seconds from its start)."""
    times: list[float] = []
    if rng.random() < 1 / 3:  # played tonight: two or three rounds of results typed
        for _ in range(rng.choice((2, 3))):
            t = rng.uniform(0, EVENING - 600)
            for _ in range(rng.randint(4, 20)):
                t += rng.expovariate(1 / 20)
                times.append(t)
    elif rng.random() < 0.1:  # a stray correction
        times.append(rng.uniform(0, EVENING))
    return sorted(t for t in times if t < EVENING)


def simulate(accounts: int, addon: float, seed: int = 1) -> list[Account]:
    rng = random.Random(seed)
    served = [Account() for _ in range(accounts)]
    for n in range(SHEETS):
        sheet = Sheet(n, n % accounts, rng.random() < addon, edits_of(rng))
        served[sheet.account].sheets.append(sheet)
    for account in served:
        _run(account, rng)
    return served


def _run(account: Account, rng: random.Random) -> None:
    polled = sum(1 for s in account.sheets if not s.pushed)
    policy = PollPolicy().fitted(polled, len(account.sheets) - polled, QUOTA.reads_budget)
    polls: list[tuple[float, int]] = []
    by_number = {s.number: s for s in account.sheets}
    for position, sheet in enumerate(account.sheets):
        sheet.next_poll = policy.interval(3600.0, pushed=sheet.pushed) * (
            position / len(account.sheets)
        )
        heapq.heappush(polls, (sheet.next_poll, sheet.number))
    edits = sorted((t, s.number) for s in account.sheets for t in s.edits)
    pushes: list[tuple[float, int]] = []
    next_edit = 0
    for now in range(EVENING + 1200):
        while next_edit < len(edits) and edits[next_edit][0] <= now:
            sheet = by_number[edits[next_edit][1]]
            next_edit += 1
            if sheet.pushed:
                t = edits[next_edit - 1][0]
                sheet.first_request = sheet.first_request or t
                sheet.last_request = t
                due = min(t + DEBOUNCE, sheet.first_request + MAX_WAIT)
                heapq.heappush(pushes, (due, sheet.number))
        while True:
            job = _next_job(pushes, polls, by_number, now)
            if job is None:
                break
            sheet, pushed = job
            unread = len([t for t in sheet.edits[sheet.read_upto :] if t <= now])
            write = unread > 0 or now - sheet.last_stamp >= STAMP
            if account.budget.spend(float(now), 1, 1 if write else 0):
                break  # the account's minute is spent: later
            (heapq.heappop(pushes) if pushed else heapq.heappop(polls))
            _sync(account, sheet, now, write, unread)
            if not pushed or sheet.next_poll <= now:
                idle = now - sheet.last_change
                sheet.next_poll = now + policy.interval(idle, pushed=sheet.pushed) * rng.uniform(
                    0.9, 1.1
                )
                heapq.heappush(polls, (sheet.next_poll, sheet.number))


def _next_job(
    pushes: list[tuple[float, int]],
    polls: list[tuple[float, int]],
    by_number: dict[int, Sheet],
    now: int,
) -> tuple[Sheet, bool] | None:
    while pushes and pushes[0][0] <= now:
        due, number = pushes[0]
        sheet = by_number[number]
        last = sheet.last_request
        first = sheet.first_request
        if last is None or first is None:  # already synced by an earlier entry
            heapq.heappop(pushes)
            continue
        if due < min(last + DEBOUNCE, first + MAX_WAIT):  # a later edit moved it
            heapq.heappop(pushes)
            continue
        return sheet, True
    while polls and polls[0][0] <= now:
        due, number = polls[0]
        sheet = by_number[number]
        if due != sheet.next_poll:  # rescheduled since
            heapq.heappop(polls)
            continue
        return sheet, False
    return None


def _sync(account: Account, sheet: Sheet, now: int, write: bool, unread: int) -> None:
    account.reads.append(now)
    for t in sheet.edits[sheet.read_upto : sheet.read_upto + unread]:
        account.delays.append(now - t)
    if unread:
        sheet.last_change = sheet.edits[sheet.read_upto + unread - 1]
    sheet.read_upto += unread
    if write:
        account.writes.append(now)
        sheet.last_stamp = now
    sheet.last_sync = now
    sheet.first_request = sheet.last_request = None


def busiest_minute(times: list[float]) -> int:
    best, first = 0, 0
    for last, moment in enumerate(times):
        while moment - times[first] >= 60:
            first += 1
        best = max(best, last - first + 1)
    return best


def report(title: str, served: list[Account]) -> None:
    print(f"\n{title}")
    print(
        f"  {'account':>7} {'sheets':>6} {'add-on':>6} {'edits':>6} {'delay median':>12} "
        f"{'p95':>7} {'worst':>7} {'reads/min':>9} {'max':>4} {'writes/min':>10} {'max':>4}"
    )
    minutes = (EVENING + 1200) / 60
    for n, account in enumerate(served):
        delays = sorted(account.delays) or [0.0]
        p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))]
        pushed = sum(1 for s in account.sheets if s.pushed)
        print(
            f"  {n + 1:>7} {len(account.sheets):>6} {pushed:>6} {len(account.delays):>6} "
            f"{statistics.median(delays):>11.0f}s {p95:>6.0f}s {delays[-1]:>6.0f}s "
            f"{len(account.reads) / minutes:>9.1f} {busiest_minute(account.reads):>4} "
            f"{len(account.writes) / minutes:>10.1f} {busiest_minute(account.writes):>4}"
        )
        assert busiest_minute(account.reads) <= READS_PER_MINUTE
        assert busiest_minute(account.writes) <= WRITES_PER_MINUTE


def main() -> None:
    print(
        f"{SHEETS} linked sheets, a {EVENING // 3600}-hour evening; Google allows each service "
        f"account {READS_PER_MINUTE} reads and {WRITES_PER_MINUTE} writes a minute"
    )
    for accounts, addon in ((1, 0.0), (2, 0.0), (4, 0.0), (1, 1.0), (2, 0.5), (4, 0.5)):
        report(
            f"{accounts} service account{'s' if accounts > 1 else ''}, "
            f"{addon:.0%} of the sheets with the add-on:",
            simulate(accounts, addon),
        )


if __name__ == "__main__":
    main()

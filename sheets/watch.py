"""``harkness-sheets watch``: keep many spreadsheets' standings current by polling them.

The spreadsheets are listed in a TOML file::

    poll_interval = 60        # seconds between two polls of one sheet (optional)
    syncs_per_minute = 50     # the most syncs started in any minute (optional)

    [[sheets]]
    spreadsheet = "https://docs.google.com/spreadsheets/d/1AbC…/edit"
    name = "Club championship"          # for the log (optional)

    [[sheets]]
    spreadsheet = "1XyZ…"

(``sheets = ["1AbC…", "https://…"]`` is accepted too.)

A sheet that changed lately is polled every ``poll_interval`` seconds, one unchanged for a
while less often (a quarter of the time since it last changed, up to half an hour, or up to
what ``syncs_per_minute`` allows for this many sheets: :class:`sheets.budget.PollPolicy`),
give or take a random 10 % (jitter, so that sheets added together drift apart), and no faster
than ``syncs_per_minute`` overall: a poll of an unchanged sheet costs one read request, and
Google allows a service account 60 a minute. A sheet whose sync fails is logged and polled
again later, backing off (doubling up to ``16 × poll_interval``); the others carry on.
Problems *in* a sheet are not failures: the sync writes them to that sheet's Errors tab, and
the watcher logs them. Each poll counts as a sync job run (and failed, when it fails) in the
metrics.

With the bot's PostgreSQL database (``HARKNESS_DATABASE_URL``), ``watch`` spends from the
service account's budget shared by every process, holds each sheet's lease while it polls
it, and runs once per service account on the database (:mod:`sheets.shared_watch`).
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheets.budget import PollPolicy
from sheets.client import SheetsClient, SheetsError, spreadsheet_id
from sheets.metrics import SYNC_JOBS
from sheets.sync import SyncResult, sync

logger = logging.getLogger(__name__)

JITTER = 0.1
"""Each wait is the interval times a random factor between 0.9 and 1.1."""
MAX_BACKOFF_FACTOR = 16
"""A failing sheet is polled at most every 16 poll intervals."""


class WatchConfigError(ValueError):
    """The watch configuration file cannot be used; the message says where and why."""


@dataclass(frozen=True, slots=True)
class WatchedSheet:
    """One spreadsheet to keep in sync: its ID (from the ID or URL given) and a label."""

    spreadsheet_id: str
    name: str = ""

    @property
    def label(self) -> str:
        return f"{self.name} ({self.spreadsheet_id})" if self.name else self.spreadsheet_id


@dataclass(frozen=True, slots=True)
class WatchConfig:
    """The sheets to watch and how often."""

    sheets: tuple[WatchedSheet, ...]
    poll_interval: float | None = None
    syncs_per_minute: float = 50.0


def parse_config(data: Mapping[str, Any], source: str = "<config>") -> WatchConfig:
    """A :class:`WatchConfig` from parsed TOML; every problem is reported with ``source``.

    >>> parse_config({"sheets": ["1AbCdEfGhIjKlMnOp"], "poll_interval": 30}).poll_interval
    30.0
    """
    problems: list[str] = []
    items = data.get("sheets")
    if not isinstance(items, list) or not items:
        problems.append(
            "'sheets' must list at least one spreadsheet ([[sheets]] tables with "
            '\'spreadsheet = "ID or URL"\', or sheets = ["ID or URL", …])'
        )
        items = []
    sheets: list[WatchedSheet] = []
    seen: set[str] = set()
    for n, item in enumerate(items, start=1):
        if isinstance(item, str):
            item = {"spreadsheet": item}
        if not isinstance(item, Mapping) or not isinstance(item.get("spreadsheet"), str):
            problems.append(f"sheet {n}: give 'spreadsheet = \"ID or URL\"'")
            continue
        try:
            key = spreadsheet_id(item["spreadsheet"])
        except SheetsError as error:
            problems.append(f"sheet {n}: {error}")
            continue
        if key in seen:
            problems.append(f"sheet {n}: spreadsheet {key} is listed twice")
            continue
        seen.add(key)
        sheets.append(WatchedSheet(key, str(item.get("name", ""))))
    interval = data.get("poll_interval")
    if interval is not None and (not isinstance(interval, int | float) or interval <= 0):
        problems.append("'poll_interval' must be a number of seconds above 0")
        interval = None
    budget = data.get("syncs_per_minute", 50.0)
    if not isinstance(budget, int | float) or budget <= 0:
        problems.append("'syncs_per_minute' must be a number above 0")
        budget = 50.0
    unknown = sorted(set(data) - {"sheets", "poll_interval", "syncs_per_minute"})
    if unknown:
        problems.append(f"unknown settings: {', '.join(unknown)}")
    if problems:
        raise WatchConfigError("\n".join(f"{source}: {p}" for p in problems))
    return WatchConfig(tuple(sheets), None if interval is None else float(interval), float(budget))


def load_config(path: str | Path) -> WatchConfig:
    """Read a watch configuration file (TOML)."""
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except OSError as error:
        raise WatchConfigError(f"{path}: cannot read the file: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise WatchConfigError(f"{path}: not valid TOML: {error}") from None
    return parse_config(data, str(path))


@dataclass
class PollOutcome:
    """What happened to one sheet in one poll."""

    sheet: WatchedSheet
    result: SyncResult | None = None
    error: str | None = None


@dataclass
class Watcher:
    """Polls the configured sheets; :meth:`poll` runs what is due, :meth:`run` loops."""

    client: SheetsClient
    config: WatchConfig
    interval: float = 60.0
    sync: Callable[[SheetsClient, str], SyncResult] = sync
    clock: Callable[[], float] = time.monotonic
    rng: random.Random = field(default_factory=random.Random)
    due: dict[str, float] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    changed_at: dict[str, float] = field(default_factory=dict)
    policy: PollPolicy | None = None
    """How often each sheet is polled (default: every ``interval`` seconds while it is being
    edited, less often as it stays unchanged, as slowly as ``syncs_per_minute`` requires
    when there are many: :meth:`sheets.budget.PollPolicy.fitted`)."""

    def __post_init__(self) -> None:
        now = self.clock()
        count = len(self.config.sheets)
        if self.policy is None:
            self.policy = PollPolicy(
                fastest=self.interval, slowest=max(self.interval, PollPolicy.slowest)
            ).fitted(count, 0, self.config.syncs_per_minute)
        for position, sheet in enumerate(self.config.sheets):
            # Spread the first polls over one interval instead of starting them all at once.
            self.due[sheet.spreadsheet_id] = now + self.interval * position / max(count, 1)
        needed = count * 60.0 / self.interval
        if needed > self.config.syncs_per_minute:
            logger.warning(
                "%d sheets every %.0f s need %.0f syncs a minute, more than the %.0f allowed: "
                "each sheet will be polled about every %.0f s",
                count,
                self.interval,
                needed,
                self.config.syncs_per_minute,
                count * 60.0 / self.config.syncs_per_minute,
            )

    @property
    def gap(self) -> float:
        """The shortest time between the starts of two syncs."""
        return 60.0 / self.config.syncs_per_minute

    def _jittered(self, seconds: float) -> float:
        return seconds * self.rng.uniform(1 - JITTER, 1 + JITTER)

    def poll_one(self, sheet: WatchedSheet) -> PollOutcome:
        """Sync one sheet now, whatever happens, and schedule its next poll."""
        key = sheet.spreadsheet_id
        outcome = PollOutcome(sheet)
        SYNC_JOBS.labels("run").inc()
        try:
            outcome.result = self.sync(self.client, key)
        except SheetsError as error:
            outcome.error = str(error)
        except Exception as error:  # one bad sheet must never stop the watcher
            logger.exception("%s: the sync failed", sheet.label)
            outcome.error = f"{type(error).__name__}: {error}"
        if outcome.error is None:
            self.failures.pop(key, None)
            now = self.clock()
            if outcome.result is not None and outcome.result.changed:
                self.changed_at[key] = now
            assert self.policy is not None
            wait = self.policy.interval(now - self.changed_at.get(key, -math.inf))
        else:
            SYNC_JOBS.labels("failed").inc()
            failures = self.failures[key] = self.failures.get(key, 0) + 1
            wait = self.interval * min(2**failures, MAX_BACKOFF_FACTOR)
            logger.error(
                "%s: %s (failure %d in a row; next try in about %.0f s)",
                sheet.label,
                outcome.error,
                failures,
                wait,
            )
        self.due[key] = self.clock() + self._jittered(wait)
        return outcome

    def next_due(self) -> tuple[WatchedSheet, float]:
        """The sheet due first, and when."""
        sheet = min(self.config.sheets, key=lambda s: self.due[s.spreadsheet_id])
        return sheet, self.due[sheet.spreadsheet_id]

    def poll(self) -> list[PollOutcome]:
        """Sync every sheet that is due now (without waiting between them)."""
        now = self.clock()
        due = sorted(
            (s for s in self.config.sheets if self.due[s.spreadsheet_id] <= now),
            key=lambda s: self.due[s.spreadsheet_id],
        )
        return [self.poll_one(sheet) for sheet in due]

    def run(self, stop: threading.Event) -> None:
        """Poll until ``stop`` is set, one sheet at a time, at most ``syncs_per_minute``."""
        logger.info(
            "watching %d spreadsheets, polling each every %.0f s while it changes, up to "
            "every %.0f s when it does not",
            len(self.config.sheets),
            self.interval,
            self.policy.slowest if self.policy else self.interval,
        )
        last_start: float | None = None
        while not stop.is_set():
            sheet, when = self.next_due()
            if last_start is not None:
                when = max(when, last_start + self.gap)
            if stop.wait(max(0.0, when - self.clock())):
                break
            last_start = self.clock()
            self.poll_one(sheet)

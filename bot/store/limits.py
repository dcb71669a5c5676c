"""What one server may keep in the store and how fast it may add to it, checked before the
work starts (a refusal says the limit and what to do).

A section itself is bounded by :mod:`core.limits` (players, rounds, round entries, a file's
size). Beyond it, per server:

- :data:`MAX_TOURNAMENTS` tournaments;
- :data:`IMPORTS_PER_HOUR` imports an hour (every file read counts, accepted or not: reading
  the largest one takes seconds of the machine);
- :data:`MAX_EVENTS` events in one tournament's results log, and :data:`MAX_GUILD_EVENTS` in
  all of them, checked before an import (the largest section allowed imports as half a
  million events, about 60 MB of database).

What a server's commands may take of the bot while they run is :mod:`bot.fairshare`'s and
:mod:`bot.store.offload`'s; what the store keeps in memory for it, :mod:`bot.store.cache`'s.

>>> window = ImportWindow(per_hour=2)
>>> window.record("g", 0.0); window.record("g", 10.0)
>>> window.refusal("g", 20.0) is not None, window.refusal("g", 3601.0) is None
(True, True)
"""

from __future__ import annotations

import time
from collections import deque

from bot.store.errors import StoreError

#: Tournaments a server keeps.
MAX_TOURNAMENTS = 100
#: Imports a server may start in an hour.
IMPORTS_PER_HOUR = 10
#: Events of one tournament's results log (the largest import is about 500,000; members'
#: reports, confirmations and a TD's corrections add a few a game).
MAX_EVENTS = 2_000_000
#: Events a server keeps in all its tournaments (about four of the largest imports).
MAX_GUILD_EVENTS = 2_000_000
HOUR = 3600.0


def too_many_tournaments(count: int) -> StoreError | None:
    """The refusal of a new tournament when the server has ``count`` already."""
    if count < MAX_TOURNAMENTS:
        return None
    return StoreError(
        f"this server already has {count} tournaments, the most Harkness keeps for one "
        "server: ask Harkness's operator to remove old ones before adding another",
        "too-many-tournaments",
    )


def log_full(name: str, seq: int) -> StoreError | None:
    """The refusal of event ``seq`` of tournament ``name`` when its log is full."""
    if seq <= MAX_EVENTS:
        return None
    return StoreError(
        f"{name} has {MAX_EVENTS:,} results already, the most one tournament keeps: "
        "start a new tournament for what follows",
        "log-full",
    )


def too_many_events(kept: int, adding: int) -> StoreError | None:
    """The refusal of an import of ``adding`` events when the server keeps ``kept``."""
    if kept + adding <= MAX_GUILD_EVENTS:
        return None
    return StoreError(
        f"this server keeps {kept:,} results already and this file adds {adding:,}: one "
        f"server keeps at most {MAX_GUILD_EVENTS:,}, so nothing was imported",
        "too-many-events",
    )


class ImportWindow:
    """The imports each server started in the last hour (in this process: a server's
    commands all reach the one bot process that serves its shard)."""

    def __init__(self, per_hour: int = IMPORTS_PER_HOUR) -> None:
        self.per_hour = per_hour
        self._started: dict[str, deque[float]] = {}

    def _recent(self, guild: str, now: float) -> deque[float]:
        started = self._started.setdefault(guild, deque())
        while started and started[0] <= now - HOUR:
            started.popleft()
        return started

    def refusal(self, guild: str, now: float | None = None) -> StoreError | None:
        """Why the server may not start another import now, or None."""
        now = time.monotonic() if now is None else now
        started = self._recent(guild, now)
        if len(started) < self.per_hour:
            return None
        wait = max(1, round((started[0] + HOUR - now) / 60))
        return StoreError(
            f"this server has started {len(started)} imports in the last hour, the most "
            f"Harkness reads for one server: try again in {wait} minute"
            f"{'s' if wait != 1 else ''}",
            "too-many-imports",
        )

    def record(self, guild: str, now: float | None = None) -> None:
        """Count an import the server starts now."""
        now = time.monotonic() if now is None else now
        self._recent(guild, now).append(now)

"""Slow work is shared fairly between servers (each server's queue served in turn, a share of
the threads each, a flood refused in words), and the garbage collector is never switched off:
full collections wait while a heavy job builds, and still happen while one server's jobs
keep coming."""

from __future__ import annotations

import asyncio
import gc
import threading
import time

import pytest

from bot.store.collector import Collector
from bot.store.errors import StoreError
from bot.store.offload import SMALL, Jobs

HEAVY = SMALL  # the size of a section whose work waits its server's turn


async def test_a_second_servers_job_goes_before_the_first_servers_next_ones() -> None:
    jobs = Jobs(workers=1, guild_running=1, guild_waiting=8)
    started: list[str] = []
    release = threading.Event()

    def job(name: str) -> str:
        started.append(name)
        release.wait(5)
        return name

    a = [
        asyncio.ensure_future(jobs.run("a", lambda n=n: job(f"a{n}"), size=HEAVY, what="x"))
        for n in range(3)
    ]
    while not started:
        await asyncio.sleep(0.01)
    b = asyncio.ensure_future(jobs.run("b", lambda: job("b0"), size=HEAVY, what="x"))
    await asyncio.sleep(0.05)
    release.set()
    assert await asyncio.gather(*a, b) == ["a0", "a1", "a2", "b0"]
    assert started == ["a0", "b0", "a1", "a2"]
    jobs.close()


async def test_a_servers_jobs_beyond_its_share_wait_and_a_flood_is_refused_in_words() -> None:
    jobs = Jobs(workers=2, guild_running=1, guild_waiting=2)
    release = threading.Event()
    running = [jobs.run("a", lambda: release.wait(5), size=HEAVY, what="x") for _ in range(3)]
    tasks = [asyncio.ensure_future(r) for r in running]
    await asyncio.sleep(0.05)
    assert (jobs.heavy.running("a"), jobs.heavy.waiting("a")) == (1, 2)
    with pytest.raises(StoreError, match="already has 2 requests waiting") as refused:
        await jobs.run("a", lambda: None, size=HEAVY, what="computing the standings")
    assert refused.value.code == "busy"
    # Another server takes the second thread at once.
    assert await jobs.run("b", lambda: "b", size=HEAVY, what="x") == "b"
    release.set()
    await asyncio.gather(*tasks)
    jobs.close()


@pytest.mark.usefixtures("collector_on")
async def test_the_collector_stays_on_and_full_collections_still_happen_between_jobs() -> None:
    collector = Collector(release_seconds=0.0)  # release at every job, to see it happen
    jobs = Jobs(workers=1, collector=collector)
    thresholds = gc.get_threshold()
    full = gc.get_stats()[2]["collections"]

    def build() -> tuple[bool, int]:
        kept = [[n] for n in range(50_000)]  # a heavy job builds many small objects
        return gc.isenabled(), gc.get_threshold()[2] + len(kept) * 0

    seen = [await jobs.run("a", build, size=HEAVY, what="building") for _ in range(3)]
    assert all(enabled for enabled, _ in seen)  # never switched off
    assert all(waiting > thresholds[2] for _, waiting in seen)  # full ones waited meanwhile
    assert gc.get_threshold() == thresholds and gc.isenabled()  # as it was after
    assert collector.releases == 3 and gc.get_stats()[2]["collections"] >= full + 3
    gc.unfreeze()
    jobs.close()


async def test_a_job_that_takes_too_long_is_answered_and_its_thread_finishes_by_itself() -> None:
    jobs = Jobs(workers=1)
    started = time.monotonic()
    with pytest.raises(StoreError, match=r"reading x\.trf took longer than 0 seconds"):
        await jobs.run("a", lambda: time.sleep(0.3), size=HEAVY, what="reading x.trf", seconds=0.05)
    assert time.monotonic() - started < 0.25
    assert await jobs.run("a", lambda: "next", size=HEAVY, what="x") == "next"
    jobs.close()

"""``serve`` with its queue in PostgreSQL: two workers share the add-on's requests, each
burst of edits is one sync by one of them, and a restart loses no request."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from sqlalchemy import text

from bot.store import Store
from sheets.client import SheetsClient
from sheets.jobs import DurableSyncQueue, durable_store
from sheets.serve import SECRET_HEADER, make_app
from sheets.sync import SyncResult, sync
from tests.fakes.sheets_api import Op, SheetsFake
from tests.sheets.conftest import seed_crosstable
from tests.store.conftest import fresh_postgres_database, postgres_server

MakeSheet = Callable[..., str]
SECRET = "a long shared secret for the tests"
Runs = list[tuple[str, str, float, float]]


@pytest.fixture
async def database() -> AsyncIterator[str]:
    async with fresh_postgres_database(postgres_server()) as url:
        yield url


class Worker:
    """One ``serve`` process: its own store connection, queue and endpoint."""

    def __init__(
        self, name: str, url: str, client: SheetsClient, runs: Runs, **options: Any
    ) -> None:
        self.name, self.url, self.client, self.runs = name, url, client, runs
        self.options = {"debounce": 0.3, "max_wait": 5.0, **options}
        self.runner: web.AppRunner | None = None
        self.store: Store | None = None
        self.endpoint = ""

    def _sync(self, key: str) -> SyncResult:
        began = time.monotonic()
        try:
            return sync(self.client, key)
        finally:
            self.runs.append((self.name, key, began, time.monotonic()))

    async def start(self) -> DurableSyncQueue:
        self.store = await Store.open(self.url)
        self.queue = DurableSyncQueue(
            self.store,
            self._sync,
            syncs_per_minute=600,
            lease=timedelta(seconds=4),
            poll=0.2,
            worker=self.name,
            **self.options,
        )
        self.runner = web.AppRunner(make_app(self.queue, SECRET))
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = self.runner.addresses[0][1]
        self.endpoint = f"http://127.0.0.1:{port}"
        return self.queue

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        if self.store is not None:
            await self.store.close()

    async def post(self, sheet: str) -> str:
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{self.endpoint}/sync",
                json={"spreadsheetId": sheet, "reason": "edit"},
                headers={SECRET_HEADER: SECRET},
            ) as response,
        ):
            assert response.status == 202
            return str((await response.json())["status"])


async def test_two_workers_share_the_requests_and_each_burst_is_one_sync(
    database: str, client: SheetsClient, sheets_fake: SheetsFake, make_sheet: MakeSheet
) -> None:
    runs: Runs = []
    # A burst is one sync however slowly this machine posts it (2 s between edits at most).
    workers = [
        Worker(f"worker-{n}", database, client, runs, debounce=2.0, max_wait=20.0) for n in (1, 2)
    ]
    try:
        for worker in workers:
            await worker.start()
        sheets = [
            make_sheet({"Results": seed_crosstable()}, title=f"Section {n}") for n in range(4)
        ]
        for _ in range(3):  # the add-on of each sheet posts to either worker, edit after edit
            for n, sheet in enumerate(sheets):
                assert await workers[n % 2].post(sheet) == "scheduled"
                assert await workers[(n + 1) % 2].post(sheet) == "scheduled"
            await asyncio.sleep(0.05)
        await workers[0].queue.idle(timeout=20)
        await workers[1].queue.idle(timeout=20)
    finally:
        for worker in workers:
            await worker.stop()
    assert sorted(key for _, key, *_ in runs) == sorted(sheets)  # one sync per sheet
    assert {name for name, *_ in runs} == {"worker-1", "worker-2"}  # both did work
    for sheet in sheets:
        assert sheets_fake.call_count(sheet, operation=Op.GET) == 1
        assert sheets_fake.values(sheet, "Standings!C2") == [["Player A"]]
    spans = sorted((began, ended) for name, _, began, ended in runs if name == "worker-1")
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))  # one at a time each


async def test_a_request_outlives_the_worker_that_took_it(
    database: str, client: SheetsClient, sheets_fake: SheetsFake, make_sheet: MakeSheet
) -> None:
    runs: Runs = []
    sheet = make_sheet({"Results": seed_crosstable()})
    first = Worker("worker-1", database, client, runs)
    await first.start()
    try:
        assert await first.post(sheet) == "scheduled"
    finally:
        await first.stop()  # stopped before the debounce was over: nothing synced yet
    assert runs == []
    second = Worker("worker-2", database, client, runs)
    try:
        await second.start()
        await second.queue.idle(timeout=20)
    finally:
        await second.stop()
    assert [(name, key) for name, key, *_ in runs] == [("worker-2", sheet)]
    assert sheets_fake.values(sheet, "Standings!C2") == [["Player A"]]


async def test_workers_spend_one_budget_per_account_and_google_never_refuses(
    database: str, client: SheetsClient, sheets_fake: SheetsFake, make_sheet: MakeSheet
) -> None:
    # Google's limits, with the minute shortened to 2 s so that the test sees it turn.
    sheets_fake.enforce_quotas(reads_per_minute=4, writes_per_minute=4, window=2.0)
    budget = {
        "account": client.service_account_email,
        "reads_per_minute": 4,
        "writes_per_minute": 4,
        "quota_window": 2.0,
        "quota_hold": 0.5,
    }
    runs: Runs = []
    workers = [Worker(f"worker-{n}", database, client, runs, **budget) for n in (1, 2)]
    sheets = [make_sheet({"Results": seed_crosstable()}, title=f"Section {n}") for n in range(8)]
    try:
        for worker in workers:
            await worker.start()
        for n, sheet in enumerate(sheets):
            await workers[n % 2].post(sheet)
        await workers[0].queue.idle(timeout=30)
        await workers[1].queue.idle(timeout=30)
    finally:
        for worker in workers:
            await worker.stop()
    assert sorted(key for _, key, *_ in runs) == sorted(sheets)
    assert [c for c in sheets_fake.calls() if c.status == 429] == []
    for kind in ("read", "write"):
        assert sheets_fake.max_calls_in_any_minute(kind=kind, window=2.0) <= 4
    for sheet in sheets:
        assert sheets_fake.values(sheet, "Standings!C2") == [["Player A"]]


async def test_without_postgresql_the_queue_stays_in_memory() -> None:
    async with durable_store(None) as none, durable_store("sqlite:///club.db") as sqlite:
        assert none is None and sqlite is None


async def test_idle_waits_for_a_sync_claimed_and_not_yet_started(
    database: str, client: SheetsClient, make_sheet: MakeSheet
) -> None:
    """A claimed request no longer counts as waiting before its sync runs (the worker first
    takes the sheet's lease): ``idle`` must not answer in between, or a caller that stops
    the worker then loses it for the lease's time. The lease table is held here, so the
    worker stays in that gap until it is let go."""
    runs: Runs = []
    sheet = make_sheet({"Results": seed_crosstable()})
    worker = Worker("worker-1", database, client, runs)
    queue = await worker.start()
    assert worker.store is not None
    try:
        async with worker.store.engine.connect() as blocker:
            await blocker.execute(text("LOCK TABLE sheet_leases IN EXCLUSIVE MODE"))
            assert await worker.post(sheet) == "scheduled"
            deadline = time.monotonic() + 30
            while await queue.waiting():  # the debounce, then the claim
                assert time.monotonic() < deadline, "the request was never claimed"
                await asyncio.sleep(0.05)
            idle = asyncio.ensure_future(queue.idle(timeout=30))
            await asyncio.sleep(0.5)
            assert not idle.done(), "idle while a claimed sync had not run"
            await blocker.rollback()
        await idle
    finally:
        await worker.stop()
    assert [(name, key) for name, key, *_ in runs] == [("worker-1", sheet)]

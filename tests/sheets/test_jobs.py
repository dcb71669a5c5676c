"""``serve`` with its queue in PostgreSQL: two workers share the add-on's requests, each
burst of edits is one sync by one of them, a restart loses no request, and workers with
different service accounts each get the sheets their key opens (one none opens is set
aside and reported)."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from prometheus_client import REGISTRY
from sqlalchemy import text

from sheets.addon_keys import KEY_HEADER, FleetKeys, key_digest, read_commitment
from sheets.client import SheetsClient, open_client
from sheets.fleet import Fleet
from sheets.gate import Gate
from sheets.jobs import DatabaseUnavailable, DurableSyncQueue, durable_fleet
from sheets.pairing import pair_answer
from sheets.serve import make_app
from sheets.settings import SheetsSettings
from sheets.sync import SyncResult, sync
from sheets.turns import Turns
from tests.fakes.sheets_api import Op, ServiceAccountKey, SheetsFake, generate_service_account
from tests.sheets.addon import Editor, new_key, post
from tests.sheets.conftest import seed_crosstable
from tests.store.conftest import fresh_postgres_database, postgres_server

MakeSheet = Callable[..., str]
#: The add-on's key every sheet here was connected with (the keys are not what is tested).
KEY = "k" * 64
Runs = list[tuple[str, str, float, float]]


@pytest.fixture
async def database() -> AsyncIterator[str]:
    async with fresh_postgres_database(postgres_server()) as url:
        yield url


class Worker:
    """One ``serve`` process: its own fleet (connections), queue and endpoint."""

    def __init__(
        self, name: str, url: str, client: SheetsClient, runs: Runs, **options: Any
    ) -> None:
        self.name, self.url, self.client, self.runs = name, url, client, runs
        self.options = {"debounce": 0.3, "max_wait": 5.0, **options}
        self.runner: web.AppRunner | None = None
        self.fleet: Fleet | None = None
        self.endpoint = ""

    def _sync(self, key: str) -> SyncResult:
        began = time.monotonic()
        try:
            return sync(self.client, key)
        finally:
            self.runs.append((self.name, key, began, time.monotonic()))

    async def start(self) -> DurableSyncQueue:
        self.fleet = await Fleet.open(self.url)
        self.queue = DurableSyncQueue(
            self.fleet,
            self._sync,
            syncs_per_minute=600,
            lease=timedelta(seconds=4),
            poll=0.2,
            worker=self.name,
            **self.options,
        )
        # As serve runs on a database: the keys, the budget and the leases in the fleet.
        self.keys = FleetKeys(self.fleet)
        self.turns = Turns(
            "worker@x", budgets=self.fleet, fleet=self.fleet, holder=f"{self.name}-turns", wait=1.0
        )
        gate = Gate(self.keys, lambda key: read_commitment(self.client, key), turns=self.turns)
        pair = lambda key, vouched: pair_answer(self.client, key, vouched)  # noqa: E731
        self.runner = web.AppRunner(make_app(self.queue, gate, pair=pair))
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = self.runner.addresses[0][1]
        self.endpoint = f"http://127.0.0.1:{port}"
        return self.queue

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        if self.fleet is not None:
            await self.fleet.close()

    async def post(self, sheet: str) -> str:
        digest = key_digest(KEY)
        assert digest is not None
        await self.keys.keep(sheet, {digest})  # connected by its editors
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{self.endpoint}/sync",
                json={"spreadsheetId": sheet, "reason": "edit"},
                headers={KEY_HEADER: KEY},
            ) as response,
        ):
            assert response.status == 202
            return str((await response.json())["status"])

    async def health(self) -> dict[str, Any]:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{self.endpoint}/healthz") as response,
        ):
            answer: dict[str, Any] = await response.json()
            return answer


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
    async with durable_fleet(None) as none, durable_fleet("sqlite:///club.db") as sqlite:
        assert none is None and sqlite is None


async def test_a_database_url_of_another_kind_is_refused_in_words() -> None:
    with pytest.raises(DatabaseUnavailable, match="the database 'mysql' is not supported"):
        async with durable_fleet("mysql://root@127.0.0.1/chess"):
            pass


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
    assert worker.fleet is not None
    try:
        async with worker.fleet.engine.connect() as blocker:
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


async def test_workers_of_two_service_accounts_each_sync_the_sheets_their_key_opens(
    database: str,
    sheets_fake: SheetsFake,
    sheets_settings: SheetsSettings,
    service_account_file: ServiceAccountKey,
    tmp_path: Path,
) -> None:
    (tmp_path / "b").mkdir()
    key_b = generate_service_account(
        sheets_fake, tmp_path / "b", email="harkness-b@harkness-test.iam.gserviceaccount.com"
    )
    a, b = service_account_file.email, key_b.email
    clients = {
        a: open_client(sheets_settings),
        b: open_client(
            sheets_settings.model_copy(update={"google_application_credentials": key_b.path})
        ),
    }
    own = {
        account: sheets_fake.create_spreadsheet(
            f"Section {n}", {"Results": seed_crosstable()}, shared_with=[account]
        )
        for n, account in enumerate((a, b))
    }
    nobodys = sheets_fake.create_spreadsheet("Unshared", {"Results": seed_crosstable()})
    set_aside = REGISTRY.get_sample_value("harkness_sync_jobs_total", {"event": "set_aside"})
    runs: Runs = []
    workers = {
        account: Worker(f"worker-{n}", database, client, runs, account=account)
        for n, (account, client) in enumerate(clients.items())
    }

    async def synced(sheet: str, by: str) -> None:
        deadline = time.monotonic() + 30
        while not sheets_fake.calls(sheet, operation=Op.BATCH_UPDATE, status=200):
            assert time.monotonic() < deadline, f"{sheet} never synced"
            await asyncio.sleep(0.05)
        assert sheets_fake.values(sheet, "Standings!C2") == [["Player A"]]
        assert sheets_fake.call_count(sheet, operation=Op.BATCH_UPDATE, user=by, status=200)

    try:
        for worker in workers.values():
            await worker.start()
        for sheet in (*own.values(), nobodys):
            assert await workers[a].post(sheet) == "scheduled"
        for account, sheet in own.items():
            await synced(sheet, account)
        fleet = workers[b].fleet
        assert fleet is not None
        deadline = time.monotonic() + 30
        while [job.spreadsheet_id for job in await fleet.syncs_set_aside()] != [nobodys]:
            assert time.monotonic() < deadline, "the unshared sheet was never set aside"
            await asyncio.sleep(0.05)
        # Reported: in the metrics, in /healthz, with why.
        [aside] = await fleet.syncs_set_aside()
        assert "share the spreadsheet with" in aside.error
        assert (
            REGISTRY.get_sample_value("harkness_sync_jobs_total", {"event": "set_aside"})
            == (set_aside or 0) + 1
        )
        assert (await workers[b].health())["set_aside"] == 1
        # Each key tried it once, and it is not retried however long the workers run.
        tries = sheets_fake.call_count(nobodys)
        assert {c.user for c in sheets_fake.calls(nobodys)} == {a, b}
        await asyncio.sleep(1.5)
        assert sheets_fake.call_count(nobodys) == tries

        # Once synced, a sheet's jobs wait for its own account's worker, even while another
        # is free: A's worker is between restarts (still seen as running), B's leaves it.
        await workers[a].stop()
        wrong, right = (sheets_fake.call_count(own[a], user=acc) for acc in (b, a))
        assert await workers[b].post(own[a]) == "scheduled"
        await asyncio.sleep(1.5)
        assert sheets_fake.call_count(own[a], user=b) == wrong
        workers[a] = Worker("worker-0", database, clients[a], runs, account=a)
        await workers[a].start()
        await workers[a].queue.idle(timeout=30)
        assert sheets_fake.call_count(own[a], user=a) > right
        assert sheets_fake.call_count(own[a], user=b) == wrong

        # The TD shares the last sheet with B and edits it: it is taken up again.
        sheets_fake.share(nobodys, b)
        assert await workers[a].post(nobodys) == "scheduled"
        await synced(nobodys, b)
        assert await fleet.syncs_set_aside() == []
    finally:
        for worker in workers.values():
            await worker.stop()
    assert {c.user for c in sheets_fake.calls(nobodys, status=403)} == {a, b}


async def test_a_sheet_connected_at_one_worker_is_served_by_all_until_revoked(
    database: str,
    client: SheetsClient,
    make_sheet: MakeSheet,
    make_editor: Callable[..., Editor],
    sheets_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The keys live in the database: a sheet connected through one worker is accepted by
    the other (and by a new one after a restart), and ``harkness-sheets revoke`` on the
    database refuses its keys at every worker at once."""
    from sheets.cli import main

    sheet = make_sheet({"Results": seed_crosstable()})
    key = new_key()
    make_editor("td", sheet).vouch(sheet, key)
    runs: Runs = []
    workers = [Worker(f"worker-{n}", database, client, runs) for n in (1, 2)]
    try:
        for worker in workers:
            await worker.start()
        assert (await post(workers[0].endpoint, "/connect", sheet, key))[0] == 200
        assert (await post(workers[1].endpoint, "/sync", sheet, key))[0] == 202
        for name, value in {**sheets_env, "HARKNESS_DATABASE_URL": database}.items():
            monkeypatch.setenv(name, value)
        assert await asyncio.to_thread(main, ["revoke", sheet]) == 0
        for worker in workers:
            status, body = await post(worker.endpoint, "/sync", sheet, key)
            assert (status, body.get("connect")) == (401, True)
            assert (await post(worker.endpoint, "/connect", sheet, key))[0] == 401
        await workers[1].queue.idle(timeout=20)
    finally:
        for worker in workers:
            await worker.stop()


async def test_a_pairing_waits_for_the_sheets_lease(
    database: str,
    client: SheetsClient,
    make_sheet: MakeSheet,
    make_editor: Callable[..., Editor],
) -> None:
    """While another process (a bot shard, a sync) holds the sheet's lease, "Pair next
    round" writes nothing and says so (503, Retry-After); once it is free, it pairs."""
    from tests.sheets.conftest import settings_rows
    from tests.sheets.test_pairing import HEADER, PLAYERS

    sheet = make_sheet(
        {"Results": [HEADER], "Players": PLAYERS, "Harkness": settings_rows(Rounds="3")}
    )
    key = new_key()
    make_editor("td", sheet).vouch(sheet, key)
    worker = Worker("worker-1", database, client, [])
    try:
        await worker.start()
        assert worker.fleet is not None
        assert (await post(worker.endpoint, "/connect", sheet, key))[0] == 200
        assert await worker.fleet.take_sheet(
            sheet, "harkness-bot:shard-0", lease=timedelta(seconds=60)
        )
        status, body = await post(worker.endpoint, "/pair", sheet, key)
        assert (status, body["paired"]) == (503, False)
        assert "another Harkness process is writing this sheet" in body["message"]
        await worker.fleet.drop_sheet(sheet, "harkness-bot:shard-0")
        status, body = await post(worker.endpoint, "/pair", sheet, key)
        assert (status, body["paired"]) == (200, True)
        assert await worker.fleet.sheet_holder(sheet) is None  # given back after
    finally:
        await worker.stop()

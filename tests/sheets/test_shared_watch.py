"""``harkness-sheets watch`` on PostgreSQL: one watch per service account on a database (a
second refuses to start, naming the first), each poll spent from the budget every process
shares, and a sheet another process is writing left until it is done."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from sheets.budget import Quota
from sheets.client import SheetsClient
from sheets.fleet import Fleet
from sheets.shared_watch import run_shared
from sheets.watch import WatchConfig, WatchedSheet, Watcher
from tests.fakes.sheets_api import SheetsFake
from tests.scrape import free_port, scrape
from tests.sheets.conftest import seed_crosstable
from tests.store.conftest import fresh_postgres_database, postgres_server

MakeSheet = Callable[..., str]
ROOT = Path(__file__).parents[2]
#: A bot shard writing the sheet (as the fleet sees it).
SHARD = "harkness-bot:elsewhere:1:5hard000"


@pytest.fixture
async def database() -> AsyncIterator[str]:
    async with fresh_postgres_database(postgres_server()) as url:
        yield url


def _watch(env: dict[str, str], config: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sheets", "watch", "--config", str(config)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def _polled(sheets_fake: SheetsFake, sheet: str, more_than: int, process: subprocess.Popen[str]):
    deadline = time.monotonic() + 30
    while sheets_fake.call_count(sheet) <= more_than:
        assert process.poll() is None, "watch stopped"
        assert time.monotonic() < deadline, "watch never polled the sheet"
        time.sleep(0.05)


async def test_a_second_watch_with_the_same_key_on_one_database_refuses_to_start(
    database: str,
    sheets_env: dict[str, str],
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    tmp_path: Path,
) -> None:
    sheet = make_sheet({"Results": seed_crosstable()})
    config = tmp_path / "sheets.toml"
    config.write_text(f'poll_interval = 1\nsyncs_per_minute = 600\nsheets = ["{sheet}"]\n')
    env = {**os.environ, **sheets_env, "HARKNESS_DATABASE_URL": database}
    port = free_port()
    first = _watch({**env, "HARKNESS_METRICS_PORT": str(port)}, config)
    try:
        _polled(sheets_fake, sheet, 0, first)
        second = subprocess.run(
            [sys.executable, "-m", "sheets", "watch", "--config", str(config)],
            env=env,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
        samples = scrape(port)
    finally:
        first.send_signal(signal.SIGTERM)
        _, log = first.communicate(timeout=20)
    assert first.returncode == 0, log
    assert second.returncode == 2
    assert "another harkness-sheets watch (harkness-sheets:" in second.stderr
    assert "one watch per service account" in second.stderr
    assert samples[("harkness_sync_jobs_total", (("event", "run"),))] >= 1
    # Stopped, the first gave the account back: a new watch starts at once and polls.
    polls = sheets_fake.call_count(sheet)
    third = _watch(env, config)
    try:
        _polled(sheets_fake, sheet, polls, third)
    finally:
        third.send_signal(signal.SIGTERM)
        _, log = third.communicate(timeout=20)
    assert third.returncode == 0, log


async def _watching(
    client: SheetsClient, fleet: Fleet, sheet: str, quota: Quota, seconds: float
) -> None:
    """Run a watch of ``sheet`` (polled every 0.2 s) for ``seconds``."""
    watcher = Watcher(client, WatchConfig((WatchedSheet(sheet),), 0.2, 6000.0), 0.2)
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_shared(watcher, fleet, client.service_account_email, quota, stop)
    )
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait_for(task, 30)


async def test_watch_leaves_a_sheet_another_process_writes_and_spends_the_shared_budget(
    database: str, client: SheetsClient, sheets_fake: SheetsFake, make_sheet: MakeSheet
) -> None:
    sheet = make_sheet({"Results": seed_crosstable()})
    account = client.service_account_email
    quota = Quota(reads_per_minute=4, writes_per_minute=4, window=2.0)  # 3 a window spent
    fleet = await Fleet.open(database)
    try:
        # A bot shard is writing the sheet: the watch leaves it alone until it is done.
        assert await fleet.take_sheet(sheet, SHARD, lease=timedelta(seconds=60))
        await _watching(client, fleet, sheet, quota, 1.0)
        assert sheets_fake.call_count(sheet) == 0
        await fleet.drop_sheet(sheet, SHARD)
        await _watching(client, fleet, sheet, quota, 1.0)
        assert sheets_fake.call_count(sheet) > 0
        # Another process spends the account's whole budget: the watch waits for the
        # window to turn (2 s) before it polls again.
        await asyncio.sleep(quota.window + quota.hold)  # the watch's own spending is over
        while not await fleet.spend_quota(
            account,
            reads=1,
            writes=0,
            reads_limit=quota.reads_budget,
            writes_limit=quota.writes_budget,
            window=quota.window,
            hold=quota.hold,
        ):
            pass
        polls = sheets_fake.call_count(sheet)
        await _watching(client, fleet, sheet, quota, 1.0)
        assert sheets_fake.call_count(sheet) == polls
        await _watching(client, fleet, sheet, quota, 3.0)
        assert sheets_fake.call_count(sheet) > polls
    finally:
        await fleet.close()

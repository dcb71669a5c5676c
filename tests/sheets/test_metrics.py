"""The workers' metrics, scraped over HTTP: Google's 429s and the sync jobs are counted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest

from sheets import metrics
from sheets.client import SheetsClient
from sheets.serve import SyncQueue
from sheets.sync import SyncResult, sync
from tests.fakes.sheets_api import Op, SheetsFake
from tests.scrape import free_port, scrape
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """This process's metrics, served as ``harkness-sheets`` serves them, on loopback."""
    chosen = free_port()
    server = metrics.expose({"HARKNESS_METRICS_PORT": str(chosen)})
    assert server is not None
    assert server.server_address[0] == "127.0.0.1"  # loopback unless told otherwise
    yield chosen
    server.shutdown()
    server.server_close()


def test_nothing_is_served_without_the_variable() -> None:
    assert metrics.expose({}) is None


@pytest.mark.parametrize("bad", ["http", "0", "70000"])
def test_a_bad_port_is_refused_by_name(bad: str) -> None:
    with pytest.raises(ValueError, match="HARKNESS_METRICS_PORT"):
        metrics.expose({"HARKNESS_METRICS_PORT": bad})


def test_a_429_from_google_is_counted(
    port: int, sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    before = scrape(port)[("harkness_google_429_total", ())]
    sheets_fake.fail_next(2, 429, operation=Op.GET)
    assert sync(client, sheet_id).published
    assert sheets_fake.call_count(sheet_id, operation=Op.GET, status=429) == 2
    assert scrape(port)[("harkness_google_429_total", ())] == before + 2


async def test_sync_jobs_are_counted_queued_run_and_failed(port: int) -> None:
    def work(sheet: str) -> SyncResult:
        raise RuntimeError(f"{sheet} is gone")

    key = "harkness_sync_jobs_total"
    before = await asyncio.to_thread(scrape, port)
    queue = SyncQueue(work, debounce=0.01, max_wait=0.05)
    await queue.start()
    try:
        await queue.ask("a" * 44)
        await queue.idle()
    finally:
        await queue.stop()
    after = await asyncio.to_thread(scrape, port)
    for event in ("queued", "run", "failed"):
        sample = (key, (("event", event),))
        assert after[sample] == before.get(sample, 0.0) + 1, event

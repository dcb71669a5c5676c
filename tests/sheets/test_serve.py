"""``harkness-sheets serve``: the add-on's endpoint checks the shared secret, debounces a
burst of edits into one sync, and queues syncs one at a time."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from ipaddress import ip_network
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from sheets.client import SheetsClient
from sheets.serve import FAILURES_ALLOWED, SECRET_HEADER, SyncQueue, make_app
from sheets.settings import SheetsSettings
from sheets.sync import SyncResult, sync
from tests.fakes.sheets_api import Op, SheetsFake
from tests.sheets.conftest import seed_crosstable, settings_rows

MakeSheet = Callable[..., str]
SECRET = "a long shared secret for the tests"


@dataclass
class Endpoint:
    url: str
    queue: SyncQueue
    runs: list[tuple[str, float, float]]
    """(spreadsheet id, start, end) of every sync the queue ran."""

    async def post(
        self, body: Any, secret: str | None = SECRET, *, forwarded_for: str | None = None
    ) -> tuple[int, Any]:
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        if forwarded_for is not None:
            headers["X-Forwarded-For"] = forwarded_for
        async with (
            aiohttp.ClientSession() as session,
            session.post(f"{self.url}/sync", json=body, headers=headers) as response,
        ):
            return response.status, await response.json()


async def start(
    client: SheetsClient,
    allowed: set[str] | None = None,
    debounce: float = 0.3,
    max_wait: float = 5.0,
    **options: Any,
) -> tuple[Endpoint, web.AppRunner]:
    runs: list[tuple[str, float, float]] = []

    def timed_sync(key: str) -> SyncResult:
        began = time.monotonic()
        try:
            return sync(client, key)
        finally:
            runs.append((key, began, time.monotonic()))

    queue = SyncQueue(timed_sync, debounce=debounce, max_wait=max_wait, syncs_per_minute=300)
    runner = web.AppRunner(make_app(queue, SECRET, allowed, **options))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    assert host == "127.0.0.1"
    return Endpoint(f"http://127.0.0.1:{port}", queue, runs), runner


@pytest.fixture
async def endpoint(client: SheetsClient) -> AsyncIterator[Endpoint]:
    served, runner = await start(client)
    yield served
    await runner.cleanup()


async def test_a_wrong_or_missing_secret_is_refused_and_nothing_is_synced(
    endpoint: Endpoint,
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    caplog: pytest.LogCaptureFixture,
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    with caplog.at_level("DEBUG"):
        for secret in (None, "", "a guessed secret", SECRET + "x"):
            status, body = await endpoint.post({"spreadsheetId": sheet_id}, secret)
            assert (status, body) == (401, {"error": "wrong or missing secret"})
    assert "wrong or missing secret" in caplog.text
    assert "a guessed secret" not in caplog.text and SECRET not in caplog.text
    await asyncio.sleep(0.5)
    assert endpoint.queue.pending == 0 and endpoint.runs == []
    assert sheets_fake.call_count(sheet_id) == 0


async def test_a_burst_of_edits_becomes_one_sync(
    endpoint: Endpoint, sheets_fake: SheetsFake, make_sheet: MakeSheet
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    for _ in range(5):
        status, body = await endpoint.post({"spreadsheetId": sheet_id, "reason": "edit"})
        assert status == 202 and body == {"spreadsheetId": sheet_id, "status": "scheduled"}
        await asyncio.sleep(0.05)
    await endpoint.queue.idle()
    assert [key for key, *_ in endpoint.runs] == [sheet_id]
    assert sheets_fake.call_count(sheet_id, operation=Op.GET) == 1
    assert sheets_fake.values(sheet_id, "Standings!C2") == [["Player A"]]


async def test_syncs_of_several_sheets_are_queued_and_run_one_at_a_time(
    endpoint: Endpoint, make_sheet: MakeSheet
) -> None:
    keys = [make_sheet({"Results": seed_crosstable()}, title=f"Section {n}") for n in range(3)]
    for key in keys:
        assert (await endpoint.post({"spreadsheetId": key}))[0] == 202
    await endpoint.queue.idle()
    assert sorted(key for key, *_ in endpoint.runs) == sorted(keys)
    spans = sorted((began, ended) for _, began, ended in endpoint.runs)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))  # one at a time
    assert all(b[0] - a[0] >= 60 / 300 - 0.01 for a, b in itertools.pairwise(spans))


async def test_an_edit_during_a_sync_brings_one_more_sync_after_it(
    endpoint: Endpoint, sheets_fake: SheetsFake, make_sheet: MakeSheet
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable(), "Harkness": settings_rows()})
    sheets_fake.slow_next(1, delay=2.0, operation=Op.GET)
    await endpoint.post({"spreadsheetId": sheet_id})
    deadline = time.monotonic() + 30
    while endpoint.queue.pending and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert endpoint.runs == []  # the debounce is over and the (slow) sync is running
    sheets_fake.set_values(sheet_id, "Harkness!B2", [["mdchess"]])
    status, body = await endpoint.post({"spreadsheetId": sheet_id})
    assert (status, body["status"]) == (202, "after the running sync")
    status, body = await endpoint.post({"spreadsheetId": sheet_id})
    assert body["status"] == "after the running sync"
    await endpoint.queue.idle()
    assert len(endpoint.runs) == 2
    assert "rules mdchess" in sheets_fake.values(sheet_id, "Errors!A4")[0][0]


async def test_only_the_listed_spreadsheets_are_accepted_and_bad_bodies_are_told_why(
    client: SheetsClient, make_sheet: MakeSheet
) -> None:
    listed = make_sheet({"Results": seed_crosstable()})
    served, runner = await start(client, allowed={listed})
    try:
        assert (await served.post({"spreadsheetId": "1SomeoneElsesSheet0000"}))[0] == 403
        assert (await served.post({"sheet": listed}))[0] == 400
        assert (await served.post(["not", "an", "object"]))[0] == 400
        assert (await served.post({"spreadsheetId": listed}))[0] == 202
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{served.url}/healthz") as response,
        ):
            assert response.status == 200
            assert await response.json() == {"ok": True, "pending": 1, "set_aside": 0}
        await served.queue.idle()
    finally:
        await runner.cleanup()


async def test_a_long_burst_still_syncs_by_the_longest_wait(
    client: SheetsClient, make_sheet: MakeSheet
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    served, runner = await start(client, debounce=0.3, max_wait=0.8)
    try:
        began = time.monotonic()
        # A sync that waited for the burst to end would start after 3.3 s; the longest wait
        # starts it after 0.8 s (the margin is for a loaded machine).
        while time.monotonic() - began < 3.0:
            await served.post({"spreadsheetId": sheet_id})
            await asyncio.sleep(0.1)
        assert served.runs, "a sync ran during the burst"
        assert served.runs[0][1] - began < 2.4
        await served.queue.idle()
    finally:
        await runner.cleanup()


def test_the_endpoint_needs_a_strong_secret() -> None:
    queue = SyncQueue(lambda key: SyncResult(key, "", False, False))
    with pytest.raises(ValueError, match="shared secret"):
        make_app(queue, "")
    for weak in ("x", "s3cret-for-the-add-on", "ab" * 20):
        with pytest.raises(ValueError, match="too weak: use at least 32 characters"):
            make_app(queue, weak)


async def test_wrong_secrets_from_one_source_are_rate_limited(
    client: SheetsClient, make_sheet: MakeSheet, caplog: pytest.LogCaptureFixture
) -> None:
    """After a few wrong secrets a source is answered 429 without its guesses being tried,
    and the log gets one line for it, not one per guess."""
    sheet_id = make_sheet({"Results": seed_crosstable()})
    served, runner = await start(client)
    try:
        with caplog.at_level("INFO", logger="sheets.serve"):
            statuses = [
                (await served.post({"spreadsheetId": sheet_id}, f"guess {i}"))[0] for i in range(50)
            ]
            blocked, body = await served.post({"spreadsheetId": sheet_id}, "one more guess")
            # The right secret is still accepted from that source: an attacker sharing the
            # add-on's address (Apps Script calls from addresses Google shares) cannot lock
            # it out. It does not clear the source's count.
            accepted, _ = await served.post({"spreadsheetId": sheet_id})
            still_blocked, _ = await served.post({"spreadsheetId": sheet_id}, "and another")
        assert statuses[:FAILURES_ALLOWED] == [401] * FAILURES_ALLOWED
        assert set(statuses[FAILURES_ALLOWED:]) == {429}
        assert blocked == 429 and "too many wrong secrets" in body["error"]
        assert (accepted, still_blocked) == (202, 429)
        refusals = [r for r in caplog.records if "refused" in r.getMessage()]
        assert len(refusals) == FAILURES_ALLOWED
        await served.queue.idle()
    finally:
        await runner.cleanup()


async def test_the_callers_reason_is_logged_escaped(
    endpoint: Endpoint, make_sheet: MakeSheet, caplog: pytest.LogCaptureFixture
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    forged = "edit\nWARNING sheets.serve: sync of everything refused\x1b[2J"
    with caplog.at_level("INFO", logger="sheets.serve"):
        status, _ = await endpoint.post({"spreadsheetId": sheet_id, "reason": forged})
    assert status == 202
    (line,) = [r.getMessage() for r in caplog.records if "sync of" in r.getMessage()]
    assert "\n" not in line and "\x1b" not in line
    assert "edit\\nWARNING" in line


async def test_behind_a_trusted_proxy_wrong_secrets_are_counted_per_caller(
    client: SheetsClient, make_sheet: MakeSheet, caplog: pytest.LogCaptureFixture
) -> None:
    """The test connects from 127.0.0.1, a trusted proxy by default: the caller is the
    right-most X-Forwarded-For address that is not a trusted proxy. One caller's wrong
    guesses hold back neither another caller nor the add-on, and the log names the caller."""
    sheet_id = make_sheet({"Results": seed_crosstable()})
    served, runner = await start(client)
    attacker, addon = "203.0.113.7", "198.51.100.20"
    try:
        with caplog.at_level("INFO", logger="sheets.serve"):
            statuses = [
                (await served.post({"spreadsheetId": sheet_id}, "guess", forwarded_for=attacker))[0]
                for _ in range(FAILURES_ALLOWED + 3)
            ]
            # What the attacker writes to the left of what the proxy appended is ignored,
            # and so are trusted hops to its right.
            for forwarded in (f"{addon}, {attacker}", f"10.0.0.1,{attacker}, 127.0.0.1"):
                status, _ = await served.post(
                    {"spreadsheetId": sheet_id}, "guess", forwarded_for=forwarded
                )
                assert status == 429, forwarded
            wrong, _ = await served.post({"spreadsheetId": sheet_id}, "typo", forwarded_for=addon)
            right, _ = await served.post({"spreadsheetId": sheet_id}, forwarded_for=addon)
        assert statuses == [401] * FAILURES_ALLOWED + [429] * 3
        assert (wrong, right) == (401, 202)
        refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(refusals) == FAILURES_ALLOWED + 1
        assert all(f"from {attacker}:" in line for line in refusals[:-1])
        assert f"from {addon}:" in refusals[-1]
        assert "127.0.0.1" not in caplog.text
        await served.queue.idle()
    finally:
        await runner.cleanup()


async def test_x_forwarded_for_from_an_untrusted_peer_gains_nothing(
    client: SheetsClient, make_sheet: MakeSheet, caplog: pytest.LogCaptureFixture
) -> None:
    """With no trusted proxy, a caller that writes X-Forwarded-For itself (a new address for
    every guess) is still counted, and logged, by its own address."""
    sheet_id = make_sheet({"Results": seed_crosstable()})
    served, runner = await start(client, trusted_proxies=())
    try:
        with caplog.at_level("INFO", logger="sheets.serve"):
            statuses = [
                (
                    await served.post(
                        {"spreadsheetId": sheet_id}, "guess", forwarded_for=f"203.0.113.{n}"
                    )
                )[0]
                for n in range(FAILURES_ALLOWED + 3)
            ]
        assert statuses == [401] * FAILURES_ALLOWED + [429] * 3
        refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert refusals and all("from 127.0.0.1:" in line for line in refusals)
        assert "203.0.113." not in caplog.text
    finally:
        await runner.cleanup()


def test_the_trusted_proxies_setting_defaults_to_loopback_and_may_name_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HARKNESS_SHEETS_TRUSTED_PROXIES", raising=False)
    assert SheetsSettings().proxies == (ip_network("127.0.0.1"), ip_network("::1"))
    assert SheetsSettings(trusted_proxies="").proxies == ()
    assert SheetsSettings(trusted_proxies="172.31.250.2 fd00::/8").proxies == (
        ip_network("172.31.250.2"),
        ip_network("fd00::/8"),
    )
    with pytest.raises(ValueError, match=r"'10\.0\.0\.1/8' has bits set beyond its prefix"):
        SheetsSettings(trusted_proxies="10.0.0.1/8")

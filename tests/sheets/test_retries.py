"""429s, 5xx and timeouts are retried a bounded number of times, then reported clearly; the
sheet is never left half-written."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.sheetlink.access import short
from sheets.client import (
    SheetsClient,
    SheetsPermissionError,
    SheetsTimeoutError,
    SheetsUnavailableError,
    open_client,
)
from sheets.settings import SheetsSettings
from sheets.sync import sync
from tests.fakes.sheets_api import (
    ManualClock,
    Op,
    ServiceAccountKey,
    SheetsFake,
    generate_service_account,
)
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]


@pytest.fixture
def impatient(sheets_settings: SheetsSettings) -> SheetsClient:
    """A client that waits 0.3 s for an answer (and retries 3 times)."""
    return open_client(sheets_settings.model_copy(update={"timeout": 0.3}))


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_few_failures_are_retried_and_the_sync_completes(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient, status: int
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    sheets_fake.fail_next(2, status, operation=Op.GET)
    sheets_fake.fail_next(1, status, operation=Op.BATCH_UPDATE)
    result = sync(client, sheet_id)
    assert result.published
    assert sheets_fake.call_count(sheet_id, operation=Op.GET, status=status) == 2
    assert sheets_fake.call_count(sheet_id, operation=Op.GET, status=200) == 1
    assert sheets_fake.call_count(sheet_id, operation=Op.BATCH_UPDATE, status=200) == 1


def test_google_unavailable_for_good_is_reported_after_the_last_try(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    sheets_fake.fail_for(60, 503)
    with pytest.raises(SheetsUnavailableError) as caught:
        sync(client, sheet_id)
    assert f"spreadsheet {sheet_id}" in str(caught.value)
    assert "after 4 tries" in str(caught.value)
    assert sheets_fake.call_count(sheet_id) == 4  # 1 try + 3 retries, then it stops
    assert sheets_fake.sheet_titles(sheet_id) == ["Results"]


def test_an_exhausted_quota_is_retried_then_reported(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    sheets_fake.fail_for(60, 429)
    with pytest.raises(SheetsUnavailableError, match="429 RESOURCE_EXHAUSTED"):
        sync(client, sheet_id)


def test_a_slow_read_is_retried(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, impatient: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    sheets_fake.slow_next(1, delay=1.0, operation=Op.GET)
    assert sync(impatient, sheet_id).published
    assert sheets_fake.call_count(sheet_id, operation=Op.GET) == 2


def test_reads_that_never_answer_end_in_a_timeout_error(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, impatient: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    sheets_fake.inject(delay=1.0, seconds=60, operation=Op.GET)
    with pytest.raises(SheetsTimeoutError, match=r"no answer within 0\.3 s"):
        sync(impatient, sheet_id)
    assert sheets_fake.call_count(sheet_id, operation=Op.GET) == 4


def test_a_write_that_times_out_is_not_sent_twice_and_the_next_sync_settles_it(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, impatient: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    sheets_fake.slow_next(1, delay=1.0, operation=Op.BATCH_UPDATE)
    with pytest.raises(SheetsTimeoutError, match="not sent again"):
        sync(impatient, sheet_id)
    assert sheets_fake.call_count(sheet_id, operation=Op.BATCH_UPDATE) == 1
    deadline = time.monotonic() + 30  # the fake carries the slow write out, as Google would
    while "Standings" not in sheets_fake.sheet_titles(sheet_id):
        assert time.monotonic() < deadline, "the slow write never landed"
        time.sleep(0.05)
    result = sync(impatient, sheet_id)
    assert not result.changed  # that write landed whole, with its hash
    assert sheets_fake.values(sheet_id, "Standings!C2") == [["Player A"]]


def test_a_sheet_not_shared_with_the_worker_says_whom_to_share_it_with(
    sheets_fake: SheetsFake, service_account_file: ServiceAccountKey, client: SheetsClient
) -> None:
    sheet_id = sheets_fake.create_spreadsheet("Private", {"Results": seed_crosstable()})
    with pytest.raises(SheetsPermissionError) as caught:
        sync(client, sheet_id)
    assert caught.value.share_with == service_account_file.email
    assert f"share the spreadsheet with {service_account_file.email}" in str(caught.value)
    # What to do and what Google said, apart: a reply quotes the first without the second.
    error = caught.value
    assert error.status == 403 and error.google is not None
    assert error.google.startswith("403 PERMISSION_DENIED: ")
    assert str(error) == f"{error.summary} (Google: {error.google})"
    assert error.summary.endswith("as an Editor, then try again")
    assert short(error) == error.summary


@pytest.fixture
def quota_window(tmp_path: Path) -> Iterator[tuple[SheetsFake, ManualClock, SheetsSettings, str]]:
    """A fake on a clock that moves only when the worker waits (no real minute goes by), the
    default retry settings, and a sheet."""
    clock = ManualClock()
    with SheetsFake(clock=clock) as fake:
        key = generate_service_account(fake, tmp_path)
        settings = SheetsSettings(google_application_credentials=key.path, api_base=fake.base_url)
        sheet_id = fake.create_spreadsheet(
            "Club", {"Results": seed_crosstable()}, shared_with=[key.email]
        )
        yield fake, clock, settings, sheet_id


@pytest.mark.parametrize("seed", range(5))
def test_the_default_retries_outlast_a_minute_of_exhausted_quota(
    quota_window: tuple[SheetsFake, ManualClock, SheetsSettings, str], seed: int
) -> None:
    """Google's quotas refill every minute: a sync that meets a spent quota waits it out."""
    fake, clock, settings, sheet_id = quota_window
    client = open_client(settings, sleep=clock.advance, rng=random.Random(seed))
    started = clock()
    fake.fail_for(60, 429)
    assert sync(client, sheet_id).published
    assert 60 <= clock() - started <= 120


def test_retry_after_is_waited_out_and_the_total_wait_is_bounded(
    quota_window: tuple[SheetsFake, ManualClock, SheetsSettings, str],
) -> None:
    """Google saying "Retry-After: 45" is waited out in full (longer than the backoff); a
    quota that never comes back ends after at most 120 s of waits, in one line."""
    fake, clock, settings, sheet_id = quota_window
    client = open_client(settings, sleep=clock.advance, rng=random.Random(1))
    fake.inject(status=429, count=1, retry_after=45)
    started = clock()
    assert sync(client, sheet_id).published
    assert clock() - started >= 45
    fake.fail_for(3600, 429)
    started = clock()
    with pytest.raises(SheetsUnavailableError) as caught:
        sync(client, sheet_id)
    assert clock() - started <= 120
    message = str(caught.value)
    assert "\n" not in message
    assert "429 RESOURCE_EXHAUSTED" in message

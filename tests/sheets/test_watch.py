"""``harkness-sheets watch``: many sheets from a config file, polled with jitter within a sync
budget; one bad sheet never stops the others, and its error goes to its Errors tab or the log.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from sheets.client import SheetsClient
from sheets.sync import SyncResult, sync
from sheets.watch import (
    WatchConfig,
    WatchConfigError,
    WatchedSheet,
    Watcher,
    load_config,
)
from tests.fakes.sheets_api import ServiceAccountKey, SheetsFake
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_config_file_lists_sheets_by_id_or_url(tmp_path: Path) -> None:
    path = tmp_path / "sheets.toml"
    path.write_text(
        "poll_interval = 120\n"
        "[[sheets]]\n"
        'spreadsheet = "https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOp/edit#gid=0"\n'
        'name = "Club championship"\n'
        "[[sheets]]\n"
        'spreadsheet = "1QrStUvWxYz0123456"\n',
        encoding="utf-8",
    )
    config = load_config(path)
    assert config.poll_interval == 120
    assert config.sheets == (
        WatchedSheet("1AbCdEfGhIjKlMnOp", "Club championship"),
        WatchedSheet("1QrStUvWxYz0123456"),
    )


def test_a_bad_config_file_names_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "sheets.toml"
    path.write_text(
        'poll_interval = -1\nsheets = ["not a url/x", "1AbCdEfGhIjKlMnOp", '
        '"1AbCdEfGhIjKlMnOp"]\ncolour = "blue"\n',
        encoding="utf-8",
    )
    with pytest.raises(WatchConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    for expected in (
        "sheet 1: 'not a url/x' is not a Google Sheets URL",
        "sheet 3: spreadsheet 1AbCdEfGhIjKlMnOp is listed twice",
        "'poll_interval' must be a number of seconds above 0",
        "unknown settings: colour",
    ):
        assert f"{path}: {expected}" in message
    with pytest.raises(WatchConfigError, match="cannot read the file"):
        load_config(tmp_path / "missing.toml")


def _jobs(event: str) -> float:
    return REGISTRY.get_sample_value("harkness_sync_jobs_total", {"event": event}) or 0.0


def test_one_bad_sheet_never_stops_the_watcher(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    service_account_file: ServiceAccountKey,
    caplog: pytest.LogCaptureFixture,
) -> None:
    good = make_sheet({"Results": seed_crosstable()}, title="Good")
    broken_rows = seed_crosstable()
    broken_rows[1][2] = "W99"
    broken = make_sheet({"Results": broken_rows}, title="Broken")
    private = sheets_fake.create_spreadsheet("Private", {"Results": seed_crosstable()})
    missing = "1ThisSpreadsheetDoesNotExist000000000000000"
    config = WatchConfig(
        tuple(
            WatchedSheet(key, name)
            for key, name in (
                (private, "private"),
                (missing, "missing"),
                (broken, "broken"),
                (good, "good"),
            )
        )
    )
    clock = Clock()
    watcher = Watcher(client, config, interval=60, clock=clock)
    clock.now += 60
    counted = {e: _jobs(e) for e in ("run", "failed")}
    with caplog.at_level("WARNING"):
        outcomes = {o.sheet.name: o for o in watcher.poll()}
    assert set(outcomes) == {"private", "missing", "broken", "good"}
    # Each poll is a sync job run in the metrics; the two that could not open their sheet
    # failed (a sheet with problems is a sync that worked).
    assert (_jobs("run"), _jobs("failed")) == (counted["run"] + 4, counted["failed"] + 2)
    assert outcomes["good"].result is not None and outcomes["good"].result.published
    assert outcomes["broken"].result is not None and outcomes["broken"].result.problems
    assert sheets_fake.values(broken, "Errors!A2:C2") == [
        ["Results!C2", "W99", "there is no player 99"]
    ]
    assert outcomes["private"].error is not None
    assert service_account_file.email in outcomes["private"].error
    assert f"There is no spreadsheet {missing}" in str(outcomes["missing"].error)
    assert f"private ({private})" in caplog.text and service_account_file.email in caplog.text
    # The failing sheets back off; the good ones come back after about one interval.
    assert watcher.failures == {private: 1, missing: 1}
    assert 54 <= watcher.due[good] - clock.now <= 66
    assert 108 <= watcher.due[private] - clock.now <= 132
    # Once the TD shares the sheet, the next poll syncs it.
    sheets_fake.share(private, service_account_file.email)
    clock.now += 140
    again = {o.sheet.name: o for o in watcher.poll()}
    assert again["private"].result is not None and again["private"].result.published
    assert private not in watcher.failures


def test_first_polls_are_spread_over_one_interval_and_jittered(client: SheetsClient) -> None:
    config = WatchConfig(tuple(WatchedSheet(f"1Sheet{n:012d}") for n in range(4)))
    clock = Clock()
    watcher = Watcher(client, config, interval=60, clock=clock)
    assert sorted(watcher.due.values()) == [1000.0, 1015.0, 1030.0, 1045.0]
    waits = {watcher._jittered(60) for _ in range(50)}
    assert len(waits) > 1 and all(54 <= w <= 66 for w in waits)


def test_the_watcher_loop_keeps_to_its_sync_budget_and_stops_when_asked(
    make_sheet: MakeSheet, client: SheetsClient
) -> None:
    keys = [make_sheet({"Results": seed_crosstable()}, title=f"Section {n}") for n in range(3)]
    starts: list[float] = []

    def timed_sync(c: SheetsClient, key: str) -> SyncResult:
        starts.append(time.monotonic())
        return sync(c, key)

    config = WatchConfig(tuple(WatchedSheet(k) for k in keys), syncs_per_minute=300)
    watcher = Watcher(client, config, interval=0.3, sync=timed_sync)
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, args=(stop,))
    thread.start()
    deadline = time.monotonic() + 60  # four syncs take about a second; a loaded machine more
    while len(starts) < 5 and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    assert len(starts) >= 4
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert min(gaps) >= 60 / 300 - 0.01  # never more than 300 syncs a minute


def test_a_sheet_is_polled_less_often_the_longer_it_stays_unchanged(
    make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet = WatchedSheet(make_sheet({"Results": seed_crosstable()}))
    others = tuple(WatchedSheet(f"1Sheet{n:012d}") for n in range(399))
    clock = Clock()
    # 400 sheets at 50 syncs a minute (40 for polls): each at least every 10 minutes.
    watcher = Watcher(client, WatchConfig((sheet, *others)), interval=60, clock=clock)
    assert watcher.poll_one(sheet).result.changed  # the first sync writes the standings
    assert 54 <= watcher.due[sheet.spreadsheet_id] - clock.now <= 66
    clock.now += 20 * 60  # twenty minutes without an edit: polled every five minutes
    assert not watcher.poll_one(sheet).result.changed
    assert 270 <= watcher.due[sheet.spreadsheet_id] - clock.now <= 330
    clock.now += 6 * 3600  # idle for hours: as rarely as the budget of 400 sheets needs
    watcher.poll_one(sheet)
    assert 540 <= watcher.due[sheet.spreadsheet_id] - clock.now <= 660


def test_many_sheets_are_polled_as_slowly_as_the_budget_requires(client: SheetsClient) -> None:
    config = WatchConfig(
        tuple(WatchedSheet(f"1Sheet{n:012d}") for n in range(2000)), syncs_per_minute=50
    )
    watcher = Watcher(client, config, interval=60)
    assert watcher.policy is not None
    assert watcher.policy.slowest == 2000 * 60 / (50 * 0.8)  # 50 minutes: 40 polls a minute

"""A sync reads and lays out tens of megabytes: meanwhile full garbage collections wait, and
what is left is frozen out of their way, as for the bot's heavy jobs (:mod:`core.collector`);
the collector is never switched off and its thresholds are as they were afterwards."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import pytest

from sheets.client import SheetsClient
from sheets.sync import sync
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]


@pytest.mark.usefixtures("collector_on")
def test_full_collections_wait_while_a_sync_builds_and_the_collector_stays_on(
    make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    thresholds = gc.get_threshold()
    seen: list[tuple[bool, int]] = []

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append((gc.isenabled(), gc.get_threshold()[2]))

    gc.unfreeze()
    gc.callbacks.append(watch)
    try:
        assert sync(client, sheet_id).published
    finally:
        gc.callbacks.remove(watch)
    try:
        assert seen and all(enabled for enabled, _ in seen)  # young collections went on
        assert max(waiting for _, waiting in seen) > thresholds[2]  # full ones waited
        assert gc.get_threshold() == thresholds and gc.isenabled()  # as it was after
        assert gc.get_freeze_count() > 0  # what was left, frozen out of their way
    finally:
        gc.unfreeze()

"""The bot on PostgreSQL (as deployed with compose): the whole event and the fifty
concurrent reports again, on a real PostgreSQL server (``HARKNESS_TEST_POSTGRES_URL``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.support import Club
from tests.bot.test_concurrency import (
    test_fifty_concurrent_reports_none_lost_none_doubled_all_answered as _fifty_reports,
)
from tests.bot.test_results import (
    test_undo_takes_back_the_last_change_and_undo_again_redoes as _undo,
)
from tests.bot.test_season import test_a_four_round_event_played_through_discord as _event

pytestmark = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


async def test_a_four_round_event_on_postgresql(club: Club, tmp_path: Path) -> None:
    await _event(club, tmp_path)


async def test_fifty_concurrent_reports_on_postgresql(club: Club) -> None:
    await _fifty_reports(club)


async def test_undo_and_redo_on_postgresql(club: Club) -> None:
    await _undo(club)

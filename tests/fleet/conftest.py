"""The fleet's tests run twice, like the store's: on a SQLite file and on a real PostgreSQL
server (``HARKNESS_TEST_POSTGRES_URL``; see :mod:`tests.store.conftest`, whose database
fixtures these are)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sheets.fleet import Fleet
from tests.store.conftest import Clock, clock, db_url

__all__ = ["clock", "db_url"]


@pytest.fixture
async def fleet(db_url: str, clock: Clock) -> AsyncIterator[Fleet]:
    opened = await Fleet.open(db_url, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()

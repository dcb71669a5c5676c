"""The store's tests run twice: on a SQLite file and on a real PostgreSQL server.

The PostgreSQL leg needs ``HARKNESS_TEST_POSTGRES_URL`` (``.ci/postgres.sh`` starts a
server on loopback and exports it). Without it the leg is skipped with a reason, except in
CI (``CI`` set), where a missing server fails every PostgreSQL test instead: the leg must
never vanish silently. Each test gets a database of its own (a fresh SQLite file, or a
fresh PostgreSQL database that is dropped afterwards), so tests are independent and can
run again and again against the same server.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store import Actor, DiscordUser, Outcome, PlayerInfo, Store, TournamentStatus
from sheets.database.engine import database_url

POSTGRES_ENV = "HARKNESS_TEST_POSTGRES_URL"
GUILD = "guild-1"
OTHER_GUILD = "guild-2"
TD = Actor("900", "Tess (TD)", td=True)
ANN, BOB, CAT, DAN = (
    Actor(str(n), name) for n, name in ((901, "Ann"), (902, "Bob"), (903, "Cat"), (904, "Dan"))
)
EVE = Actor("905", "Eve")  # a member of the guild who is not in the tournament


def user(actor: Actor) -> DiscordUser:
    return DiscordUser(actor.user)


def postgres_server() -> str:
    """The PostgreSQL server URL, or skip (locally) / fail (in CI) without one."""
    server = os.environ.get(POSTGRES_ENV)
    if server:
        return server
    if os.environ.get("CI"):
        pytest.fail(
            f"CI is set but {POSTGRES_ENV} is not: the PostgreSQL leg must run in CI "
            "(.ci/postgres.sh starts a server and exports it)",
            pytrace=False,
        )
    pytest.skip(
        f"PostgreSQL leg: set {POSTGRES_ENV} to run it (. .ci/postgres.sh && start_postgres)"
    )


@asynccontextmanager
async def fresh_postgres_database(server: str) -> AsyncIterator[str]:
    """A new, empty PostgreSQL database on ``server`` for one test, dropped afterwards."""
    url = database_url(server)
    name = f"harkness_test_{uuid.uuid4().hex[:16]}"
    admin = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database of each engine, as a URL."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'harkness.db'}"
        return
    async with fresh_postgres_database(postgres_server()) as url:
        yield url


class Clock:
    """A clock the test moves by hand (events are stamped with its time)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 14, 18, 30, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(db_url: str, clock: Clock) -> AsyncIterator[Store]:
    opened = await Store.open(db_url, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()


@dataclass
class Club:
    """A running 3-round tournament, "Club Night", with Ann, Bob, Cat and Dan (#1–#4)."""

    store: Store
    name: str
    ann: PlayerInfo
    bob: PlayerInfo
    cat: PlayerInfo
    dan: PlayerInfo

    async def report(
        self, actor: Actor, round: int, opponent: Actor, result: str, colour: str | None = None
    ) -> Outcome:
        return await self.store.report(
            GUILD,
            self.name,
            actor,
            round=round,
            opponent=user(opponent),
            result=result,
            colour=colour,
        )

    async def entries(self, number: int) -> list[str]:
        state = await self.store.state(GUILD, self.name)
        return [str(e) for e in state.tournament.player(number).entries]


@pytest.fixture
async def club(store: Store) -> Club:
    name = "Club Night"
    await store.create_tournament(GUILD, name, rounds=3, actor=TD)
    ann, bob, cat, dan = [await store.join(GUILD, name, a) for a in (ANN, BOB, CAT, DAN)]
    await store.set_status(GUILD, name, TournamentStatus.RUNNING, TD)
    return Club(store, name, ann, bob, cat, dan)


@pytest.fixture
def examples() -> Iterator[Path]:
    yield Path(__file__).resolve().parents[2] / "core" / "examples"

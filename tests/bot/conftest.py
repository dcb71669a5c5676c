"""Fixtures for the bot's end-to-end tests.

The fake Discord's fixtures (``discord_fake``, ``run_bot``, ``discord_env``) come from
``tests.fakes.discord_fixtures``, registered by the top-level ``tests/conftest.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.support import Club, second_guild
from tests.fakes.discord_api import DiscordFake, FakeGuild, FakeMember
from tests.fakes.discord_fixtures import BotRunner


@pytest.fixture
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database for this test's store: a SQLite file, or (parametrized indirectly
    with ``"postgresql"``) a new PostgreSQL database on ``HARKNESS_TEST_POSTGRES_URL``,
    skipped locally without one and failing in CI, like the store's own PostgreSQL leg."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield f"sqlite:///{tmp_path / 'club.db'}"
        return
    from tests.store.conftest import fresh_postgres_database, postgres_server

    async with fresh_postgres_database(postgres_server()) as url:
        yield url


@pytest.fixture
async def club(
    discord_fake: DiscordFake,
    run_bot: BotRunner,
    discord_env: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Club]:
    """The Harkness bot, built by ``bot.app.create_bot`` from the environment (the fake's
    token and endpoints, a SQLite file), logged in to the fake and ready."""
    monkeypatch.setenv("HARKNESS_DATABASE_URL", database_url)
    club = Club(discord_fake, run_bot)
    async with club.running():
        yield club


@pytest.fixture
async def other_guild(discord_fake: DiscordFake) -> AsyncIterator[tuple[FakeGuild, FakeMember]]:
    """A second server (with a member and #general) where the bot is also installed
    (:func:`tests.bot.support.second_guild`)."""
    guild, _, visitor = second_guild(discord_fake)
    yield guild, visitor

"""Pytest fixtures for running a real discord.py bot against the fake Discord.

Enable them from a conftest (or a test module)::

    pytest_plugins = ["tests.fakes.discord_fixtures"]

``discord_fake``
    A started :class:`~tests.fakes.discord_api.DiscordFake` (the chess-club world), stopped
    after the test. At teardown it fails the test with a ``DiscordLimitError`` for any
    rule the bot broke that no helper has already raised into the test.
``run_bot``
    ``bot = await run_bot(make_bot())`` starts a ``commands.Bot`` against the fake with the
    fake's token and returns once on_ready has fired; every bot started this way is closed
    cleanly at teardown (before the fake stops).
``discord_env``
    Sets ``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL`` and
    ``HARKNESS_DEV_GUILD`` for the fake in ``os.environ`` and returns them, for bots that
    read their settings from the environment.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from discord.ext import commands

from tests.fakes.discord_api import DiscordFake, running_bot


class BotRunner:
    """Starts bots against one fake and stops them all at the end of the test."""

    def __init__(self, fake: DiscordFake) -> None:
        self.fake = fake
        self._stack = contextlib.AsyncExitStack()

    async def __call__(
        self,
        bot: commands.Bot,
        *,
        token: str | None = None,
        ready_timeout: float = 15.0,
        configure_endpoints: bool = True,
    ) -> commands.Bot:
        """Start ``bot`` and wait for on_ready (see ``running_bot`` for the options)."""
        return await self._stack.enter_async_context(
            running_bot(
                self.fake,
                bot,
                token=token,
                ready_timeout=ready_timeout,
                configure_endpoints=configure_endpoints,
            )
        )

    async def stop_all(self) -> None:
        """Close every bot started here, newest first."""
        await self._stack.aclose()


@pytest.fixture
async def discord_fake() -> AsyncIterator[DiscordFake]:
    """A fake Discord on 127.0.0.1 for this test; unreported violations fail it."""
    async with DiscordFake() as fake:
        yield fake
    fake.assert_clean()


@pytest.fixture
async def run_bot(discord_fake: DiscordFake) -> AsyncIterator[BotRunner]:
    """``await run_bot(bot)``: a real bot, logged in to the fake and ready."""
    runner = BotRunner(discord_fake)
    try:
        yield runner
    finally:
        await runner.stop_all()


@pytest.fixture
def discord_env(discord_fake: DiscordFake, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The fake's token, endpoints and dev guild, set in the environment for this test."""
    for name, value in discord_fake.env.items():
        monkeypatch.setenv(name, value)
    return discord_fake.env

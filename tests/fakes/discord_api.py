"""A loopback fake of Discord for end-to-end tests of the Harkness bot, offline.

The real discord.py client talks real HTTP and a real websocket to :class:`DiscordFake`
on 127.0.0.1 (an ephemeral port). The fake implements the REST routes and gateway opcodes
a slash-command bot uses, records everything the bot sends, and refuses what Discord
refuses (message and embed sizes, 25 autocomplete choices, 5x5 buttons, the 3-second
answer window, a single initial response, command naming and counts), so a breach fails
the test with a :class:`DiscordLimitError` naming the rule, the JSON path and the size.

A test, with the fixtures of ``tests.fakes.discord_fixtures``::

    async def test_a_member_reports_a_win(discord_fake, run_bot):
        await run_bot(build_bot())                      # login, command sync, READY
        alice, bob = discord_fake.member("alice"), discord_fake.member("bob")
        report = await discord_fake.command(alice, "report", {"round": 1, "opponent": bob})
        message = await report.reply()                  # waits out a deferral too
        assert "Bob" in message.text and not message.ephemeral
        confirm = await discord_fake.click(bob, message, "Confirm")
        assert "confirmed" in (await confirm.reply()).text

Cheat sheet (``fake`` is the ``discord_fake`` fixture):

* the world: ``fake.guild`` (Harkness Chess Club), ``fake.member("alice")`` (also bob, carol,
  dave, erin, frank, ``td`` with the Tournament Director role, ``manager`` with Manage
  Server, ``owner``), ``fake.role("Tournament Director")``, ``fake.channel("results")``,
  ``fake.dm_channel(member)``; change it with ``add_member(name, roles)``,
  ``add_role(name, permissions)``, ``set_roles(member, roles)``, ``add_channel(name)``,
  ``add_user(name)`` (not a member: their commands run in a DM with the bot);
* users act: ``command(who, "tournament player add", {"who": member, "file": Upload(...)})``,
  ``autocomplete(who, "standings", "tournament", "spr")``, ``click(who, message, "Confirm")``,
  ``select(who, message, ["2"])``, ``submit_modal(who, opened_by, {"Reason": "..."})``,
  ``post_message(who, "text")``. Each returns once the bot has the event and checks what
  Discord's client would check first (registered command, options, choices, ranges,
  ``default_member_permissions``, disabled buttons, ephemeral messages, required inputs),
  raising :class:`FakeUsageError` / :class:`CommandUnavailable`;
* what the bot did, on the :class:`InteractionRecord`: ``await record.response()`` (the
  initial callback), ``await record.reply()`` (the message the user ends up seeing),
  ``await record.followup(0)``, ``await record.choices()``, ``await record.modal()``,
  then ``record.callbacks``, ``record.original``, ``record.followups``; on a
  :class:`MessageRecord`: ``content``, ``embeds``, ``components``, ``buttons()``, ``text``
  (all visible words), ``ephemeral``, ``attachment("x.csv").text()``, ``history`` (before
  each edit), ``deleted``;
* everything else: ``fake.registered_commands(guild_id=None)``,
  ``fake.registered_command(name, guild_id)``, ``fake.requests`` (method, path, decoded
  JSON or ``payload_json``, ``files``, status, time), ``fake.messages_in(channel)``,
  ``fake.violations``, ``fake.unhandled_requests``, ``fake.gateway.received`` (frames the
  bot sent), ``await fake.wait_for(probe, timeout, what)``, ``await fake.quiet()``;
* the gateway: ``await fake.gateway_reconnect()`` (op 7, the bot RESUMEs),
  ``await fake.gateway_drop()`` (socket closed with 4000, the bot RESUMEs);
* rules: ``DiscordFake(response_deadline=3.0, token_lifetime=900, attachment_size_limit=...,
  allowed_privileged_intents=...)``. Every helper that waits raises
  :class:`DiscordLimitError` as soon as the interaction has a violation; the fixture fails
  the test at teardown for violations nothing raised (``fake.assert_clean()``).

Reaching it: discord.py takes every REST URL from ``discord.http.Route.BASE`` (webhooks and
interaction callbacks included) and, for a plain ``Client``/``commands.Bot``, connects the
gateway to ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` *without* asking
``GET /gateway/bot`` (only ``AutoShardedClient`` without a shard count asks). After READY
it resumes at READY's ``resume_gateway_url``, which the fake sets to itself. So a bot
honours ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` by setting those two class
attributes before it starts: :func:`apply_discord_endpoints` is exactly that, and
:func:`running_bot` uses it (restoring the old values afterwards).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator, Mapping

import discord
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from tests.fakes import discord_fake
from tests.fakes.discord_fake import *  # noqa: F403  (re-exported: see __all__)
from tests.fakes.discord_fake import DiscordFake

ENV_API_BASE = "DISCORD_API_BASE"
ENV_GATEWAY_URL = "DISCORD_GATEWAY_URL"
DEFAULT_API_BASE = "https://discord.com/api/v10"
"""discord.py's own default for ``Route.BASE`` (the API version is part of the base)."""
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"
"""discord.py's own default for ``DiscordWebSocket.DEFAULT_GATEWAY``."""


def apply_discord_endpoints(api_base: str, gateway_url: str) -> None:
    """Point discord.py, process-wide, at ``api_base`` (REST) and ``gateway_url`` (websocket).

    ``api_base`` must include the API version, e.g. ``http://127.0.0.1:8080/api/v10``;
    discord.py appends paths such as ``/users/@me`` to it. ``gateway_url`` is a ``ws://``
    or ``wss://`` URL; discord.py adds ``?v=10&encoding=json&compress=zlib-stream``. Call
    it before ``Client.start``/``login``: both are class attributes read on every request
    and on every fresh gateway connection.

    >>> before = current_discord_endpoints()
    >>> apply_discord_endpoints("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gateway")
    >>> current_discord_endpoints()
    ('http://127.0.0.1:9/api/v10', 'ws://127.0.0.1:9/gateway')
    >>> apply_discord_endpoints(*before)
    """
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def current_discord_endpoints() -> tuple[str, str]:
    """The REST base and gateway URL discord.py uses right now."""
    return discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


def endpoints_from_env(environ: Mapping[str, str] | None = None) -> tuple[str, str]:
    """``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL``, defaulting to Discord's own.

    >>> endpoints_from_env({})
    ('https://discord.com/api/v10', 'wss://gateway.discord.gg/')
    """
    env = os.environ if environ is None else environ
    return (
        env.get(ENV_API_BASE) or DEFAULT_API_BASE,
        env.get(ENV_GATEWAY_URL) or DEFAULT_GATEWAY_URL,
    )


@contextlib.contextmanager
def discord_endpoints(api_base: str, gateway_url: str) -> Iterator[None]:
    """Apply both endpoints for the duration of a ``with`` block, then restore them."""
    before = current_discord_endpoints()
    apply_discord_endpoints(api_base, gateway_url)
    try:
        yield
    finally:
        apply_discord_endpoints(*before)


FAST_GUILD_READY_TIMEOUT = 0.05
"""Seconds discord.py waits after the last GUILD_CREATE before on_ready (default 2 s).

The fake sends every GUILD_CREATE right after READY, so a short wait loses nothing.
"""


@contextlib.asynccontextmanager
async def running_bot(
    fake: DiscordFake,
    bot: commands.Bot,
    *,
    token: str | None = None,
    ready_timeout: float = 15.0,
    configure_endpoints: bool = True,
    fast_ready: bool = True,
) -> AsyncIterator[commands.Bot]:
    """Start a real ``commands.Bot`` against ``fake``, wait for on_ready, stop it cleanly.

    The bot logs in with ``fake.token`` (or ``token``), runs its ``setup_hook`` (command
    sync), connects to the gateway and receives READY and GUILD_CREATE. Pass
    ``configure_endpoints=False`` when the bot under test applies ``DISCORD_API_BASE`` /
    ``DISCORD_GATEWAY_URL`` itself (e.g. from ``fake.env``). An exception that stops the
    bot before it is ready is raised here; one that stops it later is raised on exit.
    """
    ready = asyncio.Event()

    async def on_ready() -> None:
        ready.set()

    bot.add_listener(on_ready, "on_ready")
    if fast_ready:
        bot._connection.guild_ready_timeout = FAST_GUILD_READY_TIMEOUT
    endpoints = (
        discord_endpoints(fake.api_base, fake.gateway_url)
        if configure_endpoints
        else contextlib.nullcontext()
    )
    with endpoints:
        runner = asyncio.create_task(bot.start(token or fake.token), name="bot-under-test")
        waiter = asyncio.create_task(ready.wait(), name="bot-ready")
        await asyncio.wait(
            {runner, waiter}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        try:
            if not ready.is_set():
                if runner.done():
                    runner.result()  # raises the bot's own exception, e.g. LoginFailure
                    raise AssertionError("the bot stopped before it was ready")
                raise AssertionError(f"the bot was not ready within {ready_timeout:g}s")
            yield bot
        finally:
            waiter.cancel()
            bot.remove_listener(on_ready, "on_ready")
            if not bot.is_closed():
                await bot.close()
            await asyncio.wait({runner}, timeout=10.0)
            if not runner.done():
                runner.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await runner
    crash = None if runner.cancelled() else runner.exception()
    if crash is not None:
        raise crash


__all__ = [
    "DEFAULT_API_BASE",
    "DEFAULT_GATEWAY_URL",
    "ENV_API_BASE",
    "ENV_GATEWAY_URL",
    "FAST_GUILD_READY_TIMEOUT",
    "apply_discord_endpoints",
    "current_discord_endpoints",
    "discord_endpoints",
    "endpoints_from_env",
    "running_bot",
]
__all__ += discord_fake.__all__

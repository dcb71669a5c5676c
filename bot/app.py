"""The Discord bot: a ``commands.Bot`` with one cog per concern, and ``harkness-bot``.

:func:`create_bot` builds the bot from :class:`~bot.settings.BotSettings` (tests pass
settings that point at the loopback fake of Discord, and may pass their own store);
:func:`main` is the ``harkness-bot`` command (also ``python -m bot``): it reads the
environment, logs as JSON lines, runs until SIGTERM or SIGINT, then closes the gateway and
the database cleanly. discord.py reconnects by itself after network trouble.

Before logging in, :func:`run` opens the store (migrating the database: the store's tables
and the fleet's), so a database that cannot be opened is one line and an exit status, not a
bot half started.

Start-up (``setup_hook``): open the store if not given and the fleet on its engine (the
workers' coordination: leases, sync jobs, the Google budget, :mod:`sheets.fleet`), set up
the link to Google Sheets (:mod:`bot.sheetlink`, on when ``GOOGLE_APPLICATION_CREDENTIALS``
is set) and start writing queued results to linked sheets, add the cogs, listen for the
persistent buttons, and sync the slash commands: to ``HARKNESS_DEV_GUILD`` only (instant, for
development) or globally (by shard 0 alone when the bot runs as several shards:
``HARKNESS_SHARD_ID`` and ``HARKNESS_SHARD_COUNT``, one process each, on one PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from bot import buttons, health, logs
from bot.errors import answer_error, arrived, to_the_handler
from bot.fairshare import Turns, taking_turn
from bot.metrics import watch_the_loop
from bot.respond import acknowledge
from bot.settings import HOW_TO_GET_A_TOKEN, BotSettings, settings_problem
from bot.sheetlink import SheetLinks
from bot.sole import SharedSQLite, sole_bot
from bot.store import Store
from core.pairing.isolated import stop_all as stop_all_pairings
from sheets import metrics
from sheets.database.engine import database_url, is_sqlite
from sheets.database.errors import DatabaseError
from sheets.fleet import Fleet

log = logging.getLogger("harkness.bot")

EXIT_LOGIN_FAILED = 1
#: No token, a setting that is wrong, or a database that cannot be opened: fix, then start.
EXIT_BAD_SETTINGS = 2
#: Anything else that stopped the bot (Discord unreachable at start, a bug): worth a restart.
EXIT_CRASHED = 3


class HarknessTree(app_commands.CommandTree[discord.Client]):
    """The command tree; every command error goes to :func:`bot.errors.answer_error`."""

    async def on_error(
        self,
        interaction: discord.Interaction[discord.Client],
        error: app_commands.AppCommandError,
        /,
    ) -> None:
        await answer_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction[discord.Client], /) -> bool:
        """Every command is counted here and its arrival noted (metrics); a slash command in
        a server is acknowledged (:func:`bot.respond.acknowledge`), then takes one of its
        server's turns (:mod:`bot.fairshare`) until it is over. A server with too many
        commands waiting is refused in words."""
        arrived(interaction)
        if (
            interaction.type is discord.InteractionType.application_command
            and interaction.guild_id is not None
        ):
            with to_the_handler(interaction):
                await acknowledge(interaction)
            await taking_turn(interaction)
        return True


def point_at(settings: BotSettings) -> None:
    """Send discord.py's REST calls and gateway connection where the settings say.

    discord.py keeps both as class attributes (``Route.BASE``, ``DEFAULT_GATEWAY``), so this
    sets them for the process; the defaults are Discord's own.
    """
    Route.BASE = settings.discord_api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class HarknessBot(commands.Bot):
    """The Harkness bot: slash commands only, no privileged intents.

    ``store`` is opened in ``setup_hook`` from the settings' database URL unless one is
    given (then the caller closes it).
    """

    def __init__(self, settings: BotSettings, store: Store | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # servers, channels and roles; members come with interactions
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=HarknessTree,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            shard_id=settings.shard_id,
            shard_count=settings.shard_count,
        )
        self.settings = settings
        self.store: Store | None = store
        self._owns_store = store is None
        self.synced: list[app_commands.AppCommand] = []
        self.fleet: Fleet | None = None
        self.sheets: SheetLinks | None = None
        #: Each server's share of the commands worked on at once (:mod:`bot.fairshare`).
        self.turns = Turns()
        self._heartbeat: asyncio.Task[None] | None = None
        self._loop_watch: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """Open the store, the fleet and the sheet links, add the cogs and buttons, and sync
        the slash commands."""
        from bot.cogs import COGS

        if self.store is None:
            self.store = await Store.open(self.settings.database_url)
        self.fleet = await Fleet.on(self.store.engine)
        self.sheets = SheetLinks.from_environment(self, self.store, self.fleet, self.settings)
        self.sheets.start()
        for cog in COGS:
            await self.add_cog(cog(self))
        buttons.register(self)
        if not self.settings.shard_id:  # one shard registers the commands for all
            await self.sync_commands()
        if self.settings.health_file is not None:
            self._heartbeat = asyncio.create_task(
                self._beat(self.settings.health_file), name="harkness-heartbeat"
            )
        self._loop_watch = asyncio.create_task(watch_the_loop(), name="harkness-loop-watch")

    async def _beat(self, path: Path) -> None:
        """Touch the heartbeat file while connected (see :mod:`bot.health`)."""
        while not self.is_closed():
            if self.is_ready() and self.ws is not None and self.ws.open:
                try:
                    health.touch(path)
                except OSError:
                    log.warning("cannot write the heartbeat file %s", path)
            await asyncio.sleep(health.BEAT_SECONDS if self.is_ready() else 1.0)

    async def sync_commands(self) -> None:
        """Register the command tree with Discord: in the dev guild, or globally."""
        guild_id = self.settings.dev_guild
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)
        else:
            self.synced = await self.tree.sync()
        log.info(
            "synced %d commands",
            len(self.synced),
            extra={"scope": guild_id if guild_id is not None else "global"},
        )

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "connected to Discord as %s",
            user,
            extra={"user_id": user.id if user else None, "guilds": len(self.guilds)},
        )

    async def close(self) -> None:
        """Stop any pairing engine at once, leave the gateway, then close the database
        (when the bot opened it)."""
        stop_all_pairings()
        for task in (self._heartbeat, self._loop_watch):
            if task is not None:
                task.cancel()
        if self.sheets is not None:
            await self.sheets.close()
        await super().close()
        if self._owns_store and self.store is not None:
            store, self.store = self.store, None
            await store.close()


def create_bot(settings: BotSettings | None = None, *, store: Store | None = None) -> HarknessBot:
    """A bot configured from ``settings`` (default: the environment)."""
    settings = settings or BotSettings()
    point_at(settings)
    # Uploads are read and standings computed in worker threads; the event loop gets the
    # interpreter back within half a millisecond (not the default 5) whenever it is ready,
    # so other servers' commands are answered promptly meanwhile.
    sys.setswitchinterval(SWITCH_INTERVAL)
    return HarknessBot(settings, store)


#: Seconds a worker thread runs Python before the event loop may take over (sys.setswitchinterval).
SWITCH_INTERVAL = 0.0005


#: Seconds the connection task may take to end after the bot is closed. Between two tries to
#: reach a gateway that is down, discord.py sleeps its reconnect backoff (up to minutes)
#: before it notices; a stop does not wait for that.
STOP_GRACE = 1.0


async def _stopped(runner: asyncio.Task[None]) -> None:
    """Let ``runner`` (``bot.start``) end by itself for :data:`STOP_GRACE` seconds after
    ``close()``, then cancel it, whatever state its connection is in."""
    if not runner.done():
        await asyncio.wait({runner}, timeout=STOP_GRACE)
    if not runner.done():
        log.info("not waiting for the gateway reconnect: stopping now")
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner


async def open_store(settings: BotSettings) -> Store | int:
    """The store, opened before logging in to Discord with both histories of the database
    brought up to date (the store's, and the fleet's on its engine), or the exit status after
    one line saying why it cannot be opened."""
    url = database_url(settings.database_url)
    shown = url.render_as_string(hide_password=True)
    store: Store | None = None
    try:
        store = await Store.open(settings.database_url)
        await Fleet.on(store.engine)
        return store
    except (OSError, SQLAlchemyError, DatabaseError) as error:
        if store is not None:
            await store.close()
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        log.error("cannot open the database %s: %s", shown, reason)
        # A SQLite file that cannot be opened is a setting to fix; a server may come back.
        return EXIT_BAD_SETTINGS if is_sqlite(url) else EXIT_CRASHED


async def run(settings: BotSettings) -> int:
    """Run the bot until SIGTERM or SIGINT (or until Discord refuses the token)."""
    if settings.discord_token is None:
        raise ValueError("no token")
    url = database_url(settings.database_url)
    try:
        metrics.expose()
    except ValueError as error:
        log.error("%s", error)
        return EXIT_BAD_SETTINGS
    try:
        with sole_bot(url):
            store = await open_store(settings)
            if isinstance(store, int):
                return store
            try:
                return await _run(settings, store)
            finally:
                await store.close()
    except SharedSQLite as error:
        log.error("%s", error)
        return EXIT_BAD_SETTINGS


async def _run(settings: BotSettings, store: Store) -> int:
    assert settings.discord_token is not None
    bot = create_bot(settings, store=store)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def stop(signame: str) -> None:
        if not stopping.is_set():
            log.info("received %s: shutting down", signame)
            stopping.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # not on Windows' default loop
            loop.add_signal_handler(sig, stop, sig.name)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
        waiter = asyncio.create_task(stopping.wait())
        await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        await bot.close()
        waiter.cancel()
        await _stopped(runner)
        try:
            if not runner.cancelled():
                await runner
        except discord.LoginFailure:
            log.error(
                "Discord refused the token: check DISCORD_TOKEN (Developer Portal → "
                "your application → Bot → Reset Token)"
            )
            return EXIT_LOGIN_FAILED
        except (OSError, aiohttp.ClientError, discord.GatewayNotFound) as error:
            log.error(
                "cannot reach Discord at %s: %s",
                discord_host(settings, error),
                str(error).splitlines()[0] if str(error) else type(error).__name__,
            )
            return EXIT_CRASHED
        except Exception:
            log.exception("the bot stopped unexpectedly")
            return EXIT_CRASHED
    log.info("stopped")
    return 0


USAGE = """\
Runs the Harkness Discord bot until SIGTERM or SIGINT. Everything it needs comes from the
environment: DISCORD_TOKEN (required), HARKNESS_DATABASE_URL, HARKNESS_LOG_LEVEL, ... (see
bot/README.md, "Configuration"). `python -m bot.store backup FILE` and `restore FILE` back up
and restore its database.

exit status: 0 stopped by a signal; 1 Discord refused the token; 2 no token, a bad setting
or a database that cannot be opened; 3 Discord unreachable or an unexpected error (worth a
restart)."""


def parser() -> argparse.ArgumentParser:
    """The ``harkness-bot`` command line: no options but ``--help``."""
    return argparse.ArgumentParser(
        prog="harkness-bot",
        description=USAGE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def discord_host(settings: BotSettings, error: BaseException) -> str:
    """The host the bot could not reach: the one in the error, else the REST API's."""
    host = getattr(error, "host", None)
    if isinstance(host, str) and host:
        port = getattr(error, "port", None)
        return f"{host}:{port}" if port else host
    return urlsplit(settings.discord_api_base).netloc


def main(argv: Sequence[str] | None = None) -> int:
    """``harkness-bot``: run the Discord bot configured by the environment."""
    try:
        parser().parse_args(argv)
    except SystemExit as done:  # --help (0) or an argument it does not take (2)
        return EXIT_BAD_SETTINGS if done.code else 0
    try:
        settings = BotSettings()
    except ValidationError as error:
        print(f"harkness-bot: bad settings: {settings_problem(error)}", file=sys.stderr)
        return EXIT_BAD_SETTINGS
    if settings.discord_token is None:
        print(HOW_TO_GET_A_TOKEN, file=sys.stderr, end="")
        return EXIT_BAD_SETTINGS
    logs.configure(settings.log_format, settings.log_level)
    return asyncio.run(run(settings))

"""Several processes on one PostgreSQL: two bot shards and two ``harkness-sheets serve``
workers, 20 Discord servers each with a linked sheet, 200 results reported and confirmed by
members; one bot process is killed (``SIGKILL``) while it writes. Every result is in the
store once and in its sheet's Discord reports tab once, each sheet's standings are synced by
a worker, and Google's limits of 60 reads and 60 writes a minute (enforced by the fake, with
the minute shortened to six seconds, and the processes told 7.5 s (:data:`TOLD_WINDOW`), so
that the test sees many "minutes" turn in about a minute) are never exceeded: no request is
refused.
Without the shared budget the same run is refused hundreds of requests.

The same with ten servers whose TDs link their sheets through Discord at the same moment,
late players joining (the bot writes each sheet's Discord players tab), then 100 results:
linking and the players tab spend from the same budget, so Google refuses nothing, and a
member whose result waits for the budget is told so, never that Google is not answering.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot.store import Actor, Store, TournamentStatus, schema
from sheets.discord_tabs import REPORT_HEADER
from sheets.fleet import schema as fleet_schema
from tests.fakes.discord_api import DiscordFake, FakeGuild, FakeMember, MessageRecord
from tests.fakes.sheets_api import Op, ServiceAccountKey, SheetsFake
from tests.link.conftest import FAST_OUTBOX
from tests.link.servers import add_guild, general, with_commands
from tests.store.conftest import fresh_postgres_database, postgres_server

ROOT = Path(__file__).parents[2]
#: Where the processes' logs go (for a look after a failure): HARKNESS_TEST_LOGS.
LOGS = Path(os.environ["HARKNESS_TEST_LOGS"]) if os.environ.get("HARKNESS_TEST_LOGS") else None
GUILDS, PLAYERS = 20, 20  # ten games a server: 200 results
NAME = "Club Night"
TD = Actor("1", "Tess (TD)", td=True)
#: Google's per-minute limits, as the fake enforces them, with the "minute" this long.
WINDOW = 6.0
PER_WINDOW = 60
#: The "minute" the processes are told: a second and a half longer than the fake's. Harkness
#: counts a request as made up to its hold after it was spent (5 s of a real minute, so
#: 0.5 s of this one); a loaded two-core machine can be later than that, which a real
#: minute absorbs and a six-second one does not (it was refused a few reads at load 10).
TOLD_WINDOW = 7.5
KEY = REPORT_HEADER.index("Key")
#: How long a member waits for an answer here: a two-core machine runs 400 interactions,
#: four processes, PostgreSQL and both fakes at once.
ANSWER = 30.0
#: Members acting at the same moment, across the servers (each waits for its answer): more
#: would be answered late on a loaded two-core machine, not by a slow bot.
AT_ONCE = 8


@pytest.fixture
async def database() -> AsyncIterator[str]:
    async with fresh_postgres_database(postgres_server()) as url:
        yield url


class Server:
    """One Discord server of the test: its owner (its TD), its members (players #1–#20) and
    linked sheet, and what its members were told when they confirmed a result."""

    def __init__(
        self, fake: DiscordFake, guild: FakeGuild, number: int, at_once: asyncio.Semaphore
    ) -> None:
        self.fake, self.guild = fake, guild
        self.at_once = at_once  # shared by the test's servers (see AT_ONCE)
        self.owner = fake.member("owner" if number == 0 else f"owner{number}", guild)
        self.players: list[FakeMember] = [
            fake.world.new_member(guild, fake.world.new_user(f"g{number}p{n:02d}"))
            for n in range(1, PLAYERS + 1)
        ]
        self.sheet = ""
        self.confirmed: list[str] = []

    async def link(self) -> str:
        """The TD links the tournament to the sheet (which names this server); the answer."""
        record = await self.fake.command(
            self.owner,
            "tournament link-sheet",
            {
                "url": f"https://docs.google.com/spreadsheets/d/{self.sheet}/edit",
                "tournament": NAME,
            },
            channel=general(self.guild),
        )
        return (await record.reply(timeout=ANSWER)).text

    async def join(self, member: FakeMember) -> None:
        """A late player joins (the bot adds them to the sheet's Discord players tab)."""
        async with self.at_once:
            record = await self.fake.command(
                member, "join", {"tournament": NAME}, channel=general(self.guild)
            )
            answer = await record.reply(timeout=ANSWER)
        # A member told the sheet cannot be read just now (the budget is Harkness's pace)
        # tries again a little later, as the answer asks.
        for _ in range(12):
            if "try /join again" not in answer.text:
                break
            await asyncio.sleep(5)
            async with self.at_once:
                record = await self.fake.command(
                    member, "join", {"tournament": NAME}, channel=general(self.guild)
                )
                answer = await record.reply(timeout=ANSWER)
        assert "joined" in answer.text, answer.text

    @property
    def id(self) -> str:
        return str(self.guild.id)

    def harkness_tab(self) -> list[list[object]]:
        """The settings tab, its Discord servers row naming this server (typed as text)."""
        return [["Setting", "Value"], ["Discord servers", f"'{self.id}"]]

    def results_tab(self, late: int = 0) -> list[list[object]]:
        """The crosstable; the last ``late`` players named by their Discord username in its
        Discord column (so that they join as themselves)."""
        rows: list[list[object]] = [["#", "Name", "Rating", "Discord", "Rd 1"]]
        for n, member in enumerate(self.players, 1):
            discord = f"@{member.user.username}" if n > len(self.players) - late else ""
            rows.append([n, member.user.username, 1500, discord, ""])
        return rows

    async def game(self, game: int) -> None:
        """Game ``game`` (1–10) of round 1: white (#2g-1) reports a win, black confirms.
        At most :data:`AT_ONCE` members of all the servers act at the same moment."""
        async with self.at_once:
            await self._game(game)

    async def _game(self, game: int) -> None:
        white, black = self.players[2 * game - 2], self.players[2 * game - 1]
        channel = general(self.guild)
        report = await self.fake.command(
            white,
            "report",
            {"round": 1, "opponent": f"#{2 * game}", "result": "win"},
            channel=channel,
        )
        message: MessageRecord = await report.reply(timeout=ANSWER)
        confirm = await self.fake.click(black, message, "Confirm")
        self.confirmed.append((await confirm.reply(timeout=ANSWER)).text)


async def set_up(store: Store, servers: list[Server]) -> None:
    for server in servers:
        await store.create_tournament(server.id, NAME, rounds=1, actor=TD)
        for member in server.players:
            await store.join(server.id, NAME, Actor(str(member.user.id), member.user.username))
        await store.set_status(server.id, NAME, TournamentStatus.RUNNING, TD)
        await store.linked.link_sheet(
            server.id, NAME, TD, spreadsheet_id=server.sheet, named=[server.id]
        )


def quota_env(database: str, per_window: int = PER_WINDOW) -> dict[str, str]:
    """What every process is told: the database, Google's limits and the "minute"."""
    return {
        "HARKNESS_SHEETS_QUOTA_WINDOW": str(TOLD_WINDOW),
        "HARKNESS_SHEETS_READS_PER_MINUTE": str(per_window),
        "HARKNESS_SHEETS_WRITES_PER_MINUTE": str(per_window),
        "HARKNESS_DATABASE_URL": database,
        "HARKNESS_LOG_FORMAT": "text",
        "HARKNESS_LOG_LEVEL": "WARNING",
    }


def bot_env(
    fake: DiscordFake, sheets_env: dict[str, str], database: str, per_window: int = PER_WINDOW
) -> dict[str, str]:
    return {
        **fake.env,
        **sheets_env,
        **FAST_OUTBOX,
        **quota_env(database, per_window),
        "HARKNESS_SHARD_COUNT": "2",
        "HARKNESS_SHEETS_LEASE": "3",
        "HARKNESS_SHEETS_SYNC_JOBS": "1",
        "HARKNESS_SHEETS_ANSWER_WAIT": "1",
    }


def worker_env(
    sheets_env: dict[str, str], database: str, per_window: int = PER_WINDOW
) -> dict[str, str]:
    return {
        **sheets_env,
        **quota_env(database, per_window),
        "HARKNESS_SHEETS_PORT": "0",
        "HARKNESS_SHEETS_DEBOUNCE": "0.5",
    }


async def stop(processes: list[asyncio.subprocess.Process]) -> None:
    """Stop the processes still running (SIGTERM, then SIGKILL after 20 s)."""
    for process in processes:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()


def within_googles_limits(sheets: SheetsFake, per_window: int) -> None:
    """Google refused no request (429), and saw at most ``per_window`` of each kind in any
    of its "minutes"."""
    refused = [(c.kind, c.operation, c.at) for c in sheets.calls() if c.status == 429]
    assert refused == [], f"Google refused {len(refused)} requests: the first {refused[:3]}"
    for kind in ("read", "write"):
        assert sheets.max_calls_in_any_minute(kind=kind, window=WINDOW) <= per_window


def servers_with_sheets(
    fake: DiscordFake, sheets: SheetsFake, account: ServiceAccountKey, count: int, late: int = 0
) -> list[Server]:
    """``count`` servers (the fake's first and more), each with a sheet shared with the
    service account that names the server (its editors typed its id); ``late`` players of
    each named in the sheet's Discord column (see :meth:`Server.results_tab`)."""
    guilds = [fake.guild] + [add_guild(fake, n) for n in range(1, count)]
    at_once = asyncio.Semaphore(AT_ONCE)
    servers = [Server(fake, guild, n, at_once) for n, guild in enumerate(guilds)]
    for server in servers:
        server.sheet = sheets.create_spreadsheet(
            f"Club {server.id}",
            {"Results": server.results_tab(late), "Harkness": server.harkness_tab()},
            shared_with=[account.email],
        )
    return servers


async def start(env: dict[str, str], *command: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        *command,
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=LOGS.open("ab") if LOGS else asyncio.subprocess.DEVNULL,
    )


async def holds_sheet(store: Store, pid: int, sheet: str) -> bool:
    """Whether the bot process ``pid`` is writing ``sheet`` now (holds its lease)."""
    s = fleet_schema.sheet_leases
    async with store.engine.connect() as conn:
        holder = await conn.scalar(select(s.c.holder).where(s.c.spreadsheet_id == sheet))
    return holder is not None and holder.split(":")[2] == str(pid)


async def pending(store: Store) -> str:
    """What is still to do, for the failure message."""
    o, j = schema.sheet_outbox, fleet_schema.sync_jobs
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(o.c.guild_id, o.c.attempts, o.c.last_error, o.c.claimed_by).where(
                    o.c.written_at.is_(None)
                )
            )
        ).all()
        jobs = (await conn.execute(select(j))).all()
    return f"still pending: results {rows[:5]} ({len(rows)}), syncs {jobs[:5]}"


async def settled(store: Store, sheet: str | None = None, timeout: float = 60.0) -> None:
    """Wait until every result (of ``sheet``) is written and synced."""
    o, j, s = schema.sheet_outbox, fleet_schema.sync_jobs, fleet_schema.sheet_leases
    deadline = time.monotonic() + timeout
    while True:
        async with store.engine.connect() as conn:
            unwritten = select(func.count()).select_from(o).where(o.c.written_at.is_(None))
            jobs = select(func.count()).select_from(j)
            held = select(func.count()).select_from(s)
            if sheet is not None:
                unwritten = unwritten.where(o.c.spreadsheet_id == sheet)
                jobs = jobs.where(j.c.spreadsheet_id == sheet)
                held = held.where(s.c.spreadsheet_id == sheet)
            left = [await conn.scalar(q) for q in (unwritten, jobs)]
            if sheet is not None:
                left.append(await conn.scalar(held))
        if not any(left):
            return
        assert time.monotonic() < deadline, await pending(store)
        await asyncio.sleep(0.1)


async def writing(store: Store, sheets: SheetsFake, server: Server, pid: int) -> bool:
    """Whether bot process ``pid`` is writing ``server``'s sheet (its lease held, a write on
    its way to Google), waiting a few seconds for it."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        writing = any(c.status == 0 for c in sheets.calls(server.sheet, operation=Op.BATCH_UPDATE))
        if writing and await holds_sheet(store, pid, server.sheet):
            return True
        await asyncio.sleep(0.01)
    return False


async def test_two_shards_and_two_workers_write_every_result_once_within_googles_limits(
    discord_fake: DiscordFake,
    sheets_fake: SheetsFake,
    service_account_file: ServiceAccountKey,
    sheets_env: dict[str, str],
    database: str,
) -> None:
    fake = discord_fake
    servers = servers_with_sheets(fake, sheets_fake, service_account_file, GUILDS)
    guilds = [s.guild for s in servers]
    shard_of = {s.id: (s.guild.id >> 22) % 2 for s in servers}
    assert set(shard_of.values()) == {0, 1}
    sheets_fake.enforce_quotas(PER_WINDOW, PER_WINDOW, window=WINDOW)
    store = await Store.open(database)
    await set_up(store, servers)
    bots = bot_env(fake, sheets_env, database)
    workers_env = worker_env(sheets_env, database)
    shards = {n: await start({**bots, "HARKNESS_SHARD_ID": str(n)}, "bot") for n in (0, 1)}
    workers = [await start(workers_env, "sheets", "serve") for _ in range(2)]
    processes = [*shards.values(), *workers]
    try:
        await fake.wait_until_shards_ready(2, timeout=30)
        await fake.wait_for(lambda: fake.commands.get(fake.guild.id) or None, 30, "commands")
        for guild in guilds[1:]:  # global commands, as a production bot registers them
            with_commands(fake, guild)

        # The first half of the results: all twenty servers at once.
        await asyncio.gather(*(s.game(g) for s in servers for g in range(1, 6)))
        # A member of a server of shard 1 confirms a result, and Google is slow to take
        # its write: shard 1 is killed (SIGKILL) while the write is on its way, after the
        # member was answered ("pending"). The row may land in the sheet after all. (Shard
        # 0 writes every server's results too, so it may write first: then the next game.)
        victim = next(s for s in servers if shard_of[s.id] == 1)
        played = 5
        while True:
            played += 1
            assert played <= 10, "shard 1 never wrote one of its server's results"
            await settled(store, victim.sheet)
            sheets_fake.clear_faults()
            sheets_fake.slow_next(1, 1.8, operation=Op.BATCH_UPDATE, spreadsheet_id=victim.sheet)
            await victim.game(played)
            if await writing(store, sheets_fake, victim, shards[1].pid):
                break
        shards[1].send_signal(signal.SIGKILL)
        await shards[1].wait()
        sheets_fake.clear_faults()
        # The other half goes on meanwhile on shard 0's servers, and on shard 1's once it
        # is back (a new process of the same shard).
        rest = [(s, g) for s in servers for g in range(6, 11) if s is not victim or g > played]
        first = asyncio.gather(*(s.game(g) for s, g in rest if shard_of[s.id] == 0))
        shards[1] = await start({**bots, "HARKNESS_SHARD_ID": "1"}, "bot")
        processes.append(shards[1])
        await fake.wait_until_shards_ready(2, timeout=30)
        await asyncio.gather(first, *(s.game(g) for s, g in rest if shard_of[s.id] == 1))
        await settled(store)
    finally:
        await stop(processes)
        o = schema.sheet_outbox
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(o.c.guild_id, o.c.payload))).all()
        await store.close()

    # Every result in the store once (one outbox row per final result, each written) ...
    by_guild: dict[str, list[str]] = {}
    for guild_id, payload in rows:
        by_guild.setdefault(guild_id, []).append(payload)
    assert sorted(by_guild) == sorted(s.id for s in servers)
    assert all(len(results) == PLAYERS // 2 for results in by_guild.values())
    payloads = [json.loads(p) for results in by_guild.values() for p in results]
    assert {p["action"] for p in payloads} == {"confirm"}
    assert len({p["key"] for p in payloads}) == GUILDS * PLAYERS // 2
    for server in servers:
        # ... and in its sheet once, with the standings synced by a worker.
        keys = [row[KEY] for row in sheets_fake.values(server.sheet, "'Discord reports'")[1:]]
        assert len(keys) == len(set(keys)) == PLAYERS // 2, server.id
        assert sheets_fake.values(server.sheet, "Standings!A1")
    within_googles_limits(sheets_fake, PER_WINDOW)


#: Servers linking their sheets, and the players of each who join after.
LINKING, LATE = 10, 2
#: Google's limits in that test: half, so that the budget is what paces the evening.
TIGHT = PER_WINDOW // 2


async def evening(store: Store, server: Server, number: int) -> str:
    """Server ``number``'s evening, starting ``number`` seconds in: its TD links its sheet,
    its late players join, it starts, its ten games are played. The TD's answer to linking."""
    await asyncio.sleep(number)
    linked = await server.link()
    await asyncio.gather(*(server.join(m) for m in server.players[-LATE:]))
    await store.set_status(server.id, NAME, TournamentStatus.RUNNING, TD)
    await asyncio.gather(*(server.game(g) for g in range(1, 11)))
    return linked


async def test_servers_linking_their_sheets_then_reporting_stay_within_googles_limits(
    discord_fake: DiscordFake,
    sheets_fake: SheetsFake,
    service_account_file: ServiceAccountKey,
    sheets_env: dict[str, str],
    database: str,
) -> None:
    fake = discord_fake
    servers = servers_with_sheets(fake, sheets_fake, service_account_file, LINKING, LATE)
    guilds = [s.guild for s in servers]
    sheets_fake.enforce_quotas(TIGHT, TIGHT, window=WINDOW)
    store = await Store.open(database)
    for server in servers:  # registering; all but the late players registered already
        await store.create_tournament(server.id, NAME, rounds=1, actor=TD)
        for member in server.players[:-LATE]:
            await store.join(server.id, NAME, Actor(str(member.user.id), member.user.username))
    bots = bot_env(fake, sheets_env, database, TIGHT)
    workers = worker_env(sheets_env, database, TIGHT)
    processes = [await start({**bots, "HARKNESS_SHARD_ID": str(n)}, "bot") for n in (0, 1)]
    processes += [await start(workers, "sheets", "serve") for _ in (0, 1)]
    try:
        await fake.wait_until_shards_ready(2, timeout=30)
        await fake.wait_for(lambda: fake.commands.get(fake.guild.id) or None, 30, "commands")
        for guild in guilds[1:]:
            with_commands(fake, guild)
        # Each server in turn, a second apart: its TD links the sheet, late players join, its
        # games are played; so servers link while others report, as on a club evening.
        linked = await asyncio.gather(*(evening(store, s, n) for n, s in enumerate(servers)))
        assert all(text.startswith(f"🔗 **{NAME}** is kept in the Google Sheet") for text in linked)
        await settled(store)
    finally:
        await stop(processes)
        await store.close()
    within_googles_limits(sheets_fake, TIGHT)
    for server in servers:
        keys = [row[KEY] for row in sheets_fake.values(server.sheet, "'Discord reports'")[1:]]
        assert len(keys) == len(set(keys)) == PLAYERS // 2, server.id
    # Google answered every request: a member who waited was told it was for the budget.
    told = [text.splitlines()[-1] for s in servers for text in s.confirmed]
    assert len(told) == LINKING * PLAYERS // 2
    assert not [t for t in told if "Google Sheets is not answering" in t]

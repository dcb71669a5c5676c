"""Two histories in one database: the store's and the fleet's.

A worker's database has the fleet's tables only, a bot-only one the store's only; opened by
both, in either order, it has both, each exactly as its schema in code says. A database made
before the fleet had a history of its own (the store's 0005–0008 made the coordination tables)
upgrades in place, on both engines, and keeps its rows: a lease held and a sync claimed go on.
"""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, insert, inspect, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import Store, TournamentStatus
from bot.store import schema as store_schema
from bot.store.migrations import HISTORY as STORE
from sheets.database.engine import create_engine
from sheets.database.migrate import (
    History,
    alembic_config,
    current_revision,
    head_revision,
    upgrade,
)
from sheets.fleet import Fleet
from sheets.fleet import schema as fleet
from sheets.fleet.migrations import HISTORY as FLEET
from tests.store.conftest import ANN, BOB, GUILD, TD, Clock, user
from tests.store.test_backup import store_command
from tests.store.test_migrations import TABLES as STORE_TABLES

ROOT = Path(__file__).resolve().parents[2]
LEGACY = Path(__file__).resolve().parent / "store_0008"
FLEET_TABLES = {
    "addon_keys",
    "alembic_version_fleet",
    "quota_budget",
    "sheet_accounts",
    "sheet_leases",
    "sync_jobs",
    "sync_workers",
}
S = timedelta(seconds=1)


async def tables(engine: AsyncEngine) -> set[str]:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: set(inspect(c).get_table_names()))


async def differences(engine: AsyncEngine, history: History) -> list[object]:
    """What tells ``history``'s tables in the database from its schema in code."""
    async with engine.connect() as conn:
        return await conn.run_sync(
            lambda c: compare_metadata(
                MigrationContext.configure(
                    c,
                    opts={
                        "compare_type": True,
                        "include_name": history.owns,
                        "version_table": history.version_table,
                    },
                ),
                history.metadata,
            )
        )


async def assert_both_as_in_code(engine: AsyncEngine) -> None:
    assert await tables(engine) == STORE_TABLES | FLEET_TABLES
    for history in (STORE, FLEET):
        assert await current_revision(engine, history) == head_revision(history)
        assert await differences(engine, history) == [], history.name


async def test_a_workers_database_has_the_fleets_tables_only(db_url: str) -> None:
    async with await Fleet.open(db_url) as opened:
        assert await tables(opened.engine) == FLEET_TABLES
        assert await current_revision(opened.engine, FLEET) == head_revision(FLEET) == "0002"
        assert await current_revision(opened.engine, STORE) is None
        assert await differences(opened.engine, FLEET) == []


async def test_a_bot_only_database_has_the_stores_tables_only(db_url: str) -> None:
    async with await Store.open(db_url) as store:
        assert await tables(store.engine) == STORE_TABLES
        assert await current_revision(store.engine, FLEET) is None


@pytest.mark.parametrize("first", ["bot", "worker"])
async def test_a_database_opened_by_the_bot_and_a_worker_in_either_order_has_both(
    db_url: str, first: str
) -> None:
    """The bot opens its store and the fleet on the store's engine (:meth:`Fleet.on`); a
    worker opens the fleet alone. Either may start first."""

    async def bot() -> None:
        async with await Store.open(db_url) as store:
            await Fleet.on(store.engine)

    async def worker() -> None:
        async with await Fleet.open(db_url):
            pass

    for start in (bot, worker) if first == "bot" else (worker, bot):
        await start()
    engine = create_engine(db_url)
    try:
        await assert_both_as_in_code(engine)
    finally:
        await engine.dispose()


async def test_each_history_goes_down_and_up_alone(db_url: str) -> None:
    async with await Store.open(db_url) as store:
        await Fleet.on(store.engine)
        await _down(store.engine, FLEET)
        assert await tables(store.engine) == STORE_TABLES | {"alembic_version_fleet"}
        await _down(store.engine, STORE)
        assert await tables(store.engine) == {"alembic_version", "alembic_version_fleet"}
        await upgrade(store.engine, FLEET)
        await upgrade(store.engine, STORE)
        await assert_both_as_in_code(store.engine)


async def _down(engine: AsyncEngine, history: History) -> None:
    def down(connection: object) -> None:
        config = alembic_config(history)
        config.attributes["connection"] = connection
        command.downgrade(config, "base")

    async with engine.begin() as conn:
        await conn.run_sync(down)


# -- a database made before the fleet had a history of its own ----------------------------


def legacy_history(folder: Path) -> History:
    """The store's history as it was: today's 0001–0004 and the frozen 0005–0008, which made
    the coordination tables (:mod:`tests.fleet.store_0008`)."""
    versions = folder / "versions"
    versions.mkdir(parents=True)
    for script in sorted((STORE.scripts / "versions").glob("000[1-4]_*.py")):
        shutil.copy(script, versions / script.name)
    for script in sorted(LEGACY.glob("v000[5-8]_*.py")):
        shutil.copy(script, versions / script.name[1:])
    shutil.copy(STORE.scripts / "env.py", folder / "env.py")
    return History("store before the fleet", folder, STORE.version_table, MetaData())


async def _results_log(path: Path, clock: Clock) -> dict[str, list[dict[str, object]]]:
    """The results log's rows a running tournament linked to a sheet has, with a result
    waiting for it, as today's store writes them (in a database of its own)."""
    async with await Store.open(f"sqlite+aiosqlite:///{path}", clock=clock) as store:
        await store.create_tournament(GUILD, "Club Night", rounds=3, actor=TD)
        for member in (ANN, BOB):
            await store.join(GUILD, "Club Night", member)
        await store.set_status(GUILD, "Club Night", TournamentStatus.RUNNING, TD)
        await store.linked.link_sheet(
            GUILD, "Club Night", TD, spreadsheet_id="sheet-a", named=[GUILD]
        )
        said = await store.report(
            GUILD, "Club Night", ANN, round=1, opponent=user(BOB), result="win"
        )
        await store.confirm(GUILD, "Club Night", BOB, said.event.seq)
        async with store.engine.connect() as conn:
            return {
                table.name: [dict(row._mapping) for row in await conn.execute(select(table))]
                for table in store_schema.metadata.sorted_tables
            }


async def _copy_results_log(rows: dict[str, list[dict[str, object]]], engine: AsyncEngine) -> None:
    """``rows`` into an older database: the tables and columns it has (a column added since
    has its default there after the upgrade, as for any database of the day)."""
    async with engine.begin() as conn:
        columns = await conn.run_sync(
            lambda c: {
                t: {col["name"] for col in inspect(c).get_columns(t)}
                for t in inspect(c).get_table_names()
            }
        )
        for table in store_schema.metadata.sorted_tables:
            if rows.get(table.name) and table.name in columns:
                known = columns[table.name]
                values = [{k: v for k, v in r.items() if k in known} for r in rows[table.name]]
                await conn.execute(insert(table), values)


async def made_before_the_fleet(url: str, at: str, folder: Path, clock: Clock) -> None:
    """A database at the store's ``at`` (0005–0008) as the code of its day left it: a running
    tournament linked to a sheet with a result waiting for it, a sheet's lease held by a bot,
    a sync claimed by a worker and another waiting, and (from 0007, 0008) an account's budget
    and routing."""
    engine = create_engine(url)
    try:
        await upgrade(engine, legacy_history(folder), at)
        await _copy_results_log(await _results_log(folder / "today.db", clock), engine)
        now = clock()
        async with engine.begin() as conn:
            await conn.execute(
                insert(fleet.sheet_leases).values(
                    spreadsheet_id="sheet-a",
                    holder="harkness-bot:vm:7:aaaa1111",
                    until=now + 60 * S,
                )
            )
            job = {"first_at": now, "requested_at": now, "reason": "edit", "attempts": 0}
            claimed = {"claimed_by": "worker-1", "claimed_until": now + 60 * S, "started_at": now}
            await conn.execute(
                insert(fleet.sync_jobs).values(
                    spreadsheet_id="sheet-b", due_at=now - S, **job, **claimed
                )
            )
            routed = {"account": "a@x"} if at >= "0008" else {}
            await conn.execute(
                insert(fleet.sync_jobs).values(
                    spreadsheet_id="sheet-c", due_at=now, **job, **routed
                )
            )
            if at >= "0007":
                uses = '{"reads": [%s, %s], "writes": []}' % ((now.timestamp(),) * 2)
                await conn.execute(insert(fleet.quota_budget).values(account="a@x", uses=uses))
            if at >= "0008":
                await conn.execute(
                    insert(fleet.sheet_accounts).values(
                        spreadsheet_id="sheet-c", account="a@x", since=now
                    )
                )
    finally:
        await engine.dispose()


@pytest.mark.parametrize(
    ("at", "how"),
    [("0008", "python -m bot.store upgrade"), ("0008", "worker first"), ("0006", "bot first")],
)
async def test_a_database_made_before_the_fleet_upgrades_in_place_and_keeps_its_rows(
    db_url: str, at: str, how: str, tmp_path: Path, clock: Clock
) -> None:
    await made_before_the_fleet(db_url, at, tmp_path / "legacy", clock)
    if how == "python -m bot.store upgrade":
        # As an operator runs it before starting the new code.
        at = f"at store {head_revision(STORE)}, fleet {head_revision(FLEET)}\n"
        assert await store_command(db_url, "upgrade") == (0, at, "")
    store = await Store.open(db_url, clock=clock, migrate=how != "worker first")
    fleet_of_worker = await Fleet.open(db_url, clock=clock)
    try:
        if how == "worker first":
            await upgrade(store.engine, STORE)
        await Fleet.on(store.engine, clock=clock)  # the bot's, after the worker's
        await assert_both_as_in_code(store.engine)
        # The results log is as it was ...
        state = await store.state(GUILD, "Club Night")
        assert [str(e) for e in state.tournament.player(1).entries] == ["W2"]
        [waiting] = await store.linked.pending_writes(GUILD, "Club Night")
        assert waiting.spreadsheet_id == "sheet-a"
        # ... and so is the coordination in flight: the bot's lease on sheet-a holds, the
        # sync worker-1 claimed is still its own, the waiting one is claimed next.
        assert await fleet_of_worker.sheet_holder("sheet-a") == "harkness-bot:vm:7:aaaa1111"
        assert not await fleet_of_worker.take_sheet("sheet-a", "harkness-sheets:w2:1:b")
        assert await fleet_of_worker.renew_sync("sheet-b", "worker-1", lease=60 * S)
        job = await fleet_of_worker.claim_sync("worker-2")
        assert job is not None and job.spreadsheet_id == "sheet-c"
        assert job.account == ("a@x" if at >= "0008" else None)
        assert await fleet_of_worker.claim_sync("worker-2") is None
        # Routing works on a sync_jobs made before the store's 0008 too.
        assert not await fleet_of_worker.sync_done("sheet-c", "worker-2", account="b@x")
        async with store.engine.connect() as conn:
            known = await conn.scalar(
                select(fleet.sheet_accounts.c.account).where(
                    fleet.sheet_accounts.c.spreadsheet_id == "sheet-c"
                )
            )
        assert known == "b@x"
    finally:
        await fleet_of_worker.close()
        await store.close()

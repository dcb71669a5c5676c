"""The store's migrations build its schema from nothing, and its schema in code matches them
exactly (the fleet's history beside it: :mod:`tests.fleet.test_migrations`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import insert, inspect, select
from sqlalchemy.exc import IntegrityError

from bot.store import Store, schema
from bot.store.migrations import HISTORY
from sheets.database.engine import create_engine
from sheets.database.migrate import alembic_config, current_revision, head_revision, upgrade

#: The store's tables: a bot-only database has these, none of the fleet's.
TABLES = {
    "alembic_version",
    "events",
    "guild_settings",
    "kept_apart",
    "player_awards",
    "players",
    "prize_lists",
    "prizes",
    "report_messages",
    "sheet_link_codes",
    "sheet_outbox",
    "sheet_owners",
    "tournaments",
}


async def test_opening_an_empty_database_migrates_it_to_the_newest_schema(db_url: str):
    engine = create_engine(db_url)
    try:
        assert await current_revision(engine, HISTORY) is None
        async with engine.connect() as conn:
            assert await conn.run_sync(lambda c: set(inspect(c).get_table_names())) == set()
    finally:
        await engine.dispose()
    store = await Store.open(db_url)
    try:
        assert await current_revision(store.engine, HISTORY) == head_revision(HISTORY) == "0013"
        async with store.engine.connect() as conn:
            assert await conn.run_sync(lambda c: set(inspect(c).get_table_names())) == TABLES
    finally:
        await store.close()


async def test_the_tables_in_code_match_the_migrations(db_url: str):
    store = await Store.open(db_url)
    try:
        async with store.engine.connect() as conn:
            differences = await conn.run_sync(
                lambda c: compare_metadata(
                    MigrationContext.configure(
                        c, opts={"compare_type": True, "include_name": HISTORY.owns}
                    ),
                    schema.metadata,
                )
            )
        assert differences == []
    finally:
        await store.close()


async def test_migrating_again_changes_nothing_and_down_and_up_again_works(db_url: str):
    store = await Store.open(db_url)
    try:
        await upgrade(store.engine, HISTORY)
        assert await current_revision(store.engine, HISTORY) == head_revision(HISTORY)

        def down(connection) -> None:
            config = alembic_config(HISTORY)
            config.attributes["connection"] = connection
            command.downgrade(config, "base")

        async with store.engine.begin() as conn:
            await conn.run_sync(down)
        assert await current_revision(store.engine, HISTORY) is None
        await upgrade(store.engine, HISTORY)
        assert await current_revision(store.engine, HISTORY) == head_revision(HISTORY)
    finally:
        await store.close()


async def test_sheets_linked_before_owners_were_kept_belong_to_the_first_server(db_url: str):
    engine = create_engine(db_url)
    try:
        await upgrade(engine, HISTORY, "0002")
        at = [datetime(2026, 3, d, tzinfo=UTC) for d in (1, 2, 3)]
        rows = [
            ("g2", "Later", "sheet-a", at[1]),
            ("g1", "First", "sheet-a", at[0]),
            ("g2", "Own", "sheet-b", at[2]),
            ("g3", "Unlinked", None, None),
        ]
        async with engine.begin() as conn:
            for guild, name, sheet, when in rows:
                await conn.execute(
                    insert(schema.tournaments).values(
                        guild_id=guild,
                        name=name,
                        name_key=name.casefold(),
                        profile="uscf",
                        rounds=3,
                        status="running",
                        created_by="td",
                        created_at=at[0],
                        start_date="",
                        end_date="",
                        records="[]",
                        sheet_id=sheet,
                        sheet_linked_by="td" if sheet else None,
                        sheet_linked_at=when,
                    )
                )
        await upgrade(engine, HISTORY)
        async with engine.connect() as conn:
            owners = await conn.execute(
                select(schema.sheet_owners.c.spreadsheet_id, schema.sheet_owners.c.guild_id)
            )
            assert sorted(owners.all()) == [("sheet-a", "g1"), ("sheet-b", "g2")]
    finally:
        await engine.dispose()


async def test_sheets_linked_first_before_they_named_servers_keep_working_a_while(db_url: str):
    """At the upgrade to revision 0012 every server that linked a sheet first gets a grace
    period of 14 days, in which it goes on using the sheet while the sheet names no server."""
    engine = create_engine(db_url)
    try:
        await upgrade(engine, HISTORY, "0010")
        at = datetime(2026, 3, 1, tzinfo=UTC)
        async with engine.begin() as conn:
            await conn.execute(
                insert(schema.sheet_owners).values(
                    spreadsheet_id="sheet-a", guild_id="g1", claimed_by="td", claimed_at=at
                )
            )
    finally:
        await engine.dispose()
    before = datetime.now(UTC)
    store = await Store.open(db_url)
    try:
        use = await store.linked.sheet_use("g1", "sheet-a", [])
        assert use.grace_until is not None and use.allowed and not use.named
        assert (
            before + timedelta(days=14) <= use.grace_until <= datetime.now(UTC) + timedelta(days=14)
        )
        assert not (await store.linked.sheet_use("g1", "sheet-a", ["990000000000000001"])).allowed
        assert not (await store.linked.sheet_use("g2", "sheet-a", [])).allowed
    finally:
        await store.close()


async def test_the_database_refuses_a_player_of_a_tournament_that_does_not_exist(db_url: str):
    store = await Store.open(db_url)
    try:
        row = {
            "guild_id": "g",
            "tournament_id": 99,
            "number": 1,
            "name": "Ann",
            "title": "",
            "sex": "",
            "federation": "",
            "birth_date": "",
            "added_by": "td",
            "added_at": datetime(2026, 1, 1, tzinfo=UTC),
        }
        with pytest.raises(IntegrityError):
            async with store.engine.begin() as conn:
                await conn.execute(insert(schema.players).values(**row))
    finally:
        await store.close()


async def test_a_sqlite_store_uses_write_ahead_logging_and_foreign_keys(tmp_path):
    store = await Store.open(f"sqlite:///{tmp_path / 'club.db'}")
    try:
        async with store.engine.connect() as conn:
            mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar()
            keys = (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar()
        assert (mode, keys) == ("wal", 1)
    finally:
        await store.close()


async def test_tournament_names_are_keyed_again_without_the_characters_that_show_nothing(
    db_url: str,
):
    # A tournament made before names were compared without zero-width characters is found
    # by its plain name after the upgrade; of two that now share a key, the first takes it.
    engine = create_engine(db_url)
    try:
        await upgrade(engine, HISTORY, "0008")
        now = datetime.now(UTC)
        row = {
            "guild_id": "guild-1", "profile": "uscf", "rounds": 5, "status": "running",
            "created_by": "900", "created_at": now, "start_date": "2026-12-01",
            "end_date": "2026-12-01", "records": "[]",
        }  # fmt: skip
        async with engine.begin() as conn:
            for name, key in (
                ("Spring\u200b Open", "spring\u200b open"),
                ("Winter Open", "winter open"),
                ("Winter\u00ad Open", "winter\u00ad open"),
            ):
                await conn.execute(
                    insert(schema.tournaments).values(name=name, name_key=key, **row)
                )
        await upgrade(engine, HISTORY)
        async with engine.connect() as conn:
            keys = (await conn.execute(select(schema.tournaments.c.name_key))).scalars().all()
        assert sorted(keys) == ["spring open", "winter open", "winter\u00ad open"]
    finally:
        await engine.dispose()
    store = await Store.open(db_url)
    try:
        assert (await store.tournament("guild-1", "spring open")).name == "Spring\u200b Open"
    finally:
        await store.close()

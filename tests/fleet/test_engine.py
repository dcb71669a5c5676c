"""Which database: a URL given, else HARKNESS_DATABASE_URL, else ./harkness.db; plain
URLs get their async driver."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from sheets.database.engine import DEFAULT_URL, create_engine, database_url
from sheets.database.errors import DatabaseError


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("sqlite:///club.db", "sqlite+aiosqlite:///club.db"),
        ("sqlite+aiosqlite:////srv/harkness.db", "sqlite+aiosqlite:////srv/harkness.db"),
        (
            "postgresql://td:secret@127.0.0.1:5432/harkness",
            "postgresql+asyncpg://td:secret@127.0.0.1:5432/harkness",
        ),
        ("postgres://td@127.0.0.1/harkness", "postgresql+asyncpg://td@127.0.0.1/harkness"),
    ],
)
def test_plain_urls_get_their_async_driver(given: str, used: str):
    assert database_url(given).render_as_string(hide_password=False) == used


def test_the_environment_names_the_database_else_the_sqlite_file(monkeypatch):
    monkeypatch.delenv("HARKNESS_DATABASE_URL", raising=False)
    assert database_url().render_as_string() == DEFAULT_URL == "sqlite+aiosqlite:///./harkness.db"
    monkeypatch.setenv("HARKNESS_DATABASE_URL", "postgresql://bot@127.0.0.1/league")
    assert database_url().render_as_string() == "postgresql+asyncpg://bot@127.0.0.1/league"


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("mysql://root@127.0.0.1/chess", "the database 'mysql' is not supported"),
        ("not a url", "HARKNESS_DATABASE_URL is not a database URL"),
    ],
)
def test_other_databases_are_refused_in_words(given: str, words: str):
    with pytest.raises(DatabaseError) as error:
        database_url(given)
    assert str(error.value).startswith(words) and error.value.code == "bad-database-url"


async def test_a_new_sqlite_file_waits_for_another_writer_before_switching_to_wal(tmp_path: Path):
    # Another process is writing to a file still in rollback mode (as when several processes
    # open a new database at once). Switching to WAL needs the file to itself, and SQLite
    # refuses at once rather than waiting; the engine retries within its busy timeout.
    path = tmp_path / "harkness.db"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE t (a)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t VALUES (1)")

    async def commit_soon() -> None:
        await asyncio.sleep(0.3)
        other.execute("COMMIT")

    committing = asyncio.create_task(commit_soon())
    engine = create_engine(f"sqlite:///{path}")
    try:
        async with engine.connect() as connection:
            mode = (await connection.execute(text("PRAGMA journal_mode"))).scalar()
    finally:
        await engine.dispose()
        await committing
        other.close()
    assert mode == "wal"


async def test_a_new_sqlite_database_and_its_log_files_are_readable_by_its_user_only(
    tmp_path: Path,
):
    # The service's database holds every club's results and who is who on Discord: under a
    # systemd unit or a shared host, other users must not read it, nor its write-ahead log.
    path = tmp_path / "harkness.db"
    engine = create_engine(f"sqlite:///{path}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (a)"))
            await conn.execute(text("INSERT INTO t VALUES (1)"))
        made = sorted(p.name for p in tmp_path.iterdir())
        assert made == ["harkness.db", "harkness.db-shm", "harkness.db-wal"]
        assert {p.name: oct(p.stat().st_mode & 0o777) for p in tmp_path.iterdir()} == {
            name: "0o600" for name in made
        }
    finally:
        await engine.dispose()


async def test_a_database_left_readable_by_others_is_made_private_when_opened(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    path = tmp_path / "harkness.db"
    with sqlite3.connect(path) as made_by_an_older_version:
        made_by_an_older_version.execute("CREATE TABLE t (a)")
    made_by_an_older_version.close()
    path.chmod(0o644)
    engine = create_engine(f"sqlite:///{path}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO t VALUES (1)"))
            modes = {p.name: oct(p.stat().st_mode & 0o777) for p in tmp_path.iterdir()}
    finally:
        await engine.dispose()
    assert modes == {"harkness.db": "0o600", "harkness.db-shm": "0o600", "harkness.db-wal": "0o600"}
    assert "harkness.db was open to other users: it is now private" in caplog.text

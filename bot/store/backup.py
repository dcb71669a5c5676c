"""Back up the store while the bot runs, and restore a backup.

- **SQLite.** The bot keeps its file in write-ahead-log mode: the newest commits live in the
  ``-wal`` file beside it, so a copy of the ``.db`` file alone can miss them or be torn
  mid-write. :func:`backup` uses SQLite's online backup API instead (``sqlite3``'s
  ``Connection.backup``): a consistent snapshot of the whole database, taken while the bot
  goes on writing, into one self-contained file.
- **PostgreSQL.** ``pg_dump --format=custom`` (a consistent snapshot of a live database) and
  ``pg_restore --clean --if-exists --no-owner --single-transaction``; both must be on
  ``PATH`` (Debian: ``postgresql-client``), at least the server's major version. The password,
  if the URL has one, is handed to them in ``PGPASSWORD``, never on their command line.

:func:`restore` replaces the database's content with the backup's; ``python -m bot.store
restore`` then brings both of its histories up to date, the store's and the fleet's (a backup
taken before an upgrade is migrated like any older database). A backup is of the whole
database: the results log and the fleet's tables (leases, sync jobs) alike. Stop the bot and
the workers while restoring: they would otherwise keep working on the tables being replaced.

From a shell (``HARKNESS_DATABASE_URL`` or ``--url`` names the database)::

    python -m bot.store backup harkness-2026-03-14.backup
    python -m bot.store restore harkness-2026-03-14.backup
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from sqlalchemy.engine import URL

from bot.store.errors import StoreError
from bot.store.migrations import HISTORY
from sheets.database.engine import create_engine, database_url, is_sqlite, keep_private
from sheets.database.migrate import current_revision

#: Seconds a SQLite backup or restore waits for a writer holding the file.
SQLITE_TIMEOUT_S = 30


async def backup(url: str | None, target: Path) -> str:
    """Write a backup of the database at ``url`` to ``target``; answer the store's migration."""
    resolved = database_url(url)
    if is_sqlite(resolved):
        return _sqlite_backup(_sqlite_file(resolved), target)
    with contextlib.suppress(FileExistsError):  # pg_dump keeps the mode of a file it overwrites
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    _pg_run("pg_dump", resolved, "--format=custom", f"--file={target}")
    return await _revision(resolved)


async def restore(url: str | None, source: Path) -> None:
    """Replace the content of the database at ``url`` by the backup ``source`` (migrating it
    is the caller's: :func:`bot.store.cli.upgrade_all`)."""
    if not source.is_file():
        raise StoreError(f"there is no backup file {source}", "no-backup")
    resolved = database_url(url)
    if is_sqlite(resolved):
        _sqlite_restore(source, _sqlite_file(resolved))
    else:
        _pg_run(
            "pg_restore",
            resolved,
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            str(source),
        )


def _sqlite_file(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise StoreError("an in-memory SQLite database has nothing to back up", "no-file")
    return Path(url.database)


async def _revision(url: URL) -> str:
    engine = create_engine(url)
    try:
        return await current_revision(engine, HISTORY) or "empty"
    finally:
        await engine.dispose()


def _harkness_store(connection: sqlite3.Connection, what: str) -> str:
    """The migration of the SQLite store ``connection`` is open on (refused if not one)."""
    try:
        rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.DatabaseError:
        raise StoreError(f"{what} is not a Harkness store", "not-a-store") from None
    return str(rows[0][0]) if rows else "empty"


def _sqlite_backup(database: Path, target: Path) -> str:
    """Snapshot ``database`` into ``target`` (written beside it, then renamed into place);
    answer the backup's migration."""
    if not database.is_file():
        raise StoreError(f"there is no SQLite database {database}", "no-database")
    target = target.resolve()
    handle, partial = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(handle)
    try:
        source = sqlite3.connect(database, timeout=SQLITE_TIMEOUT_S)
        try:
            _harkness_store(source, str(database))
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # one step: a snapshot; writers go on in the WAL
                copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
                revision = _harkness_store(copy, "the backup")
            finally:
                copy.close()
        finally:
            source.close()
        os.replace(partial, target)
        return revision
    finally:
        Path(partial).unlink(missing_ok=True)


def _sqlite_restore(source: Path, database: Path) -> None:
    """Copy the backup ``source`` over the content of ``database`` (created if absent)."""
    backup_file = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        _harkness_store(backup_file, str(source))
        into = sqlite3.connect(database, timeout=SQLITE_TIMEOUT_S)
        try:
            keep_private(database)
            backup_file.backup(into)
        finally:
            into.close()
    finally:
        backup_file.close()


def _pg_run(tool: str, url: URL, *arguments: str) -> None:
    """Run ``pg_dump`` or ``pg_restore`` against the database ``url``."""
    program = shutil.which(tool)
    if program is None:
        raise StoreError(
            f"{tool} is not installed: install PostgreSQL's client tools "
            "(Debian: apt install postgresql-client)",
            "no-pg-tools",
        )
    environment = dict(os.environ)
    if url.password is not None:
        environment["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    dsn = plain.render_as_string(hide_password=False)
    done = subprocess.run(
        [program, f"--dbname={dsn}", *arguments],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise StoreError(f"{tool} failed: {reason}", "pg-tool-failed")

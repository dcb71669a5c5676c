"""Which database, and how to talk to it: one async engine for SQLite or PostgreSQL.

The URL comes from the caller, else ``HARKNESS_DATABASE_URL``, else the embedded default,
a SQLite file ``./harkness.db``. Plain URLs are given their async driver, so an operator can
write ``postgresql://user@host/db`` or ``sqlite:///club.db``.

>>> database_url("postgres://td@127.0.0.1/harkness").render_as_string()
'postgresql+asyncpg://td@127.0.0.1/harkness'
>>> database_url("sqlite:///club.db").render_as_string()
'sqlite+aiosqlite:///club.db'

SQLite is set up for several processes sharing one file: write-ahead logging (readers never
wait for the writer), foreign keys enforced, a 30-second busy timeout, and write transactions
that start with ``BEGIN IMMEDIATE`` so two writers queue on the file lock instead of failing
when a read turns into a write. PostgreSQL needs nothing beyond its defaults.

A SQLite database is readable by the service's user only: each connection makes the file
private (mode 0600) before its ``-wal`` and ``-shm`` files are made, which SQLite gives the
database's mode (:func:`keep_private`).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from sheets.database.errors import DatabaseError

log = logging.getLogger("harkness.database")

ENVIRONMENT_VARIABLE = "HARKNESS_DATABASE_URL"
DEFAULT_URL = "sqlite+aiosqlite:///./harkness.db"
#: Execution option a connection sets to begin its transactions as writes.
WRITE = "harkness_write"
SQLITE_BUSY_TIMEOUT_S = 30

_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+pysqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+psycopg2": "postgresql+asyncpg",
    "postgresql+psycopg": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
}


def database_url(url: str | URL | None = None) -> URL:
    """The URL to use: ``url``, else ``$HARKNESS_DATABASE_URL``, else ``./harkness.db``
    (:class:`~sheets.database.errors.DatabaseError` when it names no database we support)."""
    raw = url if url is not None else os.environ.get(ENVIRONMENT_VARIABLE) or DEFAULT_URL
    try:
        parsed = make_url(raw)
    except ArgumentError:
        raise DatabaseError(
            f"{ENVIRONMENT_VARIABLE} is not a database URL: give sqlite:///path/harkness.db "
            "or postgresql://user@host/database",
            "bad-database-url",
        ) from None
    driver = _DRIVERS.get(parsed.drivername)
    if driver is None:
        raise DatabaseError(
            f"the database {parsed.drivername!r} is not supported: use SQLite "
            "(sqlite:///path/harkness.db) or PostgreSQL (postgresql://user@host/database)",
            "bad-database-url",
        )
    return parsed.set(drivername=driver)


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def create_engine(url: str | URL | None = None, **options: Any) -> AsyncEngine:
    """An async engine for ``url`` (see :func:`database_url`), set up for its backend."""
    resolved = database_url(url)
    if not is_sqlite(resolved):
        return create_async_engine(resolved, pool_pre_ping=True, **options)
    engine = create_async_engine(
        resolved, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S}, **options
    )
    event.listen(engine.sync_engine, "connect", _sqlite_connect)
    event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


#: What SQLite keeps beside a database file: the write-ahead log and its index.
SIDE_FILES = ("-wal", "-shm", "-journal")


def keep_private(path: Path) -> None:
    """Make the SQLite database ``path`` and its side files readable and writable by this user
    only. SQLite creates a new file with the process's umask (often 0644) and its ``-wal`` and
    ``-shm`` files with the database's mode, so this runs on each new connection before the
    switch to write-ahead logging; a file an older version or a copy left open to others is
    made private too, and said in the log.

    >>> import sqlite3, tempfile
    >>> path = Path(tempfile.mkdtemp()) / "club.db"
    >>> sqlite3.connect(path).close(); path.chmod(0o644); keep_private(path)
    >>> oct(path.stat().st_mode & 0o777)
    '0o600'
    """
    for file in (path, *(path.with_name(path.name + side) for side in SIDE_FILES)):
        try:
            found = file.stat()
        except FileNotFoundError:
            continue
        mode = stat.S_IMODE(found.st_mode)
        if not mode & 0o077:
            continue
        try:
            file.chmod(mode & 0o700)
        except PermissionError:
            log.warning("%s is open to other users and is not ours to make private", file)
            continue
        if found.st_size:  # a file SQLite has just made is empty: nothing was open to see
            log.warning("%s was open to other users: it is now private", file)


def _sqlite_connect(dbapi_connection: Any, connection_record: Any) -> None:
    # The driver's own BEGIN handling is switched off; _sqlite_begin emits BEGIN itself,
    # so that reads are transactional too and writes can take the lock up front.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_S * 1000}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA database_list")
    main = next((row[2] for row in cursor.fetchall() if row[1] == "main"), "")
    if main:  # "" for an in-memory database
        keep_private(Path(main))
    _use_wal(cursor)
    cursor.close()


def _use_wal(cursor: Any) -> None:
    """Switch the file to write-ahead logging, once for its lifetime (the mode persists).

    The switch needs the file to itself, and SQLite answers "database is locked" at once
    instead of waiting out the busy timeout when another process is connecting to a new
    file at the same moment; so it is retried, within the same timeout.
    """
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_S
    while True:
        cursor.execute("PRAGMA journal_mode")
        if str(cursor.fetchone()[0]).lower() == "wal":
            return
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _sqlite_begin(connection: Connection) -> None:
    write = connection.get_execution_options().get(WRITE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

"""SQLite serves one bot process: a second ``harkness-bot`` on the same file says so.

Several bot processes (Discord shards) share their work through the database: outbox rows
and spreadsheets are claimed by one process at a time (:mod:`bot.store.outbox`,
:mod:`sheets.fleet.leases`). That needs PostgreSQL; SQLite is the single-process default. So a
bot on a SQLite file holds an exclusive lock on a file beside it (``<database>.bot-lock``)
while it runs; the operating system drops it when the process ends, however it ends. A
second bot on the same file finds it held and stops before logging in, saying why. (The
store's own commands, ``python -m bot.store backup`` and the like, may still open the file
while the bot runs.)
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import URL

from sheets.database.engine import is_sqlite


class SharedSQLite(Exception):
    """Another bot process already runs on this SQLite database."""


def lock_path(url: URL) -> Path | None:
    """The lock file of a SQLite database file (None for PostgreSQL or an in-memory one).

    >>> from sheets.database.engine import database_url
    >>> lock_path(database_url("sqlite:///club/harkness.db"))
    PosixPath('club/harkness.db.bot-lock')
    >>> lock_path(database_url("postgresql://td@127.0.0.1/harkness")) is None
    True
    """
    if not is_sqlite(url) or url.database in (None, "", ":memory:"):
        return None
    return Path(f"{url.database}.bot-lock")


@contextlib.contextmanager
def sole_bot(url: URL) -> Iterator[None]:
    """Hold the SQLite database's bot lock for the block (nothing for PostgreSQL);
    :class:`SharedSQLite` when another bot process holds it."""
    path = lock_path(url)
    if path is None:
        yield
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # no such folder, read-only: opening the database says what is wrong
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SharedSQLite(
                f"another harkness-bot is already running on the SQLite database {url.database}: "
                "SQLite serves one bot process. To run several (Discord shards), give them one "
                "PostgreSQL database (HARKNESS_DATABASE_URL=postgresql://user@host/database)"
            ) from None
        yield
    finally:
        os.close(fd)

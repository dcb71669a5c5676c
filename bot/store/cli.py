"""``python -m bot.store``: the bot's database from a shell: migrations, backups, restores.

The database holds two histories of migrations: the store's (the results log,
:mod:`bot.store.migrations`) and the fleet's (the workers' coordination,
:mod:`sheets.fleet.migrations`); ``upgrade`` and ``restore`` bring both up to date, and a
backup is of the whole database. ``HARKNESS_DATABASE_URL`` (or ``--url``, or a file named by
``--url-file``) names it. A URL holding a password is refused on the command line, where every
user of the machine can read it (``ps``): give it in the environment or in a file::

    python -m bot.store upgrade                   # bring both histories to the newest schema
    python -m bot.store current                   # where the database is in each
    python -m bot.store revision "add x"          # write the store's next numbered migration
    python -m bot.store revision --fleet "add x"  # ... or the fleet's
    python -m bot.store backup FILE               # a backup, taken while the bot runs
    python -m bot.store restore FILE              # replace the content by a backup (bot stopped)

Exit status 0, or 2 with one line saying what is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.backup import backup, restore
from bot.store.errors import StoreError
from bot.store.migrations import HISTORY as STORE
from sheets.database.engine import create_engine
from sheets.database.errors import DatabaseError
from sheets.database.migrate import current_revision, new_revision, upgrade
from sheets.fleet.migrations import HISTORY as FLEET

#: The histories of the bot's database, in the order they are brought up to date.
HISTORIES = (STORE, FLEET)


def parser() -> argparse.ArgumentParser:
    commands = argparse.ArgumentParser(
        prog="python -m bot.store",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    named = commands.add_mutually_exclusive_group()
    named.add_argument(
        "--url", help="database URL without a password (default: $HARKNESS_DATABASE_URL)"
    )
    named.add_argument(
        "--url-file", type=Path, help="a file holding the database URL (it may hold a password)"
    )
    actions = commands.add_subparsers(dest="action", required=True)
    actions.add_parser("upgrade", help="bring the database to the newest schema")
    actions.add_parser("current", help="print the migrations the database is at")
    revision = actions.add_parser("revision", help="autogenerate the next migration")
    revision.add_argument("--fleet", action="store_true", help="of the fleet's history")
    revision.add_argument("message")
    saved = actions.add_parser("backup", help="write a backup of the database to FILE")
    saved.add_argument("file", type=Path)
    restored = actions.add_parser("restore", help="replace the database's content by FILE")
    restored.add_argument("file", type=Path)
    return commands


async def upgrade_all(engine: AsyncEngine) -> None:
    """Bring every history of the database (:data:`HISTORIES`) to its newest migration."""
    for history in HISTORIES:
        await upgrade(engine, history)


async def where(engine: AsyncEngine) -> str:
    """Where the database is in each history: ``store 0008, fleet 0001`` (``empty``: none
    of its migrations applied)."""
    at = [(h.name, await current_revision(engine, h) or "empty") for h in HISTORIES]
    return ", ".join(f"{name} {revision}" for name, revision in at)


async def _on_engine(options: argparse.Namespace) -> str | None:
    engine = create_engine(options.url)
    try:
        if options.action == "upgrade":
            await upgrade_all(engine)
            return f"at {await where(engine)}"
        if options.action == "restore":
            await restore(options.url, options.file)
            await upgrade_all(engine)
            return f"restored from {options.file} (now at {await where(engine)})"
        if options.action == "current":
            return await where(engine)
        await new_revision(engine, FLEET if options.fleet else STORE, options.message)
        return None
    finally:
        await engine.dispose()


async def _run(options: argparse.Namespace) -> str | None:
    if options.action == "backup":
        revision = await backup(options.url, options.file)
        return f"backed up to {options.file} (migration {revision})"
    return await _on_engine(options)


def url_of(options: argparse.Namespace) -> str | None:
    """The database URL the options name (None: the environment's, else the default)."""
    if options.url_file is not None:
        return str(options.url_file.read_text(encoding="utf-8").strip())
    if options.url is not None and make_url_password(options.url):
        raise StoreError(
            "--url holds a password, which every user of this machine can read on the "
            "command line (ps): put the URL in HARKNESS_DATABASE_URL or in a file named "
            "by --url-file",
            "password-on-command-line",
        )
    return str(options.url) if options.url is not None else None


def make_url_password(url: str) -> bool:
    """Whether the database URL ``url`` holds a password (a URL that is not one has none)."""
    try:
        return make_url(url).password is not None
    except ArgumentError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    """Run one action on the database; its result on stdout, or one line on stderr and 2."""
    options = parser().parse_args(argv)
    try:
        options.url = url_of(options)
        said = asyncio.run(_run(options))
    except (StoreError, DatabaseError, OSError) as error:
        print(f"python -m bot.store {options.action}: {error}", file=sys.stderr)
        return 2
    if said:
        print(said)
    return 0

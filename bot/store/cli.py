"""``python -m bot.store``: the store's migrations, backups and restores, from a shell.

``HARKNESS_DATABASE_URL`` (or ``--url``) names the database::

    python -m bot.store upgrade           # bring the database to the newest schema
    python -m bot.store current           # which migration the database is at
    python -m bot.store revision "add x"  # write the next numbered migration
    python -m bot.store backup FILE       # a backup, taken while the bot runs
    python -m bot.store restore FILE      # replace the content by a backup (bot stopped)

Exit status 0, or 2 with one line saying what is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.store.backup import backup, restore
from bot.store.engine import create_engine
from bot.store.errors import StoreError
from bot.store.migrate import current_revision, new_revision, upgrade


def parser() -> argparse.ArgumentParser:
    commands = argparse.ArgumentParser(
        prog="python -m bot.store",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands.add_argument("--url", help="database URL (default: $HARKNESS_DATABASE_URL)")
    actions = commands.add_subparsers(dest="action", required=True)
    actions.add_parser("upgrade", help="bring the database to the newest schema")
    actions.add_parser("current", help="print the migration the database is at")
    revision = actions.add_parser("revision", help="autogenerate the next migration")
    revision.add_argument("message")
    saved = actions.add_parser("backup", help="write a backup of the store to FILE")
    saved.add_argument("file", type=Path)
    restored = actions.add_parser("restore", help="replace the store's content by FILE")
    restored.add_argument("file", type=Path)
    return commands


async def _migrations(action: str, url: str | None, message: str | None) -> str | None:
    engine = create_engine(url)
    try:
        if action == "upgrade":
            await upgrade(engine)
            return f"at migration {await current_revision(engine)}"
        if action == "current":
            return await current_revision(engine) or "empty (no migration applied)"
        assert message is not None
        await new_revision(engine, message)
        return None
    finally:
        await engine.dispose()


async def _run(options: argparse.Namespace) -> str | None:
    if options.action == "backup":
        revision = await backup(options.url, options.file)
        return f"backed up to {options.file} (migration {revision})"
    if options.action == "restore":
        revision = await restore(options.url, options.file)
        return f"restored from {options.file} (now at migration {revision})"
    return await _migrations(options.action, options.url, getattr(options, "message", None))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one action on the store; its result on stdout, or one line on stderr and 2."""
    options = parser().parse_args(argv)
    try:
        said = asyncio.run(_run(options))
    except (StoreError, OSError) as error:
        print(f"python -m bot.store {options.action}: {error}", file=sys.stderr)
        return 2
    if said:
        print(said)
    return 0

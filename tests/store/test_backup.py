"""Backups taken while the bot writes, and restored: ``python -m bot.store backup|restore``
(SQLite's online backup API; ``pg_dump``/``pg_restore`` for PostgreSQL), run as an operator
runs them, in a process of their own beside the store that keeps writing. A backup is of the
whole database: the fleet's leases and sync jobs come back too."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from bot.store import Store
from core.render import to_json
from sheets.fleet import Fleet
from tests.store.conftest import GUILD, TD, Club, fresh_postgres_database, postgres_server

ROOT = Path(__file__).resolve().parents[2]
LEASE = timedelta(hours=1)  # held through the backup and the restore


async def store_command(url: str, *arguments: str) -> tuple[int, str, str]:
    """``python -m bot.store --url URL ARGUMENTS`` as an operator runs it: exit status,
    standard output and error."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.store",
        "--url",
        url,
        *arguments,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "HARKNESS_DATABASE_URL"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


@asynccontextmanager
async def _empty_database(like: str, tmp_path: Path) -> AsyncIterator[str]:
    """A second, empty database of the same engine as ``like``."""
    if like.startswith("sqlite"):
        yield f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
        return
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        missing = "PostgreSQL leg of backups: pg_dump and pg_restore are not on PATH"
        if os.environ.get("CI"):
            pytest.fail(missing, pytrace=False)
        pytest.skip(missing)
    async with fresh_postgres_database(postgres_server()) as url:
        yield url


async def _events(store: Store, tournament: str) -> list[tuple[int, str]]:
    history = await store.history(GUILD, tournament, limit=None)
    return [(view.event.seq, view.event.kind.value) for view in reversed(history)]


async def test_a_backup_taken_while_the_bot_writes_restores_the_same_standings(
    club: Club, db_url: str, examples: Path, tmp_path: Path
) -> None:
    store = club.store
    fleet = await Fleet.on(store.engine)  # the fleet's tables are backed up too
    assert await fleet.take_sheet("sheet-a", "harkness-bot:vm:7:aaaa1111", lease=LEASE)
    await fleet.request_sync("sheet-b", reason="edit")
    text = (examples / "club-swiss.trf").read_text(encoding="utf-8")
    await store.import_tournament(GUILD, "Swiss", text, actor=TD, filename="club-swiss.trf")
    swiss = to_json((await store.standings(GUILD, "Swiss")).standings)
    stop = asyncio.Event()
    written = 0

    async def keep_writing() -> None:  # the bot at work: a TD changing round 1 again and again
        nonlocal written
        while not stop.is_set():
            result = "win" if written % 2 else "loss"
            await store.set_result(
                GUILD, club.name, TD, round=1, player=1, opponent=2, result=result
            )
            written += 1
            await asyncio.sleep(0.01)

    writer = asyncio.create_task(keep_writing())
    try:
        while written < 5:
            await asyncio.sleep(0.01)
        before = written
        backup = tmp_path / "club.backup"
        status, stdout, stderr = await store_command(db_url, "backup", str(backup))
        during = written - before
    finally:
        stop.set()
        await writer
    assert (status, stderr) == (0, ""), stderr
    assert stdout.startswith(f"backed up to {backup} (migration ")
    assert during > 0  # the store kept taking writes while the backup ran
    original = await _events(store, club.name)

    async with _empty_database(db_url, tmp_path) as restored_url:
        status, stdout, stderr = await store_command(restored_url, "restore", str(backup))
        assert (status, stderr) == (0, ""), stderr
        assert stdout == f"restored from {backup} (now at store 0009, fleet 0001)\n"
        restored = await Store.open(restored_url)
        try:
            restored_fleet = await Fleet.on(restored.engine)
            assert await restored_fleet.sheet_holder("sheet-a") == "harkness-bot:vm:7:aaaa1111"
            assert await restored_fleet.syncs_waiting() != (0, None)
            assert to_json((await restored.standings(GUILD, "Swiss")).standings) == swiss
            events = await _events(restored, club.name)
            # A consistent snapshot: the log as it stood at one moment of the writing.
            assert len(events) > before and events == original[: len(events)]
            state = await restored.state(GUILD, club.name)
            assert len(state.tournament.players) == 4
        finally:
            await restored.close()


async def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    status, _, stderr = await store_command(url, "restore", str(junk))
    assert status == 2
    assert stderr.strip().splitlines() == [
        f"python -m bot.store restore: {junk} is not a Harkness store"
    ]
    status, _, stderr = await store_command(url, "backup", str(tmp_path / "b"))
    assert status == 2
    assert f"there is no SQLite database {tmp_path / 'club.db'}" in stderr

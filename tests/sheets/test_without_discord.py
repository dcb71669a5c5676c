"""A Sheets worker runs without the bot: ``pip install 'harkness[sheets]'`` brings no
discord.py, and ``harkness-sheets serve`` and ``watch`` on PostgreSQL (the fleet's tables in
a fresh database) start, do their work and stop cleanly in a process where ``import discord``
and ``import bot`` fail, as they would where discord.py is not installed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from sqlalchemy import func, inspect, select

from sheets.addon_keys import KEY_HEADER
from sheets.database.engine import create_engine
from sheets.fleet import schema
from tests.fakes.sheets_api import Op, SheetsFake
from tests.scrape import free_port, scrape
from tests.sheets.addon import Editor, new_key
from tests.sheets.conftest import seed_crosstable
from tests.store.conftest import fresh_postgres_database, postgres_server

ROOT = Path(__file__).resolve().parents[2]
MakeSheet = Callable[..., str]

#: ``harkness-sheets`` in a process where the bot cannot be imported: a finder first on
#: ``sys.meta_path`` refuses ``discord`` and ``bot`` (as a missing package would) and notes
#: every attempt, printed at exit, so that an ``ImportError`` swallowed on the way shows too.
WITHOUT_THE_BOT = """
import atexit, importlib.abc, sys

class WithoutTheBot(importlib.abc.MetaPathFinder):
    tried = []

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("discord", "bot"):
            WithoutTheBot.tried.append(name)
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, WithoutTheBot())
refused = lambda: print("imports refused:", sorted(set(WithoutTheBot.tried)), file=sys.stderr)
atexit.register(refused)
assert "discord" not in sys.modules and "bot" not in sys.modules
from sheets.cli import main
sys.exit(main(sys.argv[1:]))
"""


def requirements(extra: str) -> Iterator[Requirement]:
    """What ``harkness[extra]`` requires, by pyproject.toml (extras of harkness followed)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted, seen = [extra], set()
    yield from (Requirement(r) for r in project["dependencies"])
    while wanted:
        name = wanted.pop()
        seen.add(name)
        for line in project["optional-dependencies"][name]:
            requirement = Requirement(line)
            if canonicalize_name(requirement.name) == "harkness":
                wanted.extend(requirement.extras - seen)
            else:
                yield requirement


def installed_with(extra: str) -> set[str]:
    """Every distribution ``pip install 'harkness[extra]'`` installs here: the extra's
    requirements and, from their installed metadata, theirs, and so on."""
    found: set[str] = set()
    wanted = [(r.name, r.extras) for r in requirements(extra)]
    while wanted:
        name, extras = wanted.pop()
        key = canonicalize_name(name)
        if key in found:
            continue
        found.add(key)
        for line in metadata.requires(name) or []:
            requirement = Requirement(line)
            markers = [{"extra": e} for e in extras or {""}]
            if requirement.marker is None or any(requirement.marker.evaluate(m) for m in markers):
                wanted.append((requirement.name, requirement.extras))
    return found


def test_the_sheets_extra_brings_the_fleets_database_and_not_discord() -> None:
    worker = installed_with("sheets")
    assert {"sqlalchemy", "alembic", "asyncpg", "aiosqlite", "gspread"} <= worker
    assert "discord-py" not in worker
    assert "discord-py" in installed_with("bot")  # the check sees discord.py where it is


def _worker(command: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WITHOUT_THE_BOT, *command],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


async def _until(
    what: str, done: Callable[[], Awaitable[bool]], process: subprocess.Popen[str]
) -> None:
    deadline = time.monotonic() + 60
    while not await done():
        assert process.poll() is None, f"the worker stopped before {what}"
        assert time.monotonic() < deadline, f"not within 60 s: {what}"
        await asyncio.sleep(0.1)


def _stopped(process: subprocess.Popen[str]) -> str:
    """Stop the worker as systemd or docker would (SIGTERM); answer its log."""
    process.send_signal(signal.SIGTERM)
    _, log = process.communicate(timeout=30)
    return log


@pytest.fixture
async def database() -> AsyncIterator[str]:
    async with fresh_postgres_database(postgres_server()) as url:
        yield url


@pytest.fixture
def worker_env(sheets_env: dict[str, str], database: str) -> dict[str, str]:
    return {
        **os.environ,
        **sheets_env,
        "HARKNESS_DATABASE_URL": database,
        "HARKNESS_METRICS_PORT": str(free_port()),
    }


async def _fleet_tables(url: str) -> tuple[set[str], int]:
    """The tables of the database, and the sync jobs still in it."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            names = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            jobs = await conn.scalar(select(func.count()).select_from(schema.sync_jobs))
        return names, int(jobs or 0)
    finally:
        await engine.dispose()


async def test_serve_without_the_bot_takes_a_job_from_the_database_and_stops_cleanly(
    worker_env: dict[str, str],
    database: str,
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    make_editor: Callable[..., Editor],
) -> None:
    sheet = make_sheet({"Results": seed_crosstable()})
    key = new_key()
    make_editor("td", sheet).vouch(sheet, key)
    port = free_port()
    env = {
        **worker_env,
        "HARKNESS_SHEETS_PORT": str(port),
        "HARKNESS_SHEETS_DEBOUNCE": "0.2",
    }
    process = _worker(["serve"], env)
    try:
        await _until("serve answers", lambda: _answers(f"http://127.0.0.1:{port}/healthz"), process)
        for route, status in (("/connect", 200), ("/sync", 202)):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}{route}",
                data=json.dumps({"spreadsheetId": sheet, "reason": "edit"}).encode(),
                headers={KEY_HEADER: key, "Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == status

        async def synced() -> bool:
            written = sheets_fake.calls(sheet, operation=Op.BATCH_UPDATE, status=200)
            return bool(written) and (await _fleet_tables(database))[1] == 0

        await _until("the sync written and its job done", synced, process)
        samples = scrape(int(env["HARKNESS_METRICS_PORT"]))
    finally:
        log = _stopped(process)
    assert process.returncode == 0, log
    assert "imports refused: []" in log
    assert "the sync queue: in the database" in log
    assert sheets_fake.values(sheet, "Standings!C2") == [["Player A"]]
    names, jobs = await _fleet_tables(database)
    assert names == {"alembic_version_fleet", *schema.metadata.tables}  # the fleet's only
    assert jobs == 0
    assert samples[("harkness_sync_jobs_total", (("event", "run"),))] == 1
    assert not any(name.startswith("harkness_interactions") for name, _ in samples)


async def test_watch_without_the_bot_polls_within_the_shared_budget_and_stops_cleanly(
    worker_env: dict[str, str],
    database: str,
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    tmp_path: Path,
) -> None:
    sheet = make_sheet({"Results": seed_crosstable()})
    config = tmp_path / "sheets.toml"
    config.write_text(f'poll_interval = 1\nsyncs_per_minute = 600\nsheets = ["{sheet}"]\n')
    process = _worker(["watch", "--config", str(config)], worker_env)
    try:

        async def polled() -> bool:
            return sheets_fake.call_count(sheet) >= 2

        await _until("watch polls the sheet twice", polled, process)
    finally:
        log = _stopped(process)
    assert process.returncode == 0, log
    assert "imports refused: []" in log
    assert "the watch's budget and leases: in the database" in log
    assert sheets_fake.values(sheet, "Standings!C2") == [["Player A"]]
    names, _ = await _fleet_tables(database)
    assert "quota_budget" in names and "tournaments" not in names


def test_a_worker_that_reached_for_the_bot_would_fail_here(sheets_env: dict[str, str]) -> None:
    """The harness itself: a worker importing the bot, however lazily, cannot start."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            WITHOUT_THE_BOT.replace("from sheets.cli", "import bot.store\nfrom sheets.cli"),
            "--help",
        ],
        env={**os.environ, **sheets_env},
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "No module named 'bot'" in done.stderr
    assert "imports refused: ['bot']" in done.stderr


async def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except OSError:
        return False

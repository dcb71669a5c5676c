"""Fixtures for the Discord ↔ Google Sheets link: both loopback fakes at once.

The real bot (``bot.app.create_bot``, reading its settings from the environment) talks to
the fake Discord over HTTP and a websocket, and to the fake Google Sheets API over HTTP with
real gspread and google-auth, both on 127.0.0.1. Its store is a SQLite file, or a fresh
PostgreSQL database when a test is parametrized with ``database_url="postgresql"`` (as in
``tests/bot``). The fakes' fixtures come from :mod:`tests.fakes.discord_fixtures` and
:mod:`tests.fakes.sheets_fixtures`.

The bot's clock for "how fresh is what I read from the sheet" is a :class:`ManualClock` the
tests move, so a test never sleeps to make a read stale; the outbox's retries run on real
time, with waits of a fraction of a second (``HARKNESS_SHEETS_OUTBOX_*``).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.sheetlink import SheetLinks
from sheets.fleet import Fleet
from tests.bot.support import Club, running_tournament
from tests.fakes.discord_api import DiscordFake, MessageRecord
from tests.fakes.discord_fixtures import BotRunner
from tests.fakes.sheets_api import ManualClock, ServiceAccountKey, SheetsFake
from tests.fakes.sheets_fixtures import (
    service_account_file,
    sheets_env,
    sheets_fake,
    sheets_settings,
)

__all__ = ["service_account_file", "sheets_env", "sheets_fake", "sheets_settings"]

#: The outbox's timing in tests: retries after 0.2 s, at most 0.5 s apart; a command waits
#: up to 5 s for its result to reach the sheet.
FAST_OUTBOX = {
    "HARKNESS_SHEETS_OUTBOX_RETRY": "0.2",
    "HARKNESS_SHEETS_OUTBOX_MAX": "0.5",
    "HARKNESS_SHEETS_OUTBOX_POLL": "0.2",
    "HARKNESS_SHEETS_ANSWER_WAIT": "5",
}

#: The TD's results tab: a crosstable with a Discord column; the TD has typed round 1 of
#: Carol and Dave, and nothing of Alice and Bob yet.
RESULTS = [
    ["#", "Name", "Rating", "Discord", "Rd 1", "Rd 2", "Rd 3"],
    [1, "Alice", 1800, "", "", "", ""],
    [2, "Bob", 1750, "", "", "", ""],
    [3, "Carol", 1700, "", "W4 (w)", "", ""],
    [4, "Dave", 1650, "", "L3 (b)", "", ""],
]


def link_code(text: str) -> str | None:
    """The link code in the bot's answer to /tournament link-sheet, if it gave one."""
    found = re.search(r"`(HK-[A-Z0-9]{4}-[A-Z0-9]{4})`", text)
    return found[1] if found else None


def as_shown(rows: list[list[object]]) -> list[list[str]]:
    """Rows as the Sheets API reads them back: text, without trailing empty cells."""
    shown = []
    for row in rows:
        cells = [str(c) for c in row]
        while cells and not cells[-1]:
            cells.pop()
        shown.append(cells)
    return shown


@pytest.fixture
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database: a SQLite file, or (``"postgresql"``, indirectly) a new PostgreSQL
    database on ``HARKNESS_TEST_POSTGRES_URL`` (skipped locally without one, failing in CI)."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield f"sqlite:///{tmp_path / 'club.db'}"
        return
    from tests.store.conftest import fresh_postgres_database, postgres_server

    async with fresh_postgres_database(postgres_server()) as url:
        yield url


@pytest.fixture
def freshness() -> ManualClock:
    """The bot's clock for the freshness of what it read from a sheet."""
    return ManualClock()


class LinkedClub(Club):
    """The club's server with Harkness running, and the TD's spreadsheet in the fake."""

    def __init__(
        self,
        fake: DiscordFake,
        runner: BotRunner,
        sheets: SheetsFake,
        account: ServiceAccountKey,
        clock: ManualClock,
    ) -> None:
        super().__init__(fake, runner)
        self.sheets = sheets
        self.account = account
        self.clock = clock
        self.sheet_id = ""

    async def start(self) -> Any:
        bot = await super().start()
        assert bot.sheets is not None
        bot.sheets.clock = self.clock
        return bot

    @property
    def fleet(self) -> Fleet:
        """The bot's fleet: its leases on spreadsheets, the sync jobs it asks for."""
        assert self.bot is not None and self.bot.fleet is not None
        return self.bot.fleet

    @property
    def links(self) -> SheetLinks:
        assert self.bot is not None and self.bot.sheets is not None
        return self.bot.sheets

    def make_sheet(
        self,
        tabs: dict[str, list[list[Any]]] | None = None,
        *,
        title: str = "Club Night 2026",
        shared: bool = True,
        role: str = "writer",
    ) -> str:
        """The TD's spreadsheet (shared with the bot's service account unless told not)."""
        self.sheet_id = self.sheets.create_spreadsheet(
            title,
            tabs or {"Results": [list(row) for row in RESULTS]},
            shared_with=[self.account.email] if shared else [],
            role=role,
        )
        return self.sheet_id

    @property
    def url(self) -> str:
        return f"https://docs.google.com/spreadsheets/d/{self.sheet_id}/edit#gid=0"

    def values(self, a1: str) -> list[list[str]]:
        """What the sheet shows in a range (as a TD sees it)."""
        return self.sheets.values(self.sheet_id, a1)

    def tab(self, title: str) -> list[list[str]]:
        """Every row of a tab."""
        return self.sheets.values(self.sheet_id, f"'{title}'")

    def name_server(self, entry: str, sheet_id: str | None = None) -> None:
        """An editor of the sheet adds ``entry`` (a link code, or a server's id) to the Discord
        servers row of its Harkness tab, as the bot's instructions say (adding the tab, or
        the row, when the sheet has none)."""
        sheet = sheet_id or self.sheet_id
        typed = f"'{entry}" if entry.isdigit() else entry  # an id typed as text
        if "Harkness" not in self.sheets.sheet_titles(sheet):
            self.sheets.add_tab(sheet, "Harkness", [["Discord servers", typed]])
            return
        rows = self.sheets.values(sheet, "Harkness!A:B")
        for n, row in enumerate(rows, 1):
            if row and row[0].strip().lower() == "discord servers":
                before = row[1].strip() if len(row) > 1 else ""
                self.sheets.set_values(  # an id alone is typed as text; in a list it is text
                    sheet, f"Harkness!B{n}", [[f"{before}, {entry}" if before else typed]]
                )
                return
        self.sheets.set_values(sheet, f"Harkness!A{len(rows) + 1}", [["Discord servers", typed]])

    def unname_server(self, entry: str, sheet_id: str | None = None) -> None:
        """An editor of the sheet deletes ``entry`` from its Discord servers row."""
        sheet = sheet_id or self.sheet_id
        for n, row in enumerate(self.sheets.values(sheet, "Harkness!A:B"), 1):
            if row and row[0].strip().lower() == "discord servers" and len(row) > 1:
                kept = [e.strip() for e in row[1].split(",") if e.strip().lstrip("'") != entry]
                self.sheets.set_values(sheet, f"Harkness!B{n}", [[", ".join(kept)]])

    async def link(self, tournament: str = "Club Night") -> MessageRecord:
        """The TD links the tournament to the spreadsheet: the bot gives them a code, an
        editor of the sheet types it into its Harkness tab, the TD presses Link. The TD's
        answer that it is linked."""
        answer = await self.ask_to_link(tournament)
        code = link_code(answer.text)
        if code is None:  # the sheet names this server already
            return answer
        self.name_server(code)
        return await self.succeeded(await self.click("td", answer, "Link"))

    async def ask_to_link(self, tournament: str = "Club Night") -> MessageRecord:
        """The TD runs /tournament link-sheet: the answer (a code, or linked)."""
        return await self.ok(
            "td", "tournament link-sheet", {"url": self.url, "tournament": tournament}
        )

    async def settled(self, tournament: str = "Club Night", timeout: float = 30.0) -> None:
        """Wait (at most ``timeout`` seconds) until no result waits to be written."""
        await eventually(
            lambda: _nothing_pending(self, tournament), timeout, "every result written to the sheet"
        )

    def refresh(self) -> None:
        """Let the bot's last read of the sheet go stale (its freshness clock moves on)."""
        self.clock.advance(self.links.refresh_seconds + 1)


async def _nothing_pending(club: LinkedClub, tournament: str) -> bool:
    return not await club.store.linked.pending_writes(club.guild, tournament)


async def eventually(probe: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    """Wait until ``probe()`` is true, checking every 50 ms; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not await probe():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        await asyncio.sleep(0.05)


@pytest.fixture
async def club(
    discord_fake: DiscordFake,
    run_bot: BotRunner,
    discord_env: dict[str, str],
    sheets_env: dict[str, str],
    sheets_fake: SheetsFake,
    service_account_file: ServiceAccountKey,
    database_url: str,
    freshness: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[LinkedClub]:
    """Harkness logged in to the fake Discord, set up for the fake Google Sheets (from the
    environment), with a store of its own; no tournament yet."""
    monkeypatch.setenv("HARKNESS_DATABASE_URL", database_url)
    for name, value in FAST_OUTBOX.items():
        monkeypatch.setenv(name, value)
    club = LinkedClub(discord_fake, run_bot, sheets_fake, service_account_file, freshness)
    async with club.running():
        yield club


@pytest.fixture
async def linked(club: LinkedClub) -> LinkedClub:
    """Club Night (Alice, Bob, Carol, Dave: #1–#4, as on the sheet) running in Discord and
    linked by the TD to the spreadsheet of :data:`RESULTS`."""
    await running_tournament(club, rounds=3)
    club.make_sheet()
    await club.link()
    return club


@pytest.fixture
async def unconfigured(
    discord_fake: DiscordFake,
    run_bot: BotRunner,
    discord_env: dict[str, str],
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Club]:
    """Harkness without any Google Sheets settings (no ``GOOGLE_APPLICATION_CREDENTIALS``)."""
    monkeypatch.setenv("HARKNESS_DATABASE_URL", database_url)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    club = Club(discord_fake, run_bot)
    async with club.running():
        yield club

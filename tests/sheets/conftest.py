"""Fixtures for the Sheets worker's tests: the loopback Sheets fake, a client, the seed.

The fake's fixtures (``sheets_fake``, ``service_account_file``, ``sheets_settings``,
``sheets_env``) come from :mod:`tests.fakes.sheets_fixtures`. They are imported here rather
than listed in ``pytest_plugins``, because pytest only honours ``pytest_plugins`` in the
top-level conftest when the whole suite runs (it refuses it in ``tests/sheets/conftest.py``).

Every test runs the real worker with real gspread and google-auth over real HTTP, against
the fake on 127.0.0.1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.examples import example_path, load_example
from core.model import Colour, EntryKind
from sheets.client import SheetsClient, open_client
from sheets.settings import SheetsSettings
from sheets.settings_tab import default_rows
from sheets.sync import SyncResult, sync
from tests.fakes.sheets_api import ServiceAccountKey, SheetsFake, generate_service_account
from tests.fakes.sheets_fixtures import (
    service_account_file,
    sheets_env,
    sheets_fake,
    sheets_settings,
)
from tests.sheets.addon import Editor

__all__ = ["service_account_file", "sheets_env", "sheets_fake", "sheets_settings"]


def seed_crosstable() -> list[list[str]]:
    """Seed 000 (``core/examples/mdchess-scholastic.txt``) as the rows a TD would paste."""
    text = Path(example_path()).read_text(encoding="utf-8")
    return [re.split(r"\s{2,}", line.strip()) for line in text.splitlines() if line.strip()]


def seed_game_list() -> tuple[list[list[Any]], list[list[Any]]]:
    """Seed 000 as a game list (White by name, Black by number) and its players tab."""
    tournament = load_example()
    players: list[list[Any]] = [["#", "Name"]] + [[p.id, p.name] for p in tournament]
    results = {EntryKind.WIN: "1-0", EntryKind.LOSS: "0-1", EntryKind.DRAW: "½-½"}
    games: list[list[Any]] = [["Round", "Board", "White", "Black", "Result"]]
    for r in range(1, tournament.rounds + 1):
        board = 0
        for p in tournament:
            entry = p.entries[r - 1]
            if entry.colour is Colour.WHITE:
                board += 1
                games.append([r, board, p.name, entry.opponent, results[entry.kind]])
    return games, players


def settings_rows(**values: str) -> list[list[str]]:
    """The ``Harkness`` settings tab with some values changed, by label
    (``settings_rows(Rules="mdchess")``; underscores stand for spaces)."""
    rows = default_rows()
    for label, value in values.items():
        wanted = label.replace("_", " ").lower()
        row = next(row for row in rows if row[0].lower() == wanted)
        row[1] = value
    return rows


@pytest.fixture
def client(sheets_settings: SheetsSettings) -> SheetsClient:
    """The worker's client (real gspread and google-auth), pointed at the fake."""
    return open_client(sheets_settings)


@pytest.fixture
def make_sheet(
    sheets_fake: SheetsFake, service_account_file: ServiceAccountKey
) -> Callable[..., str]:
    """Create a spreadsheet shared with the worker's service account; answer its id."""

    def make(
        tabs: dict[str, list[list[Any]]],
        title: str = "Spring Swiss",
        value_input: str = "USER_ENTERED",
    ) -> str:
        return sheets_fake.create_spreadsheet(
            title, tabs, shared_with=[service_account_file.email], value_input=value_input
        )

    return make


@pytest.fixture
def run_sync(client: SheetsClient) -> Callable[[str], SyncResult]:
    """Sync a spreadsheet with the worker's client."""
    return lambda spreadsheet_id: sync(client, spreadsheet_id)


@pytest.fixture
def make_editor(
    sheets_fake: SheetsFake, sheets_settings: SheetsSettings, tmp_path: Path
) -> Callable[..., Editor]:
    """A person with a Google account of their own (a key the fake knows), given ``role``
    (``writer``: an editor; ``reader``: a viewer) on the spreadsheets named."""

    def make(name: str, *sheets: str, role: str = "writer") -> Editor:
        key = generate_service_account(
            sheets_fake, tmp_path, email=f"{name}@club.example", project_id=f"{name}-project"
        )
        for sheet in sheets:
            sheets_fake.share(sheet, key.email, role)
        settings = sheets_settings.model_copy(update={"google_application_credentials": key.path})
        return Editor(key.email, open_client(settings))

    return make

"""The fleet's history of migrations: its scripts (``versions/``), recorded in the database's
``alembic_version_fleet`` table, beside the store's history (see
:mod:`sheets.database.migrate`)."""

from __future__ import annotations

from pathlib import Path

from sheets.database.migrate import History
from sheets.fleet.schema import metadata

HISTORY = History("fleet", Path(__file__).resolve().parent, "alembic_version_fleet", metadata)

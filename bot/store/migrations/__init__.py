"""The store's history of migrations: its scripts (``versions/``), recorded in the database's
``alembic_version`` table, beside the fleet's history (see :mod:`sheets.database.migrate`)."""

from __future__ import annotations

from pathlib import Path

from bot.store.schema import metadata
from sheets.database.migrate import History

HISTORY = History("store", Path(__file__).resolve().parent, "alembic_version", metadata)

"""Alembic's environment for the fleet's history: its migrations, run by
:func:`sheets.database.migrate.run_environment`."""

from sheets.database.migrate import run_environment

run_environment()

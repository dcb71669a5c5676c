"""Alembic's scripts for the store (see :mod:`bot.store.migrate`)."""

"""Sync jobs routed among several service accounts: once ``sheet_accounts``, ``sync_workers``
and three columns of ``sync_jobs``, now the fleet's.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01

This migration made the workers' coordination tables while they lived in the store. They
moved to the fleet's own history (``sheets/fleet/migrations``, recorded in
``alembic_version_fleet``), whose first migration adopts the tables this one made, rows and
all, and creates them where it did not run. So it does nothing now, either way: a bot-only
database has no coordination tables, and downgrading the store leaves the fleet's alone. It
stays in the store's history so that a database already past it is at a revision the store
knows.
"""

from __future__ import annotations

from collections.abc import Sequence

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass

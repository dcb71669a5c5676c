"""Sync jobs routed among several service accounts: the account that opens each sheet
(``sheet_accounts``, ``sync_jobs.account``), the running workers' accounts
(``sync_workers``), the accounts that could not open a job's sheet and jobs set aside
because none can (``sync_jobs.refused_by``, ``sync_jobs.parked_at``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sync_jobs") as batch:
        batch.add_column(sa.Column("account", sa.String(length=320), nullable=True))
        batch.add_column(sa.Column("refused_by", sa.Text(), nullable=True))
        batch.add_column(sa.Column("parked_at", sa.DateTime(), nullable=True))
    op.create_table(
        "sheet_accounts",
        sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
        sa.Column("account", sa.String(length=320), nullable=False),
        sa.Column("since", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("spreadsheet_id", name=op.f("pk_sheet_accounts")),
    )
    op.create_table(
        "sync_workers",
        sa.Column("worker", sa.String(length=64), nullable=False),
        sa.Column("account", sa.String(length=320), nullable=False),
        sa.Column("seen_until", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("worker", name=op.f("pk_sync_workers")),
    )


def downgrade() -> None:
    op.drop_table("sync_workers")
    op.drop_table("sheet_accounts")
    with op.batch_alter_table("sync_jobs") as batch:
        batch.drop_column("parked_at")
        batch.drop_column("refused_by")
        batch.drop_column("account")

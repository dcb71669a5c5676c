"""Durable, coalesced sync jobs any worker process runs (``sync_jobs``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sync_jobs",
        sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
        sa.Column("first_at", sa.DateTime(), nullable=False),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.Column("due_at", sa.DateTime(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("spreadsheet_id", name=op.f("pk_sync_jobs")),
    )
    op.create_index(op.f("ix_sync_jobs_due_at"), "sync_jobs", ["due_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_sync_jobs_due_at"), table_name="sync_jobs")
    op.drop_table("sync_jobs")

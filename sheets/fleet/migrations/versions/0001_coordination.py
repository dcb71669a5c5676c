"""The fleet's tables, adopted where the store's history made them, created where not:
sheet leases, sync jobs routed among service accounts, the account that opens each sheet,
the running workers, and each account's budget.

Revision ID: 0001
Revises:
Create Date: 2026-12-02

These tables coordinate the processes that share Google; they were made by the store's
migrations 0005–0008 while the workers' coordination lived in the store. They belong to
this history now, recorded in ``alembic_version_fleet``, and the store's 0005–0008 no
longer make them (they stay in its history, empty, so that a database already past them is
at a revision the store knows). A database meets this migration in one of these states,
and each ends with the tables of :mod:`sheets.fleet.schema`:

- at the store's 0008 (or a step before it): each table the store's history made is
  *adopted* as it is, rows and all, so leases and syncs in flight go on; a ``sync_jobs``
  made before the store's 0008 gets the three routing columns that migration added; a
  table the database lacks is created;
- a new database, or one whose store never made these tables (a worker's; a bot's before
  the store's 0005; a bot's made after the move, in either order of opening): created.

Why adopt, not copy into new tables: the rows (a lease held, a sync claimed) stay where the
running processes look for them, nothing is locked beyond this migration's transaction, and
an old process still running during a rolling upgrade sees the same tables. Why look at the
tables, not at the store's revision: which history runs first depends on which process
starts first (a worker opens only this one), and an empty 0005–0008 says nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _routing_columns() -> list[sa.Column[Any]]:
    """The columns the store's 0008 added to ``sync_jobs`` (routing among service accounts)."""
    return [
        sa.Column("account", sa.String(length=320), nullable=True),
        sa.Column("refused_by", sa.Text(), nullable=True),
        sa.Column("parked_at", sa.DateTime(), nullable=True),
    ]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    there = set(inspector.get_table_names())
    if "sheet_leases" not in there:
        op.create_table(
            "sheet_leases",
            sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
            sa.Column("holder", sa.String(length=64), nullable=False),
            sa.Column("until", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("spreadsheet_id", name=op.f("pk_sheet_leases")),
        )
    if "sync_jobs" not in there:
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
            *_routing_columns(),
            sa.PrimaryKeyConstraint("spreadsheet_id", name=op.f("pk_sync_jobs")),
        )
        op.create_index(op.f("ix_sync_jobs_due_at"), "sync_jobs", ["due_at"], unique=False)
    else:
        columns = {column["name"] for column in inspector.get_columns("sync_jobs")}
        missing = [c for c in _routing_columns() if c.name not in columns]
        if missing:
            with op.batch_alter_table("sync_jobs") as batch:
                for column in missing:
                    batch.add_column(column)
    if "sheet_accounts" not in there:
        op.create_table(
            "sheet_accounts",
            sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
            sa.Column("account", sa.String(length=320), nullable=False),
            sa.Column("since", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("spreadsheet_id", name=op.f("pk_sheet_accounts")),
        )
    if "sync_workers" not in there:
        op.create_table(
            "sync_workers",
            sa.Column("worker", sa.String(length=64), nullable=False),
            sa.Column("account", sa.String(length=320), nullable=False),
            sa.Column("seen_until", sa.DateTime(), nullable=False),
            sa.PrimaryKeyConstraint("worker", name=op.f("pk_sync_workers")),
        )
    if "quota_budget" not in there:
        op.create_table(
            "quota_budget",
            sa.Column("account", sa.String(length=320), nullable=False),
            sa.Column("uses", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("account", name=op.f("pk_quota_budget")),
        )


def downgrade() -> None:
    op.drop_table("quota_budget")
    op.drop_table("sync_workers")
    op.drop_table("sheet_accounts")
    op.drop_index(op.f("ix_sync_jobs_due_at"), table_name="sync_jobs")
    op.drop_table("sync_jobs")
    op.drop_table("sheet_leases")

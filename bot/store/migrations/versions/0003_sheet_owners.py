"""A spreadsheet belongs to the Discord server that first linked it (``sheet_owners``);
spreadsheets linked before this revision belong to the server that linked them first.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sheet_owners",
        sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("spreadsheet_id", name=op.f("pk_sheet_owners")),
    )
    # Each linked spreadsheet goes to the server of its earliest link (then lowest id).
    op.execute(
        "INSERT INTO sheet_owners (spreadsheet_id, guild_id, claimed_by, claimed_at) "
        "SELECT t.sheet_id, t.guild_id, COALESCE(t.sheet_linked_by, t.created_by), "
        "COALESCE(t.sheet_linked_at, t.created_at) FROM tournaments t "
        "WHERE t.sheet_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tournaments u "
        "WHERE u.sheet_id = t.sheet_id AND (COALESCE(u.sheet_linked_at, u.created_at) < "
        "COALESCE(t.sheet_linked_at, t.created_at) OR (COALESCE(u.sheet_linked_at, "
        "u.created_at) = COALESCE(t.sheet_linked_at, t.created_at) AND u.id < t.id)))"
    )


def downgrade() -> None:
    op.drop_table("sheet_owners")

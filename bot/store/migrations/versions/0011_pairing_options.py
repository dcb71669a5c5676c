"""Pairing options a TD sets in Discord: players kept apart (``kept_apart``: a group of
player ids a row) and the accelerated method announced (``tournaments.acceleration``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("acceleration", sa.String(length=16), nullable=True))
    op.create_table(
        "kept_apart",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("added_by", sa.String(length=64), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id", "tournament_id"],
            ["tournaments.guild_id", "tournaments.id"],
            name=op.f("fk_kept_apart_guild_id_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kept_apart")),
    )
    op.create_index(
        op.f("ix_kept_apart_guild_id_tournament_id"),
        "kept_apart",
        ["guild_id", "tournament_id"],
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_kept_apart_guild_id_tournament_id"), table_name="kept_apart")
    op.drop_table("kept_apart")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("acceleration")

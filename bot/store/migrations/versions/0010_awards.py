"""A tournament's prize list set in Discord (``/prizes``): ``prize_lists`` (the method, the
currency and who set it), ``prizes`` (one row a prize, in the order announced) and
``player_awards`` (each player's categories, team and personal limit).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _of_a_tournament(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["guild_id", "tournament_id"],
        ["tournaments.guild_id", "tournaments.id"],
        name=op.f(f"fk_{table}_guild_id_tournament_id_tournaments"),
    )


def _index(table: str) -> None:
    op.create_index(
        op.f(f"ix_{table}_guild_id_tournament_id"), table, ["guild_id", "tournament_id"]
    )


def upgrade() -> None:
    op.create_table(
        "prize_lists",
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("currency", sa.String(length=10), nullable=False),
        sa.Column("trophy_follows_money", sa.Boolean(), nullable=False),
        sa.Column("team_count", sa.Integer(), nullable=False),
        sa.Column("updated_by", sa.String(length=64), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        _of_a_tournament("prize_lists"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_prize_lists")),
    )
    _index("prize_lists")
    op.create_table(
        "prizes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("fields", sa.Text(), nullable=False),
        _of_a_tournament("prizes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_prizes")),
        sa.UniqueConstraint(
            "tournament_id", "name_key", name=op.f("uq_prizes_tournament_id_name_key")
        ),
        sa.UniqueConstraint(
            "tournament_id", "position", name=op.f("uq_prizes_tournament_id_position")
        ),
    )
    _index("prizes")
    op.create_table(
        "player_awards",
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("categories", sa.Text(), nullable=False),
        sa.Column("team", sa.String(length=100), nullable=True),
        sa.Column("cash_limit", sa.String(length=20), nullable=True),
        sa.Column("updated_by", sa.String(length=64), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        _of_a_tournament("player_awards"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player_id"],
            ["players.tournament_id", "players.id"],
            name=op.f("fk_player_awards_tournament_id_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_player_awards")),
    )
    _index("player_awards")


def downgrade() -> None:
    op.drop_table("player_awards")
    op.drop_table("prizes")
    op.drop_table("prize_lists")

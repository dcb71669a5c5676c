"""Where each report with Confirm/Dispute buttons was posted (``report_messages``), so the
bot can take the buttons away when the report is answered another way.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "report_messages",
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("event_seq", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.String(length=32), nullable=False),
        sa.Column("message_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id", "tournament_id"],
            ["tournaments.guild_id", "tournaments.id"],
            name=op.f("fk_report_messages_guild_id_tournament_id_tournaments"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "event_seq"],
            ["events.tournament_id", "events.seq"],
            name=op.f("fk_report_messages_tournament_id_event_seq_events"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "event_seq", name=op.f("pk_report_messages")),
    )


def downgrade() -> None:
    op.drop_table("report_messages")

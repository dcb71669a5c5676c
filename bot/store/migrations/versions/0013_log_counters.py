"""Tournaments count their players' changes (``players_version``: a join, an import, a link),
so a process that keeps a tournament's fold knows from one row whether its roster is still
the database's; and the results log is indexed by round (an undo replays again the events of
the round it changes) and by the event an event answers or undoes, so neither reads the
whole log.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(
            sa.Column("players_version", sa.Integer(), nullable=False, server_default="0")
        )
    op.create_index(
        op.f("ix_events_tournament_id_round_seq"), "events", ["tournament_id", "round", "seq"]
    )
    op.create_index(
        op.f("ix_events_tournament_id_refers_to"), "events", ["tournament_id", "refers_to"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_events_tournament_id_refers_to"), table_name="events")
    op.drop_index(op.f("ix_events_tournament_id_round_seq"), table_name="events")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("players_version")

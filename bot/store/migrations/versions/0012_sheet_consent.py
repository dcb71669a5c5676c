"""A spreadsheet is used only by the Discord servers it names: the link codes TDs are given
(``sheet_link_codes``), and a grace period for the servers that linked a sheet first before
(``sheet_owners.grace_until``: they go on using it, while its "Discord servers" row is
empty, for :data:`GRACE` from this upgrade).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: How long a server that linked a sheet first, before sheets named their servers, goes on
#: using it without being named (:data:`bot.store.linked.LEGACY_GRACE`, copied here: a
#: migration never changes with the code).
GRACE = timedelta(days=14)


def upgrade() -> None:
    with op.batch_alter_table("sheet_owners") as batch:
        batch.add_column(sa.Column("grace_until", sa.DateTime(), nullable=True))
    owners = sa.table("sheet_owners", sa.column("grace_until", sa.DateTime()))
    until = (datetime.now(UTC) + GRACE).replace(tzinfo=None)  # stored as naive UTC
    op.execute(owners.update().values(grace_until=until))
    op.create_table(
        "sheet_link_codes",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
        sa.Column("requested_by", sa.String(length=64), nullable=False),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["guild_id", "tournament_id"],
            ["tournaments.guild_id", "tournaments.id"],
            name=op.f("fk_sheet_link_codes_guild_id_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_sheet_link_codes")),
    )
    op.create_index(
        op.f("ix_sheet_link_codes_guild_id_spreadsheet_id"),
        "sheet_link_codes",
        ["guild_id", "spreadsheet_id"],
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_sheet_link_codes_guild_id_spreadsheet_id"), "sheet_link_codes")
    op.drop_table("sheet_link_codes")
    with op.batch_alter_table("sheet_owners") as batch:
        batch.drop_column("grace_until")
    # Before this revision a sheet belonged to its first server: give each sheet linked
    # since an owner, the server of its earliest link (then lowest id), as revision 0003 did.
    op.execute(
        "INSERT INTO sheet_owners (spreadsheet_id, guild_id, claimed_by, claimed_at) "
        "SELECT t.sheet_id, t.guild_id, COALESCE(t.sheet_linked_by, t.created_by), "
        "COALESCE(t.sheet_linked_at, t.created_at) FROM tournaments t "
        "WHERE t.sheet_id IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM sheet_owners o WHERE o.spreadsheet_id = t.sheet_id) "
        "AND NOT EXISTS (SELECT 1 FROM tournaments u "
        "WHERE u.sheet_id = t.sheet_id AND (COALESCE(u.sheet_linked_at, u.created_at) < "
        "COALESCE(t.sheet_linked_at, t.created_at) OR (COALESCE(u.sheet_linked_at, "
        "u.created_at) = COALESCE(t.sheet_linked_at, t.created_at) AND u.id < t.id)))"
    )

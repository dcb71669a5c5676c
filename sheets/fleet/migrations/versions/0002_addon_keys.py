"""The add-on's keys: the hashes each spreadsheet vouches for (``addon_keys``).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

Each row is the SHA-256 of one editor's add-on key for one spreadsheet, as the sheet's
developer metadata held it when an editor connected it (:mod:`sheets.addon_keys`); every
``serve`` process on the database accepts that key for that sheet. A new table: nothing to
adopt, and the worker-wide secret it replaces was never stored.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "addon_keys",
        sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("since", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("spreadsheet_id", "digest", name=op.f("pk_addon_keys")),
    )


def downgrade() -> None:
    op.drop_table("addon_keys")

"""One Google quota budget per service account across every worker (``quota_budget``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "quota_budget",
        sa.Column("account", sa.String(length=320), nullable=False),
        sa.Column("uses", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("account", name=op.f("pk_quota_budget")),
    )


def downgrade() -> None:
    op.drop_table("quota_budget")

"""Tournament names are compared without the characters that show nothing (zero-width spaces
and joiners, soft hyphens, fillers) and in one Unicode composition
(:func:`core.names.name_key`): each tournament's ``name_key`` is computed again.

Two tournaments of one server whose names differed only by such characters would now have
the same key, which the database refuses: the first made keeps the new key, the others keep
the key they had (still found by autocomplete), and the upgrade goes on.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from core.names import name_key

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_tournaments = sa.table(
    "tournaments",
    sa.column("id", sa.Integer),
    sa.column("guild_id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(
            _tournaments.c.id, _tournaments.c.guild_id, _tournaments.c.name, _tournaments.c.name_key
        ).order_by(_tournaments.c.id)
    ).all()
    taken = {(row.guild_id, row.name_key) for row in rows}
    for row in rows:
        key = name_key(row.name)
        if key == row.name_key or (row.guild_id, key) in taken:
            continue
        taken.discard((row.guild_id, row.name_key))
        taken.add((row.guild_id, key))
        connection.execute(
            sa.update(_tournaments).where(_tournaments.c.id == row.id).values(name_key=key)
        )


def downgrade() -> None:
    pass  # the keys made here are still keys the older code finds by what it is typed

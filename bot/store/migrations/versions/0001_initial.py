"""The first schema: tournaments, players, the results log, guild settings, sheet outbox.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_by", sa.String(length=64), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "key", name=op.f("pk_guild_settings")),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("profile", sa.String(length=32), nullable=False),
        sa.Column("tiebreaks", sa.String(length=200), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("start_date", sa.String(length=10), nullable=False),
        sa.Column("end_date", sa.String(length=10), nullable=False),
        sa.Column("round_robin", sa.Boolean(), nullable=True),
        sa.Column("records", sa.Text(), nullable=False),
        sa.Column("sheet_id", sa.String(length=128), nullable=True),
        sa.Column("sheet_url", sa.String(length=512), nullable=True),
        sa.Column("sheet_linked_by", sa.String(length=64), nullable=True),
        sa.Column("sheet_linked_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'finished')", name=op.f("ck_tournaments_status")
        ),
        sa.CheckConstraint("rounds >= 1", name=op.f("ck_tournaments_rounds")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("guild_id", "id", name=op.f("uq_tournaments_guild_id_id")),
        sa.UniqueConstraint("guild_id", "name_key", name=op.f("uq_tournaments_guild_id_name_key")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("discord_id", sa.String(length=32), nullable=True),
        sa.Column("uscf_id", sa.String(length=16), nullable=True),
        sa.Column("fide_id", sa.String(length=16), nullable=True),
        sa.Column("title", sa.String(length=3), nullable=False),
        sa.Column("sex", sa.String(length=1), nullable=False),
        sa.Column("federation", sa.String(length=3), nullable=False),
        sa.Column("birth_date", sa.String(length=10), nullable=False),
        sa.Column("late_entry_round", sa.Integer(), nullable=True),
        sa.Column("added_by", sa.String(length=64), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("number >= 1", name=op.f("ck_players_number")),
        sa.ForeignKeyConstraint(
            ["guild_id", "tournament_id"],
            ["tournaments.guild_id", "tournaments.id"],
            name=op.f("fk_players_guild_id_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint(
            "tournament_id", "discord_id", name=op.f("uq_players_tournament_id_discord_id")
        ),
        sa.UniqueConstraint("tournament_id", "id", name=op.f("uq_players_tournament_id_id")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_players_tournament_id_number")
        ),
    )
    op.create_index(
        op.f("ix_players_guild_id_tournament_id"), "players", ["guild_id", "tournament_id"]
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("opponent_id", sa.Integer(), nullable=True),
        sa.Column("result", sa.String(length=32), nullable=True),
        sa.Column("colour", sa.String(length=1), nullable=True),
        sa.Column("refers_to", sa.Integer(), nullable=True),
        sa.Column("supersedes", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("actor_name", sa.String(length=100), nullable=False),
        sa.Column("td", sa.Boolean(), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_events_seq")),
        sa.ForeignKeyConstraint(
            ["guild_id", "tournament_id"],
            ["tournaments.guild_id", "tournaments.id"],
            name=op.f("fk_events_guild_id_tournament_id_tournaments"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "opponent_id"],
            ["players.tournament_id", "players.id"],
            name=op.f("fk_events_tournament_id_opponent_id_players"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player_id"],
            ["players.tournament_id", "players.id"],
            name=op.f("fk_events_tournament_id_player_id_players"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "refers_to"],
            ["events.tournament_id", "events.seq"],
            name=op.f("fk_events_tournament_id_refers_to_events"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "supersedes"],
            ["events.tournament_id", "events.seq"],
            name=op.f("fk_events_tournament_id_supersedes_events"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("tournament_id", "seq", name=op.f("uq_events_tournament_id_seq")),
    )
    op.create_index(
        op.f("ix_events_guild_id_tournament_id"), "events", ["guild_id", "tournament_id"]
    )
    op.create_table(
        "sheet_outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("event_seq", sa.Integer(), nullable=False),
        sa.Column("spreadsheet_id", sa.String(length=128), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(), nullable=True),
        sa.Column("written_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["guild_id", "tournament_id"],
            ["tournaments.guild_id", "tournaments.id"],
            name=op.f("fk_sheet_outbox_guild_id_tournament_id_tournaments"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "event_seq"],
            ["events.tournament_id", "events.seq"],
            name=op.f("fk_sheet_outbox_tournament_id_event_seq_events"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sheet_outbox")),
        sa.UniqueConstraint(
            "tournament_id", "event_seq", name=op.f("uq_sheet_outbox_tournament_id_event_seq")
        ),
    )
    op.create_index(
        op.f("ix_sheet_outbox_guild_id_tournament_id"),
        "sheet_outbox",
        ["guild_id", "tournament_id"],
    )
    op.create_index(
        op.f("ix_sheet_outbox_written_at_next_attempt_at"),
        "sheet_outbox",
        ["written_at", "next_attempt_at"],
    )


def downgrade() -> None:
    op.drop_table("sheet_outbox")
    op.drop_table("events")
    op.drop_table("players")
    op.drop_table("tournaments")
    op.drop_table("guild_settings")

"""The store's tables (SQLAlchemy Core), the single description of the schema.

Migrations in ``bot/store/migrations/versions/`` create exactly these tables; a test
compares the two on SQLite and PostgreSQL so they cannot drift apart.

Every table carries ``guild_id`` (the tenant: a Discord guild, or another key for
non-Discord use) and every query filters on it. Rows that belong to a tournament point to
it with the pair ``(guild_id, tournament_id)``, so the database itself refuses a player or
an event that would sit in one guild's tournament under another guild's key.

Results live in ``events``, an append-only log: rows are inserted, never updated or deleted.
``seq`` numbers a tournament's events 1, 2, 3, … and is unique per tournament, which is what
makes two concurrent writers of the same tournament conflict instead of both succeeding.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

#: Constraint names are fixed so migrations, error messages and both engines agree.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC, stored without a zone and read back as an aware ``datetime``.

    SQLite keeps no time zone, so both engines store naive UTC and the store converts at
    the edge; comparisons in SQL (leases, retry times) then work the same everywhere.
    """

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("the store keeps aware datetimes only (use datetime.now(UTC))")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):  # pragma: no cover - SQLite returns datetime already
            value = datetime.fromisoformat(value)
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC)


GUILD = String(64)
USER = String(64)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", GUILD, nullable=False),
    Column("name", String(100), nullable=False),
    # The name as compared: trimmed, single-spaced, case-folded ("Spring  open" = "spring open").
    Column("name_key", String(100), nullable=False),
    Column("profile", String(32), nullable=False),
    Column("tiebreaks", String(200), nullable=True),
    # The TD's profile options as text (core.profiles.format_options); NULL: the profile's.
    Column("options", String(200), nullable=True),
    Column("rounds", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_by", USER, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("start_date", String(10), nullable=False),
    Column("end_date", String(10), nullable=False),
    Column("round_robin", Boolean, nullable=True),
    # Other TRF-16 header records, as a JSON list of [code, text], so imports round-trip.
    Column("records", Text, nullable=False),
    Column("sheet_id", String(128), nullable=True),
    Column("sheet_url", String(512), nullable=True),
    Column("sheet_linked_by", USER, nullable=True),
    Column("sheet_linked_at", UTCDateTime(), nullable=True),
    UniqueConstraint("guild_id", "name_key"),
    UniqueConstraint("guild_id", "id"),
    CheckConstraint("status IN ('registering', 'running', 'finished')", name="status"),
    CheckConstraint("rounds >= 1", name="rounds"),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("number", Integer, nullable=False),
    Column("name", String(100), nullable=False),
    Column("rating", Integer, nullable=True),
    Column("discord_id", String(32), nullable=True),
    Column("uscf_id", String(16), nullable=True),
    Column("fide_id", String(16), nullable=True),
    Column("title", String(3), nullable=False),
    Column("sex", String(1), nullable=False),
    Column("federation", String(3), nullable=False),
    Column("birth_date", String(10), nullable=False),
    Column("late_entry_round", Integer, nullable=True),
    Column("added_by", USER, nullable=False),
    Column("added_at", UTCDateTime(), nullable=False),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    UniqueConstraint("tournament_id", "number"),
    UniqueConstraint("tournament_id", "discord_id"),
    UniqueConstraint("tournament_id", "id"),
    Index(None, "guild_id", "tournament_id"),
    CheckConstraint("number >= 1", name="number"),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("round", Integer, nullable=True),
    Column("player_id", Integer, nullable=True),
    Column("opponent_id", Integer, nullable=True),
    Column("result", String(32), nullable=True),
    Column("colour", String(1), nullable=True),
    # The event this one confirms, disputes or reverts (its seq).
    Column("refers_to", Integer, nullable=True),
    # The event whose effect this one replaces (its seq): the audit trail of corrections.
    Column("supersedes", Integer, nullable=True),
    Column("actor", USER, nullable=False),
    Column("actor_name", String(100), nullable=False),
    Column("td", Boolean, nullable=False),
    Column("source", String(16), nullable=False),
    Column("note", Text, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    ForeignKeyConstraint(["tournament_id", "player_id"], ["players.tournament_id", "players.id"]),
    ForeignKeyConstraint(["tournament_id", "opponent_id"], ["players.tournament_id", "players.id"]),
    ForeignKeyConstraint(["tournament_id", "refers_to"], ["events.tournament_id", "events.seq"]),
    ForeignKeyConstraint(["tournament_id", "supersedes"], ["events.tournament_id", "events.seq"]),
    UniqueConstraint("tournament_id", "seq"),
    Index(None, "guild_id", "tournament_id"),
    CheckConstraint("seq >= 1", name="seq"),
)

guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", GUILD, nullable=False),
    Column("key", String(64), nullable=False),
    Column("value", Text, nullable=False),
    Column("updated_by", USER, nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("guild_id", "key"),
)

sheet_outbox = Table(
    "sheet_outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("event_seq", Integer, nullable=False),
    Column("spreadsheet_id", String(128), nullable=False),
    Column("payload", Text, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("last_error", Text, nullable=True),
    Column("next_attempt_at", UTCDateTime(), nullable=False),
    Column("claimed_by", String(64), nullable=True),
    Column("claimed_until", UTCDateTime(), nullable=True),
    Column("written_at", UTCDateTime(), nullable=True),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    ForeignKeyConstraint(["tournament_id", "event_seq"], ["events.tournament_id", "events.seq"]),
    UniqueConstraint("tournament_id", "event_seq"),
    Index(None, "written_at", "next_attempt_at"),
    Index(None, "guild_id", "tournament_id"),
)

# Which Discord server a spreadsheet belongs to: the first that linked it. Another server may
# link it only when the sheet itself says so (its Harkness tab's "Discord servers" row).
sheet_owners = Table(
    "sheet_owners",
    metadata,
    Column("spreadsheet_id", String(128), nullable=False),
    Column("guild_id", GUILD, nullable=False),
    Column("claimed_by", USER, nullable=False),
    Column("claimed_at", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("spreadsheet_id"),
)

# Where the bot posted each report with Confirm/Dispute buttons, so that the message can be
# updated (its buttons taken away) when the report is answered another way.
report_messages = Table(
    "report_messages",
    metadata,
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("event_seq", Integer, nullable=False),
    Column("channel_id", String(32), nullable=False),
    Column("message_id", String(32), nullable=False),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    ForeignKeyConstraint(["tournament_id", "event_seq"], ["events.tournament_id", "events.seq"]),
    PrimaryKeyConstraint("tournament_id", "event_seq"),
)

# Who is writing to a spreadsheet now: one bot process (or worker) at a time, across every
# process sharing the database. A lease, renewed while the write runs, so that a process killed
# mid-write frees the sheet when it runs out (:mod:`bot.store.leases`).
sheet_leases = Table(
    "sheet_leases",
    metadata,
    Column("spreadsheet_id", String(128), nullable=False),
    Column("holder", String(64), nullable=False),
    Column("until", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("spreadsheet_id"),
)

# Syncs of spreadsheets asked for (by the add-on through ``harkness-sheets serve``, or by the
# bot after a result) and not yet run: one row per spreadsheet, so requests coalesce. Any
# worker process claims a due row for a while (renewed while it syncs), and deletes it when
# done, unless another request came meanwhile (:mod:`bot.store.syncjobs`).
sync_jobs = Table(
    "sync_jobs",
    metadata,
    Column("spreadsheet_id", String(128), nullable=False),
    Column("first_at", UTCDateTime(), nullable=False),
    Column("requested_at", UTCDateTime(), nullable=False),
    Column("due_at", UTCDateTime(), nullable=False),
    Column("reason", String(200), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("last_error", Text, nullable=True),
    Column("claimed_by", String(64), nullable=True),
    Column("claimed_until", UTCDateTime(), nullable=True),
    Column("started_at", UTCDateTime(), nullable=True),
    # Routing among several service accounts (:mod:`bot.store.routing`): the account known
    # to open the sheet (None: not known yet), the accounts that could not (one a line,
    # each between newlines), and when the job was set aside because no running worker's
    # account can open it (reported, not retried, until the sheet is asked for again).
    Column("account", String(320), nullable=True),
    Column("refused_by", Text, nullable=True),
    Column("parked_at", UTCDateTime(), nullable=True),
    PrimaryKeyConstraint("spreadsheet_id"),
    Index(None, "due_at"),
)

# The service account known to open each spreadsheet: the bot's when it linked or read the
# sheet, a worker's after its first successful sync (:mod:`bot.store.routing`).
sheet_accounts = Table(
    "sheet_accounts",
    metadata,
    Column("spreadsheet_id", String(128), nullable=False),
    Column("account", String(320), nullable=False),
    Column("since", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("spreadsheet_id"),
)

# The running sync workers and the service account each holds, seen until a lease from
# their last look for work (:mod:`bot.store.routing`).
sync_workers = Table(
    "sync_workers",
    metadata,
    Column("worker", String(64), nullable=False),
    Column("account", String(320), nullable=False),
    Column("seen_until", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("worker"),
)

# What each Google service account spent in the last minute, so that every worker process
# spends from one budget (:mod:`bot.store.quota`): the request times, as JSON.
quota_budget = Table(
    "quota_budget",
    metadata,
    Column("account", String(320), nullable=False),
    Column("uses", Text, nullable=False),
    PrimaryKeyConstraint("account"),
)

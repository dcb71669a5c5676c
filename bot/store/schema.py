"""The store's tables (SQLAlchemy Core), the single description of the results log's schema.

Migrations in ``bot/store/migrations/versions/`` (recorded in ``alembic_version``) create
exactly these tables; a test compares the two on SQLite and PostgreSQL so they cannot drift
apart. The same database holds the fleet's tables (:mod:`sheets.fleet.schema`: leases, sync
jobs, service accounts, budgets), in a history of their own; nothing here refers to them.

Every table carries ``guild_id`` (the tenant: a Discord guild, or another key for
non-Discord use) and every query filters on it (``sheet_owners`` is keyed by spreadsheet:
it records the guild that linked a sheet first, before sheets named their servers). Rows
that belong to a tournament point to it with the pair ``(guild_id, tournament_id)``, so the
database itself refuses a player or an event that would sit in one guild's tournament under
another guild's key.

Results live in ``events``, an append-only log: rows are inserted, never updated or deleted.
``seq`` numbers a tournament's events 1, 2, 3, … and is unique per tournament, which is what
makes two concurrent writers of the same tournament conflict instead of both succeeding.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from sheets.database.schema import UTCDateTime, new_metadata

metadata = new_metadata()

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
    # The accelerated pairing method the TD announced ("baku": C.04.5.1); NULL: none.
    Column("acceleration", String(16), nullable=True),
    # Bumped by every change of the tournament's players (a join, an import, a link), so a
    # process keeping the tournament's fold sees from this row whether its roster is current.
    Column("players_version", Integer, nullable=False, server_default="0"),
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
    # A round's events, for replaying it again after an undo (not the whole log), and the
    # events that answer or undo one event.
    Index(None, "tournament_id", "round", "seq"),
    Index(None, "tournament_id", "refers_to"),
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

# The Discord server that linked each spreadsheet first, while the first server needed no
# word from the sheet (before revision 0011; no row is added since). A server may use a sheet
# only when the sheet's "Discord servers" row (its Harkness tab, which only its editors can
# change) names it; such a first server may go on using its sheet while that row is empty,
# until ``grace_until`` (:meth:`bot.store.LinkedSheets.sheet_use`).
sheet_owners = Table(
    "sheet_owners",
    metadata,
    Column("spreadsheet_id", String(128), nullable=False),
    Column("guild_id", GUILD, nullable=False),
    Column("claimed_by", USER, nullable=False),
    Column("claimed_at", UTCDateTime(), nullable=False),
    Column("grace_until", UTCDateTime(), nullable=True),
    PrimaryKeyConstraint("spreadsheet_id"),
)

# Players a TD keeps apart (team-mates, family): the pairing never puts two players of one
# group on a board. ``players`` is the group as a JSON list of player ids (``players.id``).
kept_apart = Table(
    "kept_apart",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("players", Text, nullable=False),
    Column("added_by", USER, nullable=False),
    Column("added_at", UTCDateTime(), nullable=False),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    Index(None, "guild_id", "tournament_id"),
)

# The codes /tournament link-sheet gave TDs, for an editor of the sheet to type into its
# "Discord servers" row: each names one server for one spreadsheet. A code is issued for one
# tournament and links it once, if the sheet holds it before ``expires_at``; from then on
# (``confirmed_at``) it names its server for as long as the sheet holds it, and deleting it
# from the sheet withdraws the server (:mod:`bot.store.linked`).
sheet_link_codes = Table(
    "sheet_link_codes",
    metadata,
    Column("code", String(16), nullable=False),
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("spreadsheet_id", String(128), nullable=False),
    Column("requested_by", USER, nullable=False),
    Column("requested_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    Column("confirmed_at", UTCDateTime(), nullable=True),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    PrimaryKeyConstraint("code"),
    Index(None, "guild_id", "spreadsheet_id"),
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

# A tournament's prize list (Discord's /prizes): how cash is divided and shown, and who set it.
# Its prizes are in ``prizes``, the players' categories, teams and limits in ``player_awards``.
prize_lists = Table(
    "prize_lists",
    metadata,
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    # core.awards.Method's value: us-chess, us-chess-2003, fide-none, fide-equal, fide-hort.
    Column("method", String(16), nullable=False),
    Column("currency", String(10), nullable=False),
    Column("trophy_follows_money", Boolean, nullable=False),
    # How many of a team's players count (the prize file's [team] count).
    Column("team_count", Integer, nullable=False),
    Column("updated_by", USER, nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    PrimaryKeyConstraint("tournament_id"),
    Index(None, "guild_id", "tournament_id"),
)

# One prize of a tournament's list, in the order announced (``position``). ``fields`` holds
# its keys as a prize file's [[prize]] table has them, as JSON (an amount as exact text), so
# that reading it back goes through the prize file's rules (core.awards).
prizes = Table(
    "prizes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Column("name", String(100), nullable=False),
    Column("name_key", String(100), nullable=False),
    Column("fields", Text, nullable=False),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    UniqueConstraint("tournament_id", "name_key"),
    UniqueConstraint("tournament_id", "position"),
    Index(None, "guild_id", "tournament_id"),
)

# What a TD marked for one player's awards: the categories (a JSON list of names), the team,
# and the personal cash limit (exact decimal text; "0": not prize-eligible).
player_awards = Table(
    "player_awards",
    metadata,
    Column("guild_id", GUILD, nullable=False),
    Column("tournament_id", Integer, nullable=False),
    Column("player_id", Integer, nullable=False),
    Column("categories", Text, nullable=False),
    Column("team", String(100), nullable=True),
    Column("cash_limit", String(20), nullable=True),
    Column("updated_by", USER, nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    ForeignKeyConstraint(["guild_id", "tournament_id"], ["tournaments.guild_id", "tournaments.id"]),
    ForeignKeyConstraint(["tournament_id", "player_id"], ["players.tournament_id", "players.id"]),
    PrimaryKeyConstraint("tournament_id", "player_id"),
    Index(None, "guild_id", "tournament_id"),
)

"""The fleet's tables (SQLAlchemy Core), the single description of its schema.

The fleet's migrations (``sheets/fleet/migrations/versions/``, recorded in
``alembic_version_fleet``) create exactly these tables; a test compares the two on SQLite
and PostgreSQL so they cannot drift apart. They sit in the same database as the store's
tables (:mod:`bot.store.schema`) and never refer to them.

How they are keyed, and why: these tables coordinate processes around Google, not clubs'
data, so none carries a guild. A lease, a sync job and the account known to open a sheet are
keyed by **spreadsheet** (Google's unit of work and of sharing: one writer per sheet, one
pending sync per sheet, whichever servers use it); a budget by **service account**
(Google's unit of quota); a running worker by its **process name**
(:func:`sheets.fleet.hold.process_name`); the add-on's keys by **spreadsheet** (a key opens
one sheet: :mod:`sheets.addon_keys`). Nothing in them is shown to a member, and a
spreadsheet's ID says nothing about whose it is: which server may use a sheet is the
store's business (``sheet_owners``).
"""

from __future__ import annotations

from sqlalchemy import Column, Index, Integer, PrimaryKeyConstraint, String, Table, Text

from sheets.database.schema import UTCDateTime, new_metadata

metadata = new_metadata()

SPREADSHEET = String(128)
ACCOUNT = String(320)  # an e-mail address: 64 + @ + 255
#: A process as it holds leases and claims jobs (:func:`sheets.fleet.hold.process_name`).
PROCESS_LENGTH = 64
PROCESS = String(PROCESS_LENGTH)

# Who is writing to a spreadsheet now: one process (a bot shard or a worker) at a time,
# across every process sharing the database. A lease, renewed while the write runs, so that
# a process killed mid-write frees the sheet when it runs out (:mod:`sheets.fleet.leases`).
sheet_leases = Table(
    "sheet_leases",
    metadata,
    Column("spreadsheet_id", SPREADSHEET, nullable=False),
    Column("holder", PROCESS, nullable=False),
    Column("until", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("spreadsheet_id"),
)

# Syncs of spreadsheets asked for (by the add-on through ``harkness-sheets serve``, or by the
# bot after a result) and not yet run: one row per spreadsheet, so requests coalesce. Any
# worker process claims a due row for a while (renewed while it syncs), and deletes it when
# done, unless another request came meanwhile (:mod:`sheets.fleet.syncjobs`).
sync_jobs = Table(
    "sync_jobs",
    metadata,
    Column("spreadsheet_id", SPREADSHEET, nullable=False),
    Column("first_at", UTCDateTime(), nullable=False),
    Column("requested_at", UTCDateTime(), nullable=False),
    Column("due_at", UTCDateTime(), nullable=False),
    Column("reason", String(200), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("last_error", Text, nullable=True),
    Column("claimed_by", PROCESS, nullable=True),
    Column("claimed_until", UTCDateTime(), nullable=True),
    Column("started_at", UTCDateTime(), nullable=True),
    # Routing among several service accounts (:mod:`sheets.fleet.routing`): the account known
    # to open the sheet (None: not known yet), the accounts that could not (one a line,
    # each between newlines), and when the job was set aside because no running worker's
    # account can open it (reported, not retried, until the sheet is asked for again).
    Column("account", ACCOUNT, nullable=True),
    Column("refused_by", Text, nullable=True),
    Column("parked_at", UTCDateTime(), nullable=True),
    PrimaryKeyConstraint("spreadsheet_id"),
    Index(None, "due_at"),
)

# The service account known to open each spreadsheet: the bot's when it linked or read the
# sheet, a worker's after its first successful sync (:mod:`sheets.fleet.routing`).
sheet_accounts = Table(
    "sheet_accounts",
    metadata,
    Column("spreadsheet_id", SPREADSHEET, nullable=False),
    Column("account", ACCOUNT, nullable=False),
    Column("since", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("spreadsheet_id"),
)

# The running sync workers and the service account each holds, seen until a lease from
# their last look for work (:mod:`sheets.fleet.routing`).
sync_workers = Table(
    "sync_workers",
    metadata,
    Column("worker", PROCESS, nullable=False),
    Column("account", ACCOUNT, nullable=False),
    Column("seen_until", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("worker"),
)

# What each Google service account spent in the last minute, so that every process spends
# from one budget (:mod:`sheets.fleet.quota`): the request times, as JSON.
quota_budget = Table(
    "quota_budget",
    metadata,
    Column("account", ACCOUNT, nullable=False),
    Column("uses", Text, nullable=False),
    PrimaryKeyConstraint("account"),
)

# The hashes (SHA-256, hex) of the add-on's keys each spreadsheet vouches for, one row per
# editor's key, as the sheet's developer metadata held them when an editor connected it:
# every ``serve`` process accepts those keys for that sheet and no other
# (:mod:`sheets.fleet.keys`, :mod:`sheets.addon_keys`). Never the keys themselves.
addon_keys = Table(
    "addon_keys",
    metadata,
    Column("spreadsheet_id", SPREADSHEET, nullable=False),
    Column("digest", String(64), nullable=False),
    Column("since", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("spreadsheet_id", "digest"),
)

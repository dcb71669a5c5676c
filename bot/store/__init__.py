"""The tournament store: tournaments, players and an append-only results log, on SQLite by
default and PostgreSQL at scale, for the Discord bot and the Discord ↔ Sheets link.

Open a :class:`Store` with a URL (default ``$HARKNESS_DATABASE_URL``, else the SQLite file
``./harkness.db``; ``postgresql://user@host/db`` for PostgreSQL). Opening migrates the
store's tables to the newest schema, so there is nothing to set up. Every method is async and
one transaction; every method takes the guild (the tenant) first and never sees another
guild's data. A mistake a member or TD can make raises :class:`StoreError` whose message can
be shown as it is.

Who acts is an :class:`Actor`: a Discord user id, a display name, whether they act as a TD
(the bot decides, from the guild's TD role, :meth:`Store.td_role`) and the source. Players
are named by starting number, ``"#3"``, name, mention, or :class:`DiscordUser`.

Results are events: a member's ``report`` is provisional until the opponent ``confirm`` s it
(or reports the same result, or a TD confirms); a conflicting report or a ``dispute`` marks
the game disputed for a TD, who ``set_result`` s it. Repeating a request changes nothing.
A TD can ``undo`` the last event or any event (the undo is an event too), give byes, withdraw
players and clear rounds. ``history`` is the audit trail. The fold of the log is a
``core`` tournament, so ``standings`` are core's, with provisional and disputed rounds
marked. ``import_tournament`` reads a TRF-16 or crosstable file; ``export`` writes either.

The sheet link's side is ``store.linked`` (:class:`~bot.store.linked.LinkedSheets`): a
tournament linked to a spreadsheet (``link_sheet``) queues every final result for it; the
bot's sheet writer (:class:`bot.sheetlink.outbox.OutboxWriter`) takes them with
``claim_writes`` and reports back with ``mark_written`` or ``mark_failed`` (see
:mod:`bot.store.outbox`). How processes share Google (leases on spreadsheets, sync jobs, each
service account's budget) is not the store's: it is the fleet's (:mod:`sheets.fleet`), whose
tables live in the same database with a history of their own; ``python -m bot.store``
migrates, backs up and restores both (:mod:`bot.store.cli`).

The API at a glance (all ``async``; ``g`` is the guild id, ``t`` a tournament name)::

    Store.open(url=None) / close()      get_setting / set_setting, td_role / set_td_role
    create_tournament(g, name, rounds=, actor=, profile=, tiebreaks=)   tournaments(g, typed=)
    tournament(g, t)   set_status(g, t, status, actor)   set_rules
    join(g, t, actor, name=, rating=)   add_player(g, t, name, actor=)   players(g, t, typed=)
    player(g, t, ref)   link_player(g, t, ref, discord_id, actor)
    report(g, t, actor, round=, opponent=, result=, colour=)   confirm / dispute(g, t, actor, seq)
    set_result(g, t, actor, round=, player=, opponent=, result=)   set_bye
    withdraw(g, t, actor, player=, from_round=)   undo(g, t, actor, event=None)
    state(g, t)   open_games(g, t)   standings(g, t, after_round=)   history(g, t, round=)
    pairing_request / save_pairing / publish_pairing / swap_pairing / round_pairings / request_bye
    import_tournament(g, name, text, actor=, filename=)   export(g, t, "trf" | "crosstable")
    remember_report_message / report_messages(g, t, reports)

    store.prizes: get(g, t) / load(g, t, actor, file, filename) / add(g, t, actor, cells)
                  remove(g, t, actor, name) / set_options / mark(g, t, actor, player, …)

    store.linked: link_code / naming / link_sheet(g, t, actor, spreadsheet_id=, named=)
                  unlink_sheet(g, t, actor) / sheet_use(g, sheet, named) / withdraw_sheet
                  pending_writes(g, t) / outbox_backlog()
                  claim_writes(worker, busy=) / renew_claims / release_claims / postpone_writes
                  mark_written / mark_failed   on_queued(listener) (a result was queued)

A whole game, reported and confirmed::

    >>> import asyncio, tempfile, pathlib
    >>> async def club_night(url):
    ...     async with await Store.open(url) as store:
    ...         td = Actor("1", "Tess", td=True)
    ...         ann, bob = Actor("11", "Ann"), Actor("12", "Bob")
    ...         await store.create_tournament("guild", "Club Night", rounds=3, actor=td)
    ...         await store.join("guild", "club night", ann)
    ...         await store.join("guild", "club night", bob)
    ...         await store.set_status("guild", "Club Night", TournamentStatus.RUNNING, td)
    ...         said = await store.report("guild", "Club Night", ann, round=1,
    ...                                   opponent=DiscordUser("12"), result="win")
    ...         print(said.message)
    ...         done = await store.confirm("guild", "Club Night", bob, said.event.seq)
    ...         print(done.message)
    ...         table = await store.standings("guild", "Club Night")
    ...         print([(row.place, row.player.name, str(row.score)) for row in
    ...                table.standings.rows])
    >>> folder = tempfile.mkdtemp()
    >>> asyncio.run(club_night(f"sqlite:///{pathlib.Path(folder) / 'club.db'}"))
    Recorded: round 1, #1 Ann 1-0 #2 Bob. It counts as provisional until Bob or a TD confirms it.
    Confirmed: round 1, #1 Ann 1-0 #2 Bob.
    [('1', 'Ann', '1'), ('2', 'Bob', '0')]
"""

from __future__ import annotations

from bot.store.errors import StoreError
from bot.store.linked import LinkCode, LinkedSheets, Naming, SheetUse, sheet_not_named
from bot.store.model import (
    Actor,
    Event,
    EventKind,
    PlayerInfo,
    ResultStatus,
    SheetLink,
    Source,
    TournamentInfo,
    TournamentStatus,
)
from bot.store.players import DiscordUser, PlayerRef
from bot.store.records import (
    ByeView,
    ClaimView,
    EventView,
    GameView,
    OutboxItem,
    Outcome,
    StandingsView,
    TournamentState,
)
from bot.store.store import Store

__all__ = [
    "Actor",
    "ByeView",
    "ClaimView",
    "DiscordUser",
    "Event",
    "EventKind",
    "EventView",
    "GameView",
    "LinkCode",
    "LinkedSheets",
    "Naming",
    "OutboxItem",
    "Outcome",
    "PlayerInfo",
    "PlayerRef",
    "ResultStatus",
    "SheetLink",
    "SheetUse",
    "Source",
    "StandingsView",
    "Store",
    "StoreError",
    "TournamentInfo",
    "TournamentState",
    "TournamentStatus",
    "sheet_not_named",
]

"""The store (:class:`Store`): what members and TDs do, as async methods, for the slash
commands, the buttons and the answers (:mod:`bot.answers`).

Each method is one database transaction (see :mod:`bot.store.base`: guild-scoped, run again
when another process wrote first). The sheet link's side (which sheet a tournament is linked
to, the results queued for it) is ``store.linked`` (:class:`bot.store.linked.LinkedSheets`),
on the same engine and clock.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any, TypeVar, cast

from sqlalchemy import insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import (
    collector,
    kept_apart,
    limits,
    pairings,
    players,
    queries,
    results,
    schema,
    transfer,
)
from bot.store.awards import PrizeLists
from bot.store.base import StorePart, utc_now
from bot.store.cache import MB, Kept
from bot.store.errors import StoreError
from bot.store.kept_apart import KeptApart
from bot.store.linked import LinkedSheets
from bot.store.live import Folds, round_entries
from bot.store.migrations import HISTORY
from bot.store.model import (
    Actor,
    PlayerInfo,
    Source,
    TournamentInfo,
    TournamentStatus,
)
from bot.store.offload import JOBS, Jobs
from bot.store.pairings import RoundDraft
from bot.store.players import PlayerRef
from bot.store.queries import clean_name
from bot.store.records import (
    EventView,
    GameView,
    Outcome,
    StandingsView,
    TournamentState,
)
from bot.store.results import Change
from core.limits import MAX_PLAYERS, shorten
from core.model import Colour, EntryKind
from core.names import name_key
from core.pairing import PairingRequest, RoundPairing
from core.pairing.acceleration import Acceleration
from core.problems import HarknessError, Problem
from core.standings import standings_after
from sheets.database.migrate import open_engine
from sheets.database.transactions import Conflict

T = TypeVar("T")
#: Guild setting: the id of the role whose members are tournament directors.
TD_ROLE = "td_role"
MAX_ROUNDS = 99


def check_rules(profile: str, tiebreaks: str | None) -> tuple[str, str | None]:
    """A profile name and tiebreak order, checked with core and tidied (``"mm, solk"`` →
    ``"MM,SOLK"``); ``fide`` means the FIDE text in force at the tournament's start."""
    from core.profiles import names, resolve_for

    name = profile.strip().lower()
    if tiebreaks is not None and not tiebreaks.strip():
        tiebreaks = None
    try:
        resolved = resolve_for("", name, tiebreaks)
    except HarknessError as error:
        if any(p.code == "unknown-profile" for p in error.problems):
            raise StoreError(
                f"unknown rule profile {profile!r}: choose one of {', '.join(names())}",
                "bad-profile",
            ) from None
        text = "; ".join(_rules_problem(p, name) for p in error.problems)
        raise StoreError(f"tiebreaks: {text}", "bad-tiebreaks") from None
    return name, ",".join(resolved.tiebreaks) if tiebreaks is not None else None


def check_options(
    profile: str, tiebreaks: str | None, options: Mapping[str, bool] | None
) -> str | None:
    """The TD's profile options, checked with core against the (checked) profile, as stored
    (``cumulative-half-bye=yes``); None when none differs from the profile's own."""
    from core.profiles import changed_options, format_options, resolve_for

    if not options:
        return None
    try:
        resolved = resolve_for("", profile, tiebreaks, options)
    except HarknessError as error:
        text = "; ".join(_rules_problem(p, profile) for p in error.problems)
        raise StoreError(text, "bad-options") from None
    # Only what differs from the profile is kept: an option set to the profile's own is no
    # option at all (the tournament follows the profile).
    return format_options(changed_options(resolved)) or None


def _rules_problem(problem: Problem, profile: str) -> str:
    """Core's problem with a tournament's rules, in the bot's words (the options of the
    slash commands are ``profile``, ``tiebreaks`` and one per option)."""
    if problem.code == "unknown-code":
        from core.profiles import resolve_for
        from core.tiebreaks import tiebreaks_of

        known = ", ".join(tiebreaks_of(resolve_for("", profile).family))
        return f"unknown code {problem.value!r} for profile {profile}; known codes: {known}"
    if problem.field == "options" and problem.detail:
        return f"option {problem.value}: {problem.detail}"
    return problem.detail or problem.message


def _check_rounds(rounds: int) -> int:
    if not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise StoreError(f"a tournament has 1 to {MAX_ROUNDS} rounds (got {rounds})", "bad-rounds")
    return rounds


#: Bytes the store keeps in memory for folds and standings (:class:`~bot.store.cache.Kept`),
#: and the share of them one server may take: room for the largest section's fold and a
#: few of its standings, and for many small clubs beside it.
CACHE_BYTES = 640 * MB
GUILD_CACHE_BYTES = 448 * MB
#: Estimated bytes of standings kept (:func:`standings_bytes`): a player's row and
#: tiebreaks, and a round entry of the tournament they are after (when cut to a round: its
#: entries are the whole tournament's, its tuples its own). Measured with tracemalloc
#: (``tests/bench/store.py --sizes``).
ROW_BYTES = 2_000
CUT_ENTRY_BYTES = 20
#: About how many bytes of an uploaded file make one round entry (a TRF-16 line gives each
#: round ten columns): how heavy reading it is, before it is read.
UPLOAD_BYTES_PER_ENTRY = 10


class Store(StorePart):
    """The tournament store (see the :mod:`bot.store` docstring for a tour).

    Open it with :meth:`open` (it migrates the store's tables to the newest schema) and close
    it with :meth:`close`, or use ``async with await Store.open(url) as store``. ``clock``
    gives the time of events (tests pass their own).
    """

    def __init__(
        self,
        engine: AsyncEngine,
        clock: Callable[[], datetime] = utc_now,
        *,
        jobs: Jobs = JOBS,
        cache_bytes: int = CACHE_BYTES,
        guild_cache_bytes: int = GUILD_CACHE_BYTES,
    ) -> None:
        #: Folds and standings kept between answers, bounded in bytes with a share a server.
        self.kept: Kept[tuple[object, ...], object] = Kept(
            cache_bytes, guild_cache_bytes, collector.let_go
        )
        #: Slow work, off the event loop and shared fairly between servers.
        self.jobs = jobs
        super().__init__(engine, clock, Folds(self.kept, jobs))
        #: The sheet link's side: linked sheets and the results queued for them.
        self.linked = LinkedSheets(engine, clock, self.folds)
        #: The tournaments' prize lists, as TDs set them (:mod:`bot.store.awards`).
        self.prizes = PrizeLists(engine, clock, self.folds)
        #: The imports each server started lately (:data:`limits.IMPORTS_PER_HOUR`).
        self.imports = limits.ImportWindow()
        #: Standings being computed, by key, with what they are computed from: members
        #: asking at once wait for the one computation.
        self._computing: dict[tuple[object, ...], tuple[object, asyncio.Future[StandingsView]]]
        self._computing = {}

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        migrate: bool = True,
        clock: Callable[[], datetime] = utc_now,
        jobs: Jobs = JOBS,
        cache_bytes: int = CACHE_BYTES,
        guild_cache_bytes: int = GUILD_CACHE_BYTES,
        **engine_options: Any,
    ) -> Store:
        """Connect to ``url`` (default: ``$HARKNESS_DATABASE_URL``, else ``./harkness.db``)
        and, unless ``migrate`` is False, bring the store's tables up to date (the fleet's
        are :class:`sheets.fleet.Fleet`'s)."""
        engine = await open_engine(url, HISTORY, migrate=migrate, **engine_options)
        return cls(
            engine,
            clock,
            jobs=jobs,
            cache_bytes=cache_bytes,
            guild_cache_bytes=guild_cache_bytes,
        )

    async def close(self) -> None:
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _change(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        apply: Callable[[Change], Awaitable[T]],
        *,
        whole: bool = False,
    ) -> T:
        """One change of a tournament's log: the fold brought up to date first (in a read,
        off the event loop), then the write adds only its own events to it. ``whole``: the
        change reads the core tournament (pairings, late entries)."""
        done = await self._locked(
            guild,
            tournament,
            lambda conn, loaded: apply(Change(conn, loaded, actor, self.clock())),
            whole=whole,
        )
        if isinstance(done, Outcome) and done.outbox:  # committed: the writer may take it
            self.linked.queued()
        return done

    async def _locked(
        self,
        guild: str,
        tournament: str,
        work: Callable[[AsyncConnection, queries.Loaded], Awaitable[T]],
        *,
        whole: bool = False,
    ) -> T:
        """``work`` in a write transaction on the tournament (its row locked, its fold up
        to date and advanced by the events the write appends; see :meth:`Folds.writing`)."""
        await self._prepare(guild, tournament, whole=whole)
        async with self.folds.writing(guild, tournament):

            async def run(conn: AsyncConnection) -> T:
                loaded = await self.folds.loaded(conn, guild, tournament, lock=True, whole=whole)
                return await work(conn, loaded)

            return await self._write(run)

    async def _loaded(self, guild: str, tournament: str, *, whole: bool = False) -> queries.Loaded:
        """The tournament and its fold, for reading (its core tournament built, with
        ``whole``; off the event loop)."""
        return await self._reading(
            lambda conn: self.folds.loaded(conn, guild, tournament, whole=whole)
        )

    # -- guild settings -------------------------------------------------------------------

    async def get_setting(self, guild: str, key: str) -> str | None:
        """A guild's setting, or None when it is not set."""
        s = schema.guild_settings

        async def work(conn: AsyncConnection) -> str | None:
            value = await conn.scalar(
                select(s.c.value).where(s.c.guild_id == guild, s.c.key == key)
            )
            return None if value is None else str(value)

        return await self._read(work)

    async def set_setting(self, guild: str, key: str, value: str | None, actor: Actor) -> None:
        """Set (or, with None, remove) a guild's setting."""
        s = schema.guild_settings
        now = self.clock()

        async def work(conn: AsyncConnection) -> None:
            where = (s.c.guild_id == guild, s.c.key == key)
            if value is None:
                await conn.execute(s.delete().where(*where))
                return
            changed = await conn.execute(
                update(s).where(*where).values(value=value, updated_by=actor.user, updated_at=now)
            )
            if changed.rowcount == 0:
                try:
                    await conn.execute(
                        insert(s).values(
                            guild_id=guild,
                            key=key,
                            value=value,
                            updated_by=actor.user,
                            updated_at=now,
                        )
                    )
                except IntegrityError as error:
                    raise Conflict from error

        await self._write(work)

    async def td_role(self, guild: str) -> str | None:
        """The id of the guild's tournament-director role, if one is set."""
        return await self.get_setting(guild, TD_ROLE)

    async def set_td_role(self, guild: str, role_id: str | None, actor: Actor) -> None:
        """Set (or clear) which role counts as tournament director in the guild."""
        await self.set_setting(guild, TD_ROLE, role_id, actor)

    # -- tournaments ----------------------------------------------------------------------

    async def create_tournament(
        self,
        guild: str,
        name: str,
        *,
        rounds: int,
        actor: Actor,
        profile: str = "uscf",
        tiebreaks: str | None = None,
        status: TournamentStatus = TournamentStatus.REGISTERING,
        options: Mapping[str, bool] | None = None,
    ) -> TournamentInfo:
        """A new tournament; its name must be free in the guild (case and spaces ignored).
        ``options`` are the TD's profile options (:data:`core.profiles.OPTIONS` keys)."""
        name = clean_name(name, "tournament")
        profile, tiebreaks = check_rules(profile, tiebreaks)
        stored = check_options(profile, tiebreaks, options)
        _check_rounds(rounds)
        now = self.clock()

        async def work(conn: AsyncConnection) -> TournamentInfo:
            return await self._insert_tournament(
                conn, guild, name, rounds, actor, now, profile, tiebreaks, status, options=stored
            )

        return await self._write(work)

    async def _insert_tournament(
        self,
        conn: AsyncConnection,
        guild: str,
        name: str,
        rounds: int,
        actor: Actor,
        now: datetime,
        profile: str,
        tiebreaks: str | None,
        status: TournamentStatus,
        **extra: Any,
    ) -> TournamentInfo:
        t = schema.tournaments
        taken = await conn.scalar(
            select(t.c.name).where(t.c.guild_id == guild, t.c.name_key == name_key(name))
        )
        if taken is not None:
            raise StoreError(f"there is already a tournament called {taken!r} here", "name-taken")
        refusal = limits.too_many_tournaments(await queries.guild_tournaments(conn, guild))
        if refusal is not None:
            raise refusal
        values = {
            "guild_id": guild,
            "name": name,
            "name_key": name_key(name),
            "profile": profile,
            "tiebreaks": tiebreaks,
            "rounds": rounds,
            "status": status.value,
            "created_by": actor.user,
            "created_at": now,
            "start_date": "",
            "end_date": "",
            "round_robin": None,
            "records": "[]",
            **extra,
        }
        try:
            row = (await conn.execute(insert(t).values(**values).returning(*t.c))).one()
        except IntegrityError:
            raise StoreError(
                f"there is already a tournament called {name!r} here", "name-taken"
            ) from None
        return queries.tournament_info(row)

    async def tournament(self, guild: str, name: str) -> TournamentInfo:
        """The guild's tournament called ``name``."""
        return await self._read(lambda conn: queries.find_tournament(conn, guild, name))

    async def tournaments(
        self,
        guild: str,
        *,
        typed: str = "",
        status: TournamentStatus | None = None,
        limit: int | None = None,
    ) -> list[TournamentInfo]:
        """The guild's tournaments, newest first; ``typed`` keeps names containing it (for
        autocomplete, with ``limit=25``); ``status`` keeps one stage."""
        t = schema.tournaments
        query = select(t).where(t.c.guild_id == guild)
        if typed.strip():
            query = query.where(t.c.name_key.contains(name_key(typed), autoescape=True))
        if status is not None:
            query = query.where(t.c.status == status.value)
        query = query.order_by(t.c.created_at.desc(), t.c.id.desc()).limit(limit)

        async def work(conn: AsyncConnection) -> list[TournamentInfo]:
            return [queries.tournament_info(row) for row in await conn.execute(query)]

        return await self._read(work)

    async def set_status(
        self, guild: str, name: str, status: TournamentStatus, actor: Actor
    ) -> TournamentInfo:
        """Start, finish or reopen a tournament (TD). Starting records the start date (if
        none); finishing records the end date and, when fewer rounds were played than
        planned, makes the played rounds the tournament's rounds."""
        today = self.clock().date().isoformat()

        def values(loaded: queries.Loaded) -> dict[str, Any]:
            info = loaded.info
            change: dict[str, Any] = {"status": status.value}
            if status is TournamentStatus.RUNNING and not info.start_date:
                change["start_date"] = today
            if status is TournamentStatus.FINISHED:
                played = loaded.folded.tournament.rounds
                change["end_date"] = info.end_date or today
                if 1 <= played < info.rounds:
                    change["rounds"] = played
            return change

        return await self._update_tournament(
            guild, name, actor, f"mark a tournament {status.value}", values
        )

    async def set_rules(
        self,
        guild: str,
        name: str,
        actor: Actor,
        *,
        profile: str,
        tiebreaks: str | None = None,
        options: Mapping[str, bool] | None = None,
    ) -> TournamentInfo:
        """Change the rule profile, tiebreak order and profile options (TD); what is left
        out is the profile's own."""
        profile, tiebreaks = check_rules(profile, tiebreaks)
        stored = check_options(profile, tiebreaks, options)
        return await self._update_tournament(
            guild,
            name,
            actor,
            "change the tiebreak rules",
            lambda _: {"profile": profile, "tiebreaks": tiebreaks, "options": stored},
        )

    async def add_player(
        self,
        guild: str,
        tournament: str,
        name: str,
        *,
        actor: Actor,
        rating: int | None = None,
        discord_id: str | None = None,
        uscf_id: str | None = None,
        fide_id: str | None = None,
    ) -> PlayerInfo:
        """Register a player (TD), with the next starting number. A player added after
        round 1 has a late entry: their earlier rounds are absent."""
        if not actor.td:
            raise StoreError(
                "only a tournament director can add other players; use join to register yourself",
                "not-td",
            )
        return await self._register(
            guild,
            tournament,
            name,
            actor,
            rating=rating,
            discord_id=discord_id,
            uscf_id=uscf_id,
            fide_id=fide_id,
        )

    async def join(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        name: str | None = None,
        rating: int | None = None,
        uscf_id: str | None = None,
    ) -> PlayerInfo:
        """A member registers themselves (linked to their Discord id ``actor.user``), under
        a name no other player of the tournament has."""
        return await self._register(
            guild,
            tournament,
            name or actor.label,
            actor,
            rating=rating,
            discord_id=actor.user,
            uscf_id=uscf_id,
            own_name=True,
        )

    async def _register(
        self, guild: str, tournament: str, name: str, actor: Actor, **fields: Any
    ) -> PlayerInfo:
        async def work(conn: AsyncConnection, loaded: queries.Loaded) -> PlayerInfo:
            if len(loaded.players) >= MAX_PLAYERS:
                raise StoreError(
                    f"{loaded.info.name} has {len(loaded.players):,} players, the most a "
                    "tournament has (TRF-16 gives a starting number four digits)",
                    "too-many-players",
                )
            # A late entry enters the next round to pair (a bye asked ahead moves it not).
            first = pairings.next_to_enter(loaded)
            running = loaded.info.status is TournamentStatus.RUNNING
            late = first if first > 1 and running else None
            return await players.add_player(
                conn,
                loaded.info,
                loaded.players,
                actor,
                self.clock(),
                name,
                late_entry_round=late,
                **fields,
            )

        return await self._locked(guild, tournament, work, whole=True)

    async def players(
        self, guild: str, tournament: str, *, typed: str = "", limit: int | None = None
    ) -> list[PlayerInfo]:
        """A tournament's players by starting number; ``typed`` keeps those whose name or
        number contains it, best matches first (for autocomplete, with ``limit=25``)."""

        found = list(await self._read(lambda conn: self.folds.players(conn, guild, tournament)))
        if typed.strip():
            return players.matching(found, typed, limit or len(found))
        return found[:limit]

    async def player(self, guild: str, tournament: str, ref: PlayerRef) -> PlayerInfo:
        """The player ``ref`` names: a starting number, ``"#3"``, a name, a mention, or
        :class:`~bot.store.players.DiscordUser`."""
        found = await self._read(lambda conn: self.folds.players(conn, guild, tournament))
        return players.resolve(found, ref, tournament)

    async def link_player(
        self, guild: str, tournament: str, ref: PlayerRef, discord_id: str | None, actor: Actor
    ) -> PlayerInfo:
        """Link a player to a Discord member, or unlink with None (TD)."""
        if not actor.td:
            raise StoreError("only a tournament director can link players", "not-td")

        async def work(conn: AsyncConnection, loaded: queries.Loaded) -> PlayerInfo:
            who = players.resolve(loaded.players, ref, loaded.info.name)
            return await players.link(conn, loaded.info, loaded.players, who, discord_id)

        return await self._locked(guild, tournament, work)

    # -- results --------------------------------------------------------------------------

    async def report(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        round: int,
        opponent: PlayerRef | None,
        result: EntryKind | str,
        colour: Colour | str | None = None,
        player: PlayerRef | None = None,
    ) -> Outcome:
        """A member reports their own game (``result`` from their side: win/draw/loss or
        a forfeit). A TD may report for ``player``. Provisional until confirmed. On a
        published pairing the opponent and colour default to the player's board."""

        async def apply(c: Change) -> Outcome:
            against, col = pairings.on_board(c, round, opponent, colour, player)
            return await results.report(
                c, round=round, opponent=against, result=result, colour=col, player=player
            )

        return await self._change(guild, tournament, actor, apply)

    async def confirm(self, guild: str, tournament: str, actor: Actor, report: int) -> Outcome:
        """The opponent (or a TD) confirms report number ``report`` (an event seq)."""
        return await self._change(guild, tournament, actor, lambda c: results.confirm(c, report))

    async def dispute(
        self, guild: str, tournament: str, actor: Actor, report: int, note: str = ""
    ) -> Outcome:
        """The opponent (or a TD) disputes report ``report``; a TD will decide."""
        return await self._change(
            guild, tournament, actor, lambda c: results.dispute(c, report, note)
        )

    async def set_result(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        round: int,
        player: PlayerRef,
        opponent: PlayerRef,
        result: EntryKind | str,
        colour: Colour | str | None = None,
    ) -> Outcome:
        """A TD sets a game (``result`` and ``colour`` from ``player``'s side)."""
        return await self._change(
            guild,
            tournament,
            actor,
            lambda c: results.set_result(
                c, round=round, player=player, opponent=opponent, result=result, colour=colour
            ),
        )

    async def set_bye(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        round: int,
        player: PlayerRef,
        kind: EntryKind | str = EntryKind.FULL_BYE,
    ) -> Outcome:
        """A TD gives a bye: ``full``, ``half``, ``zero`` or ``pairing``."""
        return await self._change(
            guild,
            tournament,
            actor,
            lambda c: results.set_bye(c, round=round, player=player, kind=kind),
        )

    async def withdraw(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        player: PlayerRef,
        from_round: int | None = None,
    ) -> Outcome:
        """A TD withdraws a player from ``from_round`` on (default: the next round to pair,
        :func:`pairings.next_to_enter`, as for a late entry)."""
        return await self._change(
            guild,
            tournament,
            actor,
            lambda c: results.withdraw(
                c,
                player=player,
                from_round=pairings.next_to_enter(c.loaded) if from_round is None else from_round,
            ),
            whole=from_round is None,
        )

    async def undo(
        self, guild: str, tournament: str, actor: Actor, event: int | None = None
    ) -> Outcome:
        """A TD undoes event ``event`` (default: the newest still in force); the undo is
        itself an event, and undoing an undo redoes."""
        return await self._change(guild, tournament, actor, lambda c: results.undo(c, event))

    # -- pairings -------------------------------------------------------------------------

    async def pairing_request(
        self, guild: str, tournament: str, round: int | None = None
    ) -> PairingRequest:
        """What core pairs the next round (or ``round``) from (see :mod:`bot.store.pairings`)."""
        loaded = await self._loaded(guild, tournament, whole=True)
        groups = await self._read(lambda conn: kept_apart.load(conn, loaded))
        return pairings.request_for(loaded, round, kept_apart.numbers(groups))

    async def save_pairing(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        request: PairingRequest,
        pairing: RoundPairing,
        *,
        publish: bool,
    ) -> RoundDraft:
        """A TD keeps ``pairing`` (computed for ``request``) as the round's draft, and
        publishes it if ``publish``; refused if the tournament changed meanwhile."""
        return await self._change(
            guild,
            tournament,
            actor,
            lambda c: pairings.save(c, request, pairing, publish=publish),
            whole=True,
        )

    async def publish_pairing(
        self, guild: str, tournament: str, actor: Actor, round: int | None = None
    ) -> tuple[RoundDraft, PairingRequest]:
        """A TD publishes the next round's draft (checked again first)."""
        return await self._change(
            guild, tournament, actor, lambda c: pairings.publish(c, round), whole=True
        )

    async def swap_pairing(
        self, guild: str, tournament: str, actor: Actor, a: PlayerRef, b: PlayerRef
    ) -> tuple[RoundDraft, PairingRequest]:
        """A TD exchanges two players' places in the next round's draft (checked)."""
        return await self._change(
            guild, tournament, actor, lambda c: pairings.swap(c, a, b), whole=True
        )

    async def kept_apart(self, guild: str, tournament: str) -> list[KeptApart]:
        """The groups of players kept apart in the tournament's pairings."""

        async def work(conn: AsyncConnection) -> list[KeptApart]:
            return await kept_apart.load(conn, await self.folds.loaded(conn, guild, tournament))

        return await self._reading(work)

    async def keep_apart(
        self, guild: str, tournament: str, actor: Actor, players: Sequence[PlayerRef]
    ) -> KeptApart:
        """A TD keeps ``players`` apart: no pairing puts two of them on one board."""
        return await self._change(guild, tournament, actor, lambda c: kept_apart.add(c, players))

    async def stop_keeping_apart(
        self, guild: str, tournament: str, actor: Actor, group: int
    ) -> KeptApart:
        """A TD removes group ``group`` (its number in :meth:`kept_apart`)."""
        return await self._change(guild, tournament, actor, lambda c: kept_apart.remove(c, group))

    async def set_acceleration(
        self, guild: str, name: str, actor: Actor, method: Acceleration | None
    ) -> TournamentInfo:
        """A TD announces an accelerated pairing method (or none), before round 1 is paired."""

        def values(loaded: queries.Loaded) -> dict[str, Any]:
            if pairings.drafts(loaded) or pairings.round_to_pair(loaded) > 1:
                raise StoreError(
                    f"{loaded.info.name} has paired round 1 already: an accelerated method is "
                    "announced before round 1 and kept to the end",
                    "already-paired",
                )
            return {"acceleration": None if method is None else method.value}

        return await self._update_tournament(
            guild, name, actor, "announce accelerated pairings", values
        )

    async def round_pairings(self, guild: str, tournament: str) -> dict[int, RoundDraft]:
        """Every round's pairing (draft or published) as the log has it."""
        return pairings.drafts(await self._loaded(guild, tournament))

    async def request_bye(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        round: int,
        kind: EntryKind | str = EntryKind.HALF_BYE,
        player: PlayerRef | None = None,
    ) -> str:
        """A member asks for a half- or zero-point bye in a round not yet paired."""
        return await self._change(
            guild,
            tournament,
            actor,
            lambda c: pairings.request_bye(c, round=round, kind=kind, player=player),
            whole=True,
        )

    # -- reading --------------------------------------------------------------------------

    async def state(self, guild: str, tournament: str) -> TournamentState:
        """The tournament now: core tournament, marks, open games (see
        :class:`~bot.store.records.TournamentState`)."""
        return await self._state(await self._loaded(guild, tournament, whole=True))

    async def _state(self, loaded: queries.Loaded) -> TournamentState:
        """The state of a tournament loaded whole (its views made off the event loop)."""
        return await self.jobs.run(
            loaded.info.guild,
            lambda: TournamentState.of(loaded.info, loaded.players, loaded.folded),
            size=0,
            what="reading the tournament",
        )

    async def open_games(self, guild: str, tournament: str) -> list[GameView]:
        """Games waiting for a confirmation (provisional) or a TD (disputed)."""
        loaded = await self._loaded(guild, tournament)
        by_id = {p.id: p for p in loaded.players}
        return [GameView.of(g, by_id) for g in loaded.folded.open_games]

    async def standings(
        self, guild: str, tournament: str, *, after_round: int | None = None
    ) -> StandingsView:
        """Standings under the tournament's rules, after the last round with results (or
        ``after_round``); provisional results count and are marked, disputed ones wait.

        Computed off the event loop (in the server's turn for a large section) and kept
        until the log has a new event, the tournament's settings or players change, or the
        day changes (a profile may depend on the date): answering again then reads the
        tournament's row and its log's last seq, nothing more. What is kept is bounded in
        bytes (:data:`CACHE_BYTES`, :data:`GUILD_CACHE_BYTES` a server); several members
        asking at once wait for one computation."""

        async def version(conn: AsyncConnection) -> tuple[TournamentInfo, int]:
            info = await queries.find_tournament(conn, guild, tournament)
            return info, await queries.last_seq(conn, guild, info.id)

        info, last = await self._read(version)
        key = ("standings", guild, info.id, after_round)
        stamp = (info, last, date.today())
        cached = self.kept.get(key)
        if isinstance(cached, tuple) and cached[0] == stamp:
            return cast(StandingsView, cached[1])
        computing = self._computing.get(key)
        if computing is None or computing[0] != stamp:
            task = asyncio.ensure_future(self._compute_standings(guild, tournament, after_round))
            computing = self._computing[key] = (stamp, task)
            task.add_done_callback(lambda _: self._forget_computing(key, task))
        return await asyncio.shield(computing[1])

    def _forget_computing(
        self, key: tuple[object, ...], task: asyncio.Future[StandingsView]
    ) -> None:
        found = self._computing.get(key)
        if found is not None and found[1] is task:
            del self._computing[key]

    async def _compute_standings(
        self, guild: str, tournament: str, after_round: int | None
    ) -> StandingsView:
        loaded = await self._loaded(guild, tournament, whole=True)
        state = await self._state(loaded)
        view = await self.jobs.run(
            guild,
            lambda: standings_of(state, after_round),
            size=round_entries(loaded.players, loaded.folded.rounds),
            what="computing the standings",
        )
        stamp = (loaded.info, loaded.folded.last_seq, date.today())
        view = replace(view, stamp=(*stamp, view.after_round))
        key = ("standings", guild, loaded.info.id, after_round)
        self.kept.put(key, guild, (stamp, view), standings_bytes(view))
        return view

    async def history(
        self,
        guild: str,
        tournament: str,
        *,
        round: int | None = None,
        player: PlayerRef | None = None,
        limit: int | None = 50,
    ) -> list[EventView]:
        """The audit trail, newest first: who changed what, when, from where (read from
        the newest back, as far as ``limit`` goes)."""

        async def work(conn: AsyncConnection) -> list[EventView]:
            loaded = await self.folds.loaded(conn, guild, tournament)
            info, e = loaded.info, schema.events
            by_id = {p.id: p for p in loaded.players}
            where = [] if round is None else [e.c.round == round]
            if player is not None:
                who = players.resolve(loaded.players, player, info.name).id
                where.append(or_(e.c.player_id == who, e.c.opponent_id == who))
            out: list[EventView] = []
            newest = queries.newest_events(conn, guild, info.id, *where)
            async with contextlib.aclosing(newest):
                async for event in newest:
                    reverted = event.seq in loaded.folded.reverted
                    out.append(
                        EventView(
                            event,
                            by_id.get(event.player or 0),
                            by_id.get(event.opponent or 0),
                            reverted,
                        )
                    )
                    if limit is not None and len(out) >= limit:
                        break
            return out

        return await self._reading(work)

    # -- files ----------------------------------------------------------------------------

    async def import_tournament(
        self,
        guild: str,
        name: str,
        text: str | bytes,
        *,
        actor: Actor,
        filename: str = "upload.txt",
        profile: str = "uscf",
        tiebreaks: str | None = None,
        rounds: int | None = None,
        status: TournamentStatus = TournamentStatus.RUNNING,
        options: Mapping[str, bool] | None = None,
        warnings: list[Problem] | None = None,
    ) -> TournamentInfo:
        """A new tournament from a TRF-16 or crosstable file (TD): its text, or its bytes in
        any encoding core reads. The file is read off the event loop, in a worker thread,
        within :data:`READ_SECONDS`.

        What the file's reader accepted but reports (a TRF points column that disagrees
        with the results: the results are imported) is appended to ``warnings``.
        """
        if not actor.td:
            raise StoreError("only a tournament director can import a tournament", "not-td")
        name = clean_name(name, "tournament")
        profile, tiebreaks = check_rules(profile, tiebreaks)
        stored = check_options(profile, tiebreaks, options)
        await self.check_import(guild)
        self.imports.record(guild)
        data = await self.jobs.run(
            guild,
            lambda: transfer.read_upload(text, filename),
            size=len(text) // UPLOAD_BYTES_PER_ENTRY,
            what=f"reading {shorten(filename, 100)}",
        )
        if warnings is not None:
            warnings.extend(data.warnings)
        planned = _check_rounds(max(data.rounds, rounds or 1))

        async def urgently(work: Callable[[], Any]) -> Any:
            """Work inside the import's write: at once, off the event loop."""
            size = len(data.players) * max(data.rounds, 1)
            return await self.jobs.run(guild, work, size=size, what="importing", urgent=True)

        source = Actor(actor.user, actor.name, True, Source.IMPORT)
        now = self.clock()

        async def work(conn: AsyncConnection) -> TournamentInfo:
            info = await self._insert_tournament(
                conn,
                guild,
                name,
                planned,
                actor,
                now,
                profile,
                tiebreaks,
                status,
                start_date=data.start_date[:10],
                end_date=data.end_date[:10],
                round_robin=data.round_robin,
                records=queries.records_json(data.records),
                options=stored,
            )
            kept = await queries.guild_events(conn, guild)
            await transfer.write_import(conn, info, data, source, now, urgently, kept)
            return info

        try:
            return await self._write(work)
        finally:
            collector.let_go(data)  # a million round entries: freed off the event loop

    async def check_import(self, guild: str) -> None:
        """Refuse an import the server may not start now (:mod:`bot.store.limits`: imports
        an hour, tournaments, the results it keeps), before its file is downloaded or
        read."""
        refusal = self.imports.refusal(guild)
        if refusal is not None:
            raise refusal

        async def work(conn: AsyncConnection) -> tuple[int, int]:
            return await queries.guild_tournaments(conn, guild), await queries.guild_events(
                conn, guild
            )

        tournaments, events = await self._read(work)
        refusal = limits.too_many_tournaments(tournaments) or limits.too_many_events(events, 1)
        if refusal is not None:
            raise refusal

    async def export(
        self,
        guild: str,
        tournament: str,
        form: str = "trf",
        *,
        separator: str = "  ",
        with_standings: bool = True,
    ) -> str:
        """The tournament as TRF-16 (``form="trf"``) or crosstable text (``"crosstable"``,
        ``separator`` two spaces, ``","`` for CSV or ``"\\t"``), with standings when it has
        results. Provisional results are included; disputed ones are not."""
        state = await self.state(guild, tournament)
        standings = None
        if with_standings and state.rounds_played and state.tournament.players:
            view = await self.standings(guild, tournament)  # kept: computed once a version
            state, standings = view.state, view.standings
        return await self.jobs.run(
            guild,
            lambda: transfer.export(state.tournament, standings, form, separator),
            size=round_entries(state.players, state.tournament.rounds),
            what="writing the file",
        )

    async def remember_report_message(
        self, guild: str, tournament: str, report: int, channel_id: str, message_id: str
    ) -> None:
        """Note where report ``report`` was posted with its buttons (once; later calls keep
        the first)."""
        r = schema.report_messages

        async def work(conn: AsyncConnection) -> None:
            info = await queries.find_tournament(conn, guild, tournament)
            known = await conn.execute(
                select(r.c.event_seq).where(r.c.tournament_id == info.id, r.c.event_seq == report)
            )
            if known.first() is None:
                await conn.execute(
                    insert(r).values(
                        guild_id=guild,
                        tournament_id=info.id,
                        event_seq=report,
                        channel_id=channel_id[:32],
                        message_id=message_id[:32],
                    )
                )

        await self._write(work)

    async def report_messages(
        self, guild: str, tournament: str, reports: Collection[int]
    ) -> list[tuple[int, str, str]]:
        """Where reports were posted with their buttons: (report, channel id, message id)."""
        r = schema.report_messages

        async def work(conn: AsyncConnection) -> list[tuple[int, str, str]]:
            info = await queries.find_tournament(conn, guild, tournament)
            rows = await conn.execute(
                select(r.c.event_seq, r.c.channel_id, r.c.message_id)
                .where(r.c.tournament_id == info.id, r.c.event_seq.in_(list(reports)))
                .order_by(r.c.event_seq)
            )
            return [(int(seq), str(channel), str(message)) for seq, channel, message in rows]

        return await self._read(work)


def standings_round(where: str, played: int, after_round: int | None) -> int:
    """The round the standings of ``where`` (a tournament, or its Google Sheet) are after:
    ``after_round``, or the last of the ``played`` rounds; refused while no round has
    results, and for a round without them.

    >>> standings_round("Club Night", 3, None), standings_round("Club Night", 3, 2)
    (3, 2)
    >>> standings_round("Club Night", 3, 4)
    Traceback (most recent call last):
    bot.store.errors.StoreError: round 4 has no results: Club Night has results for rounds 1–3
    """
    if played == 0:
        raise StoreError(f"{where} has no results yet", "no-results")
    k = played if after_round is None else after_round
    if not 1 <= k <= played:
        raise StoreError(
            f"round {k} has no results: {where} has results for rounds 1–{played}",
            "round-out-of-range",
        )
    return k


def standings_bytes(view: StandingsView) -> int:
    """About how many bytes a standings view holds beyond its tournament's state (kept with
    the fold): each player's row, and the tournament cut to ``after_round`` when it is
    earlier than the last round."""
    players = len(view.standings.rows)
    cut = view.standings.tournament is not view.state.tournament
    return players * ROW_BYTES + (players * view.after_round * CUT_ENTRY_BYTES if cut else 0)


def standings_of(state: TournamentState, after_round: int | None) -> StandingsView:
    """Standings of a tournament state under its rules (see :meth:`Store.standings`)."""
    from core.profiles import resolve_for

    info, t = state.info, state.tournament
    k = standings_round(info.name, state.rounds_played, after_round)
    start = info.start_date or date.today().isoformat()
    profile = resolve_for(start, info.profile, info.tiebreaks, info.option_values)
    return StandingsView(state, standings_after(t, profile, k), k)

"""Changing results: reports, confirmations, disputes, a TD's decisions, and undo.

Each function runs inside the tournament's write transaction (its row locked), checks the
request against the current fold, appends at most one event, and says what happened in an
:class:`~bot.store.records.Outcome`. A request that repeats what the log already says writes
nothing (``changed`` is False), so pressing a button twice is harmless.

Who may do what: a member reports only their own games and confirms or disputes only
reports made against them; a TD (``Actor.td``) may do everything, and only a TD sets
results, gives byes, withdraws players, clears rounds and undoes events.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import outbox, queries, schema
from bot.store.errors import StoreError, refusal
from bot.store.fold import ByeState, Folded, GameState
from bot.store.model import (
    Actor,
    Event,
    EventKind,
    PlayerInfo,
    ResultStatus,
    TournamentStatus,
)
from bot.store.players import PlayerRef, resolve
from bot.store.queries import Loaded, append_event
from bot.store.records import EventView, GameView, Outcome
from core.model import Colour, EntryKind
from core.results import bye_result, is_double_forfeit, side_result


def set_result_of(result: EntryKind | str) -> tuple[EntryKind, bool]:
    """A TD's result for a game, from the first player's side, and whether it is a double
    forfeit (:func:`core.results.is_double_forfeit`; then the result is the forfeit loss
    both players get).

    >>> set_result_of("Double forfeit"), set_result_of("win")
    ((<EntryKind.FORFEIT_LOSS: 'forfeit loss'>, True), (<EntryKind.WIN: 'win'>, False))
    """
    if isinstance(result, str) and is_double_forfeit(result):
        return EntryKind.FORFEIT_LOSS, True
    kind = side_result(result)
    if kind is None:
        raise refusal("result", result)
    return kind, False


def _colour(colour: Colour | str | None) -> Colour | None:
    """No colour, or the one :meth:`core.model.Colour.parse` reads (the store's refusal
    otherwise)."""
    found = None if colour is None else Colour.parse(colour)
    if colour is not None and found is None:
        raise refusal("colour", colour)
    return found


@dataclass(frozen=True, slots=True)
class Change:
    """One write: the transaction, the tournament as it stands, who acts, and when."""

    conn: AsyncConnection
    loaded: Loaded
    actor: Actor
    now: datetime

    @property
    def folded(self) -> Folded:
        return self.loaded.folded

    @property
    def name(self) -> str:
        return self.loaded.info.name

    def player(self, ref: PlayerRef) -> PlayerInfo:
        return resolve(self.loaded.players, ref, self.name)

    def require_td(self, what: str) -> None:
        if not self.actor.td:
            raise StoreError(f"only a tournament director can {what}", "not-td")

    def check_round(self, round: int) -> None:
        planned = self.loaded.info.rounds
        if not 1 <= round <= planned:
            raise StoreError(
                f"round {round} is out of range: {self.name} has rounds 1–{planned}",
                "round-out-of-range",
            )

    def is_player(self, player: PlayerInfo) -> bool:
        return player.discord_id is not None and player.discord_id == self.actor.user

    async def append(self, kind: EventKind, **fields: object) -> tuple[Event, Folded]:
        """Write the event; return it and the fold of the log with it (the kept fold
        advanced by this event alone)."""
        event = await append_event(self.conn, self.loaded, self.actor, self.now, kind, **fields)
        return event, (await self.loaded.then(event)).folded

    async def event(self, seq: int) -> Event | None:
        """Event ``seq`` of the log, if there is one."""
        info = self.loaded.info
        return await queries.event_at(self.conn, info.guild, info.id, seq)

    def view(self, game: GameState | None, side: int) -> GameView | None:
        by_id = {p.id: p for p in self.loaded.players}
        return None if game is None else GameView.of(game, by_id, side)

    async def send_to_sheet(self, event: Event, **row: str | list[str]) -> bool:
        reported = row.pop("reported_by", [])
        confirmed = row.pop("confirmed_by", "")
        assert isinstance(reported, list) and isinstance(confirmed, str)
        data = outbox.payload(self.loaded, event, reported_by=reported, confirmed_by=confirmed)
        return await outbox.enqueue(self.conn, self.loaded, event, data, self.now)


def _same(a: tuple[EntryKind, Colour | None], b: tuple[EntryKind, Colour | None]) -> bool:
    return a[0] is b[0] and (a[1] is None or b[1] is None or a[1] is b[1])


def _confirmed_elsewhere(
    folded: Folded, round: int, player: int, game: GameState | None
) -> GameState | ByeState | None:
    for item in folded.items(round, player):
        if item is game:
            continue
        if isinstance(item, ByeState) or (item.status is ResultStatus.CONFIRMED and item.counted):
            return item
    return None


def _describe(item: GameState | ByeState, players: dict[int, PlayerInfo]) -> str:
    if isinstance(item, ByeState):
        return f"a {item.kind.value}"
    return GameView.of(item, players).describe()


def _status_message(view: GameView) -> str:
    what = f"round {view.round}, {view.player.label} {view.score} {view.opponent.label}"
    if view.status is ResultStatus.CONFIRMED:
        return f"Confirmed: {what}."
    if view.status is ResultStatus.PROVISIONAL:
        return (
            f"Recorded: {what}. It counts as provisional until {view.opponent.name} "
            "or a TD confirms it."
        )
    if view.conflict:
        return (
            f"Disputed: {what} clashes with another result reported for round "
            f"{view.round}; a TD will decide."
        )
    return f"Disputed: {what}; the players disagree, so a TD will decide."


async def report(
    change: Change,
    *,
    round: int,
    opponent: PlayerRef,
    result: EntryKind | str,
    colour: Colour | str | None = None,
    player: PlayerRef | None = None,
) -> Outcome:
    """A player's report of their own game (see :mod:`bot.store.fold` for what it does)."""
    info, actor = change.loaded.info, change.actor
    if player is None:
        me = next((p for p in change.loaded.players if change.is_player(p)), None)
        if me is None:
            raise StoreError(
                f"you are not registered in {info.name}: join it first", "not-registered"
            )
    else:
        me = change.player(player)
        if not actor.td and not change.is_player(me):
            raise StoreError("you can only report your own games", "not-your-game")
    other = change.player(opponent)
    if other.id == me.id:
        raise StoreError("a player cannot play themselves", "self-pairing")
    if info.status is not TournamentStatus.RUNNING and not actor.td:
        raise StoreError(
            f"{info.name} has not started yet"
            if info.status is TournamentStatus.REGISTERING
            else f"{info.name} is finished: ask a TD to correct a result",
            f"tournament-{info.status.value}",
        )
    change.check_round(round)
    kind, col = side_result(result), _colour(colour)
    if kind is None:
        raise refusal("result", result)
    folded = change.folded
    for p in (me, other):
        withdrawal = folded.withdrawn.get(p.id)
        if withdrawal is not None and round >= withdrawal[0]:
            raise StoreError(f"{p.label} withdrew from round {withdrawal[0]} on", "withdrawn")
    game = folded.game(round, me.id, other.id)
    players = {p.id: p for p in change.loaded.players}
    if game is not None:
        standing = game.seen_by(me.id)
        if game.status is ResultStatus.CONFIRMED and not game.conflict:
            view = change.view(game, me.id)
            assert view is not None
            if _same(standing, (kind, col)):
                return Outcome(
                    False, f"Already confirmed: {view.describe()}.", None, view, view.status
                )
            raise StoreError(
                f"round {round} against {other.label} is already confirmed as "
                f"{view.score}: ask a TD to correct it",
                "already-confirmed",
            )
        mine = game.claim_of(me.id)
        if mine is not None and game.claim_seen_by(mine) == (kind, col):
            view = change.view(game, me.id)
            assert view is not None
            return Outcome(False, f"Already recorded: {view.describe()}.", None, view, view.status)
    for p in (me, other):
        clash = _confirmed_elsewhere(folded, round, p.id, game)
        if clash is not None:
            raise StoreError(
                f"{p.label} already has a confirmed result in round {round} "
                f"({_describe(clash, players)}): ask a TD",
                "already-confirmed",
            )
    earlier = [
        c.seq
        for item in folded.items(round, me.id)
        if isinstance(item, GameState)
        for c in item.claims
        if c.by == me.id
    ]
    event, after = await change.append(
        EventKind.REPORT,
        round=round,
        player=me.id,
        opponent=other.id,
        result=kind,
        colour=col,
        supersedes=max(earlier, default=None),
    )
    view = change.view(after.game(round, me.id, other.id), me.id)
    assert view is not None
    sent = False
    if view.status is ResultStatus.CONFIRMED:
        sent = await change.send_to_sheet(
            event, reported_by=[c.by.name for c in view.claims], confirmed_by=other.name
        )
    return Outcome(True, _status_message(view), event, view, view.status, sent)


async def _report_game(change: Change, seq: int) -> tuple[Event, GameState]:
    event = await change.event(seq)
    if event is None or event.kind is not EventKind.REPORT:
        raise StoreError(f"there is no report #{seq} in {change.name}", "unknown-report")
    if seq in change.folded.reverted:
        raise StoreError(f"report #{seq} was undone by a TD", "stale-report")
    game = change.folded.game_of_report(seq, event.round)
    if game is None:
        raise StoreError(
            f"report #{seq} has been replaced by a newer report or a TD's decision", "stale-report"
        )
    return event, game


async def _last_verdict(change: Change, seq: int) -> EventKind | None:
    info = change.loaded.info
    return await queries.last_verdict(change.conn, info.guild, info.id, seq, change.folded.reverted)


def _check_answerer(change: Change, event: Event, game: GameState, verb: str) -> PlayerInfo:
    assert event.player is not None
    opponent = change.loaded.player(game.other(event.player))
    if change.actor.td or change.is_player(opponent):
        return opponent
    reporter = change.loaded.player(event.player)
    if change.is_player(reporter):
        raise StoreError(
            f"you cannot {verb} your own report: {opponent.name} or a TD must", "not-your-game"
        )
    raise StoreError(
        f"only {opponent.name} (the opponent) or a TD can {verb} this report", "not-your-game"
    )


async def confirm(change: Change, seq: int) -> Outcome:
    """The opponent (or a TD) confirms report ``seq``."""
    event, game = await _report_game(change, seq)
    _check_answerer(change, event, game, "confirm")
    assert event.player is not None
    view = change.view(game, event.player)
    assert view is not None
    claim = next(c for c in game.claims if c.seq == seq)
    agrees = _same(game.claim_seen_by(claim), (view.result, view.colour))
    if game.status is ResultStatus.CONFIRMED and not game.conflict:
        if agrees:
            return Outcome(False, f"Already confirmed: {view.describe()}.", None, view, view.status)
        if not change.actor.td:
            raise StoreError(
                f"round {game.round} is already confirmed as {view.score}: ask a TD to correct it",
                "already-confirmed",
            )
    new, after = await change.append(EventKind.CONFIRM, round=game.round, refers_to=seq)
    result = change.view(after.game_of_report(seq, event.round), event.player)
    assert result is not None
    sent = False
    if result.status is ResultStatus.CONFIRMED:
        sent = await change.send_to_sheet(
            _as_result(event, new),
            reported_by=[c.by.name for c in result.claims],
            confirmed_by=change.actor.label,
        )
    return Outcome(True, _status_message(result), new, result, result.status, sent)


def _as_result(report_event: Event, confirming: Event) -> Event:
    """The confirming event, carrying the confirmed report's game for the sheet row."""
    return replace(
        confirming,
        player=report_event.player,
        opponent=report_event.opponent,
        result=report_event.result,
        colour=report_event.colour,
    )


async def dispute(change: Change, seq: int, note: str = "") -> Outcome:
    """The opponent (or a TD) disputes report ``seq``: the game waits for a TD."""
    event, game = await _report_game(change, seq)
    _check_answerer(change, event, game, "dispute")
    assert event.player is not None
    view = change.view(game, event.player)
    assert view is not None
    if game.status is ResultStatus.CONFIRMED and not game.conflict:
        raise StoreError(
            f"round {game.round} is already confirmed as {view.score}: ask a TD to correct it",
            "already-confirmed",
        )
    if await _last_verdict(change, seq) is EventKind.DISPUTE:
        return Outcome(False, f"Already disputed: {view.describe()}.", None, view, view.status)
    new, after = await change.append(
        EventKind.DISPUTE, round=game.round, refers_to=seq, note=note[:500]
    )
    result = change.view(after.game_of_report(seq, event.round), event.player)
    assert result is not None
    return Outcome(True, _status_message(result), new, result, result.status)


def _latest(folded: Folded, round: int, *players: int) -> int | None:
    seqs = [
        item.latest if isinstance(item, GameState) else item.seq
        for p in players
        for item in folded.items(round, p)
    ]
    return max(seqs, default=None)


async def set_result(
    change: Change,
    *,
    round: int,
    player: PlayerRef,
    opponent: PlayerRef,
    result: EntryKind | str,
    colour: Colour | str | None = None,
) -> Outcome:
    """A TD sets a game's result (confirmed at once; replaces what both players had)."""
    change.require_td("set a result")
    change.check_round(round)
    me, other = change.player(player), change.player(opponent)
    if me.id == other.id:
        raise StoreError("a player cannot play themselves", "self-pairing")
    (kind, double), col = set_result_of(result), _colour(colour)
    folded = change.folded
    game = folded.game(round, me.id, other.id)
    if (
        game is not None
        and game.by_td
        and not game.conflict
        and game.double == double
        and game.seen_by(me.id) == (kind, col)
        and len(folded.items(round, me.id)) == len(folded.items(round, other.id)) == 1
    ):
        view = change.view(game, me.id)
        assert view is not None
        return Outcome(False, f"Already set: {view.describe()}.", None, view, view.status)
    reported = [] if game is None else [change.loaded.player(c.by).name for c in game.claims]
    event, after = await change.append(
        EventKind.SET,
        round=round,
        player=me.id,
        opponent=other.id,
        result=kind,
        colour=col,
        supersedes=_latest(folded, round, me.id, other.id),
        double=double,
    )
    view = change.view(after.game(round, me.id, other.id), me.id)
    assert view is not None
    sent = await change.send_to_sheet(event, reported_by=reported, confirmed_by=change.actor.label)
    return Outcome(True, f"Set: {view.describe()}.", event, view, view.status, sent)


async def set_bye(
    change: Change, *, round: int, player: PlayerRef, kind: EntryKind | str = EntryKind.FULL_BYE
) -> Outcome:
    """A TD gives a player a bye in a round (replacing what they had in it)."""
    change.require_td("give a bye")
    change.check_round(round)
    me, bye = change.player(player), bye_result(kind)
    if bye is None:
        raise refusal("bye", kind)
    items = change.folded.items(round, me.id)
    if len(items) == 1 and isinstance(items[0], ByeState) and items[0].kind is bye:
        return Outcome(False, f"{me.label} already has a {bye.value} in round {round}.")
    event, _ = await change.append(
        EventKind.BYE,
        round=round,
        player=me.id,
        result=bye,
        supersedes=_latest(change.folded, round, me.id),
    )
    sent = await change.send_to_sheet(event)
    return Outcome(
        True,
        f"{me.label} has a {bye.value} in round {round}.",
        event,
        None,
        ResultStatus.CONFIRMED,
        sent,
    )


async def withdraw(change: Change, *, player: PlayerRef, from_round: int) -> Outcome:
    """A TD withdraws a player: their empty rounds from ``from_round`` on count as
    withdrawn (the store's default is the next round to pair)."""
    change.require_td("withdraw a player")
    me = change.player(player)
    first = from_round
    if first > change.loaded.info.rounds:
        raise StoreError(
            f"{change.name} has no rounds left after round "
            f"{change.loaded.info.rounds}: give the first round {me.name} misses",
            "round-out-of-range",
        )
    change.check_round(first)
    previous = change.folded.withdrawn.get(me.id)
    if previous is not None and previous[0] == first:
        return Outcome(False, f"{me.label} is already withdrawn from round {first} on.")
    event, _ = await change.append(
        EventKind.WITHDRAW, round=first, player=me.id, supersedes=previous[1] if previous else None
    )
    sent = await change.send_to_sheet(event)
    return Outcome(True, f"{me.label} is withdrawn from round {first} on.", event, None, None, sent)


async def undo(change: Change, seq: int | None = None) -> Outcome:
    """A TD undoes event ``seq`` (by default the newest event still in force that is not
    itself an undo). Undoing an undo redoes the original."""
    change.require_td("undo a change")
    reverted, info = change.folded.reverted, change.loaded.info
    if seq is None:
        target = None
        newest = queries.newest_events(
            change.conn, info.guild, info.id, schema.events.c.kind != EventKind.REVERT.value
        )
        async with contextlib.aclosing(newest):
            async for e in newest:
                if e.seq not in reverted:
                    target = e
                    break
        if target is None:
            raise StoreError(f"there is nothing to undo in {change.name}", "nothing-to-undo")
    else:
        found = await change.event(seq)
        if found is None:
            raise StoreError(f"there is no event #{seq} in {change.name}", "unknown-event")
        if seq in reverted:
            return Outcome(False, f"Event #{seq} is already undone.")
        target = found
    event, _ = await change.append(EventKind.REVERT, round=target.round, refers_to=target.seq)
    players = {p.id: p for p in change.loaded.players}
    described = EventView(
        target, players.get(target.player or 0), players.get(target.opponent or 0), False
    ).describe()
    sent = False
    if await outbox.has_item(change.conn, change.loaded, target.seq):
        sent = await change.send_to_sheet(event)
    return Outcome(True, f"Undone: {described}", event, None, None, sent)

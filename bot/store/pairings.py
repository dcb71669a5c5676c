"""Pairings in the results log: drafts, swaps, publication, and byes asked for in advance.

A round's pairing is computed by core (:mod:`core.pairing`: the FIDE Dutch system's engine,
then core's check of the absolute criteria) and kept as events, so it survives restarts and
is audited and undone like any result:

- ``pairing`` (TD): the draft of round ``round``; ``note`` holds its boards, bye and the
  players not paired, in starting numbers (JSON). A newer draft of the round replaces it.
- ``swap`` (TD): ``player`` and ``opponent`` exchange places in the round's draft (checked
  against the absolute criteria first).
- ``publish`` (TD): the draft ``refers_to`` is the round's pairing; its pairing-allocated
  bye is given as a ``bye`` event in the same change.
- ``bye`` for a coming round: a member asks for a half- or zero-point bye before the round is
  paired (a TD may give any bye with ``/result bye``); the pairing leaves them out.

Outside the log, the pairing honours the players a TD keeps apart (:mod:`bot.store.kept_apart`)
and the accelerated method the TD announced before round 1 (``acceleration``: FIDE's Baku
Acceleration, C.04.5.1).

``/result undo`` reverts any of these events: an undone ``publish`` makes the round a
draft again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import kept_apart
from bot.store.errors import StoreError, problems_words, refusal
from bot.store.model import EventKind, PlayerInfo, TournamentStatus
from bot.store.players import PlayerRef
from bot.store.queries import Loaded, append_event
from bot.store.results import Change
from core.model import Colour, EntryKind, rounds_played
from core.pairing import (
    Board,
    Numbering,
    PairingRequest,
    RoundPairing,
    check_pairing,
    next_round,
    prepare,
    swap_players,
)
from core.pairing.acceleration import Acceleration
from core.problems import HarknessError
from core.results import bye_result

#: The byes a member may ask for before a round is paired (a TD may give any).
REQUESTABLE = frozenset({EntryKind.HALF_BYE, EntryKind.ZERO_BYE})


@dataclass(frozen=True, slots=True)
class RoundDraft:
    """A round's pairing as the log has it: the draft event ``seq`` with the swaps made
    since, and whether it is published."""

    pairing: RoundPairing
    seq: int
    published: bool


def encode(pairing: RoundPairing) -> str:
    """The ``note`` of a ``pairing`` event (starting numbers).

    >>> p = RoundPairing(2, 5, (Board(1, 3, 1),), bye=2, not_paired=((4, EntryKind.HALF_BYE),))
    >>> encode(p)
    '{"boards": [[3, 1]], "bye": 2, "not_paired": [[4, "half-point bye"]], "rounds": 5}'
    >>> decode(encode(p), 2) == p
    True
    """
    return json.dumps(
        {
            "boards": [[b.white, b.black] for b in pairing.boards],
            "bye": pairing.bye,
            "not_paired": [[n, kind.value] for n, kind in pairing.not_paired],
            "rounds": pairing.rounds,
        }
    )


def decode(note: str, round: int) -> RoundPairing:
    data = json.loads(note)
    boards = tuple(Board(i, w, b) for i, (w, b) in enumerate(data["boards"], start=1))
    not_paired = tuple((int(n), EntryKind(kind)) for n, kind in data["not_paired"])
    return RoundPairing(round, int(data["rounds"]), boards, data["bye"], not_paired)


def drafts(loaded: Loaded) -> dict[int, RoundDraft]:
    """Every round's pairing as the log has it (events undone left out)."""
    reverted = loaded.folded.reverted
    number = {p.id: p.number for p in loaded.players}
    out: dict[int, RoundDraft] = {}
    for e in loaded.pairing_events:
        if e.seq in reverted or e.round is None:
            continue
        current = out.get(e.round)
        if e.kind is EventKind.PAIRING:
            out[e.round] = RoundDraft(decode(e.note, e.round), e.seq, False)
        elif current is None or e.refers_to != current.seq:
            continue
        elif e.kind is EventKind.SWAP:
            assert e.player is not None and e.opponent is not None
            swapped = current.pairing.swapped(number[e.player], number[e.opponent])
            out[e.round] = replace(current, pairing=swapped)
        elif e.kind is EventKind.PUBLISH:
            out[e.round] = replace(current, published=True)
    return out


def published_board(loaded: Loaded, round: int, player: PlayerInfo) -> Board | None:
    """The published board ``player`` is on in ``round``, if the round was paired here."""
    draft = drafts(loaded).get(round)
    if draft is None or not draft.published:
        return None
    return draft.pairing.board_of(player.number)


def round_to_pair(loaded: Loaded) -> int:
    """The round a draft waits to be published in; else the round after the last one
    published here or played (a round whose only entries are byes asked for in advance is
    not played)."""
    found = drafts(loaded)
    last = max((r for r, d in found.items() if d.published), default=0)
    pending = [r for r, d in found.items() if not d.published and r > last]
    if pending:  # a draft waiting to be published (or whose publication was undone)
        return min(pending)
    return max(next_round(loaded.folded.tournament), last + 1)


def next_to_enter(loaded: Loaded) -> int:
    """The next round a player enters or leaves (a late entry, a withdrawal without a first
    round): :func:`round_to_pair`, or the round after the rounds played, when later
    (:func:`core.model.rounds_played`, a round whose game is disputed counted too). A
    round a player is paired in or has a result in is before it; a bye asked for a later
    round moves it by no round."""
    folded = loaded.folded
    return max(round_to_pair(loaded), rounds_played(folded.tournament, folded.pending) + 1)


def request_for(
    loaded: Loaded, round: int | None = None, avoid: Sequence[Sequence[int]] = ()
) -> PairingRequest:
    """What core pairs ``round`` (default: :func:`round_to_pair`) from: the results so far,
    the byes recorded for the round, withdrawals and late entries, the planned rounds, the
    groups of players kept apart (``avoid``, starting numbers: see :func:`request_now`) and
    the accelerated method announced."""
    info = loaded.info
    if info.status is not TournamentStatus.RUNNING:
        raise StoreError(f"{info.name} is not running: start it before pairing", "not-running")
    number = round or round_to_pair(loaded)
    if number > info.rounds:
        raise StoreError(
            f"{info.name} has {info.rounds} rounds, all paired: there is no round {number}",
            "round-out-of-range",
        )
    _results_complete(loaded, number)
    requests: dict[int, EntryKind] = {}
    for p in loaded.players:
        withdrawal = loaded.folded.withdrawn.get(p.id)
        if withdrawal is not None and withdrawal[0] <= number:
            requests[p.number] = EntryKind.WITHDRAWN
        elif p.late_entry_round is not None and p.late_entry_round > number:
            requests[p.number] = EntryKind.ZERO_BYE
    tournament = loaded.folded.tournament
    # A tournament with no results yet has no rounds: round 1 still needs its players.
    try:
        # A Discord event's numbers are the order players joined, not pairing numbers:
        # C.04.2's initial order gives those.
        return prepare(
            tournament,
            number,
            rounds=info.rounds,
            requests=requests,
            avoid=avoid,
            numbering=Numbering.INITIAL_ORDER,
            acceleration=Acceleration(info.acceleration) if info.acceleration else None,
        )
    except HarknessError as error:
        raise StoreError(problems_words(error), "cannot-pair") from None


async def request_now(
    conn: AsyncConnection, loaded: Loaded, round: int | None = None
) -> PairingRequest:
    """:func:`request_for` with the groups kept apart read from the database."""
    groups = await kept_apart.load(conn, loaded)
    return request_for(loaded, round, kept_apart.numbers(groups))


def _results_complete(loaded: Loaded, round: int) -> None:
    """The rounds published before ``round`` must have every game's result."""
    by_number = {p.number: p for p in loaded.players}
    missing = []
    for r, draft in sorted(drafts(loaded).items()):
        if r >= round or not draft.published:
            continue
        entries = {p.id: p.entries for p in loaded.folded.tournament.players}
        for board in draft.pairing.boards:
            white = entries.get(board.white, ())
            if len(white) < r or not white[r - 1].kind.has_opponent:
                missing.append(
                    f"round {r} board {board.number} "
                    f"({by_number[board.white].label} – {by_number[board.black].label})"
                )
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise StoreError(
            f"round {round} cannot be paired before every result is in: "
            f"{', '.join(missing[:3])}{more} still has none (or is disputed)",
            "results-missing",
        )


async def check_unchanged(change: Change, request: PairingRequest) -> None:
    """The tournament must be as it was when the pairing was computed (off the event loop,
    outside this transaction)."""
    if await request_now(change.conn, change.loaded, request.round) != request:
        raise StoreError(
            "the tournament changed while the round was being paired: please pair it again",
            "changed",
        )


async def _append_all(change: Change, *events: tuple[EventKind, dict[str, object]]) -> Loaded:
    """Append events in order, each seeing the ones before; the log as it is afterwards."""
    loaded = change.loaded
    for kind, fields in events:
        event = await append_event(change.conn, loaded, change.actor, change.now, kind, **fields)
        loaded = await loaded.then(event)
    return loaded


def _unpublished(loaded: Loaded, round: int) -> RoundDraft | None:
    draft = drafts(loaded).get(round)
    if draft is not None and draft.published:
        raise StoreError(
            f"round {round} is already published: undo the publication (/result undo) to change it",
            "published",
        )
    return draft


async def save(
    change: Change, request: PairingRequest, pairing: RoundPairing, *, publish: bool
) -> RoundDraft:
    """Keep a pairing computed for ``request`` as the round's draft, and publish it."""
    change.require_td("pair rounds")
    await check_unchanged(change, request)
    _unpublished(change.loaded, request.round)
    events: list[tuple[EventKind, dict[str, object]]] = [
        (EventKind.PAIRING, {"round": request.round, "note": encode(pairing)})
    ]
    loaded = await _append_all(change, *events)
    if publish:
        loaded = await _publish(replace(change, loaded=loaded), request.round)
    return drafts(loaded)[request.round]


async def publish(change: Change, round: int | None = None) -> tuple[RoundDraft, PairingRequest]:
    """Publish the round's draft (checked again against the tournament as it is now)."""
    change.require_td("publish pairings")
    request = await request_now(change.conn, change.loaded, round)
    draft = _unpublished(change.loaded, request.round)
    if draft is None:
        raise StoreError(f"round {request.round} has no draft pairing", "no-draft")
    _check_draft(request, draft)
    loaded = await _publish(change, request.round)
    return drafts(loaded)[request.round], request


def _check_draft(request: PairingRequest, draft: RoundDraft) -> None:
    current = replace(draft.pairing, not_paired=tuple(request.not_paired.items()))
    try:
        check_pairing(request, current)
    except HarknessError as error:
        raise StoreError(
            f"the draft of round {request.round} no longer fits the tournament "
            f"({problems_words(error)}): pair it again",
            "stale-draft",
        ) from None


async def _publish(change: Change, round: int) -> Loaded:
    draft = drafts(change.loaded)[round]
    events: list[tuple[EventKind, dict[str, object]]] = [
        (EventKind.PUBLISH, {"round": round, "refers_to": draft.seq})
    ]
    if draft.pairing.bye is not None:
        bye = next(p for p in change.loaded.players if p.number == draft.pairing.bye)
        events.append(
            (EventKind.BYE, {"round": round, "player": bye.id, "result": EntryKind.PAIRING_BYE})
        )
    return await _append_all(change, *events)


async def swap(change: Change, a: PlayerRef, b: PlayerRef) -> tuple[RoundDraft, PairingRequest]:
    """Exchange two players' places in the next round's draft (a TD's fix)."""
    change.require_td("change pairings")
    first, second = change.player(a), change.player(b)
    found = drafts(change.loaded)
    if not found:
        raise StoreError("there is no draft pairing: /round preview makes one", "no-draft")
    draft = _unpublished(change.loaded, max(found))
    assert draft is not None
    request = await request_now(change.conn, change.loaded, draft.pairing.round)
    try:
        swapped = swap_players(request, draft.pairing, first.number, second.number)
    except HarknessError as error:
        raise StoreError(
            f"that swap breaks the pairing rules: {problems_words(error)}", "bad-swap"
        ) from None
    loaded = await _append_all(
        change,
        (
            EventKind.SWAP,
            {
                "round": request.round,
                "player": first.id,
                "opponent": second.id,
                "refers_to": draft.seq,
            },
        ),
    )
    after = drafts(loaded)[request.round]
    assert after.pairing == swapped
    return after, request


async def request_bye(
    change: Change, *, round: int, kind: EntryKind | str, player: PlayerRef | None = None
) -> str:
    """A member asks for a bye in a round not yet paired (a TD may ask for a player)."""
    loaded, actor = change.loaded, change.actor
    if player is None:
        me = next((p for p in loaded.players if change.is_player(p)), None)
        if me is None:
            raise StoreError(f"you are not registered in {loaded.info.name}", "not-registered")
    else:
        me = change.player(player)
        if not actor.td and not change.is_player(me):
            raise StoreError("you can only ask for your own bye", "not-your-game")
    found = bye_result(kind)
    if found is None:
        raise refusal("bye", kind)
    if found not in REQUESTABLE and not actor.td:
        raise StoreError("a member may ask for a half- or zero-point bye", "bad-bye")
    change.check_round(round)
    first = round_to_pair(loaded)
    draft = drafts(loaded).get(round)
    if round < first or (draft is not None and draft.published):
        raise StoreError(
            f"round {round} is already paired: ask a TD for a bye in it", "already-paired"
        )
    await _append_all(change, (EventKind.BYE, {"round": round, "player": me.id, "result": found}))
    return f"{me.label} has a {found.value} in round {round}"


def on_board(
    change: Change,
    round: int,
    opponent: PlayerRef | None,
    colour: Colour | str | None,
    player: PlayerRef | None,
) -> tuple[PlayerRef, Colour | str | None]:
    """The opponent and colour of a report, from the published board when not typed (the
    colour too when the opponent typed is the one on the board)."""
    loaded = change.loaded
    if player is None:
        me = next((p for p in loaded.players if change.is_player(p)), None)
    else:
        me = change.player(player)
    board = published_board(loaded, round, me) if me is not None else None
    if opponent is None:
        if me is None:
            raise StoreError(
                f"you are not registered in {loaded.info.name}: join it first", "not-registered"
            )
        if board is None:
            raise StoreError(
                f"round {round} has no published board for {me.label}: name the opponent",
                "no-board",
            )
        opponent = board.opponent_of(me.number)
    if (
        colour is None
        and board is not None
        and me is not None
        and change.player(opponent).number == board.opponent_of(me.number)
    ):
        colour = board.colour_for(me.number)
    return opponent, colour

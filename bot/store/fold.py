"""The fold: a tournament's results log, replayed into its current state (pure, no I/O).

Events are replayed in order. A ``revert`` takes its target out of the replay (a revert of
a revert puts it back), so undo needs no special case anywhere else. The rules:

- **report**: a player's claim about their game in a round. A player has at most one claim
  per round: a new report replaces their earlier one. One claim is *provisional*; the
  opponent's agreeing claim *confirms* it; a disagreeing one makes the game *disputed*.
  Colour agrees when it is the same or one side left it out.
- **confirm** / **dispute**: the verdict on one report, while that report is current.
- **set**, **bye**, **clear** (TD): replace whatever both players (or the player) had in that
  round; a TD's result is confirmed.
- **withdraw** (TD): the player's rounds from then on with nothing in them are withdrawn.

A player who is in two things in one round (two opponents claimed, or a game and a bye) has
a *pairing conflict*: a confirmed item wins over unconfirmed ones, otherwise everything
involved is disputed. Disputed results do not count in the tournament; provisional ones
count and are marked, so standings can say so.

>>> from datetime import UTC, datetime
>>> from core.model import EntryKind
>>> roster = (PlayerInfo(1, 1, "Ann"), PlayerInfo(2, 2, "Bob"))
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> log = [Event(1, EventKind.REPORT, "ann", at, round=1, player=1, opponent=2,
...              result=EntryKind.WIN)]
>>> state = fold(roster, log, TournamentInfo(1, "g", "Club", "uscf", None, 3,
...                                          TournamentStatus.RUNNING, "td", at))
>>> [str(e) for e in state.tournament.player(1).entries]
['W2']
>>> {where: mark.value for where, mark in state.marks.items()}
{(1, 1): 'provisional', (2, 1): 'provisional'}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from bot.store.model import (
    Event,
    EventKind,
    PlayerInfo,
    ResultStatus,
    TournamentInfo,
    TournamentStatus,
)
from core.log import Board, LiveReplay, Part, Replay
from core.model import Colour, EntryKind, Player, RoundEntry, Tournament, colours_agree, mirrored
from core.problems import HarknessError

Pair = tuple[int, int]


class Claim(NamedTuple):
    """A result as one player reported it, stored from the game's lower id's side;
    ``double`` marks a double forfeit (a forfeit loss for both sides)."""

    by: int
    result: EntryKind
    colour: Colour | None
    seq: int
    double: bool = False

    def agrees(self, other: Claim) -> bool:
        return (
            self.result is other.result
            and self.double == other.double
            and colours_agree(self.colour, other.colour)
        )


class GameState(NamedTuple):
    """One game of one round after the fold.

    ``low`` and ``high`` are the players' ids (``low < high``); ``result`` and ``colour``
    are from ``low``'s side: the result that stands, or for a disputed game the latest
    claim. ``counted`` says whether it is in the tournament (provisional and confirmed games
    are, disputed ones are not). ``decided_by`` is the event that settled it (a TD's ``set``,
    a ``confirm``, or the agreeing report), None while open.
    """

    round: int
    low: int
    high: int
    result: EntryKind
    colour: Colour | None
    status: ResultStatus
    claims: tuple[Claim, ...]
    decided_by: int | None
    by_td: bool
    counted: bool
    conflict: bool = False
    #: A double forfeit: a forfeit loss for both (``result`` is the forfeit loss).
    double: bool = False

    def other(self, player: int) -> int:
        return self.high if player == self.low else self.low

    def seen_by(self, player: int) -> tuple[EntryKind, Colour | None]:
        """The result and colour from ``player``'s side."""
        return _side(self.result, self.colour, self.low, player, self.double)

    def claim_seen_by(self, claim: Claim) -> tuple[EntryKind, Colour | None]:
        """A claim's result and colour from its reporter's side."""
        return _side(claim.result, claim.colour, self.low, claim.by, claim.double)

    def claim_of(self, player: int) -> Claim | None:
        return next((c for c in self.claims if c.by == player), None)

    @property
    def latest(self) -> int:
        """The newest event that shaped this game."""
        return max([c.seq for c in self.claims] + [self.decided_by or 0])


def _side(
    result: EntryKind, colour: Colour | None, low: int, player: int, double: bool = False
) -> tuple[EntryKind, Colour | None]:
    if player == low:
        return result, colour
    return mirrored(result, colour, double)


class ByeState(NamedTuple):
    """A bye (or other no-opponent entry) a TD gave a player in a round."""

    round: int
    player: int
    kind: EntryKind
    seq: int
    counted: bool


@dataclass(frozen=True, slots=True)
class RoundFold:
    """One round of the fold, settled: its games and byes (of every status, by pair and by
    player), and the marks standings show (by player id). It depends on the round's board
    alone, so a change to another round leaves it as it is."""

    round: int
    games: tuple[GameState, ...]
    byes: tuple[ByeState, ...]
    marks: dict[int, ResultStatus]
    #: The games waiting for a confirmation or a TD (provisional or disputed).
    open: tuple[GameState, ...] = ()
    #: Whether a game of the round waits outside the tournament (disputed).
    pending: bool = False
    _items: dict[int, list[GameState | ByeState]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def items(self, player: int) -> list[GameState | ByeState]:
        """Everything ``player`` has in the round: games (of any status) and byes."""
        if not self._items and (self.games or self.byes):
            for game in self.games:
                for p in (game.low, game.high):
                    self._items.setdefault(p, []).append(game)
            for bye in self.byes:
                self._items.setdefault(bye.player, []).append(bye)
        return self._items.get(player, [])

    @property
    def entered(self) -> bool:
        """Whether anything (a game of any status, or a bye) is in the round."""
        return bool(self.games or self.byes)


@dataclass(frozen=True, slots=True, eq=False)
class Folded:
    """A tournament's state: every game and bye by round (:class:`RoundFold`),
    withdrawals, the undone events, and, built from those on first use, the core
    tournament (with starting numbers) and the marks standings show: ``marks[(number,
    round)]`` is ``provisional`` or ``disputed`` for results that are not (or not yet)
    confirmed.

    Building the tournament costs what the section's size costs (every player's every
    round): :meth:`complete` builds it, off the event loop, before anything reads it there.
    Everything else reads one round or the few open games."""

    players: tuple[PlayerInfo, ...]
    info: TournamentInfo
    settled: dict[int, RoundFold]
    withdrawn: dict[int, tuple[int, int]]
    last_seq: int
    reverted: frozenset[int]
    _built: dict[str, object] = field(default_factory=dict, repr=False)

    @property
    def rounds(self) -> int:
        """The tournament's rounds: the last with anything in it (a finished tournament's
        planned rounds when more)."""
        entered = max((r for r, f in self.settled.items() if f.entered), default=0)
        finished = self.info.status is TournamentStatus.FINISHED
        return max(entered, self.info.rounds if finished else 0)

    @property
    def tournament(self) -> Tournament:
        """The core tournament (built on first use: see :meth:`complete`)."""
        found = self._built.get("tournament")
        if found is None:
            found = self._built["tournament"] = _tournament(self)
        assert isinstance(found, Tournament)
        return found

    def complete(self) -> Folded:
        """This state with its tournament built (a worker thread's job for a large
        section)."""
        _ = self.tournament
        return self

    @property
    def games(self) -> tuple[GameState, ...]:
        """Every game, by round then pair."""
        return tuple(g for r in sorted(self.settled) for g in self.settled[r].games)

    @property
    def byes(self) -> tuple[ByeState, ...]:
        """Every bye, by round then player."""
        return tuple(b for r in sorted(self.settled) for b in self.settled[r].byes)

    @property
    def open_games(self) -> tuple[GameState, ...]:
        """The games waiting for a confirmation or a TD (provisional or disputed)."""
        return tuple(g for r in sorted(self.settled) for g in self.settled[r].open)

    @property
    def marks(self) -> dict[tuple[int, int], ResultStatus]:
        """The marks of results not (or not yet) confirmed, by (starting number, round)."""
        number = {p.id: p.number for p in self.players}
        return {
            (number[p], r): mark
            for r in sorted(self.settled)
            for p, mark in self.settled[r].marks.items()
        }

    def items(self, round: int, player: int) -> list[GameState | ByeState]:
        """Everything ``player`` has in ``round``: games (of any status) and byes."""
        found = self.settled.get(round)
        return found.items(player) if found is not None else []

    def game(self, round: int, a: int, b: int) -> GameState | None:
        """The game between players ``a`` and ``b`` in ``round``, if anyone reported it."""
        for item in self.items(round, a):
            if isinstance(item, GameState) and item.other(a) == b:
                return item
        return None

    @property
    def pending(self) -> frozenset[int]:
        """The rounds with a game whose result waits outside :attr:`tournament` (disputed):
        played rounds all the same (:func:`core.model.rounds_played`'s ``pending``)."""
        return frozenset(r for r, f in self.settled.items() if f.pending)

    def game_of_report(self, seq: int, round: int | None = None) -> GameState | None:
        """The game in which report ``seq`` (made for ``round``, when known) is still a
        current claim."""
        rounds = [round] if round is not None else sorted(self.settled)
        for r in rounds:
            found = self.settled.get(r)
            for g in found.games if found is not None else ():
                if any(c.seq == seq for c in g.claims):
                    return g
        return None


@dataclass(slots=True)
class _Game:
    """A game of a board as the replay leaves it: the players' current claims, the verdicts
    on them, and a TD's decision. Most games of a large section are a TD's decision alone
    (an import), so the claims and verdicts are made only for a game that has some."""

    round: int
    low: int
    high: int
    claims: dict[int, Claim] | None = None
    verdicts: dict[int, tuple[bool, int]] | None = None
    decision: Claim | None = None

    def claim(self, claim: Claim) -> None:
        if self.claims is None:
            self.claims = {}
        self.claims[claim.by] = claim

    def verdict(self, seq: int, confirmed: bool, by: int) -> None:
        if self.verdicts is None:
            self.verdicts = {}
        self.verdicts[seq] = (confirmed, by)

    def current(self) -> tuple[Claim, ...]:
        """The current claims, oldest first."""
        return tuple(sorted(self.claims.values(), key=lambda c: c.seq)) if self.claims else ()

    def settle(self) -> tuple[ResultStatus, Claim, int | None]:
        """Status, the claim that stands (or the latest one), and the deciding event."""
        if self.decision is not None:
            return ResultStatus.CONFIRMED, self.decision, self.decision.seq
        claims = self.current()
        verdicts = self.verdicts or {}
        confirmed = [
            (verdict[1], c)
            for c in claims
            if (verdict := verdicts.get(c.seq)) is not None and verdict[0]
        ]
        if confirmed:
            seq, claim = max(confirmed, key=lambda vc: vc[0])
            return ResultStatus.CONFIRMED, claim, seq
        latest = claims[-1]
        if len(claims) == 2:
            first = claims[0]
            if first.agrees(latest):
                merged = latest._replace(colour=latest.colour or first.colour)
                return ResultStatus.CONFIRMED, merged, latest.seq
            return ResultStatus.DISPUTED, latest, None
        verdict = verdicts.get(latest.seq)
        if verdict is not None and not verdict[0]:
            return ResultStatus.DISPUTED, latest, None
        return ResultStatus.PROVISIONAL, latest, None


#: One round of the fold: games (by pair) and byes as :class:`core.log.Board` replays them.
_Round = Board[_Game, tuple[EntryKind, int]]
_Fold = Replay[_Game, tuple[EntryKind, int], tuple[int, int]]
#: The events a round's pairing is made of (:func:`bot.store.pairings.drafts`).
PAIRING_KINDS = frozenset({EventKind.PAIRING, EventKind.SWAP, EventKind.PUBLISH})


def _seq(e: Event) -> int:
    return e.seq


def _reverts(e: Event) -> int | None:
    return e.refers_to if e.kind is EventKind.REVERT else None


def part_of(e: Event) -> Part:
    """What an event changes in the fold, and no event of another part does: a withdrawal
    its player's, anything else its round's board."""
    if e.kind is EventKind.WITHDRAW:
        return Part(True, e.player or 0)
    return Part(False, e.round or 0)


def fold(players: Sequence[PlayerInfo], events: Sequence[Event], info: TournamentInfo) -> Folded:
    """Replay ``events`` (in seq order) for ``players`` into the tournament's state."""
    return LiveFold(events).folded(tuple(players), info)


class LiveFold:
    """A tournament's log folded, kept as the log grows: a :class:`core.log.LiveReplay` of
    it, each round settled (:class:`RoundFold`) again only when its board changes. Adding
    an event costs the event and its round, not the log: a result set in a section of
    10,000 players and 99 rounds settles one round of 5,000 games.

    An undo changes which earlier events are in force: :meth:`changes` names them, and
    :meth:`add` is given every event of the rounds (or players' withdrawals) they belong
    to (:func:`part_of`), which alone are replayed again. :meth:`add` leaves the rounds it
    changed to :meth:`settle` (so that many events settle each round once). A log read a
    piece at a time is folded by :meth:`begin`, :meth:`feed` and :meth:`finish`. The events
    of the log's pairings (a draft, its swaps and its publication a round) are kept for
    :func:`bot.store.pairings.drafts`.
    """

    def __init__(self, events: Sequence[Event] = ()) -> None:
        #: The game each report was made in, by (round, seq): a function of the report
        #: alone, so entries of reports no longer in force are never wrong, only unused.
        self._report_in: dict[tuple[int, int], Pair] = {}
        #: Events replayed so far (each time one is: an undo replays its rounds' again).
        self.stepped = 0
        self._live: LiveReplay[Event, int, _Game, tuple[EntryKind, int], tuple[int, int]]
        self._live = LiveReplay.of(events, self._step, key=_seq, undoes=_reverts, part=part_of)
        self.last_seq = events[-1].seq if events else 0
        self.size = len(events)
        self.pairing_events = [e for e in events if e.kind in PAIRING_KINDS]
        self.settled: dict[int, RoundFold] = {}
        self._unsettled: set[int] = set(self._live.state.rounds)
        self.settle()

    @classmethod
    def begin(cls, reverts: Sequence[Event], pairing_events: Sequence[Event]) -> LiveFold:
        """An empty fold of a log whose reverts and pairing events are these (every one,
        oldest first), to be fed the whole log in order (:meth:`feed`) and then
        :meth:`finish` ed."""
        fold = cls()
        fold._live = LiveReplay.begin(reverts, fold._step, key=_seq, undoes=_reverts, part=part_of)
        fold.pairing_events = list(pairing_events)
        return fold

    def feed(self, events: Iterable[Event]) -> None:
        """Fold the log's next events (see :meth:`begin`)."""
        counted = _Counted(events)
        self._live.feed(counted)
        self.size += counted.count
        self.last_seq = max(self.last_seq, counted.last)

    def finish(self) -> LiveFold:
        """Settle every round of a fold that was fed (see :meth:`begin`)."""
        self._unsettled.update(self._live.state.rounds)
        self.settle()
        return self

    def _step(self, state: _Fold, e: Event) -> None:
        self.stepped += 1
        _apply(state, e, self._report_in)

    @property
    def reverted(self) -> frozenset[int]:
        return self._live.undone

    def changes(self, event: Event) -> frozenset[int]:
        """The seqs of earlier events (reverts left out) that ``event``, added next, takes
        back or restores: none unless it is a revert."""
        return self._live.changes(event)

    def add(self, event: Event, parts: Mapping[Part, Sequence[Event]] | None = None) -> None:
        """Advance by ``event`` (the next of the log); for a revert, ``parts`` gives every
        event of each part an event :meth:`changes` names belongs to, oldest first. The
        rounds it changes wait for :meth:`settle`."""
        assert event.seq > self.last_seq, (event.seq, self.last_seq)
        for part in self._live.add(event, parts):
            if not part.withdrawal:
                self._unsettled.add(part.number)
        self.last_seq = event.seq
        self.size += 1
        if event.kind in PAIRING_KINDS:
            self.pairing_events.append(event)

    def settle(self) -> LiveFold:
        """Settle the rounds changed since the last time (each a :class:`RoundFold`)."""
        rounds = self._live.state.rounds
        for r in self._unsettled:
            board = rounds.get(r)
            if board is None:
                self.settled.pop(r, None)
            else:
                self.settled[r] = settle_round(r, board)
        self._unsettled.clear()
        return self

    def folded(self, players: tuple[PlayerInfo, ...], info: TournamentInfo) -> Folded:
        """The state as it stands, for ``players`` and ``info`` (it shares the settled
        rounds, which never change: a later event settles its round anew)."""
        assert not self._unsettled, "rounds changed and not settled"
        return Folded(
            players,
            info,
            dict(self.settled),
            dict(self._live.state.withdrawn),
            self.last_seq,
            self._live.undone,
        )


class _Counted:
    """Events passed through, counted, and the last seq seen."""

    def __init__(self, events: Iterable[Event]) -> None:
        self._events = events
        self.count = 0
        self.last = 0

    def __iter__(self) -> Iterator[Event]:
        for e in self._events:
            self.count += 1
            self.last = e.seq
            yield e


def _normalised(e: Event) -> tuple[Pair, Claim]:
    assert e.player is not None and e.opponent is not None and e.result is not None
    if e.player < e.opponent:
        return (e.player, e.opponent), Claim(e.player, e.result, e.colour, e.seq, e.double)
    result, colour = mirrored(e.result, e.colour, e.double)
    return (e.opponent, e.player), Claim(e.player, result, colour, e.seq, e.double)


def _apply(state: _Fold, e: Event, report_in: dict[tuple[int, int], Pair]) -> None:
    """One event in force. ``report_in[(round, seq)]`` is the game each report was made in
    (the report may have been replaced since)."""
    kind = e.kind
    if kind is EventKind.WITHDRAW:
        assert e.player is not None and e.round is not None
        state.withdraw(e.player, (e.round, e.seq))
        return
    assert e.round is not None
    r = state.board(e.round)
    if kind is EventKind.REPORT:
        key, claim = _normalised(e)
        for other in tuple(r.of_player.get(claim.by, ())):
            replaced = r.games[other]
            if (
                other != key
                and replaced.claims is not None
                and replaced.claims.pop(claim.by, None) is not None
                and not replaced.claims
                and replaced.decision is None
            ):
                r.drop(other)
        game = r.games.get(key)
        if game is None:
            game = _Game(e.round, *key)
            r.add(*key, game)
        game.claim(claim)
        report_in[(e.round, e.seq)] = key
    elif kind is EventKind.CONFIRM or kind is EventKind.DISPUTE:
        assert e.refers_to is not None
        found = r.games.get(report_in.get((e.round, e.refers_to), (0, 0)))
        if found is not None and any(c.seq == e.refers_to for c in found.current()):
            found.verdict(e.refers_to, kind is EventKind.CONFIRM, e.seq)
    elif kind is EventKind.SET:
        key, claim = _normalised(e)
        decision = Claim(-1, claim.result, claim.colour, e.seq, claim.double)
        r.set(*key, _Game(e.round, *key, decision=decision))
    elif kind is EventKind.BYE:
        assert e.player is not None and e.result is not None
        r.bye(e.player, (e.result, e.seq))
    elif kind is EventKind.CLEAR:
        assert e.player is not None
        r.clear(e.player)


def settle_round(r: int, state: _Round) -> RoundFold:
    """Round ``r``'s board settled: each game's status (a pairing conflict disputes what
    clashes), which games and byes count, and the marks."""
    settled = {key: g.settle() for key, g in state.games.items()}
    clash = _Clashes()
    for (low, high), (status, _, _) in settled.items():
        clash.count(status is ResultStatus.CONFIRMED, low, high)
    for p in state.byes:
        clash.count(True, p)
    games: list[GameState] = []
    byes: list[ByeState] = []
    marks: dict[int, ResultStatus] = {}
    counted: set[int] = set()
    left_out: list[tuple[int, ...]] = []
    for key, (status, claim, decided) in sorted(settled.items()):
        low, high = key
        conflict = clash.conflicted(status is ResultStatus.CONFIRMED, low, high)
        if conflict:
            status = ResultStatus.DISPUTED
        game = state.games[key]
        g = GameState(
            r,
            low,
            high,
            claim.result,
            claim.colour,
            status,
            game.current(),
            decided,
            game.decision is not None,
            status is not ResultStatus.DISPUTED,
            conflict,
            claim.double,
        )
        games.append(g)
        if not g.counted:
            left_out.append(key)
            continue
        counted.update(key)
        if status is ResultStatus.PROVISIONAL:
            marks[low] = marks[high] = status
    for p, (kind, seq) in sorted(state.byes.items()):
        bye = ByeState(r, p, kind, seq, not clash.conflicted(True, p))
        byes.append(bye)
        if bye.counted:
            counted.add(p)
        else:
            left_out.append((p,))
    for who in left_out:
        for p in who:
            if p not in counted:
                marks[p] = ResultStatus.DISPUTED
    waiting = tuple(g for g in games if g.status is not ResultStatus.CONFIRMED)
    return RoundFold(
        r, tuple(games), tuple(byes), marks, waiting, any(not g.counted for g in waiting)
    )


def _tournament(state: Folded) -> Tournament:
    """The core tournament of a fold: each player's counted results, their other rounds
    absent (withdrawn from their withdrawal on)."""
    total = state.rounds
    number = {p.id: p.number for p in state.players}
    rows: dict[int, list[RoundEntry | None]] = {p.id: [None] * total for p in state.players}
    for r, found in state.settled.items():
        for g in found.games:
            if g.counted:
                for p in (g.low, g.high):
                    kind, colour = g.seen_by(p)
                    rows[p][r - 1] = RoundEntry(kind, number[g.other(p)], colour)
        for bye in found.byes:
            if bye.counted:
                rows[bye.player][r - 1] = RoundEntry(bye.kind)
    core_players = [_core_player(p, rows[p.id], state.withdrawn.get(p.id)) for p in state.players]
    info = state.info
    try:
        return Tournament(
            tuple(sorted(core_players, key=lambda p: p.id)),
            total,
            info.name,
            info.start_date,
            info.end_date,
            info.round_robin,
            info.records,
        )
    except HarknessError as error:  # pragma: no cover - the fold builds consistent pairs
        raise AssertionError(f"the fold built an inconsistent tournament: {error}") from error


@dataclass(slots=True)
class _Clashes:
    """How many things (and confirmed things) each player has in one round."""

    total: dict[int, int] = field(default_factory=dict)
    confirmed: dict[int, int] = field(default_factory=dict)

    def count(self, confirmed: bool, *players: int) -> None:
        for p in players:
            self.total[p] = self.total.get(p, 0) + 1
            if confirmed:
                self.confirmed[p] = self.confirmed.get(p, 0) + 1

    def conflicted(self, confirmed: bool, *players: int) -> bool:
        """Whether an item of these players clashes with another: it stands when it is
        alone, or when it is confirmed and everything else it meets is not."""
        if all(self.total[p] == 1 for p in players):
            return False
        return not (confirmed and all(self.confirmed[p] == 1 for p in players))


def _core_player(
    p: PlayerInfo, entries: Iterable[RoundEntry | None], withdrawal: tuple[int, int] | None
) -> Player:
    first_missed = withdrawal[0] if withdrawal else None
    filled = tuple(
        e
        if e is not None
        else RoundEntry(
            EntryKind.WITHDRAWN if first_missed and r >= first_missed else EntryKind.ABSENT
        )
        for r, e in enumerate(entries, start=1)
    )
    external = tuple(
        (system, value)
        for system, value in (("discord", p.discord_id), ("uscf", p.uscf_id))
        if value
    )
    return Player(
        p.number,
        p.name,
        filled,
        p.rating,
        p.title,
        p.sex,
        p.federation,
        p.fide_id or "",
        p.birth_date,
        external,
    )

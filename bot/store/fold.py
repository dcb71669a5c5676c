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

from collections.abc import Iterable, Sequence
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
from core.log import Board, Replay, replay, undone
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
class Folded:
    """A tournament's state: the core tournament (with starting numbers), every game and
    bye by round, withdrawals, and the marks standings show: ``marks[(number, round)]`` is
    ``provisional`` or ``disputed`` for results that are not (or not yet) confirmed."""

    tournament: Tournament
    games: tuple[GameState, ...]
    byes: tuple[ByeState, ...]
    withdrawn: dict[int, tuple[int, int]]
    marks: dict[tuple[int, int], ResultStatus]
    last_seq: int
    reverted: frozenset[int]
    _items: dict[tuple[int, int], list[GameState | ByeState]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def items(self, round: int, player: int) -> list[GameState | ByeState]:
        """Everything ``player`` has in ``round``: games (of any status) and byes."""
        if not self._items and (self.games or self.byes):
            for game in self.games:
                for p in (game.low, game.high):
                    self._items.setdefault((game.round, p), []).append(game)
            for bye in self.byes:
                self._items.setdefault((bye.round, bye.player), []).append(bye)
        return self._items.get((round, player), [])

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
        return frozenset(g.round for g in self.games if not g.counted)

    def game_of_report(self, seq: int) -> GameState | None:
        """The game in which report ``seq`` is still a current claim."""
        for g in self.games:
            if any(c.seq == seq for c in g.claims):
                return g
        return None


@dataclass(slots=True)
class _Game:
    round: int
    low: int
    high: int
    claims: dict[int, Claim] = field(default_factory=dict)
    verdicts: dict[int, tuple[bool, int]] = field(default_factory=dict)
    decision: Claim | None = None

    def settle(self) -> tuple[ResultStatus, Claim, int | None]:
        """Status, the claim that stands (or the latest one), and the deciding event."""
        if self.decision is not None:
            return ResultStatus.CONFIRMED, self.decision, self.decision.seq
        claims = sorted(self.claims.values(), key=lambda c: c.seq)
        confirmed = [
            (verdict[1], c)
            for c in claims
            if (verdict := self.verdicts.get(c.seq)) is not None and verdict[0]
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
        verdict = self.verdicts.get(latest.seq)
        if verdict is not None and not verdict[0]:
            return ResultStatus.DISPUTED, latest, None
        return ResultStatus.PROVISIONAL, latest, None


#: One round of the fold: games (by pair) and byes as :class:`core.log.Board` replays them.
_Round = Board[_Game, tuple[EntryKind, int]]
_Fold = Replay[_Game, tuple[EntryKind, int], tuple[int, int]]


def reverted_events(events: Sequence[Event]) -> frozenset[int]:
    """The seqs of events that are undone: reverted by a revert that is itself in force
    (:func:`core.log.undone`: a revert of a revert restores the original)."""
    return undone(events, key=lambda e: e.seq, undoes=_reverts)


def _reverts(e: Event) -> int | None:
    return e.refers_to if e.kind is EventKind.REVERT else None


def fold(players: Sequence[PlayerInfo], events: Sequence[Event], info: TournamentInfo) -> Folded:
    """Replay ``events`` (in seq order) for ``players`` into the tournament's state."""
    reverted = reverted_events(events)
    report_in: dict[tuple[int, int], Pair] = {}

    def step(state: _Fold, e: Event) -> None:
        _apply(state, e, report_in)

    replayed = replay(events, step, key=lambda e: e.seq, undoes=_reverts)
    last = events[-1].seq if events else 0
    return _settle(players, replayed, info, last, reverted)


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
                and replaced.claims.pop(claim.by, None) is not None
                and not replaced.claims
                and replaced.decision is None
            ):
                r.drop(other)
        game = r.games.get(key)
        if game is None:
            game = _Game(e.round, *key)
            r.add(*key, game)
        game.claims[claim.by] = claim
        report_in[(e.round, e.seq)] = key
    elif kind is EventKind.CONFIRM or kind is EventKind.DISPUTE:
        assert e.refers_to is not None
        found = r.games.get(report_in.get((e.round, e.refers_to), (0, 0)))
        if found is not None and any(c.seq == e.refers_to for c in found.claims.values()):
            found.verdicts[e.refers_to] = (kind is EventKind.CONFIRM, e.seq)
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


def _settle(
    players: Sequence[PlayerInfo],
    replayed: _Fold,
    info: TournamentInfo,
    last: int,
    reverted: frozenset[int],
) -> Folded:
    rounds, withdrawn = replayed.rounds, replayed.withdrawn
    number = {p.id: p.number for p in players}
    entered = max((r for r, state in rounds.items() if state.games or state.byes), default=0)
    total = max(entered, info.rounds if info.status is TournamentStatus.FINISHED else 0)
    out = _Settled({p.id: [None] * total for p in players}, number)
    for r in sorted(rounds):
        out.settle_round(r, rounds[r])
    core_players = [_core_player(p, out.entries[p.id], withdrawn.get(p.id)) for p in players]
    try:
        tournament = Tournament(
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
    return Folded(
        tournament, tuple(out.games), tuple(out.byes), withdrawn, out.marks, last, reverted
    )


@dataclass(slots=True)
class _Settled:
    """The fold's result, built round by round."""

    entries: dict[int, list[RoundEntry | None]]
    number: dict[int, int]
    marks: dict[tuple[int, int], ResultStatus] = field(default_factory=dict)
    games: list[GameState] = field(default_factory=list)
    byes: list[ByeState] = field(default_factory=list)

    def settle_round(self, r: int, state: _Round) -> None:
        settled = {key: g.settle() for key, g in state.games.items()}
        clash = _Clashes()
        for (low, high), (status, _, _) in settled.items():
            clash.count(status is ResultStatus.CONFIRMED, low, high)
        for p in state.byes:
            clash.count(True, p)
        left_out: list[tuple[int, ...]] = []
        for key, (status, claim, decided) in sorted(settled.items()):
            low, high = key
            conflict = clash.conflicted(status is ResultStatus.CONFIRMED, low, high)
            if conflict:
                status = ResultStatus.DISPUTED
            claims = tuple(sorted(state.games[key].claims.values(), key=lambda c: c.seq))
            g = GameState(
                r,
                low,
                high,
                claim.result,
                claim.colour,
                status,
                claims,
                decided,
                state.games[key].decision is not None,
                status is not ResultStatus.DISPUTED,
                conflict,
                claim.double,
            )
            self.games.append(g)
            if not g.counted:
                left_out.append(key)
                continue
            for p in key:
                kind, colour = g.seen_by(p)
                self.entries[p][r - 1] = RoundEntry(kind, self.number[g.other(p)], colour)
                if status is ResultStatus.PROVISIONAL:
                    self.marks[(self.number[p], r)] = status
        for p, (kind, seq) in sorted(state.byes.items()):
            bye = ByeState(r, p, kind, seq, not clash.conflicted(True, p))
            self.byes.append(bye)
            if bye.counted:
                self.entries[p][r - 1] = RoundEntry(kind)
            else:
                left_out.append((p,))
        for who in left_out:
            for p in who:
                if self.entries[p][r - 1] is None:
                    self.marks[(self.number[p], r)] = ResultStatus.DISPUTED


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

"""The records the store (:class:`bot.store.Store`) hands back: games, outcomes of a change,
the audit trail, a tournament's state and its standings, and sheet writes still to do.

Players appear as :class:`PlayerInfo` (starting number, name, Discord id), results from a
named player's side, so a front end can word a message without further look-ups.

>>> from bot.store.model import ResultStatus
>>> ann, bob = PlayerInfo(1, 1, "Ann"), PlayerInfo(2, 2, "Bob")
>>> game = GameView(3, bob, ann, EntryKind.LOSS, None, ResultStatus.PROVISIONAL, (), None,
...                 False, True, False)
>>> game.describe()
'round 3: #2 Bob 0-1 #1 Ann (provisional)'
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, overload

from bot.store.fold import ByeState, Folded, GameState
from bot.store.model import Event, EventKind, PlayerInfo, ResultStatus, TournamentInfo
from core.model import Colour, EntryKind, Tournament, as_played, rounds_played
from core.results import score_text
from core.standings import Standings


@dataclass(frozen=True, slots=True)
class ClaimView:
    """One player's report of a game (from that player's side), with its event seq."""

    seq: int
    by: PlayerInfo
    result: EntryKind
    colour: Colour | None


@dataclass(frozen=True, slots=True)
class GameView:
    """A game of one round, seen from ``player``'s side.

    ``status`` is provisional, confirmed or disputed; ``claims`` are the players' current
    reports (a confirm button needs the seq of the report to confirm); ``decided_by`` is the
    event that settled it; ``counted`` says whether standings include it.
    """

    round: int
    player: PlayerInfo
    opponent: PlayerInfo
    result: EntryKind
    colour: Colour | None
    status: ResultStatus
    claims: tuple[ClaimView, ...]
    decided_by: int | None
    by_td: bool
    counted: bool
    conflict: bool
    double: bool = False

    @property
    def score(self) -> str:
        """``1-0``, ``½-½``, ``0-1`` (or ``+/-`` for forfeits, ``-/-`` for a double forfeit)
        from ``player``'s side."""
        return score_text(self.result, self.double)

    def describe(self) -> str:
        """``round 3: #1 Ann 1-0 #2 Bob (provisional)``."""
        return (
            f"round {self.round}: {self.player.label} {self.score} {self.opponent.label}"
            f" ({self.status.value})"
        )

    @staticmethod
    def of(game: GameState, players: Mapping[int, PlayerInfo], side: int | None = None) -> GameView:
        """The view of a folded game from ``side`` (a player id; the lower id by default)."""
        me = game.low if side is None else side
        result, colour = game.seen_by(me)
        claims = []
        for c in game.claims:
            r, col = game.claim_seen_by(c)
            claims.append(ClaimView(c.seq, players[c.by], r, col))
        return GameView(
            game.round,
            players[me],
            players[game.other(me)],
            result,
            colour,
            game.status,
            tuple(claims),
            game.decided_by,
            game.by_td,
            game.counted,
            game.conflict,
            game.double,
        )


@dataclass(frozen=True, slots=True)
class ByeView:
    """A bye (of ``kind``) a TD gave a player in a round."""

    round: int
    player: PlayerInfo
    kind: EntryKind
    seq: int
    counted: bool

    @staticmethod
    def of(bye: ByeState, players: Mapping[int, PlayerInfo]) -> ByeView:
        return ByeView(bye.round, players[bye.player], bye.kind, bye.seq, bye.counted)


@dataclass(frozen=True, slots=True)
class EventView:
    """An event of the audit trail, with its players, and whether it is still in force
    (``reverted`` is True once a TD undid it)."""

    event: Event
    player: PlayerInfo | None
    opponent: PlayerInfo | None
    reverted: bool

    @property
    def seq(self) -> int:
        return self.event.seq

    def describe(self) -> str:
        """The event in words: ``#12 round 3: Ann reported #1 Ann 1-0 #2 Bob (discord)``."""
        e = self.event
        who = e.actor_name or e.actor
        if self.player is not None and self.opponent is not None and e.kind is EventKind.SWAP:
            what = f"{self.player.label} and {self.opponent.label} in the draft"
        elif e.kind is EventKind.PAIRING:
            what = "the pairing (draft)"
        elif e.kind is EventKind.PUBLISH:
            what = f"the pairing #{e.refers_to}"
        elif self.player is not None and self.opponent is not None and e.result is not None:
            what = f"{self.player.label} {score_text(e.result, e.double)} {self.opponent.label}"
        elif self.player is not None and e.result is not None:
            what = f"{self.player.label}: {e.result.value}"
        elif self.player is not None:
            what = self.player.label
        else:
            what = f"event #{e.refers_to}"
        verb = {
            EventKind.REPORT: "reported",
            EventKind.CONFIRM: "confirmed report",
            EventKind.DISPUTE: "disputed report",
            EventKind.SET: "set",
            EventKind.BYE: "gave a bye:",
            EventKind.WITHDRAW: "withdrew",
            EventKind.CLEAR: "cleared",
            EventKind.REVERT: "undid",
            EventKind.PAIRING: "drew",
            EventKind.SWAP: "swapped",
            EventKind.PUBLISH: "published",
        }[e.kind]
        if e.kind in (EventKind.CONFIRM, EventKind.DISPUTE, EventKind.REVERT):
            what = f"#{e.refers_to}"
        where = f"round {e.round}: " if e.round and e.kind is not EventKind.WITHDRAW else ""
        if e.kind is EventKind.WITHDRAW:
            what += f" from round {e.round}"
        text = f"#{e.seq} {where}{who} {verb} {what} ({e.source.value}, {e.at:%Y-%m-%d %H:%M} UTC)"
        if e.supersedes:
            text += f", replacing #{e.supersedes}"
        if self.reverted:
            text += " [undone]"
        return text


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a change did. ``changed`` is False when the request repeated what the log
    already says (nothing was written); ``event`` is the event written (or None);
    ``game`` (for game results) is the game afterwards, from the acting player's side;
    ``status`` its status; ``message`` a sentence for the member."""

    changed: bool
    message: str
    event: Event | None = None
    game: GameView | None = None
    status: ResultStatus | None = None
    outbox: bool = False


class Games(Sequence[GameView]):
    """The games of a fold as views, made when first read (a section of 10,000 players and
    99 rounds has half a million: most answers read none of them, or the few open ones)."""

    def __init__(self, folded: Folded, players: Mapping[int, PlayerInfo]) -> None:
        self._folded = folded
        self._players = players
        self._views: tuple[GameView, ...] | None = None

    def _all(self) -> tuple[GameView, ...]:
        if self._views is None:
            self._views = tuple(GameView.of(g, self._players) for g in self._folded.games)
        return self._views

    @overload
    def __getitem__(self, index: int) -> GameView: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[GameView]: ...
    def __getitem__(self, index: int | slice) -> GameView | Sequence[GameView]:
        return self._all()[index]

    def __len__(self) -> int:
        return sum(len(f.games) for f in self._folded.settled.values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return self._all() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def open(self) -> tuple[GameView, ...]:
        """The games waiting for a confirmation or a TD's decision."""
        return tuple(GameView.of(g, self._players) for g in self._folded.open_games)


@dataclass(frozen=True, slots=True)
class TournamentState:
    """A tournament now: settings, players, the core tournament (what standings use),
    marks for results not yet confirmed, the games (every one, made when first read) and
    the open ones, and the byes."""

    info: TournamentInfo
    players: tuple[PlayerInfo, ...]
    tournament: Tournament
    marks: Mapping[tuple[int, int], ResultStatus]
    games: Sequence[GameView]
    byes: tuple[ByeView, ...]
    last_seq: int
    #: Rounds with a game whose result waits outside ``tournament`` (:attr:`Folded.pending`).
    pending: frozenset[int] = frozenset()

    @staticmethod
    def of(
        info: TournamentInfo, players: tuple[PlayerInfo, ...], folded: Folded
    ) -> TournamentState:
        """The state of a fold whose tournament is built (:meth:`Folded.complete`)."""
        by_id = {p.id: p for p in players}
        byes = tuple(ByeView.of(b, by_id) for b in folded.byes)
        return TournamentState(
            info,
            players,
            folded.tournament,
            folded.marks,
            Games(folded, by_id),
            byes,
            folded.last_seq,
            folded.pending,
        )

    @property
    def open_games(self) -> tuple[GameView, ...]:
        """Games waiting for a confirmation or a TD's decision."""
        if isinstance(self.games, Games):
            return self.games.open()
        return tuple(g for g in self.games if g.status is not ResultStatus.CONFIRMED)

    @property
    def rounds_played(self) -> int:
        """The rounds its standings are after: :func:`core.model.rounds_played`, a round
        whose only game is disputed counted too (its game waits for the TD's decision
        outside core's tournament, but the round was played); 0 while no game has a result
        (no round played yet)."""
        return rounds_played(self.tournament, self.pending)

    @property
    def as_played(self) -> Tournament:
        """The tournament as its standings rank it: :func:`core.model.as_played` with the
        same rounds played as :attr:`rounds_played`."""
        return as_played(self.tournament, self.pending)

    def marks_of(self, number: int) -> dict[int, ResultStatus]:
        """Round → mark for the player with starting number ``number``."""
        return {r: m for (n, r), m in self.marks.items() if n == number}


@dataclass(frozen=True, slots=True)
class StandingsView:
    """Standings (core's, computed from the fold) and the state they came from; rows of
    players with a provisional or disputed round can be marked from ``state.marks``."""

    state: TournamentState
    standings: Standings
    after_round: int
    #: What the store computed it from (the tournament's settings and players, its log's
    #: last event, the day), None for standings from elsewhere (a linked sheet): two views
    #: with one stamp are the same, so what is drawn or laid out of one serves the other.
    stamp: Hashable | None = None

    def marked(self, number: int) -> ResultStatus | None:
        """The weakest mark of a player's rounds up to ``after_round``: disputed over
        provisional, None when every result counted is confirmed."""
        marks = {m for r, m in self.state.marks_of(number).items() if r <= self.after_round}
        for mark in (ResultStatus.DISPUTED, ResultStatus.PROVISIONAL):
            if mark in marks:
                return mark
        return None


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """A result still to be written to a tournament's spreadsheet.

    ``payload`` holds the row to append: ``key`` (unique per result: write it in the row so
    a retry after a crash can see it is already there), ``time``, ``round``, ``white`` /
    ``black`` or ``player`` / ``opponent``, ``result``, ``reported_by``, ``confirmed_by``.
    """

    id: int
    guild: str
    tournament: str
    spreadsheet_id: str
    event_seq: int
    payload: dict[str, Any]
    created_at: datetime
    attempts: int
    last_error: str | None
    written_at: datetime | None

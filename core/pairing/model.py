"""What a pairing is: the boards of one round, its pairing-allocated bye, and who is not paired.

FIDE Handbook C.04.1 (basic rules of Swiss systems): each player present is paired with
an opponent or, when their number is odd, one player receives the pairing-allocated bye
(no opponent, no colour, a win's points). Players who asked for a bye, are absent or have
withdrawn are not paired at all.

>>> p = RoundPairing(3, 5, (Board(1, 4, 1), Board(2, 2, 3)), bye=6,
...                  not_paired=((5, EntryKind.HALF_BYE),))
>>> p.opponent_of(1), p.colour_for(1), p.board_of(3).number, p.colour_for(6)
(4, <Colour.BLACK: 'b'>, 2, None)
>>> sorted((player, str(e)) for player, e in p.entries().items())
[(5, 'H'), (6, 'B')]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.model import Colour, EntryKind, RoundEntry

__all__ = ["NOT_PAIRED", "Board", "RoundPairing"]

#: What a player who is not paired in a round can have asked for (or been given by the TD):
#: a half-point, full-point or zero-point bye, or withdrawal from the event.
NOT_PAIRED = frozenset(
    {EntryKind.HALF_BYE, EntryKind.FULL_BYE, EntryKind.ZERO_BYE, EntryKind.WITHDRAWN}
)


@dataclass(frozen=True, slots=True)
class Board:
    """One game of a round: board number and the two players' starting numbers."""

    number: int
    white: int
    black: int

    def opponent_of(self, player: int) -> int:
        return self.black if player == self.white else self.white

    def colour_for(self, player: int) -> Colour:
        return Colour.WHITE if player == self.white else Colour.BLACK


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """Round ``round`` of ``rounds`` as paired: its boards in order, the player given the
    pairing-allocated bye (or None), and the players not paired, with the entry each has
    (a requested bye of a kind, or withdrawal), in starting-number order.
    """

    round: int
    rounds: int
    boards: tuple[Board, ...]
    bye: int | None = None
    not_paired: tuple[tuple[int, EntryKind], ...] = ()
    _by_player: dict[int, Board] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for board in self.boards:
            self._by_player[board.white] = board
            self._by_player[board.black] = board

    def board_of(self, player: int) -> Board | None:
        """The board the player is on, or None (bye or not paired)."""
        return self._by_player.get(player)

    def opponent_of(self, player: int) -> int | None:
        board = self._by_player.get(player)
        return board.opponent_of(player) if board else None

    def colour_for(self, player: int) -> Colour | None:
        board = self._by_player.get(player)
        return board.colour_for(player) if board else None

    def swapped(self, a: int, b: int) -> RoundPairing:
        """The pairing with players ``a`` and ``b`` in each other's places (on a board or
        the bye; two players of one board exchange colours). Not checked: see
        :func:`core.pairing.swap_players`.

        >>> p = RoundPairing(1, 3, (Board(1, 1, 3), Board(2, 4, 2)), bye=5)
        >>> [(b.white, b.black) for b in p.swapped(3, 5).boards], p.swapped(3, 5).bye
        ([(1, 5), (4, 2)], 3)
        """
        seats = {a: b, b: a}
        boards = tuple(
            Board(x.number, seats.get(x.white, x.white), seats.get(x.black, x.black))
            for x in self.boards
        )
        bye = seats.get(self.bye, self.bye) if self.bye is not None else None
        return RoundPairing(self.round, self.rounds, boards, bye, self.not_paired)

    def entries(self) -> dict[int, RoundEntry]:
        """The entries of this round that are known before it is played: the
        pairing-allocated bye and the players not paired (games have no result yet)."""
        known = {player: RoundEntry(kind) for player, kind in self.not_paired}
        if self.bye is not None:
            known[self.bye] = RoundEntry(EntryKind.PAIRING_BYE)
        return known

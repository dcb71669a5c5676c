"""Pair a round: prepare the request, ask the engine, check the answer, return the boards.

Every pairing shown anywhere (the CLI, the bot, the sheet) comes from :func:`pair_round`
(or :func:`core.pairing.isolated.pair_isolated`, which runs the engine in a child process
within the pairing ceiling) or from :func:`swap_players` on one, and both run
:func:`~core.pairing.check.check_pairing` first: a pairing that breaks an absolute
criterion is an error, never a silent publish.
"""

from __future__ import annotations

from collections.abc import Callable

from core.pairing.check import check_pairing
from core.pairing.engine import pair_trf
from core.pairing.model import Board, RoundPairing
from core.pairing.prepare import PairingRequest
from core.pairing.trf import engine_trf
from core.problems import HarknessError, Problem

__all__ = ["Engine", "board_order", "pair_round", "swap_players"]

#: What pairs a round: the engine's TRF-16 text and the round in, (white, black) pairing
#: numbers out (black 0 for the pairing-allocated bye).
Engine = Callable[[str, int], list[tuple[int, int]]]


def pair_round(request: PairingRequest, engine: Engine = pair_trf) -> RoundPairing:
    """The engine's pairing of ``request.round``, in FIDE's board order, checked (raises
    :class:`HarknessError` when there is nobody to pair, the engine finds no legal
    pairing, or its answer breaks an absolute criterion).

    ``engine`` is the engine in this process by default; :mod:`core.pairing.isolated`
    passes one that runs it in a child process within the pairing ceiling.
    """
    if not request.to_pair:
        raise HarknessError(
            [
                Problem(
                    "nobody to pair: every player has a bye or withdrew",
                    round=request.round,
                    code="nobody-to-pair",
                )
            ]
        )
    text, starting = engine_trf(request)
    pairs: list[tuple[int, int]] = []
    bye = None
    for white, black in engine(text, request.round):
        if black == 0:
            bye = starting[white - 1]
        else:
            pairs.append((starting[white - 1], starting[black - 1]))
    boards = tuple(
        Board(n, white, black) for n, (white, black) in enumerate(board_order(request, pairs), 1)
    )
    pairing = RoundPairing(
        request.round, request.rounds, boards, bye, tuple(request.not_paired.items())
    )
    check_pairing(request, pairing)
    return pairing


def board_order(request: PairingRequest, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The games of a round in FIDE's board order (C.04.2): by the score of the higher
    player of the pair, then the sum of the two scores, then the pairing number of the
    higher player (the higher player: the higher score, on equal scores the lower pairing
    number). Scores are those before the round.

    >>> from core.formats.crosstable import read_crosstable
    >>> from core.pairing.prepare import prepare
    >>> t = read_crosstable('''#  Name  Rd 1
    ... 1  Ann  L4 (w)
    ... 2  Bob  L3 (b)
    ... 3  Cy   W2 (w)
    ... 4  Dee  W1 (b)
    ... 5  Eve  D6 (w)
    ... 6  Flo  D5 (b)''')
    >>> board_order(prepare(t, 2, rounds=3), [(6, 1), (5, 2), (3, 4)])
    [(3, 4), (5, 2), (6, 1)]

    5–2 and 6–1 tie on the higher score (½) and the sum (½); their higher players are 5
    and 6, so 5–2 comes first (not 6–1 for holding the lowest number on a board).
    """
    number = request.pairing_numbers()
    score = {p.id: p.half_points for p in request.history.players}

    def key(pair: tuple[int, int]) -> tuple[int, int, int]:
        a, b = pair
        higher = min(pair, key=lambda p: (-score[p], number[p]))
        return (-max(score[a], score[b]), -(score[a] + score[b]), number[higher])

    return sorted(pairs, key=key)


def swap_players(request: PairingRequest, pairing: RoundPairing, a: int, b: int) -> RoundPairing:
    """The pairing with players ``a`` and ``b`` in each other's places (on a board or the
    bye; two players of one board exchange colours), checked like any pairing."""
    for player in (a, b):
        if pairing.board_of(player) is None and pairing.bye != player:
            raise HarknessError(
                [
                    Problem(
                        "is not paired in this round",
                        player=player,
                        round=pairing.round,
                        code="not-paired",
                    )
                ]
            )
    swapped = pairing.swapped(a, b)
    check_pairing(request, swapped)
    return swapped

"""Pair a round: prepare the request, ask the engine, check the answer, return the boards.

Every pairing shown anywhere (the CLI, the bot, the sheet) comes from :func:`pair_round`
or from :func:`swap_players` on one, and both run :func:`~core.pairing.check.check_pairing`
first: a pairing that breaks an absolute criterion is an error, never a silent publish.
"""

from __future__ import annotations

from core.pairing.check import check_pairing
from core.pairing.engine import pair_trf
from core.pairing.model import Board, RoundPairing
from core.pairing.prepare import PairingRequest
from core.pairing.trf import engine_trf
from core.problems import HarknessError, Problem

__all__ = ["pair_round", "swap_players"]


def pair_round(request: PairingRequest) -> RoundPairing:
    """The engine's pairing of ``request.round``, checked (raises :class:`HarknessError`
    when there is nobody to pair, the engine finds no legal pairing, or its answer breaks
    an absolute criterion)."""
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
    boards: list[Board] = []
    bye = None
    for white, black in pair_trf(text, request.round):
        if black == 0:
            bye = starting[white - 1]
        else:
            boards.append(Board(len(boards) + 1, starting[white - 1], starting[black - 1]))
    pairing = RoundPairing(
        request.round, request.rounds, tuple(boards), bye, tuple(request.not_paired.items())
    )
    check_pairing(request, pairing)
    return pairing


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

"""Pairings by the FIDE Dutch system (C.04.3), from a proven engine, checked by core.

Harkness does not pair by itself: :mod:`core.pairing.engine` asks gacrux (an optional
extra), and :mod:`core.pairing.check` checks every answer against the absolute criteria
before anyone sees it. US Chess pairing rules (Rules 27–29) differ in details and are not
what this pairs by.
"""

from __future__ import annotations

from core.pairing.check import check_pairing, pairing_problems
from core.pairing.model import NOT_PAIRED, Board, RoundPairing
from core.pairing.pair import pair_round, swap_players
from core.pairing.prepare import (
    ColourSource,
    Numbering,
    PairingRequest,
    initial_colour,
    next_round,
    prepare,
)

__all__ = [
    "NOT_PAIRED",
    "Board",
    "ColourSource",
    "Numbering",
    "PairingRequest",
    "RoundPairing",
    "check_pairing",
    "initial_colour",
    "next_round",
    "pair_round",
    "pairing_problems",
    "prepare",
    "swap_players",
]

"""Pairing a round of a real event from its earlier rounds gives the boards the event
played: the file's starting numbers are its pairing numbers, round 1's colour is the one it
was played with, and the engine (FIDE Dutch system) agrees with the event's own pairing
program where both follow the same rules.

The events (``tests/corpus/pairing/``, names and identities removed, results kept):

- ``javafo-demo-137.trf``: a 137-player open paired by JaVaFo (FIDE-endorsed), rounds
  1–7. Rounds 2–6 are the event's boards exactly (pairs, colours and the bye).
- ``british-2026-108.trf``: a 108-player championship, rounds 1–8 of 9, whose round 1
  shows Black for the top seed on board 1. Rounds 3–8 are the event's boards exactly.
- ``javafo-accelerated-84.trf``: an 84-player open paired by JaVaFo with virtual points
  (``XXA`` records), rounds 1–9. Rounds 2–5, 7 and 8 are the event's boards exactly.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from core.formats import read_tournament
from core.model import Colour, EntryKind, Tournament
from core.pairing import ColourSource, RoundPairing, pair_round, prepare

CORPUS = Path(__file__).parent.parent / "corpus" / "pairing"
DEMO = read_tournament(CORPUS / "javafo-demo-137.trf")
BRITISH = read_tournament(CORPUS / "british-2026-108.trf")


def _played(t: Tournament, k: int) -> tuple[set[tuple[int, int]], int | None]:
    """Round k as the event played it: (white, black) pairs and the pairing-allocated bye."""
    boards = {
        (p.id, p.entries[k - 1].opponent or 0)
        for p in t.players
        if p.entries[k - 1].kind.has_opponent and p.entries[k - 1].colour is Colour.WHITE
    }
    bye = [p.id for p in t.players if p.entries[k - 1].kind is EntryKind.PAIRING_BYE]
    return boards, (bye[0] if bye else None)


def _paired(t: Tournament, k: int, rounds: int | None = None) -> RoundPairing:
    """Round k paired from rounds 1 to k − 1; players absent in round k kept out."""
    absent = {
        p.id: EntryKind.ZERO_BYE for p in t.players if p.entries[k - 1].kind is EntryKind.ABSENT
    }
    return pair_round(prepare(t, k, rounds=rounds, requests=absent))


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_a_javafo_paired_open_gets_the_boards_it_played(k):
    pairing = _paired(DEMO, k)
    assert ({(b.white, b.black) for b in pairing.boards}, pairing.bye) == _played(DEMO, k)


@pytest.mark.parametrize("k", [3, 4, 5, 6, 7, 8])
def test_an_event_whose_round_1_shows_black_on_board_1_gets_the_boards_it_played(k):
    request = prepare(BRITISH, k, rounds=9)
    assert (request.initial_colour, request.colour_source) == (Colour.BLACK, ColourSource.ROUND_ONE)
    pairing = _paired(BRITISH, k, rounds=9)
    assert ({(b.white, b.black) for b in pairing.boards}, pairing.bye) == _played(BRITISH, k)


def test_an_unrated_top_seed_keeps_the_number_the_arbiter_gave():
    """Like an unrated GM seeded first by estimate: renumbering by rating would move him to
    the bottom and change the round; the file's numbers give the event's boards."""
    top = DEMO.players[0]
    assert top.id == 1
    seeded = replace(DEMO, players=(replace(top, rating=None, title="GM"), *DEMO.players[1:]))
    pairing = _paired(seeded, 3)
    assert {(b.white, b.black) for b in pairing.boards} == _played(DEMO, 3)[0]


def test_round_1_with_black_on_board_1_gives_the_mirrored_round_2():
    """The same event with every colour the other way (the lot drawn Black): round 2 is the
    event's round 2 with colours exchanged, which needs the initial colour from round 1 (a
    white default gives four boards their colours the wrong way)."""
    mirrored = replace(
        DEMO,
        players=tuple(
            replace(
                p,
                entries=tuple(
                    e._replace(colour=e.colour.opposite) if e.colour else e for e in p.entries
                ),
            )
            for p in DEMO.players
        ),
    )
    request = prepare(mirrored, 2)
    assert (request.initial_colour, request.colour_source) == (Colour.BLACK, ColourSource.ROUND_ONE)
    pairing = _paired(mirrored, 2)
    played, bye = _played(DEMO, 2)
    assert {(b.black, b.white) for b in pairing.boards} == played
    assert pairing.bye == bye


def test_boards_are_in_fides_board_order():
    """C.04.2: the higher player's score, the sum of scores, the higher player's rank."""
    pairing = _paired(DEMO, 6)
    score = {p.id: p.half_points for p in DEMO.after_round(5).players}

    def key(white: int, black: int) -> tuple[int, int, int]:
        higher = min((white, black), key=lambda p: (-score[p], p))
        return (-max(score[white], score[black]), -(score[white] + score[black]), higher)

    keys = [key(b.white, b.black) for b in pairing.boards]
    assert keys == sorted(keys)


ACCELERATED = read_tournament(CORPUS / "javafo-accelerated-84.trf")


@pytest.mark.parametrize("k", [2, 3, 4, 5, 7, 8])
def test_an_accelerated_open_gets_the_boards_it_played(k):
    """An 84-player open paired by JaVaFo with virtual points (its XXA records): given
    every round's virtual points up to the one paired, the engine pairs rounds 2–5, 7 and
    8 as the event did (rounds 6 and 9: 36 and 37 of 40 boards)."""
    assert prepare(ACCELERATED, k).virtual_points[1]
    pairing = _paired(ACCELERATED, k)
    assert ({(b.white, b.black) for b in pairing.boards}, pairing.bye) == _played(ACCELERATED, k)

"""Positions whose pairings are published: the reference engine's own tests, and the
round-1 pairings that C.04.3 prescribes.

bbpPairings (FIDE-endorsed, Dutch rules in force since 1 February 2026) publishes its
test positions with the expected pairings (``test/tests/*.input`` and
``*.output.expected``); the positions are in ``tests/corpus/pairing/`` in Harkness's
crosstable notation. Each is paired through the whole of Harkness (read, prepare, engine,
check) and must give the same boards, in the same order, with the same colours and bye.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.formats import read_tournament
from core.model import Colour, Player, Tournament
from core.pairing import Numbering, pair_round, prepare

CORPUS = Path(__file__).parent.parent / "corpus" / "pairing"

FINAL_ROUND_60 = """1 15  3 2  11 17  7 10  8 14  4 6  5 12  9 16  13 25  24 22  18 29  20 23  19 33
21 38  39 26  28 36  31 40  37 35  44 46  30 32  27 48  47 42  51 55  34 50  49 45  53 58
41 59  56 43  60 52  54 57"""


def _pairs(text: str) -> list[tuple[int, int]]:
    numbers = [int(n) for n in text.split()]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


@pytest.mark.parametrize(
    ("name", "boards", "bye"),
    [
        # Dutch 2025 C5: a player who skips the round, and the bye to the lowest player.
        ("bbp-dutch-2025-c5.trf", [(1, 5), (3, 2)], 6),
        # Dutch 2025 C9: a late entry with a zero-point bye in round 1.
        ("bbp-dutch-2025-c9.trf", [(2, 1), (3, 5)], 4),
        # issue_7.input: the final round (15) of a 60-player Swiss with forfeits and topscorers.
        ("bbp-final-round-60.trf", _pairs(FINAL_ROUND_60), None),
    ],
)
def test_the_engine_pairs_the_reference_engines_published_positions(name, boards, bye):
    tournament = read_tournament(CORPUS / name)
    pairing = pair_round(prepare(tournament))
    assert [(b.white, b.black) for b in pairing.boards] == boards
    assert pairing.bye == bye


def _field(players: int) -> Tournament:
    return Tournament(
        tuple(Player(i, f"P{i}", (), 2400 - 10 * i) for i in range(1, players + 1)), 0
    )


@pytest.mark.parametrize(
    ("players", "colour", "boards", "bye"),
    [
        # C.04.3: round 1 pairs the top half with the bottom half, S1[i] against S2[i];
        # the initial colour goes to the top player and alternates down the boards.
        (10, Colour.WHITE, [(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)], None),
        (10, Colour.BLACK, [(6, 1), (2, 7), (8, 3), (4, 9), (10, 5)], None),
        # With an odd number, the lowest ranked player gets the pairing-allocated bye.
        (11, Colour.WHITE, [(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)], 11),
        (2, Colour.WHITE, [(1, 2)], None),
        (1, Colour.WHITE, [], 1),
    ],
)
def test_round_one_follows_the_dutch_rules(players, colour, boards, bye):
    pairing = pair_round(prepare(_field(players), 1, rounds=5, colour=colour))
    assert [(b.white, b.black) for b in pairing.boards] == boards
    assert pairing.bye == bye


def test_without_pairing_numbers_round_one_ranks_by_rating():
    """C.04.2's initial order, for a source numbered in the order players registered:
    rating first, whatever order the players were entered in."""
    ratings = [1500, 2100, None, 1800]  # starting numbers 1-4
    players = tuple(Player(i, f"P{i}", (), r) for i, r in enumerate(ratings, start=1))
    request = prepare(Tournament(players, 0), 1, rounds=3, numbering=Numbering.INITIAL_ORDER)
    pairing = pair_round(request)
    # Order by rating: 2 (2100), 4 (1800), 1 (1500), 3 (unrated).
    assert [(b.white, b.black) for b in pairing.boards] == [(2, 1), (3, 4)]


def test_a_files_starting_numbers_are_its_pairing_numbers():
    """An arbiter's numbering stands (unrated seeds placed by estimate, C.04.2): the same
    players, numbered by the file, pair by the file's numbers."""
    ratings = [1500, 2100, None, 1800]
    players = tuple(Player(i, f"P{i}", (), r) for i, r in enumerate(ratings, start=1))
    pairing = pair_round(prepare(Tournament(players, 0), 1, rounds=3))
    assert [(b.white, b.black) for b in pairing.boards] == [(1, 3), (4, 2)]


def test_the_engine_keeps_apart_the_players_the_td_names():
    """Team-mates or family: the engine is told (TRF record 260) and the check holds it."""
    request = prepare(_field(10), 1, rounds=5, avoid=[{1, 6}, {2, 7}])
    pairing = pair_round(request)
    pairs = {frozenset((b.white, b.black)) for b in pairing.boards}
    assert frozenset((1, 6)) not in pairs and frozenset((2, 7)) not in pairs
    assert len(pairing.boards) == 5

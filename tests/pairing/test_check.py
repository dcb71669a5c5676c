"""Core's own check of the absolute criteria: each one caught, each exemption honoured."""

from __future__ import annotations

import pytest

from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.pairing import Board, RoundPairing, pairing_problems, prepare, swap_players
from core.problems import HarknessError
from tests.builders import crosstable


def _problems(t: Tournament, r: int, boards, bye=None, rounds=9, **kw) -> list[str]:
    request = prepare(t, r, rounds=rounds, **kw)
    pairing = RoundPairing(
        r,
        rounds,
        tuple(Board(n, w, b) for n, (w, b) in enumerate(boards, 1)),
        bye,
        tuple(request.not_paired.items()),
    )
    return [str(p) for p in pairing_problems(request, pairing)]


C1 = "(C.04.3 [C1]: no two players meet twice)"
C3_DIFFERENCE = "(C.04.3 [C3], C.04.1: at most +2 or −2)"
FOUR = crosstable("A: W3w W2b", "B: W4w L1w", "C: L1b W4b", "D: L2b L3w")


def test_a_legal_pairing_has_no_problems():
    assert _problems(FOUR, 3, [(1, 4), (3, 2)]) == []


def test_a_rematch_breaks_c1():
    assert _problems(FOUR, 3, [(3, 1), (4, 2)]) == [
        f"player 3, round 3: players 3 and 1 already met in round 1 {C1}",
        f"player 4, round 3: players 4 and 2 already met in round 1 {C1}",
    ]


def test_players_of_a_forfeited_game_may_meet_again():
    t = crosstable("A: X2", "B: F1", "C: H")
    assert _problems(t, 2, [(1, 2)], bye=3) == []


@pytest.mark.parametrize(
    ("earlier", "what"),
    [("B", "full-point bye"), ("U", "zero-point bye"), ("X3", "forfeit win")],
)
def test_the_pairing_allocated_bye_goes_to_no_one_who_scored_a_win_without_playing(earlier, what):
    if earlier == "X3":
        t, boards = crosstable("A: X3", "B: H", "C: F1"), [(2, 3)]
    else:
        t = crosstable(f"A: {earlier}", "B: W3w", "C: L2b", "D: W5w", "E: L4b")
        boards = [(2, 4), (5, 3)]
    problems = _problems(t, 2, boards, bye=1)
    if earlier == "U":  # a zero-point bye scores nothing: the player may get the bye
        assert problems == []
        return
    assert problems == [
        f"player 1, round 2: already had a win's points without playing (a {what} in round 1): "
        "no pairing-allocated bye (C.04.3 [C2])"
    ]


def test_a_second_pairing_allocated_bye_breaks_c2():
    t = Tournament(
        (
            Player(1, "A", (RoundEntry(EntryKind.PAIRING_BYE),)),
            Player(2, "B", (RoundEntry.win(3, Colour.WHITE),)),
            Player(3, "C", (RoundEntry.loss(2, Colour.BLACK),)),
        ),
        1,
    )
    assert "(C.04.3 [C2])" in _problems(t, 2, [(2, 3)], bye=1)[0]


# Player 1 has had white twice, and white-black-white: a third white breaks [C3].
COLOURS = crosstable("A: W2w W3w", "B: L1b W4w", "C: L4b L1b", "D: W3w L2b")


def test_three_whites_in_a_row_break_c3():
    assert _problems(COLOURS, 3, [(1, 4), (3, 2)]) == [
        "player 1, round 3: would have white three times in a row (C.04.3 [C3], C.04.1)",
        f"player 1, round 3: would have a colour difference of +3 {C3_DIFFERENCE}",
    ]


def test_a_colour_difference_beyond_two_breaks_c3_even_with_a_colour_in_between():
    t = crosstable(
        "A: W2w W3w W4b W5w",
        "B: L1b U U U",
        "C: U L1b U U",
        "D: U U L1w U",
        "E: U U U L1b",
        "F: U U U U",
    )
    assert _problems(t, 5, [(1, 6), (2, 3), (4, 5)], rounds=6) == [
        f"player 1, round 5: would have a colour difference of +3 {C3_DIFFERENCE}"
    ]


def test_a_topscorer_in_the_final_round_is_exempt_from_the_colour_rules():
    # Player 1 has 2 of 2 (over half the maximum) when the final round 3 is paired.
    assert _problems(COLOURS, 3, [(1, 4), (3, 2)], rounds=3) == []
    # Not the final round: the same pairing breaks [C3].
    assert _problems(COLOURS, 3, [(1, 4), (3, 2)], rounds=4) != []


@pytest.mark.parametrize(
    ("boards", "bye", "expected"),
    [
        (
            [(1, 4)],
            None,
            [
                "player 2, round 3: is neither on a board nor given the bye",
                "player 3, round 3: is neither on a board nor given the bye",
            ],
        ),
        (
            [(1, 4), (3, 1)],
            None,
            [
                "player 1, round 3: paired 2 times",
                "player 2, round 3: is neither on a board nor given the bye",
            ],
        ),
        (
            [(1, 4), (3, 9)],
            None,
            [
                "player 9, round 3: there is no player 9",
                "player 2, round 3: is neither on a board nor given the bye",
            ],
        ),
        (
            [(1, 4)],
            3,
            [
                "player 2, round 3: is neither on a board nor given the bye",
                "player 3, round 3: a pairing-allocated bye with an even number of players to pair",
            ],
        ),
    ],
)
def test_every_player_to_pair_is_paired_once(boards, bye, expected):
    assert _problems(FOUR, 3, boards, bye) == expected


def test_a_player_with_a_requested_bye_is_not_paired():
    problems = _problems(FOUR, 3, [(1, 4), (3, 2)], requests={2: EntryKind.HALF_BYE})
    assert problems[0] == "player 2, round 3: is paired, but has a half-point bye"


def test_a_bye_with_an_even_number_to_pair_is_an_error():
    t = crosstable("A: W2w", "B: L1b", "C: W4w", "D: L3b")
    assert _problems(t, 2, [(1, 3)], bye=2) == [
        "player 4, round 2: is neither on a board nor given the bye",
        "player 2, round 2: a pairing-allocated bye with an even number of players to pair",
    ]


def test_a_swap_that_makes_a_rematch_is_refused_and_a_legal_one_is_kept():
    request = prepare(FOUR, 3, rounds=9)
    pairing = RoundPairing(3, 9, (Board(1, 1, 4), Board(2, 3, 2)))
    with pytest.raises(HarknessError, match=r"\[C1\]"):
        swap_players(request, pairing, 4, 3)  # 1 against 3 again
    swapped = swap_players(request, pairing, 1, 4)  # the same board, colours exchanged
    assert [(b.white, b.black) for b in swapped.boards] == [(4, 1), (3, 2)]
    with pytest.raises(HarknessError, match="is not paired in this round"):
        swap_players(request, pairing, 1, 7)


def test_players_kept_apart_are_not_paired_together():
    assert _problems(FOUR, 3, [(1, 4), (3, 2)], avoid=[{2, 3}]) == [
        "player 3, round 3: players 3 and 2 are to be kept apart (--avoid, TRF record 260)"
    ]
    assert _problems(FOUR, 3, [(1, 4), (3, 2)], avoid=[{1, 2}]) == []

"""Accelerated pairings: FIDE's Baku Acceleration (C.04.5.1) checked against the worked
examples of its text, and virtual points reaching the engine checked against an
accelerated event paired by JaVaFo."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.pairing import Numbering, pair_round, prepare
from core.pairing.acceleration import Acceleration, baku_group_size, baku_virtual_points
from core.pairing.trf import engine_trf
from core.problems import HarknessError


def test_ga_is_the_first_half_rounded_up_to_an_even_number():
    """C.04.5.1's own example: 161 players, GA holds 82 (2 × ⌈161 / 4⌉)."""
    assert baku_group_size(161) == 82
    assert [baku_group_size(n) for n in (1, 2, 3, 4, 5, 8, 9)] == [2, 2, 2, 2, 4, 4, 6]


def test_nine_rounds_give_one_point_for_three_rounds_and_half_for_two():
    """C.04.5.1's own example: in nine rounds five are accelerated, GA players have one
    virtual point in rounds 1–3 and half a point in rounds 4 and 5."""
    assert [baku_virtual_points(9, r) for r in range(1, 10)] == [2, 2, 2, 1, 1, 0, 0, 0, 0]


def _field(players: int, rounds: int = 0) -> Tournament:
    return Tournament(
        tuple(Player(i, f"P{i}", (), 2400 - 10 * i) for i in range(1, players + 1)), rounds
    )


def test_round_one_pairs_ga_and_gb_as_two_brackets():
    """With 16 players GA is 1–8 on one virtual point: each group is paired as its own
    bracket, top half against bottom half (C.04.3), colours alternating."""
    request = prepare(_field(16), 1, rounds=9, acceleration=Acceleration.BAKU)
    assert request.virtual_points == {1: {i: 2 for i in range(1, 9)}}
    pairing = pair_round(request)
    assert [(b.white, b.black) for b in pairing.boards] == [
        (1, 5),
        (6, 2),
        (3, 7),
        (8, 4),
        (9, 13),
        (14, 10),
        (11, 15),
        (16, 12),
    ]
    text, _ = engine_trf(request)
    assert "250  1.0  1.0   1   1    1    1" in text.splitlines()


def test_after_the_accelerated_rounds_nobody_has_virtual_points():
    top = [
        Player(i, f"P{i}", (RoundEntry.win(i + 4, Colour.WHITE),) * 5, 2400 - 10 * i)
        for i in range(1, 5)
    ]
    bottom = [
        Player(i, f"P{i}", (RoundEntry.loss(i - 4, Colour.BLACK),) * 5, 2400 - 10 * i)
        for i in range(5, 9)
    ]
    request = prepare(Tournament((*top, *bottom), 5), 6, rounds=9, acceleration=Acceleration.BAKU)
    assert sorted(request.virtual_points) == [1, 2, 3, 4, 5]  # every earlier round's
    assert request.virtual_points[3] == {i: 2 for i in range(1, 5)}
    assert request.virtual_points[4] == {i: 1 for i in range(1, 5)}


def test_a_late_entry_above_the_last_ga_player_joins_ga():
    """The last GA player stays the same; a late entry numbered before them is in GA."""
    players = [
        Player(i, f"P{i}", (RoundEntry.win(i + 4, Colour.WHITE),), 2400 - 10 * i)
        for i in range(1, 5)
    ] + [
        Player(i, f"P{i}", (RoundEntry.loss(i - 4, Colour.BLACK),), 2400 - 10 * i)
        for i in range(5, 9)
    ]
    late = Player(9, "Late", (RoundEntry(EntryKind.ZERO_BYE),), 2395)
    t = Tournament((*players, late), 1)
    request = prepare(
        t, 2, rounds=9, acceleration=Acceleration.BAKU, numbering=Numbering.INITIAL_ORDER
    )
    # Round 1's list: 8 players, GA = 4 (players 1–4); the late 2395 is ranked first.
    assert set(request.virtual_points[2]) == {9, 1, 2, 3, 4}


def test_a_file_with_its_own_virtual_points_refuses_another_method():
    t = replace(_field(4, 0), records=(("XXA", "   1  1.0"),))
    with pytest.raises(HarknessError) as error:
        prepare(t, 1, rounds=3, acceleration=Acceleration.BAKU)
    assert error.value.problems[0].code == "bad-acceleration"
    assert prepare(t, 1, rounds=3).virtual_points == {1: {1: 2}}

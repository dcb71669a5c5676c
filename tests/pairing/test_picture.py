"""A round's board list as a picture: what the text says, drawn the same way every time."""

from __future__ import annotations

import pytest

from core.examples import example_path
from core.formats import read_tournament
from core.model import Player, Tournament
from core.pairing import pair_round, prepare
from core.pictures.pairing import MAX_BOARDS, pairing_picture
from core.problems import HarknessError


def test_the_board_list_picture_and_its_alt_text():
    request = prepare(read_tournament(example_path("club-swiss.trf")), 3)
    pairing = pair_round(request)
    picture = pairing_picture(request, pairing, "dark")
    assert picture.data.startswith(b"\x89PNG") and picture.width > 300
    assert picture.data == pairing_picture(request, pairing, "dark").data
    assert picture.description.startswith(
        "Pairings picture: Riverside Chess Club Autumn Swiss, round 3. "
        "board 1: white 1 Alvarez, Maria (2), black 7 Gupta, Rohan (1.5);"
    )
    assert "4 Dubois, Claire (1.5): half-point bye" in picture.description


def test_a_round_too_large_for_a_picture_keeps_the_text():
    players = tuple(Player(i, f"P{i}", (), 2000) for i in range(1, 2 * MAX_BOARDS + 3))
    request = prepare(Tournament(players, 0), 1, rounds=5)
    with pytest.raises(HarknessError, match="at most 60 boards"):
        pairing_picture(request, pair_round(request))

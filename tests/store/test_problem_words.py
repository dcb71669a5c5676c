"""Core's pairing problems in the bot's words: decided by the problem's ``field`` and worded
with its ``detail``, never the command line's options (``--rounds``, ``--avoid``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.store.errors import problems_words
from core.formats.crosstable import read_crosstable
from core.pairing import check_pairing, prepare
from core.pairing.model import Board, RoundPairing
from core.problems import HarknessError

FOUR = read_crosstable(
    "#  Name  Rd 1\n1  Ann  W2 (w)\n2  Bob  L1 (b)\n3  Cy  W4 (w)\n4  Di  L3 (b)"
)


def _error(make: Callable[[], object]) -> HarknessError:
    with pytest.raises(HarknessError) as raised:
        make()
    return raised.value


def test_players_kept_apart_are_named_by_where_a_td_keeps_them_apart() -> None:
    request = prepare(FOUR, 2, rounds=3, avoid=[(1, 3)])
    paired = RoundPairing(2, 3, (Board(1, 1, 3), Board(2, 4, 2)))
    error = _error(lambda: check_pairing(request, paired))
    assert "(--avoid, TRF record 260)" in str(error)  # the command line's words
    assert problems_words(error) == (
        "player 1, round 2: kept apart (/round avoid, or the imported file): players 1 "
        "and 3 are to be kept apart"
    )


def test_a_round_past_the_planned_ones_names_the_rounds_option() -> None:
    error = _error(lambda: prepare(FOUR, 2, rounds=1))
    assert problems_words(error) == (
        "round 2: rounds: the section has 1 rounds, so there is no round 2 to pair"
    )
    assert "--rounds" in str(error)


def test_a_problem_naming_no_setting_keeps_cores_sentence() -> None:
    uncoloured = read_crosstable("#  Name  Rd 1\n1  Ann  W2\n2  Bob  L1")
    error = _error(lambda: prepare(uncoloured, 2, rounds=2))
    assert problems_words(error) == str(error.problems[0])
    assert problems_words(error).startswith("player 1, round 1: the game against 2 has no colour")

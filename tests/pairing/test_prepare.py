"""What the engine is told: the round, the planned rounds, who is paired, the initial
colour and order, and the file it reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.examples import example_path
from core.formats import read_tournament
from core.formats.trf import read_trf
from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.pairing import ColourSource, Numbering, next_round, pair_round, prepare
from core.pairing.trf import engine_trf, pairing_trf
from core.problems import HarknessError
from core.standings import standings_after
from tests.builders import crosstable

CLUB = read_tournament(example_path("club-swiss.trf"))


def test_the_next_round_follows_the_last_round_anyone_was_paired_in():
    assert next_round(CLUB) == 6
    assert next_round(CLUB.after_round(2)) == 3
    assert next_round(crosstable("A: H H", "B: U H")) == 1


def test_results_cut_after_a_round_keep_the_planned_rounds():
    """Pairing round k+1 of a file cut after round k: the planned rounds (XXR) stay."""
    request = prepare(CLUB, 3)
    assert (request.round, request.rounds, request.history.rounds) == (3, 5, 2)
    text, _ = engine_trf(request)
    assert "XXR 5" in text.splitlines()


def test_a_round_past_the_planned_ones_needs_the_rounds_declared():
    with pytest.raises(HarknessError, match=r"round 6: the section has 5 rounds.*--rounds"):
        prepare(CLUB)
    assert prepare(CLUB, rounds=7).round == 6


def test_a_round_after_one_not_yet_paired_is_refused():
    with pytest.raises(HarknessError, match="round 3 is not paired yet: pair round 3 before"):
        prepare(CLUB.after_round(2), 4, rounds=5)


def test_byes_and_withdrawals_recorded_for_the_round_are_honoured():
    request = prepare(CLUB, 4)
    # The file has a half-point bye for 6 and a zero-point bye for 8 in round 4.
    assert request.not_paired == {6: EntryKind.HALF_BYE, 8: EntryKind.ZERO_BYE}
    more = prepare(CLUB, 4, requests={2: EntryKind.ZERO_BYE, 6: EntryKind.FULL_BYE})
    assert more.not_paired == {2: EntryKind.ZERO_BYE, 6: EntryKind.FULL_BYE, 8: EntryKind.ZERO_BYE}


def test_a_withdrawal_stays_in_force():
    t = crosstable("A: W2w -", "B: L1b W3w", "C: W4w L2b", "D: L3b L5w", "E: H W4b")
    assert prepare(t, 3, rounds=4).not_paired == {1: EntryKind.WITHDRAWN}


def test_byes_typed_ahead_for_the_round_leave_everyone_else_available():
    """A bye typed before the round is played does not make the others' empty cells a
    withdrawal: they are paired, the byes are honoured, the standings ignore the round."""
    t = crosstable("A: W2w H", "B: L1b", "C: W4w U", "D: L3b", "E: B", "F: ")
    request = prepare(t)
    assert request.round == 2
    assert request.not_paired == {1: EntryKind.HALF_BYE, 3: EntryKind.ZERO_BYE}
    assert standings_after(t, "fide-2024").tournament.rounds == 1
    assert [p.half_points for p in standings_after(t, "fide-2024").tournament.players] == [
        2,
        0,
        2,
        0,
        2,
        0,
    ]


def test_requests_for_unknown_players_or_kinds_are_refused():
    with pytest.raises(HarknessError) as error:
        prepare(CLUB, 3, requests={99: EntryKind.HALF_BYE, 2: EntryKind.WIN})
    assert [str(p) for p in error.value.problems] == [
        "player 99, round 3: there is no player 99",
        "player 2, round 3: a player is kept out of a pairing with a bye or withdrawal, not a win",
    ]


def test_a_game_without_a_colour_is_an_error_naming_it():
    t = crosstable("A: W2w W3", "B: L1b", "C: U L1", rounds=3)
    with pytest.raises(HarknessError) as error:
        prepare(t, 3)
    assert [str(p) for p in error.value.problems] == [
        "player 1, round 2: the game against 3 has no colour; pairing by the colour rules "
        "needs the colour of every game played"
    ]
    # A colour recorded on one side is enough.
    assert prepare(crosstable("A: W2w W3", "B: L1b", "C: U L1w", rounds=3), 3).round == 3


@pytest.mark.parametrize(
    ("record", "colour"),
    [
        ("152 B", Colour.BLACK),
        ("152 W", Colour.WHITE),
        ("XXC black1", Colour.BLACK),
        ("", Colour.WHITE),
    ],
)
def test_the_initial_colour_comes_from_the_file_else_white(record, colour):
    lines = [record] if record else []
    lines += [f"001 {i:>4}      P{i:<32} {2000 - i:>4}{'':>29}0.0" for i in range(1, 5)]
    request = prepare(read_trf("\n".join(lines) + "\nXXR 3\n"))
    assert request.initial_colour is colour
    first = pair_round(request).boards[0]
    assert (first.white, first.black) == ((1, 3) if colour is Colour.WHITE else (3, 1))


LATE_STRONG = (
    Player(1, "Late Strong", (RoundEntry(EntryKind.ZERO_BYE),), 2300),
    Player(2, "Bob", (RoundEntry.win(3, Colour.WHITE),), 1800),
    Player(3, "Cy", (RoundEntry.loss(2, Colour.BLACK),), 1900),
    Player(4, "Di", (RoundEntry(EntryKind.HALF_BYE),), None),
)


def test_the_engine_file_numbers_a_file_by_its_starting_numbers():
    request = prepare(Tournament(LATE_STRONG, 1), 2, rounds=4)
    text, starting = engine_trf(request)
    assert starting == [1, 2, 3, 4]
    # Round 1's top seed who played (2) had white: the initial colour is white.
    assert (request.initial_colour, request.colour_source) == (Colour.WHITE, ColourSource.ROUND_ONE)
    assert text.splitlines()[0] == "152 W"


def test_the_engine_file_numbers_by_rating_and_writes_what_engines_need():
    request = prepare(
        Tournament(LATE_STRONG, 1),
        2,
        rounds=4,
        requests={4: EntryKind.HALF_BYE},
        numbering=Numbering.INITIAL_ORDER,
    )
    text, starting = engine_trf(request)
    assert starting == [1, 3, 2, 4]  # rating order; the unrated player last
    lines = text.splitlines()
    # In that order, round 1's top seed who played (3) had black.
    assert lines[:2] == ["152 B", "XXR 4"]
    # 0000 for no opponent; this round's half-point bye in its column and its points.
    assert lines[-1].endswith("1.0    4  0000 - H  0000 - H")
    assert lines[2].endswith("  0000 - Z")


def test_the_tds_file_has_the_new_round_with_results_blank():
    request = prepare(CLUB, 3)
    pairing = pair_round(request)
    lines = pairing_trf(request, pairing).splitlines()
    assert "152 W" in lines and "XXR 5" in lines
    first = pairing.boards[0]
    line = next(line for line in lines if line.startswith(f"001 {first.white:>4}"))
    assert line.endswith(f"  {first.black:>4} w")
    bye = next(line for line in lines if line.startswith("001    4"))  # half-point bye
    assert bye.endswith("  0000 - H")
    # Read back, the missing results are named, not guessed.
    with pytest.raises(HarknessError, match="result"):
        read_trf("\n".join(lines))


def test_the_same_file_gives_the_same_pairing():
    assert pair_round(prepare(CLUB, 4)) == pair_round(prepare(CLUB, 4))


def _with_records(*lines: str) -> Tournament:
    """The club example with TRF records added before its players."""
    text = Path(example_path("club-swiss.trf")).read_text(encoding="utf-8")
    return read_trf("\n".join(lines) + "\n" + text)


def test_prohibited_pairings_in_the_file_are_kept_apart_in_their_rounds():
    """TRF record 260: rounds 3 to 3, then the players (first round alone: that round)."""
    t = _with_records(
        "260   3   3    1    7", "260   4   5    2    3    4", "260   3        5    6"
    )
    request = prepare(t, 3)
    assert set(request.avoid) == {frozenset({1, 7}), frozenset({5, 6})}
    assert set(prepare(t, 4).avoid) == {frozenset({2, 3, 4})}
    pairing = pair_round(request)
    pairs = [{b.white, b.black} for b in pairing.boards]
    assert {1, 7} not in pairs and {5, 6} not in pairs
    with_option = prepare(t, 3, avoid=[{2, 8}])
    assert set(with_option.avoid) == {frozenset({1, 7}), frozenset({5, 6}), frozenset({2, 8})}


def test_a_prohibited_pairing_record_that_cannot_be_read_is_an_error():
    for record, message in (
        ("260   3   3    1   99", "TRF record 260 '  3   3    1   99': there is no player 99"),
        ("260   3   3    1", "TRF record 260 '  3   3    1': name two or more players"),
        ("260   x   3    1    2", "TRF record 260 '  x   3    1    2': expected the first"),
    ):
        with pytest.raises(HarknessError, match=re.escape(message)):
            prepare(_with_records(record), 3)

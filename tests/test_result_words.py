"""One table of result words for every front door (core.results), the mirror of an entry and
when two reports agree (core.model)."""

from __future__ import annotations

import pytest

from core.model import FORFEITS, Colour, EntryKind, RoundEntry, colours_agree, mirrored
from core.results import bye_result, is_double_forfeit, score_result, score_text, side_result


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("win", EntryKind.WIN),
        (" W ", EntryKind.WIN),
        ("1-0", EntryKind.WIN),
        ("½", EntryKind.DRAW),
        ("1/2-1/2", EntryKind.DRAW),
        ("½ – ½", EntryKind.DRAW),
        ("0\u00a0-\u00a01", EntryKind.LOSS),
        ("Forfeit Win", EntryKind.FORFEIT_WIN),
        ("+/-", EntryKind.FORFEIT_WIN),
        ("0F-1F", EntryKind.FORFEIT_LOSS),
    ],
)
def test_a_side_reads_words_and_scores_from_its_own_side(text: str, kind: EntryKind) -> None:
    assert side_result(text) is kind


def test_a_score_row_reads_only_scores_as_both_sides_have_them() -> None:
    assert score_result("1-0") == (EntryKind.WIN, EntryKind.LOSS)
    assert score_result("-/+") == (EntryKind.FORFEIT_LOSS, EntryKind.FORFEIT_WIN)
    assert score_result("win") is None and score_result("1") is None and score_result("") is None


@pytest.mark.parametrize("text", ["0F-0F", "-/-", "--", "double forfeit", "Double"])
def test_a_double_forfeit_is_a_forfeit_loss_on_both_sides(text: str) -> None:
    assert is_double_forfeit(text)
    if text[0] in "0-":
        score = score_result(text)
        assert score is not None and score.double
        assert score == (EntryKind.FORFEIT_LOSS, EntryKind.FORFEIT_LOSS)
    assert side_result(text) is None  # a member reports their own side only
    assert score_text(EntryKind.FORFEIT_LOSS, double=True) == "-/-"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("B", EntryKind.FULL_BYE),
        ("full", EntryKind.FULL_BYE),
        ("1", EntryKind.FULL_BYE),
        ("pairing", EntryKind.PAIRING_BYE),
        ("pairing-allocated bye", EntryKind.PAIRING_BYE),
        ("half-point bye", EntryKind.HALF_BYE),
        ("1/2", EntryKind.HALF_BYE),
        ("U", EntryKind.ZERO_BYE),
        ("0-0", EntryKind.ZERO_BYE),
    ],
)
def test_bye_words(text: str, kind: EntryKind) -> None:
    assert bye_result(text) is kind


def test_what_is_no_bye() -> None:
    assert bye_result("") is None and bye_result("absent") is None and bye_result("x") is None


def test_score_text_round_trips_through_the_score_words() -> None:
    for kind in (EntryKind.WIN, EntryKind.DRAW, EntryKind.LOSS, *FORFEITS):
        score = score_result(score_text(kind))
        assert score is not None and score.first is kind and not score.double
    assert score_text(EntryKind.HALF_BYE) == "H"


def test_colour_words() -> None:
    assert Colour.parse("WHITE") is Colour.WHITE and Colour.parse(" b ") is Colour.BLACK
    assert Colour.parse("") is None and Colour.parse("bogus") is None


def test_the_mirror_of_an_entry_and_when_two_reports_agree() -> None:
    assert mirrored(EntryKind.FORFEIT_WIN, None) == (EntryKind.FORFEIT_LOSS, None)
    assert RoundEntry.draw(2, Colour.BLACK).mirror(1) == RoundEntry.draw(1, Colour.WHITE)
    assert RoundEntry.win(2).agrees(RoundEntry.win(2, Colour.WHITE))
    assert not RoundEntry.win(2, Colour.BLACK).agrees(RoundEntry.win(2, Colour.WHITE))
    assert not RoundEntry.win(2).agrees(RoundEntry.win(3))
    assert colours_agree(None, Colour.WHITE) and not colours_agree(Colour.WHITE, Colour.BLACK)


def test_one_player_lookup_ranks_number_exact_prefix_substring() -> None:
    from core.players import Roster, find

    roster = [(1, "Ann Lee"), (2, "Dan Ng"), (3, "Anna Ito"), (4, "Jo  ann")]
    by = {"number": lambda p: p[0], "name": lambda p: p[1]}
    assert find(roster, "an", **by).matches == ((1, "Ann Lee"), (3, "Anna Ito"))
    assert find(roster, "ann lee", **by).how == "exact"
    assert find(roster, "jo ANN", **by).match == (4, "Jo  ann")
    assert find(roster, "ito", **by).how == "substring"
    assert find(roster, "#9", **by).how == "number" and find(roster, "#9", **by).match is None
    sheet = Roster(roster, **by)
    assert sheet.find("ann", partial=False).matches == ()  # a sheet cell names exactly
    assert sheet.find(" Anna  ITO ", partial=False).match == (3, "Anna Ito")

"""Explanations as data: every reason is a kind with its values, and each round's reason is
the tiebreak's own round note (US Chess 34E1–34E3, FIDE C.07 8, 9, 15, 16), worded only by
core.explain_render."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from core.explain import Comparison, Note, RoundNote, RoundWhy, Why, explain
from core.explain_render import reason_text, round_text, sentence, to_text
from core.formats import read_tournament
from core.model import EntryKind
from core.standings import Standings, compute_standings
from core.tiebreaks import tiebreaks_of
from tests.builders import crosstable

CORPUS = Path(__file__).parent / "corpus"
EVERY_US_CODE = "MM,SOLK,CUM,OCUM,MED,KASH,SB,BLK,H2H,AOR,PERF,COIN"


@pytest.fixture(scope="module")
def club() -> Standings:
    return compute_standings(read_tournament(CORPUS / "explain-club.csv"), "uscf")


def test_us_byes_are_reasons_with_their_rounds_and_values(club: Standings) -> None:
    gus = explain(club, 7)  # L3 L5 B H B: every point won without playing
    mm = gus.tiebreak("MM")
    assert mm.parts[0].note == RoundNote(RoundWhy.OPPONENT_SCORE, "Cara Chen", 3, Fraction(5, 2))
    assert [p.note for p in mm.parts[2:]] == [
        RoundNote(RoundWhy.OWN_UNPLAYED, entry=EntryKind.FULL_BYE),
        RoundNote(RoundWhy.OWN_UNPLAYED, entry=EntryKind.HALF_BYE),
        RoundNote(RoundWhy.OWN_UNPLAYED, entry=EntryKind.FULL_BYE),
    ]
    cum = gus.tiebreak("CUM")
    assert cum.adjustment == -2
    assert cum.taken_off == Note(
        Why.TAKEN_OFF, taken=((3, EntryKind.FULL_BYE, 2), (5, EntryKind.FULL_BYE, 2))
    )
    assert cum.variant == Note(Why.HALF_BYE_KEPT, rounds=(4,), profile="uscf")
    (above,) = gus.comparisons
    assert (above.kind, above.other.id, above.decided_by) == (Why.ALL_UNPLAYED, 8, "unplayed")
    assert gus.notes == (Note(Why.UNPLAYED_PRE_CHECK, score=Fraction(5, 2)),)
    assert gus.reason is above


def test_us_forfeits_and_a_withdrawal_are_reasons_with_their_values(club: Standings) -> None:
    fay = explain(club, 6)  # X8 in round 2
    assert fay.tiebreak("SOLK").parts[1].note == RoundNote(
        RoundWhy.OWN_UNPLAYED, entry=EntryKind.FORFEIT_WIN
    )
    assert fay.tiebreak("CUM").taken_off == Note(
        Why.TAKEN_OFF, taken=((2, EntryKind.FORFEIT_WIN, 2),)
    )
    (below,) = fay.comparisons
    assert below.kind is Why.DECIDED and below.decided_by == "MM"
    assert (below.ours, below.theirs) == (Fraction(12), Fraction(11))
    assert isinstance(below.ours, Fraction) and isinstance(below.theirs, Fraction)
    eli = explain(club, 5)  # met Dev Dutta, who withdrew after round 3
    dev = eli.tiebreak("SOLK").parts[2].note
    assert dev == RoundNote(
        RoundWhy.OPPONENT_SCORE,
        "Dev Dutta",
        4,
        Fraction(1, 2),
        Fraction(3, 2),
        ((4, EntryKind.WITHDRAWN), (5, EntryKind.WITHDRAWN)),
    )
    hana = explain(club, 8)  # F6 in round 2: her opponents count it ½ (34E1)
    met_hana = explain(club, 1).tiebreak("SOLK").parts[4].note  # Ana's W8 in round 5
    assert met_hana is not None and met_hana.opponent == hana.player.name
    assert met_hana.half == ((2, EntryKind.FORFEIT_LOSS),)  # her H in round 3 is ½ anyway
    assert (met_hana.scored, met_hana.counted) == (Fraction(5, 2), Fraction(3))


def test_every_us_tiebreak_names_its_round_kinds() -> None:
    t = read_tournament(CORPUS / "explain-club.csv")
    ana = explain(compute_standings(t, "uscf", "SB,KASH,BLK,OCUM,AOR"), 1)  # W5 D3 W2 D6 W8
    sb = ana.tiebreak("SB").parts
    assert [(p.note.kind, p.note.result) for p in sb if p.note] == [
        (RoundWhy.SHARE_OF_OPPONENT, k)
        for k in (EntryKind.WIN, EntryKind.DRAW, EntryKind.WIN, EntryKind.DRAW, EntryKind.WIN)
    ]
    kash = ana.tiebreak("KASH").parts
    assert [(p.note.entry, p.note.points) for p in kash if p.note] == [
        (EntryKind.WIN, 4),
        (EntryKind.DRAW, 2),
        (EntryKind.WIN, 4),
        (EntryKind.DRAW, 2),
        (EntryKind.WIN, 4),
    ]
    blk = [p.note.kind if p.note else None for p in ana.tiebreak("BLK").parts]
    assert blk == [None, RoundWhy.WITH_BLACK, None, None, RoundWhy.WITH_BLACK]
    ocum = ana.tiebreak("OCUM").parts[0].note
    assert ocum == RoundNote(RoundWhy.OPPONENT_CUMULATIVE, "Eli Evans", 5)
    gus = explain(compute_standings(t, "uscf", "AOR,SB,OCUM"), 7)
    assert [p.note and p.note.kind for p in gus.tiebreak("AOR").parts] == [
        RoundWhy.OPPONENT_RATING,
        RoundWhy.OPPONENT_RATING,
        RoundWhy.NOT_PLAYED,
        RoundWhy.NOT_PLAYED,
        RoundWhy.NOT_PLAYED,
    ]
    assert gus.tiebreak("SB").parts[2].note == RoundNote(RoundWhy.NOT_PLAYED_NOTHING)
    assert gus.tiebreak("OCUM").parts[2].note == RoundNote(RoundWhy.NOT_PLAYED_ZERO)
    unrated = explain(compute_standings(t, "uscf", "AOR"), 3).tiebreak("AOR").parts[0]
    assert unrated.opponent == "Gus Garcia" and unrated.note == RoundNote(RoundWhy.UNRATED)


@pytest.mark.parametrize("profile", ["uscf", "swisssys"])
def test_the_us_explanation_reads_the_tiebreaks_own_round_notes(profile: str) -> None:
    """Each round's reason is exactly what the tiebreak says of that round, for every US
    Chess tiebreak and every player (a head-to-head group's breakdown included)."""
    t = read_tournament(CORPUS / "explain-club.csv")
    standings = compute_standings(t, profile, EVERY_US_CODE)
    registry = tiebreaks_of("uscf")
    for row in standings.rows:
        e = explain(standings, row.player.id)
        for tb in e.tiebreaks:
            breakdown = standings.breakdown(tb.code, row.player_index)
            own = registry[tb.code].round_notes(standings.section, row.player_index, breakdown)
            assert tuple(p.note for p in tb.parts) == own[: len(tb.parts)], (row, tb.code)
    # The standings themselves carry no US round notes: they are computed when asked.
    for code in standings.order:
        assert all(not b.round_notes for b in standings.columns[code].breakdowns)


def test_a_fide_explanation_carries_the_rules_own_notes_and_the_opponents_scores() -> None:
    held = compute_standings(read_tournament(CORPUS / "fide-held-swiss5.trf"), "fide-2026")
    david = explain(held, 4)  # W12, half-point bye, W13, D3, D1
    bh = david.tiebreak("BH")
    nick, bye, opal = (p.note for p in bh.parts[:3])
    assert nick is not None and bye is not None and nick.kind is bye.kind is RoundWhy.RULE
    assert "C.07 16.3" in nick.text and "capped at 2.5" in bye.text
    assert opal == RoundNote(RoundWhy.OPPONENT_SCORE, "Opal", 13, Fraction(3, 2))
    own = tiebreaks_of("fide")["BH"].round_notes(
        held.section, held.tournament.index(4), held.breakdown("BH", held.tournament.index(4))
    )
    assert tuple(p.note for p in bh.parts) == own
    assert [(c.kind, c.decided_by, c.above) for c in david.comparisons] == [
        (Why.DECIDED, "BH/C1", True),
        (Why.DECIDED, "BH/C1", False),
    ]
    above = david.comparisons[0]
    assert (above.ours, above.theirs) == (Fraction(23, 2), Fraction(13))
    assert not any(
        n.kind in (Why.UNPLAYED_PRE_CHECK, Why.NO_UNPLAYED_PRE_CHECK) for n in david.notes
    )


def test_a_round_robin_is_explained_by_its_own_order_with_structured_reasons() -> None:
    """A FIDE round robin (every pair met) is ranked by direct encounter first (C.07 6);
    a forfeit there counts as a game (15.2)."""
    t = crosstable("A: X2 D3 L4", "B: F1 W4 D3", "C: L4 D1 D2", "D: W3 L2 W1")
    standings = compute_standings(t, "fide-2024")
    assert standings.order == ("DE", "WIN", "SB", "KS")
    a, b = explain(standings, 1), explain(standings, 2)
    assert a.comparisons == (
        Comparison(Why.DECIDED, b.player, False, "DE", Fraction(1), Fraction(0), ()),
    )
    assert b.reason == Comparison(Why.DECIDED, a.player, True, "DE", Fraction(0), Fraction(1), ())
    assert reason_text(b) == "A and B both scored 1.5; Direct encounter 1 vs 0 decides."
    sb = a.tiebreak("SB")
    assert sb.parts[0].value == Fraction(3, 2)  # the forfeit win against B, a game (15.2)
    assert sb.parts[1].note == RoundNote(RoundWhy.OPPONENT_SCORE, "C", 3, Fraction(1))
    d = explain(standings, 4)
    assert d.reason == Note(Why.ALONE, score=Fraction(2))
    assert Note(Why.UNDEFINED, code="DE", text=d.tiebreak("DE").note) in d.notes


def test_shared_places_and_coin_flips_are_kinds_too() -> None:
    t = crosstable("A: W2", "B: L1", "C: W4", "D: L3")
    shared = explain(compute_standings(t, "uscf"), 1)
    (below,) = shared.comparisons
    assert below.kind is Why.EQUAL and below.decided_by is None
    assert Note(Why.SHARES_PLACE, players=("C",), place="1-2") in shared.notes
    flipped = explain(compute_standings(t, "uscf", "MM,SOLK,COIN"), 1)
    (flip,) = flipped.comparisons
    assert flip.kind is Why.COIN_FLIP and flip.decided_by == "COIN"
    assert flip.text.startswith("coin flip, seed ") and flip.text in sentence(flipped, flip)
    assert any(n.kind is Why.COIN_USED for n in flipped.notes)


def test_the_words_are_the_renderers_alone(club: Standings) -> None:
    """The data holds no sentence: every word of the text comes from core.explain_render."""
    eli = explain(club, 5)
    solkoff = eli.tiebreak("SOLK")
    words = round_text(solkoff.parts[2].note)
    assert words == (
        "Dev Dutta scored 0.5, counted as 1.5: withdrew after round 3, so rounds 4–5 count ½ each"
    )
    assert words in to_text(eli)
    assert round_text(None) == ""

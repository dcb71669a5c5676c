"""US Chess tiebreaks (Rule 34E, profile ``uscf``): worked examples."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from core.model import Player, RoundEntry, Tournament
from core.problems import HarknessError
from core.profiles import PROFILES, resolve
from core.standings import compute_standings
from core.tiebreaks import Section
from core.tiebreaks.uscf import head_to_head, median_cuts, trim
from tests.builders import crosstable, nine_round_event, one_player_sequence


def halves(*points: float) -> list[int]:
    return [int(p * 2) for p in points]


def median_value(
    own: float,
    rounds: int,
    opponents: list[float],
    *,
    modified: bool = True,
) -> Fraction:
    low, high, _ = median_cuts(int(own * 2), rounds, modified=modified)
    total, _ = trim(halves(*opponents), low, high)
    return Fraction(total, 2)


# Seed 002: the Harkness examples, a 5-round Swiss.
@pytest.mark.parametrize(
    ("example", "own", "opponents", "expected"),
    [
        ("A, plus score: drop the lowest", 4.0, [3.0, 2.0, 4.5, 1.5, 3.5], 13),
        ("B, even score: drop highest and lowest", 2.5, [4.0, 3.0, 2.0, 1.0, 3.5], 8.5),
        ("C, minus score: drop the highest", 1.0, [3.5, 2.5, 2.0, 4.5, 3.0], 11),
    ],
)
def test_seed_002_modified_median_examples(
    example: str, own: float, opponents: list[float], expected: float
) -> None:
    assert median_value(own, 5, opponents) == Fraction(expected), example


# Seed 001 (WinTD's help): two 4-1 players.
def test_seed_001_solkoff_modified_median_and_median_examples() -> None:
    a, b = [0, 3, 3, 4, 5], [3, 2, 5, 3, 3]
    assert (sum(a), sum(b)) == (15, 16)  # Solkoff: B ranks higher
    assert median_value(4, 5, a) == 15 and median_value(4, 5, b) == 14  # MM: A higher
    assert median_value(4, 5, a, modified=False) == 10
    assert median_value(4, 5, b, modified=False) == 9


@pytest.mark.parametrize(
    ("results", "expected", "seed"),
    [
        ("W W W W L", 14, "001, player A"),
        ("W W L W W", 12, "001, player B"),
        ("W L W D L", 9, "003"),
        ("B W L D W", 10, "003 and 004: a bye counts, then minus 1"),
    ],
)
def test_cumulative_examples_of_the_seeds(results: str, expected: int, seed: str) -> None:
    standings = compute_standings(one_player_sequence(results), "uscf")
    assert standings.value("CUM", 0) == expected, seed


def test_cumulative_subtracts_a_forfeit_win_and_optionally_half_byes() -> None:
    t = one_player_sequence("X H W")  # 1, 1.5, 2.5 = 5; forfeit win −1
    assert compute_standings(t, "uscf").value("CUM", 0) == 4
    profile = replace(PROFILES["uscf"], cumulative_half_bye=True)
    assert compute_standings(t, profile).value("CUM", 0) == Fraction(7, 2)


def test_adjusted_score_counts_each_unplayed_round_of_the_opponent_as_half() -> None:
    # Rule 34E1: W W L, then withdrew from rounds 4–5 → adjusted 3 (actual 2).
    t = crosstable("Quitter: W2 W3 L4 - -", "B: L1", "C: U L1", "D: U U W1")
    section = Section(t, PROFILES["uscf"])
    assert section.scores[0] == 4 and section.adjusted[0] == 6


def test_own_unplayed_rounds_count_as_opponents_with_adjusted_score_zero() -> None:
    # Hero: forfeit win over 2, then beats 3; 2 and 3 played nobody else.
    t = crosstable("Hero: X2 W3", "B: F1 H", "C: H L1")
    standings = compute_standings(t, "uscf", "MM,SOLK,MED")
    b = standings.breakdown("SOLK", 0)
    assert b.per_round == (0, 1)  # the forfeit counts 0; C's adjusted score is ½ + 0 = ½
    assert standings.value("SOLK", 0) == Fraction(1, 2)
    # 2 of 2 is a plus score: the lowest (the forfeit's 0) is dropped.
    assert standings.breakdown("MM", 0).dropped == (1,)


def test_modified_median_drops_two_at_each_end_from_nine_rounds() -> None:
    standings = compute_standings(nine_round_event(), "uscf", "MM,SOLK,MED")
    i = standings.tournament.index(1)  # 8½ of 9: plus score, the two lowest go
    mm, solk = standings.breakdown("MM", i), standings.breakdown("SOLK", i)
    assert len(mm.dropped) == 2
    kept = [v for r, v in enumerate(mm.per_round, start=1) if r not in mm.dropped]
    assert mm.units == sum(kept) == solk.units - sum(sorted(solk.per_round)[:2])  # type: ignore[operator]
    med = standings.breakdown("MED", i)
    assert len(med.dropped) == 4
    assert median_cuts(9, 9, modified=True)[:2] == (2, 2)  # 4½ of 9 is an even score


def test_median_and_modified_median_never_exceed_solkoff() -> None:
    standings = compute_standings(nine_round_event(), "uscf", "MM,SOLK,MED")
    for row in standings.rows:
        med, mm, solk = (standings.value(c, row.player_index) for c in ("MED", "MM", "SOLK"))
        assert med is not None and mm is not None and solk is not None
        assert med <= mm <= solk


def test_kashdan_sonneborn_berger_and_most_blacks() -> None:
    t = crosstable("A: W2b D3w L4b", "B: L1w W4b D3b", "C: W4w D1b D2w", "D: L3b L2w W1w")
    s = compute_standings(t, "uscf", "KASH,SB,BLK")
    a = t.index(1)
    assert s.value("KASH", a) == 4 + 2 + 1
    # A beat B (1.5) and drew C (2): 1.5 + 2/2
    assert s.value("SB", a) == Fraction(5, 2)
    assert s.value("BLK", a) == 2
    doubled = compute_standings(t, "wintd", "SB")
    assert doubled.value("SB", a) == 5  # WinTD: 2 × beaten + 1 × drawn


def test_result_between_tied_players_counts_plus_minus_not_percentage() -> None:
    # Among players 1–4: A scored 3−1 (plus two), B 1−0 (plus one, but 100 %).
    t = crosstable(
        "A: W3 W4 D3 D4", "B: W4 B W5 U", "C: L1 W5 D1 U", "D: L2 L1 B D1", "E: B L3 L2 U"
    )
    values = head_to_head(Section(t, PROFILES["uscf"]), [0, 1, 2, 3])
    assert [values[i].units for i in range(4)] == [2, 1, -1, -2]
    assert values[1].per_round == (1, None, None, None)


def test_result_between_tied_players_orders_the_tied_group() -> None:
    # A, B, C on 1 point: C beat A, A beat B.
    t = crosstable("A: W2 L3", "B: L1 W4", "C: U W1", "D: U L2")
    s = compute_standings(t, "uscf", "H2H")
    assert [r.player.name for r in s.rows] == ["C", "A", "B", "D"]
    assert [r.separated_by for r in s.rows] == [None, "H2H", "H2H", "score"]
    assert s.value("H2H", t.index(2)) == -1


def test_result_between_tied_players_does_not_count_when_it_separates_nobody() -> None:
    t = crosstable("A: D2 W3", "B: D1 W4", "C: U L1", "D: U L2")
    s = compute_standings(t, "uscf", "H2H")
    assert s.rows[0].place == s.rows[1].place == "1-2"


def test_ratings_average_and_performance_are_undefined_without_rated_opponents() -> None:
    t = Tournament(
        (
            Player(1, "A", (RoundEntry.win(2), RoundEntry.draw(3)), rating=1500),
            Player(2, "B", (RoundEntry.loss(1), RoundEntry.bye()), rating=1700),
            Player(3, "C", (RoundEntry.draw(4), RoundEntry.draw(1))),
            Player(4, "D", (RoundEntry.draw(3), RoundEntry.bye())),
        ),
        2,
    )
    s = compute_standings(t, "uscf", "AOR,PERF")
    assert s.value("AOR", 0) == 1700  # the unrated opponent is skipped
    assert s.value("PERF", 0) == 1700 + 400
    assert s.value("AOR", 2) == 1500 and s.value("PERF", 2) == 1500
    assert s.value("AOR", 3) is None and s.value("PERF", 3) is None  # met only unrated C


def test_coin_flip_is_reproducible_labelled_and_only_last() -> None:
    t = crosstable("A: W3", "B: W4", "C: L1", "D: L2")
    first = compute_standings(t, "uscf", "SOLK,COIN")
    again = compute_standings(t, "uscf", "SOLK,COIN")
    assert [r.player.id for r in first.rows] == [r.player.id for r in again.rows]
    assert first.rows[1].separated_by == "COIN"
    assert "coin flip, seed" in first.breakdown("COIN", 0).note
    with pytest.raises(HarknessError, match="COIN"):
        resolve("uscf", "COIN,SOLK")


def test_a_score_made_only_of_unplayed_rounds_loses_the_tie_before_any_tiebreak() -> None:
    # Byer has 1 point from a bye; Player scored 1 in play with a worse Solkoff.
    t = crosstable("Byer: B L3", "Player: W4 U", "C: U W1", "D: L2 U")
    s = compute_standings(t, "uscf", "SOLK")
    names = [r.player.name for r in s.rows]
    assert names.index("Player") < names.index("Byer")
    assert s.row_of(1).separated_by == "unplayed"


def test_players_equal_on_everything_share_the_place() -> None:
    t = crosstable("A: W2", "B: L1", "C: W4", "D: L3")
    s = compute_standings(t, "uscf")
    assert [(r.place, r.player.id) for r in s.rows] == [
        ("1-2", 1),
        ("1-2", 3),
        ("3-4", 2),
        ("3-4", 4),
    ]


def test_mdchess_moves_modified_median_last_in_short_sections() -> None:
    assert PROFILES["mdchess"].order(2) == ("SOLK", "CUM", "OCUM", "MM")
    assert PROFILES["mdchess"].order(3) == ("MM", "SOLK", "CUM", "OCUM")
    assert PROFILES["uscf"].order(2) == ("MM", "SOLK", "CUM", "OCUM")


def test_mca_profile_order() -> None:
    assert PROFILES["mca"].tiebreaks == ("MM", "SOLK", "CUM", "H2H", "BLK", "OCUM", "SB", "KASH")


def test_construction_reports_every_problem_with_its_player_and_round() -> None:
    with pytest.raises(HarknessError) as caught:
        Tournament(
            (
                Player(1, "A", (RoundEntry.win(2), RoundEntry.win(1))),
                Player(2, "B", (RoundEntry.win(1), RoundEntry.draw(9))),
                Player(3, "C", (RoundEntry.bye(),)),
            ),
            2,
        )
    places = {(p.player, p.round): p.message for p in caught.value.problems}
    assert "player 2 has 'W1'" in places[(1, 1)]
    assert "themselves" in places[(1, 2)]
    assert "no player 9" in places[(2, 2)]
    assert "no entry" in places[(3, 2)]


def test_a_double_forfeit_is_an_unplayed_zero_for_both_sides() -> None:
    # Round 2: neither A nor B came (F on both rows). Each scores 0 there and the round is
    # unplayed for both: an opponent's adjusted score counts it as ½, the player's own
    # Modified Median / Solkoff count it as an opponent with 0, Kashdan gives 0.
    double = crosstable("A: W3 F2 W4", "B: W4 F1 L3", "C: L1 D4 W2", "D: L2 D3 L1")
    assert [p.half_points for p in double] == [4, 2, 3, 1]
    # The same event with a zero-point bye for each instead: every US value is the same.
    zero = crosstable("A: W3 U W4", "B: W4 U L3", "C: L1 D4 W2", "D: L2 D3 L1")
    codes = ("MM", "MED", "SOLK", "CUM", "OCUM", "KASH", "SB", "BLK")
    for profile in ("uscf", "mca", "wintd", "mdchess"):
        for code in codes:
            got = compute_standings(double, resolve(profile, code))
            same = compute_standings(zero, resolve(profile, code))
            assert [got.value(code, i) for i in range(4)] == [
                same.value(code, i) for i in range(4)
            ], (profile, code)
    assert double.player(1).entries[1] == RoundEntry.forfeit_loss(2)
    assert double.player(2).entries[1] == RoundEntry.forfeit_loss(1)
    # C met A (2, adjusted 2½), D (½) and B (1, adjusted 1½).
    assert compute_standings(double, "uscf").value("SOLK", 2) == Fraction(5 + 1 + 3, 2)

"""The five worked examples of core/RULEBOOK.md ("Awards"): the engine must give exactly
these."""

from __future__ import annotations

from fractions import Fraction

from core.awards import AwardWhy, compute_awards, read_prizes
from tests.awards.support import awards, cash, section
from tests.awards.worked import CAP, CLASS_A, FIELD, HORT, SCHOOL, WORKED, YOUTH, Worked


def worked(name: str) -> Worked:
    return next(case for case in WORKED if case.name == name)


def test_four_tied_for_first_with_one_youth_pool_300_200_150_and_get_162_50_each() -> None:
    """$300 1st, $200 2nd, $150 youth; four tie for first, one a youth: the pool is
    300 + 200 + 150, $162.50 each (also WinTD's help, quoted by tourneygeek.com,
    "Playing tournament chess for money", 2019)."""
    result = awards(worked("youth").entries, YOUTH)
    assert cash(result) == dict.fromkeys("ABCD", Fraction(325, 2)) | {"E": 0}
    assert [row.paid for row in result.rows[:4]] == [Fraction(325, 2)] * 4
    pool = next(n for n in result.award(3).reasons if n.kind is AwardWhy.POOL)
    assert (pool.total, pool.count) == (650, 4)
    youth = next(i for i in pool.items if i.prize == "Youth")
    assert youth.players == ("C",)  # the youth prize was brought by the youth player
    assert [i.players for i in pool.items if i.prize != "Youth"] == [(), ()]
    assert result.leftover == 0


def test_us_chess_caps_2495_at_the_3rd_prize_and_gives_the_u2400s_817_each() -> None:
    """The 32B3 cap: no player gets more than the largest prize he could win alone. The
    case of forum.uschess.org "Rule 32B3 Question" (a 6-round event with 1st $2,375 with its
    bonus, …, 1st U2400 $1,379, 2nd U2400 $766)."""
    got = cash(awards(FIELD, CAP.format(method="us-chess")))
    assert got["2673"] == 2375 and got["2699"] == 1149
    assert got["2495"] == 536
    assert [got[n] for n in ("2391", "2387", "2385")] == [817] * 3
    assert [got[str(r)] for r in (2345, 2340, 2226, 2208, 2148)] == [46] * 5


def test_us_chess_2003_splits_the_four_4_pointers_746_75_each_as_swisssys_8_did() -> None:
    """Without the cap (the older printed 32B3, as SwissSys 8.882 computed it in the same
    forum thread): $746.75 each."""
    result = awards(FIELD, CAP.format(method="us-chess-2003"))
    got = cash(result)
    assert [got[n] for n in ("2495", "2391", "2387", "2385")] == [Fraction(2987, 4)] * 4
    # Why the U2400 players do not take the U2400 prizes alone (32B3 "unless"): $715 each.
    stayed = next(n for n in result.award(4).reasons if n.kind is AwardWhy.NOT_BETTER_ALONE)
    assert (stayed.players, stayed.amount) == (("2391", "2387", "2385"), 715)
    assert not any(n.kind is AwardWhy.NOT_BETTER_ALONE for n in result.award(3).reasons)


def test_the_cap_is_a_reason_of_2495_and_the_others_split_the_rest() -> None:
    result = awards(FIELD, CAP.format(method="us-chess"))
    capped = next(n for n in result.award(3).reasons if n.kind is AwardWhy.CAP)
    assert (capped.prize, capped.amount, capped.other_amount) == ("3rd", 536, Fraction(2987, 4))
    others = next(n for n in result.award(4).reasons if n.kind is AwardWhy.CAPPED_OTHERS)
    assert (others.players, others.amount) == (("2495",), 817)


def test_class_a_cash_is_shared_but_its_trophy_goes_to_1865_ahead_on_tiebreaks() -> None:
    """Cash: $200; $75, $75; $20, $20. Trophies: 1st, 2nd, 3rd, and Class A to 1865 (ahead
    of 1990 on tiebreaks): cash ignores tiebreaks (32B2), trophies follow them (34)."""
    field = worked("class-a").entries
    result = awards(field, CLASS_A)
    assert [row.cash for row in result.rows] == [200, 75, 75, 20, 20]
    assert [row.trophy for row in result.rows] == ["1st", "2nd", "3rd", "Class A", None]
    why = next(n for n in result.award(4).reasons if n.kind is AwardWhy.TROPHY)
    assert (why.other, why.code) == ("1990", "CUM")
    taken = next(n for n in result.award(5).why_not if n.kind is AwardWhy.TROPHY_TAKEN)
    assert (taken.prize, taken.other) == ("Class A", "1865")


def test_hort_keeps_half_of_each_place_and_shares_the_other_halves() -> None:
    """Places 1–6 worth 100, 80, 60, 40, 20, 10; A and B tie on 8 (A ahead), C 7½, D, E, F
    tie on 7: A 95, B 85, C 60, D 31⅔, E 21⅔, F 16⅔ (also the example of the Hort system's
    article, de.wikipedia.org "Hort-System")."""
    field = worked("hort").entries
    result = awards(field, HORT)
    assert cash(result) == {
        "A": 95,
        "B": 85,
        "C": 60,
        "D": Fraction(95, 3),
        "E": Fraction(65, 3),
        "F": Fraction(50, 3),
    }
    assert [row.paid for row in result.rows[3:]] == [
        Fraction(3166, 100),
        Fraction(2166, 100),
        Fraction(1666, 100),
    ]
    assert result.leftover_cents == 2


def test_a_schools_team_score_counts_its_first_four() -> None:
    """A school's players score 3½, 3, 3, 2, 1, ½: team score 11½ (the first four count)."""
    field = worked("school").entries
    standings = section(field)
    result = compute_awards(standings, read_prizes(SCHOOL))
    (team,) = result.teams
    assert (team.score, team.counting) == (Fraction(23, 2), (1, 2, 3, 4))
    score = next(n for n in team.reasons if n.kind is AwardWhy.TEAM_SCORE)
    assert [i.score for i in score.items] == [Fraction(7, 2), 3, 3, 2]

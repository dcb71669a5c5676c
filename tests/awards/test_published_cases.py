"""Published prize distributions: each test gives its source, and the engine must give the
published answer (or, where the source says how it rounds, the exact amount it rounded).
"""

from __future__ import annotations

from fractions import Fraction

from core.awards import AwardWhy
from tests.awards.support import Entry, awards, cash


def prizes(method: str = "us-chess", **amounts: str) -> str:
    """A prize file: ``name='kind…; amount'`` pairs, in the order given."""
    text = f'method = "{method}"\n'
    for name, spec in amounts.items():
        kind, amount = spec.rsplit(";", 1)
        text += f'[[prize]]\nname = "{name.replace("_", " ")}"\n{kind}\namount = {amount}\n'
    return text


def test_the_largest_prize_he_could_win_alone_caps_the_one_player_not_under_1700() -> None:
    """uschess.discourse.group, "Question re Dividing Prizes (Rule 32B3)": 1st $12,000 …
    6th $800, 1st U1700 $2,000, 2nd U1700 $1,000. A (1753) 8½; B, C, D 7½; E (1750), F, G,
    H (under 1700) 7. The replies: E gets $1,000 (5th, the largest prize he could win with
    no tie), F, G and H split the rest, $1,266.66 each; A $12,000; B–D $3,500."""
    text = prizes(
        p1="place = 1;12000",
        p2="place = 2;6000",
        p3="place = 3;3000",
        p4="place = 4;1500",
        p5="place = 5;1000",
        p6="place = 6;800",
        u1="under = 1700;2000",
        u2="under = 1700\nrank = 2;1000",
    )
    field = [
        Entry("A", 8.5, 1753),
        Entry("B", 7.5, 1702),
        Entry("C", 7.5, 1700),
        Entry("D", 7.5, 1700),
        Entry("E", 7, 1750),
        Entry("F", 7, 1676),
        Entry("G", 7, 1675),
        Entry("H", 7, 1650),
    ]
    result = awards(field, text)
    got = cash(result)
    assert got == {"A": 12000, "B": 3500, "C": 3500, "D": 3500, "E": 1000} | dict.fromkeys(
        "FGH", Fraction(3800, 3)
    )
    assert [row.paid for row in result.rows[5:]] == [Fraction(126666, 100)] * 3
    assert result.leftover_cents == 2


def test_a_place_prize_goes_into_the_pool_before_an_under_prize_of_the_same_amount() -> None:
    """uschess.discourse.group, "Prize Example": 1st $250, 2nd $150, 3rd $100, U2200 $100;
    A (GM) 4, B and C (experts) 3½, D (NM) 3, E (expert) 2½. Answer (32B4): A $250, B and C
    split 2nd and 3rd ($125 each), E gets U2200 ($100), D nothing."""
    text = prizes(
        first="place = 1;250",
        second="place = 2;150",
        third="place = 3;100",
        U2200="under = 2200;100",
    )
    field = [
        Entry("A", 4, 2600),
        Entry("B", 3.5, 2100),
        Entry("C", 3.5, 2050),
        Entry("D", 3, 2250),
        Entry("E", 2.5, 2010),
    ]
    result = awards(field, text)
    assert cash(result) == {"A": 250, "B": 125, "C": 125, "D": 0, "E": 100}
    chose = next(n for n in result.award(2).reasons if n.kind is AwardWhy.PRECEDENCE)
    assert (chose.prize, chose.other, chose.code) == ("third", "U2200", "kind")
    why_not = result.award(4).why_not[0]
    assert why_not.kind is AwardWhy.PRIZES_TAKEN


def _situation(amount_a: str, amount_b: str) -> str:
    """uschess.discourse.group, "Prize distribution": 1st $200, 2nd $150, top A, top B."""
    return (
        prizes(p1="place = 1;200", p2="place = 2;150")
        + f'[[prize]]\nname = "top A"\nclass = [1800, 1999]\namount = {amount_a}\n'
        + f'[[prize]]\nname = "top B"\nclass = [1600, 1799]\namount = {amount_b}\n'
    )


FIELD = [
    Entry("Arnie", 5, 1980),
    Entry("Alfred", 4.5, 1950),
    Entry("Bernie", 4.5, 1750),
    Entry("Alonzo", 4, 1930),
    Entry("Bob", 4, 1730),
]


def test_situation_1_the_larger_class_prize_goes_into_the_pool() -> None:
    """uschess.discourse.group, "Prize distribution", situation 1: top A $75.02, top B $75:
    Arnie $200, Alfred and Bernie $112.51 each (2nd + A, 32B1: the most valuable), Alonzo
    nothing, Bob $75 (top B)."""
    result = awards(FIELD, _situation("75.02", "75"))
    assert cash(result) == {
        "Arnie": 200,
        "Alfred": Fraction(11251, 100),
        "Bernie": Fraction(11251, 100),
        "Alonzo": 0,
        "Bob": 75,
    }


def test_situation_2_the_higher_under_prize_of_equal_amount_goes_into_the_pool() -> None:
    """Same thread, situation 2: top U2000 $75, top U1800 $75: Alfred and Bernie split 2nd
    and U2000 (32B4: the highest class), $112.50 each; Bob $75 (U1800); Alonzo nothing."""
    text = prizes(
        p1="place = 1;200", p2="place = 2;150", U2000="under = 2000;75", U1800="under = 1800;75"
    )
    assert cash(awards(FIELD, text)) == {
        "Arnie": 200,
        "Alfred": Fraction(225, 2),
        "Bernie": Fraction(225, 2),
        "Alonzo": 0,
        "Bob": 75,
    }


def test_situation_3_class_a_before_class_b_of_equal_amount() -> None:
    """Same thread, situation 3: top A $75, top B $75: $112.50 each to Alfred and Bernie
    (2nd + A, the higher class), Bob $75, Alonzo nothing."""
    result = awards(FIELD, _situation("75", "75"))
    assert cash(result) == {
        "Arnie": 200,
        "Alfred": Fraction(225, 2),
        "Bernie": Fraction(225, 2),
        "Alonzo": 0,
        "Bob": 75,
    }
    chose = next(n for n in result.award(2).reasons if n.kind is AwardWhy.PRECEDENCE)
    assert (chose.prize, chose.other, chose.code) == ("top A", "top B", "upper")


def test_situation_4_a_larger_class_b_prize_leaves_class_a_to_alonzo() -> None:
    """Same thread, situation 4 (the "perverse" one): top A $75, top B $75.02: Alfred and
    Bernie $112.51 each (2nd + B), Alonzo $75 (A), Bob nothing."""
    got = cash(awards(FIELD, _situation("75", "75.02")))
    assert got == {
        "Arnie": 200,
        "Alfred": Fraction(11251, 100),
        "Bernie": Fraction(11251, 100),
        "Alonzo": 75,
        "Bob": 0,
    }


def test_a_class_player_who_does_better_alone_takes_his_class_prize() -> None:
    """uschess.discourse.group, "Class prizes": two experts, an A and two B players tie for
    3rd; 3rd $120, 1st A $70, B prizes $70 and $30 (2nd A too, 2 per class under 2000).
    All five would get $58; the A player does better alone (his $70), the other four get
    $55 each, and the B players stay in (alone $50 each)."""
    text = prizes(
        p1="place = 1;500",
        p2="place = 2;300",
        p3="place = 3;120",
        A1="class = [1800, 1999];70",
        A2="class = [1800, 1999]\nrank = 2;40",
        B1="class = [1600, 1799];70",
        B2="class = [1600, 1799]\nrank = 2;30",
    )
    field = [
        Entry("W", 5, 2300),
        Entry("X", 4.5, 2250),
        Entry("E1", 4, 2100),
        Entry("E2", 4, 2050),
        Entry("A", 4, 1900),
        Entry("B1", 4, 1700),
        Entry("B2", 4, 1650),
    ]
    result = awards(field, text)
    assert cash(result) == {"W": 500, "X": 300, "E1": 55, "E2": 55, "A": 70, "B1": 55, "B2": 55}
    alone = next(n for n in result.award(5).reasons if n.kind is AwardWhy.SUB_GROUP)
    assert (alone.amount, alone.other_amount) == (70, 58)


def test_four_players_of_a_lower_score_group_split_the_last_under_prize() -> None:
    """westfieldchessclub.blogspot.com, "Prize Determination" (2012): of ten players on 2
    points, the four rated under 1500 split the U1500 prize: $18.75 each (a $75 prize)."""
    text = prizes(first="place = 1;100", U1500="under = 1500;75")
    field = [Entry("Top", 3, 2000)] + [
        Entry(f"P{n}", 2, r)
        for n, r in enumerate((2025, 1809, 1424, 1337, 1182, 1102, 1600, 1700, 1550, 1990))
    ]
    got = cash(awards(field, text))
    assert {n: a for n, a in got.items() if a and n != "Top"} == dict.fromkeys(
        ("P2", "P3", "P4", "P5"), Fraction(75, 4)
    )


def test_all_stars_ties_split_the_places_they_occupy() -> None:
    """oscf.org, "All Stars Awards & Ties": 1st $45, 2nd $40, 3rd $30, 4th $20, 5th $15;
    scores 4, 4, 3½, 3, 3, 3: $42.50 each, $30, and ⅓ of $35 each (the page rounds to
    $11.67; paid in cents rounded down, $11.66, 2 cents left over)."""
    text = prizes(
        a="place = 1;45", b="place = 2;40", c="place = 3;30", d="place = 4;20", e="place = 5;15"
    )
    field = [
        Entry("1", 4),
        Entry("2", 4),
        Entry("3", 3.5),
        Entry("4", 3),
        Entry("5", 3),
        Entry("6", 3),
    ]
    result = awards(field, text)
    assert list(cash(result).values()) == [Fraction(85, 2)] * 2 + [30] + [Fraction(35, 3)] * 3
    assert result.rows[3].paid == Fraction(1166, 100)
    assert result.leftover_cents == 2


def test_the_equal_class_prizes_go_to_the_highest_class() -> None:
    """forum.uschess.org, "Prize calculation": 1st, 2nd, 3rd and X and A class prizes; two
    players on 5 split 1st and 2nd; an expert and an A player on 4½; an expert and an A
    player on 4. With equal X and A prizes (and the place prizes larger) the 4½s split 3rd
    and X (the higher class), the A on 4 gets A, the expert on 4 nothing; with A larger,
    3rd and A; with both class prizes above 3rd, each 4½ gets his class prize."""
    field = [
        Entry("G1", 5, 2400),
        Entry("G2", 5, 2350),
        Entry("X45", 4.5, 2100),
        Entry("A45", 4.5, 1900),
        Entry("X4", 4, 2050),
        Entry("A4", 4, 1850),
    ]
    equal = prizes(
        p1="place = 1;300",
        p2="place = 2;200",
        p3="place = 3;100",
        X="class = [2000, 2199];50",
        A="class = [1800, 1999];50",
    )
    got = cash(awards(field, equal))
    assert (got["X45"], got["A45"], got["X4"], got["A4"]) == (75, 75, 0, 50)
    larger_a = equal.replace("amount = 50\n", "amount = 60\n", 2).replace(
        "amount = 60\n", "amount = 50\n", 1
    )
    got = cash(awards(field, larger_a))
    assert (got["X45"], got["A45"], got["X4"], got["A4"]) == (80, 80, 50, 0)
    above = equal.replace("amount = 50\n", "amount = 125\n")
    got = cash(awards(field, above))
    assert (got["X45"], got["A45"]) == (125, 125)


def test_hort_with_the_articles_second_example() -> None:
    """de.wikipedia.org, "Hort-System": 1,000, 500, 350, 200, 150, 100; A, B tie on 8;
    C 7½; D, E, F tie on 7: A 875, B 625, C 350, D 175, E 150, F 125."""
    text = prizes(
        "fide-hort",
        a="place = 1;1000",
        b="place = 2;500",
        c="place = 3;350",
        d="place = 4;200",
        e="place = 5;150",
        f="place = 6;100",
    )
    field = [
        Entry("A", 8),
        Entry("B", 8),
        Entry("C", 7.5),
        Entry("D", 7),
        Entry("E", 7),
        Entry("F", 7),
    ]
    assert list(cash(awards(field, text)).values()) == [875, 625, 350, 175, 150, 125]


def test_hort_in_the_vega_manual() -> None:
    """Vega chess software manual (2016), the Hort system: four players share a place with
    prizes €10,000, €8,000, €6,000, €4,000: €8,500, €7,500, €6,500, €5,500."""
    text = prizes(
        "fide-hort", a="place = 1;10000", b="place = 2;8000", c="place = 3;6000", d="place = 4;4000"
    )
    field = [Entry(n, 7) for n in "ABCD"]
    assert list(cash(awards(field, text)).values()) == [8500, 7500, 6500, 5500]

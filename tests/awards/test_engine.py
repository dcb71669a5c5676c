"""The awards engine beyond the worked examples: the FIDE-world methods and their category
prizes, personal limits and money moved down (US Chess 32B3), additive specials, trophies
(one each, additive, following the money, decided by a playoff or a coin), prizes not
awarded, and team cash."""

from __future__ import annotations

from fractions import Fraction

from core.awards import AwardWhy
from tests.awards.support import Entry, awards, cash


def places(method: str, *amounts: int, extra: str = "", top: str = "") -> str:
    """A prize file: place prizes with trophies, then ``extra`` tables; ``top``: top-level
    keys."""
    text = f'method = "{method}"\ncurrency = "$"\n{top}'
    for n, amount in enumerate(amounts, start=1):
        text += f'[[prize]]\nname = "{n}"\nplace = {n}\namount = {amount}\ntrophy = true\n'
    return text + extra


FIVE = [Entry("A", 5), Entry("B", 4), Entry("C", 4), Entry("D", 4), Entry("E", 3)]


def test_fide_none_pays_each_place_by_the_standings_order() -> None:
    got = cash(awards(FIVE, places("fide-none", 100, 60, 40, 20)))
    assert got == {"A": 100, "B": 60, "C": 40, "D": 20, "E": 0}


def test_fide_none_shares_between_players_equal_on_every_tiebreak() -> None:
    field = [Entry("A", 5), Entry("B", 4, tie=0), Entry("C", 4, tie=0), Entry("D", 3)]
    result = awards(field, places("fide-none", 100, 60, 40))
    assert cash(result) == {"A": 100, "B": 50, "C": 50, "D": 0}
    shared = next(n for n in result.award(2).reasons if n.kind is AwardWhy.SHARED_EQUALLY)
    assert (shared.place, shared.count, shared.total) == ("2-3", 2, 100)


def test_fide_equal_shares_the_places_a_score_group_occupies() -> None:
    got = cash(awards(FIVE, places("fide-equal", 100, 60, 40, 20)))
    assert got == {"A": 100, "B": 40, "C": 40, "D": 40, "E": 0}


CATEGORY = '[[prize]]\nname = "U1800"\nunder = 1800\namount = {}\n'


def test_fide_a_category_prize_worth_more_leaves_the_main_prize_to_the_next() -> None:
    field = [Entry("A", 5, 2000), Entry("B", 4, 1700), Entry("C", 3, 1600)]
    result = awards(field, places("fide-none", 100, 50, extra=CATEGORY.format(80)))
    assert cash(result) == {"A": 100, "B": 80, "C": 50}
    took = next(n for n in result.award(2).reasons if n.kind is AwardWhy.CATEGORY_OVER_MAIN)
    assert (took.prize, took.amount, took.other_amount) == ("U1800", 80, 50)
    assert result.award(3).reasons[0].kind is AwardWhy.PLACE_PRIZE


def test_fide_a_main_share_worth_more_leaves_the_category_prize_to_the_next() -> None:
    field = [Entry("A", 5, 2000), Entry("B", 4, 1700), Entry("C", 3, 1600)]
    result = awards(field, places("fide-none", 100, 50, extra=CATEGORY.format(40)))
    assert cash(result) == {"A": 100, "B": 50, "C": 40}
    kept = next(n for n in result.award(2).reasons if n.kind is AwardWhy.MAIN_OVER_CATEGORY)
    assert (kept.prize, kept.amount, kept.other_amount) == ("U1800", 50, 40)


def test_a_personal_limit_of_0_makes_a_player_not_prize_eligible() -> None:
    result = awards(FIVE, places("us-chess", 100, 60, extra="[limits]\n1 = 0\n"))
    assert cash(result) == {"A": 0, "B": 80, "C": 80, "D": 80, "E": 0} | {
        "B": Fraction(160, 3),
        "C": Fraction(160, 3),
        "D": Fraction(160, 3),
    }
    first = result.award(1)
    assert first.trophies == () and first.why_not[0].kind is AwardWhy.NOT_PRIZE_ELIGIBLE
    assert result.award(2).trophy == "1"


def test_money_a_limited_winner_cannot_take_moves_down_the_place_ladder() -> None:
    """US Chess 32B3 with a personal limit: the $250 the leader may not take raises 2nd to
    1st's $300, 3rd to 2nd's $200, and what remains is a new last prize."""
    field = [Entry("A", 5), Entry("B", 4.5), Entry("C", 4), Entry("D", 3.5), Entry("E", 3)]
    result = awards(field, places("us-chess", 300, 200, 100, extra="[limits]\n1 = 50\n"))
    assert cash(result) == {"A": 50, "B": 300, "C": 200, "D": 50, "E": 0}
    moved = next(n for n in result.award(1).reasons if n.kind is AwardWhy.MOVED_DOWN)
    assert moved.amount == 250
    assert [(i.prize, i.amount) for i in moved.items] == [
        ("2", 300),
        ("3", 200),
        ("place 4 (moved down)", 50),
    ]
    raised = next(n for n in result.award(2).reasons if n.kind is AwardWhy.RAISED)
    assert (raised.prize, raised.other_amount, raised.amount) == ("2", 200, 300)
    limit = next(n for n in result.award(1).reasons if n.kind is AwardWhy.LIMIT)
    assert (limit.amount, limit.other_amount) == (50, 300)


def test_in_a_tie_a_limited_player_gets_his_limit_and_the_others_split_the_rest() -> None:
    field = [Entry("A", 5), Entry("B", 5), Entry("C", 5), Entry("D", 4)]
    result = awards(field, places("us-chess", 200, 150, 100, extra="[limits]\n2 = 50\n"))
    assert cash(result) == {"A": 200, "B": 50, "C": 200, "D": 0}
    others = next(n for n in result.award(1).reasons if n.kind is AwardWhy.CAPPED_OTHERS)
    assert others.players == ("B",)


def test_an_additive_special_comes_on_top_of_a_place_prize_and_is_shared_by_ties() -> None:
    extra = (
        '[[prize]]\nname = "Top woman"\ncategory = "women"\namount = 50\nadditive = true\n'
        "[categories]\nwomen = [1, 3, 4]\n"
    )
    result = awards(FIVE, places("us-chess", 100, 60, extra=extra))
    got = cash(result)
    assert got["A"] == 150  # 1st and, in addition, the best woman's prize
    tied = [*FIVE[1:], Entry("F", 2)]  # B, C and D tie on 4; B and C are the women
    women = awards(tied, places("us-chess", 100, extra=extra.replace("[1, 3, 4]", "[1, 2]")))
    assert cash(women)["B"] == cash(women)["C"] == 25 + Fraction(100, 3)
    assert cash(women)["D"] == Fraction(100, 3)
    additive = next(n for n in women.award(1).reasons if n.kind is AwardWhy.ADDITIVE)
    assert (additive.prize, additive.count) == ("Top woman", 2)


def test_trophies_one_each_by_precedence_and_an_additive_one_on_top() -> None:
    extra = (
        '[[prize]]\nname = "Best U1800"\nunder = 1800\ntrophy = true\n'
        '[[prize]]\nname = "Best junior"\ncategory = "junior"\ntrophy = true\nadditive = true\n'
        "[categories]\njunior = [1, 3]\n"
    )
    field = [Entry("A", 5, 1700), Entry("B", 4, 1750), Entry("C", 3, 1500)]
    result = awards(field, places("us-chess", 100, extra=extra))
    assert [r.trophies for r in result.rows] == [("1", "Best junior"), ("Best U1800",), ()]
    one = next(n for n in result.award(1).why_not if n.kind is AwardWhy.ONE_TROPHY)
    assert [(i.prize, i.players) for i in one.items] == [("Best U1800", ("B",))]


def test_the_trophy_follows_the_money_to_the_winner_of_its_cash() -> None:
    """B wins the U1800 cash (worth more than 2nd); by standings order he would take the
    2nd-place trophy (place before class), with the trophy following the money he takes
    the U1800 trophy and C, who won 2nd's cash, the 2nd-place trophy."""
    extra = '[[prize]]\nname = "U1800"\nunder = 1800\namount = 150\ntrophy = true\n'
    field = [Entry("A", 5, 2000), Entry("B", 4.5, 1700), Entry("C", 4, 1600), Entry("D", 3, 1500)]
    standings_order = awards(field, places("us-chess", 100, 60, extra=extra))
    assert cash(standings_order) == {"A": 100, "B": 150, "C": 60, "D": 0}
    assert [r.trophy for r in standings_order.rows] == ["1", "2", "U1800", None]
    top = "trophy_follows_money = true\n"
    follows = awards(field, places("us-chess", 100, 60, extra=extra, top=top))
    assert [r.trophy for r in follows.rows] == ["1", "U1800", "2", None]
    note = next(n for n in follows.award(2).reasons if n.kind is AwardWhy.TROPHY_FOLLOWS_MONEY)
    assert note.players == ("B",)


def test_players_equal_on_everything_get_trophies_by_the_recorded_playoff() -> None:
    field = [Entry("A", 4, tie=0), Entry("B", 4, tie=0)]
    result = awards(field, places("us-chess", 100, 60, top="playoff = [2, 1]\n"))
    assert [r.place for r in result.rows] == ["1-2", "1-2"]
    assert result.award(2).trophy == "1" and result.award(1).trophy == "2"
    first = next(n for n in result.award(2).reasons if n.kind is AwardWhy.TROPHY)
    assert (first.other, first.code) == ("A", "playoff")
    assert cash(result) == {"A": 80, "B": 80}  # cash ignores the playoff (32B2)


def test_without_a_playoff_a_reproducible_coin_flip_decides_and_is_named() -> None:
    field = [Entry("A", 4, tie=0), Entry("B", 4, tie=0)]
    one = awards(field, places("us-chess", 100, 60))
    two = awards(field, places("us-chess", 100, 60))
    assert [r.trophy for r in one.rows] == [r.trophy for r in two.rows]
    holder = next(r for r in one.rows if r.trophy == "1")
    flip = next(n for n in holder.reasons if n.kind is AwardWhy.TROPHY)
    assert flip.code == "coin" and flip.text.startswith("coin flip, seed ")


def test_prizes_nobody_takes_are_reported_not_awarded() -> None:
    extra = (
        '[[prize]]\nname = "Top unrated"\nunrated = true\namount = 20\n'
        '[[prize]]\nname = "U1000"\nunder = 1000\namount = 20\n'
    )
    field = [Entry("A", 2, 1500), Entry("B", 1, 900)]
    result = awards(field, places("us-chess", 100, extra=extra))
    by_name = {p.prize.name: p for p in result.prizes}
    assert not by_name["Top unrated"].awarded
    assert by_name["Top unrated"].reasons[0].code == "nobody-eligible"
    assert by_name["U1000"].awarded and by_name["U1000"].winners == (2,)


def test_team_cash_tied_on_team_score_is_pooled() -> None:
    field = [Entry(str(n), s) for n, s in enumerate((4, 3, 3, 2), start=1)]
    text = (
        '[[prize]]\nname = "1st team"\nplace = 1\nteam = true\namount = 100\ntrophy = true\n'
        '[[prize]]\nname = "2nd team"\nplace = 2\nteam = true\namount = 50\n'
        "[teams]\nA = [1, 4]\nB = [2, 3]\n[team]\ncount = 2\n"
    )
    result = awards(field, text)
    assert [(t.name, t.score, t.cash) for t in result.teams] == [("A", 6, 75), ("B", 6, 75)]
    assert result.teams[0].trophies == ("1st team",)
    order = next(n for n in result.teams[0].reasons if n.kind is AwardWhy.TEAM_ORDER)
    assert order.other == "B" and order.code == "CUM"

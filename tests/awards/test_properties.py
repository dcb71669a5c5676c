"""Properties of every award list, on random sections and random prize lists (US Chess
32B1–32B3, the FIDE-world methods): the cash paid never exceeds the fund, each player gets
at most one cash prize (additive specials aside), tied players with the same eligibility get
the same amount, and under ``us-chess`` nobody gets more than the largest prize he could win
alone."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.awards import AwardWhy, Kind, Method, Prize, PrizeList, compute_awards
from core.model import Tournament
from core.standings import compute_standings
from tests.strategies import tournaments

#: The reasons that say where a player's (one) cash prize came from.
SOURCES = {
    AwardWhy.POOL,
    AwardWhy.PLACE_PRIZE,
    AwardWhy.SHARED_EQUALLY,
    AwardWhy.HORT,
    AwardWhy.CATEGORY_OVER_MAIN,
}


@st.composite
def prize_lists(draw: Any, players: int, limits: bool = True) -> PrizeList:
    """A random prize list for a section of ``players`` players: place, class, under,
    unrated and category prizes with amounts in cents, some trophies, maybe a category and
    personal limits."""
    count = draw(st.integers(1, 9))
    prizes = []
    places = iter(range(1, 100))
    ranks: Counter[tuple[object, ...]] = Counter()
    for order in range(count):
        kind = draw(st.sampled_from(list(Kind)))
        amount = Fraction(draw(st.integers(1, 50_000)), draw(st.sampled_from((1, 1, 100))))
        fields: dict[str, Any] = {}
        if kind is Kind.PLACE:
            fields["place"] = next(places)
        elif kind is Kind.CLASS:
            low = draw(st.integers(0, 2600))
            fields.update(low=low, high=low + draw(st.integers(0, 400)))
        elif kind is Kind.UNDER:
            fields["high"] = draw(st.integers(200, 2800))
        elif kind is Kind.CATEGORY:
            fields["category"] = "youth"
        prize = Prize(f"prize {order}", kind, amount, draw(st.booleans()), order=order, **fields)
        ranks[prize.ladder] += 1
        if kind is not Kind.PLACE:
            prize = Prize(**{**_fields(prize), "rank": ranks[prize.ladder]})
        prizes.append(prize)
    youth = draw(st.lists(st.integers(1, players), unique=True, max_size=players))
    limited = (
        draw(
            st.dictionaries(st.integers(1, players), st.integers(0, 300).map(Fraction), max_size=2)
        )
        if limits
        else {}
    )
    method = draw(st.sampled_from(list(Method)))
    return PrizeList(tuple(prizes), method, "$", {"youth": tuple(youth)}, limited)


def _fields(prize: Prize) -> dict[str, Any]:
    return {name: getattr(prize, name) for name in Prize.__slots__}  # type: ignore[attr-defined]


def _awards(tournament: Tournament, prizes: PrizeList) -> Any:
    return compute_awards(compute_standings(tournament, "uscf"), prizes)


@st.composite
def cases(draw: Any, limits: bool = True) -> tuple[Tournament, PrizeList]:
    """A random section (few rounds, so that scores tie often) and a prize list for it."""
    tournament = draw(tournaments(min_players=2, max_players=12, max_rounds=3))
    return tournament, draw(prize_lists(len(tournament.players), limits))


@settings(max_examples=150, deadline=None)
@given(cases())
def test_cash_paid_never_exceeds_the_fund(case: tuple[Tournament, PrizeList]) -> None:
    tournament, prizes = case
    result = _awards(tournament, prizes)
    fund = sum((p.amount or Fraction(0) for p in prizes.prizes), Fraction(0))
    paid = sum((row.paid for row in result.rows), Fraction(0))
    exact = sum((row.cash for row in result.rows), Fraction(0))
    assert paid <= exact <= fund
    assert 0 <= exact - paid == result.leftover


@settings(max_examples=150, deadline=None)
@given(cases(limits=False))
def test_without_limits_pooled_money_is_all_paid_to_someone(
    case: tuple[Tournament, PrizeList],
) -> None:
    tournament, prizes = case
    result = _awards(tournament, prizes)
    awarded = sum((p.amount or 0 for p in result.prizes if p.winners), Fraction(0))
    assert sum((row.cash for row in result.rows), Fraction(0)) == awarded


@settings(max_examples=150, deadline=None)
@given(cases())
def test_each_player_has_one_cash_prize_at_most(case: tuple[Tournament, PrizeList]) -> None:
    tournament, prizes = case
    result = _awards(tournament, prizes)
    for row in result.rows:
        sources = [n for n in row.reasons if n.kind in SOURCES]
        assert len(sources) <= 1, row
        for pool in sources:
            if pool.kind is AwardWhy.POOL:  # one prize per player in the pool (32B3)
                assert len(pool.items) <= pool.count
        assert bool(row.cash) == bool(sources), row


@settings(max_examples=150, deadline=None)
@given(cases())
def test_tied_players_with_the_same_eligibility_get_the_same_amount(
    case: tuple[Tournament, PrizeList],
) -> None:
    tournament, prizes = case
    if prizes.method not in (Method.US_CHESS, Method.US_CHESS_2003, Method.FIDE_EQUAL):
        return
    result = _awards(tournament, prizes)
    youth = set(prizes.categories["youth"])
    by_kind: dict[tuple[object, ...], set[Fraction]] = {}
    for row in result.rows:
        rating = tournament.player(row.id).rating
        eligible = tuple(
            p.eligible(rating, frozenset({"youth"} if row.id in youth else ()))
            for p in prizes.prizes
        )
        key = (row.score, eligible, prizes.limits.get(row.id))
        if prizes.method is Method.FIDE_EQUAL and any(
            p.cash and p.kind is not Kind.PLACE for p in prizes.prizes
        ):
            return  # category prizes go by order, not shared
        by_kind.setdefault(key, set()).add(row.cash)
    assert all(len(amounts) == 1 for amounts in by_kind.values()), by_kind


def _capped_case() -> tuple[Tournament, PrizeList]:
    """The worked example of the cap (core/RULEBOOK.md, "Awards"): 2495 ties with three
    U2400 players, whose prizes are larger than the places left."""
    from tests.awards.support import section
    from tests.awards.test_worked_examples import CAP, FIELD, read_prizes

    return section(FIELD).tournament, read_prizes(CAP.format(method="us-chess"))


@settings(max_examples=150, deadline=None)
@given(cases(limits=False))
@example(_capped_case())
def test_under_us_chess_nobody_gets_more_than_the_largest_prize_he_could_win_alone(
    case: tuple[Tournament, PrizeList],
) -> None:
    tournament, prizes = case
    prizes = PrizeList(prizes.prizes, Method.US_CHESS, "$", prizes.categories)
    result = _awards(tournament, prizes)
    youth = set(prizes.categories.get("youth", ()))
    score = {row.id: row.score for row in result.rows}
    for row in result.rows:
        rating = tournament.player(row.id).rating
        groups = frozenset({"youth"} if row.id in youth else ())
        still_open = [  # the prizes he could win when his score group was reached
            p.amount or 0
            for p in result.prizes
            if p.prize.eligible(rating, groups) and all(score[w] <= row.score for w in p.winners)
        ]
        assert row.cash <= max(still_open, default=0)

"""Prizes as data: what a prize is, who may win it, and which of two equal prizes comes first.

A prize (US Chess Rules 32 and 33) has a name, a cash amount (none for a trophy-only award),
whether a trophy goes with it, and its kind: a **place** prize (every player eligible), a
**class** prize ``[MIN, MAX]`` (rated players with MIN ≤ rating ≤ MAX, 33A), an **under**
prize ``under X [from Y]`` (rated players below X, 33C), an **unrated** prize (players
without a rating, 33F), or a **category** prize (the players the TD lists: youth, senior,
grade, school, women…). An unrated player is eligible for place, unrated and category
prizes only (33F), and unrated means no rating: never a rating of 0.

Precedence (32B4, "priority of identical prizes") is one sort: the kind (place, then
class/under, then unrated, then category), then the upper bound, higher first (``under X``
counts as X − 1), then the lower bound, higher first, then the rank within its ladder (the
place, for place prizes), then the order announced.

>>> first = Prize("1st", Kind.PLACE, Fraction(300), place=1)
>>> u2200 = Prize("U2200", Kind.UNDER, Fraction(100), high=2200, order=3)
>>> third = Prize("3rd", Kind.PLACE, Fraction(100), place=3, order=2)
>>> sorted([u2200, third], key=Prize.precedence)[0].name  # 32B4: place before class
'3rd'
>>> u2200.eligible(2150, frozenset()), u2200.eligible(2200, frozenset()), u2200.eligible(None, frozenset())
(True, False, False)
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

__all__ = ["Kind", "Method", "Prize", "PrizeList", "ladder_name"]


class Kind(Enum):
    """What a prize is for (US Chess 32, 33): its eligibility."""

    PLACE = "place"
    CLASS = "class"
    UNDER = "under"
    UNRATED = "unrated"
    CATEGORY = "category"

    __hash__ = object.__hash__


#: The first part of precedence (32B4): place, then rating-based, then unrated, then others.
_KIND_ORDER = {Kind.PLACE: 0, Kind.CLASS: 1, Kind.UNDER: 1, Kind.UNRATED: 2, Kind.CATEGORY: 3}


class Method(Enum):
    """How cash is divided (the prize list's ``method``).

    - ``us-chess``: US Chess 32B as amended (ties pool and split, one cash prize each, the
      sub-group exception, no player above the largest prize he could win alone).
    - ``us-chess-2003``: the same without that cap (the older printed text of 32B3).
    - ``fide-none``, ``fide-equal``, ``fide-hort``: place prizes in standings order, not
      shared, shared equally by tied players, or by the Hort system.
    """

    US_CHESS = "us-chess"
    US_CHESS_2003 = "us-chess-2003"
    FIDE_NONE = "fide-none"
    FIDE_EQUAL = "fide-equal"
    FIDE_HORT = "fide-hort"

    __hash__ = object.__hash__

    @property
    def pools(self) -> bool:
        """Whether ties pool prizes by score group (the US Chess methods)."""
        return self in (Method.US_CHESS, Method.US_CHESS_2003)

    @property
    def capped(self) -> bool:
        """Whether 32B3's cap applies: nobody gets more than the largest prize he could win
        if there were no tie."""
        return self is Method.US_CHESS


@dataclass(frozen=True, slots=True)
class Prize:
    """One prize as announced.

    ``place`` is a place prize's N; ``low``/``high`` a class prize's bounds, or an under
    prize's ``from`` Y and its X (``under X`` means rating < X); ``category`` a category
    prize's name; ``rank`` the place of the prize within its ladder (1st U1800, 2nd U1800);
    ``order`` its position in the list as announced. An ``additive`` prize is awarded in
    addition to any other (outside "one prize per player"); a ``team`` prize goes to teams.
    """

    name: str
    kind: Kind
    amount: Fraction | None = None
    trophy: bool = False
    place: int | None = None
    low: int | None = None
    high: int | None = None
    category: str = ""
    rank: int = 1
    additive: bool = False
    team: bool = False
    order: int = 0

    @property
    def cash(self) -> bool:
        """Whether the prize carries money."""
        return self.amount is not None and self.amount > 0

    @property
    def step(self) -> int:
        """Its rank within its ladder: the place of a place prize, else ``rank``."""
        return self.place if self.kind is Kind.PLACE and self.place is not None else self.rank

    @property
    def upper(self) -> int:
        """The highest rating it admits (``under X``: X − 1); 0 where there is none."""
        if self.kind is Kind.UNDER and self.high is not None:
            return self.high - 1
        return self.high if self.kind is Kind.CLASS and self.high is not None else 0

    @property
    def lower(self) -> int:
        """The lowest rating it admits; −1 for an under prize without ``from``."""
        if self.kind in (Kind.CLASS, Kind.UNDER):
            return self.low if self.low is not None else -1
        return 0

    @property
    def ladder(self) -> tuple[object, ...]:
        """Prizes of one ladder share this key: the same kind and bounds (or category), team
        and additive alike; they differ by :attr:`step`."""
        return (self.kind, self.low, self.high, self.category, self.team, self.additive)

    def precedence(self) -> tuple[int, int, int, int, int]:
        """The 32B4 sort key: lower comes first between prizes of equal amount."""
        return (_KIND_ORDER[self.kind], -self.upper, -self.lower, self.step, self.order)

    def eligible(self, rating: int | None, categories: frozenset[str]) -> bool:
        """Whether a player with this prize rating (None: unrated) and these categories may
        win the prize (US Chess 33; an unrated player only place, unrated and category
        prizes, 33F)."""
        kind = self.kind
        if kind is Kind.PLACE:
            return True
        if kind is Kind.CATEGORY:
            return self.category in categories
        if kind is Kind.UNRATED:
            return rating is None
        if rating is None:
            return False
        if kind is Kind.CLASS:
            return (self.low or 0) <= rating <= (self.high if self.high is not None else rating)
        return rating < (self.high or 0) and (self.low is None or rating >= self.low)


def ladder_name(prize: Prize) -> str:
    """What a prize's ladder is, in words: ``place``, ``class 1800–1999``, ``under 2000``,
    ``under 2000 from 1800``, ``unrated``, ``category youth``.

    >>> ladder_name(Prize("1st U1800", Kind.UNDER, high=1800, low=1500))
    'under 1800 from 1500'
    """
    if prize.kind is Kind.CLASS:
        return f"class {prize.low}–{prize.high}"
    if prize.kind is Kind.UNDER:
        return f"under {prize.high}" + (f" from {prize.low}" if prize.low is not None else "")
    if prize.kind is Kind.CATEGORY:
        return f"category {prize.category}"
    return str(prize.kind.value)


@dataclass(frozen=True, slots=True)
class PrizeList:
    """A section's prizes in the order announced, and what they depend on.

    ``categories`` lists the starting numbers of each category's players; ``limits`` each
    player's personal cash limit (0: not prize-eligible); ``teams`` each team's starting
    numbers and ``team_count`` how many of a team's players count (N); ``playoff`` the
    starting numbers in the order a playoff or lot put players who are equal on score and
    every tiebreak (``team_playoff`` the same for teams); ``trophy_follows_money`` gives a
    cash prize's trophy to the winner of its cash. ``lines`` says where each key was read
    (``"prize.2.amount"`` → line), for located problems.
    """

    prizes: tuple[Prize, ...] = ()
    method: Method = Method.US_CHESS
    currency: str = ""
    categories: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    limits: Mapping[int, Fraction] = field(default_factory=dict)
    teams: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    team_count: int = 4
    playoff: tuple[int, ...] = ()
    team_playoff: tuple[str, ...] = ()
    trophy_follows_money: bool = False
    path: str | None = None
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)

    def category_index(self) -> dict[int, frozenset[str]]:
        """Each listed player's categories, by starting number.

        >>> index = PrizeList(categories={"youth": (4, 9), "senior": (9,)}).category_index()
        >>> sorted(index[9]), sorted(index[4])
        (['senior', 'youth'], ['youth'])
        """
        index: dict[int, set[str]] = {}
        for name, ids in self.categories.items():
            for player_id in ids:
                index.setdefault(player_id, set()).add(name)
        return {player_id: frozenset(names) for player_id, names in index.items()}

    def line(self, *keys: str) -> int | None:
        """The line the first of ``keys`` that was read is on (``"prize.2.amount"``,
        ``"prize.2"``, ``"limits"``), else None."""
        return next((self.lines[k] for k in keys if k in self.lines), None)

"""FIDE's rating-based tiebreaks (C.07 art. 10) and the FIDE rating tables they use
(Handbook B.02, 8.1: the ``dp`` of a percentage score, the ``PD`` of a rating difference).

Only games played over the board count: forfeits are left out in round robins too (15.2),
and a Swiss's unplayed rounds have no rating (16). C.07 defines these values as whole numbers
(averages rounded half up), so they are kept as exact integers.

**Unrated players (art. 10).** A rating-based tiebreak needs a rating for every opponent.
When a player without a rating played a game over the board, the tournament would have to
assign them one; Harkness has no such setting yet, so the rating-based tiebreaks are
undefined (``None``, shown as such, never 0) for everyone, and the next tiebreak decides.

>>> dp(75), dp(25), dp(100), pd(0), pd(240), pd(-240), pd(800)
(193, -193, 800, 50, 80, 20, 100)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from fractions import Fraction
from math import floor

from core.numbers import half_points
from core.tiebreaks.base import Breakdown, Column, Section

#: B.02 8.1.a: ``dp`` for a percentage score p = 0.50, 0.51, …, 1.00 (p < 0.50 mirrors it).
_DP = (
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
    800,
)
#: B.02 8.1.b: the largest rating difference D of each band; PD is 0.50, 0.51, …, 0.99 for
#: the bands in order and 1.00 beyond 735 (the lower-rated side has 1 − PD).
_PD_BANDS = (
    3,
    10,
    17,
    25,
    32,
    39,
    46,
    53,
    61,
    68,
    76,
    83,
    91,
    98,
    106,
    113,
    121,
    129,
    137,
    145,
    153,
    162,
    170,
    179,
    188,
    197,
    206,
    215,
    225,
    235,
    245,
    256,
    267,
    278,
    290,
    302,
    315,
    328,
    344,
    357,
    374,
    391,
    411,
    432,
    456,
    484,
    517,
    559,
    619,
    735,
)
#: C.07 10.3: a zero score's performance is the lowest opponent's rating − 800. (A perfect
#: score needs no such rule: B.02's table reaches 1.00 at a difference of 736.)
_EDGE = 800


def dp(hundredths: int) -> int:
    """B.02's rating difference ``dp`` for a percentage score given in hundredths (0–100)."""
    if hundredths >= 50:
        return _DP[hundredths - 50]
    return -_DP[50 - hundredths]


def pd(difference: int) -> int:
    """B.02's expected score, in hundredths, of a player rated ``difference`` points above
    their opponent (negative: below)."""
    if difference < 0:
        return 100 - pd(-difference)
    band = bisect_left(_PD_BANDS, difference)
    return 100 if band == len(_PD_BANDS) else 50 + band


def round_half_up(value: Fraction) -> int:
    """A value rounded to a whole number, halves up (C.07's averages).

    >>> round_half_up(Fraction(7550, 4)), round_half_up(Fraction(-3, 2))
    (1888, -1)
    """
    return floor(value + Fraction(1, 2))


def unrated_note(section: Section) -> str:
    """Why rating-based tiebreaks are undefined in this section (art. 10), or ""."""
    unrated = [
        p.id
        for p, kinds in zip(section.tournament.players, section.kinds, strict=True)
        if p.rating is None and any(k.played for k in kinds)
    ]
    if not unrated:
        return ""
    return (
        f"undefined: player{'s' if len(unrated) > 1 else ''} "
        f"{', '.join(str(u) for u in unrated)} played without a rating and none is "
        "assigned to unrated players (C.07 art. 10)"
    )


def _rated_games(section: Section, i: int) -> tuple[int | None, ...]:
    """The rating of the opponent of each game played over the board, None otherwise."""
    players = section.tournament.players
    return tuple(players[o].rating if o >= 0 else None for o in section.opponents[i])


def _undefined(section: Section, code: str, why: str) -> Column:
    return Column(code, 1, tuple(Breakdown(None, note=why) for _ in section.scores))


def _average_rating(section: Section, code: str, cut_lowest: bool) -> Column:
    why = section.memo(unrated_note)
    if why:
        return _undefined(section, code, why)
    breakdowns = []
    for i in range(len(section.scores)):
        ratings = _rated_games(section, i)
        live = [r for r, rating in enumerate(ratings) if rating is not None]
        dropped: tuple[int, ...] = ()
        if cut_lowest and live:
            lowest = min(live, key=lambda r: (ratings[r], r))
            live.remove(lowest)
            dropped = (lowest + 1,)
        if not live:
            breakdowns.append(
                Breakdown(
                    None, ratings, dropped, 0, "no game played over the board (left): undefined"
                )
            )
            continue
        total = sum(int(ratings[r] or 0) for r in live)
        value = round_half_up(Fraction(total, len(live)))
        note = f"{total} / {len(live)} rounded to a whole number (C.07 10.1" + (
            ", Cut-1 14.1: the lowest rating is cut)" if cut_lowest else ")"
        )
        breakdowns.append(Breakdown(value, ratings, dropped, 0, note))
    return Column(code, 1, tuple(breakdowns))


def average_rating_of_opponents(section: Section) -> Column:
    """``ARO`` Average rating of opponents (C.07 10.1): of the games played over the board,
    rounded to a whole number (halves up).

    Exercise 17, player 4 (12: 1650, 13: 1600, 3: 2100, 1: 2200): 7550 / 4 = 1887½ → 1888.
    """
    return _average_rating(section, "ARO", cut_lowest=False)


def average_rating_of_opponents_cut1(section: Section) -> Column:
    """``ARO/C1`` ARO Cut-1 (C.07 10.1, 14.1): without the lowest-rated opponent; undefined
    when nothing is left. Exercise 18, player 9 (1: 2200, 10: 1750): 2200."""
    return _average_rating(section, "ARO/C1", cut_lowest=True)


def _score_in_games(section: Section, i: int) -> int:
    return sum(
        k.half_points for k, o in zip(section.kinds[i], section.opponents[i], strict=True) if o >= 0
    )


def _tpr_one(section: Section, i: int, aro: int | None) -> Breakdown:
    ratings = _rated_games(section, i)
    games = sum(1 for r in ratings if r is not None)
    if aro is None or not games:
        return Breakdown(None, ratings, (), 0, "no game played over the board: undefined")
    score = _score_in_games(section, i)
    hundredths = round_half_up(Fraction(100 * score, 2 * games))
    value = aro + dp(hundredths)
    return Breakdown(
        value,
        ratings,
        (),
        0,
        f"ARO {aro} {dp(hundredths):+d}, the dp of {half_points(score)} of "
        f"{games} ({hundredths}%) (C.07 10.2, B.02 8.1.a)",
    )


def tournament_performance_rating(section: Section) -> Column:
    """``TPR`` Tournament performance rating (C.07 10.2): ARO plus B.02's ``dp`` of the
    percentage scored in the games played over the board (rounded to hundredths).

    Exercise 20, player 4: ARO 1888 + dp(0.75) = 1888 + 193 = 2081.
    """
    why = section.memo(unrated_note)
    if why:
        return _undefined(section, "TPR", why)
    aro = [b.units for b in section.memo(average_rating_of_opponents).breakdowns]
    return Column(
        "TPR",
        1,
        tuple(_tpr_one(section, i, None if a is None else int(a)) for i, a in enumerate(aro)),
    )


def perfect_performance(ratings: list[int], score: int) -> int:
    """The lowest rating whose expected score (B.02 8.1.b, without the 400-point rule)
    against ``ratings`` reaches the score (in half-points; C.07 10.3). Only a zero score is
    a special case: the lowest rating − 800. A perfect score follows the definition: every
    expected score must be 1.00, which B.02 gives from a difference of 736, so it is the
    highest rating + 736.

    >>> perfect_performance([1700, 1950, 1850, 2050, 2150], 7)
    2112
    >>> perfect_performance([1700, 1950], 4), perfect_performance([1700, 1950], 0)
    (2686, 900)
    """
    if score <= 0:
        return min(ratings) - _EDGE
    target = 50 * score  # the score in hundredths

    def reaches(rating: int) -> bool:
        return sum(pd(rating - r) for r in ratings) >= target

    low, high = min(ratings) - _EDGE, max(ratings) + _EDGE  # reaches(high) holds
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    return high


def perfect_tournament_performance(section: Section) -> Column:
    """``PTP`` Perfect tournament performance (C.07 10.3): the lowest rating that would have
    expected (B.02 8.1.b) at least the score made in the games played over the board.

    Exercise 22, player 3 (3½ of 5 against 1700, 1950, 1850, 2050, 2150): 2112.
    """
    why = section.memo(unrated_note)
    if why:
        return _undefined(section, "PTP", why)
    breakdowns = []
    for i in range(len(section.scores)):
        ratings = _rated_games(section, i)
        rated = [r for r in ratings if r is not None]
        if not rated:
            breakdowns.append(
                Breakdown(None, ratings, (), 0, "no game played over the board: undefined")
            )
            continue
        score = _score_in_games(section, i)
        breakdowns.append(
            Breakdown(
                perfect_performance(rated, score),
                ratings,
                (),
                0,
                f"the lowest rating expecting {half_points(score)} of "
                f"{len(rated)} (C.07 10.3, B.02 8.1.b)",
            )
        )
    return Column("PTP", 1, tuple(breakdowns))


def _average_of_opponents(
    section: Section, code: str, of: Callable[[Section], Column], name: str, article: str
) -> Column:
    why = section.memo(unrated_note)
    if why:
        return _undefined(section, code, why)
    values = [b.units for b in section.memo(of).breakdowns]
    breakdowns = []
    for opponents in section.opponents:
        per_round = tuple(values[o] if o >= 0 else None for o in opponents)
        known = [int(v) for v in per_round if v is not None]
        if not known:
            breakdowns.append(
                Breakdown(None, per_round, (), 0, "no game played over the board: undefined")
            )
            continue
        value = round_half_up(Fraction(sum(known), len(known)))
        breakdowns.append(
            Breakdown(
                value,
                per_round,
                (),
                0,
                f"average of the {name} of {len(known)} opponent"
                f"{'s' if len(known) > 1 else ''}, rounded to a whole "
                f"number ({article})",
            )
        )
    return Column(code, 1, tuple(breakdowns))


def average_performance_of_opponents(section: Section) -> Column:
    """``APRO`` Average of the opponents' TPR (C.07 10.4), over the games played.

    Exercise 21, player 4 (opponents' TPR 1250, 1781, 2089, 1969): 7089 / 4 → 1772.
    """
    return _average_of_opponents(section, "APRO", tournament_performance_rating, "TPR", "C.07 10.4")


def average_perfect_performance_of_opponents(section: Section) -> Column:
    """``APPO`` Average of the opponents' PTP (C.07 10.5), over the games played."""
    return _average_of_opponents(
        section, "APPO", perfect_tournament_performance, "PTP", "C.07 10.5"
    )

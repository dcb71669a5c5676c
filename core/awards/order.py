"""Who comes first for an award: the standings, then a recorded playoff or lot.

US Chess Rule 34 has tiebreaks decide trophies, titles and places (never cash, 32B2): the
award order is the standings order (score, the unplayed-points check where the profile has
it, the section's tiebreaks in order), and players equal on all of those (a shared place)
are ordered by the TD's recorded playoff or lot (the prize list's ``playoff``: starting
numbers in the order it decided), else by Harkness's reproducible coin flip (``COIN``: the
same tournament always flips the same way, and the flip is named wherever it decides).

:func:`player_order` also says what put one entrant ahead of another: a score, a tiebreak with the
two values, the playoff or the coin, for the reasons of a trophy or a team's rank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.awards.reasons import AwardNote, AwardWhy
from core.standings import SCORE, UNPLAYED, Standing, Standings
from core.tiebreaks.uscf import coin_flip

__all__ = ["Entrant", "Separated", "Separation", "compared", "player_order"]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player (or a team) as the awards see it: ``key`` (a starting number, or a team's
    number), ``position`` in the award order (0-based), the standings' ``place`` (``3-4``
    shared), the prize rating (None: unrated), categories, and the personal cash limit
    (None: none)."""

    key: int
    name: str
    score: Fraction
    position: int
    place: str
    rating: int | None = None
    categories: frozenset[str] = frozenset()
    limit: Fraction | None = None


@dataclass(frozen=True, slots=True)
class Separation:
    """What put ``above`` ahead of ``below``: ``code`` is ``score``, ``unplayed``, a tiebreak
    code, ``playoff`` or ``coin``; ``ours``/``theirs`` the values of each (``above``
    first); ``text`` a coin flip's draws."""

    code: str
    above: Fraction | None = None
    below: Fraction | None = None
    text: str = ""


def compared(
    kind: AwardWhy, why: Separation, *, seen_from_below: bool = False, **values: object
) -> AwardNote:
    """A reason of ``kind`` that says what separated two entrants: ``ours`` is the value of
    the one the reason is for (the one above, unless ``seen_from_below``), ``theirs`` the
    other's.

    >>> compared(AwardWhy.TROPHY, Separation("score", Fraction(4), Fraction(3)), prize="1st").ours
    Fraction(4, 1)
    """
    ours, theirs = (why.below, why.above) if seen_from_below else (why.above, why.below)
    return AwardNote(kind, code=why.code, ours=ours, theirs=theirs, text=why.text, **values)  # type: ignore[arg-type]


#: What put the first of two entrants ahead of the second.
Separated = Callable[[Entrant, Entrant], Separation]


def player_order(
    standings: Standings,
    playoff: Sequence[int] = (),
    categories: Mapping[int, frozenset[str]] | None = None,
    limits: Mapping[int, Fraction] | None = None,
) -> tuple[list[Entrant], Separated]:
    """The section's players in award order, and how any two of them were separated.

    >>> from core.examples import load_example
    >>> from core.standings import compute_standings
    >>> order, why = player_order(compute_standings(load_example(), "mdchess"))
    >>> [e.name for e in order[:3]], why(order[1], order[2])
    (['Player A', 'Player B', 'Player C'], Separation(code='MM', above=Fraction(8, 1), below=Fraction(13, 2), text=''))
    """  # noqa: E501
    categories = categories or {}
    limits = limits or {}
    rows = list(standings.rows)
    draws: list[int] | None = None
    notes: list[str] = []
    if any(rows[n].place == rows[n - 1].place for n in range(1, len(rows))):
        coin = coin_flip(standings.section)
        draws = [int(b.units or 0) for b in coin.breakdowns]
        notes = [b.note for b in coin.breakdowns]
    seat = {player_id: n for n, player_id in enumerate(playoff)}
    unlisted = len(seat)

    def lot(row: Standing) -> tuple[int, int, int]:
        coin = -draws[row.player_index] if draws is not None else 0
        return (seat.get(row.player.id, unlisted), coin, row.player.id)

    ordered: list[Standing] = []
    start = 0
    for n in range(1, len(rows) + 1):
        if n == len(rows) or rows[n].place != rows[start].place:
            ordered += sorted(rows[start:n], key=lot) if n - start > 1 else rows[start:n]
            start = n
    entrants = [
        Entrant(
            row.player.id,
            row.player.name,
            row.score,
            position,
            row.place,
            row.player.rating,
            categories.get(row.player.id, frozenset()),
            limits.get(row.player.id),
        )
        for position, row in enumerate(ordered)
    ]
    criteria = [SCORE, UNPLAYED, *standings.order]
    rank = {code: n for n, code in enumerate(criteria)}

    def separated(above: Entrant, below: Entrant) -> Separation:
        if above.score != below.score:
            return Separation(SCORE, above.score, below.score)
        a, b = standings.row_of(above.key), standings.row_of(below.key)
        if a.place == b.place:
            if above.key in seat or below.key in seat:
                return Separation("playoff")
            assert draws is not None
            text = f"{notes[a.player_index]} against {draws[b.player_index]}"
            return Separation(
                "coin", Fraction(draws[a.player_index]), Fraction(draws[b.player_index]), text
            )
        low, high = sorted((standings.line_of(above.key), standings.line_of(below.key)))
        codes = [rows[k].separated_by for k in range(low + 1, high + 1)]
        code = min((c for c in codes if c is not None), key=rank.__getitem__)
        if code == UNPLAYED:
            return Separation(UNPLAYED)
        return Separation(
            code,
            standings.value(code, a.player_index),
            standings.value(code, b.player_index),
        )

    return entrants, separated

"""Cash in the FIDE world: ``fide-none``, ``fide-equal`` and ``fide-hort``.

Place prizes go in standings order (the main prizes). ``fide-none``: each place's prize to
the player in that place (players equal on score and every tiebreak share the prizes of the
places they occupy). ``fide-equal``: players tied on points share the prizes of the places
they occupy equally. ``fide-hort`` (the Hort system, after GM Vlastimil Hort): each tied
player keeps half of his own place's prize; the other halves are pooled and shared equally.

Category prizes (rating, unrated, youth, women…) go by order within the category and are
not shared. Each player takes one prize, the most valuable: a category prize when it is
worth more than his share of the main prizes; a player who takes a category prize leaves
the main prizes to those below, and the assignment is repeated until nothing changes.

>>> from core.awards.model import Kind, Method, Prize
>>> prizes = [Prize(f"{n}", Kind.PLACE, Fraction(a), place=n) for n, a in
...           zip(range(1, 7), (100, 80, 60, 40, 20, 10))]
>>> scores = (8, 8, Fraction(15, 2), 7, 7, 7)
>>> order = [Entrant(n, "ABCDEF"[n], Fraction(s), n, str(n + 1)) for n, s in enumerate(scores)]
>>> d = divide_fide(order, prizes, range(6), Method.FIDE_HORT)
>>> [d.amounts[n] for n in range(6)]
[Fraction(95, 1), Fraction(85, 1), Fraction(60, 1), Fraction(95, 3), Fraction(65, 3), Fraction(50, 3)]
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from itertools import groupby

from core.awards.division import Division, Shared
from core.awards.model import Kind, Method, Prize
from core.awards.order import Entrant
from core.awards.reasons import AwardNote, AwardWhy, Item

__all__ = ["by_order", "divide_fide"]


@dataclass(frozen=True, slots=True)
class _Share:
    """An entrant's share of the main prizes: the amount, the prizes it comes from, the
    entrants it is shared with, and its reason."""

    amount: Fraction
    prizes: tuple[int, ...]
    keys: tuple[int, ...]
    note: AwardNote


def divide_fide(
    order: Sequence[Entrant], prizes: list[Prize], indices: Sequence[int], method: Method
) -> Division:
    """Divide the cash prizes ``indices`` among ``order`` (award order) by ``method``."""
    places: dict[int, int] = {}
    for i in indices:
        place = prizes[i].place
        if prizes[i].kind is Kind.PLACE and place is not None and prizes[i].cash:
            places[place] = i
    ladders: dict[tuple[object, ...], list[int]] = {}
    for i in indices:
        if prizes[i].kind is not Kind.PLACE and prizes[i].cash:
            ladders.setdefault(prizes[i].ladder, []).append(i)
    for ladder in ladders.values():
        ladder.sort(key=lambda i: (prizes[i].step, prizes[i].order))

    def shares_without(excluded: frozenset[int]) -> dict[int, _Share]:
        return _main_shares((e for e in order if e.key not in excluded), places, prizes, method)

    excluded: frozenset[int] = frozenset()
    for _ in range(len(order) + 2):  # the assignment is repeated until nothing changes
        shares = shares_without(excluded)
        share_of = partial(_share_if_in, excluded=excluded, shares=shares, again=shares_without)
        taken, passed = _categories(order, ladders, prizes, share_of)
        if frozenset(taken) == excluded:
            break
        excluded = frozenset(taken)
    shares = shares_without(excluded)
    division = Division(prizes)
    given: set[tuple[int, ...]] = set()
    for e in order:
        if e.key in taken:
            i, note = taken[e.key]
            _pay(division, e, prizes[i].amount or Fraction(0), [i], note)
            division.shared.append(Shared((i,), (e.key,)))
        elif e.key in shares:
            share = shares[e.key]
            _pay(division, e, share.amount, list(share.prizes), share.note)
            if share.keys not in given:
                given.add(share.keys)
                division.shared.append(Shared(share.prizes, share.keys))
        if e.key in passed and e.key in shares:
            i, main = passed[e.key]
            division.note(
                e.key,
                AwardNote(
                    AwardWhy.MAIN_OVER_CATEGORY,
                    prize=prizes[i].name,
                    amount=main,
                    other_amount=prizes[i].amount,
                ),
            )
    for i in indices:
        division.paid_out[i] = prizes[i].amount or Fraction(0)
    return division


def _share_if_in(
    e: Entrant,
    excluded: frozenset[int],
    shares: dict[int, _Share],
    again: Callable[[frozenset[int]], dict[int, _Share]],
) -> _Share | None:
    """The entrant's share of the main prizes if he stays in them."""
    if e.key in excluded:
        return again(excluded - {e.key}).get(e.key)
    return shares.get(e.key)


def _pay(division: Division, e: Entrant, amount: Fraction, won: list[int], note: AwardNote) -> None:
    """Pay ``amount`` (at most the personal limit: the rest is not paid)."""
    division.note(e.key, note)
    if e.limit is not None and e.limit < amount:
        division.note(e.key, AwardNote(AwardWhy.UNPAID, amount=e.limit, other_amount=amount))
        division.unpaid += amount - e.limit
        amount = e.limit
    division.give(e.key, amount, won)


def _main_shares(
    main: Iterable[Entrant], places: dict[int, int], prizes: list[Prize], method: Method
) -> dict[int, _Share]:
    """Each entrant's share of the place prizes, the main list in award order (read only as
    far as the last place with a prize)."""
    shares: dict[int, _Share] = {}
    position = 0
    last = max(places, default=0)
    # fide-none: only players equal on every tiebreak share; else players tied on points.
    tied: Callable[[Entrant], object] = (
        (lambda e: e.place) if method is Method.FIDE_NONE else (lambda e: e.score)
    )
    for _, members in groupby(main, key=tied):
        if position >= last:
            break
        group = list(members)
        first = position
        position += len(group)
        own = [places.get(first + n + 1) for n in range(len(group))]
        amounts = [prizes[i].amount or Fraction(0) if i is not None else Fraction(0) for i in own]
        won = tuple(i for i in own if i is not None)
        total = sum(amounts, Fraction(0))
        if not total:
            continue
        keys = tuple(e.key for e in group)
        names = tuple(e.name for e in group)
        where = f"{first + 1}" if len(group) == 1 else f"{first + 1}-{position}"
        if len(group) == 1:
            i = own[0]
            assert i is not None
            note = AwardNote(AwardWhy.PLACE_PRIZE, prize=prizes[i].name, amount=total, place=where)
            shares[group[0].key] = _Share(total, won, keys, note)
            continue
        items = tuple(Item(prizes[i].name, prizes[i].amount) for i in won)
        if method is Method.FIDE_HORT:
            halves = total / 2
            for e, i, amount in zip(group, own, amounts, strict=True):
                note = AwardNote(
                    AwardWhy.HORT,
                    players=names,
                    prize=prizes[i].name if i is not None else "",
                    items=items,
                    amount=amount,
                    other_amount=amount / 2,
                    total=halves,
                    count=len(group),
                    place=where,
                    score=e.score,
                )
                shares[e.key] = _Share(amount / 2 + halves / len(group), won, keys, note)
            continue
        note = AwardNote(
            AwardWhy.SHARED_EQUALLY,
            players=names,
            items=items,
            total=total,
            count=len(group),
            place=where,
            score=group[0].score,
        )
        for e in group:
            shares[e.key] = _Share(total / len(group), won, keys, note)
    return shares


def _categories(
    order: Sequence[Entrant],
    ladders: dict[tuple[object, ...], list[int]],
    prizes: list[Prize],
    share_of: Callable[[Entrant], _Share | None],
) -> tuple[dict[int, tuple[int, AwardNote]], dict[int, tuple[int, Fraction]]]:
    """Walking down the standings, each ladder's next prize goes to the first player
    eligible for it who has nothing better: the most valuable of the prizes offered to him,
    if it is worth more than his share of the main prizes. Also returns, for each player
    who kept his main share, the best category prize he left (and his share)."""
    following = dict.fromkeys(ladders, 0)
    taken: dict[int, tuple[int, AwardNote]] = {}
    passed: dict[int, tuple[int, Fraction]] = {}
    for e in order:
        offered = [
            (ladder, ladder_prizes[following[ladder]])
            for ladder, ladder_prizes in ladders.items()
            if following[ladder] < len(ladder_prizes)
            and prizes[ladder_prizes[following[ladder]]].eligible(e.rating, e.categories)
        ]
        if not offered:
            continue
        ladder, best = min(
            offered, key=lambda o: (-(prizes[o[1]].amount or 0), prizes[o[1]].precedence())
        )
        share = share_of(e)
        main = share.amount if share is not None else Fraction(0)
        value = prizes[best].amount or Fraction(0)
        if value > main:
            following[ladder] += 1
            note = AwardNote(
                AwardWhy.CATEGORY_OVER_MAIN,
                prize=prizes[best].name,
                amount=value,
                other_amount=main if share is not None else None,
            )
            taken[e.key] = (best, note)
        elif share is not None:
            passed[e.key] = (best, main)
    return taken, passed


def by_order(order: Sequence[Entrant], prizes: list[Prize], indices: Sequence[int]) -> Division:
    """A ladder's prizes by order, not shared: its first prize to the first eligible entrant
    in award order, the next to the next (an additive special under a FIDE-world method)."""
    division = Division(prizes)
    ladder = sorted(indices, key=lambda i: (prizes[i].step, prizes[i].order))
    eligible = (
        (e for e in order if prizes[ladder[0]].eligible(e.rating, e.categories))
        if ladder
        else iter(())
    )
    for i, e in zip(ladder, eligible, strict=False):
        amount = prizes[i].amount or Fraction(0)
        note = AwardNote(
            AwardWhy.ADDITIVE,
            prize=prizes[i].name,
            amount=amount,
            players=(e.name,),
            count=1,
            score=e.score,
        )
        _pay(division, e, amount, [i], note)
        division.shared.append(Shared((i,), (e.key,)))
    for i in indices:
        division.paid_out[i] = prizes[i].amount or Fraction(0)
    return division

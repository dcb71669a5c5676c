"""Trophies: by standings order, one per player unless a trophy is additive.

US Chess Rule 34 has tiebreaks decide trophies (never cash, 32B2): walking down the award
order (score, the section's tiebreaks, then the recorded playoff or lot:
:mod:`core.awards.order`), each player takes the highest-precedence trophy still open that
he is eligible for (32B4's precedence: place, then class, then unrated, then others). A
trophy marked ``additive`` goes, within its own ladder, to the first eligible players in
that order whatever else they hold. Trophies and cash are independent: a player may share
the cash of 3rd and hold the 3rd-place trophy alone. With "trophy follows the money", a
cash prize's trophy goes to the winner of its cash, to the best-placed sharer when it was
shared (the pooled prizes' trophies, by precedence, each to the best-placed sharer eligible
for it who holds none yet; a trophy no sharer may take goes by standings order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.awards.division import Shared
from core.awards.model import Prize
from core.awards.order import Entrant, Separated, compared
from core.awards.reasons import AwardNote, AwardWhy, Item

__all__ = ["Trophies", "give_trophies"]


@dataclass(slots=True)
class Trophies:
    """Who holds which trophy (prize indices), and why."""

    held: dict[int, list[int]] = field(default_factory=dict)
    holder: dict[int, int] = field(default_factory=dict)
    notes: dict[int, list[AwardNote]] = field(default_factory=dict)

    def give(self, key: int, prize: int, note: AwardNote) -> None:
        self.held.setdefault(key, []).append(prize)
        self.holder[prize] = key
        self.notes.setdefault(key, []).append(note)


def give_trophies(
    order: Sequence[Entrant],
    prizes: Sequence[Prize],
    indices: Sequence[int],
    decided: Separated,
    money: Sequence[Shared] | None = None,
) -> Trophies:
    """The trophies of prizes ``indices`` given to ``order`` (award order); ``money``: the
    cash division's shares, when the trophy follows the money."""
    trophies = Trophies()
    single = [i for i in indices if prizes[i].trophy and not prizes[i].additive]
    by_key = {e.key: e for e in order}

    def precedence(i: int) -> tuple[int, ...]:
        return prizes[i].precedence()

    if money is not None:
        for shared in money:
            open_ = sorted(
                (i for i in shared.prizes if i in single and i not in trophies.holder),
                key=precedence,
            )
            names = tuple(by_key[k].name for k in shared.keys if k in by_key)
            for i in open_:
                taker = next(
                    (
                        k
                        for k in shared.keys
                        if k in by_key
                        and k not in trophies.held
                        and prizes[i].eligible(by_key[k].rating, by_key[k].categories)
                    ),
                    None,
                )
                if taker is not None:
                    note = AwardNote(
                        AwardWhy.TROPHY_FOLLOWS_MONEY, prize=prizes[i].name, players=names
                    )
                    trophies.give(taker, i, note)
    still = [i for i in single if i not in trophies.holder]
    for n, e in enumerate(order):
        if e.key in trophies.held:
            continue
        options = [i for i in still if prizes[i].eligible(e.rating, e.categories)]
        if options:
            i = min(options, key=precedence)
            still.remove(i)
            trophies.give(e.key, i, _won(order, n, i, prizes, decided, trophies, single))
    ladders: dict[tuple[object, ...], list[int]] = {}
    for i in indices:
        if prizes[i].trophy and prizes[i].additive:
            ladders.setdefault(prizes[i].ladder, []).append(i)
    for ladder in ladders.values():
        ladder.sort(key=lambda i: (prizes[i].step, prizes[i].order))
        eligible = [
            n for n, e in enumerate(order) if prizes[ladder[0]].eligible(e.rating, e.categories)
        ]
        left_out = order[eligible[len(ladder)]] if len(eligible) > len(ladder) else None
        for i, n in zip(ladder, eligible, strict=False):
            trophies.give(order[n].key, i, _note(prizes[i], order[n], left_out, decided))
    _why_not(order, prizes, single, decided, trophies)
    return trophies


def _won(
    order: Sequence[Entrant],
    n: int,
    i: int,
    prizes: Sequence[Prize],
    decided: Separated,
    trophies: Trophies,
    single: Sequence[int],
) -> AwardNote:
    """The trophy ``i`` taken by ``order[n]``: against the next player who could have taken
    it (eligible, and holding no trophy that comes before it)."""
    prize = prizes[i]
    for e in order[n + 1 :]:
        if not prize.eligible(e.rating, e.categories):
            continue
        ahead = [j for j in trophies.held.get(e.key, []) if j in single]
        if any(prizes[j].precedence() < prize.precedence() for j in ahead):
            continue
        return _note(prize, order[n], e, decided)
    return _note(prize, order[n], None, decided)


def _note(prize: Prize, holder: Entrant, below: Entrant | None, decided: Separated) -> AwardNote:
    if below is None:
        return AwardNote(AwardWhy.TROPHY, prize=prize.name)
    return compared(AwardWhy.TROPHY, decided(holder, below), prize=prize.name, other=below.name)


def _why_not(
    order: Sequence[Entrant],
    prizes: Sequence[Prize],
    single: Sequence[int],
    decided: Separated,
    trophies: Trophies,
) -> None:
    """A player without a trophy hears about the nearest one above him he could have had; a
    player with one, about those he could also have had that went below (one each)."""
    position = {e.key: n for n, e in enumerate(order)}
    for n, e in enumerate(order):
        held = [j for j in trophies.held.get(e.key, []) if j in single]
        could = [
            i for i in single if i in trophies.holder and prizes[i].eligible(e.rating, e.categories)
        ]
        if not held:
            above = [i for i in could if position[trophies.holder[i]] < n]
            if not above:
                continue
            i = max(above, key=lambda i: position[trophies.holder[i]])
            holder = order[position[trophies.holder[i]]]
            note = compared(
                AwardWhy.TROPHY_TAKEN,
                decided(holder, e),
                seen_from_below=True,
                prize=prizes[i].name,
                other=holder.name,
            )
            trophies.notes.setdefault(e.key, []).append(note)
            continue
        below = [i for i in could if position[trophies.holder[i]] > n]
        if below:
            items = tuple(
                Item(prizes[i].name, players=(order[position[trophies.holder[i]]].name,))
                for i in sorted(below, key=lambda i: prizes[i].precedence())
            )
            trophies.notes.setdefault(e.key, []).append(
                AwardNote(AwardWhy.ONE_TROPHY, prize=prizes[held[0]].name, items=items)
            )

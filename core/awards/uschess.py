"""Cash under US Chess Rule 32B: methods ``us-chess`` and ``us-chess-2003``.

Score groups are taken from the top (32B2: ties share; tiebreaks never decide cash). For
each group:

1. its candidates are the players eligible for at least one prize still open;
2. the pool: at most one open prize per candidate, the largest total, and among equal totals
   the set precedence prefers (32B1, 32B3, 32B4; :func:`core.awards.pool.best_pool`);
3. a sub-group that would do better alone takes the prizes only it can win, and the rest
   pool what is left (32B3 "unless"; :func:`core.awards.pool.divide`);
4. ``us-chess`` only: no candidate gets more than the largest single open prize he could win
   if there were no tie (32B3 as amended), nor, under both methods, more than his personal
   limit; each pool is split equally, a candidate whose cap is below the share gets his cap
   and the others split the rest;
5. money no candidate of the group may take (every one at his cap) moves down the place
   ladder: each open place prize, from the top, is raised at most to the original amount of
   the place prize above it; a new last place prize takes what remains;
6. the pooled prizes are closed and the next group follows.

``us-chess-2003`` is the older printed text of 32B3, without step 4's cap (what SwissSys 8
computes). Amounts are exact fractions of the currency.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import groupby, pairwise

from core.awards.division import Division, Shared
from core.awards.model import Kind, Prize
from core.awards.order import Entrant
from core.awards.pool import Key, Part, SubGroup, Type, divide, passed_over
from core.awards.reasons import AwardNote, AwardWhy, Item

__all__ = ["divide_us_chess"]


def divide_us_chess(
    order: Sequence[Entrant], prizes: list[Prize], indices: Sequence[int], capped: bool
) -> Division:
    """Divide the cash prizes ``indices`` of ``prizes`` among ``order`` (the entrants who may
    win prizes, in award order); ``capped``: step 4's largest-prize cap (``us-chess``)."""
    division = Division(prizes)
    amount = {i: prizes[i].amount or Fraction(0) for i in indices}
    open_ = {i for i in indices if amount[i] > 0}
    raised: dict[int, tuple[Fraction, Fraction]] = {}  # prize → (original, group's score)

    def key(i: int) -> tuple[object, ...]:
        return (-amount[i], prizes[i].precedence())

    for score, members in groupby(order, key=lambda e: e.score):
        group = list(members)
        eligible = {
            e.key: frozenset(i for i in open_ if prizes[i].eligible(e.rating, e.categories))
            for e in group
        }
        candidates = [e for e in group if eligible[e.key]]
        if not candidates:
            continue
        caps = {e.key: _cap(e, eligible[e.key], amount, prizes, capped) for e in candidates}
        kinds: dict[frozenset[int], list[Entrant]] = {}
        for e in candidates:
            kinds.setdefault(eligible[e.key], []).append(e)
        types: list[Type] = list(kinds.items())
        parts = divide(types, open_, key, amount.__getitem__)
        paid: dict[int, Fraction] = {}
        left = Fraction(0)
        for part in parts:
            left += _split(part, caps, paid)
        left = _fill(left, candidates, caps, paid)
        for part in parts:
            pooled = [i for i, _ in part.pool]
            for e in part.members:
                division.give(e.key, paid[e.key], pooled)
            division.shared.append(Shared(tuple(pooled), tuple(e.key for e in part.members)))
            for i in pooled:
                division.paid_out[i] = amount[i]
            _notes(division, part, types, caps, paid, amount, raised, score, open_, key)
        open_ -= {i for part in parts for i, _ in part.pool}
        if left:
            moved = _move_down(left, prizes, indices, amount, open_, raised, score)
            note = AwardNote(
                AwardWhy.MOVED_DOWN,
                amount=left,
                items=tuple(Item(prizes[i].name, amount[i]) for i in moved),
                score=score,
            )
            for e in candidates:
                division.note(e.key, note)
            indices = [*indices, *(i for i in moved if i not in indices)]
    for i in indices:
        division.paid_out.setdefault(i, amount[i])
    return division


def _cap(
    e: Entrant,
    eligible: frozenset[int],
    amount: dict[int, Fraction],
    prizes: list[Prize],
    capped: bool,
) -> tuple[Fraction, AwardWhy, int | None] | None:
    """The most the candidate may get (step 4): the largest open prize he could win alone
    (``us-chess``), or his personal limit if lower; with the kind of cap and the prize."""
    cap: tuple[Fraction, AwardWhy, int | None] | None = None
    if capped:
        largest = min(eligible, key=lambda i: (-amount[i], prizes[i].precedence()))
        cap = (amount[largest], AwardWhy.CAP, largest)
    if e.limit is not None and (cap is None or e.limit < cap[0]):
        cap = (e.limit, AwardWhy.LIMIT, None)
    return cap


def _split(
    part: Part,
    caps: dict[int, tuple[Fraction, AwardWhy, int | None] | None],
    paid: dict[int, Fraction],
) -> Fraction:
    """Split the part's pool equally, a candidate whose cap is below the share taking his
    cap and the others the rest; what nobody in the part may take is returned."""
    active = list(part.members)
    remaining = part.total
    while active:
        share = remaining / len(active)
        low = [e for e in active if (cap := caps[e.key]) is not None and cap[0] < share]
        if not low:
            for e in active:
                paid[e.key] = share
            return Fraction(0)
        for e in low:
            cap = caps[e.key]
            assert cap is not None
            paid[e.key] = cap[0]
            remaining -= cap[0]
            active.remove(e)
    return remaining


def _fill(
    left: Fraction,
    candidates: list[Entrant],
    caps: dict[int, tuple[Fraction, AwardWhy, int | None] | None],
    paid: dict[int, Fraction],
) -> Fraction:
    """Money a part could not place goes to the group's other candidates below their caps,
    equally (as a pool's split); what nobody may take is returned."""
    while left > 0:
        room = {
            e.key: (cap[0] - paid[e.key] if (cap := caps[e.key]) is not None else None)
            for e in candidates
        }
        open_room = [k for k, r in room.items() if r is None or r > 0]
        if not open_room:
            return left
        share = left / len(open_room)
        step = min([share] + [r for k in open_room if (r := room[k]) is not None])
        for k in open_room:
            paid[k] += step
        left -= step * len(open_room)
    return left


def _move_down(
    left: Fraction,
    prizes: list[Prize],
    indices: Sequence[int],
    amount: dict[int, Fraction],
    open_: set[int],
    raised: dict[int, tuple[Fraction, Fraction]],
    score: Fraction,
) -> list[int]:
    """Step 5: raise the open place prizes from the top, each at most to the original
    amount of the place prize above it; a new last place prize takes what remains. Returns
    the prizes raised or added."""
    ladder = sorted(
        (i for i in indices if prizes[i].kind is Kind.PLACE and prizes[i].place is not None),
        key=lambda i: prizes[i].step,
    )
    moved = []
    for above, i in pairwise(ladder):
        if i not in open_ or left <= 0:
            continue
        room = (prizes[above].amount or Fraction(0)) - amount[i]
        if room > 0:
            add = min(room, left)
            raised.setdefault(i, (amount[i], score))
            amount[i] += add
            left -= add
            moved.append(i)
    if left > 0:
        last = max((prizes[i].step for i in ladder), default=0) + 1
        prizes.append(
            Prize(
                f"place {last} (moved down)",
                Kind.PLACE,
                left,
                place=last,
                order=len(prizes),
            )
        )
        i = len(prizes) - 1
        amount[i] = left
        open_.add(i)
        raised[i] = (Fraction(0), score)
        moved.append(i)
    return moved


def _notes(
    division: Division,
    part: Part,
    types: list[Type],
    caps: dict[int, tuple[Fraction, AwardWhy, int | None] | None],
    paid: dict[int, Fraction],
    amount: dict[int, Fraction],
    raised: dict[int, tuple[Fraction, Fraction]],
    score: Fraction,
    open_: set[int],
    key: Key,
) -> None:
    """The reasons of each member of a part: the sub-groups, the pool, the precedence that
    chose between equal amounts, prizes raised by money moved down, caps and limits."""
    prizes = division.prizes
    names = tuple(e.name for e in part.members)
    eligible = {e.key: el for el, members in types for e in members}

    def brought(i: int, e: Entrant) -> tuple[str, ...]:
        """Who brought a prize, where it matters: not every member could have."""
        return () if all(i in eligible[m.key] for m in part.members) else (e.name,)

    pool = AwardNote(
        AwardWhy.POOL,
        players=names,
        items=tuple(Item(prizes[i].name, amount[i], brought(i, e)) for i, e in part.pool),
        total=part.total,
        count=len(part.members),
        amount=part.total / len(part.members),
        score=score,
    )
    notes: list[AwardNote] = [
        _group_note(AwardWhy.SUB_GROUP, g, prizes, amount) for g in part.alone
    ]
    notes += [_group_note(AwardWhy.OTHERS_ALONE, g, prizes, amount) for g in part.others]
    notes.append(pool)
    stayed = [g for g in part.stayed if any(m in g.members for m in part.members)]
    for chosen, other, criterion in passed_over(
        part,
        types,
        key,
        lambda i: prizes[i].precedence(),
        amount.__getitem__,
        open_,
    ):
        notes.append(
            AwardNote(
                AwardWhy.PRECEDENCE,
                prize=prizes[chosen].name,
                other=prizes[other].name,
                amount=amount[chosen],
                code=criterion,
            )
        )
    for i, _ in part.pool:
        if i in raised:
            original, above = raised[i]
            notes.append(
                AwardNote(
                    AwardWhy.RAISED,
                    prize=prizes[i].name,
                    amount=amount[i],
                    other_amount=original,
                    score=above,
                )
            )
    share = part.total / len(part.members)
    capped = [
        e
        for e in part.members
        if (c := caps[e.key]) is not None and paid[e.key] == c[0] and c[0] < share
    ]
    for e in part.members:
        division.notes.setdefault(e.key, []).extend(notes)
        mine = [g for g in stayed if e in g.members]
        if mine:  # the best he could have had alone, and why he pooled all the same
            closest = max(mine, key=lambda g: g.each)
            division.note(e.key, _group_note(AwardWhy.NOT_BETTER_ALONE, closest, prizes, amount))
        cap = caps[e.key]
        if e in capped and cap is not None:
            prize = prizes[cap[2]].name if cap[2] is not None else ""
            division.note(e.key, AwardNote(cap[1], prize=prize, amount=cap[0], other_amount=share))
        elif capped:
            division.note(
                e.key,
                AwardNote(
                    AwardWhy.CAPPED_OTHERS,
                    players=tuple(c.name for c in capped),
                    amount=paid[e.key],
                    other_amount=share,
                ),
            )


def _group_note(
    kind: AwardWhy, group: SubGroup, prizes: list[Prize], amount: dict[int, Fraction]
) -> AwardNote:
    return AwardNote(
        kind,
        players=tuple(e.name for e in group.members),
        items=tuple(Item(prizes[i].name, amount[i], (e.name,)) for i, e in group.pool),
        amount=group.each,
        other_amount=group.share,
        total=group.total,
        count=group.count,
    )

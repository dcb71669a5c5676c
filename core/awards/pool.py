"""A score group's pool under US Chess 32B: which prizes the tied players bring, and who
takes prizes alone.

32B3: "all the cash prizes involved shall be summed and divided equally among the tied
winners unless any of the winners would receive more money by winning or dividing only a
particular prize for which others in the tie are ineligible. No more than one cash prize
shall go into the pool for each winner." 32B1: a player wins the most valuable prize open
to him; 32B4: between prizes of equal amount, precedence decides.

**The pool** (:func:`best_pool`): at most one open prize per candidate, the largest total,
and among equal totals the set precedence prefers. The sets of prizes that distinct
candidates can bring are the independent sets of a transversal matroid, so taking prizes
one by one, largest amount first and by precedence among equal amounts, and keeping each
that still leaves every kept prize a bringer (an augmenting path in the bipartite graph of
prizes and candidates) gives the largest total, and of those the one that is first in that
order. Candidates with the same eligibility are one node with a capacity, so a score group
of thousands costs no more than its few kinds of eligibility.

**Sub-groups** (:func:`divide`, 32B3 "unless"): the candidates eligible for a prize that not
every candidate may win (the U2400 players, the youth players) would divide, alone, the
prizes no other candidate can win. When that gives each of them more than his share of the
whole group's pool, they take those prizes alone (divided the same way, so a smaller
sub-group inside may again do better alone), and the rest pool what is left. Of several
such sub-groups the one whose members gain most is taken first, then the smaller one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from core.awards.order import Entrant

__all__ = ["Part", "SubGroup", "Type", "best_pool", "divide", "passed_over"]

#: Candidates with the same eligibility (prize indices), in award order.
Type = tuple[frozenset[int], list[Entrant]]
#: The sort key of a prize: largest amount first, then precedence (32B4).
Key = Callable[[int], tuple[object, ...]]


@dataclass(frozen=True, slots=True)
class SubGroup:
    """Candidates who took the prizes only they could win alone (``pool``), ``each``
    rather than ``share`` of the whole group's pool (``total`` among ``count``)."""

    members: tuple[Entrant, ...]
    pool: tuple[tuple[int, Entrant], ...]
    each: Fraction
    share: Fraction
    total: Fraction
    count: int


@dataclass(slots=True)
class Part:
    """Candidates who divide one pool: its prizes, each with who brought it (largest first),
    and the total. ``alone`` is the sub-group this part belongs to, if it took its prizes
    alone; ``others`` the sub-groups that took theirs alone before this part pooled;
    ``stayed`` the sub-groups that would not have done better alone, so pooled."""

    members: list[Entrant]
    pool: list[tuple[int, Entrant]]
    total: Fraction
    alone: list[SubGroup] = field(default_factory=list)
    others: list[SubGroup] = field(default_factory=list)
    stayed: list[SubGroup] = field(default_factory=list)


def best_pool(types: Sequence[Type], prizes: Collection[int], key: Key) -> dict[int, int]:
    """The pool: each prize in it, with the index in ``types`` of the kind of candidate that
    brings it (at most as many prizes per kind as it has candidates).

    >>> a, b, c = (Entrant(n, f"P{n}", Fraction(4), n, "1") for n in (1, 2, 3))
    >>> amounts = {0: 300, 1: 200, 2: 150}  # 1st, 2nd, youth
    >>> types = [(frozenset({0, 1}), [a, b]), (frozenset({0, 1, 2}), [c])]
    >>> sorted(best_pool(types, {0, 1, 2}, lambda i: (-amounts[i], i)).items())
    [(0, 0), (1, 0), (2, 1)]
    """
    capacity = [len(members) for _, members in types]
    eligible = {i: [t for t, (el, _) in enumerate(types) if i in el] for i in prizes}
    on_type: list[list[int]] = [[] for _ in types]
    assigned: dict[int, int] = {}
    for prize in sorted(prizes, key=key):
        if not eligible[prize]:
            continue
        parent: dict[int, int] = {}
        queue: deque[int] = deque()
        for t in eligible[prize]:
            parent[t] = prize
            queue.append(t)
        found = None
        while queue:
            t = queue.popleft()
            if len(on_type[t]) < capacity[t]:
                found = t
                break
            for other in on_type[t]:
                for t2 in eligible[other]:
                    if t2 not in parent:
                        parent[t2] = other
                        queue.append(t2)
        if found is None:
            continue
        t = found
        while True:  # shift each prize on the path to the next kind
            moved = parent[t]
            before = assigned.get(moved)
            assigned[moved] = t
            on_type[t].append(moved)
            if before is not None:
                on_type[before].remove(moved)
            if moved == prize:
                break
            assert before is not None
            t = before
    return assigned


def _bringers(
    types: Sequence[Type], assigned: dict[int, int], key: Key
) -> list[tuple[int, Entrant]]:
    """Who brought each prize: a kind's prizes (largest first) to its candidates in award
    order; the list largest prize first."""
    per_type: dict[int, list[int]] = {}
    for prize, t in assigned.items():
        per_type.setdefault(t, []).append(prize)
    brought: list[tuple[int, Entrant]] = []
    for t, prizes in per_type.items():
        brought += zip(sorted(prizes, key=key), types[t][1], strict=False)
    return sorted(brought, key=lambda pair: key(pair[0]))


def divide(
    types: Sequence[Type], prizes: Collection[int], key: Key, amount: Callable[[int], Fraction]
) -> list[Part]:
    """The parts a score group's candidates divide into (steps 2 and 3 of the method): the
    whole group's pool, or sub-groups that take their own prizes alone and the rest's pool.

    >>> e = [Entrant(n, f"P{n}", Fraction(4), n, "3") for n in range(5)]
    >>> amounts = {0: 120, 1: 70, 2: 70, 3: 30}  # 3rd, 1st A, 1st B, 2nd B
    >>> types = [(frozenset({0}), e[:2]), (frozenset({0, 1}), [e[2]]), (frozenset({0, 2, 3}), e[3:])]
    >>> [(len(p.members), p.total) for p in divide(types, set(amounts), lambda i: (-amounts[i], i), amounts.get)]
    [(1, Fraction(70, 1)), (4, Fraction(220, 1))]
    """  # noqa: E501
    parts: list[Part] = []
    others: list[SubGroup] = []
    left = set(prizes)
    kinds = list(types)
    while True:
        kinds = [(el & left, members) for el, members in kinds if el & left]
        if not kinds:
            return parts
        assigned = best_pool(kinds, left, key)
        pool = _bringers(kinds, assigned, key)
        total = sum((amount(i) for i, _ in pool), Fraction(0))
        members = sorted((e for _, ms in kinds for e in ms), key=lambda e: e.position)
        share = total / len(members)
        groups = _sub_groups(kinds, left, key, amount)
        best = _best_sub_group(groups, kinds, share)
        if best is None:
            stayed = [
                SubGroup(
                    tuple(
                        sorted((e for t in chosen for e in kinds[t][1]), key=lambda e: e.position)
                    ),
                    tuple(_bringers(sub, best_pool(sub, alone, key), key)),
                    each,
                    share,
                    total,
                    len(members),
                )
                for chosen, alone, each in groups
                for sub in [[(kinds[t][0] & alone, kinds[t][1]) for t in sorted(chosen)]]
            ]
            parts.append(Part(members, pool, total, others=list(others), stayed=stayed))
            return parts
        chosen, alone_prizes, each = best
        sub_kinds = [(kinds[t][0] & alone_prizes, kinds[t][1]) for t in sorted(chosen)]
        sub_members = tuple(
            sorted((e for _, ms in sub_kinds for e in ms), key=lambda e: e.position)
        )
        sub_pool = tuple(_bringers(sub_kinds, best_pool(sub_kinds, alone_prizes, key), key))
        group = SubGroup(sub_members, sub_pool, each, share, total, len(members))
        for part in divide(sub_kinds, alone_prizes, key, amount):
            part.alone.insert(0, group)
            parts.append(part)
        others.append(group)
        kinds = [k for t, k in enumerate(kinds) if t not in chosen]
        left -= alone_prizes


def _sub_groups(
    kinds: Sequence[Type],
    left: set[int],
    key: Key,
    amount: Callable[[int], Fraction],
) -> list[tuple[frozenset[int], set[int], Fraction]]:
    """Every sub-group the group may split into by eligibility: the kinds of candidates
    eligible for one prize not every kind may win (their indices), the prizes no other
    candidate can win, and each member's amount if they divided those alone."""
    eligible = {i: frozenset(t for t, (el, _) in enumerate(kinds) if i in el) for i in left}
    found = []
    seen: set[frozenset[int]] = set()
    for prize in sorted(left, key=key):
        chosen = eligible[prize]
        if not chosen or len(chosen) == len(kinds) or chosen in seen:
            continue
        seen.add(chosen)
        alone = {i for i in left if eligible[i] and eligible[i] <= chosen}
        sub = [(kinds[t][0] & alone, kinds[t][1]) for t in sorted(chosen)]
        total = sum((amount(i) for i in best_pool(sub, alone, key)), Fraction(0))
        found.append((chosen, alone, total / sum(len(ms) for _, ms in sub)))
    return found


def _best_sub_group(
    groups: list[tuple[frozenset[int], set[int], Fraction]], kinds: Sequence[Type], share: Fraction
) -> tuple[frozenset[int], set[int], Fraction] | None:
    """Of ``groups``, the one that gains most by taking its prizes alone, then the smaller
    one; None when none gains."""
    best: tuple[Fraction, int, tuple[frozenset[int], set[int], Fraction]] | None = None
    for group in groups:
        gain = group[2] - share
        count = sum(len(kinds[t][1]) for t in group[0])
        if gain > 0 and (best is None or (gain, -count) > (best[0], -best[1])):
            best = (gain, count, group)
    return None if best is None else best[2]


#: The parts of precedence (32B4) in order: what decided between two prizes of equal amount.
CRITERIA = ("kind", "upper", "lower", "rank", "order")


def passed_over(
    part: Part,
    kinds: Sequence[Type],
    key: Key,
    precedence: Callable[[int], tuple[int, ...]],
    amount: Callable[[int], Fraction],
    open_prizes: Collection[int],
) -> list[tuple[int, int, str]]:
    """The 32B4 decisions of a pool: each pooled prize with an open prize of the same amount
    that a member could have brought instead (the swap keeps every prize a bringer), and
    the part of precedence that put the pooled one first."""
    members = {e.key for e in part.members}
    own = [(el, [e for e in ms if e.key in members]) for el, ms in kinds]
    own = [(el, ms) for el, ms in own if ms]
    pooled = [i for i, _ in part.pool]
    decisions = []
    for i in pooled:
        for j in sorted(open_prizes, key=key):
            if j in pooled or amount(j) != amount(i) or precedence(j) <= precedence(i):
                continue
            if not any(j in el for el, _ in own):
                continue
            swapped = [p for p in pooled if p != i] + [j]
            if len(best_pool(own, swapped, key)) < len(swapped):
                continue
            first = next(
                n
                for n, (x, y) in enumerate(zip(precedence(i), precedence(j), strict=True))
                if x != y
            )
            decisions.append((i, j, CRITERIA[first]))
            break
    return decisions

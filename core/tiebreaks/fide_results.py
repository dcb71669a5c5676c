"""FIDE tiebreaks from the player's own results: direct encounter, wins, Black, rounds elected
to play and progressive scores (C.07 arts. 6, 7, 14).

The worked examples are FIDE's published exercises (TEC, "Exercises in Tie-Breaking", the
5-round Swiss of ``tests/test_fide_exercises.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import and_, itemgetter

from core.model import PLAYED, Colour, EntryKind
from core.numbers import half_points
from core.tiebreaks.base import Breakdown, Column, Section, breakdown
from core.tiebreaks.fide_unplayed import FideView, build_view

_COLOUR = itemgetter(2)  # of a RoundEntry


def _count(
    section: Section,
    code: str,
    note: str,
    counted: frozenset[EntryKind],
    colour: Colour | None = None,
) -> Column:
    """Rounds of the ``counted`` kinds (and, if given, played with ``colour``), counted."""
    breakdowns = []
    one = {k: int(k in counted) for k in EntryKind}.__getitem__
    with_colour = {c: int(c is colour) for c in (*Colour, None)}.__getitem__
    for p, kinds in zip(section.tournament.players, section.kinds, strict=True):
        if colour is None:
            per_round = tuple(map(one, kinds))
        else:  # 1 where both say 1
            per_round = tuple(map(and_, map(one, kinds), map(with_colour, map(_COLOUR, p.entries))))
        breakdowns.append(breakdown(sum(per_round), per_round, (), 0, note))
    return Column(code, 1, tuple(breakdowns))


_WORTH_A_WIN = frozenset(k for k in EntryKind if k.half_points == EntryKind.WIN.half_points)
_WIN = frozenset({EntryKind.WIN})


def wins(section: Section) -> Column:
    """``WIN`` Number of wins (C.07 7.1): rounds that scored as much as a win, played or not
    (a win, a forfeit win, a full-point or pairing-allocated bye).

    Exercise 27, player 6 (L, L, pairing-allocated bye, W, W): 3.
    """
    return _count(section, "WIN", "rounds worth a win, played or not (C.07 7.1)", _WORTH_A_WIN)


def games_won(section: Section) -> Column:
    """``WON`` Number of games won over the board (C.07 7.2).

    Exercise 28, player 6: 2 (the bye does not count).
    """
    return _count(section, "WON", "games won over the board (C.07 7.2)", _WIN)


def games_with_black(section: Section) -> Column:
    """``BPG`` Number of games played with Black (C.07 7.3); forfeits are not games.

    Exercise 29, player 14 (W with White, L with Black, forfeit loss "with Black", zero-point
    bye, W with Black): 2.
    """
    return _count(section, "BPG", "games played with Black (C.07 7.3)", PLAYED, Colour.BLACK)


def wins_with_black(section: Section) -> Column:
    """``BWG`` Number of games won with Black (C.07 7.4). Exercise 30, player 14: 1."""
    return _count(section, "BWG", "games won with Black (C.07 7.4)", _WIN, Colour.BLACK)


def rounds_elected_to_play(section: Section) -> Column:
    """``REP`` Rounds one elected to play (C.07 art. 7): the rounds that are not voluntarily
    unplayed (16.1.2): games, forfeit wins, full-point and pairing-allocated byes.

    Exercise 31, player 14 (W, L, forfeit loss, zero-point bye, W): 3.
    """
    view = section.memo(build_view)
    breakdowns = []
    for i in range(len(view.ids)):
        per_round = tuple(int(not view.is_vur(i, r)) for r in range(view.rounds))
        breakdowns.append(
            Breakdown(
                sum(per_round), per_round, (), 0, "rounds not voluntarily unplayed (C.07 7, 16.1.2)"
            )
        )
    return Column("REP", 1, tuple(breakdowns))


def _progressive(section: Section, code: str, cut_first: bool) -> Column:
    breakdowns = []
    for kinds in section.kinds:
        running = 0
        per_round = []
        for kind in kinds:
            running += kind.half_points
            per_round.append(running)
        dropped = (1,) if cut_first and per_round else ()
        total = sum(per_round) - (per_round[0] if dropped else 0)
        note = "the running score after each round, added up (C.07 art. 7)"
        if dropped:
            note += "; Cut-1: round 1's running score, the lowest, is cut (C.07 14.1)"
        breakdowns.append(Breakdown(total, tuple(per_round), dropped, 0, note))
    return Column(code, 2, tuple(breakdowns))


def progressive_scores(section: Section) -> Column:
    """``PS`` Progressive scores (C.07 art. 7): the running score after each round, summed.

    Exercise 32, player 4 (W, half-point bye, W, D, D): 1 + 1½ + 2½ + 3 + 3½ = 11½.
    """
    return _progressive(section, "PS", cut_first=False)


def progressive_scores_cut1(section: Section) -> Column:
    """``PS/C1`` Progressive scores Cut-1 (C.07 14.1): without round 1, the least significant
    running score. Exercise 33, player 4: 11½ − 1 = 10½."""
    return _progressive(section, "PS/C1", cut_first=True)


@dataclass(frozen=True, slots=True)
class _Encounter:
    points: int  # half-points scored against the other members
    best: int  # the most they could have: points + a win against each member not met


def _encounters(view: FideView, members: Sequence[int]) -> dict[int, _Encounter]:
    group = set(members)
    table = {}
    for i in members:
        points = 0
        met = set()
        for r in range(view.rounds):
            j = view.paired[i][r]
            if j in group and view.counts_as_game(i, r):
                points += view.points(i, r)
                met.add(j)
        table[i] = _Encounter(points, points + 2 * (len(group) - 1 - len(met)))
    return table


def _split(view: FideView, members: Sequence[int], stages: dict[int, list[str]]) -> list[list[int]]:
    """One application of DE to ``members``: blocks, best first. A player is ranked above
    another only when their points are more than the other could have had (C.07 6)."""
    table = _encounters(view, members)
    order = sorted(members, key=lambda i: (-table[i].points, view.ids[i]))
    # The best score still reachable by anyone from position k down, for every k.
    reach = [table[i].best for i in order]
    for k in range(len(order) - 2, -1, -1):
        reach[k] = max(reach[k], reach[k + 1])
    blocks: list[list[int]] = [[order[0]]]
    for k in range(1, len(order)):
        # Sorted by points, the lowest of the first k is order[k-1]'s.
        if table[order[k - 1]].points > reach[k]:
            blocks.append([])
        blocks[-1].append(order[k])
    names = ", ".join(str(view.ids[i]) for i in sorted(members, key=view.ids.__getitem__))
    for i in members:
        e = table[i]
        most = f" (at most {half_points(e.best)}: not all met)" if e.best > e.points else ""
        stages[i].append(f"{half_points(e.points)} against {names}{most}")
    return blocks


def _rank(view: FideView, members: list[int], stages: dict[int, list[str]]) -> list[list[int]]:
    """DE applied, then re-applied within every block still tied, until nothing changes."""
    if not members:  # a section with no players has no tie
        return []
    blocks = _split(view, members, stages)
    if len(blocks) == 1:
        return blocks
    ranked: list[list[int]] = []
    for block in blocks:
        ranked += _rank(view, block, stages) if len(block) > 1 else [block]
    return ranked


def direct_encounter(section: Section, group: Sequence[int]) -> dict[int, Breakdown]:
    """``DE`` Direct encounter (C.07 art. 6) among the players still tied, re-applied within
    each part that is still tied, with only the games among that part, until nothing changes.

    Games count once each (a repeated pairing counts again); in a round robin forfeits count
    (15.2). When not all tied players met, a player ranks above another only if their points
    exceed what the other could have had by winning every game they did not play. The value is
    the number of tied players ranked below (kept in halves, like the points of ``per_round``,
    so the column has one scale): the standings order the whole group by it.

    Exercise 23 (3½ points: players 1, 3, 4, 16; 4 drew with 1 and 3, 16 met none): 4 has 1
    (at most 2), 1 and 3 ½ (at most 2½), 16 0 (at most 3): no one is out of reach, all stay
    tied.
    """
    view = section.memo(build_view)
    members = set(group)
    stages: dict[int, list[str]] = {i: [] for i in group}
    ranked = _rank(view, list(group), stages)
    result = {}
    below = len(group)
    for block in ranked:
        below -= len(block)
        for i in block:
            per_round = tuple(
                view.points(i, r)
                if view.paired[i][r] in members and view.counts_as_game(i, r)
                else None
                for r in range(view.rounds)
            )
            others = sorted(view.ids[j] for j in block if j != i)
            if others:
                said = f"still tied with {', '.join(str(o) for o in others)}"
            elif below:
                said = f"ranked above {below} of the {len(group) - 1} others"
            else:
                said = "ranked below the others"
            note = f"direct encounter (C.07 6): {'; re-applied: '.join(stages[i])}: {said}"
            result[i] = Breakdown(2 * below, per_round, (), 0, note)  # in half-units
    return result


def direct_encounter_column(section: Section) -> Column:
    """``DE`` has no value outside a tie; the standings fill it in per tied group."""
    return Column(
        "DE",
        2,
        tuple(Breakdown(None, note="no tie left to break at this point") for _ in section.scores),
    )

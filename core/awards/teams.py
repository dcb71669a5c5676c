"""Team scores of a scholastic section (the US Chess scholastic team rules).

A team's score is the sum of the scores of its first N players in the standings (N = 4
unless announced; at least 2 players must count, so a team with fewer players in the
section is not ranked). Those N are the counting players. Ties between teams: the sums of
the counting players' tiebreaks in the section's order, then the recorded lot (the prize
list's team ``playoff``), then Harkness's reproducible coin flip (from the same seed as
``COIN``, and the team's name). Team cash tied on team score is pooled and split as a
player's would be; team trophies go by the team order.

>>> from core.examples import load_example
>>> from core.standings import compute_standings
>>> s = compute_standings(load_example(), "mdchess")
>>> ranked, _, small = rank_teams(s, {"North": (1, 5, 6, 9), "South": (2, 3, 4, 7, 8, 10)})
>>> [(t.name, t.score, t.counting) for t in ranked], small
([('South', Fraction(21, 2), (2, 3, 4, 7)), ('North', Fraction(17, 2), (1, 5, 6, 9))], [])
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.awards.order import Entrant, Separated, Separation
from core.standings import SCORE, Standings
from core.tiebreaks.uscf import coin_seed

__all__ = ["MIN_COUNTING", "TeamStanding", "rank_teams"]

#: At least this many players must count for a team to be ranked.
MIN_COUNTING = 2


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A ranked team: its players in standings order, the counting ones, the score and the
    sums of the counting players' tiebreaks (in the section's order, None-valued ones left
    out of each sum); ``rank`` is its position (1-based)."""

    name: str
    players: tuple[int, ...]
    counting: tuple[int, ...]
    score: Fraction
    sums: tuple[Fraction, ...]
    rank: int
    draw: int

    def entrant(self) -> Entrant:
        """The team as the cash and trophy engines see it (key: its rank)."""
        return Entrant(self.rank, self.name, self.score, self.rank - 1, str(self.rank))


def rank_teams(
    standings: Standings,
    teams: Mapping[str, Sequence[int]],
    count: int = 4,
    playoff: Sequence[str] = (),
) -> tuple[list[TeamStanding], Separated, list[tuple[str, int]]]:
    """The teams ranked, how two of them were separated, and the teams too small to rank
    (name, players in the section)."""
    seat = {name: n for n, name in enumerate(playoff)}
    unranked: list[tuple[str, int]] = []
    built: list[_Built] = []
    for name, ids in teams.items():
        members = sorted(
            (standings.line_of(i) for i in ids if _in(standings, i)),
        )
        if len(members) < MIN_COUNTING:
            unranked.append((name, len(members)))
            continue
        rows = [standings.rows[n] for n in members]
        counting = rows[:count]
        score = sum((r.score for r in counting), Fraction(0))
        sums = tuple(
            sum(
                (v for r in counting if (v := standings.value(code, r.player_index)) is not None),
                Fraction(0),
            )
            for code in standings.order
        )
        built.append(
            (
                name,
                tuple(r.player.id for r in rows),
                tuple(r.player.id for r in counting),
                score,
                sums,
            )
        )
    seed, draws = _draws(standings, built)
    built.sort(
        key=lambda t: (-t[3], tuple(-v for v in t[4]), seat.get(t[0], len(seat)), -draws[t[0]])
    )
    ranked = [
        TeamStanding(name, players, counting, score, sums, rank, draws[name])
        for rank, (name, players, counting, score, sums) in enumerate(built, start=1)
    ]
    by_rank = {t.rank: t for t in ranked}

    def separated(above: Entrant, below: Entrant) -> Separation:
        a, b = by_rank[above.key], by_rank[below.key]
        if a.score != b.score:
            return Separation(SCORE, a.score, b.score)
        for code, x, y in zip(standings.order, a.sums, b.sums, strict=True):
            if x != y:
                return Separation(code, x, y)
        if a.name in seat or b.name in seat:
            return Separation("playoff")
        text = f"team coin flip, seed {seed}: drew {a.draw} against {b.draw}"
        return Separation("coin", Fraction(a.draw), Fraction(b.draw), text)

    return ranked, separated, unranked


_Built = tuple[str, tuple[int, ...], tuple[int, ...], Fraction, tuple[Fraction, ...]]


def _draws(standings: Standings, built: list[_Built]) -> tuple[str, dict[str, int]]:
    """The coin flip of each team (its seed, and a draw per team), made only when two teams
    are equal on score and every tiebreak sum: the seed reads the whole section."""
    keys = [(t[3], t[4]) for t in built]
    if len(set(keys)) == len(keys):
        return "", {t[0]: 0 for t in built}
    seed = coin_seed(standings.section)
    draws = {}
    for t in built:
        digest = hashlib.sha256(f"{seed}:team:{t[0]}".encode()).digest()
        draws[t[0]] = int.from_bytes(digest[:3], "big") % 1000
    return seed, draws


def _in(standings: Standings, player_id: int) -> bool:
    try:
        standings.line_of(player_id)
    except KeyError:
        return False
    return True

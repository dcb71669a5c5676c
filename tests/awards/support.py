"""Sections built for award tests: players in a given standings order, with given scores and
ratings, and the prize lists of published cases.

A section is made of byes only (no games), so each score is exactly what the case says and
nobody else is in the field: a full-point bye is a point, a half-point bye half, a
zero-point bye nothing. Within a score group the standings order is the order given: the
n-th player of a group starts collecting points n rounds later, so his Cumulative (the
tiebreak that decides when Modified Median and Solkoff are all 0) is lower. Players given
the same ``tie`` share a place (equal on every tiebreak).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.awards import Awards, PrizeList, compute_awards, read_prizes
from core.model import EntryKind, Player, RoundEntry, Tournament
from core.standings import Standings, compute_standings


@dataclass(frozen=True)
class Entry:
    """A player of a case: name, score, rating (None: unrated), and ``tie`` (players of a
    score group with the same number share a place)."""

    name: str
    score: Fraction | float | int
    rating: int | None = None
    tie: int | None = None


def section(entries: Sequence[Entry]) -> Standings:
    """The standings of a section whose players finish in the order and with the scores of
    ``entries`` (starting numbers 1, 2, … in that order)."""
    halves = [int(Fraction(e.score) * 2) for e in entries]
    group_size: dict[int, int] = {}
    shift: list[int] = []
    for e, h in zip(entries, halves, strict=True):
        n = group_size.get(h, 0)
        shift.append(e.tie if e.tie is not None else n)
        group_size[h] = n + 1
    rounds = max(-(-h // 2) for h in halves) + max(group_size.values()) + 1
    players = []
    for number, (e, h, late) in enumerate(zip(entries, halves, shift, strict=True), start=1):
        kinds = [EntryKind.ZERO_BYE] * late + [EntryKind.FULL_BYE] * (h // 2)
        kinds += [EntryKind.HALF_BYE] * (h % 2)
        kinds += [EntryKind.ZERO_BYE] * (rounds - len(kinds))
        players.append(Player(number, e.name, tuple(RoundEntry(k) for k in kinds), e.rating))
    standings = compute_standings(Tournament(tuple(players), rounds), "uscf")
    want = [e.name for e in entries]
    got = [row.player.name for row in standings.rows]
    ties = [e.tie is not None for e in entries]
    assert got == want or any(ties), f"the section ranks {got}, not {want}"
    return standings


def awards(entries: Sequence[Entry], prize_file: str) -> Awards:
    """The awards of ``entries`` under the prize file's text."""
    return compute_awards(section(entries), read_prizes(prize_file))


def cash(result: Awards) -> dict[str, Fraction]:
    """Each player's exact cash, by name."""
    return {row.name: row.cash for row in result.rows}


def prize_list(text: str) -> PrizeList:
    return read_prizes(text)

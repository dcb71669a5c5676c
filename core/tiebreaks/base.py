"""What every tiebreak returns, and the per-tournament facts they share.

A tiebreak is computed for a whole section at once (one pass, no per-player re-scans) and
returns a :class:`Column`: for each player a :class:`Breakdown` holding the exact value and
the parts it came from, so that explanations read the parts instead of recomputing them.

Values are kept as integers in the tiebreak's own unit (``scale`` units make one point:
2 for half-points, 4 for Sonneborn-Berger's quarter-points); ratings averages are exact
``Fraction`` s. Nothing is a float until display.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple, TypeVar, cast

from core.model import EntryKind, Tournament
from core.profiles import Profile

Units = int | Fraction
T = TypeVar("T")


class Breakdown(NamedTuple):
    """One player's value of one tiebreak, and where it came from.

    ``per_round[r-1]`` is what round ``r`` contributed (in the column's units), or None where
    the round does not take part (an unrated opponent for a rating average, say).
    ``dropped`` lists the rounds whose contribution was discarded (Modified Median, cuts).
    ``adjustment`` is added after the sum (Cumulative's bye subtraction, for instance).
    For sum tiebreaks ``units == sum(kept contributions) + adjustment`` always holds.
    ``note`` names the rule that was applied, in words; ``round_notes`` (optional, one per
    round or empty) says why a round contributed what it did where that is not plain from
    the round's entry (FIDE's dummy opponents and caps, for instance).
    """

    units: Units | None
    per_round: tuple[Units | None, ...] = ()
    dropped: tuple[int, ...] = ()
    adjustment: Units = 0
    note: str = ""
    round_notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Column:
    """One tiebreak for every player of a section, in the tournament's player order."""

    code: str
    scale: int
    breakdowns: tuple[Breakdown, ...]

    def value(self, index: int) -> Fraction | None:
        """The exact value of the player at ``index`` (None where undefined)."""
        units = self.breakdowns[index].units
        return None if units is None else Fraction(units) / self.scale


class Section:
    """Facts about a tournament that many tiebreaks need, computed once.

    Players are addressed by index (their position in ``tournament.players``); all scores
    are in half-points. ``opponents[i][r]`` is the index of the opponent player ``i`` met
    over the board in round ``r+1``, or -1 for any unplayed round.
    """

    def __init__(self, tournament: Tournament, profile: Profile) -> None:
        self.tournament = tournament
        self.profile = profile
        self.rounds = tournament.rounds
        self._memo: dict[Callable[[Section], object], object] = {}
        index = {p.id: i for i, p in enumerate(tournament.players)}
        self.kinds: list[tuple[EntryKind, ...]] = []
        self.opponents: list[tuple[int, ...]] = []
        self.scores: list[int] = []
        self.play_scores: list[int] = []
        self.adjusted: list[int] = []
        played_kinds = {EntryKind.WIN: 2, EntryKind.DRAW: 1, EntryKind.LOSS: 0}
        half = {k: k.half_points for k in EntryKind}
        for p in tournament.players:
            kinds = tuple(e.kind for e in p.entries)
            self.kinds.append(kinds)
            self.opponents.append(
                tuple(index[e.opponent] if e.kind in played_kinds and e.opponent else -1
                      for e in p.entries)
            )
            score = 0
            in_play = 0
            unplayed = 0
            for k in kinds:
                score += half[k]
                if k in played_kinds:
                    in_play += played_kinds[k]
                else:
                    unplayed += 1
            self.scores.append(score)
            self.play_scores.append(in_play)
            # RULES.md, adjusted score: every unplayed round of theirs counts ½ (one half-point).
            self.adjusted.append(in_play + unplayed)

    def memo(self, compute: Callable[[Section], T]) -> T:
        """``compute(self)``, computed once per section (tiebreaks that share work)."""
        if compute not in self._memo:
            self._memo[compute] = compute(self)
        return cast(T, self._memo[compute])

    @cached_property
    def opponent_adjusted(self) -> list[tuple[int, ...]]:
        """Per player and round: the opponent's adjusted score, 0 for own unplayed rounds.

        RULES.md (uscf): "The player's own unplayed rounds count, in MM / Median / Solkoff,
        as opponents with adjusted score 0."
        """
        adjusted = self.adjusted
        return [tuple(adjusted[o] if o >= 0 else 0 for o in opps) for opps in self.opponents]


ColumnFunction = Callable[[Section], Column]


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A named tiebreak: its code, its name in words, its rule, and how to compute it.

    ``digits`` is how many decimals to display (None: exact, as halves and quarters are).
    ``group`` tiebreaks (head-to-head, direct encounter) depend on who is still tied, so
    the standings compute them per tied group through ``compute_group`` instead.
    """

    code: str
    name: str
    rule: str
    compute: ColumnFunction
    group: Callable[[Section, Sequence[int]], dict[int, Breakdown]] | None = None
    digits: int | None = None

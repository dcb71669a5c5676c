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

from core.model import HALF_POINTS, EntryKind, Tournament
from core.numbers import display_units, json_units, ratio
from core.profiles import Profile
from core.tiebreaks.notes import Notes, NotesFunction, worded

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
    the round's entry (FIDE's dummy opponents and caps, for instance). Tiebreaks that give
    their round notes on demand instead (:attr:`Tiebreak.notes`, US Chess's) leave it empty;
    read both through :meth:`Tiebreak.round_notes`.
    """

    units: Units | None
    per_round: tuple[Units | None, ...] = ()
    dropped: tuple[int, ...] = ()
    adjustment: Units = 0
    note: str = ""
    round_notes: tuple[str, ...] = ()


def breakdown(
    units: Units | None,
    per_round: tuple[Units | None, ...],
    dropped: tuple[int, ...],
    adjustment: Units,
    note: str,
    round_notes: tuple[str, ...] = (),
) -> Breakdown:
    """``Breakdown(...)`` with every field given, without the named tuple's own ``__new__``
    (a Python function): a 5,000-player section builds one per player and tiebreak.

    >>> breakdown(3, (1, 2), (), 0, "sum") == Breakdown(3, (1, 2), (), 0, "sum")
    True
    """
    return _new_tuple(Breakdown, (units, per_round, dropped, adjustment, note, round_notes))


_new_tuple = tuple.__new__


@dataclass(frozen=True, slots=True)
class Column:
    """One tiebreak for every player of a section, in the tournament's player order."""

    code: str
    scale: int
    breakdowns: tuple[Breakdown, ...]

    def value(self, index: int) -> Fraction | None:
        """The exact value of the player at ``index`` (None where undefined)."""
        units = self.breakdowns[index].units
        return None if units is None else ratio(units, self.scale)

    def display(self, index: int, digits: int | None = None, empty: str = "") -> str:
        """The value of the player at ``index`` as printed (``8.5``; ``empty`` if undefined)."""
        return display_units(self.breakdowns[index].units, self.scale, digits, empty)

    def json(self, index: int, digits: int | None = None) -> int | float | None:
        """The value of the player at ``index`` as a JSON number (None if undefined)."""
        return json_units(self.breakdowns[index].units, self.scale, digits)


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
        self.kinds: Sequence[tuple[EntryKind, ...]] = tournament.kinds
        self.opponents: Sequence[tuple[int, ...]] = tournament.opponents
        self.scores = [sum(map(_HALF_POINTS, kinds)) for kinds in self.kinds]
        self.play_scores = [sum(map(_PLAYED_HALF_POINTS, kinds)) for kinds in self.kinds]
        # Rule 34E1, adjusted score: every unplayed round of theirs counts ½ (one half-point).
        self.adjusted = [
            in_play + opponents.count(-1)
            for in_play, opponents in zip(self.play_scores, self.opponents, strict=True)
        ]

    def memo(self, compute: Callable[[Section], T]) -> T:
        """``compute(self)``, computed once per section (tiebreaks that share work)."""
        if compute not in self._memo:
            self._memo[compute] = compute(self)
        return cast(T, self._memo[compute])

    @cached_property
    def opponent_adjusted(self) -> list[tuple[int, ...]]:
        """Per player and round: the opponent's adjusted score, 0 for own unplayed rounds.

        core/RULEBOOK.md (``uscf``): the player's own unplayed rounds count, in MM, Median and
        Solkoff, as opponents with an adjusted score of 0.
        """
        adjusted = [*self.adjusted, 0]  # index -1, an own unplayed round, reads 0
        return [tuple([adjusted[o] for o in opps]) for opps in self.opponents]


_HALF_POINTS = HALF_POINTS.__getitem__
#: What each kind of round adds to the score in play: a game's points, 0 for the rest.
_PLAYED_HALF_POINTS = {k: k.half_points if k.played else 0 for k in HALF_POINTS}.__getitem__

ColumnFunction = Callable[[Section], Column]


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A named tiebreak: its code, its name in words, its rule, and how to compute it.

    ``digits`` is how many decimals to display (None: exact, as halves and quarters are).
    ``group`` tiebreaks (head-to-head, direct encounter) depend on who is still tied, so
    the standings compute them per tied group through ``compute_group`` instead.
    ``notes`` gives one player's round notes on demand (:mod:`core.tiebreaks.notes`);
    without it the notes are the words the breakdown carries.
    """

    code: str
    name: str
    rule: str
    compute: ColumnFunction
    group: Callable[[Section, Sequence[int]], dict[int, Breakdown]] | None = None
    digits: int | None = None
    notes: NotesFunction | None = None

    def round_notes(self, section: Section, index: int, breakdown: Breakdown) -> Notes:
        """Why each round of the player at ``index`` contributed what it did to this
        tiebreak (``breakdown`` is theirs): one :class:`~core.tiebreaks.notes.RoundNote`
        or None per round. Computed when asked, never by the standings."""
        if self.notes is not None:
            return self.notes(section, index, breakdown)
        return worded(breakdown.round_notes, section.rounds)

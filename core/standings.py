"""Standings: rank by score, then by the profile's tiebreaks in order (core/RULEBOOK.md).

Tiebreaks only order players who are still tied: players are grouped by score; each group
of more than one is split by the first tiebreak, each part still tied by the next, and so
on. Players equal on everything share a place (``3-4``), listed by starting number. Under
the US Chess unplayed-points rule a player whose whole (non-zero) score came from unplayed
rounds loses a tie to one who scored in play, before any tiebreak.

Every boundary between two neighbours records what separated them (``"score"``,
``"unplayed"`` or a tiebreak code), so explanations can say which tiebreak decided.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby
from typing import Any, NamedTuple

from core.model import Player, Tournament, as_played, is_round_robin
from core.profiles import Profile, resolve, with_tiebreaks
from core.tiebreaks import Breakdown, Column, Section, Tiebreak, tiebreaks_of

SCORE = "score"
UNPLAYED = "unplayed"
#: Players still tied, and what separated them from the group above (None: nothing yet).
Group = tuple[list[int], str | None]


class Standing(NamedTuple):
    """One line of the standings.

    ``rank`` is the position in the list (1-based); ``place`` is what a prize list prints
    (``"3"``, or ``"3-4"`` for a shared place); ``separated_by`` says what put this player
    below the one above (None for the first line and within a shared place);
    ``player_index`` is the player's position in ``tournament.players`` (and in every
    tiebreak column).
    """

    rank: int
    place: str
    player_index: int
    player: Player
    half_points: int
    separated_by: str | None

    @property
    def score(self) -> Fraction:
        return Fraction(self.half_points, 2)


@dataclass(frozen=True, slots=True)
class Standings:
    """Ranked players of one section with every tiebreak column of the profile."""

    tournament: Tournament
    profile: Profile
    order: tuple[str, ...]
    columns: dict[str, Column]
    rows: tuple[Standing, ...]
    section: Section
    _lines: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def value(self, code: str, index: int) -> Fraction | None:
        """The exact value of tiebreak ``code`` for the player at ``index``."""
        return self.columns[code].value(index)

    def breakdown(self, code: str, index: int) -> Breakdown:
        """The value of tiebreak ``code`` for the player at ``index``, with its parts."""
        return self.columns[code].breakdowns[index]

    def line_of(self, player_id: int) -> int:
        """The position (0-based) in :attr:`rows` of the player with this starting number."""
        if not self._lines:
            self._lines.update((row.player.id, n) for n, row in enumerate(self.rows))
        return self._lines[player_id]

    def row_of(self, player_id: int) -> Standing:
        """The standing of the player with this starting number."""
        return self.rows[self.line_of(player_id)]

    def score_group(self, player_id: int) -> tuple[Standing, ...]:
        """The rows of every player on the same score as this one, in rank order."""
        start = end = self.line_of(player_id)
        half = self.rows[start].half_points
        while start and self.rows[start - 1].half_points == half:
            start -= 1
        while end + 1 < len(self.rows) and self.rows[end + 1].half_points == half:
            end += 1
        return self.rows[start : end + 1]


def compute_standings(
    tournament: Tournament, profile: Profile | str = "uscf", codes: str | None = None
) -> Standings:
    """Rank a section under a profile (name or :class:`Profile`), optionally with the TD's
    own comma list of tiebreak codes (which replaces the order only: a :class:`Profile`
    keeps every option set on it).

    >>> from core.examples import load_example
    >>> s = compute_standings(load_example("mdchess-scholastic.txt"), "mdchess")
    >>> [(r.place, r.player.name, r.separated_by) for r in s.rows[:4]]
    [('1', 'Player A', None), ('2', 'Player B', 'MM'), ('3', 'Player C', 'MM'),
     ('4', 'Player D', 'SOLK')]
    """
    if isinstance(profile, str):
        profile = resolve(profile, codes)
    else:
        profile = with_tiebreaks(profile, codes)
    section = Section(tournament, profile)
    order = applicable_order(tournament, profile)
    registry = tiebreaks_of(profile.family)
    columns = {code: registry[code].compute(section) for code in order}
    scores = section.scores
    criteria: list[tuple[str, list[Any] | None]] = [(SCORE, scores)]
    if profile.unplayed_points_rule:
        in_play = [
            int(not (s > 0 and p == 0)) for s, p in zip(scores, section.play_scores, strict=True)
        ]
        criteria.append((UNPLAYED, in_play))
    for code in order:
        if registry[code].group is None:
            criteria.append((code, [b.units for b in columns[code].breakdowns]))
        else:
            criteria.append((code, None))
    groups: list[Group] = [(list(range(len(tournament))), None)]
    for name, keys in criteria:
        if keys is not None:
            groups = _split_all(groups, name, _lookup(keys))
        else:  # computed per tied group; the column holds what was computed
            breakdowns = list(columns[name].breakdowns)
            groups = _split_all(groups, name, _group_keys(section, registry[name], breakdowns))
            columns[name] = Column(name, columns[name].scale, tuple(breakdowns))
    return Standings(
        tournament, profile, order, columns, _rows(tournament, scores, groups), section
    )


def applicable_order(
    tournament: Tournament, profile: Profile, planned: int | None = None
) -> tuple[str, ...]:
    """The tiebreak order that applies to this section under ``profile``: a round robin
    takes the profile's round-robin order where it has one (FIDE profiles), a short
    section the order for its rounds (:meth:`Profile.order`). ``tournament`` is the section
    as it is ranked: cut to the rounds played (:func:`core.model.as_played`) or to an
    ``--after-round``, as :func:`compute_standings` is given it. Before any round is played
    (no round kept), the order for the ``planned`` rounds. The one answer for standings and
    for every front door that lists the order.

    >>> from core.examples import load_example
    >>> from core.profiles import PROFILES
    >>> applicable_order(load_example("mdchess-scholastic.txt"), PROFILES["mdchess"])
    ('MM', 'SOLK', 'CUM', 'OCUM')
    """
    if planned is not None and tournament.rounds == 0:
        return profile.order(planned)
    round_robin = bool(profile.round_robin_tiebreaks) and is_round_robin(tournament)
    return profile.order(tournament.rounds, round_robin)


def standings_after(
    tournament: Tournament, profile: Profile | str = "uscf", after_round: int | None = None
) -> Standings:
    """The standings after round ``after_round``, or, without it, after the rounds played
    (:func:`core.model.as_played`: a round with no game result yet is not ranked)."""
    if after_round is None:
        return compute_standings(as_played(tournament), profile)
    return compute_standings(tournament.after_round(after_round), profile)


def _lookup(values: list[Any]) -> Callable[[Sequence[int]], list[Any]]:
    """Keys of a tiebreak known for every player (:func:`_key` of each value)."""
    keyed = [_key(v) for v in values] if None in values else values
    return lambda group: list(map(keyed.__getitem__, group))


#: Undefined tiebreak values (None) sort below every defined value. Only a sort key: no
#: arithmetic is ever done with it.
UNDEFINED = float("-inf")


def _key(units: Any) -> Any:
    """Sort key of a tiebreak value: the exact value, or :data:`UNDEFINED`."""
    return UNDEFINED if units is None else units


def _group_keys(
    section: Section, tiebreak: Tiebreak, breakdowns: list[Breakdown]
) -> Callable[[Sequence[int]], list[Any]]:
    """Keys for a tiebreak that depends on who is tied; records the values it computed in
    ``breakdowns`` (by player index)."""
    group_fn = tiebreak.group
    assert group_fn is not None

    def keys(group: Sequence[int]) -> list[Any]:
        values = group_fn(section, group)
        for i, b in values.items():
            breakdowns[i] = b
        return [_key(values[i].units) for i in group]

    return keys


def _split_all(
    groups: Iterable[Group], name: str, keys: Callable[[Sequence[int]], Sequence[Any]]
) -> list[Group]:
    """Split every group of two or more by descending key.

    The first part keeps the group's own boundary above it; each further part is marked
    as separated by ``name`` from the part above.
    """
    result: list[Group] = []
    for group, above in groups:
        if len(group) < 2:
            result.append((group, above))
            continue
        ks = keys(group)
        if ks.count(ks[0]) == len(ks):
            result.append((group, above))
            continue
        # A stable sort: players equal on the key keep the group's order.
        order = sorted(range(len(group)), key=ks.__getitem__, reverse=True)
        for _, equal in groupby(order, ks.__getitem__):
            result.append((list(map(group.__getitem__, equal)), above))
            above = name
    return result


def _rows(tournament: Tournament, scores: list[int], groups: list[Group]) -> tuple[Standing, ...]:
    rows: list[Standing] = []
    players = tournament.players
    ids = [p.id for p in players]
    make = tuple.__new__  # Standing's own constructor is Python code: 5,000 rows add up
    for group, above in groups:
        start = len(rows) + 1
        if len(group) == 1:
            i = group[0]
            rows.append(make(Standing, (start, str(start), i, players[i], scores[i], above)))
            continue
        place = f"{start}-{start + len(group) - 1}"
        for n, i in enumerate(sorted(group, key=ids.__getitem__)):
            rows.append(
                make(
                    Standing,
                    (start + n, place, i, players[i], scores[i], above if n == 0 else None),
                )
            )
    return tuple(rows)

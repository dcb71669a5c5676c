"""Why a player finished where they did: every place and every tiebreak number, as data.

:func:`explain` reads a :class:`~core.standings.Standings` (it never recomputes a tiebreak:
every number comes from the :class:`~core.tiebreaks.base.Breakdown` the engine returned, and
every round's reason from the tiebreak's own round notes,
:meth:`~core.tiebreaks.base.Tiebreak.round_notes`) and returns an :class:`Explanation`: the
place, the score group, the decisive comparison with each neighbour in it, and each tiebreak
broken down round by round.

Nothing here is worded. Every reason is a kind (:class:`Why` for the explanation's lines,
:class:`~core.tiebreaks.notes.RoundWhy` for a round's part) with its values (players, the
tiebreak code, exact numbers, rounds); :mod:`core.explain_render` words them as plain text,
Discord-sized Markdown or JSON, and the bot and the sheet show those words.

>>> from core.examples import load_example
>>> from core.standings import compute_standings
>>> e = explain(compute_standings(load_example(), "mdchess"), 4)
>>> c = e.comparisons[0]
>>> c.kind, c.other.name, c.decided_by, c.ours, c.theirs
(<Why.DECIDED: 'decided'>, 'Player C', 'SOLK', Fraction(13, 2), Fraction(15, 2))
>>> c.equal  # level on Modified Median before Solkoff
(('MM', Fraction(13, 2)),)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING

from core.model import EntryKind, RoundEntry
from core.numbers import display, ratio
from core.profiles import Family
from core.standings import UNPLAYED, Standing, Standings
from core.tiebreaks import Tiebreak, tiebreaks_of
from core.tiebreaks.notes import RoundNote, RoundWhy

if TYPE_CHECKING:
    from core.awards.result import Awards, PlayerAward

__all__ = [
    "Comparison",
    "Explanation",
    "Note",
    "Placed",
    "RoundNote",
    "RoundPart",
    "RoundWhy",
    "TiebreakExplanation",
    "Why",
    "explain",
    "explain_all",
    "explain_each",
]


class Why(Enum):
    """The kind of one line of an :class:`Explanation`; the values each kind fills in are
    listed beside it."""

    # How the player compares with a neighbour in their score group (Comparison.kind).
    DECIDED = "decided"
    """A tiebreak separates them: ``decided_by``, ``ours``/``theirs``, ``equal`` before it."""
    COIN_FLIP = "coin-flip"
    """The coin flip separates them (``text``: the flip, from the coin flip tiebreak)."""
    ALL_UNPLAYED = "all-unplayed"
    """US Chess 34E: the lower player's points all came from rounds not played, so the
    other is ahead before any tiebreak (profiles with ``unplayed_points_rule``)."""
    EQUAL = "equal"
    """Equal on every tiebreak (``equal``): they share the place."""

    # Notes (Note.kind).
    PLACE = "place"
    """The place itself (the headline): a short why when nothing else says it."""
    ALONE = "alone"
    """Nobody else has the player's ``score``: no tiebreak was needed."""
    SHARES_PLACE = "shares-place"
    """The player shares ``place`` with ``players``: equal on score and every tiebreak."""
    COIN_USED = "coin-used"
    """A coin flip was used in the score group (``text``: the player's flip)."""
    UNPLAYED_PRE_CHECK = "unplayed-pre-check"
    """US Chess 34E: all the player's points came from rounds not played, so a player on
    the same score who scored in play finishes ahead."""
    NO_UNPLAYED_PRE_CHECK = "no-unplayed-pre-check"
    """All the points came from rounds not played, but ``profile`` has no such pre-check
    (as SwissSys): the tiebreaks decide."""
    MEDIAN_LAST = "median-last"
    """With only ``count`` rounds, Modified Median moves last (``profile``'s rules)."""
    UNDEFINED = "undefined"
    """Tiebreak ``code`` is not defined for the player (``text``: the tiebreak's note)."""
    FILE_DISAGREES = "file-disagrees"
    """The file says otherwise about the player's score (``text``: the problem found)."""

    # A tiebreak's adjustment and variant (TiebreakExplanation.taken_off and .variant).
    TAKEN_OFF = "taken-off"
    """US Chess 34E3: Cumulative takes off points won without playing (``taken``: round,
    entry, half-points)."""
    HALF_BYE_TAKEN = "half-bye-taken"
    """``profile`` takes ½ off Cumulative for each half-point bye (``rounds``), as SwissSys
    does; US Chess 34E3 takes off only full points."""
    HALF_BYE_KEPT = "half-bye-kept"
    """``profile`` keeps the ½ of each half-point bye (``rounds``) in Cumulative, as US
    Chess 34E3 says; SwissSys takes it off."""


@dataclass(frozen=True, slots=True)
class Placed:
    """A player as an explanation names them."""

    id: int
    name: str
    place: str
    score: Fraction


@dataclass(frozen=True, slots=True)
class Note:
    """One note of an explanation: its kind and the values that kind needs (:class:`Why`)."""

    kind: Why
    players: tuple[str, ...] = ()
    code: str = ""
    score: Fraction | None = None
    place: str = ""
    rounds: tuple[int, ...] = ()
    count: int = 0
    profile: str = ""
    taken: tuple[tuple[int, EntryKind, int], ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class Comparison:
    """How the player compares with a neighbour in their score group.

    ``kind`` says what separates them (:class:`Why`); ``decided_by`` is the first criterion
    that does (a tiebreak code, or ``"unplayed"`` for the all-unplayed-points rule); None
    when they share the place. ``equal`` lists the tiebreaks before it on which they were
    level, with the value.
    """

    kind: Why
    other: Placed
    above: bool
    decided_by: str | None
    ours: Fraction | None
    theirs: Fraction | None
    equal: tuple[tuple[str, Fraction | None], ...]
    text: str = ""


@dataclass(frozen=True, slots=True)
class RoundPart:
    """What one round contributed to a tiebreak, and why (the tiebreak's own note)."""

    round: int
    entry: str
    opponent: str | None
    value: Fraction | None
    dropped: bool
    note: RoundNote | None


@dataclass(frozen=True, slots=True)
class TiebreakExplanation:
    """One tiebreak of the player: its value, its rule, and the rounds it came from.

    ``note`` is the tiebreak's own words for the rule it applied (its breakdown's note);
    ``taken_off`` says what was subtracted after the sum, ``variant`` which variant of the
    rule the profile uses where it matters to this player.
    """

    code: str
    name: str
    rule: str
    value: Fraction | None
    shown: str
    note: str
    parts: tuple[RoundPart, ...]
    adjustment: Fraction
    taken_off: Note | None = None
    variant: Note | None = None
    digits: int | None = None
    """The decimals the tiebreak is shown with (None: exact)."""


@dataclass(frozen=True, slots=True)
class Explanation:
    """Everything a player (or their parent) needs to see why they finished where they did."""

    player: Placed
    rank: int
    rounds: int
    profile: str
    order: tuple[str, ...]
    score_group: tuple[Placed, ...]
    comparisons: tuple[Comparison, ...]
    tiebreaks: tuple[TiebreakExplanation, ...]
    notes: tuple[Note, ...] = field(default=())
    after_round: int | None = None
    award: PlayerAward | None = None
    """The player's awards and their reasons, when a prize list was given
    (:func:`core.awards.compute_awards`)."""

    @property
    def alone(self) -> bool:
        """Nobody else has the player's score: no tiebreak was needed for their place."""
        return len(self.score_group) == 1

    @property
    def reason(self) -> Comparison | Note:
        """The short why of the place: the decisive comparison with the player above in
        the score group (or below, for the group's first), else why no tiebreak was needed,
        else the place itself."""
        above = [c for c in self.comparisons if c.above]
        if above:
            return above[0]
        if self.comparisons:
            return self.comparisons[0]
        if self.alone:
            return Note(Why.ALONE, score=self.player.score)
        return Note(Why.PLACE, place=self.player.place, score=self.player.score)

    def tiebreak(self, code: str) -> TiebreakExplanation:
        """The explanation of tiebreak ``code`` (one of :attr:`order`)."""
        return next(tb for tb in self.tiebreaks if tb.code == code)


def explain(
    standings: Standings,
    player_id: int,
    after_round: int | None = None,
    awards: Awards | None = None,
) -> Explanation:
    """Explain the place of the player with starting number ``player_id``, and with
    ``awards`` (of the same standings) his awards too.

    ``after_round`` only labels the explanation (the standings were computed after that round).
    """
    group = standings.score_group(player_id)
    refs = {r.player_index: _ref(r) for r in group}
    members = tuple(refs[r.player_index] for r in group)
    explained = _explain(standings, standings.line_of(player_id), group, refs, members, after_round)
    if awards is None:
        return explained
    return replace(explained, award=awards.award(player_id))


def explain_all(standings: Standings) -> dict[int, Explanation]:
    """Every player's :func:`explain`, by starting number: each score group is gathered
    once for all its players (explaining them one by one costs the group's size each).

    >>> from core.examples import load_example
    >>> from core.standings import compute_standings
    >>> s = compute_standings(load_example(), "mdchess")
    >>> explain_all(s) == {row.player.id: explain(s, row.player.id) for row in s.rows}
    True
    """
    return {e.player.id: e for e in explain_each(standings)}


def explain_each(standings: Standings) -> Iterator[Explanation]:
    """:func:`explain_all`'s explanations one at a time, in the order of the standings' rows:
    a caller that words each and moves on never holds them all (a section of thousands of
    players has hundreds of thousands of round parts).

    >>> from core.examples import load_example
    >>> from core.standings import compute_standings
    >>> s = compute_standings(load_example(), "mdchess")
    >>> [e.player.id for e in explain_each(s)] == [row.player.id for row in s.rows]
    True
    """
    rows = standings.rows
    start = 0
    while start < len(rows):
        end = start + 1
        while end < len(rows) and rows[end].half_points == rows[start].half_points:
            end += 1
        group = rows[start:end]
        refs = {r.player_index: _ref(r) for r in group}
        members = tuple(refs[r.player_index] for r in group)
        facts = _GroupFacts.of(group)
        for position in range(start, end):
            yield _explain(standings, position, group, refs, members, facts=facts)
        start = end


@dataclass(frozen=True, slots=True)
class _GroupFacts:
    """What every explanation of a score group says about the group: who shares each
    place, and whether a coin flip separated any of them (found once per group, not once
    per player: a group can hold thousands)."""

    by_place: dict[str, tuple[Standing, ...]]
    coin: bool

    @classmethod
    def of(cls, group: tuple[Standing, ...]) -> _GroupFacts:
        by_place: dict[str, list[Standing]] = {}
        for r in group:
            by_place.setdefault(r.place, []).append(r)
        coin = any(r.separated_by == "COIN" for r in group)
        return cls({place: tuple(rows) for place, rows in by_place.items()}, coin)


def _explain(
    standings: Standings,
    position: int,
    group: tuple[Standing, ...],
    refs: dict[int, Placed],
    members: tuple[Placed, ...],
    after_round: int | None = None,
    facts: _GroupFacts | None = None,
) -> Explanation:
    """The explanation of the player at ``position`` of the standings, in score ``group``
    (whose players' references are ``refs``, ``members`` in rank order, and ``facts``
    when already found)."""
    row = standings.rows[position]
    registry = tiebreaks_of(standings.profile.family)
    comparisons = []
    for neighbour, above in ((position - 1, True), (position + 1, False)):
        if 0 <= neighbour < len(standings.rows):
            other = standings.rows[neighbour]
            if other.half_points == row.half_points:
                comparisons.append(_compare(standings, row, other, above, refs))
    tournament = standings.tournament
    rounds = [
        (_entry_text(e), tournament.player(e.opponent).name if e.opponent is not None else None)
        for e in tournament.players[row.player_index].entries
    ]
    tiebreaks = tuple(
        _tiebreak(standings, registry[c], row.player_index, rounds) for c in standings.order
    )
    return Explanation(
        player=refs[row.player_index],
        rank=row.rank,
        rounds=standings.tournament.rounds,
        profile=standings.profile.label,
        order=standings.order,
        score_group=members,
        comparisons=tuple(comparisons),
        tiebreaks=tiebreaks,
        notes=tuple(_notes(standings, row, group, facts or _GroupFacts.of(group))),
        after_round=after_round,
    )


def _ref(row: Standing) -> Placed:
    return Placed(row.player.id, row.player.name, row.place, row.score)


def _compare(
    standings: Standings, row: Standing, other: Standing, above: bool, refs: dict[int, Placed]
) -> Comparison:
    """The comparison with a neighbour: the standings' own ``separated_by`` (the first
    criterion on which the lower of the two differs), and the values before it."""
    upper, lower = (other, row) if above else (row, other)
    decided_by = lower.separated_by
    them = refs[other.player_index]
    if decided_by == UNPLAYED:
        return Comparison(Why.ALL_UNPLAYED, them, above, UNPLAYED, None, None, ())
    equal: list[tuple[str, Fraction | None]] = []
    for code in standings.order:
        if code == decided_by:
            break
        equal.append((code, standings.value(code, upper.player_index)))
    if decided_by is None:
        return Comparison(Why.EQUAL, them, above, None, None, None, tuple(equal))
    up = standings.value(decided_by, upper.player_index)
    low = standings.value(decided_by, lower.player_index)
    ours, theirs = (low, up) if above else (up, low)
    if decided_by == "COIN":
        flip = standings.breakdown("COIN", upper.player_index).note
        return Comparison(Why.COIN_FLIP, them, above, "COIN", ours, theirs, tuple(equal), flip)
    return Comparison(Why.DECIDED, them, above, decided_by, ours, theirs, tuple(equal))


def _entry_text(entry: RoundEntry) -> str:
    """The entry as a crosstable writes it, but a zero-point bye in words: its crosstable
    letter ``U`` is TRF-16's code for the pairing-allocated (full-point) bye."""
    if entry.kind is EntryKind.ZERO_BYE:
        return str(entry.kind.value)
    return str(entry) or "absent"


def _tiebreak(
    standings: Standings, tb: Tiebreak, index: int, rounds: Sequence[tuple[str, str | None]]
) -> TiebreakExplanation:
    """One tiebreak of the player at ``index``, whose ``rounds`` are each round's entry as
    written (:func:`_entry_text`) and opponent's name."""
    b = standings.breakdown(tb.code, index)
    scale = standings.columns[tb.code].scale
    value = standings.value(tb.code, index)
    notes = tb.round_notes(standings.section, index, b)
    parts = []
    dropped = b.dropped
    for r, contribution in enumerate(b.per_round, start=1):
        entry, opponent = rounds[r - 1]
        amount = None if contribution is None else ratio(contribution, scale)
        parts.append(RoundPart(r, entry, opponent, amount, r in dropped, notes[r - 1]))
    adjustment = ratio(b.adjustment, scale)
    return TiebreakExplanation(
        code=tb.code,
        name=tb.name,
        rule=tb.rule,
        value=value,
        shown=display(value, tb.digits, "undefined"),
        note=b.note,
        parts=tuple(parts),
        adjustment=adjustment,
        taken_off=_taken_off(notes) if adjustment else None,
        variant=_cumulative_variant(standings, notes),
        digits=tb.digits,
    )


def _taken_off(notes: tuple[RoundNote | None, ...]) -> Note | None:
    """Cumulative's subtraction (US Chess 34E3), round by round, as its round notes say."""
    taken = tuple(
        (r, n.entry, n.taken)
        for r, n in enumerate(notes, start=1)
        if n is not None and n.taken and n.entry is not None
    )
    return Note(Why.TAKEN_OFF, taken=taken) if taken else None


def _cumulative_variant(standings: Standings, notes: tuple[RoundNote | None, ...]) -> Note | None:
    """Which Cumulative the profile uses, said where it matters to this player (they had a
    half-point bye): SwissSys takes ½ off for it, US Chess 34E3 only full points."""
    profile = standings.profile
    halves = tuple(
        r
        for r, n in enumerate(notes, start=1)
        if n is not None and n.kind is RoundWhy.RUNNING_SCORE and n.entry is EntryKind.HALF_BYE
    )
    if not halves or profile.family is not Family.USCF:
        return None
    kind = Why.HALF_BYE_TAKEN if profile.cumulative_half_bye else Why.HALF_BYE_KEPT
    return Note(kind, rounds=halves, profile=profile.label)


def _notes(
    standings: Standings, row: Standing, group: tuple[Standing, ...], facts: _GroupFacts
) -> list[Note]:
    notes = []
    sharing = tuple(r.player.name for r in facts.by_place[row.place] if r is not row)
    if sharing:
        notes.append(Note(Why.SHARES_PLACE, players=sharing, place=row.place))
    if facts.coin:
        flip = standings.breakdown("COIN", row.player_index).note
        notes.append(Note(Why.COIN_USED, code="COIN", text=flip))
    profile = standings.profile
    if row.half_points and not standings.section.play_scores[row.player_index]:
        if profile.unplayed_points_rule:
            notes.append(Note(Why.UNPLAYED_PRE_CHECK, score=row.score))
        elif profile.family is Family.USCF:
            notes.append(Note(Why.NO_UNPLAYED_PRE_CHECK, score=row.score, profile=profile.label))
    if profile.median_last_when_short and standings.order != profile.tiebreaks:
        rounds = standings.tournament.rounds
        notes.append(Note(Why.MEDIAN_LAST, code="MM", count=rounds, profile=profile.name))
    for code in standings.order:
        if standings.value(code, row.player_index) is None and code != "H2H":
            text = standings.breakdown(code, row.player_index).note
            notes.append(Note(Why.UNDEFINED, code=code, text=text))
    if len(group) == 1:
        notes.append(Note(Why.ALONE, score=row.score))
    notes += [
        Note(Why.FILE_DISAGREES, players=(row.player.name,), text=w.message)
        for w in standings.tournament.warnings
        if w.player == row.player.id
    ]
    return notes

"""Why one round contributed what it did to a tiebreak: a kind and its values, never words.

A tiebreak says why each round of a player counts what it does, so that an explanation
reads the tiebreak instead of deriving the rule again. The notes come in two ways, both read
through :meth:`core.tiebreaks.base.Tiebreak.round_notes`:

- FIDE's tiebreaks (C.07 arts. 14–16) word them as they compute, in
  :attr:`~core.tiebreaks.base.Breakdown.round_notes` (empty for most rounds: a plain game);
  each becomes a :data:`RoundWhy.RULE` note holding those words.
- US Chess's tiebreaks (Rule 34E) give theirs on demand, from
  :attr:`~core.tiebreaks.base.Tiebreak.notes`: a function of the section and one player, run
  only when an explanation asks, so standings without one pay nothing for them.

Each :class:`RoundNote` carries its kind (:class:`RoundWhy`) and the values that kind needs
(the opponent, their score and their adjusted score, the player's own entry, the points);
:mod:`core.explain_render` words them.

>>> from core.examples import load_example
>>> from core.profiles import PROFILES
>>> from core.tiebreaks import tiebreaks_of
>>> from core.tiebreaks.base import Section
>>> section = Section(load_example(), PROFILES["mdchess"])
>>> mm = tiebreaks_of("uscf")["MM"]
>>> note = mm.round_notes(section, 3, mm.compute(section).breakdowns[3])[1]
>>> note.kind, note.opponent, note.scored
(<RoundWhy.OPPONENT_SCORE: 'opponent-score'>, 'Player J', Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING

from core.model import EntryKind

if TYPE_CHECKING:  # base imports this module: the types only
    from core.tiebreaks.base import Breakdown, Section


class RoundWhy(Enum):
    """What a round's contribution to a tiebreak is (:class:`RoundNote`'s ``kind``).

    The values each kind fills in are listed beside it.
    """

    OPPONENT_SCORE = "opponent-score"
    """The opponent's score (``opponent``, ``scored``); under US Chess 34E1/34E2 their
    adjusted score where it differs (``counted``, because of the rounds in ``half``)."""
    SHARE_OF_OPPONENT = "share-of-opponent"
    """US Chess Sonneborn-Berger: the opponent's adjusted score, all, half or none of it by
    the result (``result``), with the values of :data:`OPPONENT_SCORE`."""
    OWN_UNPLAYED = "own-unplayed"
    """US Chess 34E1/34E2: the player's own unplayed round (``entry``) counts as an opponent
    with adjusted score 0."""
    NOT_PLAYED_NOTHING = "not-played-nothing"
    """US Chess Sonneborn-Berger: a round not played counts nothing."""
    RUNNING_SCORE = "running-score"
    """US Chess 34E3 Cumulative: the player's score after the round (``entry``); ``taken``
    half-points of it are taken off as won without playing."""
    OPPONENT_CUMULATIVE = "opponent-cumulative"
    """Opponents' Cumulative: the opponent's (``opponent``) Cumulative."""
    NOT_PLAYED_ZERO = "not-played-zero"
    """Opponents' Cumulative: a round not played adds 0."""
    KASHDAN = "kashdan"
    """Kashdan: ``points`` for the result (``entry``): 4 a win, 2 a draw, 1 a loss, else 0."""
    WITH_BLACK = "with-black"
    """Most Blacks: a game played with Black."""
    AGAINST_TIED = "against-tied"
    """Result between tied players: a game against a player still tied."""
    OPPONENT_RATING = "opponent-rating"
    """A rating tiebreak: the opponent's rating."""
    UNRATED = "unrated"
    """A rating tiebreak: the opponent is unrated and skipped."""
    NOT_PLAYED = "not-played"
    """A rating tiebreak: a round not played takes no part."""
    RULE = "rule"
    """A FIDE tiebreak's own words for the round (``text``: C.07 16.3's draws, 16.4's dummy
    opponent and its cap, 15's round robin)."""


@dataclass(frozen=True, slots=True)
class RoundNote:
    """Why one round contributed what it did: its kind and the values that kind needs.

    ``half`` lists the opponent's rounds (round, entry) that their adjusted score counts
    ½ instead of what they scored (US Chess 34E1); ``taken`` is what US Chess 34E3 takes
    off Cumulative for the round, in half-points.
    """

    kind: RoundWhy
    opponent: str = ""
    opponent_id: int | None = None
    scored: Fraction | None = None
    counted: Fraction | None = None
    half: tuple[tuple[int, EntryKind], ...] = ()
    entry: EntryKind | None = None
    result: EntryKind | None = None
    points: int | None = None
    taken: int = 0
    text: str = ""


Notes = tuple[RoundNote | None, ...]
"""One note per round (None: the round's entry says it all)."""
NotesFunction = Callable[["Section", int, "Breakdown"], Notes]
"""How a tiebreak gives one player's round notes on demand (section, player index, the
player's breakdown)."""


def worded(round_notes: tuple[str, ...], rounds: int) -> Notes:
    """A tiebreak's own words for its rounds (``Breakdown.round_notes``, FIDE's) as notes of
    kind :data:`RoundWhy.RULE`; None for a round without words.

    >>> [n and n.text for n in worded(("", "capped"), 2)], worded((), 2)
    ([None, 'capped'], (None, None))
    """
    if not round_notes:
        return (None,) * rounds
    return tuple([RoundNote(RoundWhy.RULE, text=t) if t else None for t in round_notes])


def opponent_scores(section: Section, index: int, breakdown: Breakdown) -> Notes:
    """FIDE's Buchholz and Sonneborn-Berger family (C.07 8.1, 9.1): the tiebreak's own words
    for a round where it gave some (16.3, 16.4, 15), else for a game played the opponent's
    score."""
    notes = list(worded(breakdown.round_notes, section.rounds))
    players = section.tournament.players
    for r, o in enumerate(section.opponents[index]):
        if notes[r] is None and o >= 0:
            opponent = players[o]
            notes[r] = RoundNote(
                RoundWhy.OPPONENT_SCORE,
                opponent.name,
                opponent.id,
                Fraction(section.scores[o], 2),
            )
    return tuple(notes)

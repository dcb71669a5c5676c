"""FIDE tiebreaks built on the opponents' scores: Buchholz and its modifiers, Fore Buchholz,
Average of Opponents' Buchholz, Sonneborn-Berger and Koya (C.07 arts. 8, 9, 14).

Every round contributes: a game (or in a round robin a forfeit, 15.2) the opponent's score
as an opponent (16.3); in a Swiss the player's own unplayed round a dummy opponent (16.4).
Values are half-points (Buchholz) and quarter-points (Sonneborn-Berger); ``round_notes`` say
where a round's number came from. The worked examples are FIDE's published exercises
(TEC, "Exercises in Tie-Breaking"; ``tests/test_fide_exercises.py`` checks them all).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from operator import mul
from typing import NamedTuple, cast

from core.model import FORFEITS, HALF_POINTS, PLAYED
from core.numbers import half_points
from core.tiebreaks.base import Breakdown, Column, Section, breakdown
from core.tiebreaks.fide_unplayed import (
    NO_CUT,
    FideView,
    build_fore_view,
    build_view,
    cut,
    cut_least,
)


class Contributions(NamedTuple):
    """One player's rounds as Buchholz sees them: the opponent's (or dummy's) score per
    round (None: the round adds nothing), which rounds are voluntarily unplayed, and why."""

    scores: tuple[int | None, ...]
    vurs: tuple[bool, ...]
    notes: tuple[str, ...]


_new_tuple = tuple.__new__  # Contributions(...) without the named tuple's Python __new__


def contributions(
    view: FideView, i: int, opponent_notes: Sequence[str] | None = None
) -> Contributions:
    """The opponents' scores of player ``i``, round by round (C.07 8.1, 15.2, 16.3, 16.4).

    ``opponent_notes``: every player's :meth:`FideView.opponent_note` by index, when a
    caller has them (each player is an opponent about once a round)."""
    games = FORFEITS | PLAYED if view.round_robin else PLAYED
    adjusted = view.adjusted
    note_of: Callable[[int], str] = (
        view.opponent_note if opponent_notes is None else opponent_notes.__getitem__
    )
    if games.issuperset(view.kinds[i]):  # every round a game: most players of a Swiss
        paired = view.paired[i]
        return _new_tuple(
            Contributions,
            (
                tuple(map(adjusted.__getitem__, paired)),
                (False,) * len(paired),
                tuple(map(note_of, paired)),
            ),
        )
    scores: list[int | None] = []
    vurs: list[bool] = []
    notes: list[str] = []
    for r, (kind, opponent) in enumerate(zip(view.kinds[i], view.paired[i], strict=True)):
        if kind in games:
            scores.append(adjusted[opponent])
            vurs.append(False)
            notes.append(note_of(opponent))
        elif view.round_robin:
            scores.append(None)
            vurs.append(False)
            notes.append("no game in a round robin: adds nothing (C.07 15)")
        else:
            value, note = view.dummy(i, r)
            scores.append(value)
            vurs.append(view.is_vur(i, r))
            notes.append(note)
    return Contributions(tuple(scores), tuple(vurs), tuple(notes))


def _all(view: FideView) -> list[Contributions]:
    notes = [view.opponent_note(j) if drawn else "" for j, drawn in enumerate(view.drawn)]
    return [contributions(view, i, notes) for i in range(len(view.ids))]


def section_contributions(section: Section) -> list[Contributions]:
    """Every player's contributions (shared by the Buchholz and Sonneborn-Berger family)."""
    return _all(section.memo(build_view))


def fore_contributions(section: Section) -> list[Contributions]:
    """The same with every last-round pairing counted as a draw (Fore Buchholz)."""
    return _all(section.memo(build_fore_view))


def _kept(values: tuple[int | None, ...], removed: tuple[int, ...]) -> int:
    """The sum of the values taking part, without the removed rounds (1-based)."""
    present = values if None not in values else [v for v in values if v is not None]
    return sum(cast(Sequence[int], present)) - sum([values[r - 1] or 0 for r in removed])


_MODIFIERS = {(0, 0): "", (1, 0): "Cut-1", (2, 0): "Cut-2", (1, 1): "Median-1", (2, 2): "Median-2"}


def _buchholz(
    section: Section,
    code: str,
    low: int,
    high: int,
    parts: Callable[[Section], list[Contributions]] = section_contributions,
    name: str = "Buchholz: the sum of the opponents' scores (C.07 8.1)",
) -> Column:
    breakdowns = []
    modifier = _MODIFIERS[low, high]
    notes: dict[str, str] = {}  # by what was cut: a few dozen different notes
    for scores, vurs, round_notes in section.memo(parts):
        if not modifier:
            removed = NO_CUT
        elif low == 1 and not high and None not in scores:
            removed = cut_least(scores, vurs)  # type: ignore[arg-type]
        else:
            removed = cut(scores, [s or 0 for s in scores], vurs, low, high)
        note = notes.get(removed.note)
        if note is None:
            said = f"; {modifier} (C.07 14): {removed.note}" if modifier else ""
            note = notes[removed.note] = name + said
        kept = _kept(scores, removed.rounds)
        breakdowns.append(breakdown(kept, scores, removed.rounds, 0, note, round_notes))
    return Column(code, 2, tuple(breakdowns))


def buchholz(section: Section) -> Column:
    """``BH`` Buchholz (C.07 8.1): the sum of the opponents' scores.

    Exercise 4, player 4 (W 12, half-point bye, W 13, D 3, D 1): 3 + 3½ + 1½ + 3½ + 3½ = 15,
    where 12 counts 3 (two zero-point byes at the end count as draws, 16.3) and the bye is a
    dummy opponent with player 4's own 3½ (16.4); the 2026 text caps the dummy at 2½: 14.
    """
    return _buchholz(section, "BH", 0, 0)


def buchholz_cut1(section: Section) -> Column:
    """``BH/C1`` Buchholz Cut-1 (C.07 14.1, 16.5): without the least significant value.

    Exercise 7, player 4: the half-point bye's dummy (3½) is cut before opponent 13's 1½,
    because a voluntarily unplayed round is cut first: 15 − 3½ = 11½.
    """
    return _buchholz(section, "BH/C1", 1, 0)


def buchholz_cut2(section: Section) -> Column:
    """``BH/C2`` Buchholz Cut-2 (C.07 14.2): without the two least significant values.

    Player 4 of the exercises: 15 − 3½ (the bye) − 1½ = 10.
    """
    return _buchholz(section, "BH/C2", 2, 0)


def buchholz_median1(section: Section) -> Column:
    """``BH/M1`` Median Buchholz-1 (C.07 14.3): without the least and the most significant
    values. Player 2 of the exercises (opponents 1, 1½, 3½, 3½, 3½): 13 − 1 − 3½ = 8½."""
    return _buchholz(section, "BH/M1", 1, 1)


def buchholz_median2(section: Section) -> Column:
    """``BH/M2`` Median Buchholz-2 (C.07 14.4): without the two least and the two most
    significant values. Player 2 of the exercises: 13 − 1 − 1½ − 3½ − 3½ = 3½."""
    return _buchholz(section, "BH/M2", 2, 2)


def fore_buchholz(section: Section) -> Column:
    """``FB`` Fore Buchholz (C.07 8.2): Buchholz with every pairing of the last round counted
    as a draw, for the opponents and for the player's own dummy.

    Exercise 10, player 9 (L 1, L 10, half-point bye, forfeit loss, pairing-allocated bye):
    1's last-round draw stays 3½, 10's last-round loss becomes a draw (1½); the three dummies
    have 9's own 1½ (the pairing-allocated bye was not a pairing): 3½ + 1½ + 3 × 1½ = 9½.
    """
    return _buchholz(
        section,
        "FB",
        0,
        0,
        fore_contributions,
        "Fore Buchholz: the opponents' scores with the last round drawn (C.07 8.2)",
    )


def average_of_opponents_buchholz(section: Section) -> Column:
    """``AOB`` Average of Opponents' Buchholz (C.07 8.3): the Buchholz of the opponents met
    over the board, averaged; exact (shown to two decimals); undefined without a game.

    Exercise 9, player 4 (opponents' Buchholz 11½, 14, 15½, 12½): 53½ / 4 = 13.375 → 13.38.
    """
    view = section.memo(build_view)
    bh = [b.units for b in section.memo(buchholz).breakdowns]
    breakdowns = []
    for i in range(len(view.ids)):
        per_round = tuple(
            bh[view.paired[i][r]] if view.counts_as_game(i, r) else None for r in range(view.rounds)
        )
        met = [v for v in per_round if v is not None]
        if not met:
            breakdowns.append(Breakdown(None, per_round, note="no game played: undefined"))
            continue
        average = Fraction(sum(int(v) for v in met), len(met))
        breakdowns.append(
            Breakdown(
                average,
                per_round,
                (),
                0,
                f"average of the Buchholz of {len(met)} opponent"
                f"{'s' if len(met) > 1 else ''} met (C.07 8.3)",
            )
        )
    return Column("AOB", 2, tuple(breakdowns))


def _sonneborn_berger(section: Section, code: str, low: int) -> Column:
    view = section.memo(build_view)
    breakdowns = []
    points = HALF_POINTS.__getitem__  # view.points(i, r) of every round
    note = "each opponent's score times the points scored against them (C.07 9.1)"
    for i, c in enumerate(section.memo(section_contributions)):
        scores = c.scores
        if None in scores:
            values = tuple(
                [
                    None if s is None else s * points(k)
                    for s, k in zip(scores, view.kinds[i], strict=True)
                ]
            )
        else:
            values = tuple(map(mul, scores, map(points, view.kinds[i])))
        if not low:
            breakdowns.append(breakdown(_kept(values, ()), values, (), 0, note, c.notes))
            continue
        removed = cut(values, [s or 0 for s in scores], c.vurs, low, 0)
        kept = _kept(values, removed.rounds)
        said = (
            "; Cut-1 (C.07 14.1): the least significant value is the contribution of "
            f"the opponent with the lowest score; {removed.note}"
        )
        breakdowns.append(breakdown(kept, values, removed.rounds, 0, note + said, c.notes))
    return Column(code, 4, tuple(breakdowns))


def sonneborn_berger(section: Section) -> Column:
    """``SB`` Sonneborn-Berger (C.07 9.1): each opponent's score times the points scored
    against them, the player's own unplayed rounds against their dummy (16.4).

    Exercise 12, player 4: 3 (beat 12) + ½ × 3½ (the half-point bye's dummy) + 1½ (beat 13)
    + ½ × 3½ + ½ × 3½ = 9¾; 2026 text (dummy capped at 2½): 9¼.
    """
    return _sonneborn_berger(section, "SB", 0)


def sonneborn_berger_cut1(section: Section) -> Column:
    """``SB/C1`` Sonneborn-Berger Cut-1 (C.07 14.1, 16.5): the least significant value is the
    contribution of the opponent with the lowest score; a VUR's lowest contribution is cut
    instead when it is not lower.

    Exercise 13, player 4: 9¾ − 1¾ (the bye's ½ × 3½, not lower than 13's 1½) = 8; 2026 text:
    the bye gives ½ × 2½ = 1¼, lower than 1½, so 13's 1½ is cut: 9¼ − 1½ = 7¾.
    """
    return _sonneborn_berger(section, "SB/C1", 1)


def koya(section: Section) -> Column:
    """``KS`` Koya (C.07 9.2; for round robins): the points scored against the opponents who
    scored at least half of the maximum possible score.

    The maximum is counted in games: the most rounds any player was paired (a player sits out
    once a cycle in a round robin of an odd number). 6-player round robin, 5 games: opponents
    with 2½ or more count.
    """
    view = section.memo(build_view)
    most_games = max((sum(1 for o in row if o >= 0) for row in view.paired), default=0)
    breakdowns = []
    for i in range(len(view.ids)):
        per_round: list[int | None] = []
        for r in range(view.rounds):
            opponent = view.paired[i][r]
            strong = view.counts_as_game(i, r) and view.scores[opponent] >= most_games
            per_round.append(view.points(i, r) if strong else None)
        total = sum(v for v in per_round if v is not None)
        breakdowns.append(
            Breakdown(
                total,
                tuple(per_round),
                (),
                0,
                f"points against opponents with {half_points(most_games)} "
                f"or more of {most_games} (C.07 9.2)",
            )
        )
    return Column("KS", 2, tuple(breakdowns))

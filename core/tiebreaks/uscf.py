"""US Chess tiebreaks (Official Rules of Chess, 7th ed., Rule 34E; core/RULEBOOK.md, ``uscf``).

Scores are in half-points throughout (a win is 2). The opponents' scores that Modified
Median, Median, Solkoff and Sonneborn-Berger use are *adjusted* (34E1): each of the
opponent's unplayed rounds counts ½ instead of what it scored; the player's own unplayed
rounds count as opponents with adjusted score 0.

Each tiebreak also says why each round counts what it does (its ``*_notes`` function, a
:class:`~core.tiebreaks.notes.RoundNote` per round), computed only when an explanation
asks: the columns themselves carry no notes, so standings pay nothing for them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from itertools import accumulate

from core.model import UNPLAYED_WINS, Colour, EntryKind
from core.profiles import Profile
from core.tiebreaks.base import Breakdown, Column, Section, breakdown
from core.tiebreaks.notes import Notes, RoundNote, RoundWhy


def median_cuts(own_half_points: int, rounds: int, *, modified: bool) -> tuple[int, int, str]:
    """How many of the lowest and highest opponents' scores to discard, and why.

    Rule 34E1 (Modified Median): plus score (more than R/2): the lowest; even score
    (exactly R/2): the highest and the lowest; minus score: the highest. 34E (Median):
    the highest and the lowest whatever the score. From 9 rounds, two at each end.

    >>> median_cuts(8, 5, modified=True)  # 4 of 5: plus score
    (1, 0, 'plus score: the lowest is dropped')
    >>> median_cuts(9, 9, modified=True)[:2]  # 4½ of 9: even score, 9+ rounds
    (2, 2)
    >>> median_cuts(2, 5, modified=False)
    (1, 1, 'Median: the highest and the lowest are dropped')
    """
    n = 2 if rounds >= 9 else 1
    which = ("the two lowest", "the two highest") if n == 2 else ("the lowest", "the highest")
    if not modified:
        return n, n, f"Median: {which[1]} and {which[0]} are dropped"
    if own_half_points > rounds:
        return n, 0, f"plus score: {which[0]} {'are' if n == 2 else 'is'} dropped"
    if own_half_points == rounds:
        return n, n, f"even score: {which[1]} and {which[0]} are dropped"
    return 0, n, f"minus score: {which[1]} {'are' if n == 2 else 'is'} dropped"


def trim(
    values: Sequence[int], lowest: int, highest: int, played: Sequence[bool] | None = None
) -> tuple[int, tuple[int, ...]]:
    """Sum of ``values`` without the ``lowest`` smallest and ``highest`` largest.

    Returns the sum and the dropped rounds (1-based positions). Among equal values the
    player's own unplayed rounds are dropped as lowest first, then earlier rounds.

    WinTD's Modified Median example, Player B (4-1, opponents 3, 2, 5, 3, 3):

    >>> trim([3, 2, 5, 3, 3], 1, 0)
    (14, (2,))
    >>> trim([3, 2, 5, 3, 3], 1, 1)  # Median
    (9, (2, 3))
    """
    n = len(values)
    if lowest + highest >= n:
        return 0, tuple(range(1, n + 1))
    if not lowest and not highest:
        return sum(values), ()
    # One total order does both ends: by value, then (with ``played``) an own unplayed round
    # below a played one, then by round; the lowest are its first, the highest its last.
    if played is None:  # a stable sort keeps equal values in round order
        order = sorted(range(n), key=values.__getitem__)
    else:
        keys = [(v * 2 + p) * n + r for r, (v, p) in enumerate(zip(values, played, strict=True))]
        order = sorted(range(n), key=keys.__getitem__)
    drop = order[:lowest] + order[n - highest :]
    return sum(values) - sum([values[r] for r in drop]), tuple(sorted([r + 1 for r in drop]))


def _median_family(section: Section, code: str, *, modified: bool, cut: bool) -> Column:
    rounds = section.rounds
    cuts = {score: median_cuts(score, rounds, modified=modified) for score in set(section.scores)}
    columns: list[Breakdown] = []
    for i, contributions in enumerate(section.opponent_adjusted):
        if not cut:
            columns.append(breakdown(sum(contributions), contributions, (), 0, "nothing dropped"))
            continue
        low, high, note = cuts[section.scores[i]]
        opponents = section.opponents[i]
        played = [o >= 0 for o in opponents] if -1 in opponents else None
        total, dropped = trim(contributions, low, high, played)
        columns.append(breakdown(total, contributions, dropped, 0, note))
    return Column(code, 2, tuple(columns))


def modified_median(section: Section) -> Column:
    """``MM`` Modified Median (Rule 34E1): adjusted opponents' scores, trimmed by own score.

    MD Chess's scholastic example, Player A (3 of 4, opponents 1, 3, 2½, 3): plus score,
    the lowest (1) is dropped: 3 + 2½ + 3 = 8½.
    """
    return _median_family(section, "MM", modified=True, cut=True)


def median(section: Section) -> Column:
    """``MED`` Median (Harkness, Rule 34E): highest and lowest dropped whatever the score."""
    return _median_family(section, "MED", modified=False, cut=True)


def solkoff(section: Section) -> Column:
    """``SOLK`` Solkoff (Rule 34E2): the sum of all R opponents' adjusted scores.

    Own unplayed rounds add 0. MD Chess's scholastic example, Player A: 1 + 3 + 2½ + 3 = 9½.
    """
    return _median_family(section, "SOLK", modified=False, cut=False)


def cumulative_subtraction(profile: Profile) -> dict[EntryKind, int]:
    """What Cumulative takes off per unplayed round, in half-points, by kind (Rule 34E3):
    the whole point of a full-point bye or forfeit win; with the profile option
    ``cumulative_half_bye`` (SwissSys) also the ½ of a half-point bye.

    >>> from core.profiles import PROFILES
    >>> cumulative_subtraction(PROFILES["swisssys"])[EntryKind.HALF_BYE]
    1
    >>> EntryKind.HALF_BYE in cumulative_subtraction(PROFILES["uscf"])
    False
    """
    subtract = dict.fromkeys(UNPLAYED_WINS, 2)
    if profile.cumulative_half_bye:
        subtract[EntryKind.HALF_BYE] = 1
    return subtract


def cumulative_breakdowns(section: Section) -> list[Breakdown]:
    """The Cumulative of every player, in half-points (shared by ``CUM`` and ``OCUM``)."""
    subtract = dict.fromkeys(EntryKind, 0)
    subtract.update(cumulative_subtraction(section.profile))
    result: list[Breakdown] = []
    for kinds, opponents in zip(section.kinds, section.opponents, strict=True):
        per_round = tuple(accumulate([k.half_points for k in kinds]))
        adjustment = -sum([subtract[k] for k in kinds]) if -1 in opponents else 0
        result.append(
            breakdown(
                sum(per_round) + adjustment, per_round, (), adjustment, "running scores added up"
            )
        )
    return result


def cumulative(section: Section) -> Column:
    """``CUM`` Cumulative (Rule 34E3): the sum of the running scores after each round.

    Minus 1 for each round won without playing (full-point bye, forfeit win); with the
    profile option ``cumulative_half_bye`` (SwissSys, profile ``swisssys``) also minus ½
    per half-point bye (:func:`cumulative_subtraction`). The M-S-C-O and Michigan Chess
    Association texts' example: bye, W, L, D, W → 1 + 2 + 2 + 2½ + 3½ − 1 = 10.
    """
    return Column("CUM", 2, tuple(section.memo(cumulative_breakdowns)))


def opponents_cumulative(section: Section) -> Column:
    """``OCUM`` Opponents' Cumulative (Rule 34E): the sum of the Cumulatives of the
    opponents actually played; the player's own unplayed rounds add 0.

    MD Chess's scholastic example, Player D played B, J, I, E (Cumulatives 7, 0, 1, 8): 16.
    """
    cums = [int(b.units or 0) for b in section.memo(cumulative_breakdowns)]
    cums.append(0)  # index -1, an own unplayed round, adds 0
    column = []
    for opps in section.opponents:
        per_round = tuple([cums[o] for o in opps])
        column.append(breakdown(sum(per_round), per_round, (), 0, "opponents' Cumulatives"))
    return Column("OCUM", 2, tuple(column))


_KASHDAN = {EntryKind.WIN: 4, EntryKind.DRAW: 2, EntryKind.LOSS: 1}


def kashdan(section: Section) -> Column:
    """``KASH`` Kashdan (Rule 34E): 4 per win, 2 per draw, 1 per loss, 0 per unplayed round."""
    column = []
    for kinds in section.kinds:
        per_round = tuple(_KASHDAN.get(k, 0) for k in kinds)
        column.append(Breakdown(sum(per_round), per_round, (), 0, "4 a win, 2 a draw, 1 a loss"))
    return Column("KASH", 1, tuple(column))


def sonneborn_berger(section: Section) -> Column:
    """``SB`` Sonneborn-Berger (Rule 34E): adjusted scores of opponents beaten plus half
    the adjusted scores of opponents drawn; games played only.

    Kept in quarter-points; profile option ``sb_doubled`` shows 2 × beaten + 1 × drawn as
    WinTD does (the same numbers read in half-points).
    """
    adjusted = section.adjusted
    column = []
    for kinds, opps in zip(section.kinds, section.opponents, strict=True):
        per_round = tuple(
            2 * adjusted[o] if k is EntryKind.WIN else adjusted[o] if k is EntryKind.DRAW else 0
            for k, o in zip(kinds, opps, strict=True)
        )
        column.append(Breakdown(sum(per_round), per_round, (), 0, "beaten in full, drawn half"))
    return Column("SB", 2 if section.profile.sb_doubled else 4, tuple(column))


def most_blacks(section: Section) -> Column:
    """``BLK`` Most Blacks (Rule 34E): the number of games played with Black."""
    column = []
    for p in section.tournament.players:
        per_round = tuple(int(e.played and e.colour is Colour.BLACK) for e in p.entries)
        column.append(Breakdown(sum(per_round), per_round, (), 0, "games played with Black"))
    return Column("BLK", 1, tuple(column))


_PLUS_MINUS = {EntryKind.WIN: 1, EntryKind.DRAW: 0, EntryKind.LOSS: -1}


def head_to_head(section: Section, group: Sequence[int]) -> dict[int, Breakdown]:
    """``H2H`` Result between tied players (Rule 34E), for one group still tied.

    Plus/minus of the games played among the group ("3−1, plus two, beats 1−0, plus
    one"); rounds against players outside the group contribute None.
    """
    members = set(group)
    result = {}
    for i in group:
        per_round = tuple(
            _PLUS_MINUS[k] if o in members else None
            for k, o in zip(section.kinds[i], section.opponents[i], strict=True)
        )
        total = sum(v for v in per_round if v is not None)
        result[i] = Breakdown(total, per_round, (), 0, "plus/minus against the tied players")
    return result


def head_to_head_column(section: Section) -> Column:
    """``H2H`` has no value outside a tie; the standings fill it in per tied group."""
    return Column("H2H", 1, tuple(Breakdown(None, note="not tied") for _ in section.scores))


def _ratings_of_opponents(section: Section, i: int) -> tuple[int | None, ...]:
    players = section.tournament.players
    return tuple(players[o].rating if o >= 0 else None for o in section.opponents[i])


def average_opponents_rating(section: Section) -> Column:
    """``AOR`` Average rating of opponents (Rule 34E): opponents played; unrated skipped.

    Undefined (None) without a rated opponent played.
    """
    column = []
    for i in range(len(section.scores)):
        ratings = _ratings_of_opponents(section, i)
        rated = [r for r in ratings if r is not None]
        units = Fraction(sum(rated), len(rated)) if rated else None
        column.append(Breakdown(units, ratings, (), 0, f"average of {len(rated)} rated opponents"))
    return Column("AOR", 1, tuple(column))


def performance_rating(section: Section) -> Column:
    """``PERF`` Performance rating, US Chess linear formula (Rule 34E):
    average rating of the rated opponents played + 400 × (wins − losses) / games.

    Only games against rated opponents count. Undefined (None) without one.
    """
    column = []
    for i, kinds in enumerate(section.kinds):
        ratings = _ratings_of_opponents(section, i)
        rated = [(r, k) for r, k in zip(ratings, kinds, strict=True) if r is not None]
        if not rated:
            column.append(Breakdown(None, ratings, (), 0, "no rated opponent played"))
            continue
        games = len(rated)
        balance = sum(_PLUS_MINUS[k] for _, k in rated)
        units = Fraction(sum(r for r, _ in rated), games) + Fraction(400 * balance, games)
        column.append(
            Breakdown(units, ratings, (), 0, f"{games} rated games, wins − losses = {balance:+d}")
        )
    return Column("PERF", 1, tuple(column))


def coin_seed(section: Section) -> str:
    """The seed of the coin flip: a digest of the tournament's identity (name, players,
    every entry), so the same tournament always flips the same way."""
    import hashlib  # here: only a coin flip needs it, and it is slow to import

    t = section.tournament
    text = "|".join(
        [t.name, str(t.rounds)]
        + [f"{p.id}:{p.name}:{','.join(str(e) for e in p.entries)}" for p in t.players]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def coin_flip(section: Section) -> Column:
    """``COIN`` A coin flip, reproducible: each player draws a number from the seed and
    their starting number; the higher number wins. Always reported as a coin flip."""
    import hashlib

    seed = coin_seed(section)
    column = []
    for p in section.tournament.players:
        digest = hashlib.sha256(f"{seed}:{p.id}".encode()).digest()
        draw = int.from_bytes(digest[:3], "big") % 1000
        column.append(Breakdown(draw, (), (), 0, f"coin flip, seed {seed}: drew {draw}"))
    return Column("COIN", 1, tuple(column))


# -- round notes, on demand ------------------------------------------------------------


def _opponent(section: Section, o: int, kind: RoundWhy, result: EntryKind | None) -> RoundNote:
    """Opponent ``o``'s score and, where it differs, their adjusted score (Rule 34E1: each
    of their unplayed rounds counts ½), with the rounds that made it differ: those that
    scored something other than ½."""
    opponent = section.tournament.players[o]
    half = tuple(
        [
            (r, k)
            for r, k in enumerate(section.kinds[o], start=1)
            if not k.played and k.half_points != 1
        ]
    )
    counted = Fraction(section.adjusted[o], 2) if half else None
    scored = Fraction(section.scores[o], 2)
    return RoundNote(kind, opponent.name, opponent.id, scored, counted, half, result=result)


def _known_notes(section: Section) -> dict[tuple[Hashable, ...], RoundNote]:
    """The section's round notes made so far, by how each was made: a note is immutable,
    and many rounds share one (every player who met an opponent, in several tiebreaks)."""
    return {}


def _shared(section: Section, make: Callable[..., RoundNote], *args: Hashable) -> RoundNote:
    """``make(section, *args)``, made once per section."""
    known = section.memo(_known_notes)
    key = (make, *args)
    note = known.get(key)
    if note is None:
        note = known[key] = make(section, *args)
    return note


def _own_unplayed(_: Section, kind: EntryKind) -> RoundNote:
    return RoundNote(RoundWhy.OWN_UNPLAYED, entry=kind)


def adjusted_score_notes(section: Section, index: int, _: Breakdown) -> Notes:
    """Modified Median, Median and Solkoff (Rules 34E1, 34E2), round by round: the
    opponent's adjusted score, or the player's own unplayed round counting as an opponent
    with adjusted score 0."""
    return tuple(
        [
            _shared(section, _opponent, o, RoundWhy.OPPONENT_SCORE, None)
            if o >= 0
            else _shared(section, _own_unplayed, k)
            for k, o in zip(section.kinds[index], section.opponents[index], strict=True)
        ]
    )


def sonneborn_berger_notes(section: Section, index: int, _: Breakdown) -> Notes:
    """Sonneborn-Berger (Rule 34E), round by round: the opponent's adjusted score and the
    share of it the result earns (all of it for a win, half for a draw, none for a loss);
    a round not played counts nothing."""
    return tuple(
        [
            _shared(section, _opponent, o, RoundWhy.SHARE_OF_OPPONENT, k)
            if o >= 0
            else _NOT_PLAYED_NOTHING
            for k, o in zip(section.kinds[index], section.opponents[index], strict=True)
        ]
    )


_NOT_PLAYED_NOTHING = RoundNote(RoundWhy.NOT_PLAYED_NOTHING)


def cumulative_notes(section: Section, index: int, _: Breakdown) -> Notes:
    """Cumulative (Rule 34E3), round by round: the running score after the round, and what
    is taken off for it as won without playing (:func:`cumulative_subtraction`)."""
    taken = cumulative_subtraction(section.profile)
    return tuple([_shared(section, _running, k, taken.get(k, 0)) for k in section.kinds[index]])


def _running(_: Section, kind: EntryKind, taken: int) -> RoundNote:
    return RoundNote(RoundWhy.RUNNING_SCORE, entry=kind, taken=taken)


def opponents_cumulative_notes(section: Section, index: int, _: Breakdown) -> Notes:
    """Opponents' Cumulative (Rule 34E), round by round: the opponent's Cumulative; a round
    not played adds 0."""
    return tuple(
        [
            _shared(section, _opponent_cumulative, o) if o >= 0 else _NOT_PLAYED_ZERO
            for o in section.opponents[index]
        ]
    )


_NOT_PLAYED_ZERO = RoundNote(RoundWhy.NOT_PLAYED_ZERO)


def _opponent_cumulative(section: Section, o: int) -> RoundNote:
    opponent = section.tournament.players[o]
    return RoundNote(RoundWhy.OPPONENT_CUMULATIVE, opponent.name, opponent.id)


def kashdan_notes(section: Section, index: int, _: Breakdown) -> Notes:
    """Kashdan (Rule 34E), round by round: the points the result earns."""
    return tuple([_shared(section, _kashdan, k) for k in section.kinds[index]])


def _kashdan(_: Section, kind: EntryKind) -> RoundNote:
    return RoundNote(RoundWhy.KASHDAN, entry=kind, points=_KASHDAN.get(kind, 0))


def most_blacks_notes(_: Section, __: int, breakdown: Breakdown) -> Notes:
    """Most Blacks (Rule 34E): the rounds played with Black."""
    return tuple([RoundNote(RoundWhy.WITH_BLACK) if v else None for v in breakdown.per_round])


def head_to_head_notes(_: Section, __: int, breakdown: Breakdown) -> Notes:
    """Result between tied players (Rule 34E): the rounds against a player still tied."""
    return tuple(
        [RoundNote(RoundWhy.AGAINST_TIED) if v is not None else None for v in breakdown.per_round]
    )


def rating_notes(section: Section, index: int, breakdown: Breakdown) -> Notes:
    """Average rating of opponents and performance rating (Rule 34E), round by round: the
    opponent's rating; an unrated opponent is skipped; a round not played takes no part."""
    return tuple(
        [
            RoundNote(RoundWhy.NOT_PLAYED)
            if o < 0
            else RoundNote(RoundWhy.UNRATED)
            if rating is None
            else RoundNote(RoundWhy.OPPONENT_RATING)
            for o, rating in zip(section.opponents[index], breakdown.per_round, strict=True)
        ]
    )

"""Why a player finished where they did: every place and every tiebreak number, explained.

:func:`explain` reads a :class:`~core.standings.Standings` (it never recomputes a tiebreak:
every number comes from the :class:`~core.tiebreaks.base.Breakdown` the engine returned) and
returns an :class:`Explanation`: the place, the score group, the decisive comparison with
each neighbour in it, and each tiebreak broken down round by round, with the reason for
every adjusted or dropped value. Renderers (:mod:`core.explain_render`) turn it into plain
text, Discord-sized Markdown or JSON.

>>> from core.examples import load_example
>>> from core.standings import compute_standings
>>> e = explain(compute_standings(load_example(), "mdchess"), 4)
>>> e.comparisons[0].sentence
'Player C and Player D both scored 3; Modified Median 6.5 each; Solkoff 7.5 vs 6.5 decides.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from core.model import EntryKind, Player, RoundEntry
from core.numbers import display, half_points
from core.profiles import Family, Profile
from core.standings import UNPLAYED, Standing, Standings
from core.tiebreaks import Tiebreak, tiebreaks_of
from core.tiebreaks.uscf import cumulative_subtraction

#: US Chess tiebreaks whose rounds are opponents' adjusted scores.
_ADJUSTED_SCORE_CODES = frozenset({"MM", "MED", "SOLK", "SB"})
#: FIDE tiebreaks whose rounds come from the opponent's score (C.07 arts. 8–9).
_FIDE_OPPONENT_SCORE = frozenset({"BH", "BH/C1", "BH/C2", "BH/M1", "BH/M2", "FB", "SB", "SB/C1"})
_UNPLAYED_WORDS = {
    EntryKind.FORFEIT_WIN: "forfeit win",
    EntryKind.FORFEIT_LOSS: "forfeit loss",
    EntryKind.FULL_BYE: "full-point bye",
    EntryKind.PAIRING_BYE: "full-point bye",
    EntryKind.HALF_BYE: "half-point bye",
    EntryKind.ZERO_BYE: "zero-point bye",
    EntryKind.ABSENT: "absence",
    EntryKind.WITHDRAWN: "withdrawal",
}


@dataclass(frozen=True, slots=True)
class Placed:
    """A player as an explanation names them."""

    id: int
    name: str
    place: str
    score: Fraction


@dataclass(frozen=True, slots=True)
class Comparison:
    """How the player compares with a neighbour in their score group.

    ``decided_by`` is the first criterion that separates them (a tiebreak code, or
    ``"unplayed"`` for the all-unplayed-points rule); None when they share the place.
    ``equal`` lists the tiebreaks before it on which they were level, with the value.
    """

    other: Placed
    above: bool
    decided_by: str | None
    ours: Fraction | None
    theirs: Fraction | None
    equal: tuple[tuple[str, Fraction | None], ...]
    sentence: str


@dataclass(frozen=True, slots=True)
class RoundPart:
    """What one round contributed to a tiebreak, and why."""

    round: int
    entry: str
    opponent: str | None
    value: Fraction | None
    dropped: bool
    reason: str


@dataclass(frozen=True, slots=True)
class TiebreakExplanation:
    """One tiebreak of the player: its value, its rule, and the rounds it came from."""

    code: str
    name: str
    rule: str
    value: Fraction | None
    shown: str
    note: str
    parts: tuple[RoundPart, ...]
    adjustment: Fraction
    adjustment_reason: str
    summary: str
    variant: str = ""
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
    notes: tuple[str, ...] = field(default=())
    after_round: int | None = None

    @property
    def alone(self) -> bool:
        """Nobody else has the player's score: no tiebreak was needed for their place."""
        return len(self.score_group) == 1

    @property
    def reason(self) -> str:
        """The short why of the place: the decisive comparison with the player above in
        the score group (or below, for the group's first), else why no tiebreak was needed,
        else the headline."""
        above = [c for c in self.comparisons if c.above]
        if above:
            return above[0].sentence
        if self.comparisons:
            return self.comparisons[0].sentence
        return alone_sentence(self.player.score) if self.alone else self.headline

    @property
    def headline(self) -> str:
        """``Player C: 3rd place, 3 points of 4.``"""
        shared = " (shared)" if "-" in self.player.place else ""
        when = f" after round {self.after_round}" if self.after_round else ""
        return (
            f"{self.player.name}: {ordinal_place(self.player.place)} place{shared}{when}, "
            f"{points(self.player.score)} of {self.rounds}."
        )


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def ordinal_place(place: str) -> str:
    """``3`` → ``3rd``; ``3-4`` → ``3rd–4th``."""
    return "–".join(ordinal(int(p)) for p in place.split("-"))


def points(score: Fraction) -> str:
    """``3 points``, ``1 point``, ``2.5 points``."""
    text = display(score)
    return f"{text} point" if score == 1 else f"{text} points"


def explain(standings: Standings, player_id: int, after_round: int | None = None) -> Explanation:
    """Explain the place of the player with starting number ``player_id``.

    ``after_round`` only labels the explanation (the standings were computed after that round).
    """
    position = standings.line_of(player_id)
    row = standings.rows[position]
    registry = tiebreaks_of(standings.profile.family)
    group = standings.score_group(player_id)
    refs = {r.player_index: _ref(r) for r in group}
    comparisons = []
    for neighbour, above in ((position - 1, True), (position + 1, False)):
        if 0 <= neighbour < len(standings.rows):
            other = standings.rows[neighbour]
            if other.half_points == row.half_points:
                comparisons.append(_compare(standings, row, other, above, registry, refs))
    tiebreaks = tuple(_tiebreak(standings, registry[c], row.player_index) for c in standings.order)
    return Explanation(
        player=refs[row.player_index],
        rank=row.rank,
        rounds=standings.tournament.rounds,
        profile=standings.profile.label,
        order=standings.order,
        score_group=tuple(refs[r.player_index] for r in group),
        comparisons=tuple(comparisons),
        tiebreaks=tiebreaks,
        notes=tuple(_notes(standings, row, group, registry)),
        after_round=after_round,
    )


def alone_sentence(score: Fraction) -> str:
    """Why a player alone on their score needed no tiebreak."""
    scored = half_points(int(score * 2))
    return f"Nobody else scored {scored}, so no tiebreak was needed for your place."


def _ref(row: Standing) -> Placed:
    return Placed(row.player.id, row.player.name, row.place, row.score)


def _compare(
    standings: Standings,
    row: Standing,
    other: Standing,
    above: bool,
    registry: dict[str, Tiebreak],
    refs: dict[int, Placed],
) -> Comparison:
    upper, lower = (other, row) if above else (row, other)
    decided_by = lower.separated_by
    both = f"{upper.player.name} and {lower.player.name} both scored {half_points(row.half_points)}"
    equal: list[tuple[str, Fraction | None]] = []
    if decided_by == UNPLAYED:
        sentence = (
            f"{both}, but {lower.player.name}'s points all came from rounds not played, "
            f"so {upper.player.name} is ahead before any tiebreak."
        )
        return Comparison(refs[other.player_index], above, UNPLAYED, None, None, (), sentence)
    pieces = [both]
    for code in standings.order:
        if code == decided_by:
            break
        value = standings.value(code, upper.player_index)
        equal.append((code, value))
        pieces.append(f"{registry[code].name} {_shown(registry[code], value)} each")
    if decided_by is None:
        pieces.append("they are equal on every tiebreak, so they share the place")
        return Comparison(
            refs[other.player_index], above, None, None, None, tuple(equal), "; ".join(pieces) + "."
        )
    tb = registry[decided_by]
    up = standings.value(decided_by, upper.player_index)
    low = standings.value(decided_by, lower.player_index)
    if decided_by == "COIN":
        flip = standings.breakdown("COIN", upper.player_index).note
        pieces.append(f"a coin flip decides ({flip})")
    else:
        pieces.append(f"{tb.name} {_shown(tb, up)} vs {_shown(tb, low)} decides")
    ours, theirs = (low, up) if above else (up, low)
    return Comparison(
        refs[other.player_index],
        above,
        decided_by,
        ours,
        theirs,
        tuple(equal),
        "; ".join(pieces) + ".",
    )


def _shown(tb: Tiebreak, value: Fraction | None) -> str:
    return display(value, tb.digits, "undefined")


def _entry_text(entry: RoundEntry) -> str:
    """The entry as a crosstable writes it, but a zero-point bye in words: its crosstable
    letter ``U`` is TRF-16's code for the pairing-allocated (full-point) bye."""
    if entry.kind is EntryKind.ZERO_BYE:
        return str(entry.kind.value)
    return str(entry) or "absent"


def _opponent_adjustment(opponent: Player) -> str:
    """Why an opponent's adjusted score differs from their real one (US Chess 34E): each
    unplayed round counts ½, so only rounds that scored something else are named."""
    changed: dict[str, list[int]] = {}
    for r, e in enumerate(opponent.entries, start=1):
        if not e.played and e.half_points != 1:
            changed.setdefault(_UNPLAYED_WORDS[e.kind], []).append(r)
    if not changed:
        return ""
    reasons = []
    withdrawn = changed.pop("withdrawal", [])
    if withdrawn:
        reasons.append(
            f"withdrew after round {withdrawn[0] - 1}, so "
            f"{_rounds(withdrawn)} count{'s' if len(withdrawn) == 1 else ''} ½ each"
            if withdrawn[0] > 1
            else "withdrew before round 1"
        )
    for words, rounds in changed.items():
        reasons.append(
            f"{'a ' if len(rounds) == 1 else ''}{words}"
            f"{'s' if len(rounds) > 1 else ''} in {_rounds(rounds)} "
            f"count{'s' if len(rounds) == 1 else ''} ½"
        )
    return "; ".join(reasons)


def _rounds(rounds: list[int]) -> str:
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    if rounds == list(range(rounds[0], rounds[-1] + 1)):
        return f"rounds {rounds[0]}–{rounds[-1]}"
    return "rounds " + ", ".join(map(str, rounds))


def _tiebreak(standings: Standings, tb: Tiebreak, index: int) -> TiebreakExplanation:
    b = standings.breakdown(tb.code, index)
    column = standings.columns[tb.code]
    scale = column.scale
    value = standings.value(tb.code, index)
    tournament = standings.tournament
    player = tournament.players[index]
    parts = []
    for r, contribution in enumerate(b.per_round, start=1):
        entry = player.entries[r - 1]
        opponent = tournament.player(entry.opponent).name if entry.opponent is not None else None
        amount = None if contribution is None else Fraction(contribution) / scale
        reason = (
            b.round_notes[r - 1]
            if b.round_notes and b.round_notes[r - 1]
            else _round_reason(standings, tb, player, entry, amount)
        )
        parts.append(RoundPart(r, _entry_text(entry), opponent, amount, r in b.dropped, reason))
    adjustment = Fraction(b.adjustment) / scale
    variant = _cumulative_variant(standings.profile, player) if tb.code == "CUM" else ""
    return TiebreakExplanation(
        code=tb.code,
        name=tb.name,
        rule=tb.rule,
        value=value,
        shown=_shown(tb, value),
        note=b.note,
        parts=tuple(parts),
        adjustment=adjustment,
        adjustment_reason=(_adjustment_reason(tb, player, standings.profile) if adjustment else ""),
        summary=_summary(tb, value, b.note, parts, adjustment, variant),
        variant=variant,
        digits=tb.digits,
    )


def _round_reason(
    standings: Standings, tb: Tiebreak, player: Player, entry: RoundEntry, amount: Fraction | None
) -> str:
    code = tb.code
    tournament = standings.tournament
    if standings.profile.family is Family.USCF and code in _ADJUSTED_SCORE_CODES:
        if not entry.played:
            if code == "SB":
                return "not played: counts nothing"
            return f"your own {_UNPLAYED_WORDS[entry.kind]}: counts as an opponent with 0"
        opponent = tournament.player(entry.opponent or 0)
        real = Fraction(opponent.half_points, 2)
        why = _opponent_adjustment(opponent)
        base = f"{opponent.name} scored {display(real)}"
        if why:
            adjusted = Fraction(standings.section.adjusted[tournament.index(opponent.id)], 2)
            base += f", counted as {display(adjusted)}: {why}"
        if code == "SB":
            share = {
                EntryKind.WIN: "you won: all of it",
                EntryKind.DRAW: "a draw: half of it",
                EntryKind.LOSS: "you lost: none of it",
            }[entry.kind]
            return f"{base}; {share}"
        return base
    if standings.profile.family is Family.FIDE and entry.played and code in _FIDE_OPPONENT_SCORE:
        opponent = tournament.player(entry.opponent or 0)
        return f"{opponent.name} scored {display(Fraction(opponent.half_points, 2))}"
    if code == "CUM":
        return "your score after this round"
    if code == "OCUM":
        if not entry.played:
            return "not played: adds 0"
        return f"{tournament.player(entry.opponent or 0).name}'s Cumulative"
    if code == "KASH":
        return {EntryKind.WIN: "win: 4", EntryKind.DRAW: "draw: 2", EntryKind.LOSS: "loss: 1"}.get(
            entry.kind, "not played: 0"
        )
    if code == "BLK":
        return "played with Black" if amount else ""
    if code == "H2H":
        return "against a tied player" if amount is not None else ""
    if code in ("AOR", "PERF"):
        if not entry.played:
            return "not played"
        return "unrated: skipped" if amount is None else "opponent's rating"
    return ""


def _adjustment_reason(tb: Tiebreak, player: Player, profile: Profile) -> str:
    """Cumulative's subtraction (US Chess 34E3), round by round: 1 per round won without
    playing, and ½ per half-point bye where the profile says so (SwissSys)."""
    if tb.code != "CUM":
        return ""
    taken = {
        k: "½" if h == 1 else half_points(h) for k, h in cumulative_subtraction(profile).items()
    }
    words = [
        f"−{taken[e.kind]} for your {_UNPLAYED_WORDS[e.kind]} in round {r}"
        for r, e in enumerate(player.entries, start=1)
        if e.kind in taken
    ]
    return "points won without playing are taken off: " + ", ".join(words)


def _cumulative_variant(profile: Profile, player: Player) -> str:
    """Which Cumulative the profile uses, said where it matters to this player (they had a
    half-point bye): SwissSys takes ½ off for it, US Chess 34E3 only full points."""
    halves = [r for r, e in enumerate(player.entries, start=1) if e.kind is EntryKind.HALF_BYE]
    if not halves or profile.family is not Family.USCF:
        return ""
    byes = f"half-point bye{'s' if len(halves) > 1 else ''} in {_rounds(halves)}"
    if profile.cumulative_half_bye:
        return (
            f"{profile.label} takes ½ off for a half-point bye as well as 1 for a full point "
            "won without playing, as SwissSys does (US Chess 34E3 takes off only the full point)"
        )
    return (
        f"your {byes} {'keep their' if len(halves) > 1 else 'keeps its'} ½: {profile.label} "
        "takes off only full points won without playing, as US Chess 34E3 says (SwissSys "
        "takes ½ off for a half-point bye)"
    )


def _summary(
    tb: Tiebreak,
    value: Fraction | None,
    note: str,
    parts: list[RoundPart],
    adjustment: Fraction,
    variant: str = "",
) -> str:
    shown = _shown(tb, value)
    if value is None:
        return f"{tb.name} is not defined for you ({note})."
    dropped = [p for p in parts if p.dropped]
    if dropped:
        rounds = ", ".join(f"round {p.round} ({display(p.value)})" for p in dropped)
        return f"{tb.name} {shown}: {note}; dropped {rounds}."
    if adjustment:
        total = sum((p.value for p in parts if p.value is not None), Fraction(0))
        return (
            f"{tb.name} {shown}: {note} ({display(total)}), minus {display(-adjustment)} "
            f"for points won without playing{'; ' if variant else ''}{variant}."
        )
    return f"{tb.name} {shown}: {note}{'; ' if variant else ''}{variant}."


def _notes(
    standings: Standings, row: Standing, group: tuple[Standing, ...], registry: dict[str, Tiebreak]
) -> list[str]:
    notes = []
    sharing = [r for r in group if r.place == row.place and r is not row]
    if sharing:
        names = ", ".join(r.player.name for r in sharing)
        notes.append(
            f"You share place {row.place} with {names}: equal score and equal on every tiebreak."
        )
    if any(r.separated_by == "COIN" for r in group):
        seed = standings.breakdown("COIN", row.player_index).note
        notes.append(f"A coin flip was used in this score group ({seed}).")
    profile = standings.profile
    if row.half_points and not standings.section.play_scores[row.player_index]:
        if profile.unplayed_points_rule:
            notes.append(
                "All your points came from rounds you did not play, so a player on the "
                "same score who scored in play finishes ahead of you (US Chess 34E)."
            )
        elif profile.family is Family.USCF:
            notes.append(
                "All your points came from rounds you did not play; "
                f"{profile.label} has no all-unplayed pre-check (as SwissSys), so the "
                "tiebreaks decide your place like anyone else's."
            )
    if profile.median_last_when_short and standings.order != profile.tiebreaks:
        notes.append(
            f"With only {standings.tournament.rounds} round"
            f"{'s' if standings.tournament.rounds != 1 else ''}, Modified Median moves "
            f"to last place in the order ({profile.name} rules)."
        )
    for code in standings.order:
        if standings.value(code, row.player_index) is None and code != "H2H":
            notes.append(
                f"{registry[code].name} is not defined for you: "
                f"{standings.breakdown(code, row.player_index).note}."
            )
    if len(group) == 1:
        notes.append(alone_sentence(row.score))
    notes += [
        f"The file says otherwise about your score: {w.message}."
        for w in standings.tournament.warnings
        if w.player == row.player.id
    ]
    return notes

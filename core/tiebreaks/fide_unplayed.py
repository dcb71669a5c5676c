"""What FIDE C.07 makes of rounds that were not played over the board (arts. 14–16).

Everything here is computed once per section (``Section.memo``) and shared by the FIDE
tiebreaks. Scores are in half-points, as everywhere in Harkness.

- **Round robin or Swiss.** Art. 15 treats unplayed games of round robins, art. 16 unplayed
  rounds of Swiss tournaments. A section is a round robin when TRF record 092 says
  so or when every pair of players met.
- **Round robins (15.2).** A forfeit counts as a game against the scheduled opponent with its
  result, for every tiebreak except the rating-based ones; a round without an opponent adds
  nothing.
- **Swiss: voluntarily unplayed rounds (16.1.2).** A *VUR* is an unplayed round that is not
  worth a win: a half- or zero-point bye, an absence, a round after withdrawal, a forfeit loss.
  Pairing-allocated and full-point byes and forfeit wins are not voluntary.
- **Swiss: the categories (16.2).** 16.2.1 pairing-allocated and full-point byes; 16.2.2
  forfeit wins; 16.2.3 byes and absences followed by a round that is not a VUR; 16.2.4 forfeit
  losses; 16.2.5 byes and absences followed only by VURs (or in the last round).
- **Swiss: a player's score as an opponent (16.3).** Rounds of category 16.2.5 count as draws;
  every other round counts what it scored.
- **Swiss: the player's own unplayed rounds (16.4)** are games against a dummy opponent with
  the player's own score. The 2026 text caps the dummy: after a forfeit at the scheduled
  opponent's score as an opponent (16.3), otherwise at half the maximum score (R/2).
- **Cuts (14, 16.5).** Cut-1 removes the least significant value; but when the player has
  VURs, the lowest contribution of a VUR is compared with it and the higher of the two is cut.

>>> from core.formats.crosstable import read_crosstable
>>> from core.profiles import Profile
>>> t = read_crosstable('''#  Name  Rd 1  Rd 2
... 1  Ann  W2  H
... 2  Bob  L1  U
... 3  Cy  U  W4
... 4  Dan  U  L3''')
>>> view = build_view(Section(t, Profile("x", "", (), family="fide", fide_version="2024-08")))
>>> view.category(0, 1), view.category(1, 1)
('16.2.5', '16.2.5')
>>> view.adjusted[:2], view.dummy(0, 1)[0]   # Bob's last-round zero-point bye: a draw
((3, 1), 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress

from core.model import FORFEITS, PLAYED, UNPLAYED_WINS, EntryKind, is_round_robin
from core.numbers import half_points
from core.tiebreaks.base import Section

TEXT_2024 = "2024-08"
TEXT_2026 = "2026"

#: Not a voluntarily unplayed round: a game, or a round won without playing that the
#: player did not choose (16.2.1, 16.2.2).
_NOT_VUR = PLAYED | UNPLAYED_WINS
_LAST_ROUND_DRAW = {k: EntryKind.DRAW for k in PLAYED | FORFEITS}


def text_of(section: Section) -> str:
    """The C.07 text a section is computed under (``Profile.fide_version``; 2024-08 if unset)."""
    return TEXT_2026 if section.profile.fide_version.startswith("2026") else TEXT_2024


def describe(kind: EntryKind, opponent_id: int | None = None) -> str:
    """An unplayed round in words: ``"half-point bye"``, ``"forfeit win against 9"``."""
    if kind is EntryKind.FORFEIT_WIN:
        return f"forfeit win against {opponent_id}"
    if kind is EntryKind.FORFEIT_LOSS:
        return f"forfeit loss against {opponent_id}"
    return str(kind.value)


@dataclass(frozen=True, slots=True)
class FideView:
    """A section's rounds as C.07 counts them (players by index, scores in half-points).

    ``paired[i][r]`` is the index of the opponent of a game *or forfeit* in round ``r+1``
    (-1 for none); ``adjusted[i]`` the player's score as an opponent (16.3; the plain score in
    a round robin); ``drawn[i]`` the rounds (1-based) that 16.3 counts as draws. In a *fore*
    view (Fore Buchholz) every last-round pairing is a drawn game.
    """

    rounds: int
    round_robin: bool
    text: str
    fore: bool
    ids: tuple[int, ...]
    names: tuple[str, ...]
    kinds: tuple[tuple[EntryKind, ...], ...]
    paired: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    adjusted: tuple[int, ...]
    drawn: tuple[tuple[int, ...], ...]

    def counts_as_game(self, i: int, r: int) -> bool:
        """True when round ``r+1`` counts as a game against ``paired[i][r]``: a game played,
        or in a round robin also a forfeit (15.2)."""
        kind = self.kinds[i][r]
        return kind in PLAYED or (self.round_robin and kind in FORFEITS)

    def points(self, i: int, r: int) -> int:
        """What the player scored in round ``r+1``, in half-points."""
        return self.kinds[i][r].half_points

    def is_vur(self, i: int, r: int) -> bool:
        """16.1.2: an unplayed round not worth a win (requested bye, absence, forfeit loss)."""
        return self.kinds[i][r] not in _NOT_VUR

    def category(self, i: int, r: int) -> str:
        """The 16.2 category of an unplayed round of a Swiss ("" for a game)."""
        kind = self.kinds[i][r]
        if kind in PLAYED:
            return ""
        if kind in (EntryKind.FULL_BYE, EntryKind.PAIRING_BYE):
            return "16.2.1"
        if kind is EntryKind.FORFEIT_WIN:
            return "16.2.2"
        if kind is EntryKind.FORFEIT_LOSS:
            return "16.2.4"
        return "16.2.5" if r + 1 in self.drawn[i] else "16.2.3"

    def opponent_note(self, j: int) -> str:
        """Why opponent ``j`` counts more than they scored (16.3), or ""."""
        if not self.drawn[j]:
            return ""
        rounds = ", ".join(str(r) for r in self.drawn[j])
        which = (
            f"rounds {rounds}, unplayed at the end, count as draws"
            if len(self.drawn[j]) > 1
            else f"round {rounds}, unplayed at the end, counts as a draw"
        )
        return (
            f"{self.names[j]} scored {half_points(self.scores[j])}, counted as "
            f"{half_points(self.adjusted[j])}: {which} (C.07 16.3)"
        )

    def dummy(self, i: int, r: int) -> tuple[int, str]:
        """The score of the dummy opponent of the player's own unplayed round ``r+1`` (16.4),
        and why, in words.

        2024-08 text: the player's own score. 2026 text: capped at the forfeiting opponent's
        score as an opponent (16.3) after a forfeit, otherwise at half the maximum score.
        """
        own = self.scores[i]
        kind = self.kinds[i][r]
        opponent = self.paired[i][r]
        what = describe(kind, self.ids[opponent] if opponent >= 0 else None)
        if self.fore:
            what += " (Fore Buchholz: your score with the last round as a draw)"
        text = f"{what}: a game against a dummy opponent with your own score, {half_points(own)}"
        if self.text != TEXT_2026:
            return own, f"{text} (C.07 16.4, 2024-08 text)"
        if opponent >= 0:
            cap = self.adjusted[opponent]
            reason = f"{self.names[opponent]}'s score as an opponent"
        else:
            cap = self.rounds
            reason = "half the maximum score"
        if own <= cap:
            return own, f"{text}, within the cap of {half_points(cap)} (C.07 16.4, 2026 text)"
        return cap, (f"{text}, capped at {half_points(cap)}, {reason} (C.07 16.4, 2026 text)")


def _view(section: Section, fore: bool) -> FideView:
    tournament = section.tournament
    round_robin = is_round_robin(tournament)
    kinds = list(section.kinds)
    scores = list(section.scores)
    if fore and section.rounds:
        for i, row in enumerate(kinds):
            last = _LAST_ROUND_DRAW.get(row[-1], row[-1])
            if last is not row[-1]:
                kinds[i] = (*row[:-1], last)
                scores[i] += last.half_points - row[-1].half_points
    # The opponents of games and forfeits: those met over the board, unless there was a forfeit.
    index = tournament.index
    paired = [
        played
        if FORFEITS.isdisjoint(row)
        else tuple([index(e.opponent) if e.opponent is not None else -1 for e in p.entries])
        for played, row, p in zip(
            tournament.opponents, section.kinds, tournament.players, strict=True
        )
    ]
    adjusted = list(scores)
    drawn: list[tuple[int, ...]] = [()] * len(kinds)
    if not round_robin:
        for i, row in enumerate(kinds):
            if row and row[-1] not in _NOT_VUR:
                drawn[i] = counted = _drawn_at_the_end(row)
                adjusted[i] += sum(1 - row[r - 1].half_points for r in counted)
    return FideView(
        section.rounds,
        round_robin,
        text_of(section),
        fore,
        tuple(p.id for p in tournament.players),
        tuple(p.name for p in tournament.players),
        tuple(kinds),
        tuple(paired),
        tuple(scores),
        tuple(adjusted),
        tuple(drawn),
    )


def _drawn_at_the_end(kinds: Sequence[EntryKind]) -> tuple[int, ...]:
    """Rounds (1-based) of category 16.2.5: byes and absences after the last round that was
    not voluntarily unplayed. A forfeit loss there is still a forfeit loss (16.2.4)."""
    last = max((r + 1 for r, k in enumerate(kinds) if k in _NOT_VUR), default=0)
    return tuple(r + 1 for r, k in enumerate(kinds) if r + 1 > last and k not in FORFEITS)


def build_view(section: Section) -> FideView:
    """The section's rounds as C.07 counts them (use ``section.memo(build_view)``)."""
    return _view(section, fore=False)


def build_fore_view(section: Section) -> FideView:
    """The same, with every last-round pairing counted as a drawn game (Fore Buchholz)."""
    return _view(section, fore=True)


@dataclass(frozen=True, slots=True)
class Cut:
    """Rounds (1-based) removed by a modifier, and why, in words."""

    rounds: tuple[int, ...]
    note: str


NO_CUT = Cut((), "")


def cut(
    values: Sequence[int | None], keys: Sequence[int], vurs: Sequence[bool], low: int, high: int
) -> Cut:
    """Apply Cut/Median modifiers (C.07 14.1–14.4) with the VUR exception (16.5).

    ``values`` are the rounds' contributions (None: not taking part), ``keys`` what makes a
    value least significant (the opponent's score: for Buchholz the value itself), ``vurs``
    which rounds are voluntarily unplayed. Each of the ``low`` lowest cuts compares the least
    significant value with the lowest contribution of a VUR and cuts the higher (the VUR when
    equal); the ``high`` highest cuts take the most significant values.

    Buchholz of opponents 3, 1½, a half-point bye's dummy 3½, 3½, 3 (in half-points):

    >>> cut([6, 3, 7, 7, 6], [6, 3, 7, 7, 6], [False, False, True, False, False], 1, 0).rounds
    (3,)
    >>> cut([6, 3, 7, 7, 6], [6, 3, 7, 7, 6], [False] * 5, 1, 1).rounds
    (2, 3)
    """
    if not low and not high:
        return NO_CUT
    if not any(vurs):  # no voluntarily unplayed round: the cuts are one sort's two ends
        return _plain_cut(values, keys, low, high)
    return cut_one_at_a_time(values, keys, vurs, low, high)


def cut_one_at_a_time(
    values: Sequence[int | None], keys: Sequence[int], vurs: Sequence[bool], low: int, high: int
) -> Cut:
    """:func:`cut` as C.07 14 and 16.5 word it, one cut at a time (the VUR exception needs
    it; without a VUR :func:`cut` takes the same rounds in one sort)."""
    live = [r for r, v in enumerate(values) if v is not None]
    value = [v if v is not None else 0 for v in values]
    dropped: list[int] = []
    reasons: list[str] = []
    for _ in range(low):
        if not live:
            break
        least = min(live, key=lambda r: (keys[r], value[r], not vurs[r], r))
        chosen, reason = least, "the least significant value (C.07 14)"
        voluntary = [r for r in live if vurs[r]]
        if voluntary:
            lowest = min(voluntary, key=lambda r: (value[r], keys[r], r))
            if value[least] <= value[lowest]:
                chosen = lowest
                reason = (
                    "a voluntarily unplayed round, cut before a lower or equal least "
                    "significant value (C.07 16.5)"
                )
            else:
                reason = (
                    f"the least significant value, higher than round {lowest + 1}'s, "
                    "the lowest of a voluntarily unplayed round (C.07 14, 16.5)"
                )
        live.remove(chosen)
        dropped.append(chosen)
        reasons.append(f"round {chosen + 1} cut: {reason}")
    for _ in range(high):
        if not live:
            break
        most = max(live, key=lambda r: (keys[r], value[r], -r))
        live.remove(most)
        dropped.append(most)
        reasons.append(f"round {most + 1} cut: the most significant value (C.07 14)")
    return Cut(tuple(sorted(r + 1 for r in dropped)), "; ".join(reasons))


def cut_least(values: Sequence[int], vurs: Sequence[bool] = ()) -> Cut:
    """:func:`cut` of Cut-1 (C.07 14.1) where every round takes part and each value is its
    own key (Buchholz): the first of the lowest values; with voluntarily unplayed rounds,
    the first of their lowest values, which the least significant value is never lower
    than (16.5).

    >>> cut_least([6, 3, 7, 3]) == cut([6, 3, 7, 3], [6, 3, 7, 3], [False] * 4, 1, 0)
    True
    >>> vurs = [False, False, True, True]
    >>> cut_least([6, 3, 7, 5], vurs) == cut([6, 3, 7, 5], [6, 3, 7, 5], vurs, 1, 0)
    True
    """
    if True not in vurs:
        return _cut_round(values.index(min(values)) + 1) if values else NO_CUT
    lowest = min(compress(values, vurs))
    return _cut_vur(next(r for r, v in enumerate(values) if v == lowest and vurs[r]) + 1)


@cache
def _cut_round(r: int) -> Cut:
    """Round ``r`` (1-based) cut as the least significant value: one :class:`Cut` a round."""
    return Cut((r,), f"round {r} cut: the least significant value (C.07 14)")


@cache
def _cut_vur(r: int) -> Cut:
    """Round ``r`` (1-based), voluntarily unplayed, cut before a lower or equal least
    significant value (C.07 16.5): one :class:`Cut` a round."""
    return Cut(
        (r,),
        f"round {r} cut: a voluntarily unplayed round, cut before a lower or equal least "
        "significant value (C.07 16.5)",
    )


def _plain_cut(values: Sequence[int | None], keys: Sequence[int], low: int, high: int) -> Cut:
    """:func:`cut` without a voluntarily unplayed round: the ``low`` least significant values
    (by key, then value, then the earlier round) and then the ``high`` most significant of
    the rest (by key, then value, then the earlier round), as the one-at-a-time cuts take
    them."""
    order = [(keys[r], v, r) for r, v in enumerate(values) if v is not None]
    if low == 1 and not high and order:  # Cut-1, the most common modifier: one min()
        return _cut_round(min(order)[2] + 1)
    order.sort()
    lows = [r for _, _, r in order[:low]]
    rest = order[low:]
    highs = [r for _, _, r in sorted(rest, key=lambda t: (t[0], t[1], -t[2]))[::-1][:high]]
    reasons = [f"round {r + 1} cut: the least significant value (C.07 14)" for r in lows]
    reasons += [f"round {r + 1} cut: the most significant value (C.07 14)" for r in highs]
    return Cut(tuple(sorted(r + 1 for r in lows + highs)), "; ".join(reasons))

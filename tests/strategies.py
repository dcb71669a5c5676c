"""Hypothesis strategies for random valid tournaments (core/RULEBOOK.md, "Round entries").

Each round the players still in the event are shuffled and paired in order (a game won,
drawn or lost with opposite colours, or now and then a forfeit); all but up to two couples
are paired, or now and then no one. Whoever is not paired gets a bye of some kind (the
pairing-allocated bye at most once a round) or is absent. Up to a quarter of the players
withdraw, with ``WITHDRAWN`` in every round after their last. Every tournament drawn passes
:class:`~core.model.Tournament`'s validation; shrinking goes towards fewer players, fewer
rounds, games rather than unplayed rounds, and no withdrawals.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from core.model import Colour, EntryKind, Player, RoundEntry, Tournament

__all__ = ["tournaments"]

_GAMES = (EntryKind.WIN, EntryKind.DRAW, EntryKind.LOSS)
#: What a paired couple did, from the first player's side: games three times as often as
#: forfeits (and first, so that examples shrink to games).
_PAIRINGS = _GAMES * 3 + (EntryKind.FORFEIT_WIN, EntryKind.FORFEIT_LOSS)
#: What a player who was not paired got (the pairing-allocated bye at most once a round).
_UNPAIRED = (
    EntryKind.HALF_BYE,
    EntryKind.FULL_BYE,
    EntryKind.ZERO_BYE,
    EntryKind.ABSENT,
    EntryKind.PAIRING_BYE,
)
_MIRROR = {
    EntryKind.WIN: EntryKind.LOSS,
    EntryKind.DRAW: EntryKind.DRAW,
    EntryKind.LOSS: EntryKind.WIN,
    EntryKind.FORFEIT_WIN: EntryKind.FORFEIT_LOSS,
    EntryKind.FORFEIT_LOSS: EntryKind.FORFEIT_WIN,
}


@st.composite
def tournaments(
    draw: Any,
    min_players: int = 2,
    max_players: int = 14,
    min_rounds: int = 1,
    max_rounds: int = 9,
    unplayed: bool = True,
    colours: bool = True,
    ratings: bool = True,
    withdrawn: bool = True,
) -> Tournament:
    """A valid tournament with ids ``1..n`` (players named ``Player 1``, …).

    - ``unplayed=False``: every player plays every round, so the number of players is even
      (drawn from the even numbers in ``[min_players, max_players]``) and there are no byes,
      forfeits, absences or withdrawals.
    - ``colours``: games have opposite colours (else none); forfeits never have a colour.
    - ``ratings``: each player is rated 100–2800 or unrated (else every player is unrated).
    - ``withdrawn`` (with ``unplayed``): up to a quarter of the players (at least one
      allowed) withdraw after some round before the last.
    """
    if unplayed:
        n = draw(st.integers(min_players, max_players))
    else:
        low, high = (min_players + 1) // 2, max_players // 2
        if low > high:
            raise ValueError(f"no even number of players in [{min_players}, {max_players}]")
        n = 2 * draw(st.integers(low, high))
    rounds = draw(st.integers(min_rounds, max_rounds))
    ids = list(range(1, n + 1))
    last_round = dict.fromkeys(ids, rounds)
    if unplayed and withdrawn and rounds > 1:
        leaving = draw(st.lists(st.sampled_from(ids), max_size=max(1, n // 4), unique=True))
        for i in leaving:
            last_round[i] = draw(st.integers(1, rounds - 1))
    entries: dict[int, list[RoundEntry]] = {i: [] for i in ids}
    for r in range(1, rounds + 1):
        present = [i for i in ids if last_round[i] >= r]
        for i in ids:
            if last_round[i] < r:
                entries[i].append(RoundEntry(EntryKind.WITHDRAWN))
        order = draw(st.permutations(present))
        pairs = len(order) // 2
        if unplayed:  # up to two couples fewer, or all of them now and then
            pairs -= draw(st.sampled_from((0, min(1, pairs), min(2, pairs), pairs)))
        outcomes = _outcomes(unplayed, colours)
        for k in range(pairs):
            a, b = order[2 * k], order[2 * k + 1]
            kind, colour = draw(outcomes)
            entries[a].append(RoundEntry(kind, b, colour))
            entries[b].append(RoundEntry(_MIRROR[kind], a, colour and colour.opposite))
        allocated = False
        for i in order[2 * pairs :]:
            kind = draw(st.sampled_from(_UNPAIRED[:4] if allocated else _UNPAIRED))
            allocated = allocated or kind is EntryKind.PAIRING_BYE
            entries[i].append(RoundEntry(kind))
    rated = draw(
        st.lists(st.none() | st.integers(100, 2800), min_size=n, max_size=n)
        if ratings
        else st.just([None] * n)
    )
    return Tournament(
        tuple(
            Player(i, f"Player {i}", tuple(entries[i]), rating)
            for i, rating in zip(ids, rated, strict=True)
        ),
        rounds,
    )


def _outcomes(unplayed: bool, colours: bool) -> st.SearchStrategy[tuple[EntryKind, Colour | None]]:
    """What a couple did, from the first player's side, and the first player's colour."""
    kinds = _PAIRINGS if unplayed else _GAMES
    if not colours:
        return st.sampled_from([(kind, None) for kind in kinds])
    return st.sampled_from(
        [
            (kind, colour)
            for kind in kinds
            for colour in ((Colour.WHITE, Colour.BLACK) if kind in _GAMES else (None,))
        ]
    )

"""Deterministic Swiss-like tournaments of any size, for benchmarks and tests.

Not a pairing program: it pairs within score groups closely enough that scores, byes,
forfeits and withdrawals look like a real Swiss, and it is fast (5,000 players × 11
rounds in a fraction of a second).

>>> t = random_swiss(9, 4, seed=3)
>>> len(t), t.rounds, t == random_swiss(9, 4, seed=3)
(9, 4, True)
"""

from __future__ import annotations

import random

from core.model import Colour, EntryKind, Player, RoundEntry, Tournament

__all__ = ["random_swiss"]

#: Share of unrated players, of half-point byes per round, of forfeited pairings, and of
#: players who withdraw.
UNRATED = 0.05
HALF_BYES = 0.02
FORFEITS = 0.01
WITHDRAWALS = 0.02
#: How far down its score group a player looks for an opponent it has not met.
WINDOW = 8


def random_swiss(
    players: int, rounds: int, seed: int = 1, byes: bool = True, forfeits: bool = True
) -> Tournament:
    """A Swiss-like tournament of ``players`` × ``rounds``, the same for the same seed.

    Starting ranks follow rating (unrated players last). Each round the players still in
    are ordered by score, then starting rank, and each is paired with the nearest player
    below it whom it has not met (a rematch only if none is near); the player left over gets
    the pairing-allocated bye. Colours alternate by whites had so far; the higher rated
    player wins more often. With ``byes``, about 2% of players a round take a half-point
    bye and about 2% of the field withdraws (``WITHDRAWN`` from then on); with
    ``forfeits``, about 1% of pairings are forfeited.
    """
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2400) for _ in range(players)), reverse=True)
    rated: list[int | None] = [r if rng.random() >= UNRATED else None for r in ratings]
    rated.sort(key=lambda r: -(r if r is not None else -1))
    ids = range(1, players + 1)
    strength = {i: 1200 if r is None else r for i, r in zip(ids, rated, strict=True)}
    withdraws_after: dict[int, int] = {}
    if byes and rounds > 1:
        for i in rng.sample(list(ids), int(players * WITHDRAWALS)):
            withdraws_after[i] = rng.randint(1, rounds - 1)
    entries: dict[int, list[RoundEntry]] = {i: [] for i in ids}
    score = dict.fromkeys(ids, 0)
    whites = dict.fromkeys(ids, 0)
    met: set[tuple[int, int]] = set()
    withdrawn = RoundEntry(EntryKind.WITHDRAWN)
    half_bye = RoundEntry(EntryKind.HALF_BYE)
    pairing_bye = RoundEntry(EntryKind.PAIRING_BYE)
    for r in range(1, rounds + 1):
        present = []
        for i in ids:
            if withdraws_after.get(i, rounds) < r:
                entries[i].append(withdrawn)
            elif byes and rng.random() < HALF_BYES:
                entries[i].append(half_bye)
                score[i] += 1
            else:
                present.append(i)
        present.sort(key=lambda i: (-score[i], i))
        if len(present) % 2:
            odd = present.pop()
            entries[odd].append(pairing_bye)
            score[odd] += 2
        for white, black in _pair(present, met):
            if whites[white] > whites[black]:
                white, black = black, white
            whites[white] += 1
            if forfeits and rng.random() < FORFEITS:
                winner, loser = (white, black) if rng.random() < 0.5 else (black, white)
                entries[winner].append(RoundEntry(EntryKind.FORFEIT_WIN, loser))
                entries[loser].append(RoundEntry(EntryKind.FORFEIT_LOSS, winner))
                score[winner] += 2
                continue
            expected = 1 / (1 + 10 ** ((strength[black] - strength[white]) / 400))
            draw = 0.3
            x = rng.random()
            if x < expected - draw / 2:
                kinds = (EntryKind.WIN, EntryKind.LOSS)
                score[white] += 2
            elif x < expected + draw / 2:
                kinds = (EntryKind.DRAW, EntryKind.DRAW)
                score[white] += 1
                score[black] += 1
            else:
                kinds = (EntryKind.LOSS, EntryKind.WIN)
                score[black] += 2
            entries[white].append(RoundEntry(kinds[0], black, Colour.WHITE))
            entries[black].append(RoundEntry(kinds[1], white, Colour.BLACK))
    return Tournament(
        tuple(Player(i, f"Player {i:04d}", tuple(entries[i]), rated[i - 1]) for i in ids),
        rounds,
        name=f"Random Swiss {players}x{rounds} (seed {seed})",
    )


def _pair(order: list[int], met: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Pair an even list top down, each with the nearest unmet player within the window."""
    pairs = []
    free = order[::-1]  # the next player to pair is at the end
    while free:
        top = free.pop()
        pick = -1
        for k in range(-1, -min(WINDOW, len(free)) - 1, -1):
            if (top, free[k]) not in met:
                pick = k
                break
        other = free.pop(pick)
        met.add((top, other))
        met.add((other, top))
        pairs.append((top, other))
    return pairs

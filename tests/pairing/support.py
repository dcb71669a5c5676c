"""Whole Swiss tournaments paired round by round by the engine, with seeded random results."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.pairing import RoundPairing, pair_round, pairing_problems, prepare

ABSENT = RoundEntry(EntryKind.ABSENT)


@dataclass
class Event:
    """A Swiss in progress: players, each one's entries so far, and pre-recorded requests."""

    players: int
    rounds: int
    seed: int
    late_entries: bool = True
    entries: dict[int, list[RoundEntry]] = field(default_factory=dict)
    ratings: dict[int, int | None] = field(default_factory=dict)
    withdrawn: set[int] = field(default_factory=set)
    #: Results follow the ratings (the Elo expectation, a fifth of games drawn) instead of
    #: being drawn at random: the top half wins round 1, as in a real open.
    by_rating: bool = False

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        rng = self.rng
        for i in range(1, self.players + 1):
            # Ratings are not in starting-number order: the initial order must sort them.
            self.ratings[i] = None if rng.random() < 0.1 else rng.randint(1000, 2500)
            self.entries[i] = []
        # A few late entries: zero-point byes before they join (as TRF files record them).
        late = max(1, self.players // 10) if self.late_entries else 0
        for i in rng.sample(range(1, self.players + 1), late):
            joins = rng.randint(2, max(2, self.rounds // 2))
            self.entries[i] = [RoundEntry(EntryKind.ZERO_BYE)] * (joins - 1)

    def tournament(self) -> Tournament:
        """The event so far; requests for coming rounds are recorded in their columns."""
        players = []
        for i, entries in self.entries.items():
            row = entries[: self.rounds]
            players.append(
                Player(
                    i,
                    f"Player {i}",
                    tuple(row) + (ABSENT,) * (self.rounds - len(row)),
                    self.ratings[i],
                )
            )
        return Tournament(tuple(players), self.rounds, name=f"seed {self.seed}")

    def request_byes(self, r: int) -> None:
        """Some players ask for a half- or zero-point bye in round r, or withdraw."""
        rng = self.rng
        for i, entries in self.entries.items():
            if len(entries) >= r or i in self.withdrawn:
                continue
            roll = rng.random()
            if roll < 0.05:
                entries.append(RoundEntry(EntryKind.HALF_BYE))
            elif roll < 0.08:
                entries.append(RoundEntry(EntryKind.ZERO_BYE))
            elif roll < 0.10 and r > 1:
                self.withdrawn.add(i)
                entries.extend([RoundEntry(EntryKind.WITHDRAWN)] * (self.rounds - r + 1))

    def play(self, pairing: RoundPairing) -> None:
        """Random results for the boards (1% forfeited), the bye recorded."""
        rng = self.rng
        for board in pairing.boards:
            roll = rng.random()
            w, b = board.white, board.black
            if roll < 0.01:
                self.entries[w].append(RoundEntry.forfeit_win(b))
                self.entries[b].append(RoundEntry.forfeit_loss(w))
                continue
            win, draw = 0.45, 0.7
            rw, rb = self.ratings[w], self.ratings[b]
            if self.by_rating and rw is not None and rb is not None:
                expected = 1 / (1 + 10 ** ((rb - rw) / 400))
                win, draw = expected - 0.1, expected + 0.1
            kind = (
                EntryKind.WIN if roll < win else EntryKind.DRAW if roll < draw else EntryKind.LOSS
            )
            mirror = {EntryKind.WIN: EntryKind.LOSS, EntryKind.LOSS: EntryKind.WIN}.get(kind, kind)
            self.entries[w].append(RoundEntry(kind, b, Colour.WHITE))
            self.entries[b].append(RoundEntry(mirror, w, Colour.BLACK))
        if pairing.bye is not None:
            self.entries[pairing.bye].append(RoundEntry(EntryKind.PAIRING_BYE))


def run_event(players: int, rounds: int, seed: int) -> Iterator[tuple[int, list[str]]]:
    """Pair and play every round; yield each round's number and the absolute criteria its
    pairing breaks (as core's own check words them)."""
    event = Event(players, rounds, seed)
    for r in range(1, rounds + 1):
        event.request_byes(r)
        request = prepare(event.tournament(), r)
        pairing = pair_round(request)
        yield r, [str(p) for p in pairing_problems(request, pairing)]
        event.play(pairing)

"""A results log replayed (one replay for the bot's log and the sheet's copy of it).

:func:`replay` takes the entries in force and hands each to the caller's step, which calls
:class:`Replay`'s ``set`` (a result between two players replaces whatever either had in that
round), ``bye`` and ``clear`` (the same for one player) and ``withdraw`` (the latest stands).

A log is a list of entries, oldest first; an undo names an earlier entry and takes it back.
An undo that is itself undone takes nothing back, so undoing an undo restores what it undid.
Walking from the newest entry back, each undo still in force takes its target out.

>>> log = [("a", None), ("b", None), ("u1", "a"), ("u2", "u1"), ("u3", "b")]
>>> sorted(undone(log, key=lambda e: e[0], undoes=lambda e: e[1]))
['b', 'u1']
>>> [e[0] for e in in_force(log, key=lambda e: e[0], undoes=lambda e: e[1])]
['a']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


def undone(
    log: Sequence[T], *, key: Callable[[T], K], undoes: Callable[[T], K | None]
) -> frozenset[K]:
    """The keys of the entries taken back by an undo in force (``undoes`` gives the key an
    entry undoes, None for an entry that is no undo)."""
    out: set[K] = set()
    for entry in reversed(log):
        if key(entry) in out:
            continue
        target = undoes(entry)
        if target is not None:
            out.add(target)
    return frozenset(out)


def in_force(
    log: Sequence[T], *, key: Callable[[T], K], undoes: Callable[[T], K | None]
) -> list[T]:
    """The entries still in force, oldest first: neither taken back nor undos themselves."""
    taken = undone(log, key=key, undoes=undoes)
    return [e for e in log if key(e) not in taken and undoes(e) is None]


Pair = tuple[int, int]
G = TypeVar("G")
B = TypeVar("B")
W = TypeVar("W")


@dataclass(slots=True)
class Board(Generic[G, B]):
    """One round of a replayed log: games by pair of players (lower id first) and byes by
    player. A player may be in several games here (two opponents claimed); a TD's set, bye
    or clear leaves the player in exactly what it says."""

    games: dict[Pair, G] = field(default_factory=dict)
    byes: dict[int, B] = field(default_factory=dict)
    of_player: dict[int, set[Pair]] = field(default_factory=dict)

    def add(self, a: int, b: int, game: G) -> Pair:
        """Put ``game`` between ``a`` and ``b`` (replacing that pair's game); its key."""
        key = (a, b) if a < b else (b, a)
        self.games[key] = game
        for p in key:
            self.of_player.setdefault(p, set()).add(key)
        return key

    def drop(self, key: Pair) -> None:
        """Take the game of ``key`` out."""
        del self.games[key]
        for p in key:
            self.of_player[p].discard(key)

    def clear(self, player: int) -> None:
        """Take out everything ``player`` has in the round (games and bye)."""
        for key in list(self.of_player.get(player, ())):
            self.drop(key)
        self.byes.pop(player, None)

    def set(self, a: int, b: int, game: G) -> Pair:
        """A result between ``a`` and ``b``: replaces whatever either had in the round."""
        self.clear(a)
        self.clear(b)
        return self.add(a, b, game)

    def bye(self, player: int, bye: B) -> None:
        """A bye (or other entry with no opponent): replaces whatever the player had."""
        self.clear(player)
        self.byes[player] = bye


@dataclass(slots=True)
class Replay(Generic[G, B, W]):
    """A results log replayed: a :class:`Board` per round and each player's withdrawal (the
    latest in force; the player's empty rounds from its round on are withdrawn)."""

    rounds: dict[int, Board[G, B]] = field(default_factory=dict)
    withdrawn: dict[int, W] = field(default_factory=dict)

    def board(self, round: int) -> Board[G, B]:
        """The round's board (made empty on first use)."""
        found = self.rounds.get(round)
        if found is None:
            found = self.rounds[round] = Board()
        return found

    def set(self, round: int, a: int, b: int, game: G) -> Pair:
        return self.board(round).set(a, b, game)

    def bye(self, round: int, player: int, bye: B) -> None:
        self.board(round).bye(player, bye)

    def clear(self, round: int, player: int) -> None:
        self.board(round).clear(player)

    def withdraw(self, player: int, withdrawal: W) -> None:
        self.withdrawn[player] = withdrawal


def replay(
    log: Sequence[T],
    step: Callable[[Replay[G, B, W], T], None],
    *,
    key: Callable[[T], K],
    undoes: Callable[[T], K | None],
) -> Replay[G, B, W]:
    """Replay the entries of ``log`` in force (:func:`in_force`), oldest first, each by
    ``step`` (which reads the entry and calls the replay's set, bye, clear or withdraw)."""
    out: Replay[G, B, W] = Replay()
    for entry in in_force(log, key=key, undoes=undoes):
        step(out, entry)
    return out

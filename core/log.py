"""A results log replayed (one replay for the bot's log and the sheet's copy of it).

:func:`replay` takes the entries in force and hands each to the caller's step, which calls
:class:`Replay`'s ``set`` (a result between two players replaces whatever either had in that
round), ``bye`` and ``clear`` (the same for one player) and ``withdraw`` (the latest stands).

A log is a list of entries, oldest first; an undo names an earlier entry and takes it back.
An undo that is itself undone takes nothing back, so undoing an undo restores what it undid.
Walking from the newest entry back, each undo still in force takes its target out.

:class:`LiveReplay` keeps a replay as its log grows, at the cost of each new entry: an entry
that is no undo is stepped on the replay as it stands; an undo replays again only the parts
(rounds, players' withdrawals) whose entries it takes back or restores. It gives exactly
what :func:`replay` gives for the whole log.

>>> log = [("a", None), ("b", None), ("u1", "a"), ("u2", "u1"), ("u3", "b")]
>>> sorted(undone(log, key=lambda e: e[0], undoes=lambda e: e[1]))
['b', 'u1']
>>> [e[0] for e in in_force(log, key=lambda e: e[0], undoes=lambda e: e[1])]
['a']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

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
    or clear leaves the player in exactly what it says. ``of_player`` gives each player's
    games' keys, oldest first (a tuple of pairs of numbers: a section of 10,000 players
    keeps one a player and round, so it is the smallest thing that holds them)."""

    games: dict[Pair, G] = field(default_factory=dict)
    byes: dict[int, B] = field(default_factory=dict)
    of_player: dict[int, tuple[Pair, ...]] = field(default_factory=dict)

    def add(self, a: int, b: int, game: G) -> Pair:
        """Put ``game`` between ``a`` and ``b`` (replacing that pair's game); its key."""
        key = (a, b) if a < b else (b, a)
        if key not in self.games:
            for p in key:
                self.of_player[p] = (*self.of_player.get(p, ()), key)
        self.games[key] = game
        return key

    def drop(self, key: Pair) -> None:
        """Take the game of ``key`` out."""
        del self.games[key]
        for p in key:
            left = tuple(k for k in self.of_player[p] if k != key)
            if left:
                self.of_player[p] = left
            else:
                del self.of_player[p]

    def clear(self, player: int) -> None:
        """Take out everything ``player`` has in the round (games and bye)."""
        for key in self.of_player.get(player, ()):
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


class Part(NamedTuple):
    """What an entry of a log changes in a :class:`Replay`, and no entry of another part
    does: the board of round ``number``, or (``withdrawal``) player ``number``'s
    withdrawal."""

    withdrawal: bool
    number: int


class LiveReplay(Generic[T, K, G, B, W]):
    """A log's replay kept as the log grows: always what :func:`replay` gives for the log so
    far, at the cost of what is added rather than of the whole log.

    An entry that is no undo is newer than every other, so it is in force and changes what
    is in force of no other: it is stepped on the replay as it stands. An undo changes which
    earlier entries are in force (:func:`undone`; it may restore some, by undoing an undo):
    :meth:`changes` names them, the caller hands :meth:`add` every entry of the parts they
    belong to, and those parts alone are replayed again. This holds as long as ``step``
    changes only the part ``part`` names for its entry (a round's board, or a player's
    withdrawal), whatever else is in the replay.

    >>> def step(state, e):
    ...     state.bye(1, e[0], e[0])
    >>> live = LiveReplay.of([("a", None), ("b", None)], step, key=lambda e: e[0],
    ...                      undoes=lambda e: e[1], part=lambda e: Part(False, 1))
    >>> sorted(live.state.rounds[1].byes)
    ['a', 'b']
    >>> live.changes(("u", "a"))
    frozenset({'a'})
    >>> live.add(("u", "a"), {Part(False, 1): [("a", None), ("b", None)]})
    {Part(withdrawal=False, number=1)}
    >>> sorted(live.state.rounds[1].byes), sorted(live.undone)
    (['b'], ['a'])
    """

    def __init__(
        self,
        step: Callable[[Replay[G, B, W], T], None],
        *,
        key: Callable[[T], K],
        undoes: Callable[[T], K | None],
        part: Callable[[T], Part],
    ) -> None:
        self.state: Replay[G, B, W] = Replay()
        self._step, self._key, self._undoes, self._part = step, key, undoes, part
        self._undos: list[T] = []
        self._undo_keys: set[K] = set()
        #: The keys of the entries taken back so far (:func:`undone` of the log).
        self.undone: frozenset[K] = frozenset()

    @classmethod
    def of(
        cls,
        log: Sequence[T],
        step: Callable[[Replay[G, B, W], T], None],
        *,
        key: Callable[[T], K],
        undoes: Callable[[T], K | None],
        part: Callable[[T], Part],
    ) -> LiveReplay[T, K, G, B, W]:
        """The replay of ``log`` (by :func:`replay`), ready to grow."""
        live: LiveReplay[T, K, G, B, W] = cls(step, key=key, undoes=undoes, part=part)
        live.state = replay(log, step, key=key, undoes=undoes)
        live._undos = [e for e in log if undoes(e) is not None]
        live._undo_keys = {key(e) for e in live._undos}
        live.undone = undone(live._undos, key=key, undoes=undoes)
        return live

    @classmethod
    def begin(
        cls,
        undos: Sequence[T],
        step: Callable[[Replay[G, B, W], T], None],
        *,
        key: Callable[[T], K],
        undoes: Callable[[T], K | None],
        part: Callable[[T], Part],
    ) -> LiveReplay[T, K, G, B, W]:
        """An empty replay of a log whose undos are ``undos`` (every one, oldest first), to
        be fed the log's entries in order (:meth:`feed`): a log read a piece at a time
        gives what :func:`replay` gives once it has all been fed."""
        live: LiveReplay[T, K, G, B, W] = cls(step, key=key, undoes=undoes, part=part)
        live._undos = list(undos)
        live._undo_keys = {key(e) for e in undos}
        live.undone = undone(live._undos, key=key, undoes=undoes)
        return live

    def feed(self, entries: Iterable[T]) -> None:
        """Step the next entries of the log :meth:`begin` started (in order): those in
        force, as :func:`replay` does."""
        taken, undoes, step, state = self.undone, self._undoes, self._step, self.state
        for entry in entries:
            if undoes(entry) is None and self._key(entry) not in taken:
                step(state, entry)

    def changes(self, entry: T) -> frozenset[K]:
        """The keys of the earlier entries (undos left out) that ``entry``, added next,
        takes back or restores: none unless it is an undo."""
        if self._undoes(entry) is None:
            return frozenset()
        after = undone([*self._undos, entry], key=self._key, undoes=self._undoes)
        return frozenset(k for k in after ^ self.undone if k not in self._undo_keys)

    def add(self, entry: T, parts: Mapping[Part, Iterable[T]] | None = None) -> set[Part]:
        """Advance by ``entry`` (newer than every entry so far); the parts it changed.

        For an undo, ``parts`` gives every entry (oldest first) of each part that an entry
        :meth:`changes` names belongs to: each such part is replayed again from those of
        its entries in force. Undos among them count for nothing: which entries are in
        force is known here."""
        if self._undoes(entry) is None:
            self._step(self.state, entry)
            return {self._part(entry)}
        self._undos.append(entry)
        self._undo_keys.add(self._key(entry))
        self.undone = undone(self._undos, key=self._key, undoes=self._undoes)
        for part, entries in (parts or {}).items():
            if part.withdrawal:
                self.state.withdrawn.pop(part.number, None)
            else:
                self.state.rounds.pop(part.number, None)
            for e in entries:
                if self._undoes(e) is None and self._key(e) not in self.undone:
                    self._step(self.state, e)
        return set(parts or {})

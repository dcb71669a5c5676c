"""What the store keeps in memory between answers, bounded in bytes: each tournament's fold
(:mod:`bot.store.live`) and its standings (:meth:`bot.store.Store.standings`).

Each value is put in with an estimate of its size in bytes (its maker's: so many bytes a
game, a player, a round entry). The cache holds at most ``limit`` bytes in all and at most
``guild_share`` for one server: a new value first makes room among its own server's least
recently used values, then among everyone's; a value larger than the share is not kept. So
one server's largest sections never push another server's out beyond its share, and the
process's memory for them has a bound whatever the servers do. What the cache lets go of
is handed to ``release`` (the store frees a large state a piece at a time off the event
loop: :func:`bot.store.collector.let_go`).

>>> kept = Kept(limit=100, guild_share=60)
>>> kept.put("a1", "a", "A's first", 40), kept.put("a2", "a", "A's second", 40)
(True, True)
>>> kept.get("a1") is None, kept.get("a2"), kept.size("a")
(True, "A's second", 40)
>>> kept.put("b1", "b", "B's", 50), kept.size(), kept.put("big", "b", "too big", 61)
(True, 90, False)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MB = 1024 * 1024


@dataclass(slots=True)
class _Entry(Generic[V]):
    guild: str
    value: V
    size: int


class Kept(Generic[K, V]):
    """Values by key, least recently used first out, within ``limit`` bytes in all and
    ``guild_share`` bytes a server."""

    def __init__(
        self, limit: int, guild_share: int, release: Callable[[object], None] | None = None
    ) -> None:
        self.limit = limit
        self.guild_share = min(guild_share, limit)
        #: Given each value the cache lets go of (to free a large one off the event loop).
        self._release = release
        self._entries: OrderedDict[K, _Entry[V]] = OrderedDict()
        self._total = 0
        self._by_guild: dict[str, int] = {}

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        found = self._entries.get(key)
        if found is None:
            return None
        self._entries.move_to_end(key)
        return found.value

    def put(self, key: K, guild: str, value: V, size: int) -> bool:
        """Keep ``value`` (about ``size`` bytes) for ``guild``'s ``key``; whether it is
        kept (not when larger than a server's share)."""
        self.forget(key)
        if size > self.guild_share:
            return False
        for other in [k for k, e in self._entries.items() if e.guild == guild]:
            if self._by_guild.get(guild, 0) + size <= self.guild_share:
                break
            self.forget(other)
        while self._total + size > self.limit and self._entries:
            self.forget(next(iter(self._entries)))
        self._entries[key] = _Entry(guild, value, size)
        self._total += size
        self._by_guild[guild] = self._by_guild.get(guild, 0) + size
        return True

    def forget(self, key: K) -> None:
        """Let the value of ``key`` go (if any)."""
        found = self._entries.pop(key, None)
        if found is None:
            return
        if self._release is not None:
            self._release(found.value)
        self._total -= found.size
        left = self._by_guild[found.guild] - found.size
        if left:
            self._by_guild[found.guild] = left
        else:
            del self._by_guild[found.guild]

    def size(self, guild: str | None = None) -> int:
        """Bytes kept (for ``guild``, or in all), as estimated."""
        return self._total if guild is None else self._by_guild.get(guild, 0)

    def __len__(self) -> int:
        return len(self._entries)

    def order(self) -> list[K]:
        """The keys kept, least recently used first."""
        return list(self._entries)

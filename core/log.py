"""A results log: what its undos take back (one rule for the bot's log and the sheet's copy).

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
from typing import TypeVar

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

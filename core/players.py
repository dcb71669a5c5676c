"""Finding a player by what someone typed: one ranking for every front door.

What was typed is read as a starting number (``12``, ``#12``) if it is one; otherwise as a
name, compared by :func:`core.names.name_key` (case and spacing ignored) and ranked:
the names equal to it, else (when ``partial``) the names starting with it, else the names
containing it. The first rank with any match decides: one match is the player, several are
ambiguous. A front door words "no such player" and "which one?" in its own way, from the
:class:`Found` it gets back and the names :func:`close_to` what was typed, or shows the
coded :func:`unfound` problem.

>>> roster = [(1, "Ann Lee"), (2, "Dana Ng"), (3, "Anna Ito")]
>>> find(roster, "an", number=lambda p: p[0], name=lambda p: p[1]).match
>>> find(roster, "dan", number=lambda p: p[0], name=lambda p: p[1]).match
(2, 'Dana Ng')
>>> found = find(roster, "#3", number=lambda p: p[0], name=lambda p: p[1])
>>> found.how, found.match
('number', (3, 'Anna Ito'))
>>> find(roster, "ann", number=lambda p: p[0], name=lambda p: p[1]).how
'prefix'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from core.limits import quote, shorten
from core.names import name_key
from core.problems import Problem

T = TypeVar("T")
How = Literal["number", "exact", "prefix", "substring", "none"]

#: A starting number as typed: digits, optionally after ``#``.
_NUMBER = re.compile(r"#?\s*(\d+)", re.ASCII)
#: Digits beyond this many are no starting number any section has (and never parsed).
_NUMBER_DIGITS = 9


@dataclass(frozen=True, slots=True)
class Found(Generic[T]):
    """What a lookup found: the candidates of the rank that decided (none, one or several)
    and that rank (``how``); ``digits`` is the starting number typed, if one was, and
    ``number`` its value (None when it is too long to be anyone's)."""

    matches: tuple[T, ...]
    how: How
    digits: str = ""

    @property
    def number(self) -> int | None:
        """The starting number typed, if one was and it is short enough to be anyone's."""
        digits = self.digits
        return int(digits) if digits and len(digits) <= _NUMBER_DIGITS else None

    @property
    def match(self) -> T | None:
        """The one player found, or None (nobody, or several)."""
        return self.matches[0] if len(self.matches) == 1 else None

    @property
    def ambiguous(self) -> bool:
        return len(self.matches) > 1


def typed_digits(text: str) -> str | None:
    """The digits of the starting number ``text`` is (``12``, ``#12``, ``# 12``), or None.

    >>> typed_digits(" #12 "), typed_digits("12b"), typed_digits("١٢")
    ('12', None, None)
    """
    m = _NUMBER.fullmatch(text.strip())
    return m.group(1) if m else None


class Roster(Generic[T]):
    """Players indexed once for many lookups (a game list names a player on every row):
    by starting number and by :func:`~core.names.name_key`."""

    def __init__(
        self, players: Iterable[T], *, number: Callable[[T], int], name: Callable[[T], str]
    ) -> None:
        self.players = list(players)
        self._keys = [(p, name_key(name(p))) for p in self.players]
        self._numbers: dict[int, list[T]] = {}
        self._names: dict[str, list[T]] = {}
        for p, key in self._keys:
            self._numbers.setdefault(number(p), []).append(p)
            self._names.setdefault(key, []).append(p)

    def find(self, typed: str, *, partial: bool = True) -> Found[T]:
        """The players ``typed`` names, by the one ranking (module docstring): number,
        exact name, then (with ``partial``) prefix, then substring. Without ``partial`` (a
        TD's cell on a sheet, which must say exactly whom it means) only the exact name
        counts."""
        digits = typed_digits(typed)
        if digits is not None:
            wanted = int(digits) if len(digits) <= _NUMBER_DIGITS else 0
            return Found(tuple(self._numbers.get(wanted, ())), "number", digits)
        key = name_key(typed)
        if not key:
            return Found((), "none")
        exact = self._names.get(key)
        if exact:
            return Found(tuple(exact), "exact")
        if partial:
            ranks: tuple[tuple[How, Callable[[str], bool]], ...] = (
                ("prefix", lambda k: k.startswith(key)),
                ("substring", lambda k: key in k),
            )
            for how, matches in ranks:
                found = tuple(p for p, k in self._keys if matches(k))
                if found:
                    return Found(found, how)
        return Found((), "none")


def find(
    candidates: Iterable[T],
    typed: str,
    *,
    number: Callable[[T], int],
    name: Callable[[T], str],
    partial: bool = True,
) -> Found[T]:
    """The candidates ``typed`` names (:meth:`Roster.find`, for a single lookup)."""
    return Roster(candidates, number=number, name=name).find(typed, partial=partial)


def close_to(
    typed: str, candidates: Sequence[T], *, name: Callable[[T], str], most: int = 5
) -> list[T]:
    """The candidates whose names look like ``typed`` (a typo's suggestions), closest first:
    at most ``most``, each at least half like it (:func:`difflib.get_close_matches`).

    >>> roster = [(1, "Ann Lee"), (2, "Dana Ng"), (3, "Anna Ito")]
    >>> close_to("Dane Ng", roster, name=lambda p: p[1])
    [(2, 'Dana Ng')]
    >>> close_to("Zed", roster, name=lambda p: p[1])
    []
    """
    by_name: dict[str, list[T]] = {}
    for p in candidates:
        by_name.setdefault(name(p), []).append(p)
    close = difflib.get_close_matches(typed.strip(), list(by_name), n=most, cutoff=0.5)
    return [p for n in close for p in by_name[n]][:most]


def unfound(
    found: Found[T],
    typed: str,
    candidates: Sequence[T],
    *,
    number: Callable[[T], int],
    name: Callable[[T], str],
) -> Problem:
    """Why ``typed`` names no one of ``candidates`` (``found`` is its :func:`find` with no
    :attr:`~Found.match`), as a problem with field ``player`` and value ``typed``: code
    ``unknown-number`` (no such starting number; the range there is), ``ambiguous-player``
    (the first ten candidates), or ``unknown-player`` (close names, else the first eight).
    :attr:`~core.problems.Problem.detail` leaves out the ``PLAYER`` the command line names.

    >>> roster = [(1, "Ann Lee"), (2, "Dana Ng"), (3, "Anna Ito")]
    >>> def why(typed: str) -> Problem:
    ...     found = find(roster, typed, number=lambda p: p[0], name=lambda p: p[1])
    ...     return unfound(found, typed, roster, number=lambda p: p[0], name=lambda p: p[1])
    >>> why("an").code, why("an").detail  # doctest: +ELLIPSIS
    ('ambiguous-player', "'an' matches 2 players: Ann Lee (#1), Anna Ito (#3); give more of ...")
    >>> why("9").message
    "PLAYER '9': there is no player 9; starting numbers run 1–3"
    >>> why("Dane Ng").code, why("Dane Ng").detail
    ('unknown-player', "'Dane Ng': no player has that name; did you mean Dana Ng?")
    """
    if found.how == "number":
        last = max(map(number, candidates), default=0)
        code, why = (
            "unknown-number",
            (f": there is no player {shorten(found.digits)}; starting numbers run 1–{last}"),
        )
    elif found.ambiguous:
        shown = ", ".join(f"{name(p)} (#{number(p)})" for p in found.matches[:10])
        more = f" and {len(found.matches) - 10} more" if len(found.matches) > 10 else ""
        code, why = (
            "ambiguous-player",
            (
                f" matches {len(found.matches)} players: {shown}{more}; "
                "give more of the name or the number"
            ),
        )
    else:
        names = [name(p) for p in candidates]
        close = [name(p) for p in close_to(typed, candidates, name=name)]
        hint = (
            f"; did you mean {', '.join(close)}?"
            if close
            else f"; players are {', '.join(names[:8])}" + ("…" if len(names) > 8 else "")
        )
        code, why = "unknown-player", f": no player has that name{hint}"
    detail = f"{quote(typed)}{why}"
    return Problem(f"PLAYER {detail}", code=code, field="player", value=typed, detail=detail)

"""An explanation's reasons as plain JSON data: each a kind and its values, no words.

``harkness explain --format json`` carries these beside its words (:func:`core.explain_render.
to_json_dict`), so that a program reading the JSON decides by the kind and the values, never
by the sentences. Each reason is an object:

- ``"kind"``: the kind's stable name (:class:`core.explain.Why` for comparisons and notes,
  :class:`core.tiebreaks.notes.RoundWhy` for a round's note), e.g. ``"decided"``,
  ``"shares-place"``, ``"opponent-score"``;
- the values that kind fills in, under the field names of :class:`~core.explain.Comparison`,
  :class:`~core.explain.Note` and :class:`~core.tiebreaks.notes.RoundNote`; a value the
  kind leaves at its default (none, empty, 0) is left out.

Exact numbers (scores, tiebreak values, the points taken off) are objects
``{"num": int, "den": int}``: the fraction in lowest terms, ``den`` ≥ 1 (5½ is
``{"num": 11, "den": 2}``); JSON's own numbers are binary floating point and could not hold
a third or a sixth exactly. Half-point counts are given as such exact points. Entry kinds are
their names (``"forfeit win"``, ``"half-point bye"``), players as named in the explanation
(``other``: the other player's starting number ``id``, ``name``, ``place`` and ``score``).

>>> from fractions import Fraction
>>> from core.explain import Note, Why
>>> note_data(Note(Why.SHARES_PLACE, players=("Ann",), score=Fraction(11, 2), place="3-4"))
{'kind': 'shares-place', 'players': ['Ann'], 'score': {'num': 11, 'den': 2}, 'place': '3-4'}
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from fractions import Fraction
from typing import Any

from core.awards.reasons import AwardNote, Item
from core.explain import Comparison, Note, Placed, RoundNote


def exact(value: Fraction | int | None) -> dict[str, int] | None:
    """An exact number as ``{"num", "den"}`` (None stays None).

    >>> exact(Fraction(-7, 3)), exact(2), exact(None)
    ({'num': -7, 'den': 3}, {'num': 2, 'den': 1}, None)
    """
    if value is None:
        return None
    value = Fraction(value)
    return {"num": value.numerator, "den": value.denominator}


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return exact(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _given(obj: Any, special: dict[str, Any]) -> dict[str, Any]:
    """The kind, then every field of ``obj`` not at its default (``special`` overrides)."""
    data: dict[str, Any] = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name != "kind" and value == f.default:
            continue
        data[f.name] = special[f.name] if f.name in special else _plain(value)
    return data


def _placed(p: Placed) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "place": p.place, "score": exact(p.score)}


def comparison_data(c: Comparison) -> dict[str, Any]:
    """How the player compares with one neighbour: ``kind``, ``other``, ``above``,
    ``decided_by``, ``ours``, ``theirs``, ``equal`` (``[code, value]`` pairs), ``text``."""
    data = {
        "kind": c.kind.value,
        "other": _placed(c.other),
        "above": c.above,
        "decided_by": c.decided_by,
        "ours": exact(c.ours),
        "theirs": exact(c.theirs),
        "equal": [[code, exact(value)] for code, value in c.equal],
    }
    if c.text:
        data["text"] = c.text
    return data


def note_data(n: Note) -> dict[str, Any]:
    """A note of the explanation, or a tiebreak's adjustment or variant; ``taken`` lists
    ``{"round", "entry", "points"}`` (US Chess 34E3's subtraction)."""
    taken = [{"round": r, "entry": k.value, "points": exact(Fraction(h, 2))} for r, k, h in n.taken]
    return _given(n, {"taken": taken})


def round_note_data(n: RoundNote | None) -> dict[str, Any] | None:
    """Why one round counts what it does (None: the round's entry says it all); ``half``
    lists ``{"round", "entry"}`` (the opponent's rounds counted ½, US Chess 34E1) and
    ``taken`` is in points."""
    if n is None:
        return None
    half = [{"round": r, "entry": k.value} for r, k in n.half]
    return _given(n, {"half": half, "taken": exact(Fraction(n.taken, 2))})


def reason_data(reason: Comparison | Note) -> dict[str, Any]:
    """The short why (:attr:`core.explain.Explanation.reason`) as data."""
    return comparison_data(reason) if isinstance(reason, Comparison) else note_data(reason)


def award_note_data(n: AwardNote) -> dict[str, Any]:
    """A reason of an award (:class:`core.awards.reasons.AwardNote`) as data: its ``kind``
    and the values it fills in; ``items`` lists ``{"prize", "amount", "players", "score"}``
    (what is given of each).

    >>> from core.awards.reasons import AwardWhy, Item
    >>> award_note_data(AwardNote(AwardWhy.CAP, prize="3rd", amount=Fraction(536)))
    {'kind': 'cap', 'prize': '3rd', 'amount': {'num': 536, 'den': 1}}
    """
    items = [_given_item(item) for item in n.items]
    return _given(n, {"items": items})


def _given_item(item: Item) -> dict[str, Any]:
    data: dict[str, Any] = {"prize": item.prize}
    if item.amount is not None:
        data["amount"] = exact(item.amount)
    if item.players:
        data["players"] = list(item.players)
    if item.score is not None:
        data["score"] = exact(item.score)
    return data

"""One prize from its fields, checked: the one place a prize's values are read, whether they
come from a prize file's ``[[prize]]`` table, a bot command or a sheet's row.

Each problem is a :class:`~core.problems.Problem` with its code, the key (``field``), the
value given and what was expected (``detail``), located by the caller's ``locate`` (a file's
line, a sheet's cell). Values are typed as TOML gives them: whole numbers as ``int``,
decimals as :class:`~decimal.Decimal` (the reader asks TOML for exact decimals), text as
``str``, yes/no as ``bool``.

>>> from decimal import Decimal
>>> prize, problems = read_prize_fields({"name": "1st U1800", "under": 1800, "amount": Decimal("75.50")})
>>> prize.kind, prize.high, prize.amount, problems
(<Kind.UNDER: 'under'>, 1800, Fraction(151, 2), [])
>>> _, problems = read_prize_fields({"name": "Top A", "class": [1800, 1999], "amonut": 40})
>>> [(p.code, p.field) for p in problems]
[('unknown-key', 'amonut'), ('missing-key', 'amount')]
>>> problems[0].detail
"unknown key 'amonut'; did you mean 'amount'?"
"""  # noqa: E501

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core.awards.model import Kind, Prize
from core.limits import AMOUNT_DECIMALS, MAX_AMOUNT, MAX_PLAYERS, MAX_PRIZES, MAX_RATING, quote
from core.names import name_problem, tidy
from core.problems import Problem

__all__ = [
    "KIND_KEYS",
    "PRIZE_KEYS",
    "Locate",
    "amount_value",
    "bad_value",
    "did_you_mean",
    "read_prize_fields",
    "unknown_key",
    "whole_value",
]

#: The keys of one prize, in the order a prize file is documented.
PRIZE_KEYS = (
    "name",
    "amount",
    "trophy",
    "place",
    "class",
    "under",
    "from",
    "unrated",
    "category",
    "rank",
    "additive",
    "team",
)
#: A prize has exactly one of these: its kind.
KIND_KEYS = ("place", "class", "under", "unrated", "category")

#: Where a key is, as keyword arguments of a Problem (``path``, ``line``…); None: the prize.
Locate = Callable[[str | None], Mapping[str, Any]]


def _nowhere(key: str | None) -> Mapping[str, Any]:
    return {}


class _Bad(ValueError):
    """A value that is not what its key takes; the message says what was expected."""


def did_you_mean(value: str, known: Iterable[str], cutoff: float = 0.6) -> str:
    """``; did you mean 'x'?`` with the known word nearest ``value``, or "" if none is near.

    >>> did_you_mean("yuoth", ["youth", "senior"]), did_you_mean("zzz", ["youth"])
    ("; did you mean 'youth'?", '')
    """
    close = difflib.get_close_matches(value, list(known), n=1, cutoff=cutoff)
    return f"; did you mean {close[0]!r}?" if close else ""


def unknown_key(key: str, known: Iterable[str], where: str, locate: Locate) -> Problem:
    """An ``unknown-key`` problem, with the nearest known key suggested (else the keys).

    >>> unknown_key("ammount", PRIZE_KEYS, "prize 2", _nowhere).message
    "prize 2: unknown key 'ammount'; did you mean 'amount'?"
    """
    hint = did_you_mean(key.lower(), known) or f"; the keys are {', '.join(known)}"
    detail = f"unknown key {quote(key)}{hint}"
    return Problem(
        f"{where}: {detail}",
        code="unknown-key",
        field=key,
        value=key,
        detail=detail,
        **locate(key),
    )


def bad_value(key: str, value: object, expected: str, where: str, locate: Locate) -> Problem:
    """A ``bad-prize-value`` problem: ``key`` has ``value``, ``expected`` says what it takes.

    >>> bad_value("place", 0, "a whole number from 1", "prize 1", _nowhere).message
    'prize 1: place must be a whole number from 1, got 0'
    """
    shown = _shown(value)
    detail = f"{key} must be {expected}, got {shown}"
    return Problem(
        f"{where}: {detail}",
        code="bad-prize-value",
        field=key,
        value=shown,
        detail=detail,
        **locate(key),
    )


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote(value)
    return quote(str(value)) if isinstance(value, list | dict) else str(value)


def whole_value(value: object, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``; raises :class:`_Bad`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _Bad(f"a whole number from {low} to {high:,}")
    return value


def amount_value(value: object, zero: bool = False) -> Fraction:
    """An amount of money: a number above 0 (or 0, with ``zero``) and at most
    :data:`~core.limits.MAX_AMOUNT`, with at most two decimals; exact.

    >>> amount_value(Decimal("162.50")), amount_value(300)
    (Fraction(325, 2), Fraction(300, 1))
    >>> amount_value(Decimal("0.005"))
    Traceback (most recent call last):
    ...
    core.awards.fields._Bad: a number above 0 and at most 1,000,000,000, in cents (2 decimals at most)
    """  # noqa: E501
    expected = (
        f"a number {'from 0' if zero else 'above 0'} and at most {MAX_AMOUNT:,}, in cents "
        f"({AMOUNT_DECIMALS} decimals at most)"
    )
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise _Bad(expected)
    number: int | Decimal = value
    if isinstance(number, Decimal):
        if not number.is_finite():
            raise _Bad(expected)
        exponent = number.normalize().as_tuple().exponent
        if not isinstance(exponent, int) or exponent < -AMOUNT_DECIMALS:
            raise _Bad(expected)
    if (
        abs(Decimal(number)) > MAX_AMOUNT
    ):  # checked before the Fraction is made: 1e999999 is a Decimal
        raise _Bad(expected)
    amount = Fraction(number)
    if amount < 0 or (amount == 0 and not zero):
        raise _Bad(expected)
    return amount


def _name(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise _Bad(f"a {what} in quotes")
    problem = name_problem(value, what)
    if problem is not None:
        raise _Bad(f"a {what} that {problem.detail}")
    return tidy(value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Bad("true or false")
    return value


def _rating_pair(value: object) -> tuple[int, int]:
    expected = f"two ratings [MIN, MAX] from 0 to {MAX_RATING}, MIN ≤ MAX"
    if not isinstance(value, list) or len(value) != 2:
        raise _Bad(expected)
    try:
        low, high = (whole_value(v, 0, MAX_RATING) for v in value)
    except _Bad:
        raise _Bad(expected) from None
    if low > high:
        raise _Bad(expected)
    return low, high


def read_prize_fields(
    fields: Mapping[str, object],
    order: int = 0,
    locate: Locate = _nowhere,
    where: str = "",
) -> tuple[Prize | None, list[Problem]]:
    """The prize these fields describe (``order``: its position in the list, 0-based), or
    None, and every problem found. ``where`` names the prize in messages (``prize 3``)."""
    where = where or f"prize {order + 1}"
    name = fields.get("name")
    if isinstance(name, str) and name_problem(name, "prize name") is None:
        where = f"{where} ({quote(tidy(name))})"
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    for key, value in fields.items():
        if key not in PRIZE_KEYS:
            problems.append(unknown_key(key, PRIZE_KEYS, where, locate))
            continue
        try:
            values[key] = _read(key, value)
        except _Bad as bad:
            problems.append(bad_value(key, value, str(bad), where, locate))
    if "name" not in fields:
        problems.append(_missing("name", "a name", where, locate))
    kinds = [k for k in KIND_KEYS if k in fields]
    if len(kinds) != 1:
        detail = (
            "a prize needs one of place, class, under, unrated, category"
            if not kinds
            else f"a prize has one kind, not {' and '.join(kinds)}"
        )
        problems.append(
            Problem(f"{where}: {detail}", code="prize-kind", detail=detail, **locate(None))
        )
    if "amount" not in fields and values.get("trophy") is not True:
        problems.append(_missing("amount", "an amount, or trophy = true", where, locate))
    problems += _combinations(fields, values, where, locate)
    if problems:
        return None, problems
    kind = Kind(kinds[0])
    low = high = None
    if kind is Kind.CLASS:
        low, high = values["class"]
    elif kind is Kind.UNDER:
        low, high = values.get("from"), values["under"]
    prize = Prize(
        name=values["name"],
        kind=kind,
        amount=values.get("amount"),
        trophy=values.get("trophy", False),
        place=values.get("place"),
        low=low,
        high=high,
        category=values.get("category", ""),
        rank=values.get("rank", 1),
        additive=values.get("additive", False),
        team=values.get("team", False),
        order=order,
    )
    return prize, []


def _read(key: str, value: object) -> object:
    if key == "name":
        return _name(value, "prize name")
    if key == "category":
        return _name(value, "category name")
    if key == "amount":
        return amount_value(value)
    if key in ("trophy", "additive", "team"):
        return _flag(value)
    if key == "unrated":
        if value is not True:
            raise _Bad("true (a prize for unrated players)")
        return True
    if key == "place":
        return whole_value(value, 1, MAX_PLAYERS)
    if key == "rank":
        return whole_value(value, 1, MAX_PRIZES)
    if key == "class":
        return _rating_pair(value)
    if key == "under":
        return whole_value(value, 1, MAX_RATING + 1)
    return whole_value(value, 0, MAX_RATING)  # from


def _missing(key: str, expected: str, where: str, locate: Locate) -> Problem:
    detail = f"a prize needs {expected}"
    return Problem(
        f"{where}: {detail}", code="missing-key", field=key, detail=detail, **locate(None)
    )


def _combinations(
    fields: Mapping[str, object], values: Mapping[str, Any], where: str, locate: Locate
) -> list[Problem]:
    """Keys that are fine alone but not together."""
    problems = []
    if "from" in fields and "under" not in fields:
        problems.append(bad_value("from", fields["from"], "given with under", where, locate))
    under, low = values.get("under"), values.get("from")
    if isinstance(under, int) and isinstance(low, int) and low >= under:
        problems.append(bad_value("from", low, f"below under ({under})", where, locate))
    if "rank" in fields and "place" in fields:
        problems.append(
            bad_value(
                "rank", fields["rank"], "left out: a place prize's place is its rank", where, locate
            )
        )
    if values.get("team") and "place" not in fields:
        problems.append(
            bad_value(
                "team", True, "given with place (team prizes are place prizes)", where, locate
            )
        )
    if values.get("team") and values.get("additive"):
        problems.append(bad_value("additive", True, "false for a team prize", where, locate))
    return problems

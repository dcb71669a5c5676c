"""A prize list written as a prize file (TOML), the form :mod:`core.awards.prizefile` reads:
what a front door that keeps prizes its own way (the bot's store) hands back to a TD, to
keep, edit or give to ``harkness awards``. Reading what is written gives the same list.

>>> from core.awards.prizefile import read_prizes
>>> text = write_prizes(read_prizes('currency = "$"\\n[[prize]]\\nname = "Top youth"\\n'
...     'category = "youth"\\namount = 150.50\\n[categories]\\nyouth = [4, 9]\\n'))
>>> print(text, end="")
method = "us-chess"
currency = "$"
<BLANKLINE>
[[prize]]
name = "Top youth"
amount = 150.50
category = "youth"
<BLANKLINE>
[categories]
"youth" = [4, 9]
>>> read_prizes(text).prizes[0].amount
Fraction(301, 2)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core.awards.model import Kind, Prize, PrizeList

__all__ = ["prize_keys", "write_prizes", "written_amount"]

#: The default of ``[team] count``: written only when the list says otherwise.
DEFAULT_TEAM_COUNT = 4


def _text(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def written_amount(value: Fraction) -> str:
    """An amount of at most two decimals, exactly, as a prize file writes it: ``300``,
    ``162.50``.

    >>> written_amount(Fraction(325, 2)), written_amount(Fraction(300))
    ('162.50', '300')
    """
    cents = value * 100
    if cents.denominator != 1:  # never from a prize list (2 decimals at most)
        raise ValueError(f"{value} is not a whole number of cents")
    whole, rest = divmod(int(cents), 100)
    return f"{whole}.{rest:02d}" if rest else str(whole)


def _numbers(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def prize_keys(prize: Prize) -> dict[str, Any]:
    """A prize as its ``[[prize]]`` table's keys and values (an amount as an exact
    ``Decimal``): what :func:`~core.awards.fields.read_prize_fields` reads back to the same
    prize.

    >>> prize_keys(Prize("1st U2000", Kind.UNDER, Fraction(151, 2), high=2000, low=1800, rank=2))
    {'name': '1st U2000', 'amount': Decimal('75.50'), 'under': 2000, 'from': 1800, 'rank': 2}
    """
    keys: dict[str, Any] = {"name": prize.name}
    if prize.amount is not None:
        keys["amount"] = Decimal(written_amount(prize.amount))
    if prize.trophy:
        keys["trophy"] = True
    if prize.kind is Kind.PLACE:
        keys["place"] = prize.place
    elif prize.kind is Kind.CLASS:
        keys["class"] = [prize.low, prize.high]
    elif prize.kind is Kind.UNDER:
        keys["under"] = prize.high
        if prize.low is not None:
            keys["from"] = prize.low
    elif prize.kind is Kind.UNRATED:
        keys["unrated"] = True
    else:
        keys["category"] = prize.category
    if prize.kind is not Kind.PLACE and prize.rank != 1:
        keys["rank"] = prize.rank
    if prize.additive:
        keys["additive"] = True
    if prize.team:
        keys["team"] = True
    return keys


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, list):
        return _numbers(value)
    return str(value)


def _prize(prize: Prize) -> list[str]:
    return ["[[prize]]", *(f"{key} = {_value(value)}" for key, value in prize_keys(prize).items())]


def _table(name: str, rows: Mapping[str, str]) -> list[str]:
    if not rows:
        return []
    return ["", f"[{name}]", *(f"{_text(key)} = {value}" for key, value in rows.items())]


def write_prizes(prizes: PrizeList) -> str:
    """The prize file of ``prizes``: the top-level keys, one ``[[prize]]`` table per prize in
    the order announced, then ``[categories]``, ``[limits]``, ``[teams]`` and ``[team]``."""
    lines = [f"method = {_text(prizes.method.value)}"]
    if prizes.currency:
        lines.append(f"currency = {_text(prizes.currency)}")
    if prizes.trophy_follows_money:
        lines.append("trophy_follows_money = true")
    if prizes.playoff:
        lines.append(f"playoff = {_numbers(prizes.playoff)}")
    for prize in sorted(prizes.prizes, key=lambda p: p.order):
        lines += ["", *_prize(prize)]
    lines += _table("categories", {k: _numbers(v) for k, v in prizes.categories.items()})
    lines += _table("limits", {str(k): written_amount(v) for k, v in sorted(prizes.limits.items())})
    lines += _table("teams", {k: _numbers(v) for k, v in prizes.teams.items()})
    team: dict[str, str] = {}
    if prizes.team_count != DEFAULT_TEAM_COUNT:
        team["count"] = str(prizes.team_count)
    if prizes.team_playoff:
        team["playoff"] = "[" + ", ".join(_text(t) for t in prizes.team_playoff) + "]"
    if team:
        lines += ["", "[team]", *(f"{key} = {value}" for key, value in team.items())]
    return "\n".join(lines) + "\n"

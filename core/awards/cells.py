"""One prize written as text, cell by cell: a row of a spreadsheet's Prizes tab, or the
options of a bot command. The one place such text is turned into a prize file's values.

The columns (:data:`PRIZE_COLUMNS`): ``Name``; ``Amount`` (a number of the currency:
``300``, ``162.50``; a currency sign or code and thousands separators, as a spreadsheet shows
an amount, are allowed: ``$1,379.00``); ``Trophy``, ``Additive`` and ``Team`` (yes or no;
empty: no); ``Kind`` (``place``, ``class``, ``under``, ``unrated`` or ``category``) and
``Value`` (which place: ``3`` or ``3rd``; which class: ``1800-1999``; under what: ``2000``,
``U2000`` or ``2000 from 1800``; which category: ``youth``; empty for unrated); ``Rank``
(the prize's rank within its ladder, empty: 1).

:func:`prize_fields` turns the text into the values of a prize file's ``[[prize]]`` table, for
:func:`~core.awards.fields.read_prize_fields` (or :func:`~core.awards.prizefile.
read_prize_data`, for a whole list) to check by the prize file's rules: text it cannot turn
into a value is passed on as it is, so the check says what was expected and what was given.
:data:`COLUMN_OF` says which column holds each key, so that a problem is put at its cell.

>>> prize_fields({"name": "1st U2000", "amount": "$1,379.00", "kind": "Under", "value": "2000 from 1800"})
({'name': '1st U2000', 'amount': Decimal('1379.00'), 'under': 2000, 'from': 1800}, [])
>>> prize_fields({"name": "Top A", "amount": "40", "trophy": "yes", "kind": "class", "value": "1800–1999"})[0]
{'name': 'Top A', 'amount': 40, 'trophy': True, 'class': [1800, 1999]}
>>> _, problems = prize_fields({"name": "X", "amount": "5", "kind": "plaec", "value": "1"})
>>> problems[0].detail, COLUMN_OF[problems[0].field or ""]
("kind must be one of place, class, under, unrated, category, got 'plaec'; did you mean 'place'?", 'Kind')
"""  # noqa: E501

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from core.awards.fields import KIND_KEYS, Locate, bad_value, did_you_mean
from core.limits import quote
from core.names import name_key, name_problem, tidy
from core.problems import Problem
from core.profiles import yes_no

__all__ = [
    "COLUMN_OF",
    "PRIZE_COLUMNS",
    "amount_text",
    "category_names",
    "prize_fields",
]

#: The columns of a prize written as text, in the order a Prizes tab shows them.
PRIZE_COLUMNS = ("Name", "Amount", "Trophy", "Kind", "Value", "Rank", "Additive", "Team")
#: The column that holds each key of a prize (a prize file's keys, and ``kind``/``value``);
#: a problem of the whole prize (no kind, two kinds) is the Kind column's (key "").
COLUMN_OF = {
    "": "Kind",
    "name": "Name",
    "amount": "Amount",
    "trophy": "Trophy",
    "kind": "Kind",
    "value": "Value",
    "place": "Value",
    "class": "Value",
    "under": "Value",
    "from": "Value",
    "category": "Value",
    "unrated": "Kind",
    "rank": "Rank",
    "additive": "Additive",
    "team": "Team",
}

#: ``$1,379.00``, ``300 EUR``, ``162.5``: a sign or code around a number with optional
#: thousands separators and decimals.
_AMOUNT = re.compile(r"[^\d.,\-]*?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*[^\d.,\-]*")
_ORDINAL = re.compile(r"(\d+)\s*(?:st|nd|rd|th)?", re.IGNORECASE)
_RANGE = re.compile(r"(\d+)\s*(?:-|–|—|to)\s*(\d+)", re.IGNORECASE)
_UNDER = re.compile(r"(?:u|under)?\s*(\d+)(?:\s*(?:from|,)\s*(\d+))?", re.IGNORECASE)


def amount_text(text: str) -> int | Decimal | str:
    """An amount as a TD writes it, as the prize file has it: a whole number as ``int``, a
    decimal as an exact ``Decimal``; text that is no amount as it is (the check says so).

    >>> amount_text("300"), amount_text(" $1,379.00 "), amount_text("1 266,66"), amount_text("12 EUR")
    (300, Decimal('1379.00'), '1 266,66', 12)
    """  # noqa: E501
    text = text.strip()
    found = _AMOUNT.fullmatch(text)
    if found is None:
        return text
    whole, decimals = found.group(1).replace(",", ""), found.group(2)
    return Decimal(whole + decimals) if decimals else int(whole)


def _number(text: str) -> int | str:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else text


def category_names(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The categories a cell or an option lists (``youth, senior``: separated by commas or
    semicolons), tidied, each once (as names compare); and each part that is no category
    name, with what is wrong with it.

    >>> category_names("Youth; senior, youth,"), category_names("a\\x07b")
    ((['Youth', 'senior'], []), ([], [('a\\x07b', 'cannot hold control characters (U+0007 at character 2)')]))
    """  # noqa: E501
    names: list[str] = []
    bad: list[tuple[str, str]] = []
    seen: set[str] = set()
    for part in re.split(r"[,;]", text):
        if not part.strip():
            continue
        problem = name_problem(part, "category name")
        if problem is not None:
            bad.append((part.strip(), problem.detail or problem.message))
        elif name_key(part) not in seen:
            seen.add(name_key(part))
            names.append(tidy(part))
    return names, bad


def _nowhere(key: str | None) -> Mapping[str, Any]:
    return {}


def prize_fields(
    cells: Mapping[str, str], locate: Locate = _nowhere, where: str = "the prize"
) -> tuple[dict[str, object], list[Problem]]:
    """The values of a prize file's ``[[prize]]`` table that the text of ``cells`` gives
    (keys: :data:`PRIZE_COLUMNS` in lower case; empty cells are left out), and the problems
    only the text shows (a kind that is none, a yes or no that is neither, a kind without
    its value). ``locate`` places a problem (given its key); ``where`` names the prize."""
    text = {key.lower(): (value or "").strip() for key, value in cells.items()}
    fields: dict[str, object] = {}
    problems: list[Problem] = []
    if text.get("name"):
        fields["name"] = text["name"]
    if text.get("amount"):
        fields["amount"] = amount_text(text["amount"])
    for flag in ("trophy", "additive", "team"):
        if text.get(flag):
            answer = yes_no(text[flag])
            if answer is None:
                problems.append(bad_value(flag, text[flag], "Yes or No", where, locate))
            else:
                fields[flag] = answer
    if text.get("rank"):
        fields["rank"] = _number(text["rank"])
    kind, value = text.get("kind", "").lower(), text.get("value", "")
    if not kind:
        return fields, problems
    if kind not in KIND_KEYS:
        problems.append(_kind_problem(text["kind"], where, locate))
        return fields, problems
    if kind == "unrated":
        fields["unrated"] = True
        if value:
            problems.append(bad_value("value", value, "empty for an unrated prize", where, locate))
        return fields, problems
    if not value:
        detail = f"a {kind} prize needs its {kind} in Value" + _EXAMPLE[kind]
        problems.append(
            Problem(
                f"{where}: {detail}", code="missing-key", field=kind, detail=detail, **locate(kind)
            )
        )
        return fields, problems
    fields.update(_kind_values(kind, value))
    return fields, problems


#: What a kind's Value looks like, for the problem of a Value left empty.
_EXAMPLE = {
    "place": " (1, 2, 3…)",
    "class": " (1800-1999)",
    "under": " (2000, or 2000 from 1800)",
    "category": " (a category's name: youth…)",
}


def _kind_values(kind: str, value: str) -> dict[str, object]:
    """The keys a kind's Value gives; text that does not parse goes as it is."""
    if kind == "place":
        ordinal = _ORDINAL.fullmatch(value)
        return {"place": _number(ordinal.group(1)) if ordinal else value}
    if kind == "class":
        pair = _RANGE.fullmatch(value)
        return {"class": [_number(pair.group(1)), _number(pair.group(2))] if pair else value}
    if kind == "under":
        under = _UNDER.fullmatch(value)
        if under is None:
            return {"under": value}
        found: dict[str, object] = {"under": _number(under.group(1))}
        if under.group(2):
            found["from"] = _number(under.group(2))
        return found
    return {"category": value}


def _kind_problem(given: str, where: str, locate: Locate) -> Problem:
    kinds = ", ".join(KIND_KEYS)
    detail = (
        f"kind must be one of {kinds}, got {quote(given)}{did_you_mean(given.lower(), KIND_KEYS)}"
    )
    return Problem(
        f"{where}: {detail}",
        code="prize-kind",
        field="kind",
        value=given,
        detail=detail,
        **locate("kind"),
    )

"""The prize file: a section's prizes in TOML, read whole or not at all.

One ``[[prize]]`` table per prize, in the order announced (keys: :data:`~core.awards.fields.
PRIZE_KEYS`); top-level ``method`` (:class:`~core.awards.model.Method`), ``currency`` (shown
only), ``trophy_follows_money`` and ``playoff`` (starting numbers in the order a playoff or
lot put players equal on score and every tiebreak); tables ``[categories]`` (name = list of
starting numbers), ``[limits]`` (starting number = personal cash limit, 0 = not
prize-eligible), ``[teams]`` (team name = list of starting numbers) and ``[team]``
(``count`` = how many players count, ``playoff`` = team names in the order a lot put them).
A file with only ``[teams]`` is valid: team scores alone.

Limits (:mod:`core.limits`) are checked first: the file's size before it is read, the
number of prizes, categories and teams before any of them is, then every value. Every
problem found is reported at once, located at its line and key, with what was expected;
nothing is returned half-read.

>>> prizes = read_prizes('''
... method = "us-chess"
... currency = "$"
... [[prize]]
... name = "1st"
... place = 1
... amount = 300
... [[prize]]
... name = "Top youth"
... category = "youth"
... amount = 150.00
... [categories]
... youth = [4, 9]
... ''')
>>> [(p.name, p.amount) for p in prizes.prizes], prizes.categories
([('1st', Fraction(300, 1)), ('Top youth', Fraction(150, 1))], {'youth': (4, 9)})
>>> read_prizes('method = "us-chess"\\n[[prize]]\\nname = "1st"\\nplace = 1\\namont = 5\\n', "p.toml")
Traceback (most recent call last):
...
core.problems.HarknessError: p.toml:5: prize 1 ('1st'): unknown key 'amont'; did you mean 'amount'?
p.toml:2: prize 1 ('1st'): a prize needs an amount, or trophy = true
"""  # noqa: E501

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from core.awards.fields import (
    amount_value,
    bad_value,
    did_you_mean,
    read_prize_fields,
    unknown_key,
    whole_value,
)
from core.awards.model import Kind, Method, Prize, PrizeList
from core.formats.text import decode, too_big
from core.limits import (
    MAX_CATEGORIES,
    MAX_PLAYERS,
    MAX_PRIZE_FILE_BYTES,
    MAX_PRIZES,
    MAX_TEAM_COUNT,
    MAX_TEAMS,
    quote,
)
from core.names import name_key, name_problem, tidy
from core.problems import HarknessError, Problem

__all__ = ["TOP_KEYS", "key_lines", "read_prize_data", "read_prize_file", "read_prizes"]

#: The top-level keys and tables of a prize file.
TOP_KEYS = (
    "method",
    "currency",
    "trophy_follows_money",
    "playoff",
    "prize",
    "categories",
    "limits",
    "teams",
    "team",
)
_TEAM_KEYS = ("count", "playoff")
#: Longest currency text (``$``, ``EUR``, ``CHF``…).
CURRENCY_MAX = 10


def read_prize_file(path: str | Path) -> PrizeList:
    """Read a prize file from disk, its size checked before it is read."""
    shown = str(path)
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_PRIZE_FILE_BYTES + 1)
    except OSError as error:
        raise HarknessError(
            [Problem(f"cannot read the file: {error.strerror}", path=shown, code="cannot-read")]
        ) from None
    if len(data) > MAX_PRIZE_FILE_BYTES:
        raise too_big(len(data), shown, more=" or more", limit=MAX_PRIZE_FILE_BYTES)
    return read_prizes(decode(data, shown), shown)


#: Where tomllib says a decoding error is (Python 3.11 puts it in the message only).
_AT = re.compile(r"\(at line (\d+), column (\d+)\)$")


def read_prizes(text: str, path: str = "<prizes>") -> PrizeList:
    """Read a prize file's text; raises :class:`HarknessError` with every problem."""
    if len(text) > MAX_PRIZE_FILE_BYTES:
        raise too_big(len(text), path, "characters", limit=MAX_PRIZE_FILE_BYTES)
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = _AT.search(message)
        line, column = (int(at.group(1)), int(at.group(2))) if at else (None, None)
        detail = _AT.sub("", message).strip()
        raise HarknessError(
            [
                Problem(
                    f"not a TOML prize file: {detail}",
                    path=path,
                    line=line,
                    column=column,
                    code="bad-toml",
                    detail=detail,
                )
            ]
        ) from None
    return read_prize_data(data, path, key_lines(text))


def read_prize_data(
    data: dict[str, Any], path: str | None = None, lines: Mapping[str, int] | None = None
) -> PrizeList:
    """A prize list from values as TOML gives them (``{"method": …, "prize": [{…}, …],
    "categories": {…}, …}``: whole numbers as ``int``, decimals as ``Decimal``), checked by
    the prize file's rules: for a front door that reads prizes elsewhere (a sheet's tab, a
    bot's stored settings). ``lines`` says where each key is (``"prize.2.amount"`` → a
    line, or a sheet's row), for located problems.

    >>> read_prize_data({"prize": [{"name": "1st", "place": 1, "amount": 100}]}).prizes[0].amount
    Fraction(100, 1)
    """
    return _Reader(path or "<prizes>", dict(lines or {})).read(data)


def key_lines(text: str) -> dict[str, int]:
    """Where each key of a prize file is: ``"method"``, ``"prize.2"`` (the second
    ``[[prize]]`` header), ``"prize.2.amount"``, ``"categories.youth"``… (the first line a
    key is written on). Keys written as dotted keys or in inline tables are found at their
    table.

    >>> key_lines('method = "fide-hort"\\n[[prize]]\\n name = "1st"\\n[limits]\\n"7" = 50\\n')
    {'method': 1, 'prize.1': 2, 'prize.1.name': 3, 'limits': 4, 'limits.7': 5}
    """
    found: dict[str, int] = {}
    table = ""
    prizes = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[["):
            name = line[2:].split("]]", 1)[0].strip()
            if name == "prize":
                prizes += 1
                table = f"prize.{prizes}"
            else:
                table = name
            found.setdefault(table, number)
        elif line.startswith("["):
            table = line[1:].split("]", 1)[0].strip()
            found.setdefault(table, number)
        elif "=" in line and not line.startswith("#"):
            key = line.split("=", 1)[0].strip().strip("\"'")
            found.setdefault(f"{table}.{key}" if table else key, number)
    return found


class _Reader:
    """Reads a parsed prize file's values, collecting every problem with its line."""

    def __init__(self, path: str, lines: dict[str, int]) -> None:
        self.path = path
        self.lines = lines
        self.problems: list[Problem] = []

    def at(self, *keys: str) -> Callable[[str | None], Mapping[str, Any]]:
        """A locator for keys of the table ``keys[0]`` (falling back to the others)."""

        def locate(key: str | None) -> Mapping[str, Any]:
            candidates = [f"{keys[0]}.{key}" if keys[0] else key] if key else []
            candidates += list(keys)
            line = next((self.lines[k] for k in candidates if k and k in self.lines), None)
            return {"path": self.path, "line": line}

        return locate

    def bad(self, table: str, key: str, value: object, expected: str, where: str) -> None:
        self.problems.append(bad_value(key, value, expected, where, self.at(table)))

    def read(self, data: dict[str, Any]) -> PrizeList:
        self._limits(data)
        top = self.at("")
        for key in data:
            if key not in TOP_KEYS:
                self.problems.append(unknown_key(key, TOP_KEYS, "the prize file", top))
        method = self._method(data.get("method", Method.US_CHESS.value))
        currency = self._currency(data.get("currency", ""))
        follows = data.get("trophy_follows_money", False)
        if not isinstance(follows, bool):
            self.bad("", "trophy_follows_money", follows, "true or false", "the prize file")
            follows = False
        playoff = self._numbers(data.get("playoff", []), "", "playoff", "the prize file")
        prizes = self._prizes(data.get("prize", []))
        categories = self._named_lists(data.get("categories", {}), "categories", "category")
        limits = self._limits_table(data.get("limits", {}))
        teams = self._named_lists(data.get("teams", {}), "teams", "team")
        count, team_playoff = self._team(data.get("team", {}), teams)
        prizes = self._categories_named(prizes, categories)
        if self.problems:
            raise HarknessError(self.problems)
        return PrizeList(
            prizes=tuple(prizes),
            method=method,
            currency=currency,
            categories=categories,
            limits=limits,
            teams=teams,
            team_count=count,
            playoff=tuple(playoff),
            team_playoff=team_playoff,
            trophy_follows_money=follows,
            path=self.path,
            lines=self.lines,
        )

    def _limits(self, data: dict[str, Any]) -> None:
        """The counts, checked before any prize, category or team is read."""
        over = []
        for key, most, what in (
            ("prize", MAX_PRIZES, "prizes"),
            ("categories", MAX_CATEGORIES, "categories"),
            ("teams", MAX_TEAMS, "teams"),
        ):
            value = data.get(key)
            if isinstance(value, list | dict) and len(value) > most:
                detail = f"a prize file has at most {most:,} {what} (this one has {len(value):,})"
                over.append(
                    Problem(
                        detail,
                        path=self.path,
                        line=self.lines.get(f"{key}.{most + 1}", self.lines.get(key)),
                        code="too-many-prizes",
                        field=key,
                        value=str(len(value)),
                        detail=detail,
                    )
                )
        if over:
            raise HarknessError(over)

    def _method(self, value: object) -> Method:
        names = [m.value for m in Method]
        if isinstance(value, str) and value in names:
            return Method(value)
        hint = did_you_mean(str(value), names, cutoff=0.5)
        detail = f"method must be one of {', '.join(names)}, got {quote(str(value))}{hint}"
        self.problems.append(
            Problem(
                detail,
                path=self.path,
                line=self.lines.get("method"),
                code="unknown-method",
                field="method",
                value=str(value),
                detail=detail,
            )
        )
        return Method.US_CHESS

    def _currency(self, value: object) -> str:
        if (
            not isinstance(value, str)
            or len(value) > CURRENCY_MAX
            or not (value.isprintable() or not value)
        ):
            expected = f"text of at most {CURRENCY_MAX} characters ($, EUR…)"
            self.bad("", "currency", value, expected, "the prize file")
            return ""
        return value.strip()

    def _numbers(self, value: object, table: str, key: str, where: str) -> list[int]:
        """A list of distinct starting numbers."""
        expected = f"a list of starting numbers (1–{MAX_PLAYERS}), each once"
        if not isinstance(value, list) or len(value) > MAX_PLAYERS:
            self.bad(table, key, value, expected, where)
            return []
        numbers = []
        for item in value:
            try:
                numbers.append(whole_value(item, 1, MAX_PLAYERS))
            except ValueError:
                self.bad(table, key, item, expected, where)
                return []
        if len(set(numbers)) != len(numbers):
            twice = next(n for n in numbers if numbers.count(n) > 1)
            self.bad(table, key, twice, expected, where)
            return []
        return numbers

    def _prizes(self, value: object) -> list[Prize]:
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.bad("", "prize", "…", "[[prize]] tables, one per prize", "the prize file")
            return []
        prizes = []
        for order, fields in enumerate(value):
            prize, problems = read_prize_fields(fields, order, self.at(f"prize.{order + 1}"))
            self.problems += problems
            if prize is not None:
                prizes.append(prize)
        self._twice(prizes)
        return prizes

    def _twice(self, prizes: list[Prize]) -> None:
        """Two prizes of one name, one place or one rank of a ladder."""
        names: dict[str, Prize] = {}
        steps: dict[tuple[object, ...], Prize] = {}
        for prize in prizes:
            for seen, key, field, value in (
                (names, name_key(prize.name), "name", prize.name),
                (steps, (*prize.ladder, prize.step), _step_key(prize), str(prize.step)),
            ):
                first = seen.setdefault(key, prize)  # type: ignore[arg-type]
                if first is prize:
                    continue
                detail = (
                    f"{field} {quote(value)} is given twice (prize {first.order + 1} and "
                    f"prize {prize.order + 1})"
                )
                self.problems.append(
                    Problem(
                        f"prize {prize.order + 1} ({quote(prize.name)}): {detail}",
                        code="prize-twice",
                        field=field,
                        value=value,
                        detail=detail,
                        **self.at(f"prize.{prize.order + 1}")(field),
                    )
                )

    def _named_lists(self, value: object, table: str, what: str) -> dict[str, tuple[int, ...]]:
        """``[categories]`` or ``[teams]``: name = list of starting numbers."""
        if not isinstance(value, dict):
            self.bad("", table, value, f"a table [{table}] of {what} = [numbers]", "the file")
            return {}
        named: dict[str, tuple[int, ...]] = {}
        for name, ids in value.items():
            problem = name_problem(name, f"{what} name")
            if problem is not None:
                self.bad(table, name, name, f"a {what} name that {problem.detail}", f"[{table}]")
                continue
            numbers = self._numbers(ids, table, name, f"[{table}]")
            named[tidy(name)] = tuple(numbers)
        return named

    def _limits_table(self, value: object) -> dict[int, Fraction]:
        if not isinstance(value, dict):
            self.bad("", "limits", value, "a table [limits] of number = amount", "the file")
            return {}
        limits = {}
        for key, amount in value.items():
            number = int(key) if key.isascii() and key.isdecimal() and len(key) < 6 else 0
            if not 1 <= number <= MAX_PLAYERS:
                self.bad("limits", key, key, "a starting number", "[limits]")
                continue
            try:
                limits[number] = amount_value(amount, zero=True)
            except ValueError as bad:
                self.bad("limits", key, amount, str(bad), "[limits]")
        return limits

    def _team(
        self, value: object, teams: dict[str, tuple[int, ...]]
    ) -> tuple[int, tuple[str, ...]]:
        if not isinstance(value, dict):
            self.bad("", "team", value, "a table [team] with count = N", "the file")
            return 4, ()
        locate = self.at("team")
        for key in value:
            if key not in _TEAM_KEYS:
                self.problems.append(unknown_key(key, _TEAM_KEYS, "[team]", locate))
        count = value.get("count", 4)
        try:
            count = whole_value(count, 2, MAX_TEAM_COUNT)
        except ValueError as bad:
            self.bad("team", "count", count, str(bad), "[team]")
            count = 4
        order = value.get("playoff", [])
        if not isinstance(order, list) or not all(isinstance(t, str) for t in order):
            self.bad("team", "playoff", order, "a list of team names", "[team]")
            return count, ()
        known = {name_key(t): t for t in teams}
        names = []
        for team in order:
            if name_key(team) not in known:
                detail = f"{quote(team)} is not a team of [teams]{did_you_mean(team, teams)}"
                self.problems.append(
                    Problem(
                        f"[team] playoff: {detail}",
                        code="unknown-team",
                        field="playoff",
                        value=team,
                        detail=detail,
                        **locate("playoff"),
                    )
                )
            else:
                names.append(known[name_key(team)])
        return count, tuple(names)

    def _categories_named(
        self, prizes: list[Prize], categories: dict[str, tuple[int, ...]]
    ) -> list[Prize]:
        """Every category prize's category is listed in ``[categories]`` (case and spacing
        aside); each prize is given the category's name as ``[categories]`` spells it."""
        known = {name_key(c): c for c in categories}
        named = []
        for prize in prizes:
            if prize.kind is not Kind.CATEGORY or name_key(prize.category) in known:
                if prize.kind is Kind.CATEGORY:
                    prize = replace(prize, category=known[name_key(prize.category)])
                named.append(prize)
                continue
            hint = did_you_mean(prize.category, categories)
            detail = f"category {quote(prize.category)} is not in [categories]{hint}"
            self.problems.append(
                Problem(
                    f"prize {prize.order + 1} ({quote(prize.name)}): {detail}",
                    code="unknown-category",
                    field="category",
                    value=prize.category,
                    detail=detail,
                    **self.at(f"prize.{prize.order + 1}")("category"),
                )
            )
        return named


def _step_key(prize: Prize) -> str:
    return "place" if prize.kind is Kind.PLACE else "rank"

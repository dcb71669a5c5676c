"""Cell values: what was entered, and how the API renders it back.

The Sheets API keeps a cell's *user-entered value* (``ExtendedValue``: a number, a string,
a boolean or a formula) and renders it three ways (``ValueRenderOption``). How a written
value becomes an entered value depends on ``ValueInputOption``:

- ``RAW``: stored as given. A JSON string stays a string, even ``=IMPORTXML(...)`` or ``42``.
- ``USER_ENTERED``: parsed as if a person typed it: ``42`` becomes a number, ``TRUE`` a
  boolean, ``=SUM(A1:A3)`` a formula, and a leading apostrophe (``'42``) forces text.

>>> parse_input("=IMPORTXML(1)", "RAW")
Value(kind='string', value='=IMPORTXML(1)')
>>> parse_input("=IMPORTXML(1)", "USER_ENTERED")
Value(kind='formula', value='=IMPORTXML(1)')
>>> parse_input("2.5", "USER_ENTERED"), parse_input("'2.5", "USER_ENTERED")
(Value(kind='number', value=2.5), Value(kind='string', value='2.5'))

The fake does not evaluate formulas: a formula's effective value is the error ``#N/A``.
Dates, times, currencies, percentages and thousands separators typed with USER_ENTERED
stay text (Google would turn them into numbers with a format).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

ValueKind = Literal["number", "string", "bool", "formula"]
RenderOption = Literal["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"]
InputOption = Literal["RAW", "USER_ENTERED"]

RENDER_OPTIONS: tuple[str, ...] = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
INPUT_OPTIONS: tuple[str, ...] = ("RAW", "USER_ENTERED")

UNEVALUATED_FORMULA = "#N/A"
"""What the fake renders for a formula, which it never evaluates."""

_NUMBER = re.compile(r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
_FIXED_DECIMALS = re.compile(r"^0(?:\.(0+))?$")

_EXTENDED_KEYS: dict[str, ValueKind] = {
    "numberValue": "number",
    "stringValue": "string",
    "boolValue": "bool",
    "formulaValue": "formula",
}

_KEY_OF_KIND = {kind: key for key, kind in _EXTENDED_KEYS.items()}


@dataclass(frozen=True)
class Value:
    """A user-entered value: its kind and its Python value."""

    kind: ValueKind
    value: float | str | bool

    def extended(self) -> dict[str, Any]:
        """The ``ExtendedValue`` JSON of this entered value (``{"numberValue": 3}``)."""
        if self.kind == "number":
            return {"numberValue": _json_number(self.value)}
        return {_KEY_OF_KIND[self.kind]: self.value}

    def effective(self) -> dict[str, Any]:
        """The ``ExtendedValue`` JSON of the calculated value (formulas are not evaluated)."""
        if self.kind == "formula":
            return {
                "errorValue": {
                    "type": "N_A",
                    "message": "formulas are not evaluated by the Harkness Sheets fake",
                }
            }
        return self.extended()


def from_extended(extended: dict[str, Any]) -> Value | None:
    """Read an ``ExtendedValue`` JSON object (as sent in ``updateCells``) into a value.

    >>> from_extended({"stringValue": "=1+1"})
    Value(kind='string', value='=1+1')
    >>> from_extended({}) is None
    True
    """
    for key, kind in _EXTENDED_KEYS.items():
        if key in extended and extended[key] is not None:
            raw = extended[key]
            if kind == "number":
                if isinstance(raw, bool) or not isinstance(raw, int | float):
                    raise ValueError(f"numberValue must be a number, not {raw!r}")
                return Value("number", float(raw))
            if kind == "bool":
                if not isinstance(raw, bool):
                    raise ValueError(f"boolValue must be a boolean, not {raw!r}")
                return Value("bool", raw)
            if not isinstance(raw, str):
                raise ValueError(f"{key} must be a string, not {raw!r}")
            return Value(kind, raw)
    if extended.get("errorValue") is not None:
        raise ValueError("errorValue cannot be entered")
    return None


def parse_input(raw: Any, option: str) -> Value | None:
    """Turn one written value into an entered value; ``None`` means "clear the cell".

    A JSON ``null`` is not passed here: the API skips it and leaves the cell unchanged.
    """
    if isinstance(raw, bool):
        return Value("bool", raw)
    if isinstance(raw, int | float):
        return Value("number", float(raw))
    if not isinstance(raw, str):
        raise ValueError(f"a cell value must be a string, number or boolean, not {raw!r}")
    if raw == "":
        return None
    if option == "RAW":
        return Value("string", raw)
    if raw.startswith("'"):
        return Value("string", raw[1:])
    if raw.startswith("=") and len(raw) > 1:
        return Value("formula", raw)
    if raw.upper() in ("TRUE", "FALSE"):
        return Value("bool", raw.upper() == "TRUE")
    if _NUMBER.match(raw):
        return Value("number", float(raw))
    return Value("string", raw)


def _json_number(number: float | str | bool) -> int | float:
    assert isinstance(number, float)
    if number.is_integer() and abs(number) < 1e15:
        return int(number)
    return number


def format_number(number: float, pattern: str | None = None) -> str:
    """Render a number as Sheets shows it without a custom format.

    Fixed-decimal patterns (``0``, ``0.0``, ``0.00``...) are honoured; every other number
    format is recorded but not applied.

    >>> format_number(3.0), format_number(2.5), format_number(2.5, "0.00"), format_number(1e20)
    ('3', '2.5', '2.50', '1E+20')
    """
    if pattern:
        fixed = _FIXED_DECIMALS.match(pattern)
        if fixed:
            decimals = len(fixed.group(1) or "")
            return f"{number:.{decimals}f}"
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    text = f"{number:.15g}"
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
        sign = "-" if exponent.startswith("-") else "+"
        return f"{mantissa}E{sign}{exponent.lstrip('+-').lstrip('0') or '0'}"
    return text


def render(value: Value, option: str, number_pattern: str | None = None) -> Any:
    """Render an entered value for a ``ValueRenderOption``.

    >>> number = Value("number", 3.0)
    >>> render(number, "FORMATTED_VALUE"), render(number, "UNFORMATTED_VALUE")
    ('3', 3)
    >>> formula = Value("formula", "=A1")
    >>> render(formula, "FORMULA"), render(formula, "FORMATTED_VALUE")
    ('=A1', '#N/A')
    """
    if value.kind == "formula":
        return value.value if option == "FORMULA" else UNEVALUATED_FORMULA
    if option == "FORMATTED_VALUE":
        return formatted(value, number_pattern)
    if value.kind == "number":
        return _json_number(value.value)
    return value.value


def formatted(value: Value, number_pattern: str | None = None) -> str:
    """The ``formattedValue`` of a cell: what a person sees in it."""
    if value.kind == "formula":
        return UNEVALUATED_FORMULA
    if value.kind == "bool":
        return "TRUE" if value.value else "FALSE"
    if value.kind == "number":
        assert isinstance(value.value, float)
        return format_number(value.value, number_pattern)
    return str(value.value)

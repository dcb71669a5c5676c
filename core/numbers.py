"""Display of exact values: the only place where a number is rounded.

>>> from fractions import Fraction
>>> display(Fraction(17, 2)), display(Fraction(8)), display(Fraction(39, 4)), display(None)
('8.5', '8', '9.75', '')
>>> display(Fraction(5665, 3), digits=0), display(Fraction(1605, 120), digits=2)
('1888', '13.38')
>>> as_json_number(Fraction(17, 2)), as_json_number(Fraction(24)), as_json_number(None)
(8.5, 24, None)
>>> money(Fraction(325, 2), "$"), money(Fraction(3800, 3), "EUR"), money(Fraction(2375))
('$162.50', '1,266.66 EUR', '2,375')
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache


def to_decimal(value: Fraction, digits: int | None = None) -> Decimal:
    """``value`` as a Decimal: exact where it terminates within 4 places, else rounded
    half up to ``digits`` places (2 when not given)."""
    return _decimal(value.numerator, value.denominator, digits)


MEMO = 8192
"""Distinct values whose display is remembered (a breakdown of thousands of players shows
a few hundred different values hundreds of thousands of times; Decimal and text are
immutable, so a remembered answer is the answer). An entry is a few small numbers and a
short text, so each memo holds at most a few megabytes."""


@lru_cache(maxsize=MEMO)
def ratio(units: int | Fraction, scale: int) -> Fraction:
    """``units / scale`` exactly (a tiebreak's units over its scale), remembered likewise.

    >>> ratio(17, 2), ratio(8, 4)
    (Fraction(17, 2), Fraction(2, 1))
    """
    return Fraction(units, scale)


@lru_cache(maxsize=MEMO)
def _decimal(numerator: int, denominator: int, digits: int | None) -> Decimal:
    """:func:`to_decimal` of ``numerator / denominator`` (in lowest terms)."""
    exact = Decimal(numerator) / Decimal(denominator)
    if digits is None:
        if 10_000 % denominator == 0:  # terminates within 4 places
            return exact.normalize() if exact != 0 else Decimal(0)
        digits = 2
    quantum = Decimal(1).scaleb(-digits)
    return exact.quantize(quantum, rounding=ROUND_HALF_UP)


UNDEFINED_TEXT = "–"
"""An undefined value (a tiebreak without a defined value) in a table people read: the
terminal, Markdown, aligned text, a sheet. CSV leaves the cell empty and JSON writes null."""


def display(value: Fraction | None, digits: int | None = None, empty: str = "") -> str:
    """A value as a TD writes it: ``8.5``, ``24``, ``9.75``; ``empty`` for undefined."""
    if value is None:
        return empty
    return _display(value.numerator, value.denominator, digits)


@lru_cache(maxsize=MEMO)
def _display(numerator: int, denominator: int, digits: int | None) -> str:
    text = format(_decimal(numerator, denominator, digits), "f")
    return "0" if text in ("-0", "-0.0") else text


def as_json_number(value: Fraction | None, digits: int | None = None) -> int | float | None:
    """A value for JSON: an int when whole, else the displayed decimal as a float."""
    if value is None:
        return None
    return _json_number(value.numerator, value.denominator, digits)


@lru_cache(maxsize=MEMO)
def _json_number(numerator: int, denominator: int, digits: int | None) -> int | float:
    d = _decimal(numerator, denominator, digits)
    return int(d) if d == d.to_integral_value() else float(d)


def cents_down(value: Fraction) -> Fraction:
    """``value`` rounded down to the cent: what is paid of an exact amount.

    >>> cents_down(Fraction(3800, 3)), cents_down(Fraction(325, 2))
    (Fraction(63333, 50), Fraction(325, 2))
    """
    return Fraction(int(value * 100), 100)


def money(value: Fraction, currency: str = "") -> str:
    """An amount of money as paid: rounded down to the cent, thousands separated, the cents
    shown when there are any; a currency symbol before it (``$162.50``), a currency code
    after it (``1,266.66 EUR``)."""
    paid = cents_down(value)
    whole, rest = divmod(int(paid * 100), 100)
    text = f"{whole:,}" + (f".{rest:02d}" if rest else "")
    if not currency:
        return text
    return f"{text} {currency}" if currency[-1].isalpha() else f"{currency}{text}"


def half_points(half: int) -> str:
    """A score kept in half-points, as printed: ``3``, ``2.5``.

    >>> half_points(7), half_points(0)
    ('3.5', '0')
    """
    return f"{half // 2}.5" if half % 2 else str(half // 2)


def decimals_kept(value: Fraction | None, digits: int | None = None) -> int:
    """How many decimals :func:`display` writes when it keeps a trailing zero (``10.50``:
    2), else 0: a spreadsheet shows them with a fixed-decimals format.

    >>> from fractions import Fraction
    >>> decimals_kept(Fraction(21, 2), 2), decimals_kept(Fraction(17, 2)), decimals_kept(None)
    (2, 0, 0)
    """
    if value is None:
        return 0
    decimals = _display(value.numerator, value.denominator, digits).partition(".")[2]
    return len(decimals) if decimals.endswith("0") else 0


def display_units(
    units: int | Fraction | None, scale: int, digits: int | None = None, empty: str = ""
) -> str:
    """:func:`display` of ``units / scale``, without building a Fraction for the common
    case of whole, half and quarter points (standings print thousands of them).

    >>> display_units(17, 2), display_units(39, 4), display_units(48, 2), display_units(None, 2)
    ('8.5', '9.75', '24', '')
    """
    if units is None:
        return empty
    if isinstance(units, int):
        whole, rest = divmod(units, scale)
        if not rest:
            return str(whole)
        if scale in (2, 4):  # halves and quarters are exact binary fractions
            return repr(units / scale)
    return display(Fraction(units) / scale, digits, empty)


def json_units(
    units: int | Fraction | None, scale: int, digits: int | None = None
) -> int | float | None:
    """:func:`as_json_number` of ``units / scale``, fast for whole, half and quarter points.

    >>> json_units(17, 2), json_units(48, 2), json_units(None, 4)
    (8.5, 24, None)
    """
    if units is None:
        return None
    if isinstance(units, int):
        whole, rest = divmod(units, scale)
        if not rest:
            return whole
        if scale in (2, 4):
            return units / scale
    return as_json_number(Fraction(units) / scale, digits)

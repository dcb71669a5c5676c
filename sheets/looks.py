"""How a cell of the worker's tabs looks, in one form for what the worker is about to write
and what a read of the sheet found there, so that the two can be compared cell by cell.

A cell's look is its text (``formattedValue``: what the TD sees), its format
(``userEnteredFormat``) and its note. Google answers a format in its own spelling, so both
sides are put in one canonical form first (:func:`canonical_format`):

- a colour given both ways (the deprecated ``backgroundColor`` and ``backgroundColorStyle``)
  is one colour; the ``…Style`` one wins, as the Sheets API reference says ("If
  background_color is also set, this field takes precedence");
- colour components are compared to 1/255 (Google may answer a component it stored as
  float32, or as 8 bits when the colour was picked in the browser);
- default values (``false``, ``0``, ``""``, ``…_UNSPECIFIED``) are the same as absent ones,
  as proto3 JSON leaves them out.

A number's text is predicted from its value and fixed-decimals pattern (:func:`shown`), and
a decimal comma (a spreadsheet whose locale writes ``8,5``) reads as a decimal point.

>>> canonical_format({"backgroundColor": {"red": 0.9, "green": 0.9, "blue": 0.9}}) == (
...     canonical_format({"backgroundColorStyle": {"rgbColor": {"red": 0.8999999761581421,
...         "green": 0.9019608, "blue": 0.9}}, "textFormat": {"bold": False}}))
True
>>> canonical_format({"textFormat": {"bold": True}, "wrapStrategy": "WRAP"})
(('textFormat.bold', True), ('wrapStrategy', 'WRAP'))
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from sheets.tabs import OutCell

Format = tuple[tuple[str, Any], ...]
"""A cell format in canonical form: its non-default leaves, sorted by their dotted path."""
Look = tuple[str, Format, str]
"""A cell's text, canonical format and note (``""`` for none)."""
BLANK: Look = ("", (), "")

_STYLE = "Style"
_FIXED_DECIMALS = re.compile(r"^0(?:\.(0+))?$")
_DECIMAL_COMMA = re.compile(r"^-?[0-9]+,[0-9]+$")
_KEPT_FORMATS = 10_000
_spellings: dict[str, Format] = {}
"""Canonical formats already seen, by their ``repr`` as read: most cells of a tab share a
handful of them."""


def _colour(value: Mapping[str, Any]) -> tuple[int, ...] | str:
    """A ``Color`` (or a ``ColorStyle``) to 8-bit components, or a theme colour's name."""
    if "themeColor" in value:
        return f"theme:{value['themeColor']}"
    rgb = value.get("rgbColor", value)
    return tuple(
        math.floor(float(rgb.get(part) or 0) * 255 + 0.5 + 1e-4)
        for part in ("red", "green", "blue")
    )


def _leaves(document: Mapping[str, Any], prefix: str, out: list[tuple[str, Any]]) -> None:
    for key, value in document.items():
        if key.endswith(_STYLE) and isinstance(value, Mapping):
            continue  # read with its plain name, below
        style = document.get(key + _STYLE)
        if key.lower().endswith("color") and isinstance(style, Mapping) and style:
            value = style
        if key.lower().endswith("color") and isinstance(value, Mapping):
            out.append((prefix + key, _colour(value)))
        elif isinstance(value, Mapping):
            _leaves(value, f"{prefix}{key}.", out)
        elif isinstance(value, list):
            out.append((prefix + key, repr(value)))
        elif value not in (None, False, 0, "") and not str(value).endswith("_UNSPECIFIED"):
            out.append((prefix + key, value))
    for key, value in document.items():  # a colour given only as its …Style
        plain = key.removesuffix(_STYLE)
        alone = key.endswith(_STYLE) and plain not in document
        if alone and isinstance(value, Mapping) and value:
            out.append((prefix + plain, _colour(value)))


def canonical_format(document: Mapping[str, Any] | None) -> Format:
    """A ``CellFormat`` in the canonical form of this module's docstring."""
    if not document:
        return ()
    spelt = repr(document)  # a read repeats a handful of formats over thousands of cells
    found = _spellings.get(spelt)
    if found is None:
        leaves: list[tuple[str, Any]] = []
        _leaves(document, "", leaves)
        found = tuple(sorted(leaves, key=lambda leaf: leaf[0]))
        if len(_spellings) >= _KEPT_FORMATS:
            _spellings.clear()  # a sheet of many colours must not grow the cache for ever
        _spellings[spelt] = found
    return found


BACKGROUND = "backgroundColor"
"""The canonical name of a cell's background colour (either way Google spells it)."""


def split_background(fmt: Format) -> tuple[Any, Format]:
    """A canonical format's background colour (None: none) and the rest of it.

    >>> split_background((("backgroundColor", (1, 2, 3)), ("textFormat.bold", True)))
    ((1, 2, 3), (('textFormat.bold', True),))
    """
    colour = None
    rest = []
    for leaf in fmt:
        if leaf[0] == BACKGROUND:
            colour = leaf[1]
        else:
            rest.append(leaf)
    return colour, tuple(rest) if colour is not None else fmt


@lru_cache(maxsize=64)  # a few patterns, asked of every number a large sync writes
def fixed_decimals(pattern: str | None) -> int | None:
    """The decimals a fixed-decimals number pattern (``0.00``) shows; None for another.

    >>> fixed_decimals("0.00"), fixed_decimals("0"), fixed_decimals("#,##0"), fixed_decimals(None)
    (2, 0, None, None)
    """
    found = _FIXED_DECIMALS.match(pattern or "")
    return len(found.group(1) or "") if found else None


def shown(cell: OutCell) -> str:
    """The text Sheets shows for a value the worker writes (its ``formattedValue``): whole
    numbers without decimals, others to 15 significant digits, and a fixed-decimals
    pattern's decimals.

    >>> [shown(OutCell(v)) for v in (None, "W3", 7, 7.0, 43.25)]
    ['', 'W3', '7', '7', '43.25']
    >>> shown(OutCell(10.5, number_format="0.00"))
    '10.50'
    """
    value = cell.value
    if value is None or isinstance(value, str):
        return value or ""
    decimals = fixed_decimals(cell.number_format)
    if decimals is not None:
        return f"{value:.{decimals}f}"
    if isinstance(value, int) or value.is_integer():
        return str(int(value))
    return f"{value:.15g}"


def text_of(text: str) -> str:
    """A cell's text as compared: a number with a decimal comma as with a decimal point.

    >>> text_of("8,5"), text_of("Smith, J"), text_of("8.5")
    ('8.5', 'Smith, J', '8.5')
    """
    return text.replace(",", ".") if "," in text and _DECIMAL_COMMA.match(text) else text


def trimmed(looks: list[Look]) -> list[Look]:
    """A row of looks without its trailing blank cells (so equal rows compare equal)."""
    while looks and looks[-1] == BLANK:
        looks.pop()
    return looks


def row_key(looks: Sequence[Look], columns: Sequence[int]) -> tuple[str, ...] | None:
    """What identifies a row: the texts of its key ``columns``, None if one is empty."""
    if not columns:
        return None
    key = tuple(looks[c][0] if c < len(looks) else "" for c in columns)
    return None if "" in key else key

"""The start date of a tournament, read from the forms real TRF-16 files write in record 042.

TRF-16 asks for ``YYYY/MM/DD``; exports also write ``2024-08-01``, ``28. 07. 2005``,
``24/09/2010``, ``25.02.2011``, ``May 29, 2020`` and two-digit years (``10.09.13``, the
Irish Chess Union's ``YY.MM.DD``). Only one question depends on it (which C.07 text
``--rules fide`` applies), so a date that cannot be read is None, never an error, and the
record itself is kept as written.

>>> [read_date(t) for t in ("2026-03-01", "28. 07. 2005", "May 29, 2020", "11.09.26")]
[datetime.date(2026, 3, 1), datetime.date(2005, 7, 28), datetime.date(2020, 5, 29), \
datetime.date(2011, 9, 26)]
>>> read_date("soon") is None, read_date("2026-02-30") is None
(True, True)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when a date is read: most commands never read one
    from datetime import date

__all__ = ["read_date"]

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
#: Three numbers separated by ``-``, ``/``, ``.`` and blanks.
_NUMERIC = re.compile(r"(\d{1,4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,4})")
#: ``May 29, 2020`` or ``29 May 2020``.
_MONTH_FIRST = re.compile(r"([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})")
_DAY_FIRST = re.compile(r"(\d{1,2})\.?\s+([a-z]{3})[a-z]*\.?,?\s+(\d{4})")


def read_date(text: str) -> date | None:
    """The date ``text`` names, or None when it is not a date in a form seen in TRF files.

    Four-digit years decide the order: ``YYYY/MM/DD``, else day first (``DD/MM/YYYY``, as
    FIDE-world programs write) unless only month first is a date. With two-digit years the
    TRF order ``YY/MM/DD`` is read, unless the last number cannot be a day.
    """
    text = text.strip().lower()
    if m := _NUMERIC.fullmatch(text):
        a, b, c = m.group(1), m.group(2), m.group(3)
        if len(a) == 4:
            return _date(int(a), int(b), int(c))
        if len(c) == 4:
            return _date(int(c), int(b), int(a)) or _date(int(c), int(a), int(b))
        if len(a) <= 2 and len(c) <= 2:
            if int(c) > 31:
                return _date(2000 + int(c), int(b), int(a))
            return _date(2000 + int(a), int(b), int(c))
        return None
    if m := _MONTH_FIRST.fullmatch(text):
        return _month(m.group(1), int(m.group(2)), int(m.group(3)))
    if m := _DAY_FIRST.fullmatch(text):
        return _month(m.group(2), int(m.group(1)), int(m.group(3)))
    return None


def _month(name: str, day: int, year: int) -> date | None:
    return _date(year, _MONTHS.index(name) + 1, day) if name in _MONTHS else None


def _date(year: int, month: int, day: int) -> date | None:
    from datetime import date

    try:
        return date(year, month, day)
    except ValueError:
        return None

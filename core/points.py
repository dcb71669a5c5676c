"""A points column beside the results (TRF-16 columns 81–84, a crosstable's ``Tot``): the
results decide the score, and a column that says otherwise is reported, never refused.

One wording for every front door: the CLI's standard error and JSON, a sheet's Errors tab
and the bot's import answer all show :func:`points_disagreement`'s sentence.

>>> written_points("4.5"), written_points("11,5"), written_points("3½"), written_points("3")
(450, 1150, 350, 300)
>>> written_points(""), written_points("4.25"), written_points("x")
(None, 425, None)
>>> points_disagreement("Ann", "2.0", 3)
'Ann: the points column says 2.0, the results add up to 1.5; the results are used'
>>> points_disagreement("Ann", "1.5", 3) is None, points_disagreement("Ann", "", 3) is None
(True, True)
"""

from __future__ import annotations

import re

from core.numbers import half_points

__all__ = ["points_disagreement", "written_points"]

#: A score as programs write it: ``4``, ``4.5``, ``4,5``, ``4.50``, ``4½``.
_POINTS = re.compile(r"([0-9]{1,4})(?:[.,]([0-9]{1,2})|(½))?")


def written_points(text: str) -> int | None:
    """The number a points cell holds, exactly, in hundredths of a point (``2.5`` and
    ``2,50`` are 250); None when it is empty or not a number (nothing to compare then)."""
    m = _POINTS.fullmatch(text.strip())
    if m is None:
        return None
    fraction = 50 if m.group(3) else int((m.group(2) or "0").ljust(2, "0"))
    return int(m.group(1)) * 100 + fraction


def points_disagreement(name: str, written: str, half: int) -> str | None:
    """The warning when a points cell says other than the results (``half`` half-points),
    naming the player; None when it agrees or says nothing readable."""
    said = written_points(written)
    if said is None or said == 50 * half:
        return None
    return (
        f"{name or 'the player'}: the points column says {written.strip()}, the results add "
        f"up to {half_points(half)}; the results are used"
    )

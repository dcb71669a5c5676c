"""Every tiebreak Harkness knows, by code (core/RULEBOOK.md).

Codes are looked up per rule family, because the same code can mean different rules: US
Chess ``SB`` and FIDE ``SB`` treat unplayed rounds differently. ``tiebreaks_of(family)[code]``
is a :class:`~core.tiebreaks.base.Tiebreak`: its name in words, the rule it implements, and
the function that computes it for a whole section. Each family is a constant tuple
(``USCF_TIEBREAKS`` here, ``TIEBREAKS`` in :mod:`core.tiebreaks.fide`); importing a module
registers nothing.
"""

from __future__ import annotations

import importlib
from functools import cache

from core.profiles import Family
from core.tiebreaks import uscf
from core.tiebreaks.base import Breakdown, Column, Section, Tiebreak

__all__ = [
    "USCF_TIEBREAKS",
    "Breakdown",
    "Column",
    "Section",
    "Tiebreak",
    "tiebreaks_of",
]

#: The US Chess family (Rule 34E and the tiebreaks US programs print).
USCF_TIEBREAKS = (
    Tiebreak(
        "MM",
        "Modified Median",
        "US Chess 34E1",
        uscf.modified_median,
        notes=uscf.adjusted_score_notes,
    ),
    Tiebreak("SOLK", "Solkoff", "US Chess 34E2", uscf.solkoff, notes=uscf.adjusted_score_notes),
    Tiebreak("CUM", "Cumulative", "US Chess 34E3", uscf.cumulative, notes=uscf.cumulative_notes),
    Tiebreak(
        "OCUM",
        "Opponents' Cumulative",
        "US Chess 34E",
        uscf.opponents_cumulative,
        notes=uscf.opponents_cumulative_notes,
    ),
    Tiebreak("MED", "Median", "US Chess 34E", uscf.median, notes=uscf.adjusted_score_notes),
    Tiebreak("KASH", "Kashdan", "US Chess 34E", uscf.kashdan, notes=uscf.kashdan_notes),
    Tiebreak(
        "SB",
        "Sonneborn-Berger",
        "US Chess 34E",
        uscf.sonneborn_berger,
        notes=uscf.sonneborn_berger_notes,
    ),
    Tiebreak("BLK", "Most Blacks", "US Chess 34E", uscf.most_blacks, notes=uscf.most_blacks_notes),
    Tiebreak(
        "H2H",
        "Result between tied players",
        "US Chess 34E",
        uscf.head_to_head_column,
        group=uscf.head_to_head,
        notes=uscf.head_to_head_notes,
    ),
    Tiebreak(
        "AOR",
        "Average rating of opponents",
        "US Chess 34E",
        uscf.average_opponents_rating,
        digits=0,
        notes=uscf.rating_notes,
    ),
    Tiebreak(
        "PERF",
        "Performance rating",
        "US Chess 34E",
        uscf.performance_rating,
        digits=0,
        notes=uscf.rating_notes,
    ),
    Tiebreak("COIN", "Coin flip", "US Chess 34E", uscf.coin_flip),
)

#: The module holding each other family's ``TIEBREAKS``, imported on first use, so the US
#: Chess command line does not pay for the FIDE modules. Importing it changes nothing.
_FAMILY_MODULES = {Family.FIDE: "core.tiebreaks.fide"}


@cache
def tiebreaks_of(family: Family | str) -> dict[str, Tiebreak]:
    """The tiebreaks of a rule family (:class:`~core.profiles.Family`), by code.

    >>> list(tiebreaks_of(Family.USCF))[:4], tiebreaks_of("fide")["BH"].name
    (['MM', 'SOLK', 'CUM', 'OCUM'], 'Buchholz')
    """
    family = Family(family)
    if family is Family.USCF:
        found: tuple[Tiebreak, ...] = USCF_TIEBREAKS
    else:
        found = importlib.import_module(_FAMILY_MODULES[family]).TIEBREAKS
    return {tiebreak.code: tiebreak for tiebreak in found}

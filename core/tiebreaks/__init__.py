"""Every tiebreak Harkness knows, by code (core/RULEBOOK.md).

Codes are looked up per rule family, because the same code can mean different rules: US
Chess ``SB`` and FIDE ``SB`` treat unplayed rounds differently. ``REGISTRIES["uscf"][code]``
is a :class:`~core.tiebreaks.base.Tiebreak`: its name in words, the rule it implements, and
the function that computes it for a whole section. ``REGISTRY`` is the US Chess family.
"""

from __future__ import annotations

from core.tiebreaks import uscf
from core.tiebreaks.base import Breakdown, Column, Section, Tiebreak

__all__ = [
    "REGISTRIES",
    "REGISTRY",
    "Breakdown",
    "Column",
    "Section",
    "Tiebreak",
    "register",
    "tiebreaks_of",
]

REGISTRIES: dict[str, dict[str, Tiebreak]] = {"uscf": {}}
REGISTRY = REGISTRIES["uscf"]


def register(tiebreak: Tiebreak, family: str = "uscf") -> None:
    """Make a tiebreak available by its code within a rule family."""
    REGISTRIES.setdefault(family, {})[tiebreak.code] = tiebreak


def tiebreaks_of(family: str) -> dict[str, Tiebreak]:
    """The tiebreaks of a rule family (``"uscf"`` or ``"fide"``), by code."""
    if family not in REGISTRIES:
        load_families()
    return REGISTRIES[family]


for _tb in (
    Tiebreak("MM", "Modified Median", "US Chess 34E1", uscf.modified_median),
    Tiebreak("SOLK", "Solkoff", "US Chess 34E2", uscf.solkoff),
    Tiebreak("CUM", "Cumulative", "US Chess 34E3", uscf.cumulative),
    Tiebreak("OCUM", "Opponents' Cumulative", "US Chess 34E", uscf.opponents_cumulative),
    Tiebreak("MED", "Median", "US Chess 34E", uscf.median),
    Tiebreak("KASH", "Kashdan", "US Chess 34E", uscf.kashdan),
    Tiebreak("SB", "Sonneborn-Berger", "US Chess 34E", uscf.sonneborn_berger),
    Tiebreak("BLK", "Most Blacks", "US Chess 34E", uscf.most_blacks),
    Tiebreak(
        "H2H",
        "Result between tied players",
        "US Chess 34E",
        uscf.head_to_head_column,
        group=uscf.head_to_head,
    ),
    Tiebreak(
        "AOR",
        "Average rating of opponents",
        "US Chess 34E",
        uscf.average_opponents_rating,
        digits=0,
    ),
    Tiebreak("PERF", "Performance rating", "US Chess 34E", uscf.performance_rating, digits=0),
    Tiebreak("COIN", "Coin flip", "US Chess 34E", uscf.coin_flip),
):
    register(_tb)


#: Rule families loaded on first use (importing a family registers its tiebreaks and
#: profiles), so the US Chess command line does not pay for the FIDE modules.
_LAZY_FAMILIES = {"fide": "core.tiebreaks.fide"}


def load_families() -> None:
    """Import every rule family not loaded yet (their profiles become known)."""
    import importlib

    for module in _LAZY_FAMILIES.values():
        importlib.import_module(module)

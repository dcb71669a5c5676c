"""The pairing engine: gacrux, the FIDE Dutch system (C.04.3) pairer of FIDE TEC's
TieBreakServer (Otto Milvang, MIT licence), behind one function.

Harkness does not pair by itself. gacrux was chosen over the other engines because it
gave the same pairings as bbpPairings (FIDE-endorsed, Dutch rules in force since
1 February 2026) on every position tried (see core/DECISIONS.md), and because it is a
pure-Python package on PyPI. It is an optional extra (``pip install 'harkness[pairing]'``)
imported only when a round is paired; its version is pinned in pyproject.toml.

The engine reads the TRF-16 text of :func:`core.pairing.trf.engine_trf` and answers the
pairs of the round in board order as (white, black) pairing numbers, black ``0`` for the
pairing-allocated bye.

Its weighted matchings (networkx's ``min_weight_matching``, most of the time of a large
round) are computed by bbpPairings' matching computer instead (:mod:`core.pairing.matching`:
the same minimum-weight maximum-cardinality matching, exactly, in C++): gacrux's Dutch
module is handed networkx with that one function answered by
:func:`core.pairing.matching.min_weight_matching`. ``matching="networkx"`` pairs with
networkx's own, as gacrux alone would (the tests compare the two).
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any, Literal

from core.problems import HarknessError, Problem

__all__ = ["ENGINE", "engine_version", "pair_trf", "require_engine"]

#: The engine's name as shown to TDs.
ENGINE = "gacrux"
#: What a TD installs when the engine is missing.
INSTALL = "pip install 'harkness[pairing]'"


def _missing() -> HarknessError:
    return HarknessError(
        [
            Problem(
                f"pairing needs the {ENGINE} engine, which is not installed: {INSTALL}",
                code="engine-missing",
            )
        ]
    )


def require_engine() -> None:
    """Raise ``engine-missing`` when the engine is not installed, without importing it (a
    process that runs the engine in a child process says so before starting one)."""
    from importlib.util import find_spec

    try:
        found = find_spec(ENGINE) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise _missing()


#: Which matching the engine's calls get: bbpPairings' computer, or networkx's own.
Matching = Literal["computer", "networkx"]
_matching: ContextVar[Matching] = ContextVar("matching", default="computer")


class _Networkx:
    """networkx as gacrux's Dutch module sees it: ``min_weight_matching`` answered by
    :func:`core.pairing.matching.min_weight_matching` (unless the pairing asked for
    networkx's own), everything else networkx's."""

    def __init__(self, networkx: Any) -> None:
        self._networkx = networkx

    def __getattr__(self, name: str) -> Any:
        return getattr(self._networkx, name)

    def min_weight_matching(self, graph: Any, weight: str = "weight") -> Any:
        if _matching.get() == "networkx":
            return self._networkx.min_weight_matching(graph, weight=weight)
        from core.pairing.matching import min_weight_matching

        return min_weight_matching(graph, weight)


def _gacrux() -> tuple[Any, Any]:
    try:
        import gacrux.pairingdutch as dutch
        from gacrux.pairingchecker import pairingchecker
        from gacrux.trf2json import trf2json
    except ImportError:
        raise _missing() from None
    if not isinstance(dutch.nx, _Networkx):
        dutch.nx = _Networkx(dutch.nx)
    return pairingchecker, trf2json


@contextlib.contextmanager
def _matching_by(matching: Matching) -> Iterator[None]:
    token = _matching.set(matching)
    try:
        yield
    finally:
        _matching.reset(token)


def engine_version() -> str:
    """The installed engine's version (``gacrux 1.11.65``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{ENGINE} {version(ENGINE)}"
    except PackageNotFoundError:
        return f"{ENGINE} (not installed)"


def _params(round: int) -> dict[str, Any]:
    """The options of gacrux's ``pairingchecker -p -n ROUND``, without its command line."""
    return {
        "check": 0,
        "analysis": 0,
        "pairing": 1,
        "input_file": "-",
        "output_file": "-",
        "input_format": "TRF",
        "output_format": "JSON",
        "encoding": "",
        "tournament_number": "1",
        "current_round": round,
        "number_of_rounds": 0,
        "rank": False,
        "game_score": None,
        "match_score": None,
        "delimiter": None,
        "decimal_point": None,
        "experimental": [],
        "verbose": 0,
        "version": 0,
        "method": ["dutch"],
        "top_color": " ",
        "maxmeets": "0",
        "unpaired": [],
        "exchange": [],
    }


def pair_trf(text: str, round: int, *, matching: Matching = "computer") -> list[tuple[int, int]]:
    """Pair ``round`` of the TRF-16 ``text`` by the Dutch system: (white, black) pairing
    numbers in board order, black 0 for the pairing-allocated bye; the engine's matchings
    by ``matching`` (see the module's notes).

    Raises :class:`HarknessError` when the engine refuses the file or finds no legal
    pairing (C.04.3 leaves that case to the chief arbiter).
    """
    pairingchecker, trf2json = _gacrux()
    checker = pairingchecker()
    checker.params = _params(round)
    checker.chessfile = chessfile = trf2json()
    status = chessfile.chessjson["status"]
    # gacrux prints progress only in verbose mode; anything it prints is kept off stdout.
    with contextlib.redirect_stdout(io.StringIO()), _matching_by(matching):
        try:
            chessfile.parse_file(text, 0)
            if status["code"] < 400:
                checker.prepare_tournament()
                checker.do_checker()
                checker.apply_result()
        except MemoryError:  # the ceiling's to report (core.pairing.isolated), not a refusal
            raise
        except Exception as error:  # the engine's own exceptions have no common base
            raise HarknessError(
                [
                    Problem(
                        f"the {ENGINE} engine refused round {round}: {error}",
                        round=round,
                        code="engine-refused",
                    )
                ]
            ) from error
    errors = status["error"] + checker.resultjson["status"]["error"]
    code = max(status["code"], checker.resultjson["status"]["code"])
    pairs = chessfile.result.get("pairs") if hasattr(chessfile, "result") else None
    if code >= 400 or not pairs:
        why = "; ".join(str(e) for e in errors) or "no legal pairing of the round exists"
        raise HarknessError(
            [
                Problem(
                    f"{ENGINE} cannot pair round {round}: {why} (C.04.3 leaves a round "
                    "without a legal pairing to the chief arbiter)",
                    round=round,
                    code="no-legal-pairing",
                )
            ]
        )
    return [(int(white), int(black)) for white, black in pairs]

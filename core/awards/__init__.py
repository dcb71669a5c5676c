"""Awards: who wins which prize, trophy and team title, and why (US Chess Rules 32, 33 and
34; the FIDE-world methods; the US Chess scholastic team rules).

The API every front door uses (the command line, the bot, the sheet worker):

- :func:`read_prize_file` / :func:`read_prizes`: a prize file (TOML) to a :class:`PrizeList`,
  every problem located; :func:`read_prize_data`: the same from values read elsewhere (a
  sheet's tab); :func:`read_prize_fields`: one prize from its fields (a bot command's
  options, a sheet's row), checked by the same rules;
  :func:`section_problems`: what a prize list names that the section does not have.
- :func:`compute_awards`: the :class:`Awards` of a section's standings under a prize list:
  each player's :class:`PlayerAward` (cash exact and paid, prizes, trophies, reasons as
  :class:`AwardNote` data), each :class:`PrizeResult`, each :class:`TeamAward`.
- Words: :mod:`core.explain_render` (``award_text``, ``award_markdown``,
  ``award_note_text``…); tables and JSON: :mod:`core.awards.render`; the picture:
  :mod:`core.pictures.awards`.

Imported on first use, so that reading a reason's kind costs no more than its module.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.awards.check import section_problems
    from core.awards.engine import compute_awards
    from core.awards.fields import read_prize_fields
    from core.awards.model import Kind, Method, Prize, PrizeList
    from core.awards.prizefile import read_prize_data, read_prize_file, read_prizes
    from core.awards.reasons import AwardNote, AwardWhy, Item
    from core.awards.result import Awards, PlayerAward, PrizeResult, TeamAward

__all__ = [
    "AwardNote",
    "AwardWhy",
    "Awards",
    "Item",
    "Kind",
    "Method",
    "PlayerAward",
    "Prize",
    "PrizeList",
    "PrizeResult",
    "TeamAward",
    "compute_awards",
    "read_prize_data",
    "read_prize_fields",
    "read_prize_file",
    "read_prizes",
    "section_problems",
]

_HOMES = {
    "section_problems": "check",
    "compute_awards": "engine",
    "read_prize_fields": "fields",
    "Kind": "model",
    "Method": "model",
    "Prize": "model",
    "PrizeList": "model",
    "read_prize_data": "prizefile",
    "read_prize_file": "prizefile",
    "read_prizes": "prizefile",
    "AwardNote": "reasons",
    "AwardWhy": "reasons",
    "Item": "reasons",
    "Awards": "result",
    "PlayerAward": "result",
    "PrizeResult": "result",
    "TeamAward": "result",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(f"core.awards.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

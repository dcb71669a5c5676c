"""What dividing cash gives: each entrant's exact amount, the prizes he pooled or won and the
reasons; each prize's winners and final amount. Every method (US Chess, FIDE world, the
additive specials, the team prizes) returns one :class:`Division`; the engine adds them up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from core.awards.model import Prize
from core.awards.reasons import AwardNote

__all__ = ["Division", "Shared"]


@dataclass(frozen=True, slots=True)
class Shared:
    """Prizes (indices) whose cash went to the same entrants (keys, in award order): a pool,
    a place, a Hort group; a trophy that follows the money goes to the first of them."""

    prizes: tuple[int, ...]
    keys: tuple[int, ...]


@dataclass(slots=True)
class Division:
    """Cash divided. ``prizes`` is the working list of prizes: the prize list's, then any
    prize added by money moved down (US Chess); indices refer to it."""

    prizes: list[Prize]
    amounts: dict[int, Fraction] = field(default_factory=dict)
    won: dict[int, list[int]] = field(default_factory=dict)
    notes: dict[int, list[AwardNote]] = field(default_factory=dict)
    winners: dict[int, list[int]] = field(default_factory=dict)
    paid_out: dict[int, Fraction] = field(default_factory=dict)
    shared: list[Shared] = field(default_factory=list)
    unpaid: Fraction = Fraction(0)

    def give(self, key: int, amount: Fraction, prizes: list[int]) -> None:
        """``key`` gets ``amount`` for ``prizes`` (their names are what he pooled or won)."""
        self.amounts[key] = self.amounts.get(key, Fraction(0)) + amount
        won = self.won.setdefault(key, [])
        for i in prizes:
            if i not in won:
                won.append(i)
            winners = self.winners.setdefault(i, [])
            if key not in winners:
                winners.append(key)

    def note(self, key: int, note: AwardNote) -> None:
        self.notes.setdefault(key, []).append(note)

"""The award list as data: each player's cash, prizes and trophies with their reasons, each
prize's winners, each team's score, and the cents left over from paying in cents.

Amounts are exact fractions of the currency (``cash``); what is paid is rounded down to the
cent (``paid``), and the cents this leaves over are shown once, for the whole list
(``leftover``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from core.awards.model import Method, Prize
from core.awards.reasons import AwardNote

__all__ = ["Awards", "PlayerAward", "PrizeResult", "TeamAward"]


@dataclass(frozen=True, slots=True)
class PlayerAward:
    """One player's awards: ``cash`` exact and ``paid`` (rounded down to the cent), the
    names of the prizes pooled or won, the trophies held (the first comes before the
    others: the one a list shows), the team; ``reasons`` why, ``why_not`` why not a prize
    or trophy he might expect."""

    id: int
    name: str
    place: str
    score: Fraction
    cash: Fraction
    paid: Fraction
    prizes: tuple[str, ...]
    trophies: tuple[str, ...]
    reasons: tuple[AwardNote, ...]
    why_not: tuple[AwardNote, ...]
    currency: str = ""
    team: str = ""

    @property
    def trophy(self) -> str | None:
        """The trophy a list shows (None: none)."""
        return self.trophies[0] if self.trophies else None


@dataclass(frozen=True, slots=True)
class PrizeResult:
    """A prize as it was awarded: the ``amount`` paid out for it (raised by money moved
    down, if it was), the players (starting numbers) or teams sharing its cash, the
    trophy's holder, whether it was awarded at all, and why not."""

    prize: Prize
    amount: Fraction | None
    winners: tuple[int, ...]
    teams: tuple[str, ...]
    trophy_holder: int | None
    trophy_team: str | None
    awarded: bool
    reasons: tuple[AwardNote, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamAward:
    """A team: rank, score, its players and the counting ones (starting numbers), its cash,
    prizes and trophies, and why."""

    name: str
    rank: int
    score: Fraction
    players: tuple[int, ...]
    counting: tuple[int, ...]
    cash: Fraction
    paid: Fraction
    prizes: tuple[str, ...]
    trophies: tuple[str, ...]
    reasons: tuple[AwardNote, ...]


@dataclass(frozen=True, slots=True)
class Awards:
    """The award list of a section: ``rows`` in standings order, ``prizes`` as announced
    (then any prize added by money moved down), ``teams`` in team order, ``unranked`` the
    teams too small to rank (name, players in the section), ``leftover`` what paying in
    cents rounded down keeps back, ``unpaid`` what personal limits kept back (FIDE-world
    methods)."""

    method: Method
    currency: str
    rows: tuple[PlayerAward, ...]
    prizes: tuple[PrizeResult, ...]
    teams: tuple[TeamAward, ...]
    leftover: Fraction
    title: str = ""
    rules: str = ""
    rounds: int = 0
    team_count: int = 4
    trophy_follows_money: bool = False
    unranked: tuple[tuple[str, int], ...] = ()
    unpaid: Fraction = Fraction(0)

    def award(self, player_id: int) -> PlayerAward:
        """The awards of the player with this starting number."""
        return next(row for row in self.rows if row.id == player_id)

    @property
    def leftover_cents(self) -> int:
        """:attr:`leftover` in cents."""
        return int(self.leftover * 100)

"""The store's records: who acts, tournaments, players, and the events of the results log.

These are plain immutable values, read from the database and handed to callers; the
tiebreak vocabulary (entries, colours, results) is :mod:`core.model`'s.

>>> Actor("80351110224678912", "Ann", td=True).label
'Ann'
>>> EventKind("report") is EventKind.REPORT, ResultStatus.DISPUTED.value
(True, 'disputed')
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from core.model import Colour, EntryKind
from core.profiles import parse_options


class Source(StrEnum):
    """Where a change came from."""

    DISCORD = "discord"
    SHEET = "sheet"
    CLI = "cli"
    IMPORT = "import"


class TournamentStatus(StrEnum):
    """A tournament's stage: players join, then rounds are played, then it is over."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


class ResultStatus(StrEnum):
    """How settled a result is.

    ``provisional``: one player reported it, the opponent has not confirmed; it counts in
    standings, marked. ``confirmed``: both players agree, or a TD confirmed or set it.
    ``disputed``: the reports disagree (or the opponent disputed); it does not count until a
    TD decides.
    """

    PROVISIONAL = "provisional"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"


class EventKind(StrEnum):
    """What an event of the results log records."""

    REPORT = "report"  # a player's account of their game (provisional)
    CONFIRM = "confirm"  # the opponent or a TD confirms a report
    DISPUTE = "dispute"  # the opponent disputes a report
    SET = "set"  # a TD sets a game's result (a correction when one was there)
    BYE = "bye"  # a TD gives a player a bye of a kind in a round
    WITHDRAW = "withdraw"  # a TD withdraws a player from a round on
    CLEAR = "clear"  # a TD clears a player's round (the game or bye never happened)
    REVERT = "revert"  # a TD undoes an event (a revert of a revert redoes it)
    PAIRING = "pairing"  # a TD's draft pairing of a round (its boards in ``note``)
    SWAP = "swap"  # a TD exchanges two players' places in a round's draft pairing
    PUBLISH = "publish"  # a TD publishes a round's pairing (``refers_to`` the draft)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a Discord user id (or a name, for the CLI and sheets), a display name
    for the audit trail, whether they act as tournament director, and from where.

    The caller decides ``td`` (the bot checks the guild's TD role); the store then lets a TD
    change any result and a member only their own games.
    """

    user: str
    name: str = ""
    td: bool = False
    source: Source = Source.DISCORD

    @property
    def label(self) -> str:
        """The name to show for this actor."""
        return self.name or self.user


@dataclass(frozen=True, slots=True)
class SheetLink:
    """The Google spreadsheet a tournament is kept in."""

    spreadsheet_id: str
    url: str
    linked_by: str
    linked_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A tournament's settings. ``rounds`` is the planned number of rounds; ``tiebreaks`` is
    the TD's own comma list of codes, or None for the profile's order; ``options`` the TD's
    profile options as text (``cumulative-half-bye=yes``), or None for the profile's own."""

    id: int
    guild: str
    name: str
    profile: str
    tiebreaks: str | None
    rounds: int
    status: TournamentStatus
    created_by: str
    created_at: datetime
    start_date: str = ""
    end_date: str = ""
    round_robin: bool | None = None
    records: tuple[tuple[str, str], ...] = ()
    sheet: SheetLink | None = None
    options: str | None = None
    #: The accelerated pairing method the TD announced (``baku``), or None.
    acceleration: str | None = None
    #: Counts the changes of the tournament's players (a join, an import, a link).
    players_version: int = 0

    @property
    def option_values(self) -> dict[str, bool]:
        """The TD's profile options (see :func:`core.profiles.parse_options`)."""
        return parse_options(self.options)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A registered player. ``id`` is the store's own key; ``number`` is the starting number
    that crosstables, TRF files and members use."""

    id: int
    number: int
    name: str
    rating: int | None = None
    discord_id: str | None = None
    uscf_id: str | None = None
    fide_id: str | None = None
    title: str = ""
    sex: str = ""
    federation: str = ""
    birth_date: str = ""
    late_entry_round: int | None = None

    @property
    def label(self) -> str:
        """``#3 Ann Example``: how messages name a player."""
        return f"#{self.number} {self.name}"


#: How the results log stores a double forfeit (neither player came): a forfeit loss for
#: both, each against the other (TRF-16 ``-`` on both sides).
DOUBLE_FORFEIT = "double forfeit"


@dataclass(frozen=True, slots=True)
class Event:
    """One event of a tournament's results log.

    ``player`` and ``opponent`` are players' ids (:attr:`PlayerInfo.id`); ``result`` and
    ``colour`` are from ``player``'s side (``double`` marks a double forfeit: ``result`` is
    a forfeit loss for both players, stored as :data:`DOUBLE_FORFEIT`); for ``withdraw``
    ``round`` is the first round missed. ``refers_to`` is the event confirmed, disputed or
    reverted; ``supersedes`` the event whose effect this one replaced, if any.
    """

    seq: int
    kind: EventKind
    actor: str
    at: datetime
    round: int | None = None
    player: int | None = None
    opponent: int | None = None
    result: EntryKind | None = None
    colour: Colour | None = None
    refers_to: int | None = None
    supersedes: int | None = None
    actor_name: str = ""
    td: bool = False
    source: Source = Source.DISCORD
    note: str = ""
    double: bool = False

"""The vocabulary of a tournament: players, and one round entry per player and round.

core/RULEBOOK.md, "Round entries": every player has exactly one entry per round, which is a game
(win, draw or loss against an opponent, with an optional colour), a forfeit, a bye of a
kind, an absence, or a round after withdrawal. Points are kept in exact half-points
(integers), never floats.

>>> e = RoundEntry.win(9, Colour.WHITE)
>>> str(e), e.half_points, e.played
('W9 (w)', 2, True)
>>> str(RoundEntry.bye(EntryKind.HALF_BYE)), RoundEntry.bye(EntryKind.HALF_BYE).half_points
('H', 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from operator import itemgetter
from typing import NamedTuple

from core.problems import HarknessError, Problem


class Colour(Enum):
    """The colour a player had in a game."""

    WHITE = "w"
    BLACK = "b"

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow Python

    @property
    def opposite(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE

    @classmethod
    def parse(cls, text: Colour | str) -> Colour | None:
        """``w`` / ``white`` / ``b`` / ``black`` in any case (a colour already read stands);
        None for anything else.

        >>> Colour.parse(" White"), Colour.parse("b"), Colour.parse("red")
        (<Colour.WHITE: 'w'>, <Colour.BLACK: 'b'>, None)
        """
        if isinstance(text, Colour):
            return text
        return _COLOUR_WORDS.get(text.strip().lower())


def colours_agree(a: Colour | None, b: Colour | None) -> bool:
    """Two reports of one game agree on colour when they say the same or one left it out."""
    return a is None or b is None or a is b


_COLOUR_WORDS = {
    "w": Colour.WHITE,
    "white": Colour.WHITE,
    "b": Colour.BLACK,
    "black": Colour.BLACK,
}


class EntryKind(Enum):
    """What happened to one player in one round (core/RULEBOOK.md, "Round entries").

    Each kind carries ``half_points`` (its points, a win is 2), ``played`` (a game over the
    board: win, draw, loss) and ``has_opponent`` (games and forfeits name an opponent).
    """

    half_points: int
    played: bool
    has_opponent: bool

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit win"
    FORFEIT_LOSS = "forfeit loss"
    FULL_BYE = "full-point bye"
    PAIRING_BYE = "pairing-allocated bye"
    HALF_BYE = "half-point bye"
    ZERO_BYE = "zero-point bye"
    ABSENT = "absent"
    WITHDRAWN = "withdrawn"

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow Python


HALF_POINTS: dict[EntryKind, int] = {
    EntryKind.WIN: 2,
    EntryKind.DRAW: 1,
    EntryKind.LOSS: 0,
    EntryKind.FORFEIT_WIN: 2,
    EntryKind.FORFEIT_LOSS: 0,
    EntryKind.FULL_BYE: 2,
    EntryKind.PAIRING_BYE: 2,
    EntryKind.HALF_BYE: 1,
    EntryKind.ZERO_BYE: 0,
    EntryKind.ABSENT: 0,
    EntryKind.WITHDRAWN: 0,
}
PLAYED = frozenset({EntryKind.WIN, EntryKind.DRAW, EntryKind.LOSS})
FORFEITS = frozenset({EntryKind.FORFEIT_WIN, EntryKind.FORFEIT_LOSS})
WITH_OPPONENT = PLAYED | FORFEITS
BYES = frozenset(
    {EntryKind.FULL_BYE, EntryKind.PAIRING_BYE, EntryKind.HALF_BYE, EntryKind.ZERO_BYE}
)
#: Rounds won without playing: a full-point or pairing-allocated bye, a forfeit win (US
#: Chess 34E3 takes them off Cumulative; FIDE C.07 16.2.1-16.2.2: unplayed, not voluntary).
UNPLAYED_WINS = frozenset({EntryKind.FULL_BYE, EntryKind.PAIRING_BYE, EntryKind.FORFEIT_WIN})
# Plain attributes, not properties: the tiebreaks read them for every entry of a section.
for _kind in EntryKind:
    _kind.half_points = HALF_POINTS[_kind]
    _kind.played = _kind in PLAYED
    _kind.has_opponent = _kind in WITH_OPPONENT

#: The entry the other side of a game or forfeit must have.
MIRROR: dict[EntryKind, EntryKind] = {
    EntryKind.WIN: EntryKind.LOSS,
    EntryKind.LOSS: EntryKind.WIN,
    EntryKind.DRAW: EntryKind.DRAW,
    EntryKind.FORFEIT_WIN: EntryKind.FORFEIT_LOSS,
    EntryKind.FORFEIT_LOSS: EntryKind.FORFEIT_WIN,
}


def mirrored(
    kind: EntryKind, colour: Colour | None, double: bool = False
) -> tuple[EntryKind, Colour | None]:
    """The other side of a game or forfeit: its result (:data:`MIRROR`; a ``double``
    forfeit is a forfeit loss on both sides) and colour.

    >>> mirrored(EntryKind.WIN, Colour.WHITE)
    (<EntryKind.LOSS: 'loss'>, <Colour.BLACK: 'b'>)
    >>> mirrored(EntryKind.FORFEIT_LOSS, None, double=True)
    (<EntryKind.FORFEIT_LOSS: 'forfeit loss'>, None)
    """
    return kind if double else MIRROR[kind], colour.opposite if colour is not None else None


def mirrors(kind: EntryKind, other: EntryKind) -> bool:
    """Whether ``other`` may stand on the other side of ``kind`` in the same pairing.

    Each side's entry is the other's :data:`MIRROR`, except a double forfeit (neither
    player came): a forfeit loss on both sides, 0 points each and unplayed for both
    (TRF-16 writes ``-`` on both lines; each side counts as any other forfeit loss).

    >>> loss = EntryKind.FORFEIT_LOSS
    >>> mirrors(EntryKind.WIN, EntryKind.LOSS), mirrors(loss, loss)
    (True, True)
    >>> mirrors(EntryKind.FORFEIT_WIN, EntryKind.FORFEIT_WIN)
    False
    """
    return other is MIRROR[kind] or (
        kind is EntryKind.FORFEIT_LOSS and other is EntryKind.FORFEIT_LOSS
    )


_LETTER = {
    EntryKind.WIN: "W",
    EntryKind.DRAW: "D",
    EntryKind.LOSS: "L",
    EntryKind.FORFEIT_WIN: "X",
    EntryKind.FORFEIT_LOSS: "F",
    EntryKind.FULL_BYE: "B",
    EntryKind.PAIRING_BYE: "B",
    EntryKind.HALF_BYE: "H",
    EntryKind.ZERO_BYE: "U",
    EntryKind.ABSENT: "",
    EntryKind.WITHDRAWN: "-",
}


class RoundEntry(NamedTuple):
    """One player's entry in one round.

    ``opponent`` is the opponent's starting number for games and forfeits, None otherwise;
    ``colour`` is optional and only meaningful for games played. (A named tuple rather than a
    dataclass: a 5,000-player section reads tens of thousands of them, three times faster.)
    """

    kind: EntryKind
    opponent: int | None = None
    colour: Colour | None = None

    @classmethod
    def win(cls, opponent: int, colour: Colour | None = None) -> RoundEntry:
        return cls(EntryKind.WIN, opponent, colour)

    @classmethod
    def draw(cls, opponent: int, colour: Colour | None = None) -> RoundEntry:
        return cls(EntryKind.DRAW, opponent, colour)

    @classmethod
    def loss(cls, opponent: int, colour: Colour | None = None) -> RoundEntry:
        return cls(EntryKind.LOSS, opponent, colour)

    @classmethod
    def forfeit_win(cls, opponent: int) -> RoundEntry:
        return cls(EntryKind.FORFEIT_WIN, opponent)

    @classmethod
    def forfeit_loss(cls, opponent: int) -> RoundEntry:
        return cls(EntryKind.FORFEIT_LOSS, opponent)

    @classmethod
    def bye(cls, kind: EntryKind = EntryKind.FULL_BYE) -> RoundEntry:
        """A round without an opponent: a bye of any kind, an absence, or withdrawal."""
        return cls(kind)

    @property
    def half_points(self) -> int:
        return self.kind.half_points

    @property
    def played(self) -> bool:
        return self.kind.played

    def mirror(self, player: int, double: bool = False) -> RoundEntry:
        """The entry ``player``'s opponent has in this game or forfeit (:func:`mirrored`;
        a ``double`` forfeit is a forfeit loss on both sides).

        >>> str(RoundEntry.win(9, Colour.WHITE).mirror(4))
        'L4 (b)'
        """
        kind, colour = mirrored(self.kind, self.colour, double)
        return RoundEntry(kind, player, colour)

    def agrees(self, other: RoundEntry) -> bool:
        """Two reports of one player's round agree: the same result and opponent, and
        :func:`colours_agree`."""
        return (
            self.kind is other.kind
            and self.opponent == other.opponent
            and colours_agree(self.colour, other.colour)
        )

    def __str__(self) -> str:
        """The crosstable notation (core/RULEBOOK.md): ``W9 (w)``, ``X4``, ``H``, ``-``."""
        text = _LETTER[self.kind]
        if self.opponent is not None:
            text += str(self.opponent)
        if self.colour is not None and self.kind in PLAYED:
            text += f" ({self.colour.value})"
        return text


@dataclass(frozen=True, slots=True)
class Player:
    """A participant: starting number, name, optional rating, entries in round order.

    ``external_ids`` holds identities outside the tournament, as (system, id) pairs:
    ``("discord", "80351110224678912")``, ``("uscf", "12345678")``. TRF-16 fields that
    Harkness does not interpret (sex, title, federation, FIDE id, birth date) are kept so
    that a file reads and writes back unchanged.
    """

    id: int
    name: str
    entries: tuple[RoundEntry, ...] = ()
    rating: int | None = None
    title: str = ""
    sex: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    external_ids: tuple[tuple[str, str], ...] = ()
    trf_rank: str = field(default="", compare=False)
    """The rank column (86–89) of the player's TRF-16 line as read, written back unchanged
    unless standings are asked for; empty when the input was not TRF."""

    @property
    def half_points(self) -> int:
        """The player's score, in half-points."""
        return sum(e.kind.half_points for e in self.entries)

    @property
    def withdrawn_after(self) -> int | None:
        """The last round before a trailing run of ``WITHDRAWN`` entries, or None."""
        n = len(self.entries)
        while n and self.entries[n - 1].kind is EntryKind.WITHDRAWN:
            n -= 1
        return n if n < len(self.entries) else None

    @property
    def entered_in(self) -> int:
        """The round of the player's first game, forfeit or non-zero bye (1 if none).

        core/RULEBOOK.md: entries before the first game that are empty or zero-point are a late
        entry; a half-point bye before the first game is still a half-point bye.
        """
        for number, entry in enumerate(self.entries, start=1):
            if entry.kind not in (EntryKind.ZERO_BYE, EntryKind.ABSENT, EntryKind.WITHDRAWN):
                return number
        return 1


_PLAYER_FIELDS = (
    "id",
    "name",
    "entries",
    "rating",
    "title",
    "sex",
    "federation",
    "fide_id",
    "birth_date",
    "external_ids",
    "trf_rank",
)
assert tuple(f.name for f in fields(Player)) == _PLAYER_FIELDS
_PLAYER_SETTERS = tuple(getattr(Player, name).__set__ for name in _PLAYER_FIELDS)


def new_player(
    id: int,
    name: str,
    entries: tuple[RoundEntry, ...],
    rating: int | None,
    title: str,
    sex: str,
    federation: str,
    fide_id: str,
    birth_date: str,
    external_ids: tuple[tuple[str, str], ...],
    trf_rank: str,
) -> Player:
    """``Player(...)`` with every field given in order, built in half the time (each slot
    set directly): a reader of 5,000 lines spent a tenth of its time in the frozen
    dataclass's ``__init__``.

    >>> e = (RoundEntry.win(2),)
    >>> new_player(1, "Ann", e, None, "", "", "", "", "", (), "1") == Player(1, "Ann", e)
    True
    """
    player: Player = object.__new__(Player)
    (
        set_id,
        set_name,
        set_entries,
        set_rating,
        set_title,
        set_sex,
        set_federation,
        set_fide_id,
        set_birth_date,
        set_external_ids,
        set_trf_rank,
    ) = _PLAYER_SETTERS
    set_id(player, id)
    set_name(player, name)
    set_entries(player, entries)
    set_rating(player, rating)
    set_title(player, title)
    set_sex(player, sex)
    set_federation(player, federation)
    set_fide_id(player, fide_id)
    set_birth_date(player, birth_date)
    set_external_ids(player, external_ids)
    set_trf_rank(player, trf_rank)
    return player


@dataclass(frozen=True, slots=True)
class Tournament:
    """A section: its players (with every round's entry) and the number of rounds ``R``.

    Construction validates the whole tournament and raises :class:`HarknessError` with
    every problem at once: a missing or extra round, an opponent that does not exist, a
    player paired with themselves, and a game or forfeit whose two sides disagree (result,
    opponent or colour).

    ``records`` keeps other TRF-16 header records (code, text) so files round-trip.
    ``round_robin`` is what the file declares (TRF-16 record 092): True for a round robin,
    False for a Swiss, None when it says neither. ``warnings`` are what the reader noticed
    and did not refuse (a points column that disagrees with the results), each located;
    they never change the tournament and are not part of its identity.
    """

    players: tuple[Player, ...]
    rounds: int
    name: str = ""
    start_date: str = ""
    end_date: str = ""
    round_robin: bool | None = None
    records: tuple[tuple[str, str], ...] = ()
    warnings: tuple[Problem, ...] = field(default=(), compare=False)
    _index: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    #: Per player (in ``players`` order): the kind of each round's entry.
    kinds: tuple[tuple[EntryKind, ...], ...] = field(
        default=(), init=False, repr=False, compare=False
    )
    #: Per player: the index of the opponent met over the board in each round, -1 where the
    #: round was not played. Derived once here because every tiebreak reads it.
    opponents: tuple[tuple[int, ...], ...] = field(
        default=(), init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        columns = _columns(self.players, self.rounds)
        if columns is None:  # something may be wrong: say exactly what, every problem at once
            problems = list(validate(self.players, self.rounds))
            if problems:
                raise HarknessError(problems)
            columns = _columns(self.players, self.rounds, strict=False)
            assert columns is not None
        self._index.update((p.id, i) for i, p in enumerate(self.players))
        object.__setattr__(self, "kinds", columns[0])
        object.__setattr__(self, "opponents", columns[1])

    def __iter__(self) -> Iterator[Player]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def index(self, player_id: int) -> int:
        """Position of the player with this starting number in :attr:`players`."""
        return self._index[player_id]

    def player(self, player_id: int) -> Player:
        """The player with this starting number."""
        return self.players[self._index[player_id]]

    def after_round(self, k: int) -> Tournament:
        """The tournament as it stood after round ``k`` (1 ≤ k ≤ rounds).

        Standings "after round k" use ``R = k``, as a crosstable printed then would.
        """
        if not 1 <= k <= self.rounds:
            message = f"after round {k}: the section has rounds 1–{self.rounds}"
            raise HarknessError(
                [
                    Problem(
                        message,
                        code="round-out-of-range",
                        field="after-round",
                        value=str(k),
                        detail=f"the section has rounds 1–{self.rounds}",
                    )
                ]
            )
        if k == self.rounds:
            return self
        players = tuple(replace(p, entries=p.entries[:k]) for p in self.players)
        return replace(self, players=players, rounds=k)


def is_round_robin(tournament: Tournament) -> bool:
    """A round robin when TRF-16 record 092 says so, a Swiss when it says Swiss; only when
    the file declares neither does a complete pairing (every pair of players met, over the
    board or by forfeit) make it a round robin.

    >>> from core.formats.crosstable import read_crosstable
    >>> is_round_robin(read_crosstable('''#  Name  Rd 1  Rd 2  Rd 3
    ... 1  Ann  W2  D3  U
    ... 2  Bob  L1  U  X3
    ... 3  Cy  U  D1  F2'''))
    True
    >>> is_round_robin(read_crosstable('''#  Name  Rd 1  Rd 2
    ... 1  Ann  W2  H
    ... 2  Bob  L1  W3
    ... 3  Cy  H  L2'''))
    False
    """
    if tournament.round_robin is not None:
        return tournament.round_robin
    players = tournament.players
    if len(players) < 2 or tournament.rounds < len(players) - 1:
        return False
    # Both sides of a pairing are recorded (the model checks it): count ordered pairs.
    met = {(p.id, e.opponent) for p in players for e in p.entries if e.opponent is not None}
    return len(met) == len(players) * (len(players) - 1)


def rounds_played(tournament: Tournament, pending: Iterable[int] = ()) -> int:
    """How many rounds have been played: the last round in which any game result (a game or
    a forfeit) has been entered, 0 if none.

    A round column with no game result yet (empty, or only byes entered in advance) has not
    been played (core/RULEBOOK.md, "The crosstable text format"): a crosstable or sheet
    published mid-event is ranked after this round, never as rounds of absence for everyone.

    ``pending`` names rounds in which a game was played whose result is kept out of
    ``tournament`` until it is decided (a disputed game in a results log, waiting for the
    arbiter's decision): such a round has been played too, only its result is not known
    yet. A front door that keeps such games passes their rounds, so that every count of it
    agrees; a file has none.

    >>> from core.formats.crosstable import read_crosstable
    >>> text = '#\\tName\\tRd 1\\tRd 2\\n1\\tAnn\\tW2\\tH\\n2\\tBob\\tL1\\tU'
    >>> rounds_played(read_crosstable(text)), rounds_played(read_crosstable(text), pending={2})
    (1, 2)
    """
    last = last_played_round(p.entries for p in tournament.players)
    return min(max(last, max(pending, default=0)), tournament.rounds)


def last_played_round(rows: Iterable[Sequence[RoundEntry]]) -> int:
    """:func:`rounds_played` of players' entries, one sequence a player: for readers that
    need it before a :class:`Tournament` exists (the withdrawal rule of a crosstable)."""
    last = 0
    for entries in rows:
        for r in range(len(entries), last, -1):
            if entries[r - 1].kind.has_opponent:
                last = r
                break
    return last


def as_played(tournament: Tournament, pending: Iterable[int] = ()) -> Tournament:
    """The tournament after the rounds played (:func:`rounds_played`, with its ``pending``
    rounds), as ``--after-round`` would cut it; unchanged when every round has been played.

    When no round has a game result yet (only byes entered in advance, say, right after
    round 1 is paired), no round has been played: the tournament as it stands before
    round 1, with no rounds, everyone on 0 and nobody ranked above anyone by a bye entered
    ahead (core/RULEBOOK.md, "The crosstable text format").

    >>> from core.formats.crosstable import read_crosstable
    >>> ahead = as_played(read_crosstable('#\\tName\\tRd 1\\n1\\tAnn\\tH\\n2\\tBob\\tB'))
    >>> ahead.rounds, [p.entries for p in ahead.players]
    (0, [(), ()])
    """
    played = rounds_played(tournament, pending)
    if played == tournament.rounds:
        return tournament
    if played == 0:
        players = tuple(replace(p, entries=()) for p in tournament.players)
        return replace(tournament, players=players, rounds=0)
    return tournament.after_round(played)


_KIND = itemgetter(0)  # of a RoundEntry


def _columns(
    players: tuple[Player, ...], rounds: int, *, strict: bool = True
) -> tuple[tuple[tuple[EntryKind, ...], ...], tuple[tuple[int, ...], ...]] | None:
    """The kinds and over-the-board opponents (by index, -1 where unplayed) of every
    player and round, checked in the same pass: None if anything :func:`validate` may
    report is there (it then says what). One pass instead of a check and a derivation:
    a 5,000-player section has 55,000 entries. ``strict=False`` (after :func:`validate`
    found nothing) accepts what validate accepts and the quick check does not (a colour
    on both sides of a forfeit)."""
    index = {p.id: i for i, p in enumerate(players)}
    if rounds < 0 or len(index) != len(players) or (index and min(index) < 1):
        return None
    if any(len(p.entries) != rounds for p in players):
        return None
    mirror_of = MIRROR
    kinds: list[tuple[EntryKind, ...]] = []
    opponents: list[tuple[int, ...]] = []
    for p in players:
        pid = p.id
        row: list[int] = []
        for r, (kind, opponent, colour) in enumerate(p.entries):
            if opponent is None:
                if kind.has_opponent:
                    return None
                row.append(-1)
                continue
            j = index.get(opponent)
            if j is None or opponent == pid or not kind.has_opponent:
                return None
            other_kind, other_opponent, other_colour = players[j].entries[r]
            if (
                other_opponent != pid
                or (other_kind is not mirror_of[kind] and not mirrors(kind, other_kind))
                or (colour is not None and other_colour is colour and strict)
            ):
                return None
            row.append(j if kind.played else -1)
        kinds.append(tuple(map(_KIND, p.entries)))
        opponents.append(tuple(row))
    return tuple(kinds), tuple(opponents)


def validate(players: Iterable[Player], rounds: int) -> Iterator[Problem]:
    """Every consistency problem of a tournament, each with its player and round."""
    players = tuple(players)
    if rounds < 0:
        yield Problem(
            f"the number of rounds must not be negative (got {rounds})",
            code="negative-rounds",
            value=str(rounds),
        )
    by_id: dict[int, Player] = {}
    for p in players:
        if p.id < 1:
            yield Problem(
                f"starting numbers start at 1 (got {p.id})",
                player=p.id,
                code="bad-starting-number",
                value=str(p.id),
            )
        if p.id in by_id:
            yield Problem(
                f"starting number {p.id} is used twice",
                player=p.id,
                code="number-used-twice",
                value=str(p.id),
            )
        by_id[p.id] = p
    mirror_of = MIRROR
    for p in players:
        entries = p.entries
        pid = p.id
        if len(entries) < rounds:
            for missing in range(len(entries) + 1, rounds + 1):
                yield Problem(
                    "no entry for this round", player=p.id, round=missing, code="missing-entry"
                )
        elif len(entries) > rounds:
            yield Problem(
                f"{len(entries)} rounds of entries, but the section has {rounds}",
                player=p.id,
                round=rounds + 1,
                code="extra-entries",
            )
        for r, (kind, opponent, colour) in enumerate(entries[:rounds], start=1):
            # The common case, checked inline: both sides of a game agree.
            if opponent is None:
                if not kind.has_opponent:
                    continue
            elif kind.has_opponent and opponent != pid:
                other = by_id.get(opponent)
                if other is not None and len(other.entries) >= r:
                    mirror = other.entries[r - 1]
                    if (
                        mirror[1] == pid
                        and (mirror[0] is mirror_of[kind] or mirrors(kind, mirror[0]))
                        and (colour is None or mirror[2] is not colour)
                    ):
                        continue
            yield from _check_entry(p, r, entries[r - 1], by_id)


def _check_entry(p: Player, r: int, e: RoundEntry, by_id: dict[int, Player]) -> Iterator[Problem]:
    if e.kind not in WITH_OPPONENT:
        if e.opponent is not None:
            message = f"a {e.kind.value} has no opponent (got {e.opponent})"
            yield Problem(
                message, player=p.id, round=r, code="unexpected-opponent", value=str(e.opponent)
            )
        return
    if e.opponent is None:
        yield Problem(
            f"a {e.kind.value} needs an opponent", player=p.id, round=r, code="missing-opponent"
        )
        return
    if e.opponent == p.id:
        yield Problem(
            "a player cannot be paired with themselves",
            player=p.id,
            round=r,
            code="paired-with-self",
        )
        return
    other = by_id.get(e.opponent)
    if other is None:
        yield Problem(
            f"there is no player {e.opponent}",
            player=p.id,
            round=r,
            code="no-such-player",
            value=str(e.opponent),
        )
        return
    if len(other.entries) < r:
        return  # reported as the opponent's missing round
    mirror = other.entries[r - 1]
    expected = MIRROR[e.kind]
    if mirror.opponent != p.id or not mirrors(e.kind, mirror.kind):
        # Report each disagreeing pair once, from the lower starting number's side, unless
        # the other side names someone else entirely (then both sides are reported).
        if mirror.opponent == p.id and p.id > other.id:
            return
        said = str(mirror) or mirror.kind.value
        yield Problem(
            f"player {p.id} has {e} but player {other.id} has {said!r}: one of the two is "
            f"wrong ({RoundEntry(e.kind, e.opponent)} for player {p.id} means "
            f"{RoundEntry(expected, p.id)} for player "
            f"{other.id})",
            player=p.id,
            round=r,
            other=other.id,
            code="sides-disagree",
            value=str(e),
        )
        return
    if e.kind in PLAYED and e.colour is not None and mirror.colour is e.colour and p.id < other.id:
        yield Problem(
            f"both player {p.id} and player {other.id} have {e.colour.name.lower()}",
            player=p.id,
            round=r,
            code="same-colour",
            value=e.colour.name.lower(),
        )

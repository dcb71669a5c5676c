"""FIDE's Tournament Report File, TRF-16, read and written (FIDE Handbook C.04 Annex 2).

A TRF-16 file is a list of records, one a line, each starting with a three-character code.
Player records (``001``) have fixed columns (1-based, inclusive):

=========  ===================================================================
columns    field
=========  ===================================================================
1–3        ``001``
5–8        starting rank (1–9999)
10         sex
11–13      title
15–47      name
49–52      rating (blank or 0: unrated)
54–56      federation
58–68      FIDE id
70–79      birth date
81–84      points (``11.5``); recomputed on output; on input a warning if not the results
86–89      rank
92–95      round 1: the opponent's starting rank (``0000``, ``   0`` or blank: none)
97         round 1: colour ``w``, ``b`` (``-`` or blank: none)
99         round 1: result
102–109    round 2, and so on, 10 columns a round
=========  ===================================================================

Result codes (core/RULEBOOK.md, "Round entries"): ``1`` ``=`` ``0`` a game won, drawn, lost, and
``W`` ``D`` ``L`` the same for a game that was not rated (read as games, written back as
``1`` ``=`` ``0``); ``+`` ``-`` a forfeit win or loss; ``F`` a full-point bye, ``U`` a
pairing-allocated bye, ``H`` a half-point bye, ``Z`` a zero-point bye; blank: absent (not
paired). Real exports also write ``+`` ``=`` ``-`` without an opponent (``0000`` or blank):
a full-point bye, a half-point bye and a zero-point round, read as ``F`` ``H`` ``Z``. A
``-`` on both sides of a pairing is a double forfeit (neither came: a forfeit loss for
each). Letter codes are case-insensitive. TRF-16 has no code for a withdrawal: a
``WITHDRAWN`` round is written as ``Z`` and reads back as a zero-point bye, with the same
score.

Header records: ``012`` (name), ``042`` (start date), ``052`` (end date) and ``XXR`` (the
number of rounds) become fields of the :class:`~core.model.Tournament`; ``092`` (type of
tournament) declares a round robin or a Swiss when it names one. Every other record (``022``, ``032``,
``062``, ``102``, ``XXC``, comments, …) is kept verbatim in ``Tournament.records``, in
order, so that a file reads and writes back unchanged.

A file written the way :func:`write_trf` writes (FIDE's exercise files are) reads and
writes back character for character. Otherwise what is written is the same tournament in
canonical form: ``\n`` line ends and no trailing blanks or blank lines; ``1`` ``=`` ``0``
for ``W`` ``D`` ``L``; upper-case codes; ``   0`` for an opponent field of ``0000`` or
blanks, blanks for an absent round (whose ``0000 -`` is dropped); fields aligned as
:func:`write_trf` aligns them (title right-aligned, rating 0 as blanks); the points
recomputed, and the rank the starting rank unless standings are given; the header records
that are fields written in TRF-16's order, ``XXR`` always; records between or after the
players moved before them (except ``013`` teams).

>>> text = '''012 Club Open
... XXR 2
... 001    1      Ann                               1800                             1.5    1     2 w 1     0 - H
... 001    2      Bob                                                                1.0    2     1 b 0     0 - F
... '''
>>> t = read_trf(text)
>>> t.name, t.rounds, [str(e) for e in t.player(1).entries], t.player(2).rating
('Club Open', 2, ['W2 (w)', 'H'], None)
>>> write_trf(t) == text
True
>>> read_trf(text.replace("1 b 0", "1 b ="), "club.trf")
Traceback (most recent call last):
...
core.problems.HarknessError: club.trf:3:92 player 1, round 1: player 1 has W2 (w) but player 2 has 'D1 (b)': one of the two is wrong (W2 for player 1 means L1 for player 2)
"""  # noqa: E501

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import TYPE_CHECKING, Literal, cast

from core.formats.text import lines_of
from core.limits import (
    MAX_PLAYERS,
    MAX_RATING,
    MAX_ROUNDS,
    quote,
    size_problem,
    whole_number,
)
from core.model import (
    HALF_POINTS,
    Colour,
    EntryKind,
    Player,
    RoundEntry,
    Tournament,
    new_player,
    validate,
)
from core.points import points_disagreement
from core.problems import HarknessError, Problem

if TYPE_CHECKING:
    from core.standings import Standings

__all__ = ["read_trf", "team_records", "write_trf"]

PLAYER = "001"
#: A player line must reach the end of the points field (columns 81–84), which TRF-16
#: makes mandatory; the rank and the rounds may be missing.
MIN_PLAYER_LINE = 84
#: Column (1-based) where round 1's block starts; each round takes 10 columns.
FIRST_ROUND = 92
ROUND_WIDTH = 10

_RESULTS: dict[str, EntryKind] = {
    "1": EntryKind.WIN,
    "=": EntryKind.DRAW,
    "0": EntryKind.LOSS,
    "W": EntryKind.WIN,
    "D": EntryKind.DRAW,
    "L": EntryKind.LOSS,
    "w": EntryKind.WIN,
    "d": EntryKind.DRAW,
    "l": EntryKind.LOSS,
    "+": EntryKind.FORFEIT_WIN,
    "-": EntryKind.FORFEIT_LOSS,
    "F": EntryKind.FULL_BYE,
    "U": EntryKind.PAIRING_BYE,
    "H": EntryKind.HALF_BYE,
    "Z": EntryKind.ZERO_BYE,
    "f": EntryKind.FULL_BYE,
    "u": EntryKind.PAIRING_BYE,
    "h": EntryKind.HALF_BYE,
    "z": EntryKind.ZERO_BYE,
    " ": EntryKind.ABSENT,
}
_CODES = "1 = 0 + - W D L F U H Z"
#: A forfeit or draw code without an opponent (``0000 - +`` or a blank opponent), as
#: Swiss-Manager, SwissPerfect, lichess and KNSB exports write an unpaired round: ``+`` a
#: full-point bye (as ``F``), ``=`` a half-point bye (as ``H``), ``-`` a zero-point round
#: (as ``Z``). A blank result with no opponent is an absence.
_UNPAIRED: dict[str, EntryKind] = {
    "+": EntryKind.FULL_BYE,
    "=": EntryKind.HALF_BYE,
    "-": EntryKind.ZERO_BYE,
}
_ABSENT = RoundEntry(EntryKind.ABSENT)
_new_entry = tuple.__new__
_COLOURS: dict[str, Colour | None] = {
    "w": Colour.WHITE,
    "b": Colour.BLACK,
    "W": Colour.WHITE,
    "B": Colour.BLACK,
    "-": None,
    " ": None,
}
#: Columns 96–99 of a game or forfeit (`` w 1``): what they mean, read once.
_GAME_SUFFIX: dict[str, tuple[EntryKind, Colour | None]] = {
    f" {c} {code}": (kind, colour)
    for code, kind in _RESULTS.items()
    if kind.has_opponent
    for c, colour in _COLOURS.items()
}
#: Round blocks as :func:`write_trf` writes them (and most programs do), for every round
#: of a line: two blanks, the opponent's number right-aligned in four columns (``0`` or
#: ``0000``: none), a blank, the colour ``w``, ``b`` or ``-``, a blank, a result code. Such a
#: line is read in one pass (:func:`_plain_rounds`); any other (an absence, a blank colour,
#: a mistake) block by block, which says what is wrong and where.
_PLAIN_ROUNDS = re.compile(
    r"(?:  (?:   [0-9]|  [0-9]{2}| [0-9]{3}|[0-9]{4}) [wbWB-] [10=WDLwdl+FUHZfuhz-])*"
)
#: A plain block's result code against an opponent: a game or a forfeit.
_AGAINST: dict[str, EntryKind] = {c: k for c, k in _RESULTS.items() if k.has_opponent}
#: A plain block's result code without an opponent: a bye, or an unpaired ``+ = -``.
_WITHOUT: dict[str, RoundEntry] = {
    **{c: RoundEntry(k) for c, k in _RESULTS.items() if not k.has_opponent},
    **{c: RoundEntry(k) for c, k in _UNPAIRED.items()},
}
_KIND_OF = itemgetter(0)
_RESULT_CODE: dict[EntryKind, str] = {
    EntryKind.WIN: "1",
    EntryKind.DRAW: "=",
    EntryKind.LOSS: "0",
    EntryKind.FORFEIT_WIN: "+",
    EntryKind.FORFEIT_LOSS: "-",
    EntryKind.FULL_BYE: "F",
    EntryKind.PAIRING_BYE: "U",
    EntryKind.HALF_BYE: "H",
    EntryKind.ZERO_BYE: "Z",
    EntryKind.WITHDRAWN: "Z",  # TRF-16 has no withdrawal code
}
#: Record 092 names a round robin (``Round Robin``, ``round-robin``, ``Berger``, ``RR``).
_ROUND_ROBIN = re.compile(r"round[\s_-]*robin|\bberger\b|\brr\b", re.IGNORECASE)
#: Record 092 names a Swiss (``Individual: Swiss-System``, ``Swiss Dutch``, ``Dubov``…).
_SWISS = re.compile(r"swiss|\bdutch\b|\bdubov\b|\bburstein\b|\blim\b|\bmonrad\b", re.IGNORECASE)
#: The points column as :func:`write_trf` writes it, for a whole and a half score.
_POINTS_TEXT = ("{}.0", "{}.5")
#: The 092 text written for ``round_robin=True`` and read back into that field alone.
ROUND_ROBIN_TEXT = "Round Robin"
#: Records that TRF-16 places after the player section (team compositions).
_TRAILER_CODES = frozenset({"013"})  # TEAM_RECORD
#: Header records that become fields of the tournament, and where they are written.
_FIELD_RECORDS = {"012": 12, "042": 42, "052": 52, "092": 92, "XXR": 1000}


@dataclass(slots=True)
class _Reading:
    """What the reader has collected so far; problems are collected, never raised early."""

    path: str
    problems: list[Problem] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    line_of: dict[int, int] = field(default_factory=dict)
    #: (player, round) of round blocks that could not be read.
    bad_blocks: set[tuple[int, int]] = field(default_factory=set)
    #: Starting ranks whose line could not be read in full (too short, used twice).
    doubtful: set[int] = field(default_factory=set)
    #: A player line whose starting rank is unreadable or taken: who it is, is unknown.
    lost_line: bool = False
    #: Per starting rank whose points column (81–84) is not the score of the line's
    #: results as :func:`write_trf` writes it: the column's text, the line it is on and the
    #: score in half-points.
    points: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    #: The points column as :func:`write_trf` writes it, by half-points, as met.
    points_text: dict[int, str] = field(default_factory=dict)
    #: The number each opponent word of a plain round block stands for (``12``, ``0012``).
    numbers: dict[str, int] = field(default_factory=dict)

    def problem(
        self,
        message: str,
        line: int,
        column: int,
        player: int | None = None,
        round: int | None = None,
        *,
        code: str,
        field: str | None = None,
        value: str | None = None,
    ) -> None:
        self.problems.append(
            Problem(
                message,
                path=self.path,
                line=line,
                column=column,
                player=player,
                round=round,
                code=code,
                field=field,
                value=value,
            )
        )


def read_trf(text: str, path: str = "<input>") -> Tournament:
    """Read a TRF-16 file into a :class:`~core.model.Tournament`.

    Players keep the order of the file. The number of rounds is record ``XXR`` if given,
    else the most round blocks on any line; a player line with fewer blocks is absent from
    the missing rounds. The results decide every score: a points column that says
    otherwise is reported in ``Tournament.warnings`` (naming the player, at column 81), never
    refused; the rank column is not interpreted.

    Raises :class:`~core.problems.HarknessError` with every problem of the file, each with
    ``path``, the line and the column where the field starts, and what was expected there:
    a bad or repeated starting rank, a bad opponent number, colour or result code, a line
    too short, and the tournament's consistency problems (a game whose two sides disagree,
    an opponent who does not exist, a player paired with themselves), each at the round's
    block.
    """
    reading = _Reading(path)
    records: list[tuple[str, str]] = []
    fields: dict[str, tuple[str, int]] = {}
    cache: dict[str, RoundEntry] = {}
    opponents: dict[str, int] = {}
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = lines_of(text, path)
    player_lines = _check_size(lines, path)
    # Opponents are mostly written as their starting ranks, 1 to the number of players.
    reading.numbers.update({str(n): n for n in range(player_lines + 1)})
    for number, line in lines:
        if line.startswith(PLAYER):
            _read_player(line.rstrip(), number, reading, cache, opponents)
            continue
        code, _, rest = line.partition(" ")
        if code in _FIELD_RECORDS and code not in fields and rest.strip():
            fields[code] = (rest, number)
            if code == "092" and rest != ROUND_ROBIN_TEXT:
                records.append((code, rest))  # the type's words are kept, not just the flag
        else:
            records.append((code, rest))
    if not reading.line_of and not reading.problems:
        reading.problem(
            "no player records: expected lines starting with '001'", 1, 1, code="no-players"
        )
    rounds = _rounds(fields, reading)
    players = _complete(reading.players, rounds)
    if reading.problems:
        reading.problems += _consistency(players, rounds, reading)
        raise HarknessError(sorted(reading.problems, key=_position))
    try:
        return Tournament(
            tuple(players),
            rounds,
            name=fields["012"][0].strip() if "012" in fields else "",
            start_date=fields["042"][0].strip() if "042" in fields else "",
            end_date=fields["052"][0].strip() if "052" in fields else "",
            round_robin=_declared_round_robin(fields.get("092", ("", 0))[0]),
            records=tuple(records),
            warnings=tuple(_points_warnings(players, reading)),
        )
    except HarknessError as error:
        raise HarknessError(sorted(_locate(error.problems, reading), key=_position)) from None


#: TRF-16's team record: the team's name in columns 5–36, then its players' starting ranks.
TEAM_RECORD = "013"


def team_records(records: Iterable[tuple[str, str]]) -> dict[str, tuple[int, ...]]:
    """The teams of a file's ``013`` records (kept in ``Tournament.records``): each team's
    starting ranks, teams in file order. The name is columns 5–36 as TRF-16 places it; a
    record whose numbers do not start at column 37 (a longer name) is read as its name
    followed by the numbers at its end. A record without numbers names no team.

    >>> team_records([("013", "Riverside                             1    4"), ("012", "Open")])
    {'Riverside': (1, 4)}
    >>> team_records([("013", "Lincoln Middle School Chess Club Team B 7 9")])
    {'Lincoln Middle School Chess Club Team B': (7, 9)}
    """
    teams: dict[str, tuple[int, ...]] = {}
    for code, text in records:
        if code != TEAM_RECORD:
            continue
        name, numbers = text[:32].strip(), text[32:].split()
        if not all(n.isascii() and n.isdecimal() for n in numbers):
            words = text.split()
            cut = len(words)
            while cut and words[cut - 1].isascii() and words[cut - 1].isdecimal():
                cut -= 1
            name, numbers = " ".join(words[:cut]), words[cut:]
        ranks = tuple(int(n) for n in numbers if len(n) <= 4)
        if name and ranks:
            teams[name] = teams.get(name, ()) + ranks
    return teams


def _check_size(lines: Sequence[tuple[int, str]], path: str) -> int:
    """The limits on players, rounds and players × rounds, checked before any line is read
    (the rounds are ``XXR``'s, or the most round blocks on a line); returns the number of
    player lines."""
    players = [n for n, line in lines if line.startswith(PLAYER)]
    longest = max(
        (line for line in lines if line[1].startswith(PLAYER)),
        key=lambda numbered: len(numbered[1].rstrip()),
        default=(1, ""),
    )
    blocks = max(len(longest[1].rstrip()) - FIRST_ROUND + 3 + ROUND_WIDTH - 1, 0) // ROUND_WIDTH
    declared = next(
        (whole_number(line[4:].strip(), MAX_ROUNDS) for _, line in lines if line[:4] == "XXR "),
        None,
    )
    message = size_problem(len(players), max(blocks, declared or 0))
    if message:
        # At the first player over the limit, the line with too many rounds, or the first.
        line = (
            players[MAX_PLAYERS]
            if len(players) > MAX_PLAYERS
            else longest[0]
            if blocks > MAX_ROUNDS
            else players[0]
        )
        raise HarknessError([Problem(message, path=path, line=line, column=1, code="too-large")])
    return len(players)


def _declared_round_robin(text: str) -> bool | None:
    """What record 092 (type of tournament) declares: True for a round robin, False for a
    Swiss, None when it names neither (or is missing)."""
    if _ROUND_ROBIN.search(text):
        return True
    if _SWISS.search(text):
        return False
    return None


def _points_warnings(players: Iterable[Player], reading: _Reading) -> Iterator[Problem]:
    """A warning for every player whose points column (81–84) is a number other than the
    score of their results: the results decide. A blank or unreadable column says nothing."""
    points = reading.points
    for p in players:
        if p.id in points:
            text, number, half = points[p.id]
            message = points_disagreement(p.name, text, half)
            if message is not None:
                yield Problem(
                    message,
                    path=reading.path,
                    line=number,
                    column=81,
                    player=p.id,
                    code="points-disagree",
                    field="points",
                    value=text,
                )


def _position(p: Problem) -> tuple[int, int]:
    return (p.line or 0, p.column or 0)


def _read_player(
    line: str,
    number: int,
    reading: _Reading,
    cache: dict[str, RoundEntry],
    opponents: dict[str, int],
) -> None:
    """Read one player line (already stripped of trailing blanks) into ``reading``
    (``cache`` and ``opponents``: see :func:`_read_rounds`)."""
    rank_text = line[4:8].strip()
    player_id = reading.numbers.get(rank_text)  # 1 to the number of players, mostly
    if player_id is None:
        # Four columns: ASCII digits are a short number int() takes as is (whole_number's
        # checks).
        player_id = int(rank_text) if rank_text.isascii() and rank_text.isdecimal() else 0
    if player_id > MAX_PLAYERS:
        player_id = 0
    if player_id < 1:
        reading.lost_line = True
        reading.problem(
            f"expected a starting rank (1–9999) in columns 5–8, got {rank_text!r}",
            number,
            5,
            code="bad-starting-number",
            field="rank",
            value=rank_text,
        )
        return
    if player_id in reading.line_of:
        reading.doubtful.add(player_id)
        reading.lost_line = True  # whoever this line was meant to be is unknown
        reading.problem(
            f"starting rank {player_id} is used twice (first on line {reading.line_of[player_id]})",
            number,
            5,
            player=player_id,
            code="number-used-twice",
            field="rank",
            value=str(player_id),
        )
        return
    reading.line_of[player_id] = number
    if len(line) < MIN_PLAYER_LINE:
        reading.doubtful.add(player_id)
        reading.problem(
            f"the player line is too short ({len(line)} characters): TRF-16 "
            "player lines run at least to the points in columns 81–84",
            number,
            len(line) + 1,
            player=player_id,
            code="bad-player-line",
        )
        return
    rating_text = line[48:52].strip()
    rating: int | None = None
    if (
        rating_text.isascii()
        and rating_text.isdecimal()
        and (value := int(rating_text)) <= MAX_RATING
    ):
        rating = value or None
    elif rating_text:
        reading.problem(
            f"expected a rating (digits) or blanks in columns 49–52, got {quote(rating_text)}",
            number,
            49,
            player=player_id,
            code="bad-rating",
            field="rating",
            value=rating_text,
        )
    entries = _plain_rounds(line, reading.numbers)
    if entries is None:
        entries = _read_rounds(line, number, player_id, reading, cache, opponents)
    half = sum(map(HALF_POINTS.__getitem__, map(_KIND_OF, entries)))
    points = line[80:84].strip()
    written = reading.points_text.get(half)
    if written is None:
        written = reading.points_text[half] = _POINTS_TEXT[half % 2].format(half // 2)
    if points != written:
        reading.points[player_id] = (points, number, half)
    reading.players.append(
        new_player(
            player_id,
            line[14:47].strip(),
            entries,
            rating,
            line[10:13].strip(),
            line[9:10].strip(),
            line[53:56].strip(),
            line[57:68].strip(),
            line[69:79].strip(),
            (),
            line[85:89].strip(),
        )
    )


def _plain_rounds(line: str, numbers: dict[str, int]) -> tuple[RoundEntry, ...] | None:
    """The entries of a player line whose round blocks are all plain (:data:`_PLAIN_ROUNDS`),
    in one pass; None for any other line, and for a plain block that is wrong (a bye against
    an opponent, a game without one), which :func:`_read_rounds` then words. ``numbers``:
    the number of each opponent word read so far (added to).

    >>> [str(e) for e in _plain_rounds(" " * 89 + "    12 w 1     0 - H  0003 b =", {})]
    ['W12 (w)', 'H', 'D3 (b)']
    >>> _plain_rounds(" " * 89 + "     0 - 1", {}), _plain_rounds(" " * 89 + "    12   1", {})
    (None, None)
    """
    rounds = line[FIRST_ROUND - 3 :]
    if not _PLAIN_ROUNDS.fullmatch(rounds):
        return None
    # Every plain block is three words: the opponent, the colour and the result code.
    words = rounds.split()
    fields = words[::3]
    try:
        opponents = list(map(numbers.__getitem__, fields))
    except KeyError:  # a number not met before, or written another way (0012)
        numbers.update({word: int(word) for word in fields})
        opponents = list(map(numbers.__getitem__, fields))
    against, without, colours = _AGAINST, _WITHOUT, _COLOURS
    try:
        return tuple(
            [
                _new_entry(RoundEntry, (against[code], opponent, colours[colour]))
                if opponent
                else without[code]
                for opponent, colour, code in zip(opponents, words[1::3], words[2::3], strict=True)
            ]
        )
    except KeyError:
        return None


def _read_rounds(
    line: str,
    number: int,
    player_id: int,
    reading: _Reading,
    cache: dict[str, RoundEntry],
    opponents: dict[str, int],
) -> tuple[RoundEntry, ...]:
    """The entries of a player line block by block, each problem said where it is.

    ``cache`` holds every round block read so far, ``opponents`` every opponent field (each
    player is met about once a round, so a field repeats as often as the rounds).
    """
    # Each round is two blanks, then columns 92–99 of round 1 and so on; most blocks repeat
    # (the same opponent, colour and result on another line), so each is read once.
    blocks = [
        line[start : start + ROUND_WIDTH]
        for start in range(FIRST_ROUND - 3, len(line), ROUND_WIDTH)
    ]
    found = [cache.get(block) for block in blocks]
    for r, entry in enumerate(found):
        if entry is None:
            found[r] = _read_new_block(
                blocks[r], number, player_id, r + 1, reading, cache, opponents
            )
    return tuple(cast(list[RoundEntry], found))


def _read_new_block(
    block: str,
    number: int,
    player_id: int,
    r: int,
    reading: _Reading,
    cache: dict[str, RoundEntry],
    opponents: dict[str, int],
) -> RoundEntry:
    """A round block not seen before: a game aligned as it should be takes the fast path."""
    game = _GAME_SUFFIX.get(block[6:])
    field = block[2:6]
    opponent = opponents.get(field)
    if opponent is None:
        opponent = opponents[field] = _opponent(field)
    if game and opponent and block.startswith("  "):
        # tuple.__new__: RoundEntry's own constructor is a Python frame per new block.
        entry: RoundEntry | None = _new_entry(RoundEntry, (game[0], opponent, game[1]))
    else:
        entry = _read_block(block, number, player_id, r, reading)
    if entry is None:
        return _ABSENT  # reported; stands in so that the rest can be checked
    cache[block] = entry
    return entry


def _opponent(field: str) -> int:
    """The starting rank in an opponent field (``  12``, ``0012``), or 0 if it is not one."""
    return whole_number(field.lstrip(" "), MAX_PLAYERS) or 0


def _read_block(
    block: str, number: int, player_id: int, r: int, reading: _Reading
) -> RoundEntry | None:
    """One round's 10 columns (two blanks, opponent, blank, colour, blank, result), or None
    after saying what is wrong."""
    start = FIRST_ROUND + ROUND_WIDTH * (r - 1)  # the opponent's first column
    ends = start - 3 + len(block)  # the last column the line has in this round
    block = block.ljust(ROUND_WIDTH)
    for i in (0, 1, 6, 8):
        if block[i] != " ":
            reading.problem(
                f"column {start - 2 + i} should be blank, got {block[i]!r}: each "
                "round takes 10 columns (2 blanks, opponent in 4, blank, colour, "
                "blank, result); is the line shifted?",
                number,
                start - 2 + i,
                player_id,
                r,
                code="bad-round-block",
                value=block.rstrip(),
            )
            reading.bad_blocks.add((player_id, r))
            return None
    found: list[tuple[str, int]] = []
    opponent_field = block[2:6]
    opponent_text = opponent_field.strip()
    value = whole_number(opponent_text, MAX_PLAYERS)
    opponent = value or 0
    if opponent_text and value is None:
        found.append(
            (
                f"expected the opponent's starting rank in columns {start}–{start + 3} "
                f"(up to 4 digits; 0000 or blank for none), got {opponent_field!r}",
                start,
            )
        )
    colour = block[7]
    if colour not in _COLOURS:
        found.append(
            (f"expected the colour w, b or - in column {start + 5}, got {colour!r}", start + 5)
        )
    code = block[9]
    kind = _RESULTS.get(code)
    if kind is None:
        found.append(
            (
                f"unknown result code {code!r} in column {start + 7}; expected one of "
                f"{_CODES}, or blank",
                start + 7,
            )
        )
    elif kind.has_opponent and not opponent and not found and code in _UNPAIRED:
        return RoundEntry(_UNPAIRED[code])
    elif kind.has_opponent and not opponent and not found:
        found.append(
            (
                f"result {code!r} needs the opponent's starting rank in columns "
                f"{start}–{start + 3}, got {opponent_field!r}",
                start,
            )
        )
    elif kind is EntryKind.ABSENT and opponent:
        why = (
            f"the line is too short: it ends at column {ends}"
            if ends < start + 7
            else f"column {start + 7} is blank"
        )
        found.append(
            (
                f"{why}, where the result against {opponent} should be; expected one of {_CODES}",
                start + 7,
            )
        )
    elif not kind.has_opponent and opponent:
        found.append(
            (
                f"a {kind.value} ({code!r}) has no opponent: expected 0000 or blanks "
                f"in columns {start}–{start + 3}, got {opponent_field!r}",
                start,
            )
        )
    if found or kind is None:
        for message, column in found:
            reading.problem(
                message, number, column, player_id, r, code="bad-round-block", value=block.rstrip()
            )
        reading.bad_blocks.add((player_id, r))
        return None
    if kind.has_opponent:
        return RoundEntry(kind, opponent, _COLOURS[colour])
    return RoundEntry(kind)


def _rounds(fields: dict[str, tuple[str, int]], reading: _Reading) -> int:
    """Record XXR if given, else the most round blocks on any player line."""
    most = max((len(p.entries) for p in reading.players), default=0)
    if "XXR" not in fields:
        return most
    text, number = fields["XXR"]
    rounds = whole_number(text.strip(), MAX_ROUNDS)
    if rounds is None:
        reading.problem(
            f"expected the number of rounds (0–{MAX_ROUNDS}) after 'XXR', got "
            f"{quote(text.strip())}",
            number,
            5,
            code="bad-record",
            field="XXR",
            value=text.strip(),
        )
        return most
    return rounds


def _complete(players: Iterable[Player], rounds: int) -> list[Player]:
    """Players with fewer blocks than rounds are absent from the missing trailing rounds."""
    result = []
    for p in players:
        missing = rounds - len(p.entries)
        if missing > 0:  # every other field kept (the rank column too)
            p = replace(p, entries=p.entries + (_ABSENT,) * missing)
        result.append(p)
    return result


def _consistency(players: Sequence[Player], rounds: int, reading: _Reading) -> list[Problem]:
    """The tournament's problems that do not just follow from a problem already reported.

    A block that could not be read, a line cut short or a starting rank used twice would
    make its opponents' blocks look wrong too; those are left out.
    """
    by_id = {p.id: p for p in players}
    kept = []
    for p in validate(players, rounds):
        if p.player in reading.doubtful or (p.player, p.round) in reading.bad_blocks:
            continue
        if p.player is not None and p.round is not None:
            entries = by_id[p.player].entries
            opponent = entries[p.round - 1].opponent if p.round <= len(entries) else None
            if opponent is not None and (
                opponent in reading.doubtful
                or (opponent, p.round) in reading.bad_blocks
                or (reading.lost_line and opponent not in by_id)
            ):
                continue
        kept.append(p)
    return list(_locate(kept, reading))


def _locate(problems: Iterable[Problem], reading: _Reading) -> list[Problem]:
    """Give tournament problems (player, round) the position of the round's block."""
    located = []
    for p in problems:
        line = reading.line_of.get(p.player or 0)
        if line is None:
            located.append(replace(p, path=reading.path))
            continue
        column = FIRST_ROUND + ROUND_WIDTH * (p.round - 1) if p.round else 5
        located.append(replace(p, path=reading.path, line=line, column=column))
    return located


def write_trf(
    tournament: Tournament,
    standings: Standings | None = None,
    *,
    no_opponent: Literal["   0", "0000"] = "   0",
) -> str:
    """The tournament as TRF-16 text (``\\n`` line ends, a final newline).

    Players are written in the tournament's order; the points column is recomputed from
    the entries; the rank column comes from ``standings`` when given, else it is the rank
    column as read from TRF-16 (so a file converts to itself unchanged), else it repeats the
    starting rank (as FIDE's published exercise files do). Header fields are written in
    TRF-16's order among the records kept from the file (``012`` first, ``XXR`` after the
    numbered records); ``013`` team records follow the players. Lines end without
    trailing blanks, so rounds a player was absent from at the end of the line are left
    out (``XXR`` still gives the number of rounds).

    Raises :class:`~core.problems.HarknessError` for what TRF-16 cannot hold: a starting
    rank or rating of more than four digits, 100 points or more. Longer names and other
    text fields are cut to their columns (the name has 33).
    """
    problems = [
        Problem(
            f"TRF-16 starting ranks have at most 4 digits (got {p.id})",
            player=p.id,
            code="not-in-format",
            field="rank",
            value=str(p.id),
        )
        for p in tournament.players
        if p.id > 9999
    ]
    if not tournament.players:
        problems.append(
            Problem("the section has no players; TRF-16 needs a player line", code="no-players")
        )
    if too_big := size_problem(len(tournament.players), tournament.rounds):
        problems.append(Problem(too_big, code="too-large"))
    problems += [
        Problem(
            f"TRF-16 ratings have at most 4 digits (got {p.rating})",
            player=p.id,
            code="not-in-format",
            field="rating",
            value=str(p.rating),
        )
        for p in tournament.players
        if p.rating is not None and not 0 <= p.rating <= 9999
    ]
    halves = [p.half_points for p in tournament.players]
    problems += [
        Problem(
            f"TRF-16 points have at most 4 columns, 99.5 (got "
            f"{half // 2}{'.5' if half % 2 else ''})",
            player=p.id,
            code="not-in-format",
            field="points",
            value=f"{half // 2}{'.5' if half % 2 else ''}",
        )
        for p, half in zip(tournament.players, halves, strict=True)
        if half > 199
    ]
    if problems:
        raise HarknessError(problems)
    rank_of = {row.player.id: row.rank for row in standings.rows} if standings is not None else {}
    header, trailer = _header(tournament)
    lines = header
    block_cache: dict[int, str] = {}  # by id(): the tournament keeps every entry alive
    for p, half in zip(tournament.players, halves, strict=True):
        rank = rank_of.get(p.id) or p.trf_rank[:4] or p.id
        lines.append(_player_line(p, half, rank, block_cache, no_opponent))
    lines += trailer
    return "".join(line + "\n" for line in lines)


def _record_rank(code: str) -> int | None:
    """Where a record goes in TRF-16's order; None for comments and unknown codes."""
    if code in _FIELD_RECORDS:
        return _FIELD_RECORDS[code]
    if len(code) == 3 and (number := whole_number(code, 999)) is not None:
        return number
    if code.startswith("XX"):
        return 1001
    return None


def _header(t: Tournament) -> tuple[list[str], list[str]]:
    """The lines before the players and after them."""
    kept = [
        (_record_rank(code), _record(code, text))
        for code, text in t.records
        if code not in _TRAILER_CODES and code != "XXR"
    ]
    trailer = [_record(code, text) for code, text in t.records if code in _TRAILER_CODES]
    fields = [("012", t.name), ("042", t.start_date), ("052", t.end_date)]
    if t.round_robin and not any(code == "092" for code, _ in t.records):
        fields.append(("092", ROUND_ROBIN_TEXT))
    fields.append(("XXR", str(t.rounds)))
    for code, text in fields:
        if not text:
            continue
        rank = _FIELD_RECORDS[code]
        below = [i for i, (r, _) in enumerate(kept) if r is not None and r < rank]
        above = [i for i, (r, _) in enumerate(kept) if r is not None and r > rank]
        at = below[-1] + 1 if below else above[0] if above else len(kept)
        kept.insert(at, (rank, f"{code} {text}"))
    return [line for _, line in kept], trailer


def _record(code: str, text: str) -> str:
    return f"{code} {text}" if text else code


def _player_line(
    p: Player, half: int, rank: int | str, cache: dict[int, str], no_opponent: str = "   0"
) -> str:
    points = f"{half // 2}.{5 if half % 2 else 0}"
    rating = "" if p.rating is None else str(p.rating)
    head = (
        f"{PLAYER} {p.id:>4} {p.sex[:1]:1}{p.title[:3]:>3} {p.name[:33]:<33} "
        f"{rating:>4} {p.federation[:3]:<3} {p.fide_id[:11]:>11} {p.birth_date[:10]:<10} "
        f"{points:>4} {rank:>4}"
    )
    blocks = []
    for e in p.entries:
        block = cache.get(id(e))
        if block is None:
            block = cache[id(e)] = _block(e, no_opponent)
        blocks.append(block)
    return (head + "".join(blocks)).rstrip()


def _block(e: RoundEntry, no_opponent: str = "   0") -> str:
    """A round's 10 columns: two blanks, opponent (4), colour, result."""
    if e.kind is EntryKind.ABSENT:
        return " " * ROUND_WIDTH
    opponent = f"{e.opponent:>4}" if e.opponent is not None else no_opponent
    colour = "w" if e.colour is Colour.WHITE else "b" if e.colour is Colour.BLACK else "-"
    return f"  {opponent} {colour} {_RESULT_CODE[e.kind]}"

"""Problems found in input, each with the place it was found.

Parsers and validators collect every problem before they give up (as python-chess's
PGN reader does), so that a tournament director fixes a file in one pass, not one
error at a time.

>>> print(Problem("there is no player 99", path="club.txt", line=7, column=23))
club.txt:7:23: there is no player 99
>>> print(Problem("both sides must agree", player=3, round=2))
player 3, round 2: both sides must agree
>>> p = Problem("--tiebreaks: 'X' is given twice", code="code-twice", field="tiebreaks",
...             value="X", detail="'X' is given twice")
>>> p.field, p.detail
('tiebreaks', "'X' is given twice")
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, and where it is.

    A location is a file position (``path``, ``line``, ``column``), a place in the
    tournament (``player``, ``round``), or both; fields that do not apply stay None.
    """

    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    player: int | None = None
    round: int | None = None
    other: int | None = None
    """The other player of a game whose two sides disagree: their entry in ``round`` is
    the other half of the problem (not part of the location)."""
    code: str | None = None
    """What is wrong, one of :data:`CODES` (``"unknown-code"``, ``"sides-disagree"``…): a
    front door decides by it (which error to show, which cell to point at), never by the
    words of :attr:`message`. Every problem core raises has one."""
    field: str | None = None
    """The setting, option or column that is wrong (``"rules"``, ``"tiebreaks"``,
    ``"options"``, ``"round"``, ``"Rating"``, ``"Rd 3"``), where one is."""
    value: str | None = None
    """The value given for it (the unknown code, profile name, option key, cell text)."""
    detail: str | None = None
    """The message without naming the setting, for a front door that names it its own way
    (a sheet's cell, a slash command's option); :attr:`message` is the command line's."""

    @property
    def where(self) -> str:
        """The location alone, as an editor or a TD would read it."""
        parts: list[str] = []
        if self.path is not None or self.line is not None:
            position = self.path or "<input>"
            if self.line is not None:
                position += f":{self.line}"
                if self.column is not None:
                    position += f":{self.column}"
            parts.append(position)
        place = []
        if self.player is not None:
            place.append(f"player {self.player}")
        if self.round is not None:
            place.append(f"round {self.round}")
        if place:
            parts.append(", ".join(place))
        return " ".join(parts)

    def __str__(self) -> str:
        where = self.where
        return f"{where}: {self.message}" if where else self.message


class HarknessError(ValueError):
    """Input that cannot be used; carries every :class:`Problem` found, in order."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


#: Every code a core problem carries, with what it means: the one list of them (a test
#: checks that each ``Problem`` core makes has a code from here). Codes are stable; the
#: messages are the command line's words and may change.
CODES: Mapping[str, str] = MappingProxyType(
    {
        # Files (core/formats): reading bytes and text.
        "cannot-read": "the file cannot be opened or read (``path``)",
        "cannot-write": "the output file cannot be written (``path``)",
        "convert-would-change": "``convert``'s output, read back, would rank differently: "
        "``field`` names what the target format cannot hold (``XXR``, ``092``, ``042``, "
        "``Rd N``, ``Rating``) or ``player`` and ``round`` the entry",
        "file-too-large": "the file is over the size limit (``value``: its size)",
        "bad-encoding": "the file starts with a byte-order mark but is not in its encoding",
        "not-text": "the file has NUL bytes: not text, or UTF-16 without a byte-order mark",
        "line-too-long": "a line is over the length limit",
        "empty-file": "the file has nothing in it",
        "too-large": "a section over the limits on players, rounds or players × rounds",
        # Crosstable text and CSV (core/formats/crosstable.py).
        "too-many-rounds": "a round column's number is over the limit (``value``: heading)",
        "missing-columns": "the header has no ``#`` or no ``Name`` column",
        "round-columns-out-of-order": "the round columns are not Rd 1, Rd 2, … in order",
        "cell-too-long": "a cell is over the length limit (``field``: its column)",
        "bad-starting-number": "a starting number that is not one (``value``)",
        "number-used-twice": "two players have the same starting number (``value``)",
        "no-name": "a player has no name",
        "bad-name": "a name that is empty, too long or holds control characters (``value``; "
        "``detail`` says which, without naming what the name is of)",
        "bad-rating": "a rating that is not a whole number in range (``value``)",
        "bad-round-entry": "a round cell that is no round entry (``field``: Rd N, ``value``)",
        "name-splits-cells": "a name that would split into two cells in this format (``value``)",
        "start-date-twice": "a second ``Start date`` line above the header (``value``: its date)",
        # TRF-16 (core/formats/trf.py).
        "no-players": "no player records (TRF-16 record 001)",
        "bad-player-line": "a player line too short to read",
        "bad-round-block": "a round's 10 columns that cannot be read (``value``: them)",
        "bad-record": "a record that cannot be read (``field``: its code, ``value``)",
        "points-disagree": "a points column that is not the score of the results (warning)",
        "not-in-format": "a value TRF-16 cannot hold (``field``: rank, rating, points)",
        # A tournament's consistency (core/model.py).
        "negative-rounds": "a negative number of rounds (``value``)",
        "missing-entry": "a player has no entry for a round of the section",
        "extra-entries": "a player has more rounds of entries than the section",
        "unexpected-opponent": "a bye or absence that names an opponent (``value``)",
        "missing-opponent": "a game or forfeit without an opponent",
        "paired-with-self": "a player paired with themselves",
        "no-such-player": "a starting number nobody has (``value``)",
        "sides-disagree": "the two sides of a game disagree (``other``: the other player)",
        "same-colour": "both players of a game have the same colour (``value``)",
        "round-out-of-range": "a round the section does not have (``field``, ``value``)",
        # Rules (core/profiles.py).
        "unknown-profile": "an unknown rule profile (``field`` rules, ``value``)",
        "unknown-code": "a tiebreak code the profile's family does not have (``value``)",
        "code-twice": "a tiebreak code given twice (``value``)",
        "coin-not-last": "COIN not the last tiebreak",
        "no-codes": "an empty tiebreak order",
        "unknown-option": "an unknown option (``field`` options, ``value``: the key)",
        "not-yes-no": "an option whose value is not yes or no (``value``: the key)",
        "option-not-for-profile": "an option the profile does not take (``value``: the key)",
        # Prize lists (core/awards): the prize file (TOML) and its checks against a section.
        "bad-toml": "the prize file is not TOML (``line``, ``column``)",
        "unknown-key": "a key the prize file does not have (``field``: the key; ``detail`` "
        "suggests the nearest known key)",
        "missing-key": "a prize without a key it needs (``field``: the key, e.g. name)",
        "bad-prize-value": "a value of the wrong type or out of range (``field``: the key, "
        "``value``; ``detail`` says what was expected)",
        "prize-kind": "a prize with none, or more than one, of place, class, under, unrated "
        "and category",
        "too-many-prizes": "a prize list over the limit on prizes (``value``: how many)",
        "prize-twice": "two prizes with the same name, the same place or the same rank of one "
        "ladder (``field``, ``value``)",
        "unknown-method": "an award method Harkness does not have (``field`` method, ``value``)",
        "unknown-category": "a prize for a category the list does not name (``value``)",
        "unknown-team": "a team the list does not name (``value``)",
        "not-in-section": "a starting number the section does not have (``field``: where it "
        "is listed, ``value``)",
        "in-two-teams": "a player listed in two teams (``player``, ``value``: the second team)",
        # Finding a player by what someone typed (core/players.py).
        "unknown-player": "no player has that name or number (``value``: what was typed)",
        "ambiguous-player": "several players match what was typed (``value``)",
        # The command line (core/cli.py) and pictures (core/pictures).
        "needs-output": "a PNG picture needs ``--output FILE``",
        "no-such-page": "a page the standings do not have (``field`` page, ``value``)",
        "not-starting-numbers": "an option expecting starting numbers got a word (``value``)",
        "pillow-missing": "pictures need Pillow, which is not installed",
        "picture-too-large": "a section or round too large for a picture; use the text",
        # Pairing (core/pairing): preparing a round, the engine, checking a pairing.
        "bad-round": "a round number below 1 (``field`` round, ``value``)",
        "round-not-next": "a round after the next one to pair (``field`` round, ``value``)",
        "beyond-planned-rounds": "a round after the planned rounds (``field`` rounds, ``value``)",
        "not-a-bye": "a player kept out of a pairing by something other than a bye or withdrawal",
        "bad-avoid": "a group of players to keep apart that cannot be read or is too small",
        "no-colour": "a game without a colour, which pairing needs",
        "initial-colour-conflict": "an initial colour other than the one round 1 was played "
        "with (``field`` initial-colour, ``value``)",
        "bad-acceleration": "virtual points that cannot be read, or an accelerated method "
        "announced for a file that has its own (``field`` accelerate, 250 or XXA)",
        "pairing-too-big": "more players to pair than the pairing ceiling (``value``)",
        "pairing-too-slow": "the engine did not finish within the pairing time limit",
        "pairing-out-of-memory": "the engine needed more memory than the pairing limit",
        "pairing-busy": "a pairing of the same tournament is already running",
        "pairing-stopped": "the pairing was stopped (cancelled, or the process shut down)",
        "engine-missing": "the pairing engine is not installed",
        "engine-refused": "the pairing engine failed on the round",
        "no-legal-pairing": "no legal pairing of the round exists (C.04.3)",
        "nobody-to-pair": "every player has a bye or withdrew",
        "wrong-round": "a pairing of another round than the one asked for",
        "paired-twice": "a player on two boards (or a board and the bye)",
        "paired-but-out": "a player paired who has a bye or withdrew",
        "not-paired": "a player to pair who is neither on a board nor given the bye",
        "bye-with-even-players": "a pairing-allocated bye with an even number to pair",
        "kept-apart": "two players to be kept apart are paired (--avoid, record 260)",
        "rematch": "two players meet twice (C.04.3 [C1])",
        "second-unplayed-win": "a pairing-allocated bye to a player who had a win's points "
        "without playing (C.04.3 [C2])",
        "colour-three-in-a-row": "the same colour three times in a row (C.04.3 [C3])",
        "colour-difference": "a colour difference over 2 (C.04.3 [C3])",
    }
)

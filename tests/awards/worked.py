"""The worked examples of core/RULEBOOK.md ("Awards") as data, for every front door's tests:
the section (players in standings order, :mod:`tests.awards.support`), the prize file, and
what each player must get. The command line's own tests are in ``test_worked_examples``;
the bot's and the sheet's run the same cases through Discord and Google Sheets."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from tests.awards.support import Entry, section

YOUTH = """
method = "us-chess"
currency = "$"
[[prize]]
name = "1st"
place = 1
amount = 300
[[prize]]
name = "2nd"
place = 2
amount = 200
[[prize]]
name = "Youth"
category = "youth"
amount = 150
[categories]
youth = [3]
"""

CAP = """
method = "{method}"
[[prize]]
name = "1st"
place = 1
amount = 2375
[[prize]]
name = "2nd"
place = 2
amount = 1149
[[prize]]
name = "3rd"
place = 3
amount = 536
[[prize]]
name = "4th"
place = 4
amount = 306
[[prize]]
name = "5th"
place = 5
amount = 230
[[prize]]
name = "1st U2400"
under = 2400
amount = 1379
[[prize]]
name = "2nd U2400"
under = 2400
rank = 2
amount = 766
"""
FIELD = (
    Entry("2673", 5, 2673),
    Entry("2699", 4.5, 2699),
    Entry("2495", 4, 2495),
    Entry("2391", 4, 2391),
    Entry("2387", 4, 2387),
    Entry("2385", 4, 2385),
    *(Entry(str(r), 3.5, r) for r in (2345, 2340, 2226, 2208, 2148)),
)

CLASS_A = """
[[prize]]
name = "1st"
place = 1
amount = 200
trophy = true
[[prize]]
name = "2nd"
place = 2
amount = 100
trophy = true
[[prize]]
name = "3rd"
place = 3
amount = 50
trophy = true
[[prize]]
name = "Class A"
class = [1800, 1999]
amount = 40
trophy = true
"""

HORT = 'method = "fide-hort"\n' + "".join(
    f'[[prize]]\nname = "{n}"\nplace = {n}\namount = {a}\n'
    for n, a in zip(range(1, 7), (100, 80, 60, 40, 20, 10), strict=True)
)

SCHOOL = "[teams]\nSchool = [1, 2, 3, 4, 5, 6]\n"

#: A club night's prizes, for the front doors' own tests: two place prizes, a youth prize
#: (player 4 a youth) and a team trophy (players 1 and 2 against 3 and 4, two counting).
CLUB_NIGHT = """
method = "us-chess"
currency = "$"
[[prize]]
name = "1st"
place = 1
amount = 100
trophy = true
[[prize]]
name = "2nd"
place = 2
amount = 60
[[prize]]
name = "Top youth"
category = "youth"
amount = 30
trophy = true
[[prize]]
name = "Top team"
place = 1
team = true
trophy = true
[categories]
youth = [4]
[teams]
Knights = [1, 2]
Rooks = [3, 4]
[team]
count = 2
"""


@dataclass(frozen=True)
class Worked:
    """One worked example: its section, its prize file, and the award list it must give:
    each player's exact cash by name (a player not named gets none), trophies by name, team
    scores by team."""

    name: str
    entries: tuple[Entry, ...]
    prizes: str
    cash: dict[str, Fraction] = field(default_factory=dict)
    trophies: dict[str, str] = field(default_factory=dict)
    teams: dict[str, Fraction] = field(default_factory=dict)


WORKED = (
    Worked(
        "youth",
        (*(Entry(n, 4) for n in "ABCD"), Entry("E", 3)),
        YOUTH,
        dict.fromkeys("ABCD", Fraction(325, 2)),
    ),
    Worked(
        "cap",
        FIELD,
        CAP.format(method="us-chess"),
        {"2673": Fraction(2375), "2699": Fraction(1149), "2495": Fraction(536)}
        | dict.fromkeys(("2391", "2387", "2385"), Fraction(817))
        | dict.fromkeys(("2345", "2340", "2226", "2208", "2148"), Fraction(46)),
    ),
    Worked(
        "cap-2003",
        FIELD,
        CAP.format(method="us-chess-2003"),
        {"2673": Fraction(2375), "2699": Fraction(1149)}
        | dict.fromkeys(("2495", "2391", "2387", "2385"), Fraction(2987, 4))
        | dict.fromkeys(("2345", "2340", "2226", "2208", "2148"), Fraction(46)),
    ),
    Worked(
        "class-a",
        (
            Entry("2250", 5, 2250),
            Entry("2225", 4.5, 2225),
            Entry("1940", 4.5, 1940),
            Entry("1865", 4, 1865),
            Entry("1990", 4, 1990),
        ),
        CLASS_A,
        {
            "2250": Fraction(200),
            "2225": Fraction(75),
            "1940": Fraction(75),
            "1865": Fraction(20),
            "1990": Fraction(20),
        },
        {"2250": "1st", "2225": "2nd", "1940": "3rd", "1865": "Class A"},
    ),
    Worked(
        "hort",
        (
            Entry("A", 8),
            Entry("B", 8),
            Entry("C", 7.5),
            Entry("D", 7),
            Entry("E", 7),
            Entry("F", 7),
        ),
        HORT,
        {
            "A": Fraction(95),
            "B": Fraction(85),
            "C": Fraction(60),
            "D": Fraction(95, 3),
            "E": Fraction(65, 3),
            "F": Fraction(50, 3),
        },
    ),
    Worked(
        "school",
        tuple(Entry(str(n), s) for n, s in enumerate((3.5, 3, 3, 2, 1, 0.5), start=1)),
        SCHOOL,
        teams={"School": Fraction(23, 2)},
    ),
)


def with_a_game(case: Worked) -> Tournament:
    """The case's section as a front door that ranks only rounds played can take it: two
    players more, who play each other in the last round (a round counts as played once it
    has a game: core.model.rounds_played) and score 1 and 0, below every prize."""
    tournament = section(case.entries).tournament
    n, rounds = len(tournament.players), tournament.rounds
    before = (RoundEntry(EntryKind.ZERO_BYE),) * (rounds - 1)
    extras = (
        Player(n + 1, "Extra Winner", (*before, RoundEntry(EntryKind.WIN, n + 2, Colour.WHITE))),
        Player(n + 2, "Extra Loser", (*before, RoundEntry(EntryKind.LOSS, n + 1, Colour.BLACK))),
    )
    return Tournament((*tournament.players, *extras), rounds)

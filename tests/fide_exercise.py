"""FIDE's published tie-break exercises for a 5-round Swiss, typed in from the paper.

The paper: FIDE Technical Commission (IA Mario Held), "Exercises in Tie-Breaking" for the C.07
text of 2023/2024, pp. 10-50: the tournament's crosstable (here as TRF-16 in
``tests/corpus/fide-held-swiss5.trf``, record 042 dated 2024-08-01) and the value of every
tie-break for every player, with the exercise numbers kept. A tournament's results and the
values computed from them are facts; the tables below are our transcription of them.

``PUBLISHED``: the values under the 2024-08 text (the dummy opponent of art. 16.4 uncapped).
``CHANGED_2026``: the values that differ under the text in force from 1 March 2026, where
art. 16.4 caps the dummy opponent: player 4's half-point bye in round 2 (16.2.3) at half the
maximum, 2.5 (was 3.5, the player's own score); player 6's pairing-allocated bye in round 3
(16.2.1) at 2.5 (was 3); player 11's forfeit win in round 4 against 9 (16.2.2) at 9's score as
an opponent, 1.5 (was 2.5); player 12's forfeit win in round 3 against 14 (Fore Buchholz only)
at 14's fore score. Every other value is the same in both texts.

In the tables (players 1-8, then 9-16) a row is a tie-break code, then (for ``PUBLISHED``) the
paper's exercise numbers, then one value per starting number: ``-`` undefined (the paper
prints no value), ``.`` not published for that player.
"""

from __future__ import annotations

from decimal import Decimal

_PUBLISHED = """
                 1     2     3     4     5     6     7     8
BH     01-04  12.5    13  15.5    15   8.5    12  14.5  13.5
BH/C1  05-08    11    12    13  11.5   7.5    11  12.5    12
AOB    09     12.6  13.6  13.4 13.38  13.4 13.25  11.9    13
FB     10     13.5  13.5    15  15.5    10    12  13.5  12.5
SB     11-12     8   9.5  10.5  9.75  4.25   6.5  3.25  5.25
SB/C1  13     7.25   8.5  9.25     8  3.25   5.5  1.25  3.75
ARO    17     1820  1880  1940  1888  1690  1813  1760  1730
ARO/C1 18     1900  1988  2000  1983  1738  1900  1838  1800
TPR    19-20  1969  2120  2089  2081  1690  1813  1611  1730
APRO   21     1789     .  1904  1772     .     .     .     .
PTP    22        .     .  2112     .     .     .     .     .
WIN    27        2     3     2     2     2     3     1     2
WON    28        2     3     2     2     2     2     1     2
BPG    29        2     3     2     2     2     2     3     2
BWG    30        1     1     1     1     0     1     0     0
REP    31        5     5     5     4     5     5     5     5
PS     32       11    13    11  11.5     5     6     6   8.5
PS/C1  33       10    12  10.5  10.5     5     6     5     8

                 9    10    11    12    13    14    15    16
BH     01-04     9    13  13.5  11.5    14    11    12  12.5
BH/C1  05-08   7.5  11.5    12   9.5    12     9    11    11
AOB    09    12.75  10.9 12.75    15  12.1 13.17  12.2  13.3
FB     10      9.5  12.5  12.5  11.5  13.5  10.5    12  13.5
SB     11-12  2.25   1.5  5.75     4  4.25   4.5   3.5  7.25
SB/C1  13     2.25     0  4.25     4  4.25     3   2.5  5.75
ARO    17     1975  1880  1863  2050  1930  1800  1860  1820
ARO/C1 18     2200  1975  2000     -  2025  1900  1963  1900
TPR    19-20  1175  1640  1776  1250  1781  1925  1788  1969
APRO   21        .     .     .     .     .     .     .  1805
PTP    22        .     .     .     .     .     .     .     .
WIN    27        1     1     2     2     1     2     2     3
WON    28        0     1     1     0     1     2     2     3
BPG    29        1     3     2     0     3     2     3     2
BWG    30        0     1     0     0     1     1     1     1
REP    31        3     5     5     3     5     3     5     5
PS     32      2.5     4   5.5     7     7     6     7  10.5
PS/C1  33      2.5     4     5     7     6     5     7    10
"""

_CHANGED_2026 = """
                 1     2     3     4     5     6     7     8
BH               .     .     .    14     .  11.5     .     .
BH/C1            .     .     .     .     .  10.5     .     .
FB               .     .     .  14.5     .     .     .     .
SB               .     .     .  9.25     .     6     .     .
SB/C1            .     .     .  7.75     .     5     .     .
AOB           12.4     .  12.9     .  13.2     .  11.7  12.9

                 9    10    11    12    13    14    15    16
BH               .     .  12.5     .     .     .     .     .
BH/C1            .     .    11     .     .     .     .     .
FB               .     .    12    11     .     .     .     .
SB               .     .  4.75     .     .     .     .     .
SB/C1            .     .  3.25     .     .     .     .     .
AOB              .  10.8     .    14  11.9    13     .  13.1
"""

#: Exercises 23 and 24 (direct encounter): the tied groups and the place each keeps.
DIRECT_ENCOUNTER = {
    "23": ((1, 3, 4, 16), 2),  # the group on 3½ points starts at place 2
    "24": ((5, 8, 11), 7),  # the group on 2½ points starts at place 7
}

Values = dict[int, Decimal | None]


def _table(text: str, *, exercises: bool) -> tuple[dict[str, Values], dict[str, str]]:
    """Read the blocks of a table: a heading of starting numbers, then one row per code."""
    values: dict[str, Values] = {}
    numbers: dict[str, str] = {}
    for block in text.strip("\n").split("\n\n"):
        heading, *rows = block.splitlines()
        players = [int(cell) for cell in heading.split()]
        for row in rows:
            code, *cells = row.split()
            if exercises:
                numbers[code], *cells = cells
            assert len(cells) == len(players), row
            values.setdefault(code, {}).update(
                (player, None if cell == "-" else Decimal(cell))
                for player, cell in zip(players, cells, strict=True)
                if cell != "."
            )
    return values, numbers


PUBLISHED, EXERCISES = _table(_PUBLISHED, exercises=True)
CHANGED_2026, _ = _table(_CHANGED_2026, exercises=False)

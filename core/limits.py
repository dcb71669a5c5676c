"""The limits of what Harkness reads, defined once and checked before any work starts.

Every input is untrusted: a file, an upload or a sheet may be huge, malformed or hostile.
These limits are far above any real section (the largest open Swiss has a few thousand
players and a dozen rounds) and keep every read linear in time and memory: a file over a
limit gets one located error naming the limit, not an hour of work or an exhausted machine.

TRF-16 (FIDE C.04 Annex 2) gives a starting rank four columns, so a section has at most
9,999 players; the rounds limit is TRF's three-digit ``XXR``.

>>> MAX_PLAYERS, MAX_ROUNDS, MAX_PLAYER_ROUNDS
(9999, 999, 1000000)
>>> shorten("x" * 100, 10)
'xxxxxxxxx…'
>>> quote("Rd 1")
"'Rd 1'"
>>> whole_number("0042", 9999), whole_number("²", 9999), whole_number("1" * 5000, 999)
(42, None, None)
"""

from __future__ import annotations

#: Largest tournament file (bytes on disk, or characters of text): 8 MiB.
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Longest line of a file (characters); 999 rounds of TRF-16 take under 10,100.
MAX_LINE_CHARS = 65_536
#: Longest cell of a crosstable or sheet (characters): a name, a rating, a round entry.
MAX_CELL_CHARS = 200
#: Most players of a section, and the largest starting number (TRF-16: four digits).
MAX_PLAYERS = 9999
#: Highest rating (TRF-16 gives it four columns).
MAX_RATING = 9999
#: Most rounds of a section (TRF-16 ``XXR`` has three digits).
MAX_ROUNDS = 999
#: Most round entries of a section (players × rounds): 9,999 players × 100 rounds.
MAX_PLAYER_ROUNDS = 1_000_000
#: Longest piece of input an error message quotes (characters, with the ellipsis).
QUOTED_CHARS = 60
#: Largest prize file (bytes): a prize list of a few hundred prizes is a few kilobytes.
MAX_PRIZE_FILE_BYTES = 256 * 1024
#: Most prizes of a prize list (a national open announces a few hundred across its sections).
MAX_PRIZES = 500
#: Largest amount of one prize or one personal limit, in currency units (a billion).
MAX_AMOUNT = 1_000_000_000
#: Most decimals an amount may have: amounts are paid in cents.
AMOUNT_DECIMALS = 2
#: Most categories and most teams a prize list names.
MAX_CATEGORIES = 100
MAX_TEAMS = 1000
#: Most players of a team who count for its score (US Chess scholastic teams count 4).
MAX_TEAM_COUNT = 100


def shorten(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` cut to ``limit`` characters, ending with ``…`` when cut."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def quote(text: str, limit: int = QUOTED_CHARS) -> str:
    """``repr`` of a piece of input, shortened first so that an error never repeats a
    megabyte-long cell."""
    return repr(shorten(text, limit))


def whole_number(text: str, most: int) -> int | None:
    """``text`` as a number from 0 to ``most`` if it is one in ASCII digits, else None.

    ``str.isdigit`` also takes ``²``, which ``int`` refuses, and ``int`` refuses more than
    4,300 digits: the digits and their count are checked first.
    """
    if not (text.isascii() and text.isdecimal()):
        return None
    digits = text.lstrip("0")
    if len(digits) > len(str(most)):
        return None
    value = int(digits or "0")
    return value if value <= most else None


def size_problem(players: int, rounds: int) -> str | None:
    """What is over the limits in a section of this size, or None.

    >>> size_problem(10, 1000)
    'a section has at most 999 rounds (got 1,000)'
    """
    if players > MAX_PLAYERS:
        return f"a section has at most {MAX_PLAYERS:,} players (got {players:,})"
    if rounds > MAX_ROUNDS:
        return f"a section has at most {MAX_ROUNDS} rounds (got {rounds:,})"
    if players * rounds > MAX_PLAYER_ROUNDS:
        return (
            f"{players:,} players × {rounds} rounds is {players * rounds:,} round entries; "
            f"the limit is {MAX_PLAYER_ROUNDS:,}"
        )
    return None

"""Accelerated pairings: virtual points added to some players' scores for pairing only.

An accelerated method must be announced before the event (C.04.2); it changes only how the
score brackets are built (the players' pairing score is their score plus their virtual
points), never the standings. Two sources, never both:

- **The file's own** virtual points: TRF-2026 record 250 (points, the rounds and the
  players they apply to) or JaVaFo's ``XXA`` record (a player's virtual points round by
  round), as pairing programs write them for an accelerated event.
- **FIDE's Baku Acceleration** (C.04.5.1), announced with the ``baku`` option:

  - before round 1, the list of players to be paired (in pairing-number order) is split
    into GA, its first half rounded up to an even number (``2 × ⌈n / 4⌉``: 82 of 161
    players), and GB, the rest; a late entry joins GA when its pairing number comes before
    the last GA player's (the last GA player stays the same);
  - the accelerated rounds are the first half of the rounds, rounded up; GA players get one
    virtual point in the first half of those (rounded up), half a point in the others,
    GB players never. In nine rounds: one point in rounds 1–3, half a point in rounds 4
    and 5, none after.

The engine is told the virtual points of this round and of every round before as TRF-2026
records 250: it adds them to the scores when it builds the brackets, and reads the earlier
rounds' to know who floated then (checked on a JaVaFo-paired accelerated open: given only
the round's own virtual points, it pairs 33 of 40 boards of round 5 as the event did;
given every round's, 40 of 40).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from enum import Enum

from core.model import EntryKind, Tournament
from core.problems import Problem

__all__ = [
    "Acceleration",
    "baku_group_size",
    "baku_virtual_points",
    "recorded_virtual_points",
    "virtual_points",
]


class Acceleration(Enum):
    """An accelerated method the TD announced."""

    #: FIDE's Baku Acceleration Method (C.04.5.1).
    BAKU = "baku"


def baku_group_size(players: int) -> int:
    """How many players GA holds: the first half of ``players``, rounded up to an even
    number (C.04.5.1, initial groups division).

    >>> baku_group_size(161), baku_group_size(16), baku_group_size(5)
    (82, 8, 4)
    """
    return 2 * -(-players // 4)


def baku_virtual_points(rounds: int, round: int) -> int:
    """The virtual points, in half-points, of a GA player when ``round`` of ``rounds`` is
    paired (C.04.5.1: the first half of the rounds, rounded up, are accelerated; one point
    in the first half of those, rounded up, half a point in the others).

    >>> [baku_virtual_points(9, r) / 2 for r in range(1, 10)]
    [1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0]
    >>> [baku_virtual_points(5, r) / 2 for r in range(1, 6)]
    [1.0, 1.0, 0.5, 0.0, 0.0]
    """
    accelerated = -(-rounds // 2)
    full = -(-accelerated // 2)
    if round <= full:
        return 2
    return 1 if round <= accelerated else 0


def _paired_in_round_one(history: Tournament) -> set[int]:
    return {
        p.id
        for p in history.players
        if p.entries
        and (p.entries[0].kind.has_opponent or p.entries[0].kind is EntryKind.PAIRING_BYE)
    }


def baku_group(
    history: Tournament, round: int, order: tuple[int, ...], listed: set[int]
) -> set[int]:
    """GA: the first ``2 × ⌈n / 4⌉`` of the ``n`` players of round 1's list (``listed``:
    the players to be paired in round 1), in pairing-number order, and everyone whose
    pairing number now comes before the last of them (late entries)."""
    first = [pid for pid in order if pid in listed]
    size = baku_group_size(len(first))
    if size == 0:
        return set()
    last = first[min(size, len(first)) - 1]
    return set(order[: order.index(last) + 1])


def recorded_virtual_points(
    tournament: Tournament, round: int
) -> tuple[dict[int, int], list[Problem]]:
    """The virtual points (half-points, by starting number) that the file's records 250
    (TRF-2026) and ``XXA`` (JaVaFo) give for ``round``, and what is wrong with any.

    >>> from core.formats.trf import read_trf
    >>> line = "001    1      Ann" + " " * 64 + "0.0"
    >>> t = read_trf("250  1.0  1.0   1   3    1    1\\nXXA    2  1.0  0.5\\n" + line + "\\n"
    ...              + line.replace("   1      Ann", "   2      Bob"))
    >>> recorded_virtual_points(t, 2), recorded_virtual_points(t, 4)
    (({1: 2, 2: 1}, []), ({}, []))
    """
    points: dict[int, int] = {}
    problems: list[Problem] = []
    ids = {p.id for p in tournament.players}

    def half_points(text: str, record: str) -> int | None:
        try:
            value = Decimal(text.strip()) * 2
        except InvalidOperation:
            value = Decimal("0.1")
        if value != value.to_integral_value() or value < 0:
            problems.append(
                Problem(
                    f"TRF record {record}: virtual points {text.strip()!r} are not a number "
                    "of half-points",
                    code="bad-acceleration",
                    field=record,
                    value=text.strip(),
                )
            )
            return None
        return int(value)

    for code, text in tournament.records:
        if code == "250":
            fields = [text[0:4], text[10:13], text[14:17], text[18:22], text[23:27]]
            numbers = [f.strip() for f in fields[1:]]
            if not numbers[0].isdigit() or not numbers[2].isdigit():
                problems.append(
                    Problem(
                        f"TRF record 250 {text!r}: expected points, rounds and players in "
                        "TRF-2026's columns",
                        code="bad-acceleration",
                        field="250",
                        value=text,
                    )
                )
                continue
            first, last = int(numbers[0]), int(numbers[1] or numbers[0])
            low, high = int(numbers[2]), int(numbers[3] or numbers[2])
            value = half_points(fields[0], "250")
            if value is not None and first <= round <= last:
                for pid in range(low, high + 1):
                    if pid in ids:
                        points[pid] = value
        elif code == "XXA":
            words = text.split()
            if not words or not words[0].isdigit():
                continue
            pid, values = int(words[0]), words[1:]
            if round <= len(values) and pid in ids:
                value = half_points(values[round - 1], "XXA")
                if value is not None:
                    points[pid] = value
    return {pid: v for pid, v in sorted(points.items()) if v}, problems


def virtual_points(
    tournament: Tournament,
    history: Tournament,
    round: int,
    rounds: int,
    order: tuple[int, ...],
    to_pair: set[int],
    acceleration: Acceleration | None,
) -> tuple[dict[int, dict[int, int]], list[Problem]]:
    """The virtual points of rounds 1 to ``round`` (round → starting number →
    half-points; rounds without any left out): the announced method's, or the file's
    records', and what is wrong (both at once is refused)."""
    problems: list[Problem] = []
    found: dict[int, dict[int, int]] = {}
    if acceleration is None:
        for r in range(1, round + 1):
            recorded, wrong = recorded_virtual_points(tournament, r)
            if wrong:
                return {}, wrong
            if recorded:
                found[r] = recorded
        return found, problems
    if any(code in ("250", "XXA") for code, _ in tournament.records):
        problems.append(
            Problem(
                f"--accelerate {acceleration.value}: the file already has virtual points "
                "(TRF record 250 or XXA); pair it with its own, or remove them",
                code="bad-acceleration",
                field="accelerate",
                value=acceleration.value,
                detail="the file already has virtual points (TRF record 250 or XXA)",
            )
        )
        return {}, problems
    for r in range(1, round + 1):
        value = baku_virtual_points(rounds, r)
        if value:
            listed = to_pair if round == 1 else _paired_in_round_one(history)
            group = baku_group(history, r, order, listed)
            found[r] = {pid: value for pid in order if pid in group}
    return found, problems

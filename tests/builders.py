"""Small builders for tournaments in tests, in the crosstable notation of the seeds."""

from __future__ import annotations

from core.formats.crosstable import read_crosstable
from core.model import Player, RoundEntry, Tournament

_MIRROR = {"W": "L", "L": "W", "D": "D", "X": "F", "F": "X"}


def crosstable(*rows: str, rounds: int | None = None) -> Tournament:
    """A tournament from rows ``"Name: W2 L3 B"`` (player ids are row numbers).

    Cells are separated by single spaces; colours are written without a space (``W2w``).
    """
    cells = [row.split(":", 1)[1].split() for row in rows]
    rounds = rounds or max(len(c) for c in cells)
    lines = ["\t".join(["#", "Name"] + [f"Rd {r}" for r in range(1, rounds + 1)])]
    for number, (row, entries) in enumerate(zip(rows, cells, strict=True), start=1):
        name = row.split(":", 1)[0].strip()
        lines.append("\t".join([str(number), name] + entries + [""] * (rounds - len(entries))))
    return read_crosstable("\n".join(lines))


def one_player_sequence(results: str) -> Tournament:
    """Player 1 plays the given sequence (``"B W L D W"``) against a fresh opponent each
    round; the opponents are absent in their other rounds.

    A ``W``, ``D``, ``L``, ``X`` or ``F`` meets a new opponent; ``B``, ``H``, ``U`` are byes.
    """
    codes = results.split()
    rounds = len(codes)
    rows = [["Hero"] + [""] * rounds]
    for r, code in enumerate(codes):
        if code in _MIRROR:
            opponent = len(rows) + 1
            rows[0][r + 1] = f"{code}{opponent}"
            other = ["Opponent"] + ["U"] * rounds
            other[r + 1] = f"{_MIRROR[code]}1"
            rows.append(other)
        else:
            rows[0][r + 1] = code
    return crosstable(*(f"{row[0]}: {' '.join(row[1:])}" for row in rows), rounds=rounds)


def round_robin(players: int) -> list[list[tuple[int, int]]]:
    """Circle-method pairings: rounds of (white, black) starting numbers."""
    ids = list(range(1, players + 1))
    rounds = []
    for _ in range(players - 1):
        rounds.append([(ids[i], ids[-1 - i]) for i in range(players // 2)])
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return rounds


def nine_round_event() -> Tournament:
    """Ten players, nine rounds, all games played; the lower starting number wins, except
    that 1 and 10 draw."""
    entries: dict[int, list[RoundEntry]] = {p: [] for p in range(1, 11)}
    for pairs in round_robin(10):
        for white, black in pairs:
            if {white, black} == {1, 10}:
                entries[white].append(RoundEntry.draw(black))
                entries[black].append(RoundEntry.draw(white))
            elif white < black:
                entries[white].append(RoundEntry.win(black))
                entries[black].append(RoundEntry.loss(white))
            else:
                entries[white].append(RoundEntry.loss(black))
                entries[black].append(RoundEntry.win(white))
    return Tournament(tuple(Player(p, f"P{p}", tuple(e)) for p, e in entries.items()), 9)

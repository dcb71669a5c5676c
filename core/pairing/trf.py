"""TRF-16 files of a pairing: the one handed to the engine, and the one handed back to the TD.

The engine's file (:func:`engine_trf`) numbers the players by their pairing numbers
(see :mod:`core.pairing.prepare`), writes ``0000`` where a round has no opponent
(the engines accept nothing else), records the planned rounds (``XXR``) and the initial
colour (``152``), this round's virtual points of an accelerated method (``250``, which
gacrux adds to the scores), the players to keep apart (``260``, prohibited pairings, which gacrux
reads), gives a colour to both sides of a forfeit (TRF-16 needs one to join the
two sides; forfeited games do not count for colours, C.04.1), and puts this round's
byes and withdrawals in the round's column with their points in the points column.
Names, ratings and other fields are left out: the engine needs none of them.

The TD's file (:func:`pairing_trf`) is the tournament through the previous round plus
the new round: each game's opponent and colour with the result still blank (as pairing
programs write a round not yet played), the byes and withdrawals with their codes.
"""

from __future__ import annotations

from dataclasses import replace

from core.formats.trf import FIRST_ROUND, ROUND_WIDTH, write_trf
from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.pairing.model import RoundPairing
from core.pairing.prepare import PairingRequest

__all__ = ["engine_trf", "pairing_trf"]

_ABSENT = RoundEntry(EntryKind.ABSENT)


def engine_trf(request: PairingRequest) -> tuple[str, list[int]]:
    """The engine's input, and the starting number of each pairing number (index 0 is
    pairing number 1)."""
    history = request.history
    order = [history.player(pid) for pid in request.pairing_order]
    number = {p.id: n for n, p in enumerate(order, start=1)}
    later = (_ABSENT,) * (request.rounds - request.round)
    players = []
    for p in order:
        entries = [_renumbered(e, number[p.id], number) for e in p.entries]
        kind = request.not_paired.get(p.id)
        entries.append(RoundEntry(kind) if kind is not None else _ABSENT)
        players.append(Player(number[p.id], f"P{number[p.id]}", tuple(entries) + later))
    colour = "W" if request.initial_colour is Colour.WHITE else "B"
    records = [("152", colour)]
    r = request.round
    for k, points in request.virtual_points.items():  # TRF-2026 record 250: virtual points
        for pid, half in points.items():
            value = f"{half / 2:4.1f}"
            records.append(
                ("250", f"{value} {value} {k:>3} {k:>3} {number[pid]:>4} {number[pid]:>4}")
            )
    for group in request.avoid:  # prohibited pairings: these players do not meet in round r
        records.append(
            (
                "260",
                f"{r:>3} {r:>3}"
                + "".join(f" {number[p]:>4}" for p in sorted(group, key=number.__getitem__)),
            )
        )
    tournament = Tournament(tuple(players), request.rounds, records=tuple(records))
    return write_trf(tournament, no_opponent="0000"), [p.id for p in order]


def _renumbered(e: RoundEntry, own: int, number: dict[int, int]) -> RoundEntry:
    if e.opponent is None:
        return e
    opponent = number[e.opponent]
    if e.kind.played:
        return e._replace(opponent=opponent)
    # A forfeit: the lower pairing number takes white, so that both sides agree.
    return RoundEntry(e.kind, opponent, Colour.WHITE if own < opponent else Colour.BLACK)


def pairing_trf(request: PairingRequest, pairing: RoundPairing) -> str:
    """The TD's TRF-16 file with round ``pairing.round`` paired (results blank)."""
    known = pairing.entries()
    later = (_ABSENT,) * (request.rounds - request.round)
    players = tuple(
        replace(p, entries=(*p.entries, known.get(p.id, _ABSENT), *later))
        for p in request.history.players
    )
    records = request.history.records
    if not any(code == "152" for code, _ in records):
        colour = "W" if request.initial_colour is Colour.WHITE else "B"
        records += (("152", colour),)
    written = replace(request.history, players=players, rounds=request.rounds, records=records)
    text = write_trf(written, no_opponent="0000")
    start = FIRST_ROUND - 3 + ROUND_WIDTH * (pairing.round - 1)
    lines = text.splitlines()
    index = 0
    for i, line in enumerate(lines):
        if not line.startswith("001"):
            continue
        player = players[index].id
        index += 1
        board = pairing.board_of(player)
        if board is not None:
            colour = board.colour_for(player).value
            lines[i] = f"{line[:start].ljust(start)}  {board.opponent_of(player):>4} {colour}"
    return "".join(line + "\n" for line in lines)

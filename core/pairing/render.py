"""A round's pairing as people read it (a board list) and as programs read it (JSON).

Names are data: the text here is plain, and each front door escapes it for its medium.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from core.model import EntryKind, Player
from core.numbers import as_json_number, half_points
from core.pairing.model import RoundPairing
from core.pairing.prepare import ColourSource, PairingRequest

__all__ = [
    "SYSTEM",
    "acceleration_note",
    "board_rows",
    "colour_note",
    "pairing_json",
    "pairing_text",
]

#: How Harkness names what it pairs by, wherever a pairing is shown.
SYSTEM = "FIDE Dutch system (C.04.3)"


def _label(p: Player) -> str:
    return f"{p.id} {p.name} ({half_points(p.half_points)})"


def board_rows(request: PairingRequest, pairing: RoundPairing) -> list[tuple[str, str, str]]:
    """(board, white, black) cells: ``"1"``, ``"3 Chen, Wei (1.5)"``, …; the bye and the
    players not paired follow, with the board cell naming what they have."""
    player = request.history.player
    rows = [
        (str(b.number), _label(player(b.white)), _label(player(b.black))) for b in pairing.boards
    ]
    if pairing.bye is not None:
        rows.append(("bye", _label(player(pairing.bye)), EntryKind.PAIRING_BYE.value))
    for pid, kind in pairing.not_paired:
        rows.append(("–", _label(player(pid)), kind.value))  # the kind's own words
    return rows


#: Where the initial colour came from, as a sentence ends.
_COLOUR_FROM = {
    ColourSource.ROUND_ONE: "as round 1 of the file was played",
    ColourSource.OPTION: "as the option says",
    ColourSource.RECORD: "as the file's record says (TRF 152 or XXC)",
    ColourSource.DEFAULT: "by default (no round 1, option or record says otherwise)",
}


def colour_note(request: PairingRequest) -> str:
    """Round 1's colour for the top player and where it came from: ``"Initial colour:
    white, as round 1 of the file was played."``"""
    colour = request.initial_colour.name.lower()
    return f"Initial colour: {colour}, {_COLOUR_FROM[request.colour_source]}."


def acceleration_note(request: PairingRequest) -> str:
    """What acceleration applied to this round, or ``""``: ``"Baku Acceleration (C.04.5.1):
    1 virtual point for 8 players."``"""
    points = request.virtual_points.get(request.round, {})
    if request.acceleration is None and not request.virtual_points:
        return ""
    name = (
        "Baku Acceleration (C.04.5.1)"
        if request.acceleration is not None
        else "Accelerated by the file's virtual points (TRF 250/XXA)"
    )
    if not points:
        return f"{name}: no virtual points this round."
    counts: dict[int, int] = {}
    for half in points.values():
        counts[half] = counts.get(half, 0) + 1
    parts = [
        f"{half_points(half)} virtual point{'s' if half != 2 else ''} for {n} "
        f"player{'s' if n != 1 else ''}"
        for half, n in sorted(counts.items(), reverse=True)
    ]
    return f"{name}: {', '.join(parts)}."


def pairing_text(request: PairingRequest, pairing: RoundPairing) -> str:
    """The board list, aligned plain text, after a line saying the initial colour (and
    one saying the acceleration, if any)."""
    name = request.history.name
    heading = f"{name + ': ' if name else ''}round {pairing.round} of {pairing.rounds}, {SYSTEM}"
    rows = [("Board", "White", "Black"), *board_rows(request, pairing)]
    widths = [max(len(row[j]) for row in rows) for j in range(3)]
    accelerated = acceleration_note(request)
    lines = [heading, colour_note(request), *([accelerated] if accelerated else []), ""]
    for n, (board, white, black) in enumerate(rows):
        lines.append(f"{board:>{widths[0]}}  {white:<{widths[1]}}  {black}".rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines) + "\n"


def pairing_json(request: PairingRequest, pairing: RoundPairing) -> str:
    """``{"round", "rounds", "system", "initial_colour", "initial_colour_from",
    "acceleration", "virtual_points": [{"id", "points"}], "boards": [{"board", "white",
    "black"}], "bye", "not_paired": [{"id", "entry"}]}``, players by starting number;
    ``initial_colour_from`` is ``"round 1"``, ``"option"``, ``"file record"`` or
    ``"default"``; ``acceleration`` is ``"baku"``, ``"file"`` (the file's virtual points)
    or null, with this round's virtual points."""
    data: dict[str, Any] = {
        "round": pairing.round,
        "rounds": pairing.rounds,
        "system": SYSTEM,
        "initial_colour": request.initial_colour.name.lower(),
        "initial_colour_from": request.colour_source.value,
        "acceleration": (
            request.acceleration.value
            if request.acceleration is not None
            else "file"
            if request.virtual_points
            else None
        ),
        "virtual_points": [
            {"id": pid, "points": as_json_number(Fraction(half, 2))}
            for pid, half in request.virtual_points.get(pairing.round, {}).items()
        ],
        "boards": [{"board": b.number, "white": b.white, "black": b.black} for b in pairing.boards],
        "bye": pairing.bye,
        "not_paired": [{"id": pid, "entry": kind.value} for pid, kind in pairing.not_paired],
    }
    return json.dumps(data, indent=2) + "\n"

"""A round's pairing as a picture: the board list a member checks on a phone before a round.

The cells are :func:`core.pairing.render.board_rows`' (board, white, black, each player with
their starting number and score), so the picture says what the text says. Rounds of more
than :data:`MAX_BOARDS` boards keep the text (and its file).
"""

from __future__ import annotations

from core.pairing import PairingRequest, RoundPairing
from core.pairing.render import SYSTEM, board_rows
from core.pictures import Picture, alt_text
from core.pictures.layout import Cell, Heading, Note, Sheet
from core.problems import HarknessError, Problem

MAX_BOARDS = 60


def sheet(request: PairingRequest, pairing: RoundPairing) -> Sheet:
    """The board list laid out: one row a board, then the bye and the players not paired."""
    rows = tuple(
        (Cell(board, bold=board.isdigit()), Cell(white), Cell(black))
        for board, white, black in board_rows(request, pairing)
    )
    name = request.history.name or "Pairings"
    return Sheet(
        name,
        f"Round {pairing.round} of {pairing.rounds} · {SYSTEM} · white first",
        (Heading("Board"), Heading("White", "left", shrink=True), Heading("Black", "left")),
        rows,
        notes=(Note("Scores before the round in brackets."),),
    )


def description(request: PairingRequest, pairing: RoundPairing) -> str:
    """The alt text: what the picture is, then each board in words."""
    head = f"Pairings picture: {request.history.name or 'pairings'}, round {pairing.round}."
    parts = [
        f"board {board}: white {white}, black {black}" if board.isdigit() else f"{white}: {black}"
        for board, white, black in board_rows(request, pairing)
    ]
    return alt_text(head, parts)


def pairing_picture(
    request: PairingRequest, pairing: RoundPairing, theme: str = "light"
) -> Picture:
    """The board list drawn (PNG) with its alt text; a round of more than
    :data:`MAX_BOARDS` boards raises :class:`HarknessError`."""
    if len(pairing.boards) > MAX_BOARDS:
        raise HarknessError(
            [
                Problem(
                    f"a pairing picture shows at most {MAX_BOARDS} boards (round "
                    f"{pairing.round} has {len(pairing.boards)}); use the text",
                    code="picture-too-large",
                )
            ]
        )
    from core.pictures import canvas

    data, width, height = canvas.draw(sheet(request, pairing), theme)
    return Picture(data, width, height, description(request, pairing))

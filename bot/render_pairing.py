"""A round's pairing as the bot shows it: the board list (names escaped), and the whole
list as a text file when it does not fit in one message.

The words and cells come from :mod:`core.pairing.render`; this module only escapes them
for Discord and fits them into its limits.
"""

from __future__ import annotations

import discord

from bot.render import MESSAGE_MAX, lines_within, plain, text_file
from bot.store import TournamentInfo
from bot.store.pairings import RoundDraft
from core.pairing import PairingRequest
from core.pairing.render import SYSTEM, board_rows, pairing_text

#: Room left in a message for the heading and the footer around the boards.
_BOARDS_BUDGET = MESSAGE_MAX - 300


def heading(info: TournamentInfo, draft: RoundDraft) -> str:
    what = "Pairings" if draft.published else "Draft pairings (not published)"
    return (
        f"**{what}: {plain(info.name)}, round {draft.pairing.round} of "
        f"{draft.pairing.rounds}** ({SYSTEM}, white first)"
    )


def board_lines(request: PairingRequest, draft: RoundDraft) -> list[str]:
    lines = []
    for board, white, black in board_rows(request, draft.pairing):
        if board.isdigit():
            lines.append(f"{board}. {plain(white)} – {plain(black)}")
        else:
            lines.append(f"{plain(white)}: {black}")
    return lines


def pairing_message(
    info: TournamentInfo, request: PairingRequest, draft: RoundDraft, footer: str = ""
) -> tuple[str, list[discord.File]]:
    """The message text, and the full list as a file when the message had to be cut."""
    lines = board_lines(request, draft)
    boards = lines_within(lines, _BOARDS_BUDGET, "… and {n} more (all in the attached file)")
    text = "\n".join(part for part in (heading(info, draft), boards, footer) if part)
    files = []
    if boards != "\n".join(lines):
        name = f"round-{draft.pairing.round}-pairings.txt"
        files.append(text_file(name, pairing_text(request, draft.pairing)))
    return text, files

"""Linking a tournament to a spreadsheet and unlinking it (TD).

A sheet is linked only by a server it names, so only someone who can edit it links it: the
first ``/tournament link-sheet`` of a sheet that does not name the server gives the TD a code
(to them alone) and links nothing; an editor of the sheet types the code into the "Discord
servers" row of its Harkness tab, and the TD presses **Link** (or runs the command again),
which links (:mod:`bot.store.linked`). Then the bot checks at once that its service account
can open and edit the sheet, and otherwise says whom to share it with. Nothing of the sheet
is shown to a server, and nothing written to it, before the sheet names that server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.errors import UserError
from bot.sheetlink.access import (
    OverBudget,
    SheetAccess,
    SheetUnreadable,
    short,
    waiting_reason,
)
from bot.sheetlink.api import (
    PLAYERS_MARKER,
    PLAYERS_TAB,
    REPORTS_MARKER,
    REPORTS_TAB,
    PlayerRow,
    SheetsAuthError,
    SheetsError,
    SheetsNotFoundError,
    SheetsPermissionError,
    append_requests,
    discord_of,
    foreign_tab,
    match_players,
    player_rows,
    players_requests,
    read_input,
    read_snapshot,
    spreadsheet_id,
)
from bot.sheetlink.players import PlayerLinks
from bot.sheetlink.reading import SheetReader
from bot.store import Actor, LinkCode, Naming, StoreError, TournamentInfo
from core.names import markdown_safe as md
from core.names import mentioned_id

log = logging.getLogger("harkness.bot")


@dataclass(frozen=True)
class Linking:
    """What ``/tournament link-sheet`` came to: the lines of the TD's answer; ``code`` when
    the sheet must name the server first (nothing was linked or written), else
    ``announced``, the lines for the channel."""

    lines: list[str]
    code: LinkCode | None = None
    announced: list[str] = field(default_factory=list)


def code_lines(tournament: str, code: LinkCode, expired: bool) -> list[str]:
    """The TD's instructions to have an editor of the sheet name this server with ``code``
    (nothing of the sheet is quoted: it does not name this server yet)."""
    until = int(code.expires_at.timestamp())
    return [
        *(
            ["⌛ The code in the sheet has expired: replace it with the new one below."]
            if expired
            else []
        ),
        f"🔑 Before **{md(tournament)}** is linked, an editor of the sheet must let this "
        "server use it (so that nobody links a sheet they cannot edit):",
        f"1. In the sheet's **Harkness** tab, type `{code.code}` in the **Discord servers** "
        "row, after any entry already there, separated by a comma. (No Harkness tab yet? "
        "Add a tab named Harkness, with `Discord servers` in A1 and the code in B1.)",
        f"2. Then press **Link** below, or run /tournament link-sheet again with the same "
        f"address, before <t:{until}:t> (the code is for this server, this tournament and "
        "this sheet only, and links it once).",
        "Nothing was written to the sheet. The code stays in the sheet as this server's "
        "entry: deleting it later takes this server's access away.",
    ]


class Linker:
    """``/tournament link-sheet`` and its undoing: which spreadsheet a tournament is kept
    in is the store's (:meth:`bot.store.LinkedSheets.link_sheet`); this checks and prepares it."""

    def __init__(self, access: SheetAccess, reader: SheetReader, players: PlayerLinks) -> None:
        self.access = access
        self.reader = reader
        self.players = players

    async def link(self, guild: str, info: TournamentInfo, url: str, td: Actor) -> Linking:
        """Link ``info`` to the spreadsheet at ``url`` (TD), if the sheet names this server
        (else a code for an editor to type into it: see the module): check at once that the
        service account can open and edit it, add the bot's tabs, add the sheet's players
        Discord does not know yet, and sync. Every request holds the sheet's lease and is
        spent from the server's share of the budget first."""
        client = self.access.sheets_client()
        try:
            sheet = spreadsheet_id(url)
        except SheetsError:
            raise UserError(
                f"{url.strip()[:200]!r} is not a Google Sheets link: copy the "
                "spreadsheet's address from your browser"
            ) from None
        linked = self.access.store.linked
        # A TD links a sheet once: they may wait for the budget up to a minute ("thinking…").
        patience = max(self.access.answer_wait, self.access.quota.window)
        async with self.access.writing(sheet):
            try:
                await self.access.spent(1, 0, guild=guild, patience=patience)
                snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
                found = await asyncio.to_thread(read_input, snapshot)
                named = found.settings.discord_servers
                naming = await linked.naming(guild, info.name, sheet, named)
                if naming not in (Naming.NAMED, Naming.CODE):  # nothing shown, nothing written
                    code = await linked.link_code(guild, info.name, td, spreadsheet_id=sheet)
                    lines = code_lines(info.name, code, expired=naming is Naming.EXPIRED)
                    return Linking(lines, code)
                for title, marker in ((REPORTS_TAB, REPORTS_MARKER), (PLAYERS_TAB, PLAYERS_MARKER)):
                    taken = foreign_tab(snapshot, title, marker)
                    if taken is not None:
                        raise UserError(
                            f"the spreadsheet already has a tab named "
                            f"“{taken.title}” that Harkness did not make: rename "
                            "it, then link the sheet again"
                        )
                members = await self.players.members(
                    await self.access.store.players(guild, info.name), found.players
                )
                matched = match_players(members, found.players)
                requests = append_requests(snapshot, []) + players_requests(
                    snapshot, player_rows(members, found.players, matched)
                )
                if not requests:  # nothing to add: a harmless write still proves edit access
                    tab = snapshot.tab(REPORTS_TAB)
                    assert tab is not None
                    requests = [
                        {
                            "updateSheetProperties": {
                                "properties": {
                                    "sheetId": tab.sheet_id,
                                    "gridProperties": {"frozenRowCount": 1},
                                },
                                "fields": "gridProperties.frozenRowCount",
                            }
                        }
                    ]
                await self.access.spent(0, 1, guild=guild, patience=patience)
                await asyncio.to_thread(
                    client.http_client.batch_update, sheet, {"requests": requests}
                )
            except SheetsError as error:
                raise self._refusal(error) from None
            except OverBudget as error:
                raise UserError(
                    f"{waiting_reason(error)}, so nothing was linked: run /tournament "
                    "link-sheet again in a minute"
                ) from None
            info = await linked.link_sheet(
                guild, info.name, td, spreadsheet_id=sheet, url=url.strip(), named=named
            )
            added, refused = await self._add_sheet_players(guild, info, found.players, matched, td)
        self.reader.forget(sheet)
        announced = [
            f"🔗 **{md(info.name)}** is kept in the Google Sheet “{md(snapshot.title)}” from now "
            "on: what the TD types there wins.",
            "Results confirmed in Discord are added to its **Discord reports** tab, and "
            "`/standings`, `/crosstable` and `/why` read the sheet.",
        ]
        lines = list(announced)
        known = len(found.players)
        lines.append(
            f"The sheet lists {known} player{'s' if known != 1 else ''}; "
            f"{len(matched)} of them {'is' if len(matched) == 1 else 'are'} already "
            "registered here"
            + (
                f", and {len(added)} {'was' if len(added) == 1 else 'were'} added so "
                f"members can name them: {', '.join(md(a) for a in added[:10])}"
                if added
                else ""
            )
            + "."
        )
        if refused:
            lines.append(
                "⚠️ Not registered here (fix the name on the sheet, then a TD adds them with "
                "/player link): " + "; ".join(md(r) for r in refused[:10])
            )
        strangers = [md(m.name) for m in members if m.key not in matched]
        if strangers:
            lines.append(
                f"⚠️ Registered here but not on the sheet: {', '.join(strangers[:10])}"
                " — add them to the results tab (or write their Discord name in its "
                "Discord column) so their games count there."
            )
        try:
            view = await self.reader.view(guild, info, force=True)
        except SheetUnreadable as error:
            lines.append(f"The standings will be read when Google answers ({error.message}).")
        else:
            if view.input.problems:
                lines.append(
                    f"The sheet has {len(view.input.problems)} problem(s): they are "
                    "listed on its Errors tab."
                )
        return Linking(lines, announced=announced)

    async def unlink(self, guild: str, info: TournamentInfo, td: Actor) -> list[str]:
        """Unlink the spreadsheet (TD); results waiting to be written stay queued."""
        if info.sheet is None:
            raise UserError(f"{info.name} is not linked to a Google Sheet")
        waiting = len(await self.access.store.linked.pending_writes(guild, info.name))
        await self.access.store.linked.unlink_sheet(guild, info.name, td)
        self.reader.forget(info.sheet.spreadsheet_id)
        lines = [
            f"**{md(info.name)}** is no longer linked to its Google Sheet: Discord keeps the "
            "results, and the sheet is left as it is."
        ]
        if waiting:
            lines.append(
                f"{waiting} result(s) were still waiting to be written to the sheet; "
                "they stay queued and are written if you link the same sheet again."
            )
        return lines

    def _refusal(self, error: SheetsError) -> UserError:
        """What a TD is told when the sheet cannot be linked."""
        if isinstance(error, SheetsPermissionError):
            return UserError(
                f"Harkness may not open and edit that spreadsheet. Share it with "
                f"{error.share_with} as an Editor (Share → add {error.share_with} → Editor), "
                "then run /tournament link-sheet again",
                markup=True,
            )
        if isinstance(error, SheetsNotFoundError):
            return UserError(
                "there is no spreadsheet at that link (or it was deleted): copy "
                "the spreadsheet's address from your browser"
            )
        if isinstance(error, SheetsAuthError):
            log.error("Google refused the service account: %s", error)
            return UserError(
                "Google refused this bot's service account; nothing was linked. "
                "Tell the bot's operator (the log says why)"
            )
        return UserError(
            f"Google Sheets did not answer just now, so nothing was linked: try "
            f"again in a minute ({short(error)})"
        )

    async def _add_sheet_players(
        self,
        guild: str,
        info: TournamentInfo,
        players: Mapping[int, PlayerRow],
        matched: Mapping[int, int],
        td: Actor,
    ) -> tuple[list[str], list[str]]:
        """Register the sheet's players Discord does not know, so members can name them.
        Answers the names added, and why the others were not (``#5: …``)."""
        known = set(matched.values())
        added: list[str] = []
        refused: list[str] = []
        for number, player in sorted(players.items()):
            if number in known:
                continue
            value = discord_of(player).strip()
            value = mentioned_id(value) or value
            try:
                await self.access.store.add_player(
                    guild,
                    info.name,
                    player.name,
                    actor=td,
                    rating=player.rating,
                    discord_id=value if value.isdigit() else None,
                )
            except StoreError as error:
                log.info("sheet player #%d not added: %s", number, error.message)
                refused.append(f"#{number}: {error.message}")  # the name may not be shown
                continue
            added.append(player.name)
        return added, refused

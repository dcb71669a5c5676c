"""Linking a tournament to a spreadsheet and unlinking it (TD): the bot checks at once that
its service account can open and edit the sheet, and otherwise says whom to share it with."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Mapping

from bot.errors import UserError
from bot.sheetlink.access import SheetAccess, SheetUnreadable, short
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
from bot.store import Actor, StoreError, TournamentInfo
from core.names import markdown_safe as md
from core.names import mentioned_id

log = logging.getLogger("harkness.bot")


class Linker:
    """``/tournament link-sheet`` and its undoing: which spreadsheet a tournament is kept
    in is the store's (:meth:`bot.store.LinkedSheets.link_sheet`); this checks and prepares it."""

    def __init__(self, access: SheetAccess, reader: SheetReader, players: PlayerLinks) -> None:
        self.access = access
        self.reader = reader
        self.players = players

    async def link(self, guild: str, info: TournamentInfo, url: str, td: Actor) -> list[str]:
        """Link ``info`` to the spreadsheet at ``url`` (TD): check at once that the service
        account can open and edit it, add the bot's tabs, add the sheet's players Discord does
        not know yet, and sync. Answers the lines of the reply."""
        client = self.access.sheets_client()
        try:
            sheet = spreadsheet_id(url)
        except SheetsError:
            raise UserError(
                f"{url.strip()[:200]!r} is not a Google Sheets link: copy the "
                "spreadsheet's address from your browser"
            ) from None
        async with self.access.writing(sheet):
            try:
                snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
                for title, marker in ((REPORTS_TAB, REPORTS_MARKER), (PLAYERS_TAB, PLAYERS_MARKER)):
                    taken = foreign_tab(snapshot, title, marker)
                    if taken is not None:
                        raise UserError(
                            f"the spreadsheet already has a tab named "
                            f"“{taken.title}” that Harkness did not make: rename "
                            "it, then link the sheet again"
                        )
                found = await asyncio.to_thread(read_input, snapshot)
                guests = found.settings.discord_servers
                await self._check_first_link(guild, sheet, guests)
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
                await asyncio.to_thread(
                    client.http_client.batch_update, sheet, {"requests": requests}
                )
            except SheetsError as error:
                raise self._refusal(error) from None
            linked = await self.access.store.linked.link_sheet(
                guild, info.name, td, spreadsheet_id=sheet, url=url.strip(), guests=guests
            )
            added, refused = await self._add_sheet_players(
                guild, linked, found.players, matched, td
            )
        self.reader.forget(sheet)
        lines = [
            f"🔗 **{md(linked.name)}** is kept in the Google Sheet “{md(snapshot.title)}” from now "
            "on: what the TD types there wins.",
            "Results confirmed in Discord are added to its **Discord reports** tab, and "
            "`/standings`, `/crosstable` and `/why` read the sheet.",
        ]
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
            view = await self.reader.view(guild, linked, force=True)
        except SheetUnreadable as error:
            lines.append(f"The standings will be read when Google answers ({error.message}).")
        else:
            if view.input.problems:
                lines.append(
                    f"The sheet has {len(view.input.problems)} problem(s): they are "
                    "listed on its Errors tab."
                )
        return lines

    async def _check_first_link(self, guild: str, sheet: str, guests: Collection[str]) -> None:
        """Before anything is written: a sheet no server has linked yet is free (the store
        makes it this server's when the link is made); any other must be this server's or
        name it (:meth:`SheetAccess.check_use`)."""
        if await self.access.store.linked.sheet_owner(sheet) is not None:
            await self.access.check_use(guild, sheet, guests)

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

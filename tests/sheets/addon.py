"""The add-on's side of a sheet's key, played by a test as ``deploy/apps-script/Code.js``
plays it: an editor of the sheet (an account of its own, shared with the sheet as a writer
or a reader in the Sheets fake) makes a key and writes its SHA-256 into the spreadsheet's
developer metadata (in place of that editor's previous one) through the real Sheets API
(gspread, as that account); then the test posts to ``serve`` with the key. The end-to-end
test through Caddy runs ``Code.js`` itself (``tests/sheets/addon_world.js``)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from sheets.addon_keys import KEY_HEADER
from sheets.client import SheetsClient
from sheets.layout import ADDON_KEY_METADATA_KEY


def new_key() -> str:
    """A key as the add-on makes one: 64 URL-safe characters."""
    return secrets.token_urlsafe(48)


def key_hash(key: str) -> str:
    """The hash of a key as the add-on writes it into the sheet."""
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


@dataclass
class Editor:
    """Someone with an account of their own on the Sheets fake, acting through the API, with
    the key they last vouched for in each sheet (as the add-on keeps it in their User
    Properties)."""

    email: str
    client: SheetsClient
    keys: dict[str, str] = field(default_factory=dict)

    def vouch(self, spreadsheet_id: str, key: str) -> None:
        """Put ``key``'s hash in the sheet in place of this editor's previous one, as the
        add-on does (one ``batchUpdate``). Raises :class:`~sheets.client.SheetsError` when
        this account may not."""
        requests: list[dict[str, Any]] = []
        previous = self.keys.get(spreadsheet_id)
        if previous is not None:
            lookup = {"metadataKey": ADDON_KEY_METADATA_KEY, "metadataValue": key_hash(previous)}
            requests.append(
                {"deleteDeveloperMetadata": {"dataFilter": {"developerMetadataLookup": lookup}}}
            )
        requests.append(
            {
                "createDeveloperMetadata": {
                    "developerMetadata": {
                        "metadataKey": ADDON_KEY_METADATA_KEY,
                        "metadataValue": key_hash(key),
                        "location": {"spreadsheet": True},
                        "visibility": "DOCUMENT",
                    }
                }
            }
        )
        self.client.http_client.batch_update(spreadsheet_id, {"requests": requests})
        self.keys[spreadsheet_id] = key


async def post(
    base: str,
    route: str,
    spreadsheet_id: str,
    key: str | None,
    *,
    forwarded_for: str | None = None,
    **body: Any,
) -> tuple[int, Any]:
    """POST ``{"spreadsheetId": …, **body}`` to ``base + route`` with the key; the status
    and the JSON answer."""
    headers = {KEY_HEADER: key} if key is not None else {}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            base + route, json={"spreadsheetId": spreadsheet_id, **body}, headers=headers
        ) as response,
    ):
        return response.status, await response.json()

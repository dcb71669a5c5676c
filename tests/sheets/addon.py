"""The add-on's side of a sheet's key, played by a test as ``deploy/apps-script/Code.js``
plays it: an editor of the sheet (an account of its own, shared with the sheet as a writer
or a reader in the Sheets fake) makes a key and writes its SHA-256 into the spreadsheet's
developer metadata through the real Sheets API (gspread, as that account); then the test
posts to ``serve`` with the key. The end-to-end test through Caddy runs ``Code.js`` itself
(``tests/sheets/addon_world.js``)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import aiohttp

from sheets.addon_keys import KEY_HEADER
from sheets.client import SheetsClient
from sheets.layout import ADDON_KEY_METADATA_KEY


def new_key() -> str:
    """A key as the add-on makes one: 64 URL-safe characters."""
    return secrets.token_urlsafe(48)


@dataclass
class Editor:
    """Someone with an account of their own on the Sheets fake, acting through the API."""

    email: str
    client: SheetsClient

    def vouch(self, spreadsheet_id: str, key: str) -> None:
        """Replace the sheet's key hash with ``key``'s, as the add-on does (one
        ``batchUpdate``: delete the old entries, create the new one). Raises gspread's
        ``APIError`` (as :class:`~sheets.client.SheetsError`) when this account may not."""
        lookup = {"metadataKey": ADDON_KEY_METADATA_KEY, "locationType": "SPREADSHEET"}
        value = "sha256:" + hashlib.sha256(key.encode()).hexdigest()
        requests: list[dict[str, Any]] = [
            {"deleteDeveloperMetadata": {"dataFilter": {"developerMetadataLookup": lookup}}},
            {
                "createDeveloperMetadata": {
                    "developerMetadata": {
                        "metadataKey": ADDON_KEY_METADATA_KEY,
                        "metadataValue": value,
                        "location": {"spreadsheet": True},
                        "visibility": "DOCUMENT",
                    }
                }
            },
        ]
        self.client.http_client.batch_update(spreadsheet_id, {"requests": requests})


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

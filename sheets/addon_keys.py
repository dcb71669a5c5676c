"""The add-on's credential: one key per spreadsheet, vouched for by the spreadsheet itself.

``harkness-sheets serve`` acts on a spreadsheet (``/sync``, ``/pair``) only for a caller
holding that spreadsheet's key. A key opens one sheet, is made by that sheet's editors, can
be renewed or withdrawn by them or by the operator, and is never stored by the worker: the
worker keeps its SHA-256 only.

How a sheet is connected (``deploy/apps-script/Code.js``, "Harkness → Connect this sheet"):

1. The add-on, run by an editor of the sheet, makes a random key (two
   ``Utilities.getUuid()``: 244 random bits from Java's ``SecureRandom``) and keeps it in the
   sheet's *Document Properties*, which only the script bound to that sheet (or the add-on
   in that document) reads, for someone who may run it: an editor. A viewer cannot run it,
   and a copy of the sheet is a new document with none.
2. It writes the key's SHA-256 into the spreadsheet's developer metadata
   (:data:`~sheets.layout.ADDON_KEY_METADATA_KEY` = ``sha256:<hex>``, visible to the
   document). Writing developer metadata is an edit: only the sheet's editors (and the
   worker's service account) can. Anyone who can read the sheet may read the hash; a key of
   244 random bits cannot be found from it.
3. It sends the key to ``POST /connect``. The worker reads that metadata with its service
   account (one read) and, when it is the key's hash, keeps the hash for the sheet
   (:class:`KeyStore`). From then on ``/sync`` and ``/pair`` for that sheet need the key
   (header :data:`KEY_HEADER`), compared by hash in constant time; no other sheet accepts it.

So a key is "issued" by the sheet: whoever can write its metadata can connect it, and no
one else. A caller asking for another sheet's key has nothing to ask for: the worker hands
out no keys, and ``/connect`` with a key the sheet does not hold is refused (401) without
keeping anything. The sheet stays the authority: "Renew this sheet's key" writes a new hash
and connects the new key (the old one is refused at once); "Disconnect" removes the hash
and the worker's copy; the operator's ``harkness-sheets revoke SPREADSHEET`` removes both
too (the service account can write the sheet), so the old key cannot connect again until an
editor makes a new one; and ``/pair`` checks the hash in the sheet it reads anyway before it
writes. With a database the worker's hashes are shared by every ``serve`` process; without
one they live in this process's memory (:class:`MemoryKeys`), and after a restart the
add-on connects again by itself on its next call (one read).

Why not the alternatives. A worker-wide secret pasted into each sheet is read by every
editor of every sheet and opens them all. A Google identity token
(``ScriptApp.getIdentityToken()``) names the *user*; deciding from it whether that user may
edit a given sheet takes the Drive API's permissions (a second API, another scope, shared
drives and groups to resolve) on every call. The sheet's own metadata answers exactly the
question "may this caller edit this sheet?" with the Sheets API the worker already uses.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from gspread.http_client import ParamsType

from sheets.client import SheetsClient
from sheets.layout import ADDON_KEY_METADATA_KEY

#: The request header that carries a sheet's key.
KEY_HEADER = "X-Harkness-Key"

#: What a key looks like: URL-safe characters, long enough to be unguessable (the add-on's
#: keys have 64). Anything else (other characters, bytes that are not ASCII) is no key.
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{40,128}", re.ASCII)

#: How the hash is written in the sheet's developer metadata.
COMMITMENT_PREFIX = "sha256:"

_COMMITMENT_FIELDS = "developerMetadata(metadataKey,metadataValue,location(locationType))"


class KeyWithdrawn(Exception):
    """The sheet no longer holds the key a request was let in with (renewed or removed
    since): nothing was done."""


def key_digest(key: str | None) -> str | None:
    """The SHA-256 (hex) of a key as a header gave it, or None when it is not a key
    (missing, too short or too long, or holding anything but URL-safe ASCII).

    >>> key_digest("k" * 40)[:16]
    'a3aa41c56e9a8a44'
    >>> key_digest("correct horse battery staple") is None
    True
    >>> key_digest("\\udcff" * 40) is None  # bytes that were not UTF-8
    True
    """
    if key is None or KEY_PATTERN.fullmatch(key) is None:
        return None
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def commitment(digest: str) -> str:
    """The developer metadata value that vouches for a key of this digest.

    >>> commitment("ab12")
    'sha256:ab12'
    """
    return COMMITMENT_PREFIX + digest


def commitment_in(metadata: list[Any]) -> str | None:
    """The key's hash a spreadsheet's own (spreadsheet-level) developer metadata holds.
    Several entries (two editors connecting at once) vouch for none: connect again."""
    values = [
        str(item.get("metadataValue") or "")
        for item in metadata
        if isinstance(item, dict) and item.get("metadataKey") == ADDON_KEY_METADATA_KEY
    ]
    return values[0] if len(values) == 1 else None


def read_commitment(client: SheetsClient, spreadsheet_id: str) -> str | None:
    """Read the key's hash a spreadsheet vouches for (one ``spreadsheets.get`` of its
    developer metadata only), or None when it holds none.

    Raises :class:`~sheets.client.SheetsError` when the service account cannot read it."""
    params: ParamsType = {"fields": _COMMITMENT_FIELDS}
    document = client.http_client.fetch_sheet_metadata(spreadsheet_id, params=params)
    return commitment_in(list(document.get("developerMetadata") or []))


def remove_commitment(client: SheetsClient, spreadsheet_id: str) -> int:
    """Remove the key's hash from a spreadsheet (the operator's revocation): how many
    entries were removed. One ``batchUpdate``."""
    request = {
        "deleteDeveloperMetadata": {
            "dataFilter": {
                "developerMetadataLookup": {
                    "metadataKey": ADDON_KEY_METADATA_KEY,
                    "locationType": "SPREADSHEET",
                }
            }
        }
    }
    answer = client.http_client.batch_update(spreadsheet_id, {"requests": [request]})
    replies = answer.get("replies") or [{}]
    deleted = (replies[0].get("deleteDeveloperMetadata") or {}).get("deletedDeveloperMetadata")
    return len(deleted or [])


class KeyStore(Protocol):
    """Where ``serve`` keeps each connected sheet's key hash: in memory (:class:`MemoryKeys`,
    one process) or in the database every worker shares."""

    async def kept(self, spreadsheet_id: str) -> str | None:
        """The hash of the key the sheet is connected with, or None."""
        ...

    async def keep(self, spreadsheet_id: str, digest: str) -> None:
        """Connect the sheet with the key of this hash (replacing the one before)."""
        ...

    async def forget(self, spreadsheet_id: str, digest: str | None = None) -> bool:
        """Disconnect the sheet (only if connected with ``digest``, when given); whether it
        was connected."""
        ...


@dataclass
class MemoryKeys:
    """The sheets' key hashes in this process's memory (no database): lost on restart, after
    which each add-on connects again on its next call."""

    _digests: dict[str, str] = field(default_factory=dict)

    async def kept(self, spreadsheet_id: str) -> str | None:
        return self._digests.get(spreadsheet_id)

    async def keep(self, spreadsheet_id: str, digest: str) -> None:
        self._digests[spreadsheet_id] = digest

    async def forget(self, spreadsheet_id: str, digest: str | None = None) -> bool:
        if spreadsheet_id not in self._digests:
            return False
        if digest is not None and self._digests[spreadsheet_id] != digest:
            return False
        del self._digests[spreadsheet_id]
        return True

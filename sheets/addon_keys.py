"""The add-on's credential: each editor's own key for one spreadsheet, vouched for by the
spreadsheet itself.

``harkness-sheets serve`` acts on a spreadsheet (``/sync``, ``/pair``) only for a caller
holding a key that spreadsheet vouches for. A key opens one sheet, is made by one of that
sheet's editors, can be withdrawn by them or by the operator, and is never stored by the
worker: the worker keeps its SHA-256 only.

How a sheet is connected (``deploy/apps-script/Code.js``, "Harkness → Connect this sheet"):

1. The add-on, run by an editor of the sheet, makes a random key (two
   ``Utilities.getUuid()``: 244 random bits from Java's ``SecureRandom``) and keeps it in
   that editor's *User Properties* for the script, which no one else reads: not another
   editor, not a viewer (who cannot run the script), not whoever copies the sheet (the copy
   is a new script, and a person's User Properties are never copied).
2. It writes the key's SHA-256 into the spreadsheet's developer metadata
   (:data:`~sheets.layout.ADDON_KEY_METADATA_KEY` = ``sha256:<hex>``, one entry per editor
   who connected, visible to the document). Writing developer metadata is an edit: only the
   sheet's editors (and the worker's service account) can. Anyone who can read the sheet may
   read the hashes; a key of 244 random bits cannot be found from one.
3. It sends the key to ``POST /connect``. The worker reads those hashes with its service
   account (one read) and, when the key's hash is among them, keeps the sheet's hashes
   (:class:`KeyStore`). From then on ``/sync`` and ``/pair`` for that sheet need one of its
   editors' keys (header :data:`KEY_HEADER`), compared by hash; no other sheet accepts it.

So a key is "issued" by the sheet: whoever can write its metadata can connect it, and no
one else. A caller asking for another sheet's key has nothing to ask for: the worker hands
out no keys, and ``/connect`` with a key the sheet does not hold is refused (401) without
keeping anything. The sheet stays the authority. "Connect this sheet" again renews the
editor's key (the old hash leaves the sheet and, at that connect, the worker). "Disconnect
this sheet" withdraws every editor's key: all the hashes leave the sheet and the worker
(an editor takes the sheet back this way when a key may have leaked, then connects again).
The operator's ``harkness-sheets revoke SPREADSHEET`` does the same from the worker's side
(the service account can write the sheet). ``/pair`` checks the hashes in the sheet it
reads anyway before it writes. With a database the worker's hashes are shared by every
``serve`` process; without one they live in this process's memory (:class:`MemoryKeys`),
and after a restart each add-on connects again by itself on its next call (one read).

Why not the alternatives. A worker-wide secret pasted into each sheet is read by every
editor of every sheet and opens them all. A key kept in the script's or the document's
properties is shared by every editor, and may travel with a copy of the sheet made by a
viewer. A Google identity token (``ScriptApp.getIdentityToken()``) names the *user*;
deciding from it whether that user may edit a given sheet takes the Drive API's permissions
(a second API, another scope, shared drives and groups to resolve) on every call. The
sheet's own metadata answers exactly the question "may this caller edit this sheet?" with
the Sheets API the worker already uses.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from gspread.http_client import ParamsType

from sheets.client import SheetsClient
from sheets.layout import ADDON_KEY_METADATA_KEY

if TYPE_CHECKING:
    from sheets.fleet import Fleet

#: The request header that carries a sheet's key.
KEY_HEADER = "X-Harkness-Key"

#: What a key looks like: URL-safe characters, long enough to be unguessable (the add-on's
#: keys have 64). Anything else (other characters, bytes that are not ASCII) is no key.
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{40,128}", re.ASCII)

#: How the hash is written in the sheet's developer metadata.
COMMITMENT_PREFIX = "sha256:"
_DIGEST = re.compile(r"[0-9a-f]{64}", re.ASCII)

_COMMITMENT_FIELDS = "developerMetadata(metadataKey,metadataValue,location(locationType))"


class KeyWithdrawn(Exception):
    """The sheet no longer holds the key a request was let in with (renewed or withdrawn
    since): nothing was done. ``vouched`` is what the sheet holds now."""

    def __init__(self, spreadsheet_id: str, vouched: frozenset[str]) -> None:
        super().__init__(spreadsheet_id)
        self.vouched = vouched


def key_digest(key: str | None) -> str | None:
    """The SHA-256 (hex) of a key as a header gave it, or None when it is not a key
    (missing, too short or too long, or holding anything but URL-safe ASCII).

    >>> key_digest("k" * 40)[:16]
    'dc4c5d17d972b666'
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


def commitments_in(metadata: Iterable[Any]) -> frozenset[str]:
    """The key hashes a spreadsheet's own (spreadsheet-level) developer metadata holds, one
    per editor who connected it."""
    return frozenset(
        str(item.get("metadataValue") or "")
        for item in metadata
        if isinstance(item, dict) and item.get("metadataKey") == ADDON_KEY_METADATA_KEY
    )


def digests_of(vouched: Iterable[str]) -> frozenset[str]:
    """The key digests in a sheet's commitments (entries that are not one are left out).

    >>> sorted(digests_of(["sha256:" + "a" * 64, "sha256:oops", "b" * 64]))
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']
    """
    return frozenset(
        value[len(COMMITMENT_PREFIX) :]
        for value in vouched
        if value.startswith(COMMITMENT_PREFIX)
        and _DIGEST.fullmatch(value[len(COMMITMENT_PREFIX) :])
    )


def read_commitment(client: SheetsClient, spreadsheet_id: str) -> frozenset[str]:
    """Read the key hashes a spreadsheet vouches for (one ``spreadsheets.get`` of its
    developer metadata only).

    Raises :class:`~sheets.client.SheetsError` when the service account cannot read it."""
    params: ParamsType = {"fields": _COMMITMENT_FIELDS}
    document = client.http_client.fetch_sheet_metadata(spreadsheet_id, params=params)
    return commitments_in(document.get("developerMetadata") or [])


def remove_commitment(client: SheetsClient, spreadsheet_id: str) -> int:
    """Remove every key hash from a spreadsheet (the operator's revocation): how many
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
    """Where ``serve`` keeps each connected sheet's key hashes: in memory (:class:`MemoryKeys`,
    one process) or in the database every worker shares."""

    async def kept(self, spreadsheet_id: str) -> frozenset[str]:
        """The hashes of the keys the sheet is connected with (none: not connected)."""
        ...

    async def keep(self, spreadsheet_id: str, digests: Collection[str]) -> None:
        """Connect the sheet with the keys of these hashes, and no others (none: forget
        the sheet)."""
        ...


@dataclass
class MemoryKeys:
    """The sheets' key hashes in this process's memory (no database): lost on restart, after
    which each add-on connects again on its next call."""

    _digests: dict[str, frozenset[str]] = field(default_factory=dict)

    async def kept(self, spreadsheet_id: str) -> frozenset[str]:
        return self._digests.get(spreadsheet_id, frozenset())

    async def keep(self, spreadsheet_id: str, digests: Collection[str]) -> None:
        if digests:
            self._digests[spreadsheet_id] = frozenset(digests)
        else:
            self._digests.pop(spreadsheet_id, None)


@dataclass
class FleetKeys:
    """The sheets' key hashes in the database (:meth:`sheets.fleet.Fleet.addon_keys`):
    every ``serve`` process on it accepts the same keys, and a restart forgets none."""

    fleet: Fleet

    async def kept(self, spreadsheet_id: str) -> frozenset[str]:
        return await self.fleet.addon_keys(spreadsheet_id)

    async def keep(self, spreadsheet_id: str, digests: Collection[str]) -> None:
        await self.fleet.keep_addon_keys(spreadsheet_id, digests)

"""Whether the worker's own tabs still show what it wrote: a TD's edit inside the Standings,
Breakdown, Errors or Awards tab is replaced at the next sync even when the inputs did not change
(as the tabs' protection warning says).

Every write stores, in spreadsheet-level developer metadata (:data:`OUTPUT_METADATA_KEY`),
a digest of how its tabs will look (text, format and note of each cell, :mod:`sheets.looks`:
:func:`written_digest`); a sync whose inputs are unchanged compares it with the digest of the
tabs as read (:func:`read_digest`), without ranking anything. The "Last checked" cell of the
Errors tab, which idle syncs update, is left out of both.

The stored value is ``state:roles:digest``. ``written`` (after a write) and ``seen`` (as
read) are compared; a difference is an edit, and the sync writes the tabs again, storing
``healed``. Should Google show a cell otherwise than :mod:`sheets.looks` predicts (a
text, a format in another spelling), the tabs would never match what was written: so a
difference right after a ``healed`` write is taken as how Google shows the tabs, and stored
as ``seen`` instead of writing again (one extra write at most, never a loop). The write
itself is only of the cells that differ (:mod:`sheets.changes`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sheets.layout import OUTPUT_METADATA_KEY, Role
from sheets.looks import BLANK, Look, trimmed
from sheets.snapshot import Snapshot
from sheets.tabs import CHECKED_CELL, TabContent
from sheets.write import looks_of

__all__ = ["OUTPUT_METADATA_KEY", "Stored", "read_digest", "verdict", "written_digest"]

#: The worker's tabs whose cells are checked.
CHECKED_ROLES = (Role.STANDINGS, Role.BREAKDOWN, Role.ERRORS, Role.AWARDS)
WRITTEN, HEALED, SEEN = "written", "healed", "seen"


@dataclass(frozen=True, slots=True)
class Stored:
    """What the metadata holds: the state, the tabs (by role) and their digest."""

    state: str
    roles: tuple[Role, ...]
    digest: str

    def __str__(self) -> str:
        return f"{self.state}:{','.join(r.value for r in self.roles)}:{self.digest}"

    @classmethod
    def parse(cls, text: str | None) -> Stored | None:
        """The stored value, or None if there is none or it is not one."""
        state, _, rest = (text or "").partition(":")
        names, _, digest = rest.partition(":")
        try:
            roles = tuple(Role(name) for name in names.split(",") if name)
        except ValueError:
            return None
        if state not in (WRITTEN, HEALED, SEEN) or not digest:
            return None
        return cls(state, roles, digest)


def _digest(tabs: Iterable[tuple[Role, Sequence[list[Look]]]]) -> str:
    """A digest of the rows of each tab that are not blank (the checked cell left out):
    rows of looks without trailing blanks, as both :func:`~sheets.write.looks_of` and a
    read (:attr:`sheets.snapshot.Tab.looks`) give them."""
    hasher = hashlib.sha256()
    checked_row, checked_column = CHECKED_CELL
    for role, rows in tabs:
        hasher.update(f"\x1e{role.value}".encode())
        for r, row in enumerate(rows):
            if role is Role.ERRORS and r == checked_row and len(row) > checked_column:
                row = trimmed([*row[:checked_column], BLANK, *row[checked_column + 1 :]])
            if row:
                hasher.update(f"\x1f{r}\x1d{row!r}".encode())
    return hasher.hexdigest()[:32]


def written_digest(
    contents: Sequence[TabContent], looks: Mapping[str, list[list[Look]]] | None = None
) -> Stored:
    """How the tabs about to be written will look (``looks``: each one's
    :func:`~sheets.write.looks_of`, by title, when already known)."""
    tabs = sorted((c for c in contents if c.role in CHECKED_ROLES), key=lambda c: c.role.value)
    digest = _digest(
        (c.role, looks[c.title] if looks and c.title in looks else looks_of(c)) for c in tabs
    )
    return Stored(WRITTEN, tuple(c.role for c in tabs), digest)


def read_digest(snapshot: Snapshot, titles: dict[Role, str], roles: Iterable[Role]) -> str:
    """How the worker's tabs of these roles look now (a tab missing or not the worker's
    counts as empty)."""
    tabs: list[tuple[Role, Sequence[list[Look]]]] = []
    for role in sorted(roles, key=lambda r: r.value):
        tab = snapshot.tab(titles[role])
        ours = tab is not None and tab.role is role
        tabs.append((role, (tab.looks or []) if ours and tab is not None else []))
    return _digest(tabs)


def verdict(stored: Stored | None, seen: str) -> str:
    """What an unchanged-input sync does about its tabs: ``"same"`` (nothing), ``"heal"``
    (write them again: someone edited them), or ``"record"`` (store ``seen``: no digest yet,
    or how Google shows the tabs after a healing write).

    >>> verdict(Stored(WRITTEN, (), "a"), "a"), verdict(Stored(WRITTEN, (), "a"), "b")
    ('same', 'heal')
    >>> verdict(Stored(HEALED, (), "a"), "b"), verdict(None, "b")
    ('record', 'record')
    """
    if stored is None:
        return "record"
    if stored.digest == seen:
        return "same"
    return "record" if stored.state == HEALED else "heal"

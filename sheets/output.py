"""Whether the worker's own tabs still show what it wrote: a TD's edit inside the Standings,
Breakdown or Errors tab is replaced at the next sync even when the inputs did not change
(as the tabs' protection warning says).

Every write stores, in spreadsheet-level developer metadata (:data:`OUTPUT_METADATA_KEY`),
a digest of the text its tabs will show (:func:`written_digest`); a sync whose inputs are
unchanged compares it with the digest of the tabs as read (:func:`read_digest`). The "Last
checked" cell of the Errors tab, which idle syncs update, is left out of both.

The stored value is ``state:roles:digest``. ``written`` (after a write) and ``seen`` (as
read) are compared; a difference is an edit, and the sync writes the tabs again, storing
``healed``. Should the text Google shows for a value ever differ from what
:func:`shown` predicts, the tabs would never match what was written: so a difference right
after a ``healed`` write is taken as how Google shows the tabs, and stored as ``seen``
instead of writing again (one extra write at most, never a loop).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sheets.layout import OUTPUT_METADATA_KEY, Role
from sheets.snapshot import Snapshot
from sheets.tabs import CHECKED_CELL, OutCell, TabContent

__all__ = ["OUTPUT_METADATA_KEY", "Stored", "read_digest", "verdict", "written_digest"]

#: The worker's tabs whose cells are checked.
CHECKED_ROLES = (Role.STANDINGS, Role.BREAKDOWN, Role.ERRORS)
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


def shown(cell: OutCell) -> str:
    """The text Sheets shows for a value written with no number format (its
    ``formattedValue``): whole numbers without decimals, others to 15 significant digits.

    >>> [shown(OutCell(v)) for v in (None, "W3", 7, 7.0, 43.25)]
    ['', 'W3', '7', '7', '43.25']
    """
    value = cell.value
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, int) or value.is_integer():
        return str(int(value))
    return f"{value:.15g}"


def _digest(tabs: Iterable[tuple[Role, Iterable[tuple[int, int, str]]]]) -> str:
    """A digest of the non-empty cells of each tab (the checked cell left out)."""
    hasher = hashlib.sha256()
    for role, cells in tabs:
        hasher.update(f"\x1e{role.value}".encode())
        for r, c, text in cells:
            if text and not (role is Role.ERRORS and (r, c) == CHECKED_CELL):
                hasher.update(f"\x1f{r},{c}\x1d{text}".encode())
    return hasher.hexdigest()[:32]


def written_digest(contents: Sequence[TabContent]) -> Stored:
    """What the tabs about to be written will show."""
    tabs = sorted((c for c in contents if c.role in CHECKED_ROLES), key=lambda c: c.role.value)
    digest = _digest(
        (
            c.role,
            ((r, col, shown(cell)) for r, row in enumerate(c.rows) for col, cell in enumerate(row)),
        )
        for c in tabs
    )
    return Stored(WRITTEN, tuple(c.role for c in tabs), digest)


def read_digest(snapshot: Snapshot, titles: dict[Role, str], roles: Iterable[Role]) -> str:
    """What the worker's tabs of these roles show now (a tab missing or not the worker's
    counts as empty)."""
    tabs = []
    for role in sorted(roles, key=lambda r: r.value):
        tab = snapshot.tab(titles[role])
        rows = tab.rows if tab is not None and tab.role is role else []
        tabs.append(
            (
                role,
                ((r, c, text) for r, row in enumerate(rows) for c, text in enumerate(row)),
            )
        )
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

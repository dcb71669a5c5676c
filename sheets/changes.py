"""What to change in one of the worker's tabs so that it shows new contents, found by
comparing the tab as the sync's read saw it with what the worker is about to write.

One corrected result moves a few players by hundreds of places: every row between a player's
old and new place shifts by one. Compared where they stand, those rows would all differ;
compared by what they are about (:attr:`sheets.tabs.TabContent.keys`: the player, the
player's tiebreak, the problem), only the moved rows and the cells whose value, format or
note changed (a place, a shading) do. So:

1. rows are matched by key; the longest run of matches already in the new order stays
   where it is, and the other matched rows are moved, in blocks (``moveDimension``: a
   moved row keeps its cells, formats and notes);
2. between two matched rows, the other rows are paired in order; the old ones left over are
   deleted and the new ones left over inserted (``deleteDimension``, ``insertDimension``);
3. the tab is then resized to its new grid;
4. each cell is compared with what it will be (:mod:`sheets.looks`): cells whose background
   alone changes (a tied group's tint, when the groups above it changed) are painted, a
   rectangle per colour and run of rows (``repeatCell``), and the other cells that differ
   are gathered in rectangles (:class:`Area`) to write whole, after the paint. Inserted
   rows, and rows or columns the resize adds, are written whole: Google may give them the
   format of their neighbours.

A row the read saw with no key (a header, a footer line, a row a TD added) is compared where
it is. Nothing here is a request: :mod:`sheets.write` words them.

>>> a = [[("h", (), "")], [("1", (), "")], [("2", (), "")], [("3", (), "")]]
>>> b = [[("h", (), "")], [("3", (), "")], [("1", (), "")], [("2", (), "")]]
>>> change = compare(a, b, (0,), (4, 1), (4, 1))
>>> change.moves, change.deleted, change.inserted, change.areas
([(3, 4, 1)], [], [], [])

Player 3 goes up: its row moves to row 1 (the second), and no cell needs writing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from sheets.looks import BLANK, Look, row_key, split_background

JOIN = 2
"""Cells left unchanged between two changed ones of a row that are written with them rather
than starting another rectangle (a rectangle costs more bytes than a couple of cells)."""


@dataclass(frozen=True, slots=True)
class Area:
    """Rows ``top`` to ``bottom`` and columns ``left`` to ``right`` (0-based, ends
    excluded) of the tab as it will be."""

    top: int
    bottom: int
    left: int
    right: int

    @property
    def cells(self) -> int:
        return (self.bottom - self.top) * (self.right - self.left)


@dataclass
class Changes:
    """How to turn a tab as read into its new contents, in this order."""

    moves: list[tuple[int, int, int]] = field(default_factory=list)
    """Blocks of rows moved, in order (:attr:`Alignment.moves`)."""
    deleted: list[tuple[int, int]] = field(default_factory=list)
    """Ranges of rows after the moves, the lowest first (deleted the highest first, so that
    each range keeps its row numbers)."""
    inserted: list[tuple[int, int]] = field(default_factory=list)
    """Ranges of rows of the tab as it will be, the highest last: inserted in this order
    (after the deletions), each lands at its final place."""
    rows_after: int = 0
    """The tab's row count after the deletions and insertions, before the resize."""
    paints: list[tuple[Area, tuple[int, int]]] = field(default_factory=list)
    """Rectangles whose cells take a background colour (only), each with a cell of the new
    contents that has it; before :attr:`areas`."""
    areas: list[Area] = field(default_factory=list)
    """The rectangles to write whole, in the tab as it will be (the last word)."""

    @property
    def cells(self) -> int:
        """How many cells the rectangles cover."""
        return sum(area.cells for area in self.areas)


def _increasing(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (in new order) whose old rows increase too:
    the rows that can stay where they are (patience sorting, n log n)."""
    tails: list[int] = []
    ends: list[int] = []
    back = [-1] * len(pairs)
    for i, (old, _) in enumerate(pairs):
        k = bisect_left(tails, old)
        if k == len(tails):
            tails.append(old)
            ends.append(i)
        else:
            tails[k] = old
            ends[k] = i
        back[i] = ends[k - 1] if k else -1
    kept: list[tuple[int, int]] = []
    i = ends[-1] if ends else -1
    while i >= 0:
        kept.append(pairs[i])
        i = back[i]
    return kept[::-1]


INSERTED = -1
MAX_MOVES = 300
"""Blocks of rows moved at most (each a ``moveDimension``); past that, rows out of order are
written where they land, like rows without a key (a tab mostly reordered is written whole)."""


@dataclass
class Alignment:
    """How the rows of a tab as read become its new rows: ``moves`` first, each
    ``(start, end, destination)`` in the row numbers of the moment (``destination`` counted
    before the rows leave, as ``moveDimension`` counts it); then the rows at ``deleted``
    (row numbers after the moves) go. ``source`` says where each new row comes from (an
    old row, :data:`INSERTED`, or None: a row past the old contents), ``trailing`` which old
    rows are left past the new contents."""

    moves: list[tuple[int, int, int]]
    source: list[int | None]
    deleted: list[int]
    trailing: list[int]


def _blocks(pairs: Sequence[tuple[int, int]], kept: set[tuple[int, int]]) -> list[list[int]]:
    """The matched rows out of order (not ``kept``), by their place in ``pairs``, in blocks
    that are consecutive both as read and as written (a player's rows of the breakdown)."""
    blocks: list[list[int]] = []
    for k, (old, new) in enumerate(pairs):
        if (old, new) in kept:
            continue
        last = blocks[-1][-1] if blocks else -2
        if last == k - 1 and pairs[last] == (old - 1, new - 1):
            blocks[-1].append(k)
        else:
            blocks.append([k])
    return blocks


def _moves(
    size: int, pairs: Sequence[tuple[int, int]], kept: set[tuple[int, int]]
) -> tuple[list[tuple[int, int, int]], list[int]]:
    """The moves that put every matched row in the new order, and the old rows in their
    order after them. A block goes right after the matched row before it in the new order
    (the first one, before the first row that stays)."""
    order = list(range(size))
    moves: list[tuple[int, int, int]] = []
    first_kept = min((old for old, _ in kept), default=0)
    for block in _blocks(pairs, kept):
        start = order.index(pairs[block[0]][0])
        count = len(block)
        k = block[0]
        destination = order.index(pairs[k - 1][0]) + 1 if k else order.index(first_kept)
        if start <= destination <= start + count:
            continue  # already in place
        moved = order[start : start + count]
        del order[start : start + count]
        at = destination - count if destination > start else destination
        order[at:at] = moved
        moves.append((start, start + count, destination))
    return moves, order


def align(old: Sequence[Hashable | None], new: Sequence[Hashable | None]) -> Alignment:
    """Match the rows of a tab as read (their keys, None for none) with its new rows.

    >>> found = align([None, "a", "x", "b", "c"], [None, "c", "a", "b", "y"])
    >>> found.moves, found.source, found.deleted, found.trailing
    ([(4, 5, 1)], [0, 4, 1, 3, None], [3], [])

    Row "c" moves up, to row 1 (``destination``), and the rows from "a" on go down one; "x"
    (now at row 3) goes; "y" is new, past the old contents.
    """
    where: dict[Hashable, int] = {}
    for i, key in enumerate(old):
        if key is not None:
            where.setdefault(key, i)
    pairs: list[tuple[int, int]] = []
    taken: set[Hashable] = set()
    for j, key in enumerate(new):
        if key is not None and key in where and key not in taken:
            taken.add(key)
            pairs.append((where[key], j))
    kept = set(_increasing(pairs))
    if len(_blocks(pairs, kept)) > MAX_MOVES:
        pairs = [pair for pair in pairs if pair in kept]
    moves, order = _moves(len(old), pairs, kept)
    at = {row: n for n, row in enumerate(order)}
    source: list[int | None] = [None] * len(new)
    deleted: list[int] = []
    trailing: list[int] = []
    before_old, before_new = -1, -1
    ends = [*((at[i], j) for i, j in pairs), (len(old), len(new))]
    for n, (at_old, at_new) in enumerate(ends):
        last = n == len(ends) - 1
        olds = range(before_old + 1, at_old)
        news = range(before_new + 1, at_new)
        for i, j in zip(olds, news, strict=False):
            source[j] = order[i]
        gone = olds[len(news) :]
        if last:
            trailing.extend(order[i] for i in gone)
        else:
            deleted.extend(gone)
        for j in news[len(olds) :]:
            source[j] = None if last else INSERTED
        if not last:
            source[at_new] = order[at_old]
        before_old, before_new = at_old, at_new
    return Alignment(moves, source, deleted, trailing)


def _runs(indexes: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive indexes as ranges (end excluded)."""
    runs: list[tuple[int, int]] = []
    for i in indexes:
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return runs


def _spans(columns: set[int]) -> tuple[tuple[int, int], ...]:
    """Columns as spans (``JOIN`` columns not among them may be inside one)."""
    spans: list[tuple[int, int]] = []
    for c in sorted(columns):
        if spans and c - spans[-1][1] <= JOIN:
            spans[-1] = (spans[-1][0], c + 1)
        else:
            spans.append((c, c + 1))
    return tuple(spans)


def _repainted(before: Look, after: Look) -> Hashable | None:
    """The new background of a cell whose background alone changes (to a colour), else
    None."""
    if before[0] != after[0] or before[2] != after[2]:
        return None
    old, old_rest = split_background(before[1])
    new, new_rest = split_background(after[1])
    return new if new is not None and new != old and old_rest == new_rest else None


def compare(
    old: Sequence[Sequence[Look]],
    new: Sequence[Sequence[Look]],
    keys: Sequence[int],
    old_grid: tuple[int, int],
    new_grid: tuple[int, int],
) -> Changes:
    """The changes that turn a tab whose cells look like ``old`` (rows from A1, as read)
    and whose grid is ``old_grid`` (rows, columns) into ``new`` on a grid of ``new_grid``;
    rows are matched by the texts of their ``keys`` columns (never the header row)."""
    old_keys = [row_key(row, keys) if i else None for i, row in enumerate(old)]
    new_keys = [row_key(row, keys) if i else None for i, row in enumerate(new)]
    found = align(old_keys, new_keys)
    change = Changes(moves=found.moves)
    change.deleted = _runs(found.deleted)
    inserted = [j for j, i in enumerate(found.source) if i == INSERTED]
    change.inserted = _runs(inserted)
    rows, columns = new_grid
    change.rows_after = max(old_grid[0], len(old)) - len(found.deleted) + len(inserted)
    known = min(columns, old_grid[1])  # columns the resize adds are written whole
    areas = change.areas
    if columns > known:
        areas.append(Area(0, rows, known, columns))
    if rows > change.rows_after:
        areas.append(Area(change.rows_after, rows, 0, known))
    areas += [Area(top, bottom, 0, known) for top, bottom in change.inserted]
    whole: dict[int, set[int]] = {}
    repaint: dict[Hashable, dict[int, set[int]]] = {}
    for p in range(min(rows, change.rows_after)):
        target = new[p] if p < len(new) else ()
        if p < len(new):
            source = found.source[p]
        else:
            t = p - len(new)
            source = found.trailing[t] if t < len(found.trailing) else None
        before = old[source] if source is not None and source != INSERTED else ()
        if source == INSERTED or before == target:
            continue
        for c in range(known):
            was = before[c] if c < len(before) else BLANK
            will = target[c] if c < len(target) else BLANK
            if was != will:
                colour = _repainted(was, will)
                if colour is None:
                    whole.setdefault(p, set()).add(c)
                else:
                    repaint.setdefault(colour, {}).setdefault(p, set()).add(c)
    _paint(change, repaint, whole, new)
    open_spans: dict[tuple[int, int], int] = {}
    previous = -2
    for p in [*sorted(whole), -2]:  # -2: the end, where every span ends
        spans = _spans(whole[p]) if p >= 0 else ()
        for span in list(open_spans):
            if p != previous + 1 or span not in spans:
                areas.append(Area(open_spans.pop(span), previous + 1, *span))
        for span in spans:
            open_spans.setdefault(span, p)
        previous = p
    return change


def _paint(
    change: Changes,
    repaint: dict[Hashable, dict[int, set[int]]],
    whole: dict[int, set[int]],
    new: Sequence[Sequence[Look]],
) -> None:
    """Cells whose background alone changes (a tied group's tint, when the groups above
    changed) are painted, each colour over runs of rows (one ``repeatCell`` each); a cell
    under a paint that must not take its colour (the cell that broke a tie) is written
    whole afterwards."""
    by_count = sorted(
        repaint.items(), key=lambda item: (-sum(map(len, item[1].values())), repr(item[0]))
    )
    for colour, cells in by_count:
        for top, bottom in _runs(sorted(cells)):
            left = min(min(cells[r]) for r in range(top, bottom))
            right = max(max(cells[r]) for r in range(top, bottom)) + 1
            change.paints.append((Area(top, bottom, left, right), (top, min(cells[top]))))
            for r in range(top, bottom):
                target = new[r] if r < len(new) else ()
                for c in range(left, right):
                    will = target[c] if c < len(target) else BLANK
                    if c not in cells[r] and split_background(will[1])[0] != colour:
                        whole.setdefault(r, set()).add(c)

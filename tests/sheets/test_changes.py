"""What :func:`sheets.changes.compare` plans turns any tab as read into its new contents:
replayed on a model of the grid (moves, deletions and insertions as the Sheets API reference
describes them, then the resize, then the rectangles written), every cell ends up as it must
be, and none is left that the write could not know (an inserted row, a column the resize
added)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sheets.changes import MAX_MOVES, align, compare
from sheets.looks import BACKGROUND, BLANK, Look, split_background

UNKNOWN: Look = ("?", (), "?")
"""A cell whose look the worker cannot know: Google may give it its neighbours' format."""


def _cell(text: str, shade: int) -> Look:
    """A cell with no background (0), or one of two (1, 2); bold when ``text`` is "b"."""
    fmt: list[tuple[str, object]] = [("textFormat.bold", True)] if text == "b" else []
    if shade:
        fmt.append((BACKGROUND, (230, 230, 200 + shade)))
    return (text, tuple(sorted(fmt)), "")


def _replay(
    old: list[list[Look]], old_grid: tuple[int, int], new: list[list[Look]], keys: tuple[int, ...]
) -> list[list[Look]]:
    rows, columns = len(new) + 2, max((len(r) for r in new), default=1) + 1
    change = compare(old, new, keys, old_grid, (rows, columns))
    grid = [[*row, *[BLANK] * (old_grid[1] - len(row))] for row in old]
    grid += [[BLANK] * old_grid[1] for _ in range(old_grid[0] - len(old))]
    for start, end, destination in change.moves:
        block = grid[start:end]
        del grid[start:end]
        at = destination - (end - start) if destination > start else destination
        grid[at:at] = block
    for start, end in reversed(change.deleted):
        del grid[start:end]
    for start, end in change.inserted:
        grid[start:start] = [[UNKNOWN] * old_grid[1] for _ in range(end - start)]
    assert len(grid) == change.rows_after
    grid = [row[:columns] + [UNKNOWN] * (columns - len(row)) for row in grid[:rows]]
    grid += [[UNKNOWN] * columns for _ in range(rows - len(grid))]
    for area, (row, column) in change.paints:
        colour = split_background(new[row][column][1])[0]
        for r in range(area.top, area.bottom):
            for c in range(area.left, area.right):
                text, fmt, note = grid[r][c]
                rest = split_background(fmt)[1]
                grid[r][c] = (text, tuple(sorted([*rest, (BACKGROUND, colour)])), note)
    for area in change.areas:
        for r in range(area.top, area.bottom):
            for c in range(area.left, area.right):
                target = new[r] if r < len(new) else []
                grid[r][c] = target[c] if c < len(target) else BLANK
    return grid


@st.composite
def _tabs(draw: st.DrawFn) -> tuple[list[list[Look]], tuple[int, int], list[list[Look]]]:
    """A tab as read (a header, rows keyed by column 1 or not, a TD's stray rows) and new
    contents: the same players reordered, some gone, some new, some cells changed."""
    players = draw(st.lists(st.integers(1, 40), unique=True, max_size=25))
    texts = st.sampled_from(["", "a", "b", "1", "2"])
    shades = st.integers(0, 2)

    def row(key: str) -> list[Look]:
        cells = [_cell(draw(texts), draw(shades)), _cell(key, 0)]
        return cells + [_cell(draw(texts), draw(shades)) for _ in range(draw(st.integers(0, 3)))]

    def shaded(looks: list[Look]) -> list[Look]:
        """The same row, its cells' backgrounds changed here and there (a group's tint)."""
        return [
            _cell(text, draw(shades)) if draw(st.booleans()) else (text, fmt, note)
            for text, fmt, note in looks
        ]

    old = [[_cell("#", 1), _cell("Name", 1)]]
    old += [row(str(p)) if draw(st.integers(0, 9)) else row("") for p in players]
    was = {row[1][0]: row for row in old[1:]}
    kept = draw(st.permutations([p for p in players if draw(st.integers(0, 4))]))
    new = [[_cell("#", 1), _cell("Name", 1)]]
    for p in [*kept, *draw(st.lists(st.integers(41, 60), unique=True, max_size=5))]:
        same = str(p) in was and draw(st.booleans())
        new.append(shaded(was[str(p)]) if same else row(str(p)))
    new += [[_cell("footer", 0)]] * draw(st.integers(0, 2))
    width = max(len(r) for r in old) + draw(st.integers(0, 2))
    return old, (len(old) + draw(st.integers(0, 3)), width), new


@given(_tabs())
def test_the_planned_changes_turn_the_tab_as_read_into_its_new_contents(
    tab: tuple[list[list[Look]], tuple[int, int], list[list[Look]]],
) -> None:
    old, old_grid, new = tab
    grid = _replay(old, old_grid, new, (1,))
    columns = len(grid[0])
    expected = [[*row, *[BLANK] * (columns - len(row))] for row in new]
    expected += [[BLANK] * columns for _ in range(len(grid) - len(new))]
    assert grid == expected


def test_rows_in_their_old_order_are_left_in_place_and_a_moved_block_moves_once() -> None:
    """The breakdown's four rows of a player who went up are one move; the rows between
    them and the header stay."""
    old: list[str | None] = [None, *(f"{p}{t}" for p in "ABCD" for t in "wxyz")]
    new: list[str | None] = [None, *(f"{p}{t}" for p in "ADBC" for t in "wxyz")]
    found = align(old, new)
    assert found.moves == [(13, 17, 5)]
    assert found.deleted == found.trailing == []
    assert found.source == [0, *range(1, 5), *range(13, 17), *range(5, 13)]


def test_a_tab_mostly_reordered_is_not_moved_row_by_row() -> None:
    size = 2 * MAX_MOVES + 10
    old: list[str | None] = [None, *map(str, range(size))]
    new: list[str | None] = [None, *(str(i ^ 1) for i in range(size))]  # pairs swapped
    found = align(old, new)
    assert found.moves == []  # each row is written where it lands instead
    assert len(found.deleted) + len(found.trailing) <= 1

"""The crosstable text/CSV reader: forgiving in spelling, exact about where a problem is."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.formats.crosstable import parse_cell, read_crosstable, write_crosstable
from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.problems import HarknessError, Problem


def problems_of(text: str) -> list[Problem]:
    with pytest.raises(HarknessError) as caught:
        read_crosstable(text, path="club.txt")
    return list(caught.value.problems)


@pytest.mark.parametrize(
    ("cell", "entry"),
    [
        ("W9 (w)", RoundEntry.win(9, Colour.WHITE)),
        ("d5 (B)", RoundEntry.draw(5, Colour.BLACK)),
        ("½5", RoundEntry.draw(5)),
        ("=5", RoundEntry.draw(5)),
        ("L3", RoundEntry.loss(3)),
        ("X9", RoundEntry.forfeit_win(9)),
        ("F9", RoundEntry.forfeit_loss(9)),
        ("B", RoundEntry(EntryKind.FULL_BYE)),
        ("H", RoundEntry(EntryKind.HALF_BYE)),
        ("U", RoundEntry(EntryKind.ZERO_BYE)),
        ("-", RoundEntry(EntryKind.WITHDRAWN)),
        ("", RoundEntry(EntryKind.ABSENT)),
    ],
)
def test_every_cell_of_the_notation(cell: str, entry: RoundEntry) -> None:
    assert parse_cell(cell) == entry


def test_empty_cells_after_the_last_game_mean_withdrawn() -> None:
    t = read_crosstable(
        "#\tName\tRd 1\tRd 2\tRd 3\n1\tA\tW2\t\t\n2\tB\tL1\tW3\tD4\n"
        "3\tC\tW4\tL2\tU\n4\tD\tL3\tH\tD2\n"
    )
    assert [e.kind for e in t.player(1).entries] == [
        EntryKind.WIN,
        EntryKind.WITHDRAWN,
        EntryKind.WITHDRAWN,
    ]
    assert t.player(1).withdrawn_after == 1


def test_empty_cells_of_a_round_not_yet_played_are_not_a_withdrawal() -> None:
    """Byes typed ahead of time for round 2 (no game result in it yet): everyone else's
    empty round-2 cell is "not yet paired", not a withdrawal; the byes stay for round 2."""
    t = read_crosstable("#\tName\tRd 1\tRd 2\n1\tA\tW2\tH\n2\tB\tL1\t\n3\tC\tB\tU\n")
    assert [[e.kind for e in p.entries] for p in t.players] == [
        [EntryKind.WIN, EntryKind.HALF_BYE],
        [EntryKind.LOSS, EntryKind.ABSENT],
        [EntryKind.FULL_BYE, EntryKind.ZERO_BYE],
    ]
    assert t.player(2).withdrawn_after is None
    # Two players only, byes all round: rounds 2 and 3 are not played, so A has not withdrawn.
    t = read_crosstable("#\tName\tRd 1\tRd 2\tRd 3\n1\tA\tW2\t\t\n2\tB\tL1\tU\tU\n")
    assert [e.kind for e in t.player(1).entries] == [
        EntryKind.WIN,
        EntryKind.ABSENT,
        EntryKind.ABSENT,
    ]
    # A withdrawal in a round played stays one; the round not yet played stays empty.
    t = read_crosstable("#\tName\tRd 1\tRd 2\tRd 3\n1\tA\tW2\t\t\n2\tB\tL1\tW3\tH\n3\tC\tU\tL2\t\n")
    assert [e.kind for e in t.player(1).entries] == [
        EntryKind.WIN,
        EntryKind.WITHDRAWN,
        EntryKind.ABSENT,
    ]


def test_aligned_text_with_empty_cells_reads_by_column_position() -> None:
    text = (
        "#  Name  Rd 1    Rd 2    Rd 3\n"
        "1  Ann   W2 (w)          W3\n"
        "2  Bob   L1 (b)  H       U\n"
        "3  Cy    U       H       L1\n"
    )
    t = read_crosstable(text)
    assert [e.kind for e in t.player(1).entries] == [EntryKind.WIN, EntryKind.ABSENT, EntryKind.WIN]


def test_csv_with_quotes_and_a_rating_column() -> None:
    text = '#,Name,Rating,Rd 1\n1,"Smith, Ann",1500,W2 (w)\n2,Bob,unr,L1 (b)\n'
    t = read_crosstable(text)
    assert t.player(1).name == "Smith, Ann" and t.player(1).rating == 1500
    assert t.player(2).rating is None


def test_an_unknown_cell_names_file_line_column_and_what_was_expected() -> None:
    (problem,) = problems_of("#  Name  Rd 1  Rd 2\n1  Ann  W2    Q7\n2  Bob  L1    U\n")
    assert (problem.path, problem.line, problem.column) == ("club.txt", 2, 15)
    assert "'Q7' is not a round entry; expected e.g. 'W9 (w)'" in problem.message
    assert str(problem).startswith("club.txt:2:15: Rd 2:")


def test_an_opponent_out_of_range_is_located_at_its_cell() -> None:
    (problem,) = problems_of("#,Name,Rd 1\n1,Ann,W99\n2,Bob,U\n")
    assert (problem.line, problem.column, problem.player, problem.round) == (2, 7, 1, 1)
    assert "there is no player 99" in problem.message


def test_every_problem_is_reported_at_once() -> None:
    problems = problems_of("#\tName\tRd 1\tRd 2\nx\tAnn\tW2\tW2\n2\t\tW1\tZZ\n")
    assert [(p.line, p.column) for p in problems] == [(2, 1), (3, 3), (3, 7)]


def test_sides_that_disagree_are_reported_once_with_both_places() -> None:
    (problem,) = problems_of("#,Name,Rd 1\n1,Ann,W2\n2,Bob,W1\n")
    assert (problem.line, problem.player, problem.round) == (2, 1, 1)
    assert "player 1 has W2 but player 2 has 'W1'" in problem.message
    assert "(W2 for player 1 means L1 for player 2)" in problem.message


def test_a_header_without_rounds_or_names_is_explained() -> None:
    no_number, rounds = problems_of("Player,Rd 2\n1,Ann\n")
    assert "needs a '#' column" in no_number.message
    assert "'Rd 1', 'Rd 2', … in order (found rounds [2])" in rounds.message
    assert (rounds.line, rounds.column) == (1, 1)


def test_an_empty_file_is_an_error_not_an_empty_tournament() -> None:
    (problem,) = problems_of("\n\n")
    assert "empty" in problem.message


@pytest.mark.parametrize("separator", ["  ", ",", "\t"])
def test_write_then_read_is_the_identity(separator: str) -> None:
    t = read_crosstable(
        "#,Name,Rating,Rd 1,Rd 2,Rd 3\n1,Ann,1500,W2 (w),H,X3\n"
        "2,Bob,,L1 (b),B,U\n3,Cy,1200,U,-,F1\n"
    )
    assert read_crosstable(write_crosstable(t, separator=separator)) == t


@pytest.mark.parametrize("separator", ["  ", ",", "\t"])
def test_the_start_date_is_a_details_line_above_the_header(separator: str) -> None:
    """``Start date: …`` above the header row is the section's start date (TRF-16 record
    042's), as written; a readable one is written back in ISO form, and read back."""
    table = "#,Name,Rd 1\n1,Ann,W2\n2,Bob,L1\n"
    assert read_crosstable(table).start_date == ""
    t = read_crosstable("Start date: 2026/12/01\n" + table)
    assert t.start_date == "2026/12/01"
    assert [str(e) for e in t.player(1).entries] == ["W2"]
    written = write_crosstable(t, separator=separator)
    assert written.startswith("Start date: 2026-12-01\n")
    assert read_crosstable(written) == replace(t, start_date="2026-12-01")
    unreadable = replace(t, start_date="soon")  # decides nothing (fide-2024), not written
    assert write_crosstable(unreadable, separator=separator).startswith("#")


def test_a_spreadsheets_start_date_line_is_read_and_a_second_one_is_refused() -> None:
    table = "#,Name,Rd 1\n1,Ann,W2\n2,Bob,L1\n"
    for line in (
        "Start date: 2026-12-01,,",
        "start date,2026-12-01,,",
        '"Start date: 2026-12-01"',
        '"Start date","2026-12-01"',
        "Start date\t2026-12-01\t\t",
    ):
        assert read_crosstable(f"{line}\n{table}").start_date == "2026-12-01", line
    (twice,) = problems_of("Start date: 2026-12-01\n\nStart date: 2026-12-02\n" + table)
    assert (twice.code, twice.line, twice.value) == ("start-date-twice", 3, "2026-12-02")
    assert str(twice) == "club.txt:3:1: the start date is given twice (first on line 1)"
    (alone,) = problems_of("Start date: 2026-12-01\n")
    assert alone.code == "empty-file"


@pytest.mark.parametrize("separator", ["  ", "\t", ","])
def test_a_double_forfeit_is_f_on_both_rows_and_writes_back(separator: str) -> None:
    # Round 1: neither Ann nor Bob came; Cy had the bye.
    rows = [
        ["#", "Name", "Rd 1", "Rd 2"],
        ["1", "Ann", "F2", "W3"],
        ["2", "Bob", "F1", "B"],
        ["3", "Cy", "B", "L1"],
    ]
    text = "".join(separator.join(row) + "\n" for row in rows)
    t = read_crosstable(text)
    assert t.player(1).entries[0] == RoundEntry.forfeit_loss(2)
    assert t.player(2).entries[0] == RoundEntry.forfeit_loss(1)
    assert [p.half_points for p in t] == [2, 2, 2]
    assert not t.player(1).entries[0].played and not t.player(2).entries[0].played
    written = write_crosstable(t, separator=separator)
    assert "F2" in written and "F1" in written
    assert read_crosstable(written) == t


def test_a_forfeit_loss_against_a_forfeit_win_for_someone_else_is_still_refused() -> None:
    problems = problems_of("#\tName\tRd 1\n1\tAnn\tF2\n2\tBob\tX3\n3\tCy\tF2\n")
    assert any("player 2 has 'X3'" in p.message for p in problems)


@pytest.mark.parametrize("half", ["½", "1/2", "0.5", "=", "1/2 - 1/2"])
def test_a_half_point_alone_gets_the_half_point_bye_hint(half: str) -> None:
    (problem,) = problems_of(f"#,Name,Rd 1,Rd 2\n1,Ann,W2,{half}\n2,Bob,L1,H\n")
    assert problem.line == 2
    assert f"{half!r} is not a round entry; a half point alone: for a half-point bye write H" in (
        problem.message
    )


def test_sides_that_disagree_name_both_players_and_the_other_player() -> None:
    with pytest.raises(HarknessError) as caught:
        Tournament(
            (
                Player(7, "Ann", (RoundEntry.win(9),)),
                Player(9, "Bob", (RoundEntry.win(7),)),
            ),
            1,
        )
    (problem,) = caught.value.problems
    assert (problem.player, problem.round, problem.other) == (7, 1, 9)
    assert problem.message.startswith("player 7 has W9 but player 9 has 'W7'")

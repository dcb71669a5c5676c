"""Hostile and careless input: each cause of a traceback, a hang or a memory blow-up once
found by fuzzing the ``harkness`` command, reproduced and answered with a located error
(file:line:column and what was expected), exit status 2, and the limit named when one is hit.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main
from core.examples import example_path
from core.formats import read_text
from core.formats.crosstable import read_crosstable, write_crosstable
from core.formats.trf import read_trf, write_trf
from core.limits import MAX_CELL_CHARS, MAX_LINE_CHARS, MAX_PLAYER_ROUNDS, MAX_ROUNDS, QUOTED_CHARS
from core.model import Player, RoundEntry, Tournament
from core.problems import HarknessError
from core.standings import compute_standings

TRF_PLAYER = "001 {id:>4}      {name:<33} {rating:>4}                             0.0 {id:>4}"


def trf_line(player_id: int | str, name: str = "Ann", rating: str = "", rounds: str = "") -> str:
    return TRF_PLAYER.format(id=player_id, name=name, rating=rating) + rounds


def run(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    text: str | bytes,
    *argv: str,
    name: str = "in.txt",
    command: str = "standings",
) -> tuple[int, str, str]:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    status = main([command, str(path), *argv])
    out, err = capsys.readouterr()
    return status, out, err


def finishes(code: str, seconds: float = 30.0) -> bool:
    """Whether Python ``code`` ends within a generous bound, in a process of its own (a
    regular expression holds the GIL while it backtracks): a check that it cannot hang, not
    a timing (speed is measured in tests/bench/)."""
    try:
        subprocess.run([sys.executable, "-c", code], check=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return False
    return True


# -- tracebacks that became located errors ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#  Name  Rd 1\n1²  Ann  B\n", ":2:1: '#' must be a starting number (1–9999), got '1²'"),
        (
            "#  Name  Rating  Rd 1\n1  Ann  1²  B\n",
            ":2:9: Rating must be a whole number (0–9999) or empty, got '1²'",
        ),
        (trf_line(1, rating="15²0") + "\n", ":1:49 player 1: expected a rating (digits) or"),
        (
            trf_line(1) + "     2 w 1\n" + trf_line(2) + "     ² b 0\n",
            ":2:92 player 2, round 1: expected the opponent's starting rank",
        ),
    ],
    ids=["crosstable #", "crosstable Rating", "TRF rating", "TRF opponent"],
)
def test_superscript_digits_are_located_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, expected: str
) -> None:
    status, out, err = run(capsys, tmp_path, text)
    assert status == 2 and out == "" and expected in err and "Traceback" not in err


HUGE = "1" * 5000  # int() refuses more than 4,300 digits


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"#  Name  Rd 1\n{HUGE}  Ann  B\n", ":2:1: the cell is 5,000 characters long"),
        (f"#,Name,Rd 1\n1,Ann,W{HUGE}\n", ":2:7: the cell is 5,001 characters long"),
        (f"#,Name,Rd {HUGE}\n1,Ann,B\n", ":1:8: the cell is 5,003 characters long"),
        (f"#,Name,Rd {HUGE[:150]}\n1,Ann,B\n", f"'Rd {HUGE[:56]}…': a section has at most 999"),
        (f"#,Name,Rd 1\n1,Ann,W{HUGE[:150]}\n", ":2:7: Rd 1: 'W11111"),
        (f"XXR {HUGE}\n" + trf_line(1) + "\n", ":1:5: expected the number of rounds (0–999)"),
    ],
    ids=["id", "opponent", "heading", "heading within the cell limit", "opponent", "XXR"],
)
def test_numbers_of_thousands_of_digits_are_located_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, expected: str
) -> None:
    status, _, err = run(capsys, tmp_path, text, name="in.csv")
    assert status == 2 and expected in err and "Traceback" not in err


def test_a_csv_field_over_131072_characters_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = '#,Name,Rd 1\n1,"' + "a" * 140_000 + '",B\n'
    status, _, err = run(capsys, tmp_path, text, name="in.csv")
    assert status == 2
    assert f"in.csv:2:{MAX_LINE_CHARS + 1}: the line is 140,006 characters long" in err


def test_a_cell_over_the_cell_limit_is_named_and_shortened(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = "#,Name,Rd 1\n1," + "a" * 60_000 + ",B\n"
    status, _, err = run(capsys, tmp_path, text, name="in.csv")
    assert status == 2 and len(err) < 200
    assert f":2:3: the cell is 60,000 characters long; the limit is {MAX_CELL_CHARS}" in err


def test_an_error_never_repeats_a_huge_cell(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cell = "Q" * MAX_CELL_CHARS
    status, _, err = run(capsys, tmp_path, f"#,Name,Rd 1\n1,Ann,{cell}\n", name="in.csv")
    assert status == 2 and f"'{'Q' * (QUOTED_CHARS - 1)}…' is not a round entry" in err
    assert len(err) < 300


@pytest.mark.parametrize("profile", ["fide-2024", "fide-2026", "uscf", "mca"])
def test_every_profile_ranks_a_section_with_no_players(profile: str) -> None:
    empty = read_crosstable("#  Name  Rd 1\n")
    assert compute_standings(empty, profile).rows == ()


def test_direct_encounter_on_an_empty_section_through_the_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, tmp_path, "#  Name  Rd 1\n", "--rules", "fide", "--format", "json")
    assert status == 0 and err == ""


# -- time and memory bounded by the input ----------------------------------------------------


def test_a_round_heading_of_blanks_does_not_backtrack() -> None:
    # Quadratic backtracking takes many minutes on this; linear matching, milliseconds.
    code = "from core.formats.crosstable import _ROUND_HEADER as h\n"
    assert finishes(code + "assert h.fullmatch('rd' + ' ' * 300_000 + 'x') is None")


def test_a_csv_heading_of_blanks_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, tmp_path, "#,Name,Rd" + " " * 40_000 + "x\n1,A,B\n", name="a.csv")
    assert status == 2 and "a.csv:1:8: the cell is 40,003 characters long" in err


def test_tokens_under_one_heading_are_joined_in_linear_time() -> None:
    code = (
        "from core.formats.crosstable import _by_position, _split\n"
        "tokens = _split('1  A  ' + 'x  ' * 300_000, 2, '  ')\n"
        "joined = _by_position(tokens, [1, 4, 7], 2)\n"
        "assert len(joined) == 3 and joined[2].text.count('x') == 300_000"
    )
    assert finishes(code)


def test_aligned_text_with_many_cells_under_one_heading_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, tmp_path, "#  Name  Rd 1\n1  Ann   " + "W2  " * 10_000 + "\n")
    assert (
        status == 2
        and ":2:10: the cell is 39,998 characters long" in err
        and f"the limit is {MAX_CELL_CHARS}" in err
    )


def test_crosstable_rounds_are_limited_before_any_row_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    header = "#  Name  " + "  ".join(f"Rd {r}" for r in range(1, 1201))
    status, _, err = run(capsys, tmp_path, header + "\n" + "1  A\n" * 2000)
    assert status == 2
    assert err.count("harkness:") == 1 and f"'Rd 1000': a section has at most {MAX_ROUNDS}" in err


def test_crosstable_players_times_rounds_are_limited(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    header = "#  Name  " + "  ".join(f"Rd {r}" for r in range(1, 999))
    rows = "".join(f"{i}  A\n" for i in range(1, 2000))
    status, _, err = run(capsys, tmp_path, header + "\n" + rows)
    assert status == 2
    assert (
        f"in.txt:1:1: 1,999 players × 998 rounds is 1,995,002 round entries; the limit is "
        f"{MAX_PLAYER_ROUNDS:,}" in err
    )


def test_xxr_999_with_9999_players_is_refused_before_work_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = "XXR 999\n" + "".join(trf_line(i, f"Player {i}") + "\n" for i in range(1, 10_000))
    status, _, err = run(capsys, tmp_path, text, "--rules", "fide-2024", name="big.trf")
    assert status == 2
    assert "big.trf:2:1: 9,999 players × 999 rounds is 9,989,001 round entries" in err


def test_too_many_trf_round_blocks_are_refused() -> None:
    line = trf_line(1) + "          " * 1000 + "  0001 w 1"
    with pytest.raises(
        HarknessError, match=r":1:1: a section has at most 999 rounds \(got 1,001\)"
    ):
        read_trf(line + "\n", "x.trf")


def test_more_players_than_the_limit_are_refused() -> None:
    rows = "".join(f"{i}\tP\n" for i in range(1, 10_002))
    with pytest.raises(HarknessError, match=r"x.txt:10001:1: a section has at most 9,999 players"):
        read_crosstable("#\tName\tRd 1\n" + rows, "x.txt")


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "huge.txt"
    with path.open("wb") as out:
        out.truncate(9 * 1024 * 1024)  # sparse: nothing to read, and nothing is read
    status = main(["standings", str(path)])
    assert status == 2 and "huge.txt:1:1: the file is 9,437,184 bytes; the limit is 8 MiB" in (
        capsys.readouterr().err
    )


# -- convert writes only what reads back -----------------------------------------------------


def converted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, source: str, target: str
) -> tuple[int, str, Path]:
    status, _, err = run(
        capsys, tmp_path, text, str(tmp_path / target), name=source, command="convert"
    )
    return status, err, tmp_path / target


@pytest.mark.parametrize("target", ["out.txt", "out.csv"])
def test_convert_refuses_a_player_without_a_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, target: str
) -> None:
    text = trf_line(1, name="") + "\n" + trf_line(2, name="Bob") + "\n"
    status, err, out = converted(capsys, tmp_path, text, "in.trf", target)
    assert status == 2 and not out.exists()
    assert "in.trf player 1: the player has no name" in err


def test_convert_refuses_a_name_with_two_blanks_in_aligned_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = trf_line(1, name="Smith  John") + "\n"
    status, err, out = converted(capsys, tmp_path, text, "in.trf", "out.txt")
    assert status == 2 and not out.exists()
    assert "in.trf player 1: the name 'Smith  John' has two blanks in a row" in err
    status, _, out = converted(capsys, tmp_path, text, "in.trf", "out.csv")
    assert status == 0 and read_text(out.read_text(), str(out)).player(1).name == "Smith  John"


def test_convert_refuses_a_section_with_no_players_as_trf(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, err, out = converted(capsys, tmp_path, "#  Name  Rd 1\n", "in.txt", "out.trf")
    assert status == 2 and not out.exists()
    assert "in.txt:1: the section has no players; TRF-16 needs a player line" in err


@pytest.mark.parametrize("records", ["012 Club Swiss\nXXR 5\n", "XXR 5\n"])
def test_a_trf_without_player_lines_is_named_as_such(records: str) -> None:
    """A file of TRF-16 records with no ``001`` line is not read as a crosstable whose header
    is wrong: the error says what a TRF-16 file lacks."""
    with pytest.raises(HarknessError) as raised:
        read_text(records, "club.trf")
    assert str(raised.value).startswith("club.trf:1:1: the header row needs")
    assert str(raised.value).endswith("; a TRF-16 file needs player lines, which start with 001")


def test_a_crosstable_header_without_columns_gets_no_trf_hint() -> None:
    with pytest.raises(HarknessError) as raised:
        read_text("Club Swiss\n1  Ann  W2\n", "club.txt")
    assert "TRF-16" not in str(raised.value)


def test_writers_refuse_more_rounds_than_the_readers_take() -> None:
    rounds = MAX_ROUNDS + 1
    section = Tournament((Player(1, "Ann", (RoundEntry.bye(),) * rounds),), rounds)
    for write in (write_trf, write_crosstable):
        with pytest.raises(HarknessError, match="at most 999 rounds"):
            write(section)


def test_rating_zero_is_written_so_that_it_reads_back() -> None:
    section = read_crosstable("#,Name,Rating,Rd 1\n1,Ann,0,B\n2,Bob,,B\n")
    back = read_crosstable(write_crosstable(section, None, ","))
    assert [p.rating for p in back] == [0, None]


# -- encodings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_unicode_text_with_a_byte_order_mark_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, encoding: str
) -> None:
    text = Path(example_path("mdchess-scholastic.txt")).read_text(encoding="utf-8")
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    status, out, _ = run(capsys, tmp_path, data, "--format", "csv")
    assert status == 0
    assert out == run(capsys, tmp_path, text.encode(), "--format", "csv", name="utf8.txt")[1]


def test_utf16_without_a_byte_order_mark_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, tmp_path, "#\tName\tRd 1\n1\tAnn\tB\n".encode("utf-16-le"))
    assert status == 2
    assert "in.txt:1:1: the file has NUL bytes: UTF-16 without a byte-order mark" in err


def test_a_starting_number_used_twice_is_located_at_each_repeat() -> None:
    with pytest.raises(HarknessError) as error:
        read_crosstable("#  Name  Rd 1\n1  Ann  B\n2  Bob  B\n1  Cy  B\n1  Dee  B\n", "x.txt")
    assert [str(p) for p in error.value.problems] == [
        "x.txt:4:1: starting number 1 is used twice (first on line 2)",
        "x.txt:5:1: starting number 1 is used twice (first on line 2)",
    ]


def test_an_endless_device_is_read_only_up_to_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    assert main(["standings", "/dev/zero"]) == 2
    assert "/dev/zero:1:1: the file is 8,388,609 bytes or more; the limit is 8 MiB" in (
        capsys.readouterr().err
    )

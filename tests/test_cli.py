"""The ``harkness`` command-line contract: other tools depend on it."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main
from core.examples import example_path

SEED = example_path("mdchess-scholastic.txt")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_output_is_exactly_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "standings", SEED, "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert list(data) == ["rules", "rounds", "tiebreaks", "standings", "warnings"]
    assert data["warnings"] == []
    assert (data["rules"], data["rounds"], data["tiebreaks"]) == (
        "uscf",
        4,
        ["MM", "SOLK", "CUM", "OCUM"],
    )
    first = data["standings"][0]
    assert list(first) == ["rank", "place", "id", "name", "score", "tiebreaks"]
    assert first == {
        "rank": 1,
        "place": "1",
        "id": 1,
        "name": "Player A",
        "score": 3,
        "tiebreaks": {"MM": 8.5, "SOLK": 9.5, "CUM": 8.5, "OCUM": 23.5},
    }
    assert [row["rank"] for row in data["standings"]] == list(range(1, 11))


def test_custom_tiebreak_order_and_undefined_values_are_null(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "standings", SEED, "--tiebreaks", "sb,aor", "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["tiebreaks"] == ["SB", "AOR"]
    assert data["standings"][0]["tiebreaks"] == {"SB": 6.75, "AOR": None}


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("table", "Modified Median"),
        ("markdown", "| 1 | 1 | Player A | 3 | 8.5 | 9.5 | 8.5 | 23.5 |"),
        ("csv", "1,1,Player A,3,8.5,9.5,8.5,23.5"),
    ],
)
def test_every_format(capsys: pytest.CaptureFixture[str], fmt: str, expected: str) -> None:
    status, out, _ = run(capsys, "standings", SEED, "--format", fmt)
    assert status == 0 and expected in out


def test_standings_after_an_earlier_round(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "standings", SEED, "--after-round", "2", "--format", "json", "--rules", "mdchess"
    )
    data = json.loads(out)
    assert status == 0
    assert data["rounds"] == 2 and data["tiebreaks"][-1] == "MM"  # moved last in 2 rounds


def test_malformed_input_exits_2_and_names_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("#  Name  Rd 1\n1  Ann  W2\n2  Bob  Q\n")
    status, out, err = run(capsys, "standings", str(bad))
    assert status == 2 and out == ""
    assert f"harkness: {bad}:3:9: Rd 1: 'Q' is not a round entry" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "fifa"], "--rules 'fifa': unknown profile"),
        (["--tiebreaks", "MM,XYZ"], "--tiebreaks: unknown code 'XYZ'"),
        (["--after-round", "7"], "after round 7: the section has rounds 1–4"),
    ],
)
def test_wrong_options_exit_2_with_the_option_named(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, "standings", SEED, *argv)
    assert status == 2 and message in err


def test_a_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "standings", str(tmp_path / "nope.trf"))
    assert status == 2 and "cannot read the file" in err


def test_convert_crosstable_to_csv_with_standings_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "seed.csv"
    status, out, _ = run(capsys, "convert", SEED, str(target), "--standings", "--rules", "mdchess")
    assert status == 0 and "10 players, 4 rounds" in out
    lines = target.read_text().splitlines()
    assert lines[0] == "#,Name,Rd 1,Rd 2,Rd 3,Rd 4,Tot,TBrk[M],TBrk[S],TBrk[C],TBrk[O]"
    assert lines[1] == "1,Player A,W9 (w),W2 (b),D5 (w),D3 (b),3,8.5,9.5,8.5,23.5"


def test_csv_exports_never_hold_a_formula(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name a spreadsheet would run (``=``, ``+``, ``-``, ``@``, tab, CR first) is written
    with an apostrophe in front, by ``convert`` and ``--format csv`` alike, and ``convert``
    reads its own CSV back to the same names."""
    source = tmp_path / "evil.txt"
    source.write_text(
        '#  Name                 Rd 1\n1  =HYPERLINK("x")      W2\n2  @SUM(A1)             L1\n'
        "3  -2+3                 W4\n4  +Dave                L3\n"
    )
    target = tmp_path / "evil.csv"
    assert run(capsys, "convert", str(source), str(target))[0] == 0
    names = [row[1] for row in csv.reader(io.StringIO(target.read_text()))][1:]
    assert names == ['\'=HYPERLINK("x")', "'@SUM(A1)", "'-2+3", "'+Dave"]
    status, out, _ = run(capsys, "standings", str(source), "--format", "csv")
    assert status == 0 and "'-2+3" in out and "'@SUM(A1)" in out and "'=HYPERLINK" in out
    _, a, _ = run(capsys, "standings", str(source), "--format", "json")
    _, b, _ = run(capsys, "standings", str(target), "--format", "json")
    assert json.loads(a)["standings"] == json.loads(b)["standings"]


def test_convert_round_trips_through_trf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trf, back = tmp_path / "seed.trf", tmp_path / "back.txt"
    assert run(capsys, "convert", SEED, str(trf))[0] == 0
    assert trf.read_text().startswith("012") or "001" in trf.read_text()
    assert run(capsys, "convert", str(trf), str(back))[0] == 0
    _, a, _ = run(capsys, "standings", SEED, "--format", "json")
    _, b, _ = run(capsys, "standings", str(back), "--format", "json")
    assert json.loads(a)["standings"] == json.loads(b)["standings"]


def test_a_failed_conversion_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("#,Name,Rd 1\n1,Ann,W5\n")
    target = tmp_path / "out.trf"
    assert run(capsys, "convert", str(bad), str(target))[0] == 2
    assert list(tmp_path.iterdir()) == [bad]


def test_the_installed_console_script_and_python_dash_m() -> None:
    for command in (["harkness"], [sys.executable, "-m", "core"]):
        done = subprocess.run(
            [*command, "standings", SEED, "--format", "csv"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[1].startswith("1,1,Player A,3,8.5")


def test_a_process_ended_at_once_has_printed_everything_and_its_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from core.formats.trf import write_trf
    from tests.generate import random_swiss

    big = tmp_path / "big.trf"
    big.write_text(write_trf(random_swiss(1500, 5, seed=5)))
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    for path in (SEED, str(big)):  # what stays in the buffer, and more than a pipe holds
        _, expected, _ = run(capsys, "standings", path, "--format", "json")
        done = subprocess.run(
            [sys.executable, "-m", "core", "standings", path, "--format", "json"],
            capture_output=True,
            text=True,
            check=False,
            env=buffered,
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, expected, "")
    assert len(expected) > 128 * 1024
    big.write_text(big.read_text().replace(" w 1", " w X", 1))
    bad = subprocess.run(
        [sys.executable, "-m", "core", "standings", str(big)],
        capture_output=True,
        text=True,
        check=False,
        env=buffered,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert "unknown result code 'X'" in bad.stderr


def test_a_reader_that_has_gone_ends_the_command_quietly() -> None:
    # `harkness standings … | head`, when head has gone before the command prints.
    command = subprocess.Popen(
        [sys.executable, "-m", "core", "standings", SEED, "--format", "csv"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert command.stdout is not None and command.stderr is not None
    command.stdout.close()  # long before the command has read its file
    errors = command.stderr.read().decode()
    assert (command.wait(timeout=60), errors) == (1, "")


def test_large_sections_print_as_plain_aligned_text() -> None:
    from core.render import RICH_TABLE_ROWS, to_table
    from core.standings import compute_standings
    from tests.generate import random_swiss

    standings = compute_standings(random_swiss(RICH_TABLE_ROWS + 1, 3, seed=3), "uscf")
    lines = to_table(standings).splitlines()
    assert lines[2].split() == ["Place", "#", "Name", "Score", "MM", "SOLK", "CUM", "OCUM"]
    assert len({len(line) for line in lines[2:4]}) == 1  # header and rule line up
    assert len(lines) == RICH_TABLE_ROWS + 1 + 6


TWO_PLAYERS = (
    "012 Club Open\nXXR 1\n"
    "001    1      Ann                                                                2.0    1"
    "     2 w 1\n"
    "001    2      Bob                                                                0.0    2"
    "     1 b 0\n"
)


def test_a_points_column_that_disagrees_is_a_warning_on_stderr_and_in_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "club.trf"
    path.write_text(TWO_PLAYERS, encoding="utf-8")
    status, out, err = run(capsys, "standings", str(path), "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["standings"][0]["score"] == 1  # the results decide
    assert data["warnings"] == [
        {
            "player": 1,
            "line": 3,
            "column": 81,
            "message": "Ann: the points column says 2.0, the results add up to 1; "
            "the results are used",
        }
    ]
    assert err == f"harkness: warning: {path}:3:81 player 1: {data['warnings'][0]['message']}\n"
    for command in (["explain", str(path), "1"], ["convert", str(path), str(tmp_path / "o.trf")]):
        status, _, err = run(capsys, *command)
        assert status == 0 and "warning" in err and "Ann" in err


CLUB = example_path("club-swiss.trf")


def test_trf_to_trf_is_written_back_as_read_whatever_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ranked = tmp_path / "ranked.trf"
    assert run(capsys, "convert", CLUB, str(ranked), "--standings")[0] == 0
    text = ranked.read_text()
    assert text != Path(CLUB).read_text()  # the rank column holds US Chess ranks now
    for rules in ("uscf", "fide"):
        again = tmp_path / f"again-{rules}.trf"
        assert run(capsys, "convert", str(ranked), str(again), "--rules", rules)[0] == 0
        assert again.read_text() == text


def test_trf_to_trf_keeps_the_rank_column_of_a_player_absent_at_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line shorter than XXR's rounds (absent at the end, or a file exported mid-event)
    keeps its rank column like any other: the file converts to itself."""
    source = tmp_path / "club.trf"
    source.write_text(
        "XXR 2\n"
        "001    1      Ann                                                                2.0    2"
        "     2 w 1     3 b 1\n"
        "001    2      Bob                                                                0.0    3"
        "     1 b 0\n"
        "001    3      Cy                                                                 1.0    1"
        "  0000 - +     1 w 0\n"
    )
    again = tmp_path / "again.trf"
    assert run(capsys, "convert", str(source), str(again))[0] == 0
    ranks = [line[85:89] for line in again.read_text().splitlines() if line.startswith("001")]
    assert ranks == ["   2", "   3", "   1"]


def test_trf_with_standings_writes_the_ranks_of_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    uscf, fide = tmp_path / "uscf.trf", tmp_path / "fide.trf"
    run(capsys, "convert", CLUB, str(uscf), "--standings")
    run(capsys, "convert", CLUB, str(fide), "--standings", "--rules", "fide")
    _, out, _ = run(capsys, "standings", CLUB, "--rules", "fide", "--format", "json")
    ranks = {row["id"]: row["rank"] for row in json.loads(out)["standings"]}
    written = {
        int(line[4:8]): int(line[85:89])
        for line in fide.read_text().splitlines()
        if line.startswith("001")
    }
    assert written == ranks and uscf.read_text() != fide.read_text()


def test_undefined_values_one_convention_per_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CSV: an empty cell; JSON: null; tables for people: –."""
    _, csv_out, _ = run(capsys, "standings", SEED, "--rules", "fide", "--format", "csv")
    assert csv_out.splitlines()[1] == "1,1,Player A,3,8.5,9.5,6.75,,2,2"
    _, md_out, _ = run(capsys, "standings", SEED, "--rules", "fide", "--format", "markdown")
    assert "| 6.75 | – | 2 | 2 |" in md_out
    _, json_out, _ = run(capsys, "standings", SEED, "--rules", "fide", "--format", "json")
    assert json.loads(json_out)["standings"][0]["tiebreaks"]["DE"] is None
    csv_file, text_file = tmp_path / "s.csv", tmp_path / "s.txt"
    run(capsys, "convert", SEED, str(csv_file), "--standings", "--rules", "fide")
    run(capsys, "convert", SEED, str(text_file), "--standings", "--rules", "fide")
    assert csv_file.read_text().splitlines()[1].endswith(",3,8.5,9.5,6.75,,2,2")
    assert text_file.read_text().splitlines()[1].split()[-4:] == ["6.75", "–", "2", "2"]
    assert run(capsys, "standings", str(text_file))[0] == 0  # and it reads back


def test_an_unknown_profile_lists_every_name_rules_accepts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, "standings", SEED, "--rules", "bogus")
    assert status == 2
    assert "choose one of uscf, mdchess, wintd, mca, swisssys, fide, fide-2024, fide-2026" in err


def test_a_zero_point_bye_is_explained_in_words_not_as_trfs_u(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "explain", CLUB, "9", "--format", "json")
    parts = json.loads(out)["tiebreaks"][0]["parts"]
    assert parts[1]["entry"] == "zero-point bye"
    _, text, _ = run(capsys, "explain", CLUB, "9")
    assert "Rd 2  zero-point bye" in text and "Rd 2  U " not in text


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_written_file_has_the_users_permissions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--output`` and ``convert`` write through a temporary file: the file they leave
    is readable as any file the user creates (the umask's mode), and a file written over
    keeps its own mode."""
    umask = os.umask(0o022)
    try:
        new = tmp_path / "standings.txt"
        assert run(capsys, "standings", str(SEED), "--output", str(new))[0] == 0
        assert new.stat().st_mode & 0o777 == 0o644
        converted = tmp_path / "seed.trf"
        assert run(capsys, "convert", str(SEED), str(converted))[0] == 0
        assert converted.stat().st_mode & 0o777 == 0o644
        new.chmod(0o640)
        assert run(capsys, "standings", str(SEED), "--output", str(new))[0] == 0
        assert new.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(umask)

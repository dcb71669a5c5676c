"""``harkness pair FILE [--round N]``: the board list, JSON, TRF-16 out, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.examples import example_path
from core.formats.trf import read_trf

CLUB = example_path("club-swiss.trf")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_board_list_names_the_system_and_every_player(capsys):
    status, out, _ = run(capsys, "pair", CLUB, "--round", "3", "--half-bye", "5", "--withdraw", "9")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Riverside Chess Club Autumn Swiss: round 3 of 5, FIDE Dutch system (C.04.3)"
    assert lines[1] == "Initial colour: white, as round 1 of the file was played."
    assert lines[5].split() == [
        "1",
        "1",
        "Alvarez,",
        "Maria",
        "(2)",
        "7",
        "Gupta,",
        "Rohan",
        "(1.5)",
    ]
    assert "5 Eriksen, Lars (0)" in out and "half-point bye" in out
    assert "9 Ivanova, Sofia (0)" in out and "withdrawn" in out
    assert "pairing-allocated bye" in out


def test_json_and_trf_out(capsys, tmp_path: Path):
    out_file = tmp_path / "round3.trf"
    status, out, _ = run(
        capsys, "pair", CLUB, "--round", "3", "--format", "json", "--trf", str(out_file)
    )
    assert status == 0
    data = json.loads(out)
    assert list(data) == [
        "round",
        "rounds",
        "system",
        "initial_colour",
        "initial_colour_from",
        "acceleration",
        "virtual_points",
        "boards",
        "bye",
        "not_paired",
    ]
    assert (data["initial_colour"], data["initial_colour_from"]) == ("white", "round 1")
    assert data["boards"][0] == {"board": 1, "white": 1, "black": 7}
    assert data["not_paired"] == [{"id": 4, "entry": "half-point bye"}]
    first = next(line for line in out_file.read_text().splitlines() if line.startswith("001    1"))
    assert first.endswith("    7 w")


def test_the_initial_colour_option_decides_round_one(capsys):
    _, white, _ = run(capsys, "pair", CLUB, "--round", "1", "--format", "json")
    _, black, _ = run(
        capsys, "pair", CLUB, "--round", "1", "--format", "json", "--initial-colour", "black"
    )
    first_white, first_black = json.loads(white)["boards"][0], json.loads(black)["boards"][0]
    assert (first_white["white"], first_white["black"]) == (1, 6)
    assert (first_black["white"], first_black["black"]) == (6, 1)
    assert json.loads(white)["initial_colour_from"] == "default"
    assert json.loads(black)["initial_colour_from"] == "option"


def test_once_round_one_is_played_the_initial_colour_is_the_files(capsys):
    """Round 1 of the club file was played with white for the top seed: asking for black
    afterwards is an error naming the option, not a silent change of colours."""
    status, _, err = run(capsys, "pair", CLUB, "--round", "3", "--initial-colour", "black")
    assert status == 2
    assert "--initial-colour black: round 1 was played with white for the top player" in err


def test_errors_exit_2_and_name_the_option(capsys):
    status, _, err = run(capsys, "pair", CLUB)
    assert status == 2
    assert "round 6: the section has 5 rounds" in err and "--rounds" in err
    status, _, err = run(capsys, "pair", CLUB, "--round", "3", "--half-bye", "x")
    assert status == 2 and "--half-bye: expected starting numbers, got 'x'" in err


def test_trf_out_keeps_rounds_already_played(capsys):
    _, out, _ = run(capsys, "pair", CLUB, "--round", "3", "--format", "trf")
    original = Path(CLUB).read_text().splitlines()
    players = [line for line in out.splitlines() if line.startswith("001")]
    for before, after in zip(
        [line for line in original if line.startswith("001")], players, strict=True
    ):
        assert after[89:109] == before[89:109].replace("     0 -", "  0000 -")
    with pytest.raises(ValueError):
        read_trf(out)


def test_avoid_keeps_two_players_apart(capsys):
    _, before, _ = run(capsys, "pair", CLUB, "--round", "3", "--format", "json")
    assert json.loads(before)["boards"][0] == {"board": 1, "white": 1, "black": 7}
    _, after, _ = run(capsys, "pair", CLUB, "--round", "3", "--format", "json", "--avoid", "1,7")
    pairs = [{b["white"], b["black"]} for b in json.loads(after)["boards"]]
    assert {1, 7} not in pairs
    status, _, err = run(capsys, "pair", CLUB, "--round", "3", "--avoid", "1,99")
    assert status == 2 and "--avoid: there is no player 99" in err


def test_the_same_file_gives_the_same_pairing_in_every_process():
    """Deterministic: no drawing of lots, no dependence on Python's hash seed."""
    import os
    import subprocess
    import sys

    outputs = set()
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-m", "core", "pair", CLUB, "--round", "4", "--format", "json"],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_prohibited_pairings_in_the_file_are_honoured_like_avoid(capsys, tmp_path):
    """A TRF record 260 already in the input keeps its players apart, as --avoid does."""
    path = tmp_path / "club.trf"
    path.write_text("260   3   3    1    7\n" + Path(CLUB).read_text(encoding="utf-8"))
    _, out, _ = run(capsys, "pair", str(path), "--round", "3", "--format", "json")
    assert {1, 7} not in [{b["white"], b["black"]} for b in json.loads(out)["boards"]]
    path.write_text("260   3   3    1   99\n" + Path(CLUB).read_text(encoding="utf-8"))
    status, _, err = run(capsys, "pair", str(path), "--round", "3")
    assert status == 2 and "TRF record 260 '  3   3    1   99': there is no player 99" in err


def test_byes_typed_ahead_in_a_crosstable_leave_the_others_paired(capsys, tmp_path: Path):
    """Round 2 has only the byes typed ahead: it is paired, not read as everyone withdrawn."""
    path = tmp_path / "mid.txt"
    path.write_text(
        "#\tName\tRd 1\tRd 2\n1\tAnn\tW2 (w)\tH\n2\tBob\tL1 (b)\t\n3\tCy\tW4 (w)\tU\n"
        "4\tDee\tL3 (b)\t\n5\tEd\tW6 (w)\t\n6\tFay\tL5 (b)\t\n"
    )
    status, out, _ = run(capsys, "pair", str(path), "--rounds", "3", "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["round"] == 2
    paired = {n for board in data["boards"] for n in (board["white"], board["black"])}
    assert paired | {data["bye"]} - {None} == {2, 4, 5, 6}
    assert data["not_paired"] == [
        {"id": 1, "entry": "half-point bye"},
        {"id": 3, "entry": "zero-point bye"},
    ]


def test_baku_acceleration_is_announced_in_the_answer(capsys):
    status, out, _ = run(capsys, "pair", CLUB, "--round", "1", "--accelerate", "baku")
    assert status == 0
    # Ten players, five rounds: GA is 2 × ⌈10 / 4⌉ = 6 players, one virtual point each.
    assert "Baku Acceleration (C.04.5.1): 1 virtual point for 6 players." in out.splitlines()
    _, data, _ = run(
        capsys, "pair", CLUB, "--round", "1", "--accelerate", "baku", "--format", "json"
    )
    parsed = json.loads(data)
    assert parsed["acceleration"] == "baku"
    assert [v["id"] for v in parsed["virtual_points"]] == [1, 2, 3, 4, 5, 6]

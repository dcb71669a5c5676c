"""``harkness awards`` and ``harkness explain --prizes``: the command-line contract."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from core.cli import main
from core.examples import example_path
from core.formats.trf import write_trf
from tests.awards.worked import WORKED, Worked, with_a_game

CLUB = example_path("club-swiss.trf")
PRIZES = example_path("club-swiss-prizes.toml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_exactly_the_documented_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "awards", CLUB, "--prizes", PRIZES, "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert list(data) == ["method", "currency", "awards", "prizes", "teams", "leftover_cents"]
    assert (data["method"], data["currency"], data["leftover_cents"]) == ("us-chess", "$", 1)
    first, second = data["awards"][:2]
    assert list(first)[:7] == ["id", "name", "score", "cash", "cash_exact", "prizes", "trophy"]
    assert first == {
        "id": 3,
        "name": "Chen, Wei",
        "score": 4,
        "cash": 300,
        "cash_exact": {"num": 300, "den": 1},
        "prizes": ["1st place"],
        "trophy": "1st place",
        "trophies": ["1st place"],
    }
    assert (second["cash"], second["cash_exact"]) == (133.33, {"num": 400, "den": 3})
    assert [row["id"] for row in data["awards"]] == [3, 1, 4, 6, 10, 5, 7, 2, 12, 9, 11, 8]
    nobody = data["awards"][-1]
    assert (nobody["cash"], nobody["trophy"], nobody["prizes"]) == (0, None, [])
    prize = data["prizes"][1]
    assert list(prize)[:4] == ["name", "amount", "winners", "awarded"]
    assert prize["name"] == "2nd place" and prize["winners"] == [1, 4, 6] and prize["awarded"]
    team = data["teams"][0]
    assert list(team)[:4] == ["team", "score", "rank", "counting"]
    assert (team["team"], team["score"], team["rank"], team["counting"]) == (
        "Rooks",
        12.5,
        1,
        [1, 6, 10, 7],
    )


def test_the_table_names_the_cents_left_over_and_the_teams(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "awards", CLUB, "--prizes", PRIZES)
    assert status == 0
    assert "$133.33" in out and "Paid in cents rounded down: 1 cent left over." in out
    assert "Teams" in out and "Bishops has 1 player in the section" in out


def test_csv_is_formula_safe(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    section = tmp_path / "s.csv"
    section.write_text("#,Name,Rd 1\n1,=HYPERLINK(1),W2\n2,@Bob,L1\n")
    prizes = tmp_path / "p.toml"
    prizes.write_text('[[prize]]\nname = "+1st"\nplace = 1\namount = 10\n')
    status, out, _ = run(capsys, "awards", str(section), "--prizes", str(prizes), "--format", "csv")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["Place", "#", "Name", "Score", "Cash", "Prizes", "Trophy"]
    assert rows[1] == ["1", "1", "'=HYPERLINK(1)", "1", "10", "'+1st", ""]
    assert rows[2][2] == "'@Bob"


def test_markdown_escapes_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    section = tmp_path / "s.csv"
    section.write_text("#,Name,Rd 1\n1,**Bold** <@1>,W2\n2,Bo,L1\n")
    prizes = tmp_path / "p.toml"
    prizes.write_text('currency = "$"\n[[prize]]\nname = "1st"\nplace = 1\namount = 10\n')
    _, out, _ = run(capsys, "awards", str(section), "--prizes", str(prizes), "--format", "markdown")
    assert r"\*\*Bold\*\* \<\@1\>" in out and "| $10 |" in out


def test_a_bad_prize_file_exits_2_with_every_problem_located(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    prizes = tmp_path / "p.toml"
    prizes.write_text('[[prize]]\nname = "1st"\nplace = 1\namount = "300"\n[limits]\n99 = 5\n')
    status, out, err = run(capsys, "awards", CLUB, "--prizes", str(prizes))
    assert (status, out) == (2, "")
    assert f"harkness: {prizes}:4: prize 1 ('1st'): amount must be" in err


def test_numbers_not_in_the_section_exit_2_at_their_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    prizes = tmp_path / "p.toml"
    prizes.write_text('[[prize]]\nname = "1st"\nplace = 1\namount = 300\n[limits]\n99 = 5\n')
    status, _, err = run(capsys, "awards", CLUB, "--prizes", str(prizes))
    assert status == 2
    assert (
        err
        == f"harkness: {prizes}:6: [limits]: there is no player 99 in the section (players 1–12)\n"
    )


def test_prizes_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["awards", CLUB])
    assert exited.value.code == 2
    assert "--prizes" in capsys.readouterr().err


def test_after_round_gives_the_awards_as_they_stood(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "awards", CLUB, "--prizes", PRIZES, "--after-round", "1", "--format", "json"
    )
    data = json.loads(out)
    winners = {row["name"] for row in data["awards"] if row["cash"]}
    assert "Chen, Wei" in winners  # one of the round's winners on 1 point


def test_explain_adds_the_award_and_its_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", CLUB, "Eriksen", "--prizes", PRIZES)
    assert status == 0
    assert "Award: Eriksen, Lars: $50 (2nd U1800); no trophy." in out
    assert "so you take it alone (US Chess 32B3)" in out
    assert "Trophy 1st U1800 went to Fischer, Hannah, ahead of you: scored 3.5 to 3." in out
    _, out, _ = run(capsys, "explain", CLUB, "Eriksen", "--prizes", PRIZES, "--format", "json")
    award = json.loads(out)["award"]
    assert award["cash"] == 50 and award["reason_data"][0]["kind"] == "sub-group"
    _, out, _ = run(capsys, "explain", CLUB, "Eriksen")
    assert "Award" not in out
    _, out, _ = run(capsys, "explain", CLUB, "Eriksen", "--format", "json")
    assert "award" not in json.loads(out)  # the explanation without prizes is as it was


def test_pictures_need_an_output_or_are_svg(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, "awards", CLUB, "--prizes", PRIZES, "--format", "png")
    assert status == 2 and "--output" in err
    status, out, _ = run(capsys, "awards", CLUB, "--prizes", PRIZES, "--format", "svg")
    assert status == 0 and out.startswith("<svg") and "Chen, Wei" in out
    target = tmp_path / "prizes.png"
    status, out, _ = run(
        capsys,
        "awards",
        CLUB,
        "--prizes",
        PRIZES,
        "--format",
        "png",
        "--output",
        str(target),
        "--theme",
        "dark",
    )
    assert status == 0 and target.read_bytes().startswith(b"\x89PNG")


def test_a_crosstables_team_column_makes_the_teams(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    section = tmp_path / "s.txt"
    section.write_text(
        "#\tName\tTeam\tRd 1\tRd 2\n1\tAnn\tLincoln\tW2\tW3\n2\tBob\tLincoln\tL1\tW4\n"
        "3\tCy\tAdams\tW4\tL1\n4\tDi\tadams\tL3\tL2\n"
    )
    prizes = tmp_path / "p.toml"
    prizes.write_text('[[prize]]\nname = "Top team"\nplace = 1\nteam = true\ntrophy = true\n')
    _, out, _ = run(capsys, "awards", str(section), "--prizes", str(prizes), "--format", "json")
    teams = json.loads(out)["teams"]
    assert [(t["team"], t["score"], t["counting"], t["trophy"]) for t in teams] == [
        ("Lincoln", 3, [1, 2], "Top team"),
        ("Adams", 1, [3, 4], None),
    ]


def test_a_trf_files_team_records_make_the_teams(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    section = tmp_path / "s.trf"
    section.write_text(
        Path(CLUB).read_text()
        + "013 Knights                          3    4    5    9\n"
        + "013 Rooks                            1    2    6    7\n"
    )
    prizes = tmp_path / "p.toml"
    prizes.write_text('[[prize]]\nname = "1st"\nplace = 1\namount = 5\n')
    _, out, _ = run(capsys, "awards", str(section), "--prizes", str(prizes), "--format", "json")
    assert [t["team"] for t in json.loads(out)["teams"]] == ["Rooks", "Knights"]


@pytest.mark.parametrize("case", WORKED, ids=[c.name for c in WORKED])
def test_the_worked_examples_come_out_of_harkness_awards_exactly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: Worked
) -> None:
    """The worked examples of core/RULEBOOK.md through the command line, as a TD runs it on
    a TRF-16 file (:func:`tests.awards.worked.with_a_game`) and a prize file."""
    trf, prizes = tmp_path / f"{case.name}.trf", tmp_path / "prizes.toml"
    trf.write_text(write_trf(with_a_game(case)), encoding="utf-8")
    prizes.write_text(case.prizes, encoding="utf-8")
    status, out, _ = run(capsys, "awards", str(trf), "--prizes", str(prizes), "--format", "json")
    assert status == 0
    data = json.loads(out)
    cash = {
        row["name"]: Fraction(row["cash_exact"]["num"], row["cash_exact"]["den"])
        for row in data["awards"]
        if row["cash"]
    }
    assert cash == case.cash
    trophies = {row["name"]: row["trophy"] for row in data["awards"] if row["trophy"]}
    assert trophies == case.trophies
    teams = {team["team"]: Fraction(str(team["score"])) for team in data["teams"]}
    assert teams == case.teams

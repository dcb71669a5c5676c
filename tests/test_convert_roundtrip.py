"""``convert`` writes only what ``harkness`` reads back to the same standings: else it
refuses, located at what the target format cannot hold, and writes nothing.

A TRF-16 file's planned rounds (``XXR``) without results are rounds of absence for
everyone, a crosstable is ranked after its last round with a game result; a crosstable
does not record TRF-16 record 092 (type of tournament). The bundled examples and the real
files (tests/test_real_files.py) either convert to every format and rank the same under
every profile, or are refused with the code ``convert-would-change``.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from core.cli import main
from core.cli import run as run_command
from core.examples import example_path
from core.formats import read_tournament
from core.formats.readback import read_back_problems
from core.model import Player
from core.problems import HarknessError
from core.profiles import PROFILES, names

RULES = (*PROFILES, "fide")
TARGETS = ("out.trf", "out.txt", "out.csv")

# Four players, three rounds, everyone met everyone: a round robin unless 092 says Swiss.
_PLAYERS = (
    (1, "Ann", "1.5", "2 w 1     3 b =     4 w 0"),
    (2, "Bob", "1.5", "1 b 0     4 w 1     3 b ="),
    (3, "Cy", "2.0", "4 w 1     1 w =     2 w ="),
    (4, "Dan", "1.0", "3 b 0     2 b 0     1 b 1"),
)
ALL_MET = "012 All met\n092 Individual: Swiss-System\nXXR 3\n" + "".join(
    f"001 {n:>4}      {name:<66}{points:>4} {n:>4}     {rounds}\n"
    for n, name, points, rounds in _PLAYERS
)

MID_EVENT = "#,Name,Rd 1,Rd 2,Rd 3\n1,Ann,W2,D3,\n2,Bob,L1,W4,\n3,Cy,W4,D1,\n4,Dan,L3,L2,\n"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def standings(path: Path, rules: str) -> list[tuple[object, ...]]:
    """Every row as ``harkness standings`` ranks the file: place, score, every tiebreak."""
    status, out, err = run("standings", str(path), "--rules", rules, "--format", "json")
    assert status == 0, err
    rows = json.loads(out)["standings"]
    return [(r["id"], r["place"], r["score"], json.dumps(r["tiebreaks"])) for r in rows]


def assert_refused(source: Path, target: Path, *expected: str) -> None:
    status, out, err = run("convert", str(source), str(target))
    assert (status, out) == (2, ""), err
    assert not target.exists()
    for words in expected:
        assert words in err, err


def test_planned_rounds_without_results_are_refused_for_a_crosstable(tmp_path: Path) -> None:
    text = Path(example_path("club-swiss.trf")).read_text(encoding="utf-8")
    assert "XXR 5\n" in text
    source = tmp_path / "club.trf"
    source.write_text(text.replace("XXR 5\n", "XXR 6\n"), encoding="utf-8")
    line = text.splitlines().index("XXR 5") + 1
    for name in ("club.txt", "club.csv"):
        assert_refused(
            source,
            tmp_path / name,
            f"club.trf:{line}: a crosstable cannot record the 6 planned rounds "
            "(XXR 6; 5 have results): read back, it would be ranked after round 5",
        )
    status, _, err = run("convert", str(source), str(tmp_path / "same.trf"))
    assert status == 0, err
    assert standings(tmp_path / "same.trf", "fide-2024") == standings(source, "fide-2024")


def test_a_crosstable_published_mid_event_becomes_a_trf_of_the_rounds_played(
    tmp_path: Path,
) -> None:
    source = tmp_path / "mid.csv"
    source.write_text(MID_EVENT, encoding="utf-8")
    target = tmp_path / "mid.trf"
    status, _, err = run("convert", str(source), str(target))
    assert status == 0, err
    assert "XXR 2" in target.read_text(encoding="utf-8").splitlines()
    for rules in RULES:
        assert standings(target, rules) == standings(source, rules), rules


def test_a_bye_entered_in_advance_for_an_unplayed_round_is_refused_for_trf(
    tmp_path: Path,
) -> None:
    source = tmp_path / "mid.csv"
    source.write_text(MID_EVENT.replace("1,Ann,W2,D3,", "1,Ann,W2,D3,H"), encoding="utf-8")
    assert_refused(
        source,
        tmp_path / "mid.trf",
        "mid.csv:1: TRF-16 cannot record what is entered for round 3 before any game result",
    )
    target = tmp_path / "mid.txt"  # a crosstable holds it: an unplayed column stays one
    status, _, err = run("convert", str(source), str(target))
    assert status == 0, err
    assert standings(target, "uscf") == standings(source, "uscf")


def test_a_declared_swiss_where_everyone_met_is_refused_for_a_crosstable(
    tmp_path: Path,
) -> None:
    source = tmp_path / "all.trf"
    source.write_text(ALL_MET, encoding="utf-8")
    for name in ("all.txt", "all.csv"):
        assert_refused(
            source,
            tmp_path / name,
            "all.trf:2: a crosstable cannot record the type of tournament (092 Individual: "
            "Swiss-System): read back, it would be ranked as a round robin",
        )
    undeclared = tmp_path / "rr.trf"  # without 092 both read it as a round robin
    undeclared.write_text(ALL_MET.replace("092 Individual: Swiss-System\n", ""), "utf-8")
    status, _, err = run("convert", str(undeclared), str(tmp_path / "rr.txt"))
    assert status == 0, err
    for rules in RULES:
        assert standings(tmp_path / "rr.txt", rules) == standings(undeclared, rules)


def test_a_withdrawal_becomes_a_zero_point_bye_with_the_same_standings(tmp_path: Path) -> None:
    source = tmp_path / "wd.csv"  # Bob and Cy left after round 2: withdrawn in round 3
    source.write_text(
        "#,Name,Rd 1,Rd 2,Rd 3\n1,Ann,W2,D3,W4\n2,Bob,L1,W4,\n3,Cy,W4,D1,\n4,Dan,L3,L2,L1\n",
        encoding="utf-8",
    )
    for name in TARGETS:
        status, _, err = run("convert", str(source), str(tmp_path / name))
        assert status == 0, err
        for rules in RULES:
            assert standings(tmp_path / name, rules) == standings(source, rules), (name, rules)


def converts_or_is_refused(source: Path, folder: Path) -> None:
    """Every target: refused with the code (nothing written), or the same standings under
    every profile."""
    for name in TARGETS:
        target = folder / name
        try:
            run_command(["convert", str(source), str(target)], [])
        except HarknessError as error:
            assert {p.code for p in error.problems} == {"convert-would-change"}, error
            assert not target.exists()
            continue
        for rules in RULES:
            assert standings(target, rules) == standings(source, rules), (name, rules)
        target.unlink()


@pytest.mark.parametrize("name", ["club-swiss.trf", "mdchess-scholastic.txt"])
def test_the_examples_convert_to_every_format_with_the_same_standings(
    name: str, tmp_path: Path
) -> None:
    source = Path(example_path(name))
    for target in TARGETS:
        status, _, err = run("convert", str(source), str(tmp_path / target))
        assert status == 0, err
        for rules in RULES:
            assert standings(tmp_path / target, rules) == standings(source, rules)


def dated(tmp_path: Path, day: str) -> Path:
    """The club example as a TRF-16 file whose section started on ``day`` (record 042)."""
    text = Path(example_path("club-swiss.trf")).read_text(encoding="utf-8")
    source = tmp_path / f"club-{day.replace('/', '')}.trf"
    source.write_text(text.replace("042 2025/10/07", f"042 {day}"), encoding="utf-8")
    return source


@pytest.mark.parametrize("rules", ["uscf", "fide"])
def test_a_section_started_under_the_2026_text_converts_to_a_crosstable(
    tmp_path: Path, rules: str
) -> None:
    """A TRF-16 file dated after 1 March 2026 becomes text and CSV whatever the rules in use:
    the crosstable says its start date, so read back it ranks the same under every profile
    (``fide`` picks the 2026 text from it)."""
    source = dated(tmp_path, "2026/12/01")
    assert standings(source, "fide") == standings(source, "fide-2026")
    assert standings(source, "fide") != standings(source, "fide-2024")
    for name in ("club.txt", "club.csv"):
        target = tmp_path / name
        status, _, err = run("convert", str(source), str(target), "--rules", rules)
        assert status == 0, err
        assert target.read_text(encoding="utf-8").startswith("Start date: 2026-12-01\n")
        for profile in names():
            assert standings(target, profile) == standings(source, profile), (name, profile)
        again = tmp_path / f"{name}.trf"  # and back to TRF-16, 042 and all
        assert run("convert", str(target), str(again))[0] == 0
        assert "\n042 2026-12-01\n" in again.read_text(encoding="utf-8")
        assert standings(again, "fide") == standings(source, "fide")


def test_a_section_started_before_the_2026_text_still_ranks_under_the_2024_text(
    tmp_path: Path,
) -> None:
    source = dated(tmp_path, "2026/02/28")
    target = tmp_path / "club.csv"
    assert run("convert", str(source), str(target), "--rules", "fide")[0] == 0
    assert target.read_text(encoding="utf-8").startswith("Start date: 2026-02-28\n")
    assert standings(target, "fide") == standings(target, "fide-2024") == standings(source, "fide")
    assert standings(target, "fide") != standings(target, "fide-2026")


def test_a_start_date_read_back_otherwise_is_refused_under_the_rules_in_use() -> None:
    """The check compares under the rules in use: a file that lost the start date would
    rank under another C.07 text only with ``fide``, and is refused there, at record 042."""
    source = read_tournament(str(Path(example_path("club-swiss.trf"))))
    source = replace(source, start_date="2026/04/11")
    lost = replace(source, start_date="")
    [problem] = read_back_problems(source, lost, "a crosstable", "fide")
    assert (problem.code, problem.field) == ("convert-would-change", "042")
    assert str(problem) == (
        "a crosstable cannot record the start date (042 2026/04/11): read back, --rules fide "
        "would rank it under fide-2024, not fide-2026"
    )
    for rules in ("uscf", "fide-2026", "mdchess"):
        assert read_back_problems(source, lost, "a crosstable", rules) == []


def test_a_player_read_back_otherwise_is_named_with_the_round_or_rating() -> None:
    source = read_tournament(example_path("club-swiss.trf"))
    game = source.players[0].entries[0]
    assert game.kind.played and game.colour is not None and game.opponent is not None

    def flipped(p: Player) -> Player:  # the colours of player 1's first game, both sides
        if p.id not in (source.players[0].id, game.opponent):
            return p
        e = p.entries[0]
        assert e.colour is not None
        return replace(p, entries=(e._replace(colour=e.colour.opposite), *p.entries[1:]))

    back = replace(source, players=tuple(flipped(p) for p in source.players))
    problems = read_back_problems(source, back, "a crosstable")
    assert [(p.player, p.round, p.code) for p in problems] == [
        (source.players[0].id, 1, "convert-would-change"),
        (game.opponent, 1, "convert-would-change"),
    ]
    flipped_game = game._replace(colour=game.colour.opposite)
    assert problems[0].message == (
        f"a crosstable cannot record the entry {game}: read back, it would be {flipped_game}"
    )
    unrated = replace(source.players[1], rating=None)
    back = replace(source, players=(source.players[0], unrated, *source.players[2:]))
    [rating] = read_back_problems(source, back, "TRF-16")
    assert (rating.player, rating.field) == (unrated.id, "Rating")
    assert read_back_problems(source, source, "TRF-16") == []

"""One answer to "how many rounds have been played" and "which tiebreak order applies",
used by the CLI, the bot and the sheet (core.model.rounds_played, core.standings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.formats.crosstable import read_crosstable
from core.model import as_played, rounds_played
from core.profiles import PROFILES
from core.standings import applicable_order, compute_standings, standings_after

MID_EVENT = """#	Name	Rd 1	Rd 2	Rd 3	Rd 4
1	Ann	W2 (w)	D3 (b)	H
2	Bob	L1 (b)	W4 (w)
3	Cy	W4 (b)	D1 (w)
4	Di	L3 (w)	L2 (b)
"""

#: Three players, every pair met: a round robin.
ROUND_ROBIN = """#	Name	Rd 1	Rd 2	Rd 3
1	Ann	W2 (w)	D3 (b)	U
2	Bob	L1 (b)	U	W3 (w)
3	Cy	U	D1 (w)	L2 (b)
"""


def test_a_round_with_no_game_result_yet_has_not_been_played() -> None:
    t = read_crosstable(MID_EVENT)
    assert (t.rounds, rounds_played(t)) == (4, 2)
    cut = as_played(t)
    assert cut.rounds == 2 and [str(e) for e in cut.player(1).entries] == ["W2 (w)", "D3 (b)"]
    assert as_played(cut) is cut


#: Round 1 paired (Cy has the pairing-allocated bye), a half-point bye asked for round 2.
BYES_AHEAD = """#	Name	Rd 1	Rd 2	Rd 3	Rd 4
1	Ann		H
2	Bob
3	Cy	B
"""


def test_before_any_game_result_no_round_has_been_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Byes entered ahead are no round played: the standings are those before round 1,
    everyone on 0 and tied, nobody first by a bye."""
    t = read_crosstable(BYES_AHEAD)
    assert rounds_played(t) == 0
    before = as_played(t)
    assert before.rounds == 0 and all(p.entries == () for p in before.players)
    ranked = standings_after(t, "uscf")
    assert {(r.place, r.half_points) for r in ranked.rows} == {("1-3", 0)}
    path = tmp_path / "paired.txt"
    path.write_text(BYES_AHEAD)
    assert main(["standings", str(path)]) == 0
    assert "no round played yet" in capsys.readouterr().out


def test_mid_event_standings_are_those_after_the_rounds_played() -> None:
    t = read_crosstable(MID_EVENT)
    ranked = standings_after(t, "uscf")
    assert ranked.tournament.rounds == 2
    assert ranked.rows == compute_standings(t.after_round(2), "uscf").rows
    assert standings_after(t, "uscf", 1).rows == compute_standings(t.after_round(1), "uscf").rows


def test_the_cli_ranks_a_mid_event_crosstable_after_the_rounds_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mid.txt"
    path.write_text(MID_EVENT)
    assert main(["standings", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rounds"] == 2
    assert main(["standings", str(path), "--format", "json", "--after-round", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["standings"] == data["standings"]


def test_a_round_robin_takes_the_round_robin_order() -> None:
    t = read_crosstable(ROUND_ROBIN)
    fide = PROFILES["fide-2024"]
    assert applicable_order(t, fide) == ("DE", "WIN", "SB", "KS")
    assert compute_standings(t, fide).order == ("DE", "WIN", "SB", "KS")
    assert applicable_order(t, PROFILES["uscf"]) == ("MM", "SOLK", "CUM", "OCUM")


def test_a_short_section_takes_the_order_for_its_rounds_and_planned_rounds_before_any() -> None:
    t = read_crosstable(MID_EVENT)
    mdchess = PROFILES["mdchess"]
    assert applicable_order(as_played(t), mdchess, planned=5)[-1] == "MM"
    empty = read_crosstable("#\tName\tRd 1\n1\tAnn\t\n2\tBob\t\n")
    assert applicable_order(as_played(empty), mdchess, planned=5) == ("MM", "SOLK", "CUM", "OCUM")


def test_the_sheet_and_the_pictures_word_no_round_played_from_cores_answer() -> None:
    """The sheet's footer and the standings picture say the state core decided (no round
    kept by core.model.as_played), never "after round 4"."""
    from core.pictures.standings import StandingsPage
    from sheets.tabs import describe

    ranked = standings_after(read_crosstable(BYES_AHEAD), "uscf")
    assert describe(ranked, 4).startswith("No results yet · 3 players")
    assert StandingsPage(ranked, planned=4).subtitle() == "uscf rules · no round played yet"


def test_a_round_whose_games_wait_for_a_decision_has_been_played() -> None:
    """A results log keeps a disputed game out of the tournament until a TD decides it:
    its round is played all the same (``pending``), and the order listed is the one the
    standings of the rounds played use, also when round 1's only game waits."""
    t = read_crosstable(MID_EVENT)
    mdchess = PROFILES["mdchess"]
    assert rounds_played(t, pending={3}) == 3 and as_played(t, pending={3}).rounds == 3
    assert rounds_played(t, pending={1}) == 2 and rounds_played(t, pending={9}) == 4
    first = read_crosstable("#\tName\tRd 1\tRd 2\n1\tAnn\t\t\n2\tBob\t\t\n")
    for pending, rounds in (((), 0), ({1}, 1)):
        cut = as_played(first, pending)
        assert cut.rounds == rounds
        ranked = mdchess.order(5) if rounds == 0 else compute_standings(cut, mdchess).order
        assert applicable_order(cut, mdchess, planned=5) == ranked
    assert applicable_order(as_played(first, {1}), mdchess, planned=5)[-1] == "MM"

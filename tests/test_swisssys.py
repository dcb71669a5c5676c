"""The ``swisssys`` profile: what SwissSys 11 prints, and the profile options a TD can set.

The rule itself is tested on small typed-in tournaments (always run). The printed values of
three real US Chess sections (SwissSys 11 output, Massachusetts and Oregon, 2025–2026) are
checked when the data kept beside the checkout is there, else skipped.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from core.explain import explain
from core.explain_render import render_explanation
from core.formats import read_tournament
from core.formats.crosstable import write_crosstable
from core.problems import HarknessError
from core.profiles import (
    PROFILES,
    changed_options,
    format_options,
    parse_options,
    resolve,
    with_options,
)
from core.standings import UNPLAYED, compute_standings
from tests.builders import crosstable
from tests.shared_data import shared_path


def byes_event() -> Any:
    """Pat's 1.5 points are all unplayed (full-point bye, half-point bye, then a loss);
    Quinn scored 1.5 in play, late (L, D, W)."""
    return crosstable(
        "Pat: B H L3b",
        "Quinn: L3b D4w W5w",
        "Sam: W2w W5b W1w",
        "Zoe: L5w D2b U",
        "Yan: W4b L3w L2b",
    )


def values(rules: Any, codes: str | None = None) -> dict[str, dict[str, Fraction | None]]:
    s = compute_standings(byes_event(), rules, codes)
    return {r.player.name: {c: s.value(c, r.player_index) for c in s.order} for r in s.rows}


# -- the rule ---------------------------------------------------------------------------


def test_cumulative_takes_half_off_for_a_half_point_bye() -> None:
    # Pat: running scores 1, 1.5, 1.5 = 4; minus 1 (full-point bye) and ½ (half-point bye).
    assert values("swisssys")["Pat"]["CUM"] == Fraction(5, 2)
    assert values("uscf")["Pat"]["CUM"] == 3
    # Opponents' Cumulative reads the same Cumulatives: Sam met Pat.
    assert values("swisssys")["Sam"]["OCUM"] == values("uscf")["Sam"]["OCUM"] - Fraction(1, 2)


def test_modified_median_and_solkoff_are_the_uscf_ones() -> None:
    ours, theirs = values("swisssys"), values("uscf")
    for name in ours:
        assert (ours[name]["MM"], ours[name]["SOLK"]) == (theirs[name]["MM"], theirs[name]["SOLK"])


def test_no_all_unplayed_pre_check_the_tiebreaks_decide() -> None:
    # US Chess: Pat's points are all unplayed, so Quinn is ahead before any tiebreak.
    uscf = compute_standings(byes_event(), "uscf", "CUM,MM")
    assert [(r.player.name, r.separated_by) for r in uscf.rows[1:3]] == [
        ("Quinn", "score"),
        ("Pat", UNPLAYED),
    ]
    # SwissSys: Cumulative decides, 2.5 against Quinn's 2 (0 + 0.5 + 1.5).
    swisssys = compute_standings(byes_event(), "swisssys", "CUM,MM")
    assert [(r.player.name, r.separated_by) for r in swisssys.rows[1:3]] == [
        ("Pat", "score"),
        ("Quinn", "CUM"),
    ]


def test_default_order_and_any_order_of_codes() -> None:
    assert PROFILES["swisssys"].order(rounds=3) == ("MM", "SOLK", "CUM", "OCUM")
    assert PROFILES["swisssys"].order(rounds=1) == ("MM", "SOLK", "CUM", "OCUM")
    mine = resolve("swisssys", "solk, cum, ocum, kash, blk, mm")
    assert mine.tiebreaks == ("SOLK", "CUM", "OCUM", "KASH", "BLK", "MM")
    assert (mine.cumulative_half_bye, mine.unplayed_points_rule) == (True, False)


# -- options are kept and can be set ----------------------------------------------------


def test_codes_never_drop_the_options_of_a_profile_object() -> None:
    profile = with_options(PROFILES["uscf"], {"cumulative-half-bye": True})
    s = compute_standings(byes_event(), profile, "CUM,MM")
    assert s.profile.cumulative_half_bye
    assert s.value("CUM", 0) == Fraction(5, 2)
    assert s.order == ("CUM", "MM")


def test_options_switch_uscf_to_swisssys_values_and_order() -> None:
    both = {"cumulative-half-bye": True, "unplayed-rule": False}
    switched = compute_standings(byes_event(), resolve("uscf", "CUM,MM", both))
    plain = compute_standings(byes_event(), "swisssys", "CUM,MM")
    assert [r.player.id for r in switched.rows] == [r.player.id for r in plain.rows]
    assert switched.columns == plain.columns
    assert switched.profile.label == (
        "uscf, Cumulative −½ per half-point bye, no all-unplayed pre-check"
    )
    assert changed_options(resolve("swisssys", options={"unplayed-rule": True})) == {
        "unplayed-rule": True
    }


def test_options_as_text_and_their_errors() -> None:
    options = parse_options("unplayed-rule = No, CUMULATIVE-HALF-BYE=yes")
    assert options == {"unplayed-rule": False, "cumulative-half-bye": True}
    assert parse_options(format_options(options)) == options
    with pytest.raises(HarknessError, match="unknown; the options are cumulative-half-bye"):
        parse_options("half-byes=yes")
    with pytest.raises(HarknessError, match="answer yes or no"):
        parse_options("unplayed-rule=maybe")
    with pytest.raises(HarknessError, match="only for the US Chess profiles"):
        resolve("fide-2024", options={"unplayed-rule": True})


def test_cli_flags_set_the_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "byes.txt"
    path.write_text(write_crosstable(byes_event()))
    args = ["standings", str(path), "--tiebreaks", "CUM,MM", "--format", "json"]
    assert main([*args, "--cumulative-half-bye", "--no-unplayed-rule"]) == 0
    flagged = json.loads(capsys.readouterr().out)
    assert main([*args, "--rules", "swisssys"]) == 0
    assert flagged["standings"] == json.loads(capsys.readouterr().out)["standings"]
    assert flagged["standings"][1]["name"] == "Pat"
    assert flagged["standings"][1]["tiebreaks"]["CUM"] == 2.5
    assert main([*args, "--rules", "swisssys", "--unplayed-rule"]) == 0
    assert json.loads(capsys.readouterr().out)["standings"][1]["name"] == "Quinn"
    assert main(["standings", str(path), "--rules", "fide", "--no-unplayed-rule"]) == 2
    assert "only for the US Chess profiles" in capsys.readouterr().err


# -- explanations say which variant applied ---------------------------------------------


def test_explanation_names_the_half_bye_subtraction() -> None:
    e = explain(compute_standings(byes_event(), "swisssys"), 1)
    text = render_explanation(e, "text")
    assert "−1 for your full-point bye in round 1, −½ for your half-point bye in round 2" in text
    assert "swisssys takes ½ off for a half-point bye" in text
    assert "swisssys has no all-unplayed pre-check" in text
    assert "−½ for your half-point bye in round 2" in render_explanation(e, "markdown")


def test_uscf_explanation_says_the_half_bye_is_kept() -> None:
    text = render_explanation(explain(compute_standings(byes_event(), "uscf"), 1), "text")
    assert "your half-point bye in round 2 keeps its ½: uscf takes off only full points" in text
    assert "a player on the same score who scored in play finishes ahead of you" in text
    label = resolve("uscf", options={"cumulative-half-bye": True}).label
    e = explain(
        compute_standings(byes_event(), resolve("uscf", None, {"cumulative-half-bye": True})), 1
    )
    assert e.profile == label


# -- SwissSys's own printout, three real sections ---------------------------------------


def _printed() -> dict[str, Any]:
    printed = shared_path("data", "us-real", "printed-sample.json")
    files: dict[str, Any] = json.loads(printed.read_text(encoding="utf-8"))["files"]
    return files


@pytest.mark.parametrize(
    "name",
    [
        "us04_or_hello2026_open2_16x3.txt",
        "us12_ma_spiegel2_2025_u300_37x4.txt",
        "us14_or_oscf2026_hs_platinum_19x5.txt",
    ],
)
def test_swisssys_reproduces_the_printed_values_and_order(name: str) -> None:
    section = _printed()[name]
    codes = [c for c in section["codes"] if c != "OPERF"]  # SwissSys's "Op. perf.": not ours
    path = shared_path("data", "us-real", name)
    s = compute_standings(read_tournament(path), "swisssys", ",".join(codes))
    by_id = {r.player.id: r for r in s.rows}
    for number, printed in section["printed"].items():
        i = by_id[int(number)].player_index
        for code in codes:
            assert s.value(code, i) == Fraction(str(printed[code])), (number, code)

    # Players equal on score and every printed value may come in either order.
    def key(player_id: int) -> tuple[Fraction, ...]:
        printed = section["printed"][str(player_id)]
        row = by_id[player_id]
        return (row.score, *(Fraction(str(printed[c])) for c in codes))

    assert [key(r.player.id) for r in s.rows] == [key(p) for p in section["order"]]


def test_fide_explanations_do_not_claim_the_us_pre_check() -> None:
    text = render_explanation(explain(compute_standings(byes_event(), "fide-2024"), 1), "text")
    assert "All your points came from rounds you did not play" not in text

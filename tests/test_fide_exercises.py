"""FIDE's published tie-break exercises (TEC, IA Mario Held, "Exercises in Tie-Breaking"):
every published value of the 5-round Swiss, under the C.07 text of 2024-08 and under the
2026 text (the published value, or the value the 2026 caps change).

Source: ``tests/fide_exercise.py`` (the paper's values, typed in, with its exercise numbers)
and ``tests/corpus/fide-held-swiss5.trf`` (the paper's crosstable).
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from core.formats import read_tournament
from core.model import Tournament
from core.numbers import to_decimal
from core.profiles import resolve
from core.standings import Standings, compute_standings
from core.tiebreaks import Column, Section, tiebreaks_of
from tests.fide_exercise import CHANGED_2026, DIRECT_ENCOUNTER, EXERCISES, PUBLISHED
from tests.shared_data import shared_path

TRF = Path(__file__).resolve().parent / "corpus" / "fide-held-swiss5.trf"
TEXTS = {"2024-08": "fide-2024", "2026": "fide-2026"}


@cache
def tournament() -> Tournament:
    return read_tournament(TRF)


@cache
def column(profile: str, code: str) -> Column:
    return tiebreaks_of("fide")[code].compute(Section(tournament(), resolve(profile)))


@cache
def standings(profile: str, codes: str | None = None) -> Standings:
    return compute_standings(tournament(), profile, codes)


def cases() -> list[Any]:
    result = []
    for text, profile in TEXTS.items():
        for code, values in PUBLISHED.items():
            changed = CHANGED_2026.get(code, {}) if text == "2026" else {}
            for player, value in values.items():
                expected = changed.get(player, value)
                label = f"exercise-{EXERCISES[code]}-{code}-{text}-player-{player}"
                result.append(pytest.param(profile, code, player, expected, id=label))
    return result


@pytest.mark.parametrize(("profile", "code", "player", "expected"), cases())
def test_published_value(profile: str, code: str, player: int, expected: Decimal | None) -> None:
    value = column(profile, code).value(tournament().index(player))
    if expected is None:
        assert value is None
        return
    assert value is not None
    digits = tiebreaks_of("fide")[code].digits
    assert to_decimal(value, digits) == expected


def test_every_published_code_is_checked() -> None:
    assert set(PUBLISHED) == set(EXERCISES)
    assert set(CHANGED_2026) <= set(PUBLISHED)
    assert all(len(PUBLISHED[code]) == 16 for code in PUBLISHED if code not in ("APRO", "PTP"))


@pytest.mark.parametrize("profile", TEXTS.values())
@pytest.mark.parametrize("exercise", DIRECT_ENCOUNTER)
def test_exercises_23_24_direct_encounter_leaves_the_tied_group_shared(
    exercise: str, profile: str
) -> None:
    # The place each tied player keeps after DE: none of them has met all the others and no
    # score is out of another's reach, so the whole group shares its place.
    ranked = standings(profile, "DE")
    group, rank = DIRECT_ENCOUNTER[exercise]
    for player in group:
        assert ranked.row_of(player).place == f"{rank}-{rank + len(group) - 1}", exercise


def test_exercise_09_average_of_opponents_buchholz_is_exact_not_rounded() -> None:
    # Player 4: opponents' Buchholz 11½ + 14 + 15½ + 12½ = 53½ over 4 games.
    assert column("fide-2024", "AOB").value(tournament().index(4)) == Fraction(107, 8)


def test_exercise_04_the_2026_cap_is_explained_round_by_round() -> None:
    breakdown = column("fide-2026", "BH").breakdowns[tournament().index(4)]
    assert breakdown.per_round == (6, 5, 3, 7, 7)  # half-points; round 2 the bye's dummy
    assert "half-point bye" in breakdown.round_notes[1]
    assert "capped at 2.5" in breakdown.round_notes[1]
    assert "counted as 3" in breakdown.round_notes[0]  # 12's byes at the end count as draws


def test_exercise_07_the_voluntarily_unplayed_round_is_cut_first() -> None:
    breakdown = column("fide-2024", "BH/C1").breakdowns[tournament().index(4)]
    assert breakdown.dropped == (2,)
    assert "16.5" in breakdown.note


def test_held_swiss5_standings_under_each_text() -> None:
    def top(profile: str) -> list[tuple[str, int]]:
        return [(row.place, row.player.id) for row in standings(profile).rows[:9]]

    # 3½ points: 3 and 4 by Buchholz Cut-1; 1 and 16 equal on both Buchholz, SB decides.
    expected_top = [("1", 2), ("2", 3), ("3", 4), ("4", 1), ("5", 16), ("6", 6)]
    assert top("fide-2024")[:6] == expected_top
    assert top("fide-2026")[:6] == expected_top
    # 2½ points: 11's forfeit win counts its own 2½ in 2024, 9's 1½ in 2026.
    assert top("fide-2024")[6:] == [("7", 11), ("8", 8), ("9", 5)]
    assert top("fide-2026")[6:] == [("7", 8), ("8", 11), ("9", 5)]
    assert standings("fide-2024").row_of(16).separated_by == "SB"


def test_cli_standings_json_with_the_2026_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(TRF), "--rules", "fide-2026", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rules"], data["rounds"]) == ("fide-2026", 5)
    assert data["tiebreaks"] == ["BH/C1", "BH", "SB", "DE", "WON", "BPG"]
    david = next(row for row in data["standings"] if row["id"] == 4)
    assert david["tiebreaks"]["BH"] == 14 and david["tiebreaks"]["SB"] == 9.25
    assert david["tiebreaks"]["DE"] is None  # decided before DE: no value outside a tie


def test_cli_rules_fide_reads_the_start_date(capsys: pytest.CaptureFixture[str]) -> None:
    # Record 042 is 2024-08-01, before 1 March 2026: the 2024-08 text.
    assert (
        main(
            ["standings", str(TRF), "--rules", "fide", "--tiebreaks", "bh,aob", "--format", "json"]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "fide-2024"
    david = next(row for row in data["standings"] if row["id"] == 4)
    assert david["tiebreaks"] == {"BH": 15, "AOB": 13.38}


@pytest.mark.parametrize(
    ("code", "player", "expected"),
    [
        ("BH/C2", 4, 10),  # 15 − 3½ (the half-point bye, cut first) − 1½
        ("BH/M1", 2, Fraction(17, 2)),  # 13 − 1 − 3½
        ("BH/M2", 2, Fraction(7, 2)),  # 13 − 1 − 1½ − 3½ − 3½
    ],
)
def test_modifiers_the_paper_does_not_publish_cut_the_same_way(
    code: str, player: int, expected: Fraction
) -> None:
    assert column("fide-2024", code).value(tournament().index(player)) == expected


def test_the_typed_in_exercise_agrees_with_the_exercise_files_beside_the_checkout() -> None:
    # A cross-check of our transcription against the exercise files kept in ../shared.
    fide = shared_path("data", "fide")
    assert read_tournament(fide / "held_swiss5.trf") == tournament()
    data = json.loads((fide / "held_swiss5_expected.json").read_text())["swiss5"]

    def code_of(key: str) -> str:
        return "REP" if key.startswith("GE") else key.split(" ")[0].replace("-", "/")

    def decimals(values: dict[str, float | None]) -> dict[int, Decimal | None]:
        return {int(p): None if v is None else Decimal(str(v)) for p, v in values.items()}

    published = {
        code_of(k): decimals(v) for k, v in data["published"].items() if not k.startswith("DE")
    }
    assert published == PUBLISHED
    changed = data["rules2026_changed_values"]
    assert {code_of(k): decimals(v) for k, v in changed.items() if k[0] != "_"} == CHANGED_2026
    groups = {k.split()[3].rstrip(","): v for k, v in data["published"].items() if k[:2] == "DE"}
    assert {
        exercise: (tuple(sorted(map(int, ranks))), min(ranks.values()))
        for exercise, ranks in groups.items()
    } == DIRECT_ENCOUNTER

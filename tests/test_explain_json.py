"""``harkness explain --format json`` carries the reasons as data (a kind and its values,
exact numbers as ``{"num", "den"}``) beside the words, whose keys and values are those of
earlier versions."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from core.cli import main
from core.explain import explain
from core.explain_render import note_text, reason_text, round_text, sentence, to_json_dict
from core.formats import read_tournament
from core.standings import Standings, compute_standings
from tests.generate import random_swiss

CORPUS = Path(__file__).parent / "corpus"
#: The keys of the JSON before the reasons as data were added: kept, with the same meaning.
WORD_KEYS = {
    "player",
    "rank",
    "rounds",
    "profile",
    "order",
    "score_group",
    "comparisons",
    "tiebreaks",
    "notes",
    "after_round",
    "headline",
}
COMPARISON_KEYS = {"other", "above", "decided_by", "ours", "theirs", "equal", "sentence"}
TIEBREAK_KEYS = {
    "code",
    "name",
    "rule",
    "value",
    "shown",
    "note",
    "parts",
    "adjustment",
    "adjustment_reason",
    "summary",
    "variant",
    "digits",
}
PART_KEYS = {"round", "entry", "opponent", "value", "dropped", "reason"}


def _exact(value: dict[str, int] | None) -> Fraction | None:
    if value is None:
        return None
    assert set(value) == {"num", "den"} and value["den"] >= 1
    return Fraction(value["num"], value["den"])


@pytest.fixture(scope="module")
def club() -> Standings:
    return compute_standings(read_tournament(CORPUS / "explain-club.csv"), "uscf")


def test_the_words_keep_their_keys_and_the_reasons_sit_beside_them(club: Standings) -> None:
    e = explain(club, 7)  # Gus: L3 L5 B H B, placed by the all-unplayed-points rule
    data = json.loads(json.dumps(to_json_dict(e)))
    assert set(data) == WORD_KEYS | {"reason", "note_reasons"}
    assert all(set(c) == COMPARISON_KEYS | {"reason"} for c in data["comparisons"])
    for tb in data["tiebreaks"]:
        assert set(tb) == TIEBREAK_KEYS | {"taken_off", "variant_reason"}
        assert all(set(p) == PART_KEYS | {"note"} for p in tb["parts"])
    assert data["notes"] == [note_text(e, n) for n in e.notes]
    assert data["note_reasons"] == [{"kind": "unplayed-pre-check", "score": {"num": 5, "den": 2}}]
    assert data["reason"]["kind"] == "all-unplayed" and data["reason"]["decided_by"] == "unplayed"
    assert data["reason"]["other"] == {
        "id": 8,
        "name": "Hana Hill",
        "place": "5",
        "score": {"num": 5, "den": 2},
    }
    assert data["comparisons"][0]["sentence"] == sentence(e, e.comparisons[0])
    assert reason_text(e)  # the short why in words is still the renderer's
    cum = next(tb for tb in data["tiebreaks"] if tb["code"] == "CUM")
    assert cum["taken_off"] == {
        "kind": "taken-off",
        "taken": [
            {"round": 3, "entry": "full-point bye", "points": {"num": 1, "den": 1}},
            {"round": 5, "entry": "full-point bye", "points": {"num": 1, "den": 1}},
        ],
    }
    assert cum["variant_reason"] == {"kind": "half-bye-kept", "rounds": [4], "profile": "uscf"}
    mm = next(tb for tb in data["tiebreaks"] if tb["code"] == "MM")
    assert [p["note"] for p in mm["parts"][:3]] == [
        {
            "kind": "opponent-score",
            "opponent": "Cara Chen",
            "opponent_id": 3,
            "scored": {"num": 5, "den": 2},
        },
        {
            "kind": "opponent-score",
            "opponent": "Eli Evans",
            "opponent_id": 5,
            "scored": {"num": 2, "den": 1},
        },
        {"kind": "own-unplayed", "entry": "full-point bye"},
    ]
    assert [p["reason"] for p in mm["parts"]] == [
        round_text(p.note) for p in e.tiebreak("MM").parts
    ]


def test_every_exact_value_of_the_reasons_is_the_explanations_own() -> None:
    """Ratings averages (thirds, sevenths) and US Chess's halves, exactly: a decimal in JSON
    could not hold them."""
    standings = compute_standings(random_swiss(30, 5, seed=3), "uscf", "MM,SOLK,AOR,PERF")
    thirds = 0
    for row in standings.rows:
        e = explain(standings, row.player.id)
        data = to_json_dict(e)
        for c, out in zip(e.comparisons, data["comparisons"], strict=True):
            reason = out["reason"]
            assert reason["kind"] == c.kind.value
            assert (_exact(reason["ours"]), _exact(reason["theirs"])) == (c.ours, c.theirs)
            assert [(code, _exact(v)) for code, v in reason["equal"]] == list(c.equal)
            assert _exact(reason["other"]["score"]) == c.other.score
            thirds += any(v is not None and v.denominator > 2 for v in (c.ours, c.theirs))
        for tb, out_tb in zip(e.tiebreaks, data["tiebreaks"], strict=True):
            for part, out_part in zip(tb.parts, out_tb["parts"], strict=True):
                note: dict[str, Any] | None = out_part["note"]
                assert (note is None) == (part.note is None)
                if note is not None and part.note is not None:
                    assert note["kind"] == part.note.kind.value
                    assert _exact(note.get("scored")) == part.note.scored
                    assert _exact(note.get("counted")) == part.note.counted
    assert thirds  # the case has values a decimal would round


def test_the_explain_command_prints_the_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(CORPUS / "explain-club.csv"), "Fay", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reason"]["kind"] == "decided" and data["reason"]["decided_by"] == "MM"
    assert (data["reason"]["ours"], data["reason"]["theirs"]) == (
        {"num": 12, "den": 1},
        {"num": 11, "den": 1},
    )
    assert data["comparisons"][0]["decided_by"] == "MM"  # the word keys as before

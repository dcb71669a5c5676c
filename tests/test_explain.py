"""Explanations: "why did I get 3rd?" for every place and every tiebreak number."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.cli import main
from core.examples import example_path, load_example
from core.explain import Why, explain
from core.explain_render import (
    EMBED_DESCRIPTION_LIMIT,
    MESSAGE_LIMIT,
    headline,
    note_text,
    reason_text,
    render_explanation,
    round_text,
    sentence,
    summary,
    taken_off_text,
    to_json_dict,
    to_markdown,
)
from core.formats import read_tournament
from core.players import find, unfound
from core.problems import HarknessError
from core.standings import Standings, compute_standings
from tests.builders import nine_round_event

CORPUS = Path(__file__).parent / "corpus"
SNAPSHOTS = Path(__file__).parent / "snapshots"


@pytest.fixture(scope="module")
def seed() -> Standings:
    return compute_standings(load_example("mdchess-scholastic.txt"), "mdchess")


@pytest.fixture(scope="module")
def club() -> Standings:
    return compute_standings(read_tournament(CORPUS / "explain-club.csv"), "uscf")


def test_player_a_and_b_are_decided_by_modified_median(seed: Standings) -> None:
    e = explain(seed, 1)
    (below,) = e.comparisons
    assert sentence(e, below) == (
        "Player A and Player B both scored 3; Modified Median 8.5 vs 8 decides."
    )
    assert (below.decided_by, below.ours, below.theirs) == ("MM", 8.5, 8)


def test_player_c_and_d_are_decided_by_solkoff_after_equal_medians(seed: Standings) -> None:
    e = explain(seed, 4)
    (above,) = e.comparisons
    assert sentence(e, above) == (
        "Player C and Player D both scored 3; Modified Median 6.5 each; Solkoff 7.5 vs 6.5 decides."
    )
    assert above.equal == (("MM", 6.5),) and above.above


def test_every_seed_player_is_explained_with_the_published_numbers(seed: Standings) -> None:
    for row in seed.rows:
        e = explain(seed, row.player.id)
        assert e.player.place == row.place and e.rank == row.rank
        for tb in e.tiebreaks:
            assert tb.value == seed.value(tb.code, row.player_index)
        group = {p.id for p in e.score_group}
        assert row.player.id in group
        assert all(p.score == e.player.score for p in e.score_group)


def test_a_player_alone_on_their_score_needs_no_tiebreak(seed: Standings) -> None:
    e = explain(seed, 5)  # Player E, the only 2½
    assert e.comparisons == ()
    assert any("Nobody else scored 2.5" in note_text(e, n) for n in e.notes)


def test_modified_median_parts_say_which_round_was_dropped_and_why(seed: Standings) -> None:
    mm = explain(seed, 4).tiebreaks[0]
    assert [p.dropped for p in mm.parts] == [False, True, False, False]
    assert round_text(mm.parts[1].note) == "Player J scored 0"
    assert summary(mm) == (
        "Modified Median 6.5: plus score: the lowest is dropped; dropped round 2 (0)."
    )
    assert sum(p.value for p in mm.parts if not p.dropped and p.value) == mm.value


def test_an_opponent_who_withdrew_is_counted_with_half_points(club: Standings) -> None:
    eli = explain(club, 5)
    solkoff = next(tb for tb in eli.tiebreaks if tb.code == "SOLK")
    assert round_text(solkoff.parts[2].note) == (
        "Dev Dutta scored 0.5, counted as 1.5: withdrew after round 3, so rounds 4–5 count ½ each"
    )


def test_own_unplayed_rounds_and_the_cumulative_bye_subtraction(club: Standings) -> None:
    gus = explain(club, 7)
    mm = gus.tiebreaks[0]
    assert round_text(mm.parts[2].note) == "your own full-point bye: counts as an opponent with 0"
    cum = next(tb for tb in gus.tiebreaks if tb.code == "CUM")
    assert cum.adjustment == -2
    assert "full-point bye in round 3" in taken_off_text(cum.taken_off)
    assert any(
        "All your points came from rounds you did not play" in note_text(gus, n) for n in gus.notes
    )


def test_the_all_unplayed_points_rule_is_the_decisive_comparison(club: Standings) -> None:
    gus = explain(club, 7)
    (above,) = gus.comparisons
    assert above.decided_by == "unplayed"
    assert "points all came from rounds not played" in sentence(gus, above)


def test_a_forfeit_win_counts_as_an_own_unplayed_round(club: Standings) -> None:
    fay = explain(club, 6)
    assert fay.tiebreaks[0].parts[1].entry == "X8"
    assert fay.tiebreaks[0].parts[1].value == 0
    cum = next(tb for tb in fay.tiebreaks if tb.code == "CUM")
    assert "forfeit win in round 2" in taken_off_text(cum.taken_off)


def test_a_shared_place_and_a_coin_flip_are_stated_plainly() -> None:
    from tests.builders import crosstable

    t = crosstable("A: W2", "B: L1", "C: W4", "D: L3")
    shared = explain(compute_standings(t, "uscf"), 1)
    assert shared.player.place == "1-2"
    assert any("You share place 1-2 with C" in note_text(shared, n) for n in shared.notes)
    assert shared.comparisons[0].decided_by is None
    flipped = explain(compute_standings(t, "uscf", "MM,SOLK,COIN"), 1)
    assert any("coin flip was used" in note_text(flipped, n) for n in flipped.notes)


def test_modified_median_moved_last_is_explained() -> None:
    standings = compute_standings(load_example().after_round(2), "mdchess")
    e = explain(standings, 1, after_round=2)
    assert e.order[-1] == "MM"
    assert any("Modified Median moves to last place" in note_text(e, n) for n in e.notes)
    assert "after round 2" in headline(e)


def test_an_undefined_tiebreak_is_stated(seed: Standings) -> None:
    standings = compute_standings(seed.tournament, "uscf", "MM,AOR")
    e = explain(standings, 1)
    assert any(
        "Average rating of opponents is not defined for you" in note_text(e, n) for n in e.notes
    )
    assert e.tiebreaks[1].shown == "undefined"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("3", 3),
        ("#3", 3),
        ("player c", 3),
        ("Ana", 1),
        ("hill", 8),
        ("GUS GARCIA", 7),
    ],
)
def test_a_player_is_found_by_number_prefix_or_substring(query: str, expected: int) -> None:
    t = read_tournament(CORPUS / "explain-club.csv")
    if query.startswith("player"):
        t = load_example()
    found = find(t.players, query, number=lambda p: p.id, name=lambda p: p.name).match
    assert found is not None and found.id == expected


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        ("ar", "ambiguous-player", "matches 3 players"),
        ("Zed", "unknown-player", "no player has that name"),
        ("99", "unknown-number", "there is no player 99"),
        ("Ana Alverez", "unknown-player", "did you mean Ana Alvarez"),
    ],
)
def test_an_unknown_or_ambiguous_player_lists_the_candidates(
    query: str, code: str, message: str
) -> None:
    players = read_tournament(CORPUS / "explain-club.csv").players
    found = find(players, query, number=lambda p: p.id, name=lambda p: p.name)
    assert found.match is None
    problem = unfound(found, query, players, number=lambda p: p.id, name=lambda p: p.name)
    assert (problem.code, problem.field, problem.value) == (code, "player", query)
    assert message in problem.message and problem.message == f"PLAYER {problem.detail}"


@pytest.mark.parametrize("query", ["9" * 5000, "ab" * 60_000])
def test_an_unknown_player_of_any_length_is_quoted_shortened(query: str) -> None:
    """A typed name or number of any length is quoted cut to a few dozen characters: the
    answer never repeats a huge input (the whole input stays the problem's value)."""
    players = read_tournament(CORPUS / "explain-club.csv").players
    found = find(players, query, number=lambda p: p.id, name=lambda p: p.name)
    problem = unfound(found, query, players, number=lambda p: p.id, name=lambda p: p.name)
    assert problem.value == query and len(problem.message) < 300
    assert query[:50] in problem.message and "…" in problem.message


def test_explain_command_exit_codes_and_formats(capsys: pytest.CaptureFixture[str]) -> None:
    seed = example_path()
    assert main(["explain", seed, "player"]) == 2
    assert "matches 10 players" in capsys.readouterr().err
    assert main(["explain", seed, "Player D", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"]["place"] == "4" and data["comparisons"][0]["decided_by"] == "SOLK"
    assert main(["explain", seed, "1", "--after-round", "3", "--format", "markdown"]) == 0
    assert "after round 3" in capsys.readouterr().out


SNAPSHOT_CASES = {
    "club-gus-byes": ("explain-club.csv", 7),
    "club-fay-forfeit-win": ("explain-club.csv", 6),
    "club-eli-opponent-withdrew": ("explain-club.csv", 5),
    "nine-rounds-p2": ("nine-rounds", 2),
}


@pytest.mark.parametrize("case", sorted(SNAPSHOT_CASES))
@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_rendered_explanations_match_their_snapshots(case: str, fmt: str) -> None:
    source, player = SNAPSHOT_CASES[case]
    t = nine_round_event() if source == "nine-rounds" else read_tournament(CORPUS / source)
    rendered = render_explanation(explain(compute_standings(t, "uscf"), player), fmt)
    snapshot = SNAPSHOTS / f"{case}.{'md' if fmt == 'markdown' else 'txt'}"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        snapshot.parent.mkdir(exist_ok=True)
        snapshot.write_text(rendered, encoding="utf-8")
    assert rendered == snapshot.read_text(encoding="utf-8")


def test_json_explanation_is_plain_data(club: Standings) -> None:
    data = to_json_dict(explain(club, 7))
    json.dumps(data)
    assert data["tiebreaks"][0]["parts"][2]["value"] == 0


def test_every_markdown_explanation_of_a_200_player_9_round_event_fits_discord() -> None:
    from tests.generate import random_swiss

    standings = compute_standings(random_swiss(200, 9, seed=7), "mca")
    for row in standings.rows:
        md = to_markdown(explain(standings, row.player.id))
        assert len(md.summary) <= MESSAGE_LIMIT
        assert md.details and all(len(d) <= EMBED_DESCRIPTION_LIMIT for d in md.details)


def test_fide_explanations_name_the_dummy_opponent_and_the_2026_cap() -> None:
    held = Path(__file__).resolve().parent / "corpus" / "fide-held-swiss5.trf"
    standings = compute_standings(read_tournament(held), "fide-2026")
    bh = next(tb for tb in explain(standings, 4).tiebreaks if tb.code == "BH")
    assert round_text(bh.parts[1].note) == (
        "half-point bye: a game against a dummy opponent with your "
        "own score, 3.5, capped at 2.5, half the maximum score "
        "(C.07 16.4, 2026 text)"
    )
    assert round_text(bh.parts[0].note).startswith("Nick scored 2, counted as 3")
    assert round_text(bh.parts[2].note) == "Opal scored 1.5"


def test_a_points_column_that_disagrees_is_a_note_of_the_players_explanation() -> None:
    from core.formats.trf import read_trf

    trf = (
        "XXR 1\n"
        "001    1      Ann                                                                2.0    1"
        "     2 w 1\n"
        "001    2      Bob                                                                0.0    2"
        "     1 b 0\n"
    )
    standings = compute_standings(read_trf(trf, "club.trf"), "uscf")
    ann = explain(standings, 1)
    assert note_text(ann, ann.notes[-1]) == (
        "The file says otherwise about your score: Ann: the points column says 2.0, the "
        "results add up to 1; the results are used."
    )
    bob = explain(standings, 2)
    assert not any("points column" in note_text(bob, n) for n in bob.notes)


def test_a_fide_explanation_quotes_no_us_chess_rule() -> None:
    """Under a FIDE profile no explanation quotes US Chess 34E (the all-unplayed pre-check
    is US Chess's), even for a player whose every point came from unplayed rounds and who
    finishes first."""
    from core.formats.crosstable import read_crosstable

    t = read_crosstable(
        "#\tName\tRd 1\tRd 2\n1\tAnn\tB\tX2\n2\tBob\tL3 (w)\tF1\n3\tCy\tW2 (b)\tU\n"
    )
    for profile in ("fide-2024", "fide-2026"):
        standings = compute_standings(t, profile)
        assert standings.rows[0].player.name == "Ann"
        for row in standings.rows:
            text = render_explanation(explain(standings, row.player.id), "text")
            assert "US Chess" not in text and "34E" not in text, text
    us = compute_standings(t, "uscf")
    assert "US Chess 34E" in render_explanation(explain(us, 1), "text")


def test_the_short_reason_is_answered_by_core_not_read_back_from_its_notes(
    seed: Standings,
) -> None:
    """The sheet's "why" column is :attr:`Explanation.reason`: the decisive comparison, or
    for a player alone on their score the note saying no tiebreak was needed."""
    for row in seed.rows:
        e = explain(seed, row.player.id)
        if e.alone:
            assert e.reason in e.notes and e.reason.kind is Why.ALONE
            assert reason_text(e).startswith("Nobody else scored")
        else:
            assert e.reason in e.comparisons
            assert reason_text(e) in [sentence(e, c) for c in e.comparisons]


def test_a_rules_problem_carries_its_code_field_and_value() -> None:
    from core.profiles import resolve

    with pytest.raises(HarknessError) as raised:
        resolve("uscf", "MM,XYZ,MM")
    found = {(p.code, p.field, p.value) for p in raised.value.problems}
    assert found == {("unknown-code", "tiebreaks", "XYZ"), ("code-twice", "tiebreaks", "MM")}
    assert all(p.detail and "--" not in p.detail for p in raised.value.problems)


def test_an_opponents_absence_is_worded_with_an() -> None:
    """US Chess 34E1: an opponent's absence counts ½, named "an absence", never "a absence"."""
    from core.formats.trf import read_trf

    trf = (
        "XXR 2\n"
        "001    1      Ann                                                                2.0    1"
        "     2 w 1     3 b 1\n"
        "001    2      Bob                                                                0.0    3"
        "     1 b 0\n"
        "001    3      Cy                                                                 1.0    2"
        "  0000 - +     1 w 0\n"
    )
    ann = explain(compute_standings(read_trf(trf, "club.trf"), "uscf"), 1)
    rounds = [round_text(part.note) for part in ann.tiebreaks[0].parts]
    assert rounds[0] == "Bob scored 0, counted as 0.5: an absence in round 2 counts ½"
    assert rounds[1] == "Cy scored 1, counted as 0.5: a full-point bye in round 1 counts ½"

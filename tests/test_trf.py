"""TRF-16 (FIDE Handbook C.04 Annex 2): what a file means, what is written, where a problem is."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.examples import example_path, load_example
from core.formats import read_text
from core.formats.trf import read_trf, write_trf
from core.model import Colour, EntryKind, Player, RoundEntry, Tournament
from core.problems import HarknessError, Problem
from tests.generate import random_swiss
from tests.strategies import tournaments

#: FIDE's exercise tournament (tests/fide_exercise.py), typed in as TRF-16.
HELD_SWISS5 = Path(__file__).resolve().parent / "corpus" / "fide-held-swiss5.trf"

# A small valid file: two header lines, then players 1–4 on lines 3–6, two rounds.
# Round 1 is columns 92–99 (opponent 92–95, colour 97, result 99); round 2 is 102–109.
SMALL = write_trf(
    Tournament(
        (
            Player(
                1, "Ann", (RoundEntry.win(2, Colour.WHITE), RoundEntry.draw(3, Colour.BLACK)), 1800
            ),
            Player(
                2, "Bob", (RoundEntry.loss(1, Colour.BLACK), RoundEntry.win(4, Colour.WHITE)), 1700
            ),
            Player(
                3, "Cy", (RoundEntry.draw(4, Colour.WHITE), RoundEntry.draw(1, Colour.WHITE)), None
            ),
            Player(
                4, "Di", (RoundEntry.draw(3, Colour.BLACK), RoundEntry.loss(2, Colour.BLACK)), 1500
            ),
        ),
        2,
        name="Small",
    )
)


def edit(text: str, line: int, column: int, new: str) -> str:
    """``text`` with the characters from ``line``:``column`` (1-based) replaced by ``new``."""
    lines = text.split("\n")
    old = lines[line - 1]
    lines[line - 1] = old[: column - 1] + new + old[column - 1 + len(new) :]
    return "\n".join(lines)


def cut(text: str, line: int, length: int) -> str:
    """``text`` with line ``line`` cut to its first ``length`` characters."""
    lines = text.split("\n")
    lines[line - 1] = lines[line - 1][:length]
    return "\n".join(lines)


def problems_of(text: str) -> list[Problem]:
    with pytest.raises(HarknessError) as caught:
        read_trf(text, "club.trf")
    return list(caught.value.problems)


def where(problems: list[Problem]) -> list[tuple[int | None, int | None]]:
    return [(p.line, p.column) for p in problems]


def without_withdrawals(t: Tournament) -> Tournament:
    """What TRF-16 can say: a round after withdrawal is a zero-point bye."""
    zero = RoundEntry(EntryKind.ZERO_BYE)
    return replace(
        t,
        players=tuple(
            replace(
                p, entries=tuple(zero if e.kind is EntryKind.WITHDRAWN else e for e in p.entries)
            )
            for p in t.players
        ),
    )


# --- The FIDE exercise file -------------------------------------------------------------


def test_the_fide_exercise_file_reads_with_its_header_and_every_kind_of_round() -> None:
    t = read_trf(HELD_SWISS5.read_text(encoding="utf-8"))
    assert (len(t), t.rounds) == (16, 5)
    assert t.name == "FIDE C.07 2023 Tie-Break Exercises"
    assert t.start_date == "2024-08-01"
    assert t.records == (("062", "16"),)
    assert t.round_robin is None
    bruno = t.player(2)
    assert (bruno.name, bruno.rating, bruno.sex, bruno.federation, bruno.birth_date) == (
        "Bruno",
        2150,
        "m",
        "NOR",
        "1990/01/01",
    )
    assert bruno.entries[0] == RoundEntry.win(10, Colour.BLACK)
    assert t.player(4).entries[1] == RoundEntry(EntryKind.HALF_BYE)
    assert t.player(6).entries[2] == RoundEntry(EntryKind.PAIRING_BYE)
    assert t.player(12).entries[2:] == (
        RoundEntry(EntryKind.FORFEIT_WIN, 14, Colour.WHITE),
        RoundEntry(EntryKind.ZERO_BYE),
        RoundEntry(EntryKind.ZERO_BYE),
    )
    assert t.player(14).entries[2] == RoundEntry(EntryKind.FORFEIT_LOSS, 12, Colour.BLACK)
    assert t.player(13).entries[1] == RoundEntry.draw(1, Colour.WHITE)


def test_the_fide_exercise_file_scores_agree_with_its_points_column() -> None:
    text = HELD_SWISS5.read_text(encoding="utf-8")
    printed = {
        int(line[4:8]): line[80:84].strip() for line in text.splitlines() if line.startswith("001")
    }
    t = read_trf(text)
    assert {p.id: f"{p.half_points / 2:.1f}" for p in t} == printed


def test_the_fide_exercise_file_writes_back_unchanged() -> None:
    text = HELD_SWISS5.read_text(encoding="utf-8")
    assert write_trf(read_trf(text)) == text


def test_players_keep_the_order_of_the_file() -> None:
    t = read_trf(HELD_SWISS5.read_text(encoding="utf-8"))
    assert [p.id for p in t.players][:5] == [2, 1, 3, 4, 16]


# --- The bundled example ----------------------------------------------------------------


def test_the_club_swiss_example_has_every_kind_of_round() -> None:
    t = load_example("club-swiss.trf")
    assert (len(t), t.rounds, t.name) == (12, 5, "Riverside Chess Club Autumn Swiss")
    assert t.start_date == "2025/10/07"
    kinds = {e.kind for p in t for e in p.entries}
    assert kinds == set(EntryKind) - {EntryKind.ABSENT, EntryKind.WITHDRAWN}
    assert [p.rating is None for p in t].count(True) == 3
    withdrew = t.player(8).entries
    assert [e.kind for e in withdrew[3:]] == [EntryKind.ZERO_BYE] * 2
    assert all(e.played for e in withdrew[:3])
    late = t.player(12)
    assert late.entries[0].kind is EntryKind.ZERO_BYE and late.entered_in == 2


def test_the_club_swiss_example_writes_back_unchanged() -> None:
    text = Path(example_path("club-swiss.trf")).read_text(encoding="utf-8")
    assert write_trf(read_trf(text)) == text


def test_trf_is_recognised_by_its_player_lines() -> None:
    assert read_text(SMALL) == read_trf(SMALL)


# --- Reading ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "entry"),
    [
        ("   2 w 1", RoundEntry.win(2, Colour.WHITE)),
        ("   2 b =", RoundEntry.draw(2, Colour.BLACK)),
        ("   2 w 0", RoundEntry.loss(2, Colour.WHITE)),
        ("   2 w W", RoundEntry.win(2, Colour.WHITE)),  # not rated: still a game
        ("   2 b D", RoundEntry.draw(2, Colour.BLACK)),
        ("   2 b l", RoundEntry.loss(2, Colour.BLACK)),
        ("   2 w +", RoundEntry(EntryKind.FORFEIT_WIN, 2, Colour.WHITE)),
        ("   2 - -", RoundEntry(EntryKind.FORFEIT_LOSS, 2)),
        ("   0 - F", RoundEntry(EntryKind.FULL_BYE)),
        ("0000 - U", RoundEntry(EntryKind.PAIRING_BYE)),
        ("     - H", RoundEntry(EntryKind.HALF_BYE)),
        ("   0 - z", RoundEntry(EntryKind.ZERO_BYE)),
        ("   0 -  ", RoundEntry(EntryKind.ABSENT)),
        ("        ", RoundEntry(EntryKind.ABSENT)),
        # An unpaired round written with a forfeit or draw code and no opponent.
        ("0000 - +", RoundEntry(EntryKind.FULL_BYE)),
        ("0000 - =", RoundEntry(EntryKind.HALF_BYE)),
        ("0000 - -", RoundEntry(EntryKind.ZERO_BYE)),
        ("       -", RoundEntry(EntryKind.ZERO_BYE)),
        ("     w +", RoundEntry(EntryKind.FULL_BYE)),
        ("0000 -  ", RoundEntry(EntryKind.ABSENT)),
        ("     -  ", RoundEntry(EntryKind.ABSENT)),
    ],
)
def test_every_result_code_of_trf16(block: str, entry: RoundEntry) -> None:
    mirror = {
        EntryKind.WIN: "0",
        EntryKind.DRAW: "=",
        EntryKind.LOSS: "1",
        EntryKind.FORFEIT_WIN: "-",
        EntryKind.FORFEIT_LOSS: "+",
    }
    other = f"   1 - {mirror[entry.kind]}" if entry.opponent else "        "
    text = edit(SMALL, 3, 92, block)  # player 1, round 1
    text = edit(text, 4, 92, other)  # player 2, round 1
    assert read_trf(text).player(1).entries[0] == entry


_FIELDS = ("   0", "0000", "    ", "   7", "  12", " 123", "0012", "9999", " 1 2", "12  ", "  x1")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["  ", " x"]),
            st.sampled_from(_FIELDS),
            st.sampled_from(list("wbWB- x")),
            st.sampled_from(list("10=WDLwdl+-FUHZfuhz XQ")),
        ),
        max_size=12,
    )
)
def test_a_line_read_in_one_pass_reads_as_block_by_block(
    blocks: list[tuple[str, str, str, str]],
) -> None:
    from core.formats.trf import _plain_rounds, _read_rounds, _Reading

    line = " " * 89 + "".join(
        f"{lead}{field} {colour} {code}" for lead, field, colour, code in blocks
    )
    line = line.rstrip()
    reading = _Reading("x.trf")
    by_block = _read_rounds(line, 1, 1, reading, {}, {})
    in_one_pass = _plain_rounds(line, {})
    if in_one_pass is not None:  # only what the block reader takes without a word
        assert (in_one_pass, reading.problems) == (by_block, [])
    elif all(lead == "  " and field.lstrip(" ").isdigit() for lead, field, _, _ in blocks):
        # A plain shape is read in one pass unless it is wrong (a bye against an opponent).
        plain = all(c in "wbWB-" and r in "10=WDLwdl+-FUHZfuhz" for _, _, c, r in blocks)
        assert not plain or reading.problems


def test_a_line_with_fewer_rounds_is_absent_from_the_rest() -> None:
    text = edit(SMALL.replace("XXR 2", "XXR 3"), 5, 102, "   0 - H")  # 3 no longer meets 1
    t = read_trf(cut(text, 3, 99))  # player 1's line stops after round 1
    assert t.rounds == 3
    assert t.player(1).entries[1:] == (RoundEntry(EntryKind.ABSENT),) * 2
    assert all(p.entries[2].kind is EntryKind.ABSENT for p in t)


def test_without_xxr_the_rounds_are_the_most_blocks_on_a_line() -> None:
    t = read_trf(SMALL.replace("XXR 2\n", ""))
    assert t.rounds == 2


def test_a_points_column_that_disagrees_is_not_an_error() -> None:
    text = edit(SMALL, 3, 81, "17.0")  # a 3/1/0 point system, say
    assert read_trf(text).player(1).half_points == 3


def test_a_points_column_that_disagrees_is_a_warning_naming_the_player() -> None:
    text = edit(edit(SMALL, 3, 81, " 2.0"), 6, 81, " 0,5")  # Ann 1½ by her results; Di ½
    t = read_trf(text, "club.trf")
    assert t.player(1).half_points == 3  # the results decide
    (warning,) = t.warnings
    assert (warning.path, warning.line, warning.column, warning.player) == ("club.trf", 3, 81, 1)
    assert "Ann" in warning.message and "2.0" in warning.message and "1.5" in warning.message
    assert str(warning).startswith("club.trf:3:81 player 1: Ann:")


def test_a_blank_or_agreeing_points_column_says_nothing() -> None:
    assert read_trf(SMALL).warnings == ()
    assert read_trf(edit(SMALL, 3, 81, "    ")).warnings == ()
    assert read_trf(edit(SMALL, 3, 81, "1.50")).warnings == ()


def test_an_unpaired_round_counts_what_its_code_says() -> None:
    # Player 1 loses their round-2 game with 3: a full-point bye, a half-point bye, and a
    # zero-point round instead (3 gets the same code in turn).
    for code, half in (("+", 2), ("=", 1), ("-", 0)):
        text = edit(edit(SMALL, 3, 102, f"0000 - {code}"), 5, 102, f"0000 - {code}")
        t = read_trf(text)
        assert (t.player(1).half_points, t.player(3).half_points) == (2 + half, 1 + half)
        assert not t.player(1).entries[1].played
        # Written back with TRF-16's own code (F, H, Z), it reads as the same tournament.
        written = write_trf(t)
        assert f"     0 - {'FHZ'[2 - half]}" in written.splitlines()[2]
        assert read_trf(written) == t


def test_a_win_loss_or_draw_code_without_an_opponent_is_still_refused() -> None:
    for code in ("1", "0", "W", "L", "D"):
        problems = problems_of(edit(edit(SMALL, 3, 102, f"0000 - {code}"), 5, 102, "0000 - H"))
        assert where(problems) == [(3, 102)], code
        assert "needs the opponent's starting rank" in problems[0].message


def test_a_double_forfeit_is_a_forfeit_loss_on_both_lines() -> None:
    # Round 2: Ann and Cy both stayed away.
    text = edit(edit(SMALL, 3, 102, "   3 b -"), 5, 102, "   1 w -")
    t = read_trf(text)
    assert t.player(1).entries[1] == RoundEntry(EntryKind.FORFEIT_LOSS, 3, Colour.BLACK)
    assert t.player(3).entries[1] == RoundEntry(EntryKind.FORFEIT_LOSS, 1, Colour.WHITE)
    assert (t.player(1).half_points, t.player(3).half_points) == (2, 1)
    written = write_trf(t)
    assert "   3 b -" in written.splitlines()[2] and "   1 w -" in written.splitlines()[4]
    assert read_trf(written) == t


def test_a_forfeit_loss_against_a_game_is_still_refused() -> None:
    problems = problems_of(edit(SMALL, 3, 102, "   3 b -"))  # Cy says they drew with Ann
    assert where(problems) == [(3, 102)]
    assert "player 3 has 'D1 (w)': one of the two is wrong (F3 for player 1 means X1" in (
        problems[0].message
    )


def test_rating_zero_or_blank_is_unrated() -> None:
    text = edit(SMALL, 3, 49, "   0")
    assert read_trf(text).player(1).rating is None
    assert read_trf(text).player(3).rating is None


def test_windows_line_ends_and_a_byte_order_mark_are_read() -> None:
    assert read_trf("\ufeff" + SMALL.replace("\n", "\r\n")) == read_trf(SMALL)


def test_record_092_declares_a_round_robin_or_a_swiss() -> None:
    assert read_trf("092 Individual: Round-Robin\n" + SMALL).round_robin is True
    assert read_trf("092 Round Robin\n" + SMALL).round_robin is True
    assert read_trf("092 Team tournament\n" + SMALL).round_robin is None
    assert read_trf(SMALL).round_robin is None
    swiss = read_trf("092 Individual: Swiss-System\n" + SMALL)
    assert swiss.round_robin is False
    assert swiss.records == (("092", "Individual: Swiss-System"),)


def test_other_records_are_kept_verbatim_and_in_order() -> None:
    header = (
        "012 Spring Open\n022 Springfield\n032 USA\n042 2025/03/01\n052 2025/03/02\n"
        "062 4\n072 3\n092 Individual: Swiss-System\n102 Doe, Jane\n"
        "122 G/90 d5\nXXR 2\nXXC white1\n### exported by hand\n"
    )
    team = "013 Team A                                1    2\n"
    text = header + SMALL.split("XXR 2\n", 1)[1] + team
    t = read_trf(text)
    assert (t.name, t.start_date, t.end_date) == ("Spring Open", "2025/03/01", "2025/03/02")
    assert [code for code, _ in t.records] == [
        "022",
        "032",
        "062",
        "072",
        "092",
        "102",
        "122",
        "XXC",
        "###",
        "013",
    ]
    assert write_trf(t) == text


# --- Problems: every one, with its line and column --------------------------------------


def test_a_bad_starting_rank_is_reported_at_column_5() -> None:
    problems = problems_of(edit(SMALL, 4, 5, "  x2"))
    assert where(problems) == [(4, 5)]
    assert "starting rank" in problems[0].message and "'x2'" in problems[0].message
    assert str(problems[0]).startswith("club.trf:4:5: ")


def test_a_bad_opponent_number_is_reported_at_the_start_of_the_round() -> None:
    problems = problems_of(edit(SMALL, 3, 102, "  ?3"))
    assert where(problems) == [(3, 102)]
    assert (problems[0].player, problems[0].round) == (1, 2)
    assert "opponent's starting rank" in problems[0].message


def test_an_unknown_result_code_is_reported_at_its_column() -> None:
    problems = problems_of(edit(SMALL, 3, 99, "?"))
    assert where(problems) == [(3, 99)]
    assert "unknown result code '?'" in problems[0].message
    assert "1 = 0 + - W D L F U H Z" in problems[0].message


def test_a_bad_colour_is_reported_at_its_column() -> None:
    problems = problems_of(edit(SMALL, 5, 107, "x"))
    assert where(problems) == [(5, 107)]
    assert "colour w, b or -" in problems[0].message


def test_a_line_too_short_is_reported_where_it_ends() -> None:
    problems = problems_of(cut(SMALL, 4, 50))  # in the middle of Bob's rating
    assert where(problems) == [(4, 51)]
    assert "too short" in problems[0].message and "81–84" in problems[0].message


def test_a_line_cut_inside_a_round_is_reported_at_the_missing_result() -> None:
    problems = problems_of(cut(SMALL, 6, 107))
    assert where(problems) == [(6, 109)]
    assert "too short" in problems[0].message


def test_a_starting_rank_used_twice_is_reported_on_the_second_line() -> None:
    problems = problems_of(edit(SMALL, 6, 5, "   3"))
    assert where(problems) == [(6, 5)]
    assert "used twice (first on line 5)" in problems[0].message


def test_a_shifted_line_is_reported_not_misread() -> None:
    line = SMALL.splitlines()[2]
    shifted = line[:89] + " " + line[89:]  # every round one column to the right
    problems = problems_of(SMALL.replace(line, shifted))
    assert where(problems)[0] == (3, 96)  # the opponent's last digit, where a blank belongs
    assert "should be blank" in problems[0].message


def test_a_bye_with_an_opponent_is_reported_at_the_opponent() -> None:
    text = edit(edit(SMALL, 3, 102, "   5 - H"), 5, 102, "   0 - H")
    problems = problems_of(text)
    assert where(problems) == [(3, 102)]
    assert "half-point bye" in problems[0].message


def test_a_game_without_an_opponent_is_reported_at_the_opponent() -> None:
    problems = problems_of(edit(SMALL, 3, 92, "   0"))
    assert where(problems) == [(3, 92)]
    assert "needs the opponent's starting rank" in problems[0].message


def test_a_bad_number_of_rounds_is_reported() -> None:
    assert where(problems_of(SMALL.replace("XXR 2", "XXR two"))) == [(2, 5)]


def test_a_file_without_player_records_is_an_error() -> None:
    problems = problems_of("012 Empty\nXXR 5\n")
    assert where(problems) == [(1, 1)] and "'001'" in problems[0].message


def test_an_opponent_out_of_range_is_reported_at_the_round() -> None:
    problems = problems_of(edit(SMALL, 3, 102, "   9"))
    assert where(problems) == [(3, 102), (5, 102)]
    assert problems[0].message == "there is no player 9"
    assert (problems[1].player, problems[1].round) == (3, 2)


def test_a_player_paired_with_themselves_is_reported_at_the_round() -> None:
    problems = problems_of(edit(SMALL, 3, 92, "   1"))
    assert where(problems) == [(3, 92), (4, 92)]
    assert "cannot be paired with themselves" in problems[0].message


def test_a_game_whose_sides_disagree_is_reported_once() -> None:
    problems = problems_of(edit(SMALL, 4, 99, "1"))  # both players 1 and 2 won
    assert where(problems) == [(3, 92)]
    assert "player 2 has 'W1 (b)'" in problems[0].message


def test_a_missing_round_is_reported_at_the_opponent_who_played_it() -> None:
    problems = problems_of(cut(SMALL, 6, 99))  # player 4 has no round 2; player 2 beat 4
    assert where(problems) == [(4, 102)]
    assert "player 4 has 'absent'" in problems[0].message


def test_more_rounds_than_xxr_are_reported_at_the_extra_round() -> None:
    problems = problems_of(edit(SMALL, 3, 110, "     0 - H"))
    assert where(problems) == [(3, 112)]
    assert "3 rounds of entries, but the section has 2" in problems[0].message


def test_every_problem_of_a_file_is_reported_at_once_in_file_order() -> None:
    text = edit(edit(edit(SMALL, 6, 5, "  -4"), 5, 97, "?"), 3, 109, "*")
    assert where(problems_of(text)) == [(3, 109), (5, 97), (6, 5)]


def test_a_problem_does_not_echo_on_the_opponents_line() -> None:
    # Player 1's round 1 block is unreadable; player 2's block naming 1 is not reported.
    assert where(problems_of(edit(SMALL, 3, 97, "?"))) == [(3, 97)]


# --- Writing ----------------------------------------------------------------------------


def test_withdrawn_rounds_are_written_as_zero_point_byes() -> None:
    t = Tournament(
        (
            Player(1, "Ann", (RoundEntry.win(2), RoundEntry(EntryKind.WITHDRAWN))),
            Player(2, "Bob", (RoundEntry.loss(1), RoundEntry(EntryKind.HALF_BYE))),
        ),
        2,
    )
    text = write_trf(t)
    assert text.splitlines()[1][91:109] == "   2 - 1     0 - Z"
    back = read_trf(text)
    assert back.player(1).entries[1] == RoundEntry(EntryKind.ZERO_BYE)
    assert [p.half_points for p in back] == [p.half_points for p in t]


def test_points_are_recomputed_and_rank_repeats_the_starting_rank() -> None:
    line = write_trf(read_trf(edit(SMALL, 3, 81, "17.0"))).splitlines()[2]
    assert (line[80:84], line[85:89]) == (" 1.5", "   1")


def test_rank_comes_from_the_standings_when_given() -> None:
    from core.standings import compute_standings

    t = load_example("club-swiss.trf")
    standings = compute_standings(t, "uscf")
    lines = [line for line in write_trf(t, standings).splitlines() if line.startswith("001")]
    ranks = {int(line[4:8]): int(line[85:89]) for line in lines}
    assert ranks == {row.player.id: row.rank for row in standings.rows}
    assert ranks[3] == 1  # Chen, 4 points, is first


def test_absent_rounds_are_blank_and_lines_have_no_trailing_blanks() -> None:
    t = Tournament(
        (
            Player(1, "Ann", (RoundEntry(EntryKind.ABSENT), RoundEntry.win(2))),
            Player(2, "Bob", (RoundEntry(EntryKind.ABSENT), RoundEntry.loss(1))),
            Player(3, "Cy", (RoundEntry(EntryKind.HALF_BYE), RoundEntry(EntryKind.ABSENT))),
        ),
        2,
    )
    lines = write_trf(t).splitlines()
    assert (lines[1][91:99], lines[1][101:109]) == (" " * 8, "   2 - 1")
    assert lines[3].endswith("   0 - H")
    assert read_trf(write_trf(t)) == t


def test_a_round_robin_without_092_gets_one() -> None:
    t = replace(read_trf(SMALL), round_robin=True)
    assert "092 Round Robin\n" in write_trf(t)
    assert read_trf(write_trf(t)) == t


def test_what_trf16_cannot_hold_is_an_error_not_a_broken_file() -> None:
    t = Tournament((Player(10000, "Ann", ()),), 0)
    with pytest.raises(HarknessError, match="at most 4 digits"):
        write_trf(t)


# --- Round trips ------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(tournaments(withdrawn=False))
def test_write_then_read_is_the_identity(t: Tournament) -> None:
    assert read_trf(write_trf(t)) == t


@settings(max_examples=100, deadline=None)
@given(tournaments())
def test_withdrawals_read_back_as_zero_point_byes_with_the_same_scores(t: Tournament) -> None:
    back = read_trf(write_trf(t))
    assert back == without_withdrawals(t)
    assert [p.half_points for p in back] == [p.half_points for p in t]


@settings(max_examples=50, deadline=None)
@given(tournaments())
def test_written_text_is_canonical(t: Tournament) -> None:
    text = write_trf(t)
    assert write_trf(read_trf(text)) == text


def test_a_generated_swiss_round_trips_apart_from_withdrawals() -> None:
    t = random_swiss(300, 9, seed=5)
    assert any(e.kind is EntryKind.WITHDRAWN for p in t for e in p.entries)
    assert read_trf(write_trf(t)) == without_withdrawals(t)


# --- The test generators themselves ------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(tournaments(unplayed=False, min_players=3, max_players=9))
def test_without_unplayed_rounds_every_entry_is_a_game(t: Tournament) -> None:
    assert len(t) % 2 == 0 and 4 <= len(t) <= 8
    assert all(e.played for p in t for e in p.entries)


@settings(max_examples=30, deadline=None)
@given(tournaments(colours=False, ratings=False, withdrawn=False))
def test_strategy_switches_leave_out_colours_ratings_and_withdrawals(t: Tournament) -> None:
    assert all(e.colour is None and e.kind is not EntryKind.WITHDRAWN for p in t for e in p.entries)
    assert all(p.rating is None for p in t)
    assert [p.id for p in t] == list(range(1, len(t) + 1))


def test_random_swiss_is_deterministic_by_seed() -> None:
    assert random_swiss(60, 7, seed=2) == random_swiss(60, 7, seed=2)
    assert random_swiss(60, 7, seed=2) != random_swiss(60, 7, seed=3)


def test_random_swiss_has_the_unplayed_rounds_asked_for() -> None:
    kinds = {e.kind for p in random_swiss(501, 9) for e in p.entries}
    assert {
        EntryKind.PAIRING_BYE,
        EntryKind.HALF_BYE,
        EntryKind.FORFEIT_WIN,
        EntryKind.WITHDRAWN,
    } <= kinds
    plain = {e.kind for p in random_swiss(500, 9, byes=False, forfeits=False) for e in p.entries}
    assert plain == {EntryKind.WIN, EntryKind.DRAW, EntryKind.LOSS}

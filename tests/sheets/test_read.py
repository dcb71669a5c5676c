"""Reading the TD's tabs into a ``core`` tournament (no network): what each layout's cells
mean, and how a round in progress, a withdrawal and the settings are read."""

from __future__ import annotations

import doctest
import importlib

import pytest

from core.model import Colour, EntryKind, RoundEntry, Tournament
from sheets.read import Rows, Sourced, build_tournament, read_results, with_entry
from sheets.settings_tab import SheetSettings, default_rows, read_settings
from tests.sheets.conftest import settings_rows

PLAYERS = [
    ["#", "Name", "Rating", "Discord"],
    ["1", "Ann", "1500", "80351110224678912"],
    ["2", "Bob", "unr.", ""],
    ["3", "Cy", "1,400", ""],
    ["4", "Dee", "", ""],
]


def tournament(tabs: dict[str, Rows], settings: SheetSettings | None = None) -> Tournament:
    t, problems = build_tournament(read_results(tabs, settings or SheetSettings()))
    assert problems == [], [str(p) for p in problems]
    assert t is not None
    return t


def kinds(t: Tournament, number: int) -> list[str]:
    return [str(e) or e.kind.value for e in t.player(number).entries]


def test_a_crosstable_reads_every_cell_kind_of_the_notation() -> None:
    t = tournament(
        {
            "Results": [
                ["#", "Name", "Rd 1", "Rd 2", "Rd 3", "Tot"],
                ["1", "Ann", "W2 (w)", "X3", "H", "2.5"],
                ["2", "Bob", "L1 (b)", "B", "D3", "9"],
                ["3", "Cy", "U", "F1", "½2", ""],
            ]
        }
    )
    assert kinds(t, 1) == ["W2 (w)", "X3", "H"]
    assert kinds(t, 2) == ["L1 (b)", "B", "D3"]
    assert kinds(t, 3) == ["U", "F1", "D2"]


def test_a_round_nobody_has_played_yet_is_not_ranked() -> None:
    t = tournament(
        {
            "Results": [
                ["#", "Name", "Rd 1", "Rd 2", "Rd 3"],
                ["1", "Ann", "W2", "", ""],
                ["2", "Bob", "L1", "", ""],
            ]
        },
        SheetSettings(rounds=3),
    )
    assert t.rounds == 1


def test_a_round_with_only_byes_entered_in_advance_is_kept_but_not_ranked() -> None:
    """The sheet ranks after the rounds played (core.model.rounds_played), as the CLI does
    for the same crosstable: a half-point bye requested for round 2 keeps its cell."""
    from core.standings import standings_after

    t = tournament(
        {
            "Results": [
                ["#", "Name", "Rd 1", "Rd 2", "Rd 3"],
                ["1", "Ann", "W2", "H", ""],
                ["2", "Bob", "L1", "", ""],
            ]
        },
        SheetSettings(rounds=3),
    )
    assert kinds(t, 1) == ["W2", "H"]
    assert standings_after(t, "uscf").tournament.rounds == 1


def test_empty_cells_after_a_players_last_game_mean_they_withdrew() -> None:
    t = tournament(
        {
            "Results": [
                ["#", "Name", "Rd 1", "Rd 2", "Rd 3"],
                ["1", "Ann", "W2", "W3", ""],
                ["2", "Bob", "L1", "", ""],
                ["3", "Cy", "", "L1", "B"],
            ]
        }
    )
    # Round 3 holds only Cy's bye, so it is not played yet: Bob's empty cell there is "not
    # yet paired"; his withdrawal in round 2 stays in force when round 3 is paired.
    assert [e.kind for e in t.player(2).entries] == [
        EntryKind.LOSS,
        EntryKind.WITHDRAWN,
        EntryKind.ABSENT,
    ]
    assert t.player(3).entries[0].kind is EntryKind.ABSENT  # a late entry, not a withdrawal


def test_a_game_list_reads_games_byes_and_forfeits_with_colours() -> None:
    t = tournament(
        {
            "Results": [
                ["Round", "White", "Black", "Result"],
                ["1", "Ann", "#2", "1-0"],
                ["1", "Cy", "Dee", "1/2-1/2"],
                ["2", "Dee", "Ann", "0F-1F"],
                ["2", "Bob", "BYE", "H"],
                ["2", "cy", "", "U"],
                ["", "", "", ""],
                ["3", "Bob", "Cy", "0 - 1"],
                ["3", "Ann", "bye", "B"],
            ],
            "Players": PLAYERS,
        }
    )
    assert t.player(1).entries[0] == RoundEntry(EntryKind.WIN, 2, Colour.WHITE)
    assert t.player(2).entries[0] == RoundEntry(EntryKind.LOSS, 1, Colour.BLACK)
    assert kinds(t, 3) == ["D4 (w)", "U", "W2 (b)"]
    assert kinds(t, 1)[1:] == ["X4", "B"]
    assert kinds(t, 2)[1:] == ["H", "L3 (w)"]
    assert t.player(4).entries[2].kind is EntryKind.WITHDRAWN


def test_a_game_list_row_without_a_result_is_paired_not_yet_played() -> None:
    """An empty Result is a game paired, not played: no entry, and its round is not played
    until one of its games has a result (core.model.rounds_played), like an empty cell."""
    games = [
        ["Round", "White", "Black", "Result"],
        ["1", "Ann", "Bob", "1-0"],
        ["1", "Cy", "Dee", "0-1"],
        ["2", "Dee", "Ann", ""],
        ["2", "Bob", "Cy", ""],
    ]
    grid = read_results({"Results": games, "Players": PLAYERS}, SheetSettings(rounds=3))
    assert grid.waiting() == {"Results!D4": 2, "Results!D5": 2}
    t = tournament({"Results": games, "Players": PLAYERS}, SheetSettings(rounds=3))
    assert t.rounds == 1 and kinds(t, 4) == ["W3 (b)"]
    # Mid-round: one game of round 2 has a result, the other is still being played.
    games[4][3] = "½-½"
    t = tournament({"Results": games, "Players": PLAYERS})
    assert t.rounds == 2 and kinds(t, 2)[1] == "D3 (w)"
    assert t.player(4).entries[1].kind is EntryKind.ABSENT  # still playing: not withdrawn
    # A game of round 2 still without a result once round 3 has results: a missing result.
    games.append(["3", "Ann", "Cy", "1-0"])
    grid = read_results({"Results": games, "Players": PLAYERS}, SheetSettings())
    t, problems = build_tournament(grid)
    assert t is None and [str(p) for p in problems] == [
        "Results!D4: no result, but round 3 has results; expected '1-0', '0-1', '½-½' (or "
        "'1/2-1/2'), '1F-0F', '0F-1F' or '0F-0F' (neither came)"
    ]


@pytest.mark.parametrize("result", ["0F-0F", "0f - 0f", "-/-", "--"])
def test_a_game_list_reads_a_double_forfeit(result: str) -> None:
    t = tournament(
        {
            "Results": [
                ["Round", "White", "Black", "Result"],
                ["1", "Ann", "Bob", result],
                ["1", "Cy", "Dee", "1-0"],
            ],
            "Players": PLAYERS,
        }
    )
    assert t.player(1).entries[0] == RoundEntry(EntryKind.FORFEIT_LOSS, 2)
    assert t.player(2).entries[0] == RoundEntry(EntryKind.FORFEIT_LOSS, 1)
    assert (t.player(1).half_points, t.player(2).half_points) == (0, 0)


def test_a_crosstable_reads_a_double_forfeit_as_f_on_both_rows() -> None:
    t = tournament({"Results": [["#", "Name", "Rd 1"], ["1", "Ann", "F2"], ["2", "Bob", "F1"]]})
    assert kinds(t, 1) == ["F2"] and kinds(t, 2) == ["F1"]


def test_the_players_tab_gives_ratings_and_discord_ids_and_may_omit_numbers() -> None:
    t = tournament(
        {
            "Results": [["Round", "White", "Black", "Result"], ["1", "Ann", "Bob", "1-0"]],
            "Players": [["Name", "Rating", "Discord"], ["Ann", "1,500", "@ann"], ["Bob", "", ""]],
        }
    )
    assert [(p.id, p.name, p.rating) for p in t] == [(1, "Ann", 1500), (2, "Bob", None)]
    assert t.player(1).external_ids == (("discord", "@ann"),)


def test_a_header_row_may_follow_a_title_row() -> None:
    t = tournament(
        {"Results": [["Spring Swiss 2026"], [], ["#", "Name", "Rd 1"], ["1", "Ann", "B"]]}
    )
    assert kinds(t, 1) == ["B"]


def test_a_later_source_can_fill_a_cell_the_td_left_empty() -> None:
    grid = read_results(
        {"Results": [["#", "Name", "Rd 1"], ["1", "Ann", ""], ["2", "Bob", ""]]}, SheetSettings()
    )
    assert grid.rounds == 0 and (1, 1) not in grid.entries
    with_entry(grid, 1, 1, Sourced(RoundEntry.win(2), "Discord reports!C2", "1-0"))
    with_entry(grid, 2, 1, Sourced(RoundEntry.loss(1), "Discord reports!C2", "1-0"))
    t, problems = build_tournament(grid)
    assert problems == [] and t is not None and kinds(t, 1) == ["W2"]


def test_settings_read_with_their_cells_and_any_label_case() -> None:
    rows = settings_rows(
        Rules="mdchess", Tiebreaks="solk, mm", Rounds="5", Publish_partial_standings="yes"
    )
    rows[1][0] = "RULES"
    settings, problems = read_settings(rows)
    assert problems == []
    assert (settings.rules, settings.tiebreaks, settings.rounds, settings.publish_partial) == (
        "mdchess",
        "solk, mm",
        5,
        True,
    )
    assert settings.profile().tiebreaks == ("SOLK", "MM")
    assert settings.where("publish_partial") == "Harkness!B10"
    assert read_settings(default_rows())[0] == SheetSettings()


def test_the_discord_servers_row_holds_server_ids_and_link_codes() -> None:
    """What only the sheet's editors can write: which Discord servers may use the sheet."""
    typed = "hk-7qf4-mx2p, '80351110224678912;HK9ABCDEFG"
    settings, problems = read_settings([["Discord servers", typed]])
    assert problems == []
    assert settings.discord_servers == ("HK-7QF4-MX2P", "80351110224678912", "HK-9ABC-DEFG")
    for wrong in ("8.03511E+16", "HK-0000-1111", "my club"):  # a rounded id, not a code
        settings, [problem] = read_settings([["Discord servers", wrong]])
        assert settings.discord_servers == () and problem.cell == "Harkness!B1"
    many = ", ".join(["HK-ABCD-EFGH"] * 101)
    settings, [problem] = read_settings([["Discord servers", many]])
    assert "at most 100" in problem.message and settings.discord_servers == ()


@pytest.mark.parametrize(
    "module",
    [
        "sheets.forwarded",
        "sheets.layout",
        "sheets.problems",
        "sheets.read",
        "sheets.serve",
        "sheets.settings_tab",
        "sheets.sync",
        "sheets.tabs",
        "sheets.watch",
        "sheets.write",
    ],
)
def test_the_examples_in_the_docstrings_run(module: str) -> None:
    result = doctest.testmod(
        importlib.import_module(module), optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert result.failed == 0


def test_every_real_file_reads_from_a_results_tab() -> None:
    """Each file real software wrote, as a TD would paste its crosstable (with ``Tot`` and
    tiebreak columns) into a results tab: the same scores and games, no problem, and no
    points cell that disagrees."""
    from core.formats import read_tournament
    from core.formats.crosstable import crosstable_rows
    from core.standings import compute_standings
    from sheets.read import points_notices
    from tests.shared_data import shared_path

    real = shared_path("data", "real")
    files = sorted(p for p in real.rglob("*") if p.suffix in {".trf", ".tab", ".txt"})
    assert files
    for path in files:
        original = read_tournament(path)
        rows = crosstable_rows(original, compute_standings(original, "uscf"))
        grid = read_results({"Results": rows}, SheetSettings())
        t, problems = build_tournament(grid)
        assert problems == [] and t is not None, (path, [str(p) for p in problems[:3]])
        by_id = {p.id: p for p in original}
        assert [p.half_points for p in t] == [by_id[p.id].half_points for p in t], path
        for p in t:
            # Games and forfeits with their opponents (a forfeit's colour is not written).
            games = [(e.kind, e.opponent) for e in by_id[p.id].entries if e.opponent]
            assert [(e.kind, e.opponent) for e in p.entries if e.opponent] == games, path
        assert points_notices(grid, t) == [], path

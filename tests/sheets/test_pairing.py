"""Pairing from a spreadsheet ("Harkness → Pair next round"): a 4-round Swiss paired round by
round into ``Pairings Rd N`` tabs while the TD types the results into their own tab, which
the worker never touches."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from sheets.client import SheetsClient
from sheets.pairing import pair_answer, pair_sheet
from sheets.sync import sync
from tests.fakes.sheets_api import SheetsFake
from tests.sheets.addon import Editor, new_key, post
from tests.sheets.conftest import settings_rows

MakeSheet = Callable[..., str]
PLAYERS = [
    ["#", "Name", "Rating"],
    [1, "Ada", 1800],
    [2, "Ben", 2100],
    [3, "Cy", 1950],
    [4, "Di", 1700],
    [5, "Eve", 1600],
]
NAMES = {row[0]: row[1] for row in PLAYERS[1:]}
HEADER = ["Round", "Board", "White", "Black", "Result"]


def _number(label: str) -> int:
    found = re.match(r"^(\d+) ", label)
    assert found, label
    return int(found.group(1))


def test_a_four_round_swiss_is_paired_from_the_sheet(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    games: list[list[Any]] = [HEADER]
    sheet_id = make_sheet(
        {"Results": [HEADER], "Players": PLAYERS, "Harkness": settings_rows(Rounds="4")}
    )
    rng = random.Random(19)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for r in range(1, 5):
        result = pair_sheet(client, sheet_id)
        assert result.problems == () and (result.round, result.tab) == (r, f"Pairings Rd {r}")
        rows = sheets_fake.values(sheet_id, f"'Pairings Rd {r}'!A1:C8")
        assert rows[0] == ["Board", "White", "Black"]
        boards = [row for row in rows[1:] if row and row[0].isdigit()]
        bye_rows = [row for row in rows[1:] if row and row[0] == "bye"]
        assert len(boards) == 2 and len(bye_rows) == 1
        if r == 1:  # the sheet's # are the pairing numbers (C.04.2): 1–3, 4–2, bye 5
            assert [(_number(w), _number(b)) for _, w, b in boards] == [(1, 3), (4, 2)]
        for board, white, black in boards:
            pair = frozenset({_number(white), _number(black)})
            assert pair not in met  # no rematch
            met.add(pair)
            score = rng.choice(["1-0", "½-½", "0-1"])
            games.append([r, int(board), NAMES[_number(white)], NAMES[_number(black)], score])
        bye = _number(bye_rows[0][1])
        assert bye not in byes  # at most one pairing-allocated bye each
        byes.append(bye)
        games.append([r, "", NAMES[bye], "BYE", "1"])
        # The TD types the round's results into their own tab.
        sheets_fake.set_values(sheet_id, f"Results!A1:E{len(games)}", games)
    assert sheets_fake.values(sheet_id, f"Results!A1:E{len(games)}") == [
        [str(c) for c in row] for row in games
    ]
    titles = sheets_fake.sheet_titles(sheet_id)
    assert [t for t in titles if t.startswith("Pairings")] == [
        f"Pairings Rd {r}" for r in range(1, 5)
    ]
    # All rounds are played: there is nothing left to pair.
    done = pair_sheet(client, sheet_id)
    assert done.round is None
    # Core's problem (its code and values), worded for the sheet, at the rounds setting.
    assert [str(p) for p in done.problems] == [
        'Harkness!B4: "4": the section has 4 rounds, so there is no round 5 to pair: '
        "set more rounds here to pair another"
    ]


def test_a_tab_of_the_same_name_made_by_the_td_is_left_alone(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    mine = [["my own notes"]]
    sheet_id = make_sheet(
        {
            "Results": [HEADER],
            "Players": PLAYERS,
            "Harkness": settings_rows(Rounds="4"),
            "Pairings Rd 1": mine,
        }
    )
    result = pair_sheet(client, sheet_id)
    assert result.tab is None and result.round == 1
    assert str(result.problems[0]).startswith(
        "Pairings Rd 1: a tab named 'Pairings Rd 1' already exists and was not made by Harkness"
    )
    assert sheets_fake.values(sheet_id, "'Pairings Rd 1'!A1:C3") == mine


def test_pairing_needs_the_number_of_rounds(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": [HEADER], "Players": PLAYERS})
    result = pair_sheet(client, sheet_id)
    assert [str(p) for p in result.problems] == [
        "Harkness!B4: set the number of rounds here to pair rounds"
    ]
    assert not any(t.startswith("Pairings") for t in sheets_fake.sheet_titles(sheet_id))


async def test_the_add_on_endpoint_pairs_with_the_sheets_key_only(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    make_editor: Callable[..., Editor],
) -> None:
    from aiohttp import web

    from sheets.addon_keys import MemoryKeys, read_commitment
    from sheets.gate import Gate
    from sheets.serve import SyncQueue, make_app

    sheet_id = make_sheet(
        {"Results": [HEADER], "Players": PLAYERS, "Harkness": settings_rows(Rounds="4")}
    )
    queue = SyncQueue(lambda key: sync(client, key))
    gate = Gate(MemoryKeys(), lambda key: read_commitment(client, key))
    app = make_app(queue, gate, pair=lambda key, vouched: pair_answer(client, key, vouched))
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    key = new_key()
    try:
        make_editor("td", sheet_id).vouch(sheet_id, key)
        assert (await post(base, "/connect", sheet_id, key))[0] == 200
        assert (await post(base, "/pair", sheet_id, new_key()))[0] == 401
        assert "Pairings Rd 1" not in sheets_fake.sheet_titles(sheet_id)
        answer = await post(base, "/pair", sheet_id, key)
    finally:
        await runner.cleanup()
    assert answer == (
        200,
        {"paired": True, "message": "Round 1 is paired: see the Pairings Rd 1 tab."},
    )


def test_the_games_are_added_to_a_game_list_only_when_the_td_asks(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    """ "Write pairings into results tab: Yes": each round's games go below the TD's list
    with an empty Result (paired, not yet played: a sync finds no problem), the bye as B;
    pairing again before the results are in is refused; what the TD typed stays."""
    sheet_id = make_sheet(
        {
            "Results": [HEADER],
            "Players": PLAYERS,
            "Harkness": settings_rows(Rounds="3", Write_pairings_into_results_tab="Yes"),
        }
    )
    rng = random.Random(7)
    typed = 1
    before: list[list[str]] = [HEADER]
    for r in range(1, 4):
        result = pair_sheet(client, sheet_id)
        assert result.problems == () and result.notices == () and result.added == 3
        rows = sheets_fake.values(sheet_id, "Results!A1:G20")
        assert rows[:typed] == before
        added = rows[typed : typed + 3]
        assert [row[0] for row in added] == [str(r)] * 3
        assert [row[1] for row in added] == ["1", "2", ""]  # the boards, then the bye
        assert added[2][3:5] == ["BYE", "B"] and all(len(row) < 5 for row in added[:2])
        assert sync(client, sheet_id).problems == ()  # paired, not yet played
        again = pair_sheet(client, sheet_id)
        assert (again.already, again.round, again.problems, again.added) == (True, r, (), 0)
        assert again.summary.endswith(f"round {r} is already paired: see the Pairings Rd {r} tab")
        for i in range(2):  # the TD types the results
            sheets_fake.set_values(
                sheet_id, f"Results!E{typed + 1 + i}", [[rng.choice(["1-0", "½-½", "0-1"])]]
            )
        typed += 3
        before = sheets_fake.values(sheet_id, f"Results!A1:G{typed}")
    standings = sync(client, sheet_id)
    assert standings.problems == () and standings.published
    assert sheets_fake.values(sheet_id, "Results!A1:E1") == [HEADER]


def test_a_crosstable_is_never_written_and_the_td_is_told_why(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    crosstable = [["#", "Name", "Rating", "Rd 1"], *[[n, name, r] for n, name, r in PLAYERS[1:]]]
    sheet_id = make_sheet(
        {
            "Results": crosstable,
            "Harkness": settings_rows(Rounds="3", Write_pairings_into_results_tab="Yes"),
        }
    )
    before = sheets_fake.values(sheet_id, "Results!A1:H8")
    result = pair_sheet(client, sheet_id)
    assert result.tab == "Pairings Rd 1" and result.added == 0
    told = 'Harkness!B14: "Yes": a crosstable has no notation for a game paired but not yet played'
    assert [str(p)[: len(told)] for p in result.notices] == [told]
    assert sheets_fake.values(sheet_id, "Results!A1:H8") == before
    synced = sync(client, sheet_id)  # listed on the Errors tab, standings still published
    assert synced.published and [str(p) for p in synced.problems] == [str(result.notices[0])]
    assert sheets_fake.values(sheet_id, "Errors!A2:B2") == [["Harkness!B14", "Yes"]]
    # Pressed again: the round is paired already, and nothing is written.
    assert pair_answer(client, sheet_id) == (
        False,
        "Round 1 is already paired: see the Pairings Rd 1 tab. To pair it again, delete that "
        "tab first.",
    )
    other = make_sheet(
        {
            "Results": crosstable,
            "Harkness": settings_rows(Rounds="3", Write_pairings_into_results_tab="Yes"),
        }
    )
    paired, message = pair_answer(client, other)  # the add-on's menu says it too
    assert paired and message.startswith(
        "Round 1 is paired: see the Pairings Rd 1 tab. Not written into your results tab: "
        'Harkness!B14: "Yes": a crosstable has no notation'
    )


def test_without_the_setting_the_results_tab_is_not_written(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet(
        {"Results": [HEADER], "Players": PLAYERS, "Harkness": settings_rows(Rounds="3")}
    )
    result = pair_sheet(client, sheet_id)
    assert result.added == 0 and result.notices == ()
    assert sheets_fake.values(sheet_id, "Results!A1:E5") == [HEADER]


def test_a_bye_row_typed_ahead_leaves_everyone_else_in_the_next_round(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    """A round-2 bye row typed before round 2 is played: Ada's half-point bye is honoured,
    the others' empty round 2 is "not yet paired" (never a withdrawal), all four are paired."""
    games = [
        HEADER,
        [1, 1, "Ben", "Ada", "1-0"],
        [1, 2, "Cy", "Di", "0-1"],
        [1, "", "Eve", "BYE", "1"],
        [2, "", "Ada", "BYE", "H"],
    ]
    sheet_id = make_sheet(
        {"Results": games, "Players": PLAYERS, "Harkness": settings_rows(Rounds="3")}
    )
    synced = sync(client, sheet_id)  # standings after round 1; the bye waits for round 2
    assert synced.problems == () and synced.published
    result = pair_sheet(client, sheet_id)
    assert result.problems == () and result.round == 2
    rows = sheets_fake.values(sheet_id, "'Pairings Rd 2'!A1:C8")
    boards = [row for row in rows[1:] if row and row[0].isdigit()]
    assert not [row for row in rows[1:] if row and row[0] == "bye"]
    paired = {_number(label) for _, white, black in boards for label in (white, black)}
    assert paired == {2, 3, 4, 5}
    assert any("Ada" in " ".join(row) and "half-point bye" in " ".join(row) for row in rows)


def test_a_game_without_colour_is_pointed_at_by_its_cell(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    """Core's "no colour" problem carries the player and round: the sheet names the cell
    (the lower number's side), without the command line's "player 1, round 1" words."""
    crosstable = [
        ["#", "Name", "Rating", "Rd 1"],
        [1, "Ada", 1800, "W2"],
        [2, "Ben", 2100, "L1"],
        [3, "Cy", 1950, "D4 (w)"],
        [4, "Di", 1700, "D3 (b)"],
    ]
    sheet_id = make_sheet({"Results": crosstable, "Harkness": settings_rows(Rounds="3")})
    result = pair_sheet(client, sheet_id)
    assert result.round is None and [str(p) for p in result.problems] == [
        'Results!D2: "W2": the game against 2 has no colour; pairing by the colour rules '
        "needs the colour of every game played"
    ]


def _round_one(
    client: SheetsClient, sheets_fake: SheetsFake, sheet_id: str
) -> list[tuple[int, int]]:
    result = pair_sheet(client, sheet_id)
    assert result.problems == () and result.round == 1, result.problems
    rows = sheets_fake.values(sheet_id, "'Pairings Rd 1'!A1:C5")
    return [(_number(w), _number(b)) for board, w, b in rows[1:] if board.isdigit()]


def test_players_kept_apart_in_the_settings_tab_are_never_paired_together(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    """Without the setting round 1 is 1–3, 4–2 (bye 5); keeping 1 and 3 apart (the
    "Keep apart" row) changes it."""
    plain = make_sheet(
        {"Results": [HEADER], "Players": PLAYERS, "Harkness": settings_rows(Rounds="3")}
    )
    assert _round_one(client, sheets_fake, plain) == [(1, 3), (4, 2)]
    apart = make_sheet(
        {
            "Results": [HEADER],
            "Players": PLAYERS,
            "Harkness": settings_rows(Rounds="3", Keep_apart="1, 3"),
        }
    )
    boards = _round_one(client, sheets_fake, apart)
    assert len(boards) == 2 and all({1, 3} != set(board) for board in boards)


def test_a_player_kept_apart_who_is_not_in_the_sheet_is_pointed_at_in_the_settings(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    rows = settings_rows(Rounds="3", Keep_apart="1, 9")
    sheet_id = make_sheet({"Results": [HEADER], "Players": PLAYERS, "Harkness": rows})
    row = next(i for i, r in enumerate(rows, start=1) if r[0] == "Keep apart")
    result = pair_sheet(client, sheet_id)
    assert result.round is None and [str(p) for p in result.problems] == [
        f'Harkness!B{row}: "9": there is no player 9: name players of the results by their '
        "starting numbers"
    ]


def test_a_keep_apart_cell_that_names_no_groups_is_an_error_at_its_cell(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    rows = settings_rows(Rounds="3", Keep_apart="Ada and Cy")
    sheet_id = make_sheet({"Results": [HEADER], "Players": PLAYERS, "Harkness": rows})
    row = next(i for i, r in enumerate(rows, start=1) if r[0] == "Keep apart")
    result = pair_sheet(client, sheet_id)
    assert result.round is None
    assert any(
        str(p).startswith(f'Harkness!B{row}: "Ada and Cy": name the players')
        for p in result.problems
    )


def test_accelerated_pairings_pair_the_top_half_apart_in_round_one(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    """FIDE's Baku Acceleration (C.04.5.1): of 8 players, 1–4 start with a virtual point,
    so round 1 pairs 1–4 among themselves and 5–8 among themselves."""
    eight = [["#", "Name", "Rating"], *([n, f"P{n}", 2400 - 10 * n] for n in range(1, 9))]
    plain = make_sheet(
        {"Results": [HEADER], "Players": eight, "Harkness": settings_rows(Rounds="5")}
    )
    assert _round_one(client, sheets_fake, plain) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    rows = settings_rows(Rounds="5", Accelerated_pairings="Yes")
    fast = make_sheet({"Results": [HEADER], "Players": eight, "Harkness": rows})
    assert _round_one(client, sheets_fake, fast) == [(1, 3), (4, 2), (5, 7), (8, 6)]

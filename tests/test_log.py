"""The one replay of a results log (core.log): set, bye, clear, withdraw, and undo."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from core.log import Board, LiveReplay, Part, Replay, replay


class Row(NamedTuple):
    key: int
    action: str
    round: int = 1
    player: int = 0
    opponent: int = 0
    undoes: int | None = None


Played = Replay[str, str, int]


def _step(state: Played, row: Row) -> None:
    if row.action == "set":
        state.set(row.round, row.player, row.opponent, f"game {row.key}")
    elif row.action == "bye":
        state.bye(row.round, row.player, f"bye {row.key}")
    elif row.action == "clear":
        state.clear(row.round, row.player)
    elif row.action == "withdraw":
        state.withdraw(row.player, row.round)


def _replay(*rows: Row) -> Played:
    return replay(
        rows,
        _step,
        key=lambda r: r.key,
        undoes=lambda r: r.undoes if r.action == "undo" else None,
    )


def test_a_set_replaces_what_either_player_had_in_the_round() -> None:
    out = _replay(
        Row(1, "set", player=1, opponent=2),
        Row(2, "bye", player=3),
        Row(3, "set", player=3, opponent=2),
        Row(4, "set", round=2, player=1, opponent=2),
    )
    assert out.rounds[1].games == {(2, 3): "game 3"}
    assert out.rounds[1].byes == {}
    assert out.rounds[2].games == {(1, 2): "game 4"}


def test_a_bye_and_a_clear_take_out_the_players_game_for_both_sides() -> None:
    out = _replay(
        Row(1, "set", player=2, opponent=1),
        Row(2, "set", player=3, opponent=4),
        Row(3, "bye", player=1),
        Row(4, "clear", player=4),
    )
    board = out.rounds[1]
    assert board.games == {}
    assert board.byes == {1: "bye 3"}
    assert board.of_player == {}


def test_the_latest_withdrawal_in_force_stands() -> None:
    out = _replay(
        Row(1, "withdraw", round=3, player=5),
        Row(2, "withdraw", round=4, player=5),
        Row(3, "undo", undoes=2),
    )
    assert out.withdrawn == {5: 3}


def test_an_undo_restores_what_the_undone_entry_replaced_and_an_undo_of_it_takes_it_back() -> None:
    rows = (
        Row(1, "set", player=1, opponent=2),
        Row(2, "bye", player=1),
        Row(3, "undo", undoes=2),
    )
    assert _replay(*rows).rounds[1].games == {(1, 2): "game 1"}
    assert _replay(*rows).rounds[1].byes == {}
    again = _replay(*rows, Row(4, "undo", undoes=3))
    assert again.rounds[1].games == {}
    assert again.rounds[1].byes == {1: "bye 2"}


def test_a_board_keeps_several_games_of_a_player_until_a_clear() -> None:
    board: Board[str, str] = Board()
    assert board.add(2, 1, "claimed by 2") == (1, 2)
    board.add(1, 3, "claimed by 3")
    assert board.of_player[1] == ((1, 2), (1, 3))
    board.clear(1)
    assert board.games == {}


def _part(row: Row) -> Part:
    return Part(row.action == "withdraw", row.player if row.action == "withdraw" else row.round)


def _undoes(row: Row) -> int | None:
    return row.undoes if row.action == "undo" else None


@st.composite
def rows(draw: st.DrawFn) -> list[Row]:
    """Any log of sets, byes, clears, withdrawals and undos (of anything earlier)."""
    out: list[Row] = []
    for key in range(1, draw(st.integers(0, 40)) + 1):
        action = draw(st.sampled_from(["set", "bye", "clear", "withdraw", "undo", "undo"]))
        if action == "undo":
            out.append(Row(key, "undo", undoes=draw(st.integers(1, key))))
            continue
        player, opponent = draw(st.integers(1, 5)), draw(st.integers(1, 5))
        if action == "set" and player == opponent:
            continue
        out.append(Row(key, action, draw(st.integers(1, 3)), player, opponent))
    return out


@settings(max_examples=400, deadline=None)
@given(rows(), st.integers(0, 40))
def test_a_live_replay_grown_entry_by_entry_is_the_replay_of_the_whole_log(
    log: list[Row], start: int
) -> None:
    live: LiveReplay[Row, int, str, str, int] = LiveReplay.of(
        log[:start], _step, key=lambda r: r.key, undoes=_undoes, part=_part
    )
    for n, row in enumerate(log[start:], start=start):
        seen = log[: n + 1]
        changed = live.changes(row)
        parts = {_part(e) for e in seen if e.key in changed}
        live.add(row, {p: [e for e in seen if _part(e) == p] for p in parts})
        whole = _replay(*seen)
        assert live.state.withdrawn == whole.withdrawn
        mine = {r: (b.games, b.byes, b.of_player) for r, b in live.state.rounds.items()}
        theirs = {r: (b.games, b.byes, b.of_player) for r, b in whole.rounds.items()}
        assert mine == theirs

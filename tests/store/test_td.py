"""A tournament director's tools: set any result, byes, withdrawals, clearing a round, and
undo, every change an event of the audit trail."""

from __future__ import annotations

import pytest

from bot.store import EventKind, ResultStatus, StoreError
from tests.store.conftest import ANN, BOB, CAT, DAN, GUILD, TD, Club, user


async def test_a_td_sets_a_result_over_the_players_reports_and_the_log_says_so(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    corrected = await club.store.set_result(
        GUILD,
        club.name,
        TD,
        round=1,
        player=user(ANN),
        opponent=user(BOB),
        result="draw",
        colour="black",
    )
    assert corrected.status is ResultStatus.CONFIRMED and corrected.game.by_td
    assert corrected.event.supersedes == said.event.seq
    assert await club.entries(1) == ["D2 (b)"]
    trail = [h.describe() for h in await club.store.history(GUILD, club.name, round=1)]
    assert trail[0].startswith("#2 round 1: Tess (TD) set #1 Ann ½-½ #2 Bob (discord, ")
    assert trail[0].endswith(", replacing #1")
    assert trail[1].startswith("#1 round 1: Ann reported #1 Ann 1-0 #2 Bob")


async def test_setting_the_same_result_again_writes_nothing(club: Club):
    first = await club.store.set_result(
        GUILD, club.name, TD, round=2, player=1, opponent=3, result="loss"
    )
    again = await club.store.set_result(
        GUILD, club.name, TD, round=2, player=3, opponent=1, result="win"
    )
    assert first.changed and not again.changed


async def test_a_td_set_replaces_both_players_other_games_in_that_round(club: Club):
    await club.report(ANN, 1, BOB, "win")
    await club.report(CAT, 1, DAN, "win")
    await club.store.set_result(GUILD, club.name, TD, round=1, player=1, opponent=3, result="win")
    assert [await club.entries(n) for n in (1, 2, 3, 4)] == [["W3"], [""], ["L1"], [""]]


async def test_only_a_td_sets_results_gives_byes_withdraws_and_undoes(club: Club):
    store, name = club.store, club.name
    attempts = [
        store.set_result(GUILD, name, ANN, round=1, player=1, opponent=2, result="win"),
        store.set_bye(GUILD, name, ANN, round=1, player=1),
        store.withdraw(GUILD, name, ANN, player=1),
        store.undo(GUILD, name, ANN),
    ]
    for attempt in attempts:
        with pytest.raises(StoreError) as error:
            await attempt
        assert error.value.code == "not-td"
        assert str(error.value).startswith("only a tournament director can ")


@pytest.mark.parametrize(
    ("kind", "cell", "points"),
    [("full", "B", 2), ("half", "H", 1), ("zero", "U", 0), ("pairing", "B", 2)],
)
async def test_byes_of_each_kind(club: Club, kind: str, cell: str, points: int):
    given = await club.store.set_bye(GUILD, club.name, TD, round=1, player=4, kind=kind)
    assert given.changed and given.status is ResultStatus.CONFIRMED
    state = await club.store.state(GUILD, club.name)
    assert str(state.tournament.player(4).entries[0]) == cell
    assert state.tournament.player(4).half_points == points
    again = await club.store.set_bye(GUILD, club.name, TD, round=1, player=4, kind=kind)
    assert not again.changed


async def test_a_bye_word_that_is_not_a_bye_is_refused(club: Club):
    with pytest.raises(StoreError) as error:
        await club.store.set_bye(GUILD, club.name, TD, round=1, player=4, kind="win")
    assert error.value.code == "bad-bye"


async def test_a_member_cannot_report_over_a_bye(club: Club):
    await club.store.set_bye(GUILD, club.name, TD, round=1, player=2, kind="half")
    with pytest.raises(StoreError) as error:
        await club.report(ANN, 1, BOB, "win")
    assert "#2 Bob already has a confirmed result in round 1 (a half-point bye)" in str(error.value)


async def test_a_withdrawn_players_later_rounds_are_withdrawn_in_the_tournament(club: Club):
    await club.store.set_result(GUILD, club.name, TD, round=1, player=1, opponent=4, result="win")
    await club.store.set_result(GUILD, club.name, TD, round=3, player=2, opponent=3, result="win")
    gone = await club.store.withdraw(GUILD, club.name, TD, player="Dan", from_round=2)
    assert gone.changed and "from round 2 on" in gone.message
    assert await club.entries(4) == ["L1", "-", "-"]
    assert await club.entries(1) == ["W4", "", ""]  # absent is not withdrawn
    assert not (await club.store.withdraw(GUILD, club.name, TD, player=4, from_round=2)).changed


async def test_withdrawing_by_default_starts_with_the_next_round(club: Club):
    await club.store.set_result(GUILD, club.name, TD, round=1, player=1, opponent=4, result="win")
    gone = await club.store.withdraw(GUILD, club.name, TD, player=4)
    assert gone.event.round == 2


async def test_undo_reverts_the_newest_event_and_is_itself_an_event(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    confirmed = await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    undone = await club.store.undo(GUILD, club.name, TD)
    assert undone.event.kind is EventKind.REVERT
    assert undone.event.refers_to == confirmed.event.seq
    assert undone.message.startswith("Undone: #2 round 1: Bob confirmed report #1")
    state = await club.store.state(GUILD, club.name)
    assert state.marks[(1, 1)] is ResultStatus.PROVISIONAL
    trail = await club.store.history(GUILD, club.name)
    assert [(h.seq, h.event.kind, h.reverted) for h in trail] == [
        (3, EventKind.REVERT, False),
        (2, EventKind.CONFIRM, True),
        (1, EventKind.REPORT, False),
    ]


async def test_undo_twice_undoes_two_events_and_undoing_an_undo_redoes(club: Club):
    await club.report(ANN, 1, BOB, "win")
    await club.report(CAT, 1, DAN, "draw")
    await club.store.undo(GUILD, club.name, TD)
    second = await club.store.undo(GUILD, club.name, TD)
    assert second.event.refers_to == 1
    assert (await club.store.state(GUILD, club.name)).games == ()
    redo = await club.store.undo(GUILD, club.name, TD, event=second.event.seq)
    assert redo.changed
    assert await club.entries(1) == ["W2"] and await club.entries(3) == [""]
    assert not (await club.store.undo(GUILD, club.name, TD, event=second.event.seq)).changed


async def test_undoing_any_earlier_event_replays_the_rest(club: Club):
    first = await club.report(ANN, 1, BOB, "win")
    await club.store.set_bye(GUILD, club.name, TD, round=2, player=1, kind="half")
    await club.store.undo(GUILD, club.name, TD, event=first.event.seq)
    assert await club.entries(1) == ["", "H"]


async def test_undo_with_nothing_or_an_unknown_event_says_so(club: Club):
    with pytest.raises(StoreError) as nothing:
        await club.store.undo(GUILD, club.name, TD)
    with pytest.raises(StoreError) as unknown:
        await club.store.undo(GUILD, club.name, TD, event=42)
    assert str(nothing.value) == "there is nothing to undo in Club Night"
    assert str(unknown.value) == "there is no event #42 in Club Night"


async def test_history_answers_who_changed_round_two_and_when(club: Club, clock):
    await club.report(ANN, 1, BOB, "win")
    clock.advance(3600)
    await club.store.set_result(GUILD, club.name, TD, round=2, player=3, opponent=1, result="draw")
    trail = await club.store.history(GUILD, club.name, round=2)
    assert [(h.event.actor_name, h.event.at.isoformat()) for h in trail] == [
        ("Tess (TD)", "2026-03-14T19:30:00+00:00")
    ]
    by_player = await club.store.history(GUILD, club.name, player="Bob")
    assert [h.seq for h in by_player] == [1]

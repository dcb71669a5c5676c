"""A tournament linked to a spreadsheet queues every final result for the sheet worker,
in the same transaction as the result, once; workers lease, write and mark them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.store import Naming, StoreError
from tests.store.conftest import ANN, BOB, CAT, DAN, GUILD, OTHER_GUILD, TD, Clock, Club


@pytest.fixture
async def linked(club: Club) -> Club:
    await club.store.linked.link_sheet(
        GUILD,
        club.name,
        TD,
        spreadsheet_id="sheet-abc",
        url="https://docs.google.com/spreadsheets/d/sheet-abc",
        named=[GUILD],
    )
    return club


async def test_linking_needs_a_td_and_is_shown_on_the_tournament(club: Club):
    with pytest.raises(StoreError) as member:
        await club.store.linked.link_sheet(GUILD, club.name, ANN, spreadsheet_id="x", named=[GUILD])
    assert member.value.code == "not-td"
    info = await club.store.linked.link_sheet(
        GUILD, club.name, TD, spreadsheet_id=" sheet-abc ", named=[GUILD]
    )
    assert info.sheet.spreadsheet_id == "sheet-abc" and info.sheet.linked_by == TD.user
    assert (await club.store.linked.unlink_sheet(GUILD, club.name, TD)).sheet is None


async def test_a_sheet_is_linked_only_by_a_server_it_names(club: Club, clock: Clock):
    linked = club.store.linked
    with pytest.raises(StoreError) as refused:
        await linked.link_sheet(GUILD, club.name, TD, spreadsheet_id="sheet-abc", named=[])
    assert refused.value.code == "sheet-not-named"
    await club.store.create_tournament(OTHER_GUILD, "Their Night", rounds=3, actor=TD)
    with pytest.raises(StoreError):  # another server's id does not name this one
        await linked.link_sheet(GUILD, club.name, TD, spreadsheet_id="sheet-abc", named=["123"])
    code = await linked.link_code(GUILD, club.name, TD, spreadsheet_id="sheet-abc")
    assert code.code.startswith("HK-") and code.tournament == club.name
    assert (await linked.link_code(GUILD, club.name, TD, spreadsheet_id="sheet-abc")) == code
    with pytest.raises(StoreError) as member:
        await linked.link_code(GUILD, club.name, ANN, spreadsheet_id="sheet-abc")
    assert member.value.code == "not-td"
    # The code is this server's, for this sheet and this tournament only.
    mine = [code.code]
    assert await linked.naming(OTHER_GUILD, "Their Night", "sheet-abc", mine) is Naming.NONE
    assert await linked.naming(GUILD, club.name, "sheet-xyz", mine) is Naming.NONE
    await club.store.create_tournament(GUILD, "Blitz", rounds=3, actor=TD)
    assert await linked.naming(GUILD, "Blitz", "sheet-abc", mine) is Naming.NONE
    assert await linked.naming(GUILD, club.name, "sheet-abc", mine) is Naming.CODE
    with pytest.raises(StoreError):
        await linked.link_sheet(
            OTHER_GUILD, "Their Night", TD, spreadsheet_id="sheet-abc", named=mine
        )
    # Linking uses it up: from then on it names this server for the sheet, any tournament.
    info = await linked.link_sheet(GUILD, club.name, TD, spreadsheet_id="sheet-abc", named=mine)
    assert info.sheet is not None and info.sheet.spreadsheet_id == "sheet-abc"
    assert await linked.naming(GUILD, "Blitz", "sheet-abc", mine) is Naming.NAMED
    assert (await linked.sheet_use(GUILD, "sheet-abc", mine)).allowed
    assert not (await linked.sheet_use(OTHER_GUILD, "sheet-abc", mine)).allowed
    assert not (await linked.sheet_use(GUILD, "sheet-abc", [])).allowed  # the editors took it off
    new = await linked.link_code(GUILD, club.name, TD, spreadsheet_id="sheet-abc")
    assert new.code != code.code  # a used code is never given again


async def test_a_code_not_in_the_sheet_in_time_expires(club: Club, clock: Clock):
    linked = club.store.linked
    code = await linked.link_code(GUILD, club.name, TD, spreadsheet_id="sheet-abc")
    clock.advance(31 * 60)
    assert await linked.naming(GUILD, club.name, "sheet-abc", [code.code]) is Naming.EXPIRED
    with pytest.raises(StoreError):
        await linked.link_sheet(GUILD, club.name, TD, spreadsheet_id="sheet-abc", named=[code.code])
    fresh = await linked.link_code(GUILD, club.name, TD, spreadsheet_id="sheet-abc")
    assert fresh.code != code.code and fresh.expires_at == clock() + timedelta(minutes=30)


async def test_a_sheet_that_no_longer_names_a_server_is_unlinked_from_its_tournaments(
    club: Club,
):
    linked = club.store.linked
    await club.store.create_tournament(GUILD, "Blitz", rounds=3, actor=TD)
    for name in (club.name, "Blitz"):
        await linked.link_sheet(GUILD, name, TD, spreadsheet_id="sheet-abc", named=[GUILD])
    said = await club.report(ANN, 1, BOB, "win")
    await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    unlinked = await linked.withdraw_sheet(GUILD, "sheet-abc")
    assert sorted(i.name for i in unlinked) == ["Blitz", club.name]
    assert all(i.sheet is not None and i.sheet.linked_by == TD.user for i in unlinked)
    assert (await club.store.tournament(GUILD, club.name)).sheet is None
    assert await linked.withdraw_sheet(GUILD, "sheet-abc") == []  # once
    assert len(await linked.pending_writes(GUILD, club.name)) == 1  # kept, unsent


async def test_an_unlinked_tournament_queues_nothing(club: Club):
    said = await club.report(ANN, 1, BOB, "win")
    done = await club.store.confirm(GUILD, club.name, BOB, said.event.seq)
    assert not done.outbox and await club.store.linked.pending_writes(GUILD, club.name) == []


async def test_a_result_is_queued_once_when_it_is_confirmed_not_before(linked: Club):
    said = await linked.report(ANN, 1, BOB, "win", colour="black")
    assert not said.outbox and await linked.store.linked.pending_writes(GUILD, linked.name) == []
    done = await linked.store.confirm(GUILD, linked.name, BOB, said.event.seq)
    await linked.store.confirm(GUILD, linked.name, BOB, said.event.seq)  # a second click
    assert done.outbox
    [item] = await linked.store.linked.pending_writes(GUILD, linked.name)
    assert item.event_seq == done.event.seq and item.spreadsheet_id == "sheet-abc"
    assert item.payload == {
        "key": f"harkness:{GUILD}:{item.payload['key'].split(':')[2]}:2",
        "action": "confirm",
        "time": "2026-03-14T18:30:00+00:00",
        "round": 1,
        "player": "Ann",
        "player_number": 1,
        "opponent": "Bob",
        "opponent_number": 2,
        "result": "1-0",
        "white": "Bob",
        "black": "Ann",
        "reported_by": "Ann",
        "confirmed_by": "Bob",
    }


async def test_agreeing_reports_td_decisions_byes_withdrawals_and_undos_are_queued(linked: Club):
    store, name = linked.store, linked.name
    await linked.report(ANN, 1, BOB, "draw")
    await linked.report(BOB, 1, ANN, "draw")
    await store.set_result(GUILD, name, TD, round=1, player=3, opponent=4, result="loss")
    await store.set_bye(GUILD, name, TD, round=2, player=1, kind="half")
    await store.withdraw(GUILD, name, TD, player=4, from_round=3)
    await store.undo(GUILD, name, TD)
    actions = [i.payload["action"] for i in await store.linked.pending_writes(GUILD, name)]
    assert actions == ["report", "set", "bye", "withdraw", "revert"]


async def test_a_worker_leases_writes_and_marks_and_no_one_writes_it_again(linked: Club, clock):
    store = linked.store
    said = await linked.report(ANN, 1, BOB, "win")
    await store.confirm(GUILD, linked.name, TD, said.event.seq)
    [item] = await store.linked.claim_writes("worker-a")
    assert await store.linked.claim_writes("worker-b") == []  # leased to worker-a
    assert await store.linked.mark_written(item, "worker-a")
    assert not await store.linked.mark_written(item, "worker-a")  # already marked
    clock.advance(3600)
    assert await store.linked.claim_writes("worker-b") == []
    assert await store.linked.pending_writes(GUILD, linked.name) == []


async def test_a_lease_that_runs_out_goes_to_another_worker(linked: Club, clock):
    store = linked.store
    await store.set_bye(GUILD, linked.name, TD, round=1, player=1)
    [item] = await store.linked.claim_writes("worker-a", lease=timedelta(seconds=30))
    clock.advance(31)
    [again] = await store.linked.claim_writes("worker-b")
    assert again.id == item.id
    assert not await store.linked.mark_written(item, "worker-a")  # its lease was lost
    assert await store.linked.mark_written(again, "worker-b")


async def test_a_failed_write_is_retried_later_with_the_error_kept(linked: Club, clock):
    store = linked.store
    await store.set_bye(GUILD, linked.name, TD, round=1, player=1)
    [item] = await store.linked.claim_writes("worker-a")
    assert await store.linked.mark_failed(
        item, "worker-a", "429 quota exceeded", retry_in=timedelta(seconds=60)
    )
    assert await store.linked.claim_writes("worker-a") == []
    clock.advance(60)
    [again] = await store.linked.claim_writes("worker-b")
    assert (again.attempts, again.last_error) == (1, "429 quota exceeded")


async def test_unlinking_holds_queued_writes_and_relinking_releases_them(linked: Club):
    store = linked.store
    await store.set_bye(GUILD, linked.name, TD, round=1, player=1)
    await store.linked.unlink_sheet(GUILD, linked.name, TD)
    assert await store.linked.claim_writes("worker-a") == []
    await store.linked.link_sheet(GUILD, linked.name, TD, spreadsheet_id="sheet-abc", named=[GUILD])
    assert len(await store.linked.claim_writes("worker-a")) == 1


async def test_claims_take_the_oldest_first_and_can_keep_to_one_guild(linked: Club):
    store = linked.store
    await store.create_tournament(OTHER_GUILD, "Elsewhere", rounds=2, actor=TD)
    await store.add_player(OTHER_GUILD, "Elsewhere", "Zoe", actor=TD)
    await store.linked.link_sheet(
        OTHER_GUILD, "Elsewhere", TD, spreadsheet_id="sheet-xyz", named=[OTHER_GUILD]
    )
    await store.set_bye(OTHER_GUILD, "Elsewhere", TD, round=1, player=1)
    for player in (CAT, DAN):
        await store.set_bye(GUILD, linked.name, TD, round=1, player=player.name)
    only_here = await store.linked.claim_writes("worker-a", guild=GUILD, limit=1)
    assert [(i.guild, i.payload["player"]) for i in only_here] == [(GUILD, "Cat")]
    rest = await store.linked.claim_writes("worker-b")
    assert [(i.guild, i.tournament) for i in rest] == [
        (OTHER_GUILD, "Elsewhere"),
        (GUILD, "Club Night"),
    ]


async def test_a_worker_renews_its_lease_while_it_writes_and_only_its_own(linked: Club, clock):
    store = linked.store
    await store.set_bye(GUILD, linked.name, TD, round=1, player=1)
    [item] = await store.linked.claim_writes("worker-a", lease=timedelta(seconds=30))
    for _ in range(4):  # two minutes of writing, renewed every 20 s
        clock.advance(20)
        assert await store.linked.renew_claims([item], "worker-a", lease=timedelta(seconds=30)) == [
            item.id
        ]
        assert await store.linked.claim_writes("worker-b") == []
    assert await store.linked.renew_claims([item], "worker-b", lease=timedelta(seconds=30)) == []
    assert await store.linked.mark_written(item, "worker-a")
    assert await store.linked.renew_claims([item], "worker-a", lease=timedelta(seconds=30)) == []


async def test_leases_of_stopped_workers_are_freed_and_the_others_kept(linked: Club, clock):
    store = linked.store
    for player in (ANN, BOB):
        await store.set_bye(GUILD, linked.name, TD, round=1, player=player.name)
    [ann] = await store.linked.claim_writes("killed", limit=1, lease=timedelta(minutes=10))
    [bob] = await store.linked.claim_writes("running", limit=1, lease=timedelta(minutes=10))
    assert await store.linked.release_claims(lambda worker: worker == "killed") == 1
    [again] = await store.linked.claim_writes("new")  # due at once, not in ten minutes
    assert again.id == ann.id
    assert not await store.linked.mark_written(ann, "killed")
    assert await store.linked.mark_written(bob, "running")
    assert await store.linked.release_claims(lambda worker: True) == 1  # "new" still held one


async def test_the_backlog_counts_unwritten_writes_and_how_long_the_oldest_has_been_due(
    linked: Club, clock
):
    store = linked.store
    assert await store.linked.outbox_backlog() == (0, 0.0)
    await store.set_bye(GUILD, linked.name, TD, round=1, player=1)
    clock.advance(10)
    await store.set_bye(GUILD, linked.name, TD, round=1, player=2)
    clock.advance(5)
    assert await store.linked.outbox_backlog() == (2, 15.0)
    first, _ = await store.linked.claim_writes("worker-a")
    assert await store.linked.mark_failed(first, "worker-a", "503", retry_in=timedelta(seconds=60))
    assert await store.linked.outbox_backlog() == (2, 5.0)  # the retried one is not due yet
    clock.advance(65)
    assert await store.linked.outbox_backlog() == (2, 70.0)  # the second, due at 10 s, is oldest

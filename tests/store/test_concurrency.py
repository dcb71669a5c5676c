"""Writers in separate processes, released at the same instant, leave one consistent state
on both engines: the log's unique sequence numbers and transactions decide, not locks in
one process."""

from __future__ import annotations

import asyncio
import multiprocessing
from typing import Any

import pytest

from bot.store import EventKind, ResultStatus, Store
from bot.store.model import EventKind as Kind
from bot.store.queries import append_event
from sheets.database.transactions import Conflict
from tests.store import workers
from tests.store.conftest import ANN, BOB, GUILD, TD, Club, user

TIMEOUT_S = 120


def race(url: str, calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, Any]]:
    """Run each call in its own process, all released together; their results."""
    # A fork server starts clean (no threads, no event loop) and has the store imported
    # once, so each writer is a fresh process that starts quickly.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.store.workers"])
    barrier = context.Barrier(len(calls))
    results = context.Queue()
    processes = [
        context.Process(target=workers.call, args=(url, barrier, results, m, a)) for m, a in calls
    ]
    for p in processes:
        p.start()
    for p in processes:
        p.join(TIMEOUT_S)
    assert [p.exitcode for p in processes] == [0] * len(processes)
    return [results.get(timeout=5) for _ in processes]


async def run_race(url: str, calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, Any]]:
    return await asyncio.to_thread(race, url, calls)


def report(actor, opponent, result: str, round: int = 1) -> tuple[str, dict[str, Any]]:
    return (
        "report",
        {
            "guild": GUILD,
            "tournament": "Club Night",
            "actor": actor,
            "round": round,
            "opponent": user(opponent),
            "result": result,
        },
    )


async def test_the_same_report_from_six_processes_is_recorded_once(club: Club, db_url: str):
    outcomes = await run_race(db_url, [report(ANN, BOB, "win")] * 6)
    assert sorted(o[1][0] for o in outcomes) == [False] * 5 + [True]
    assert {o[1][1] for o in outcomes} == {"provisional"}
    history = await club.store.history(GUILD, club.name)
    assert [(h.seq, h.event.kind) for h in history] == [(1, EventKind.REPORT)]


async def test_both_players_reporting_the_same_result_at_once_confirm_it(club: Club, db_url: str):
    outcomes = await run_race(db_url, [report(ANN, BOB, "win"), report(BOB, ANN, "loss")])
    assert sorted(o[1][1] for o in outcomes) == ["confirmed", "provisional"]
    state = await club.store.state(GUILD, club.name)
    assert [g.status for g in state.games] == [ResultStatus.CONFIRMED]
    assert [h.seq for h in await club.store.history(GUILD, club.name)] == [2, 1]


async def test_both_players_claiming_the_win_at_once_is_one_dispute(club: Club, db_url: str):
    outcomes = await run_race(db_url, [report(ANN, BOB, "win"), report(BOB, ANN, "win")])
    assert sorted(o[1][1] for o in outcomes) == ["disputed", "provisional"]
    state = await club.store.state(GUILD, club.name)
    assert [g.status for g in state.games] == [ResultStatus.DISPUTED]


async def test_many_games_reported_at_once_are_all_kept_in_one_unbroken_log(
    store: Store, db_url: str
):
    from bot.store import Actor, TournamentStatus

    members = [Actor(str(1000 + n), f"Player {n}") for n in range(16)]
    await store.create_tournament(GUILD, "Blitz", rounds=1, actor=TD)
    for m in members:
        await store.join(GUILD, "Blitz", m)
    await store.set_status(GUILD, "Blitz", TournamentStatus.RUNNING, TD)
    calls = [
        (
            "report",
            {
                "guild": GUILD,
                "tournament": "Blitz",
                "actor": members[2 * n],
                "round": 1,
                "opponent": user(members[2 * n + 1]),
                "result": "draw",
            },
        )
        for n in range(8)
    ]
    outcomes = await run_race(db_url, calls)
    assert [o[0] for o in outcomes] == ["ok"] * 8
    history = await store.history(GUILD, "Blitz", limit=None)
    assert sorted(h.seq for h in history) == list(range(1, 9))
    assert len((await store.state(GUILD, "Blitz")).games) == 8


async def test_members_joining_at_once_get_distinct_starting_numbers(store: Store, db_url: str):
    from bot.store import Actor

    await store.create_tournament(GUILD, "Open", rounds=3, actor=TD)
    calls = [
        (
            "join",
            {"guild": GUILD, "tournament": "Open", "actor": Actor(str(2000 + n), f"Member {n}")},
        )
        for n in range(6)
    ]
    outcomes = await run_race(db_url, calls)
    assert [o[0] for o in outcomes] == ["ok"] * 6
    players = await store.players(GUILD, "Open")
    assert [p.number for p in players] == [1, 2, 3, 4, 5, 6]
    assert len({p.discord_id for p in players}) == 6


async def test_processes_starting_on_an_empty_database_at_once_migrate_it_once(db_url: str):
    outcomes = await run_race(db_url, [("open", {})] * 4)
    assert outcomes == [("ok", None)] * 4
    store = await Store.open(db_url)
    try:
        assert await store.tournaments(GUILD) == []
    finally:
        await store.close()


async def test_a_writer_with_a_stale_log_collides_on_the_sequence_number(club: Club):
    """The backstop under the row lock: an event written from an out-of-date view of the
    log is refused by the unique (tournament, seq) key, and the writer starts over."""
    async with club.store.engine.connect() as conn:
        stale = await club.store.folds.loaded(conn, GUILD, club.name)
    await club.report(ANN, 1, BOB, "win")
    with pytest.raises(Conflict):
        async with club.store.engine.begin() as conn:
            await append_event(
                conn, stale, TD, club.store.clock(), Kind.CLEAR, round=1, player=club.ann.id
            )
    assert len(await club.store.history(GUILD, club.name)) == 1

"""The pairing ceiling: the engine in a child process, refused up front when too big,
stopped when too slow, too hungry, cancelled or shut down, one pairing per tournament."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from core.examples import example_path
from core.formats import read_tournament
from core.model import Player, Tournament
from core.pairing import pair_round, prepare
from core.pairing.isolated import (
    Ceiling,
    PairingJob,
    pair_in_background,
    pair_isolated,
    stop_all,
)
from core.problems import HarknessError

CLUB = read_tournament(example_path("club-swiss.trf"))


def _field(players: int) -> Tournament:
    return Tournament(tuple(Player(i, f"P{i}", (), 2400 - i) for i in range(1, players + 1)), 0)


def _code(error: pytest.ExceptionInfo[HarknessError]) -> str | None:
    return error.value.problems[0].code


def test_the_child_gives_the_same_pairing_as_the_engine_in_process():
    request = prepare(CLUB, 3)
    assert pair_isolated(request) == pair_round(request)


def test_too_many_players_are_refused_before_anything_runs():
    request = prepare(_field(9), 1, rounds=3)
    with pytest.raises(HarknessError) as error:
        pair_isolated(request, Ceiling(players=8))
    assert _code(error) == "pairing-too-big"
    assert error.value.problems[0].value == "9"


def test_an_engine_past_the_time_limit_is_stopped():
    with pytest.raises(HarknessError) as error:  # waiting
        pair_isolated(prepare(CLUB, 3), Ceiling(wall=0.001))
    assert _code(error) == "pairing-too-slow"
    with pytest.raises(HarknessError) as error:  # its own CPU time, whatever the load
        pair_isolated(prepare(_field(700), 1, rounds=5), Ceiling(seconds=1))
    assert _code(error) == "pairing-too-slow"
    assert "more than 1 s of CPU" in str(error.value)


def test_an_engine_past_the_memory_limit_is_stopped():
    request = prepare(_field(600), 1, rounds=5)  # 180,000 pairs to weigh
    with pytest.raises(HarknessError) as error:
        pair_isolated(request, Ceiling(memory=100 * 1024**2))
    assert _code(error) == "pairing-out-of-memory"
    assert "100 MB" in str(error.value)


def _started(job: PairingJob) -> tuple[threading.Thread, list[object]]:
    """Run the job in a thread; return once its child process runs."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(job.run())
        except HarknessError as error:
            outcome.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 30
    while job._child is None and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    return thread, outcome


def test_stopping_kills_the_engine_at_once_and_one_pairing_per_tournament_runs():
    job = PairingJob(prepare(_field(700), 1, rounds=5), key="club")
    thread, outcome = _started(job)
    # A second pairing of the same tournament is refused while the first runs.
    with pytest.raises(HarknessError) as error:
        pair_isolated(prepare(CLUB, 3), key="club")
    assert _code(error) == "pairing-busy"
    start = time.monotonic()
    stop_all()  # a shutdown: nothing waits for the engine
    thread.join(10)
    assert not thread.is_alive() and time.monotonic() - start < 5
    (stopped,) = outcome
    assert isinstance(stopped, HarknessError)
    assert stopped.problems[0].code == "pairing-stopped"
    # The tournament is free again.
    assert pair_isolated(prepare(CLUB, 3), key="club").round == 3


async def test_cancelling_the_awaiting_task_kills_the_engine():
    task = asyncio.create_task(pair_in_background(prepare(_field(700), 1, rounds=5), key="x"))
    await asyncio.sleep(1.0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The key is released once the killed child is reaped (at once, not after the engine).
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            pair_isolated(prepare(CLUB, 3), key="x")
            break
        except HarknessError as error:
            assert error.problems[0].code == "pairing-busy"
            await asyncio.sleep(0.05)
    else:
        pytest.fail("the cancelled pairing still holds its tournament")

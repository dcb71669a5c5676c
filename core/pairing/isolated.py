"""Pairing within a ceiling: the engine runs in a child process that can be stopped at once.

The Dutch engine's time and memory grow with the square of the players to pair (and far
faster in the rounds where it must weigh every pair of a large score group at once), and
nothing inside it can be interrupted. So every front door (the command line, the bot's
``/round preview``, the sheet endpoint) pairs through this module:

- **Too big is refused up front** (:func:`check_size`): more players to pair than
  :attr:`Ceiling.players` is the problem ``pairing-too-big``, before anything runs.
- **The engine runs in a child process** (``python -m core.pairing.child``) whose address
  space is limited (``RLIMIT_AS``, :attr:`Ceiling.memory`) and which is killed when it
  uses more than :attr:`Ceiling.seconds` of CPU (``RLIMIT_CPU``: what it costs, whatever
  else the machine is doing) or :attr:`Ceiling.wall` seconds of waiting (a backstop), both
  ``pairing-too-slow``, or runs out of memory
  (``pairing-out-of-memory``). Preparing the request and checking the answer stay here.
- **Stopping never waits for the engine**: :meth:`PairingJob.stop` (a cancelled command)
  and :func:`stop_all` (a process shutting down) kill the child; the pairing then fails
  with ``pairing-stopped``.
- **At most one pairing per tournament at a time**: a job given a ``key`` (the
  tournament's identity in a long-running process) is refused with ``pairing-busy`` while
  another job with that key runs.

The answer is the engine's own, mapped back and checked exactly as :func:`pair_round` does
in-process; only where the engine runs differs.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.pairing.engine import require_engine
from core.pairing.model import RoundPairing
from core.pairing.pair import pair_round
from core.pairing.prepare import PairingRequest
from core.problems import HarknessError, Problem

__all__ = [
    "CEILING",
    "Ceiling",
    "PairingJob",
    "check_size",
    "pair_in_background",
    "pair_isolated",
    "stop_all",
]


@dataclass(frozen=True, slots=True)
class Ceiling:
    """What one pairing may take: players to pair, CPU seconds of the engine, seconds of
    waiting for it, bytes of the engine's address space.

    The defaults are measured (``tests/bench/pairing.py``): the engine's hardest rounds of
    1,000-player Swisses took 24–50 s of CPU and up to 1 GB (an early round where it weighs
    a whole lower part of the field at once); 1,500 players take 0.7 GB in round 1 already,
    and the memory grows with the square of the players. The CPU limit leaves room for a
    harder 1,000-player round; the wait limit is a backstop (a machine too loaded to run it).
    """

    players: int = 1_000
    seconds: int = 120
    wall: float = 600.0
    memory: int = 2 * 1024**3


#: The ceiling every front door pairs within (README.md, "Limits"; core/README.md).
CEILING = Ceiling()

_lock = threading.Lock()
_running: dict[Hashable, PairingJob] = {}  # by key: at most one job per tournament
_jobs: set[PairingJob] = set()  # every job running in this process


def check_size(request: PairingRequest, ceiling: Ceiling = CEILING) -> None:
    """Refuse, before anything runs, a round with more players to pair than the ceiling.

    >>> from core.model import Player, Tournament
    >>> from core.pairing.prepare import prepare
    >>> t = Tournament(tuple(Player(i, f"P{i}") for i in range(1, 6)), 0)
    >>> check_size(prepare(t, 1, rounds=3), Ceiling(players=4))
    Traceback (most recent call last):
    ...
    core.problems.HarknessError: round 1: 5 players to pair, more than the 4 the pairing engine is run for (its time and memory grow with the square of the players)
    """  # noqa: E501
    count = len(request.to_pair)
    if count > ceiling.players:
        raise HarknessError(
            [
                Problem(
                    f"{count} players to pair, more than the {ceiling.players} the pairing "
                    "engine is run for (its time and memory grow with the square of the "
                    "players)",
                    round=request.round,
                    code="pairing-too-big",
                    value=str(count),
                )
            ]
        )


class PairingJob:
    """One pairing within the ceiling: :meth:`run` it (blocking), :meth:`stop` it from
    anywhere (another thread, a cancelled task)."""

    def __init__(
        self, request: PairingRequest, ceiling: Ceiling = CEILING, key: Hashable | None = None
    ) -> None:
        self.request = request
        self.ceiling = ceiling
        self.key = key
        self._child: subprocess.Popen[bytes] | None = None
        self._stopped = False
        #: The engine's CPU seconds and peak resident memory in bytes, once it answered.
        self.cpu_seconds = 0.0
        self.peak_memory = 0

    def run(self) -> RoundPairing:
        """The round's pairing (see :func:`~core.pairing.pair_round`), the engine in a child
        process; raises :class:`HarknessError` with the pairing's problem or the ceiling's."""
        check_size(self.request, self.ceiling)
        require_engine()
        with _lock:
            if self.key is not None:
                if self.key in _running:
                    raise _problem(
                        "a pairing of this tournament is already running: wait for it",
                        "pairing-busy",
                        self.request.round,
                    )
                _running[self.key] = self
            _jobs.add(self)
        try:
            return pair_round(self.request, self._engine)
        finally:
            with _lock:
                _jobs.discard(self)
                if self.key is not None and _running.get(self.key) is self:
                    del _running[self.key]

    def stop(self) -> None:
        """Kill the engine now; :meth:`run` then fails with ``pairing-stopped``."""
        with _lock:
            self._stopped = True
            child = self._child
        if child is not None:
            _kill(child)

    def _engine(self, text: str, round: int) -> list[tuple[int, int]]:
        command = [sys.executable, "-m", "core.pairing.child"]
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        with _lock:
            if self._stopped:
                raise _problem("the pairing was stopped", "pairing-stopped", round)
            child = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
            self._child = child
        order = {
            "trf": text,
            "round": round,
            "memory": self.ceiling.memory,
            "cpu": self.ceiling.seconds,
            "parent": os.getpid(),
        }
        try:
            out, _ = child.communicate(json.dumps(order).encode(), timeout=self.ceiling.wall)
        except subprocess.TimeoutExpired:
            _kill(child)
            child.communicate()  # reaped at once: it was killed
            raise _problem(
                f"the pairing engine did not finish within {self.ceiling.wall:g} s, the "
                "pairing time limit, and was stopped",
                "pairing-too-slow",
                round,
            ) from None
        if child.returncode == -signal.SIGXCPU:
            raise _problem(
                f"the pairing engine needed more than {self.ceiling.seconds} s of CPU, the "
                "pairing time limit, and was stopped",
                "pairing-too-slow",
                round,
            )
        if self._stopped:
            raise _problem("the pairing was stopped", "pairing-stopped", round)
        data = _answer(out, child.returncode, round, self.ceiling)
        self.cpu_seconds = float(data.get("cpu", 0.0))
        self.peak_memory = int(data.get("peak", 0)) * 1024
        return [(int(w), int(b)) for w, b in data["pairs"]]


def _answer(out: bytes, status: int, round: int, ceiling: Ceiling) -> dict[str, Any]:
    """The child's answer with its pairs, or the problem it reported, or why it died."""
    try:
        data = json.loads(out.decode() or "null")
    except ValueError:
        data = None
    if isinstance(data, dict) and "pairs" in data:
        return data
    if isinstance(data, dict) and "problem" in data:
        found = data["problem"]
        if found.get("code") == "pairing-out-of-memory":
            raise _problem(
                f"the pairing engine needed more than {ceiling.memory // 1024**2} MB, the "
                "pairing memory limit, and was stopped",
                "pairing-out-of-memory",
                round,
            )
        raise HarknessError(
            [
                Problem(
                    str(found.get("message", "")),
                    round=found.get("round"),
                    code=str(found.get("code") or "engine-refused"),
                )
            ]
        )
    raise _problem(
        f"the pairing engine stopped without an answer (exit status {status})",
        "engine-refused",
        round,
    )


def _problem(message: str, code: str, round: int) -> HarknessError:
    return HarknessError([Problem(message, round=round, code=code)])


def _kill(child: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):  # already gone
        child.kill()


def pair_isolated(
    request: PairingRequest, ceiling: Ceiling = CEILING, key: Hashable | None = None
) -> RoundPairing:
    """:func:`~core.pairing.pair_round` within the ceiling (see the module's notes)."""
    return PairingJob(request, ceiling, key).run()


async def pair_in_background(
    request: PairingRequest, ceiling: Ceiling = CEILING, key: Hashable | None = None
) -> RoundPairing:
    """:func:`pair_isolated` for an event loop: the wait runs in a worker thread, and
    cancelling the awaiting task kills the engine at once."""
    import asyncio

    job = PairingJob(request, ceiling, key)
    try:
        return await asyncio.to_thread(job.run)
    except asyncio.CancelledError:
        job.stop()
        raise


def stop_all() -> None:
    """Kill every engine this process is running (a process shutting down does not wait
    for them); their pairings fail with ``pairing-stopped``."""
    with _lock:
        jobs = list(_jobs)
    for job in jobs:
        job.stop()

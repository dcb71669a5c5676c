"""Speed and memory of pairing (run by hand: ``python tests/bench/pairing.py [SIZES…]``;
not a test).

Pairs 9-round Swisses of 500, 1,000 and 3,000 players round by round the way every front
door does (:func:`core.pairing.isolated.pair_isolated`: the engine in a child process
within the pairing ceiling), with seeded results of two kinds: drawn at random, and
following the ratings (the top half wins round 1, as in a real open: the engine's hardest
case, a small score group between two large ones). Players ask for byes, withdraw and
enter late as in ``tests/pairing/support.py``. Every round is paired (each needs the one
before); rounds 1, 3 and the final round are the ones with goals.

Printed per round: the engine's CPU time (what is compared: wall time on a shared
machine also measures everyone else's work), the wall time and the machine's load average
(a busy machine stretches CPU time too), and the engine's peak resident memory, next to
the goals: any round of a 1,000-player Swiss in ≤ 10 s and ≤ 1 GB. A section over the
ceiling (``CEILING.players``) is refused up front, and says so.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.pairing import matching, prepare  # noqa: E402
from core.pairing.engine import engine_version  # noqa: E402
from core.pairing.isolated import CEILING, PairingJob  # noqa: E402
from core.problems import HarknessError  # noqa: E402
from tests.pairing.support import Event  # noqa: E402

ROUNDS = 9
GOAL_SECONDS, GOAL_MEMORY = 10.0, 1024**3
MEASURED = (1, 3, ROUNDS)


def run(players: int, by_rating: bool) -> None:
    kind = "results by rating" if by_rating else "random results"
    print(f"\n{players} players × {ROUNDS} rounds, {kind}, 10% late entries:")
    event = Event(players, ROUNDS, seed=players, by_rating=by_rating)
    for r in range(1, ROUNDS + 1):
        event.request_byes(r)
        request = prepare(event.tournament(), r)
        job = PairingJob(request)
        start = time.perf_counter()
        try:
            pairing = job.run()
        except HarknessError as error:
            print(f"round {r}: not paired: {error.problems[0].code}: {error.problems[0].message}")
            return
        wall = time.perf_counter() - start
        cpu, peak = job.cpu_seconds, job.peak_memory
        mark = ""
        if r in MEASURED:
            ok = cpu <= GOAL_SECONDS and peak <= GOAL_MEMORY
            mark = "  within the goal" if ok else "  OVER the goal"
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
        print(
            f"round {r}: {len(pairing.boards)} boards, engine {cpu:.1f} s CPU "
            f"({wall:.1f} s wall, load {load:.1f}), peak {peak / 1024**2:.0f} MB{mark}"
        )
        event.play(pairing)


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [500, 1_000, 3_000]
    computer = "bbpPairings' matching computer" if matching.available() else "networkx"
    print(f"python {sys.version.split()[0]}, {engine_version()}, matchings by {computer}")
    print(
        f"ceiling: {CEILING.players} players to pair, {CEILING.seconds} s of CPU "
        f"({CEILING.wall:g} s waiting), {CEILING.memory / 1024**3:g} GB of address space; "
        "goal for rounds "
        f"{', '.join(map(str, MEASURED))}: ≤ {GOAL_SECONDS:g} s and ≤ "
        f"{GOAL_MEMORY / 1024**3:g} GB"
    )
    for players in sizes:
        for by_rating in (False, True):
            run(players, by_rating)


if __name__ == "__main__":
    main()

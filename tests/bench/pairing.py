"""Speed of pairing (run by hand: ``python tests/bench/pairing.py``; not a test).

Pairs a 500-player, 9-round Swiss round by round with the engine (results random but
seeded, with requested byes and withdrawals; then again with 10% of the field entering
late, in rounds 2–4, which makes the bottom bracket large), and prints each round's time:
preparing the request, the engine, and core's check of the absolute criteria, i.e. all of
:func:`core.pairing.pair_round` and :func:`core.pairing.prepare`.

Goal: every round of a 500-player section paired in under 2 s. CPU time is what is
compared: wall time on a shared machine also measures everyone else's work.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.pairing import pair_round, prepare  # noqa: E402
from core.pairing.engine import engine_version  # noqa: E402
from tests.pairing.support import Event  # noqa: E402

PLAYERS, ROUNDS, GOAL = 500, 9, 2.0


def run(late_entries: bool) -> float:
    """Pair every round; answer the slowest round's CPU time."""
    print(
        f"{PLAYERS} players × {ROUNDS} rounds, "
        f"{'10% late entries' if late_entries else 'no late entries'}:"
    )
    event = Event(PLAYERS, ROUNDS, seed=500, late_entries=late_entries)
    times = []
    for r in range(1, ROUNDS + 1):
        event.request_byes(r)
        tournament = event.tournament()
        start, cpu = time.perf_counter(), time.process_time()
        pairing = pair_round(prepare(tournament, r))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        times.append(cpu)
        print(
            f"round {r}: {len(pairing.boards)} boards paired and checked in {elapsed:.2f} s "
            f"({cpu:.2f} s CPU)"
        )
        event.play(pairing)
    return max(times)


def main() -> None:
    print(f"python {sys.version.split()[0]}, {engine_version()}")
    for late_entries in (False, True):
        worst = run(late_entries)
        verdict = "under" if worst < GOAL else "OVER"
        print(f"slowest round {worst:.2f} s CPU ({verdict} the {GOAL:.0f} s goal)")


if __name__ == "__main__":
    main()

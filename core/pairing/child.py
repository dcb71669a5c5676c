"""The pairing engine as a child process (``python -m core.pairing.child``), for
:mod:`core.pairing.isolated`.

Reads one JSON order on standard input (``trf``: the engine's TRF-16 text, ``round``,
``memory``: the most bytes of address space it may use, ``cpu``: the most CPU seconds,
``parent``: the process that waits for it), limits its own address space (``RLIMIT_AS``)
and CPU time (``RLIMIT_CPU``), asks the engine, and writes
one JSON answer on standard output: ``{"pairs": [[white, black], …], "cpu", "peak"}`` in
pairing numbers (with the engine's CPU seconds and peak resident memory in KiB), or
``{"problem": {"message", "code", "round"}}``. On Linux it also asks to be killed when its
parent dies, so an engine is never left running for nobody.

The cyclic garbage collector is off in the child: the engine builds hundreds of thousands
of small dicts (one per pair of players) that hold no cycles, and collecting them over and
over took a fifth of a 1,000-player round's CPU; the process is gone, with all its memory,
once it answers (its peak memory is the same either way, and RLIMIT_AS bounds it).
"""

from __future__ import annotations

import gc
import json
import os
import resource
import signal
import sys
from typing import Any

from core.pairing.engine import pair_trf
from core.problems import HarknessError

__all__ = ["main"]

_PR_SET_PDEATHSIG = 1  # prctl(2)


def _die_with_parent(parent: int) -> None:
    """Be killed when the parent dies (Linux's PR_SET_PDEATHSIG), and leave now if it is
    already gone."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl: the parent's kill still works
            pass
    if parent and os.getppid() != parent:
        sys.exit(1)


def answer(order: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer to one order, as the parent reads it."""
    round = int(order["round"])
    try:
        pairs = pair_trf(str(order["trf"]), round)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # CPU seconds and peak resident memory (Linux: KiB) of the engine, for benchmarks.
        return {"pairs": pairs, "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss}
    except HarknessError as error:
        first = error.problems[0]
        return {"problem": {"message": first.message, "code": first.code, "round": first.round}}
    except MemoryError:
        return {"problem": {"message": "", "code": "pairing-out-of-memory", "round": round}}


def main() -> None:
    order = json.loads(sys.stdin.buffer.read())
    _die_with_parent(int(order.get("parent") or 0))
    memory = int(order.get("memory") or 0)
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(order.get("cpu") or 0)
    if cpu:  # past the soft limit the kernel sends SIGXCPU, which ends the process
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    gc.disable()
    result = answer(order)
    sys.stdout.write(json.dumps(result))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

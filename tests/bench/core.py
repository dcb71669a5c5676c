"""Speed of the core engine (run by hand: ``python tests/bench/core.py``; not a test).

Generates Swiss sections of 500 × 9 and 5,000 × 11 (with byes, forfeits and withdrawals) and
prints, for each: the time to compute the four default US Chess tiebreaks and the standings
in-process (best of several runs), and the whole ``harkness standings`` command as a fresh
process (reading the file, computing, printing) for each output format.

Goal (issue 2): 5,000 × 11 in under 0.1 s in-process, the whole command under 0.25 s.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.formats.crosstable import write_crosstable  # noqa: E402
from core.standings import compute_standings  # noqa: E402
from tests.generate import random_swiss  # noqa: E402

SIZES = ((500, 9), (5000, 11))


def best_of(runs: int, action: object) -> tuple[float, float]:
    """Best and median wall time of ``runs`` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    print(f"python {sys.version.split()[0]}; best / median of repeated runs")
    for players, rounds in SIZES:
        tournament = random_swiss(players, rounds, seed=11)
        best, median = best_of(15, lambda t=tournament: compute_standings(t, "uscf"))
        print(
            f"{players:>5} × {rounds:<2} MM, SOLK, CUM, OCUM + standings in-process: "
            f"{best * 1000:7.1f} ms / {median * 1000:7.1f} ms"
        )
        best, median = best_of(5, lambda t=tournament: compute_standings(t, "mca"))
        print(
            f"{players:>5} × {rounds:<2} mca (8 tiebreaks incl. H2H) in-process:      "
            f"{best * 1000:7.1f} ms / {median * 1000:7.1f} ms"
        )
        with tempfile.TemporaryDirectory() as folder:
            paths = {"crosstable": Path(folder) / "section.txt"}
            paths["crosstable"].write_text(write_crosstable(tournament))
            try:
                from core.formats.trf import write_trf

                paths["trf"] = Path(folder) / "section.trf"
                paths["trf"].write_text(write_trf(tournament))
            except ImportError:
                pass
            for kind, path in paths.items():
                for fmt in ("json", "csv", "table"):
                    command = [
                        sys.executable,
                        "-m",
                        "core",
                        "standings",
                        str(path),
                        "--format",
                        fmt,
                    ]
                    best, median = best_of(
                        5,
                        lambda c=command: subprocess.run(
                            c, check=True, stdout=subprocess.DEVNULL, cwd=ROOT
                        ),
                    )
                    print(
                        f"{players:>5} × {rounds:<2} harkness standings {kind:<10} "
                        f"--format {fmt:<5}: {best * 1000:7.1f} ms / {median * 1000:7.1f} ms"
                    )
    interpreter, _ = best_of(5, lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))
    print(f"(a bare python start-up here: {interpreter * 1000:.1f} ms)")


if __name__ == "__main__":
    main()

"""Speed and size of the core engine, each figure printed next to its goal (run by hand:
``python tests/bench/core.py [--quick]``; not a test).

Generates Swiss sections of 500 × 9 and 5,000 × 11 (byes, forfeits, withdrawals), writes
them as TRF-16 and measures:

- in-process, 5,000 × 11: reading the file, the four default US Chess tiebreaks (MM, SOLK,
  CUM, OCUM) + standings, the FIDE default profile, JSON and CSV;
- the whole ``harkness standings`` command as a fresh process (start-up, reading, computing,
  printing), json and csv, and the same figure for ``tests/bench/reference.py``, a
  straightforward parse-and-compute script (its runs taken in turn with the command's, so
  that the ratio compares the two under the same load);
- the command's peak memory (maximum resident set) and what its start-up imports.

Figures are CPU time (user + system) of the best of several runs, so that a machine shared
with other work still gives comparable figures (quote final figures from a quiet moment);
the wall time of the same best run is shown beside. Child processes run with bytecode
caches (in a temporary ``PYTHONPYCACHEPREFIX``), as an installed package has them.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.formats import read_tournament  # noqa: E402
from core.formats.trf import write_trf  # noqa: E402
from core.profiles import resolve_for  # noqa: E402
from core.render import render  # noqa: E402
from core.standings import compute_standings  # noqa: E402
from tests.generate import random_swiss  # noqa: E402

#: Modules the ``standings`` command must not import (pictures, rich tables, explanations,
#: the crosstable reader for a TRF file, package metadata for ``--version``, pairing).
NOT_NEEDED = (
    "rich",
    "PIL",
    "core.pictures",
    "core.explain",
    "core.formats.crosstable",
    "core.pairing",
    "importlib.metadata",
    "hashlib",
    "tempfile",
)


def cpu_best(runs: int, action: Callable[[], object]) -> tuple[float, float]:
    """Best in-process CPU time of ``runs`` calls (seconds), and that run's wall time."""
    best = (float("inf"), 0.0)
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        action()
        best = min(best, (time.process_time() - cpu, time.perf_counter() - wall))
    return best


def child_best(runs: int, command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Best CPU time (user + system) of a fresh process over ``runs`` runs, its wall time,
    and the largest peak resident set seen (KiB)."""
    best = (float("inf"), 0.0)
    peak = 0
    for _ in range(runs):
        pid_wall = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - pid_wall
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode})")
        best = min(best, (usage.ru_utime + usage.ru_stime, wall))
        peak = max(peak, usage.ru_maxrss)
    return best[0], best[1], peak


def interleaved_best(
    runs: int, commands: list[list[str]], env: dict[str, str]
) -> list[tuple[float, float, int]]:
    """:func:`child_best` of each command, their runs taken in turn (one of each, ``runs``
    times), so that figures compared with each other see the same machine."""
    results: list[list[tuple[float, float, int]]] = [[] for _ in commands]
    for _ in range(runs):
        for found, command in zip(results, commands, strict=True):
            found.append(child_best(1, command, env))
    return [(min(found)[0], min(found)[1], max(r[2] for r in found)) for found in results]


def line(what: str, figure: str, goal: str, ok: bool) -> None:
    print(f"  {what:<64} {figure:>19}   goal {goal:<11} {'ok' if ok else 'MISSED'}")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    quick = "--quick" in sys.argv
    runs = 3 if quick else 9
    gc.disable()  # as the command runs (core.cli.main): no cyclic garbage is made
    print(f"python {sys.version.split()[0]}; CPU time, best of {runs} (wall time of that run)")
    with tempfile.TemporaryDirectory() as folder:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        paths = {}
        for players, rounds in ((500, 9), (5000, 11)):
            path = Path(folder) / f"swiss-{players}x{rounds}.trf"
            path.write_text(write_trf(random_swiss(players, rounds, seed=11)))
            paths[players] = path
        big = str(paths[5000])

        print("5,000 × 11 in-process")
        read, _ = cpu_best(runs, lambda: read_tournament(big))
        tournament = read_tournament(big)
        line("read and check the TRF-16 file", ms(read), "(reported)", True)
        us, _ = cpu_best(runs, lambda: compute_standings(tournament, "uscf"))
        line("MM, SOLK, CUM, OCUM + standings", ms(us), "≤ 50 ms", us <= 0.050)
        fide_profile = resolve_for(tournament.start_date, "fide")
        fide, _ = cpu_best(max(3, runs // 3), lambda: compute_standings(tournament, fide_profile))
        line(
            f"FIDE default profile ({fide_profile.name}): × US",
            f"{fide / us:.2f} × ({ms(fide)})",
            "≤ 2 ×",
            fide <= 2 * us,
        )
        standings = compute_standings(tournament, "uscf")
        for fmt in ("json", "csv"):
            took, _ = cpu_best(runs, lambda f=fmt: render(standings, f))
            line(f"--format {fmt} text", ms(took), "(reported)", True)

        print("whole command, a fresh process (start-up, read, compute, print)")
        python = sys.executable
        child_best(1, [python, "-c", "import core.cli"], env)  # fills the bytecode cache
        bare, _, _ = child_best(runs, [python, "-c", "pass"], env)
        start, _, _ = child_best(runs, [python, "-c", "import core.cli"], env)
        line("python start-up alone (for scale)", ms(bare), "(reported)", True)
        line("start-up: python + import core.cli", ms(start), "(reported)", True)
        peak = 0
        figures: dict[tuple[int, str], float] = {}
        references: dict[str, float] = {}
        for players, path in paths.items():
            for fmt in ("json", "csv"):
                command = [python, "-m", "core", "standings", str(path), "--format", fmt]
                if players == 5000:  # with the reference script's runs in between
                    reference = [python, str(ROOT / "tests/bench/reference.py"), big, fmt]
                    found = interleaved_best(runs, [command, reference], env)
                    (cpu, wall, rss), references[fmt] = found[0], found[1][0]
                    peak = max(peak, rss)
                else:
                    cpu, wall, rss = child_best(runs, command, env)
                figures[players, fmt] = cpu
                goal = 0.150 if players == 5000 else 0.080
                line(
                    f"{players:,} × {paths[players].stem.split('x')[1]} harkness standings "
                    f"--format {fmt} (wall {ms(wall)})",
                    ms(cpu),
                    f"≤ {goal * 1000:.0f} ms",
                    cpu <= goal,
                )
        for fmt in ("json", "csv"):
            cpu = references[fmt]
            ratio = figures[5000, fmt] / cpu
            line(
                f"reference script {fmt} ({ms(cpu)}): harkness ÷ reference",
                f"{ratio:.2f} ×",
                "≤ 0.5 ×",
                ratio <= 0.5,
            )
        line(
            "peak memory, 5,000 × 11 command",
            f"{peak / 1024:.1f} MiB",
            "≤ 60 MiB",
            peak <= 60 * 1024,
        )
        probe = (
            "import sys; from core.cli import main; main(sys.argv[1:]); "
            f"print(*[m for m in {NOT_NEEDED!r} if m in sys.modules], file=sys.stderr)"
        )
        imported = subprocess.run(
            [python, "-c", probe, "standings", str(paths[500]), "--format", "json"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=ROOT,
        ).stderr.split()
        line(
            "start-up imports none of " + ", ".join(NOT_NEEDED[:3]) + ", …",
            ", ".join(imported) or "none imported",
            "none",
            not imported,
        )


if __name__ == "__main__":
    main()

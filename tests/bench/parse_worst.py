"""Worst-case inputs for the readers, scaled from 10 KB to 5 MB (run by hand:
``python tests/bench/parse_worst.py``; not a test).

Each shape is one that once made ``harkness`` crash, hang or run out of memory; each is now
answered (a result or located errors) in time and memory linear in its size. For each shape
and size it prints the wall time of ``harkness standings`` run in-process (reading, checking
the limits, parsing, ranking, printing) and the peak memory Python allocated meanwhile
(tracemalloc, in a second run). Linear growth: 10× the input, about 10× the time and memory
(or less, where a limit stops the work early).
"""

from __future__ import annotations

import contextlib
import gc
import io
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.cli import main  # noqa: E402
from core.examples import example_path  # noqa: E402
from core.formats.crosstable import write_crosstable  # noqa: E402
from core.formats.trf import write_trf  # noqa: E402
from tests.generate import random_swiss  # noqa: E402

SIZES = (10_000, 100_000, 1_000_000, 5_000_000)
TRF_PLAYER = "001 {id:>4}      {name:<33}                                  0.0 {id:>4}"


def repeat(line: str, size: int, head: str = "") -> str:
    return head + line * max((size - len(head)) // len(line), 1)


def superscripts(size: int) -> str:
    return repeat("1²  Ann  W2 (w)  ²  \n", size, "#  Name  Rd 1  Rating\n")


def long_numbers(size: int) -> str:
    return repeat(f"{'1' * 4400}  Ann  W{'2' * 4400}\n", size, "#  Name  Rd 1\n")


def long_csv_field(size: int) -> str:
    return '#,Name,Rd 1\n1,"' + "a" * size + '",B\n'


def blank_heading(size: int) -> str:
    return "#,Name,Rd" + " " * size + "x\n1,Ann,B\n"


def cells_to_join(size: int) -> str:
    return "#  Name  Rd 1\n1  Ann   " + "W2  " * (size // 4) + "\n"


def many_rounds(size: int) -> str:
    """998 round headings, then rows of a number and a name (998 absent rounds each): the
    players × rounds limit stops it at 1,002 rows, before any row is read."""
    header = "#  Name  " + "  ".join(f"Rd {r}" for r in range(1, 999)) + "\n"
    rows = max((size - len(header)) // 10, 1)
    return header + "".join(f"{i:<4}  A\n" for i in range(1, rows + 1))


def xxr_999(size: int) -> str:
    """Player lines (at most 9,999) up to the size, then other records (kept, unread)."""
    players = min(size // 90, 9999)
    text = "XXR 999\n" + "".join(
        TRF_PLAYER.format(id=i, name=f"Player {i}") + "\n" for i in range(1, players + 1)
    )
    return text + repeat("102 Arbiter\n", size - len(text))


def valid_swiss(size: int, write: Callable[..., str]) -> str:
    """A valid Swiss of about ``size`` characters: 11 rounds, or 40 once 9,999 players of 11
    rounds are not enough to fill it."""
    rounds = 11 if size <= 1_500_000 else 40
    per_player = 90 + 10 * rounds if write is write_trf else 15 + 8 * rounds
    section = random_swiss(max(min(size // per_player, 9999), 4), rounds, seed=5)
    return write(section) if write is write_trf else write(section, None, ",")


SHAPES: dict[str, tuple[str, Callable[[int], str]]] = {
    "superscript digits in # and Rating": ("txt", superscripts),
    "numbers of 4,400 digits": ("txt", long_numbers),
    "a CSV field of the whole size": ("csv", long_csv_field),
    "a CSV round heading of blanks": ("csv", blank_heading),
    "aligned cells under one heading": ("txt", cells_to_join),
    "998 rounds, an 8-character row each": ("txt", many_rounds),
    "XXR 999, players up to the size": ("trf", xxr_999),
    "valid Swiss, TRF-16": ("trf", lambda size: valid_swiss(size, write_trf)),
    "valid Swiss, CSV": ("csv", lambda size: valid_swiss(size, write_crosstable)),
    "valid Swiss, CSV in UTF-16": ("csv", lambda size: valid_swiss(size // 2, write_crosstable)),
}


def run(path: Path) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["standings", str(path)])


def measure(path: Path) -> tuple[int, float, float]:
    """Exit status, seconds, peak MB allocated."""
    gc.collect()
    start = time.perf_counter()
    status = run(path)
    seconds = time.perf_counter() - start
    gc.enable()
    gc.collect()
    tracemalloc.start()
    run(path)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    gc.enable()
    return status, seconds, peak


def main_bench() -> None:
    print(f"python {sys.version.split()[0]}; harkness standings in-process")
    print(f"{'shape':<36} {'size':>9} {'exit':>4} {'time s':>8} {'peak MB':>8}")
    run(Path(example_path("club-swiss.trf")))  # imports done before the first timing
    with tempfile.TemporaryDirectory() as folder:
        for label, (suffix, build) in SHAPES.items():
            for size in SIZES:
                text = build(size)
                path = Path(folder) / f"input.{suffix}"
                encoding = "utf-16" if "UTF-16" in label else "utf-8"
                path.write_bytes(text.encode(encoding))
                status, seconds, peak = measure(path)
                print(
                    f"{label:<36} {path.stat().st_size:>9,} {status:>4} "
                    f"{seconds:>8.3f} {peak:>8.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main_bench()

"""Speed and size of the pictures (run by hand: ``python tests/bench/pictures.py``; not a test).

Draws, from a 500 × 9 Swiss section: a standings page as the bot sends it (15 rows, the
narrow phone layout, dark) and as the CLI writes it (50 rows, light); the "why" picture of a
player in the largest score group; and the crosstable picture of a 60 × 12 section. Prints
the best and median time of repeated runs and the PNG's size.

Goal: a 500-player standings page in at most 150 ms and 500 KB.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.explain import explain  # noqa: E402
from core.pictures import Picture  # noqa: E402
from core.pictures.crosstable import crosstable_picture  # noqa: E402
from core.pictures.standings import StandingsPage, standings_picture  # noqa: E402
from core.pictures.why import why_picture  # noqa: E402
from core.standings import compute_standings  # noqa: E402
from tests.generate import random_swiss  # noqa: E402

GOAL_MS = 150
GOAL_BYTES = 500_000


def measure(label: str, runs: int, draw: object) -> None:
    times = []
    picture: Picture | None = None
    for _ in range(runs):
        start = time.perf_counter()
        picture = draw()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    assert picture is not None
    best, median = min(times) * 1000, statistics.median(times) * 1000
    print(
        f"{label:<44} {best:6.1f} ms / {median:6.1f} ms  {len(picture.data) / 1000:6.1f} KB  "
        f"{picture.width}×{picture.height}"
    )


def main() -> None:
    print(f"python {sys.version.split()[0]}; best / median of repeated runs; PNG size")
    big = compute_standings(random_swiss(500, 9, seed=11), "uscf")
    standings_picture(StandingsPage(big, 0, 15))  # loads the fonts once
    for first in (0, 240, 485):
        page = StandingsPage(big, first, 15)
        measure(
            f"500 × 9 standings page, rows {first + 1}–{first + 15}, narrow dark",
            15,
            lambda page=page: standings_picture(page, "dark", narrow=True),
        )
    measure(
        "500 × 9 standings, CLI page of 50 rows",
        7,
        lambda: standings_picture(StandingsPage(big, 0, 50)),
    )
    score, _ = Counter(row.half_points for row in big.rows).most_common(1)[0]
    player = next(row.player.id for row in big.rows if row.half_points == score)
    measure(
        "500 × 9 why picture, largest score group",
        15,
        lambda: why_picture(big, explain(big, player), "dark"),
    )
    section = compute_standings(random_swiss(60, 12, seed=3), "uscf")
    measure("60 × 12 crosstable picture", 7, lambda: crosstable_picture(section, "dark"))
    print(f"goal: a 500-player standings page ≤ {GOAL_MS} ms and ≤ {GOAL_BYTES // 1000} KB")


if __name__ == "__main__":
    main()

"""Speed of the awards (run by hand: ``python tests/bench/awards.py``; not a test).

A 5,000 × 9 Swiss section with a national open's prize list: 20 place prizes, ten classes
of three prizes each and under prizes (50 cash prizes in all, most of them trophies too), a
category, additive specials and 40 teams; then the same list under each method. Prints the
best and median time of repeated runs of ``compute_awards`` (the standings are computed
once, outside the timing).

Goal: the award list of a 5,000-player section in at most 1 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.awards import Kind, Method, Prize, PrizeList, compute_awards  # noqa: E402
from core.standings import compute_standings  # noqa: E402
from tests.generate import random_swiss  # noqa: E402

GOAL_S = 1.0


def prize_list(players: int, method: Method) -> PrizeList:
    prizes = [
        Prize(f"{n}", Kind.PLACE, Fraction(5000 // n), trophy=True, place=n, order=n)
        for n in range(1, 21)
    ]
    for low in range(1000, 2400, 140):
        for rank in (1, 2, 3):
            prizes.append(
                Prize(
                    f"class {low} #{rank}",
                    Kind.CLASS,
                    Fraction(400 // rank),
                    trophy=rank == 1,
                    low=low,
                    high=low + 139,
                    rank=rank,
                    order=len(prizes),
                )
            )
    for rank in (1, 2):
        prizes.append(
            Prize(
                f"U1500 #{rank}", Kind.UNDER, Fraction(300), high=1500, rank=rank, order=len(prizes)
            )
        )
    prizes.append(Prize("Unrated", Kind.UNRATED, Fraction(200), True, order=len(prizes)))
    prizes.append(
        Prize("Junior", Kind.CATEGORY, Fraction(250), True, category="junior", order=len(prizes))
    )
    prizes.append(
        Prize(
            "Senior special",
            Kind.CATEGORY,
            Fraction(100),
            category="senior",
            additive=True,
            order=len(prizes),
        )
    )
    prizes.append(
        Prize("1st team", Kind.PLACE, Fraction(1000), True, place=1, team=True, order=len(prizes))
    )
    teams = {f"Club {t}": tuple(range(t + 1, players + 1, 40)) for t in range(40)}
    return PrizeList(
        tuple(prizes),
        method,
        "$",
        {"junior": tuple(range(3, players, 7)), "senior": tuple(range(5, players, 11))},
        {9: Fraction(100), 17: Fraction(0)},
        teams,
    )


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    standings = compute_standings(random_swiss(players, 9, seed=7), "uscf")
    for method in Method:
        prizes = prize_list(players, method)
        times = []
        for _ in range(5):
            start = time.perf_counter()
            awards = compute_awards(standings, prizes)
            times.append(time.perf_counter() - start)
        paid = sum((row.paid for row in awards.rows), Fraction(0))
        print(
            f"{method.value:>14}: best {min(times):.3f} s, median {statistics.median(times):.3f}"
            f" s ({players} players, {len(prizes.prizes)} prizes, ${float(paid):,.2f} paid)"
        )
    print(f"goal: at most {GOAL_S} s")


if __name__ == "__main__":
    main()

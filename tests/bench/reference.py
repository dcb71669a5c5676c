"""A straightforward parse-and-compute script: the yardstick ``harkness standings`` is timed
against (run by ``python tests/bench/core.py``; usable alone: ``python
tests/bench/reference.py FILE.trf [json|csv]``).

It is what a capable programmer writes in an afternoon without thinking about speed: read a
TRF-16 file line by line into a dict per player, compute the four default US Chess
tiebreaks (Rule 34E1 Modified Median, 34E2 Solkoff, 34E3 Cumulative, 34E Opponents'
Cumulative, on adjusted scores: an unplayed round counts ½) and print the standings as JSON
or CSV. It checks nothing and explains nothing; the product validates every entry, keeps
exact values with their parts, and locates every problem, so being at most half this
script's time is the goal.
"""

from __future__ import annotations

import csv
import io
import json
import sys

PLAYED = {"1": 2, "=": 1, "0": 0, "W": 2, "D": 1, "L": 0}
UNPLAYED = {"+": 2, "-": 0, "F": 2, "U": 2, "H": 1, "Z": 0, " ": 0}


def read(path: str) -> tuple[dict[int, dict[str, object]], int]:
    players: dict[int, dict[str, object]] = {}
    rounds = 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.startswith("XXR"):
                rounds = int(line[4:])
            if not line.startswith("001"):
                continue
            games = []
            for start in range(91, len(line), 10):
                block = line[start : start + 8].ljust(8)
                opponent = int(block[:4]) if block[:4].strip() else 0
                games.append((opponent, block[7]))
            players[int(line[4:8])] = {"name": line[14:47].strip(), "games": games}
            rounds = max(rounds, len(games))
    return players, rounds


def standings(players: dict[int, dict[str, object]], rounds: int) -> list[dict[str, object]]:
    score: dict[int, int] = {}
    adjusted: dict[int, int] = {}
    cumulative: dict[int, int] = {}
    for pid, p in players.items():
        games = p["games"]
        assert isinstance(games, list)
        games = games + [(0, " ")] * (rounds - len(games))
        p["games"] = games
        running = total = in_play = unplayed = subtract = 0
        for _opponent, result in games:
            points = PLAYED[result] if result in PLAYED else UNPLAYED[result]
            running += points
            total += running
            if result in PLAYED:
                in_play += points
            else:
                unplayed += 1
                if result in "+FU":
                    subtract += 2
        score[pid] = running
        adjusted[pid] = in_play + unplayed
        cumulative[pid] = total - subtract
    rows = []
    for pid, p in players.items():
        games = p["games"]
        assert isinstance(games, list)
        opponents = [adjusted[o] if r in PLAYED else 0 for o, r in games]
        ordered = sorted(opponents)
        cut = 2 if rounds >= 9 else 1
        if score[pid] > rounds:
            kept = ordered[cut:]
        elif score[pid] == rounds:
            kept = ordered[cut:-cut]
        else:
            kept = ordered[:-cut]
        ocum = sum(cumulative[o] for o, r in games if r in PLAYED)
        rows.append(
            {
                "id": pid,
                "name": p["name"],
                "score": score[pid] / 2,
                "tiebreaks": {
                    "MM": sum(kept) / 2,
                    "SOLK": sum(opponents) / 2,
                    "CUM": cumulative[pid] / 2,
                    "OCUM": ocum / 2,
                },
            }
        )
    rows.sort(key=lambda r: (-r["score"], *(-v for v in r["tiebreaks"].values()), r["id"]))  # type: ignore[attr-defined]
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


def main() -> None:
    players, rounds = read(sys.argv[1])
    rows = standings(players, rounds)
    if len(sys.argv) > 2 and sys.argv[2] == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["Rank", "#", "Name", "Score", "MM", "SOLK", "CUM", "OCUM"])
        for row in rows:
            tb = row["tiebreaks"]
            assert isinstance(tb, dict)
            writer.writerow([row["rank"], row["id"], row["name"], row["score"], *tb.values()])
        sys.stdout.write(out.getvalue())
    else:
        sys.stdout.write(json.dumps({"rounds": rounds, "standings": rows}) + "\n")


if __name__ == "__main__":
    main()

"""Speed of the bot's answers for a large event (run by hand: ``python tests/bench/bot.py
[PLAYERS]``; not a test).

The real bot (``bot.app.create_bot``, discord.py) runs against the loopback Discord fake
with a SQLite store; a TD imports a generated Swiss of 1,000 players × 9 rounds. Then
``/standings`` and ``/why`` (the player in 500th place) are asked repeatedly, and each
figure is the time from the interaction reaching the bot to its answer reaching the fake
(wall time on a machine that may be busy: quote figures from a quiet moment). The first
``/standings`` computes the standings (the store's cache is cold); the others find them kept.

Goal: ``/standings`` and ``/why`` for a 1,000-player event in ≤ 0.3 s, cache warm.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bot.support import Club, imported_swiss  # noqa: E402
from tests.fakes.discord_api import DiscordFake  # noqa: E402
from tests.fakes.discord_fixtures import BotRunner  # noqa: E402

RUNS = 9
GOAL = 0.300


async def timed(club: Club, who: str, command: str, options: dict[str, object]) -> float:
    """Seconds from the interaction's arrival to the bot's finished answer."""
    start = time.perf_counter()
    await club.ok(who, command, options)
    return time.perf_counter() - start


async def main(players: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordFake() as fake:
            os.environ.update(fake.env)
            os.environ["HARKNESS_DATABASE_URL"] = f"sqlite:///{Path(folder) / 'club.db'}"
            runner = BotRunner(fake)
            try:
                club = Club(fake, runner)
                async with club.running():
                    swiss = await imported_swiss(club, players, 9, name="Big Swiss")
                    print(f"{players} players × 9 rounds imported; {RUNS} runs each")
                    first = await timed(club, "td", "standings", {})
                    print(f"  /standings, cache cold (computed): {first * 1000:7.1f} ms")
                    middle = swiss.players[len(swiss.players) // 2].id
                    for label, command, options in (
                        ("/standings", "standings", {}),
                        ("/why", "why", {"player": f"#{middle}"}),
                    ):
                        times = [await timed(club, "td", command, options) for _ in range(RUNS)]
                        best, median = min(times), statistics.median(times)
                        verdict = "ok" if median <= GOAL else "MISSED"
                        print(
                            f"  {label:<11} cache warm: best {best * 1000:7.1f} ms, median "
                            f"{median * 1000:7.1f} ms   goal ≤ {GOAL * 1000:.0f} ms {verdict}"
                        )
            finally:
                await runner.stop_all()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))

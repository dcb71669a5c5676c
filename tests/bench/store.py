"""Speed of the store's fold (run by hand: ``python tests/bench/store.py``; not a test).

Builds the results log of a 500-player, 9-round Swiss (from ``tests.generate``) as members
and TDs would write it: each game reported, then confirmed or reported back by the opponent,
some first reports corrected, some disputed and settled by a TD, byes and withdrawals by
the TD, then TD corrections (a result set again, a slip set and undone) to exactly 10,000
events. In-process figures are CPU time (the machine may be busy with other work); the
Store figures are wall time (they include the database). Prints, best and median of several
runs:

- the fold alone (log → core tournament, provisional and disputed marks),
- the fold and the standings (``core.standings.compute_standings``, US Chess order),
- ``Store.standings`` end to end on a SQLite file (reading the 10,000 rows as well), and on
  PostgreSQL when ``HARKNESS_TEST_POSTGRES_URL`` (or ``--postgres URL``) names a server.

Goals: fold and standings ≤ 100 ms for 500 × 9 with 10,000 events; ``Store.standings``
of the same ≤ 50 ms when nothing changed since it last answered (kept per last event).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

from bot.store import Actor, Store, TournamentStatus, schema  # noqa: E402
from bot.store.fold import fold  # noqa: E402
from bot.store.model import Event, EventKind, PlayerInfo, TournamentInfo  # noqa: E402
from core.model import BYES, WITH_OPPONENT, EntryKind, Tournament  # noqa: E402
from core.standings import compute_standings  # noqa: E402
from tests.generate import random_swiss  # noqa: E402

PLAYERS, ROUNDS, EVENTS = 500, 9, 10_000
AT = datetime(2026, 3, 14, tzinfo=UTC)
WRONG = {
    EntryKind.WIN: EntryKind.DRAW,
    EntryKind.DRAW: EntryKind.LOSS,
    EntryKind.LOSS: EntryKind.DRAW,
    EntryKind.FORFEIT_WIN: EntryKind.WIN,
    EntryKind.FORFEIT_LOSS: EntryKind.LOSS,
}


def build_log(t: Tournament, size: int, seed: int = 1) -> list[Event]:
    """A log of exactly ``size`` events whose fold is ``t`` (player ids = numbers)."""
    rng = random.Random(seed)
    log: list[Event] = []

    def add(kind: EventKind, **fields: Any) -> Event:
        event = Event(len(log) + 1, kind, "bench", AT, **fields)
        log.append(event)
        return event

    for r in range(1, t.rounds + 1):
        for p in t.players:
            e = p.entries[r - 1]
            if e.kind in WITH_OPPONENT and e.opponent is not None and p.id < e.opponent:
                game = {"round": r, "player": p.id, "opponent": e.opponent, "colour": e.colour}
                luck = rng.random()
                if luck < 0.05:  # disputed, then set by a TD
                    first = add(EventKind.REPORT, result=WRONG[e.kind], **game)
                    add(EventKind.DISPUTE, round=r, refers_to=first.seq)
                    add(EventKind.SET, result=e.kind, **game)
                    continue
                if luck < 0.15:  # a first report corrected by the reporter
                    add(EventKind.REPORT, result=WRONG[e.kind], **game)
                report = add(EventKind.REPORT, result=e.kind, **game)
                if luck < 0.45:  # the opponent reports the same
                    add(
                        EventKind.REPORT,
                        round=r,
                        player=e.opponent,
                        opponent=p.id,
                        result=t.player(e.opponent).entries[r - 1].kind,
                        colour=e.colour.opposite if e.colour else None,
                    )
                else:
                    add(EventKind.CONFIRM, round=r, refers_to=report.seq)
            elif e.kind in BYES:
                add(EventKind.BYE, round=r, player=p.id, result=e.kind)
    for p in t.players:
        if p.withdrawn_after is not None:
            add(EventKind.WITHDRAW, round=p.withdrawn_after + 1, player=p.id)
    games = [
        (r, p.id, e)
        for r in range(1, t.rounds + 1)
        for p in t.players
        if (e := p.entries[r - 1]).kind in WITH_OPPONENT
        and e.opponent is not None
        and p.id < e.opponent
    ]
    while len(log) + 3 <= size:  # TD corrections, none of which changes the result:
        r, player, e = rng.choice(games)
        game = {"round": r, "player": player, "opponent": e.opponent, "colour": e.colour}
        add(EventKind.SET, result=e.kind, **game)  # the right result set again
        wrong = add(EventKind.SET, result=WRONG[e.kind], **game)  # a slip…
        add(EventKind.REVERT, refers_to=wrong.seq)  # …undone
    while len(log) < size:
        add(EventKind.CONFIRM, round=1, refers_to=1)  # late clicks on a replaced report
    assert len(log) == size or not size, f"the log has {len(log)} events before padding"
    return log


def best_of(runs: int, action: Callable[[], object]) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return min(times), statistics.median(times)


async def best_of_async(runs: int, action: Callable[[], Any]) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await action()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


async def through_store(
    url: str, t: Tournament, log: list[Event], runs: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """``Store.standings`` on a tournament whose log is ``log``: computed (the log read and
    folded), and kept (nothing changed since the last answer)."""
    store = await Store.open(url)
    td = Actor("td", "Bench TD", td=True)
    try:
        name = f"Bench {time.time_ns()}"
        await store.create_tournament("bench", name, rounds=t.rounds, actor=td)
        info = await store.tournament("bench", name)
        async with store.engine.begin() as conn:
            ids = {}
            for p in t.players:
                row = await conn.execute(
                    insert(schema.players)
                    .values(
                        guild_id="bench",
                        tournament_id=info.id,
                        number=p.id,
                        name=p.name,
                        rating=p.rating,
                        title="",
                        sex="",
                        federation="",
                        birth_date="",
                        added_by="td",
                        added_at=AT,
                    )
                    .returning(schema.players.c.id)
                )
                ids[p.id] = row.scalar_one()
            await conn.execute(
                insert(schema.events),
                [
                    {
                        "guild_id": "bench",
                        "tournament_id": info.id,
                        "seq": e.seq,
                        "kind": e.kind.value,
                        "round": e.round,
                        "player_id": ids.get(e.player or 0),
                        "opponent_id": ids.get(e.opponent or 0),
                        "result": e.result.value if e.result else None,
                        "colour": e.colour.value if e.colour else None,
                        "refers_to": e.refers_to,
                        "supersedes": None,
                        "actor": "bench",
                        "actor_name": "",
                        "td": True,
                        "source": "cli",
                        "note": "",
                        "created_at": AT,
                    }
                    for e in log
                ],
            )
        await store.set_status("bench", name, TournamentStatus.RUNNING, td)
        view = await store.standings("bench", name)
        assert view.state.tournament.players == t.players, "the store folded another event"

        async def computed() -> object:
            for key in store.kept.order():  # the standings, as after a new event (the fold
                if key[0] == "standings":  # is kept: a new event is added to it)
                    store.kept.forget(key)
            return await store.standings("bench", name)

        cold = await best_of_async(runs, computed)
        warm = await best_of_async(runs, lambda: store.standings("bench", name))
        return cold, warm
    finally:
        await store.close()


def sizes(players: int = 2000, rounds: int = 40) -> None:
    """What a kept fold and kept standings hold, measured (tracemalloc), beside the
    estimates the store's byte-bounded cache uses (``--sizes``)."""
    import tracemalloc

    from bot.store.live import ENTRY_BYTES, EVENT_BYTES, PLAYER_BYTES
    from bot.store.records import TournamentState
    from bot.store.store import CUT_ENTRY_BYTES, ROW_BYTES, standings_of

    t = random_swiss(players, rounds, seed=1)
    log = build_log(t, 0)
    roster = tuple(PlayerInfo(p.id, p.id, p.name, p.rating) for p in t.players)
    info = TournamentInfo(
        1, "bench", t.name, "uscf", None, rounds, TournamentStatus.RUNNING, "td", AT
    )

    def measured(make: Callable[[], object]) -> tuple[object, int]:
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        made = make()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return made, after - before

    from bot.store.fold import LiveFold

    live, fold_bytes = measured(lambda: LiveFold(log))
    assert isinstance(live, LiveFold)
    folded = live.folded(roster, info)
    _, tournament_bytes = measured(folded.complete)
    state = TournamentState.of(info, roster, folded)
    _, whole_bytes = measured(lambda: standings_of(state, None))
    _, cut_bytes = measured(lambda: standings_of(state, rounds // 2))
    entries = players * rounds
    print(f"{players} players × {rounds} rounds, {len(log):,} events: bytes measured (estimate)")
    print(f"  fold, an event:        {fold_bytes / len(log):7.0f}   ({EVENT_BYTES})")
    per_entry = tournament_bytes / entries
    print(f"  tournament, an entry:  {per_entry:7.0f}   ({ENTRY_BYTES}; {PLAYER_BYTES} a player)")
    print(f"  standings, a player:   {whole_bytes / players:7.0f}   ({ROW_BYTES})")
    cut = (cut_bytes - whole_bytes) / (players * (rounds // 2))
    print(f"  cut to a round, an entry: {cut:4.0f}   ({CUT_ENTRY_BYTES})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--postgres", default=os.environ.get("HARKNESS_TEST_POSTGRES_URL"))
    parser.add_argument("--sizes", action="store_true", help="measure what is kept, only")
    options = parser.parse_args()
    if options.sizes:
        sizes()
        return

    t = random_swiss(PLAYERS, ROUNDS, seed=1)
    log = build_log(t, EVENTS)
    roster = [PlayerInfo(p.id, p.id, p.name, p.rating) for p in t.players]
    info = TournamentInfo(
        1, "bench", t.name, "uscf", None, t.rounds, TournamentStatus.RUNNING, "td", AT
    )
    folded = fold(roster, log, info)
    assert folded.tournament.players == t.players, "the fold does not give the tournament back"
    kinds = {k.value: sum(e.kind is k for e in log) for k in EventKind}
    print(f"{PLAYERS} players × {ROUNDS} rounds, {len(log):,} events: {kinds}")

    def fold_and_standings() -> None:
        compute_standings(fold(roster, log, info).tournament, "uscf")

    rows = [
        ("fold (log → tournament)", best_of(options.runs, lambda: fold(roster, log, info))),
        ("standings alone (core)", best_of(options.runs, lambda: compute_standings(t, "uscf"))),
        ("fold + standings", best_of(options.runs, fold_and_standings)),
    ]
    goals: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        cold, warm = asyncio.run(through_store(url, t, log, options.runs))
        rows += [("Store.standings, SQLite (wall)", cold), ("… kept, SQLite (wall)", warm)]
        goals.append(("SQLite", warm[0]))
    if options.postgres:
        cold, warm = asyncio.run(through_store(options.postgres, t, log, options.runs))
        rows += [("Store.standings, PostgreSQL", cold), ("… kept, PostgreSQL (wall)", warm)]
        goals.append(("PostgreSQL", warm[0]))
    else:
        print("(PostgreSQL skipped: set HARKNESS_TEST_POSTGRES_URL or pass --postgres URL)")
    for label, (best, median) in rows:
        print(f"  {label:<34} best {best * 1000:7.1f} ms   median {median * 1000:7.1f} ms")
    fold_best = rows[2][1][0]
    verdict = "ok" if fold_best < 0.1 else "MISSED"
    print(f"goal: fold + standings ≤ 100 ms: {fold_best * 1000:.1f} ms {verdict}")
    for database, best in goals:
        verdict = "ok" if best <= 0.05 else "MISSED"
        print(
            f"goal: Store.standings, 500 × 9 with {EVENTS:,} events, kept until the next "
            f"event, {database}: {best * 1000:.1f} ms (≤ 50 ms) {verdict}"
        )


if __name__ == "__main__":
    main()

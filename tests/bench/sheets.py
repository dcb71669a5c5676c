"""Speed and size of a Sheets sync (run by hand: ``python tests/bench/sheets.py [SIZES]
[--same-process]``, SIZES a comma list of section sizes, default 300,2000,5000x11; not a
test).

A 300-player, 9-round Swiss (with byes, forfeits and withdrawals) is put in the loopback
Sheets fake, once as a crosstable and once as a game list with a players tab, and synced by
the real worker (real gspread and google-auth over HTTP on 127.0.0.1). For each layout it
prints the wall time of:

- the first sync (creates the settings, Standings, Breakdown and Errors tabs),
- a sync with nothing changed (one read, no write),
- a sync after the TD corrected one game (one read, one write),

with the API calls each made, the bytes of the read's answer and of the write's request
(Google recommends at most 2 MB a request), and the in-process time of the part between the
read and the write (reading the cells, ``core``, laying out the tabs).

Then, per section size (the size classes, ``PLAYERSxROUNDS``; 9 rounds when not given), in
a crosstable: the requests a sync makes and the size of each write, for

- the first sync (every tab written whole: each write at most 2 MB, Google's recommended
  payload; one write up to 300 players),
- a sync with nothing changed (one read, no write: the read's bytes and time),
- a sync after the TD corrected one game (its two cells: the smallest edit a crosstable
  takes), which writes only the cells that changed: goal at most 2 writes and 3 s.

Each line prints its figures next to its goal, and the worker's own CPU time. The fake runs
in a process of its own (:class:`FakeProcess`), as Google does: the worker's process holds
only what a worker holds, and its garbage collector does not walk the fake's cells too (with
the fake in the worker's process, that alone added seconds to a sync of 5,000 players). The
machine's load average is printed first: the fake and the worker share its cores, so on a
busy machine the wall time is the fake's and the other users' as much as the worker's.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.formats.crosstable import crosstable_rows  # noqa: E402
from core.model import Colour, EntryKind, Tournament  # noqa: E402
from sheets.client import open_client  # noqa: E402
from sheets.settings import SheetsSettings  # noqa: E402
from sheets.snapshot import READ_FIELDS, READ_PARAMS, parse_snapshot  # noqa: E402
from sheets.sync import decide, sync  # noqa: E402
from tests.fakes.sheets_api import ApiCall, Op, SheetsFake, generate_service_account  # noqa: E402
from tests.generate import random_swiss  # noqa: E402

PLAYERS, ROUNDS = 300, 9
_CELL_MASK = "values(formattedValue,userEnteredFormat,note)"
"""The cells' part of the read's field mask (:data:`sheets.snapshot.READ_FIELDS`)."""
RESULT = {
    EntryKind.WIN: "1-0",
    EntryKind.LOSS: "0-1",
    EntryKind.DRAW: "½-½",
    EntryKind.FORFEIT_WIN: "1F-0F",
    EntryKind.FORFEIT_LOSS: "0F-1F",
}
BYE = {
    EntryKind.FULL_BYE: "B",
    EntryKind.PAIRING_BYE: "B",
    EntryKind.HALF_BYE: "H",
    EntryKind.ZERO_BYE: "U",
}


def _serve_fake(connection: Connection, folder: str) -> None:
    """The child process of :class:`FakeProcess`: a fake, a service account registered with
    it, and the fake's methods called as the parent asks, until it sends None."""
    with SheetsFake() as fake:
        key = generate_service_account(fake, Path(folder))
        connection.send((fake.base_url, str(key.path), key.email))
        while (message := connection.recv()) is not None:
            name, args, kwargs = message
            connection.send(getattr(fake, name)(*args, **kwargs))


class FakeProcess:
    """The loopback Sheets fake in a process of its own, with the few of its methods the
    bench uses called over a pipe."""

    def __init__(self, folder: Path) -> None:
        self._connection, child = multiprocessing.Pipe()
        self._process = multiprocessing.get_context("spawn").Process(
            target=_serve_fake, args=(child, str(folder)), daemon=True
        )
        self._process.start()
        self.base_url, key_path, self.email = self._connection.recv()
        self.key_path = Path(key_path)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        self._connection.send((name, args, kwargs))
        return self._connection.recv()

    def create_spreadsheet(
        self, title: str, tabs: dict[str, list[list[Any]]] | None = None, **kwargs: Any
    ) -> str:
        return str(self._call("create_spreadsheet", title, tabs, **kwargs))

    def set_values(self, sheet_id: str, a1: str, rows: list[list[Any]]) -> None:
        self._call("set_values", sheet_id, a1, rows)

    def calls(self, sheet_id: str) -> list[ApiCall]:
        return list(self._call("calls", sheet_id))

    def reset_calls(self) -> None:
        self._call("reset_calls")

    def __enter__(self) -> FakeProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the fake (its process ends)."""
        self._connection.send(None)
        self._process.join(timeout=30)
        if self._process.is_alive():
            self._process.terminate()


def game_list(t: Tournament) -> tuple[list[list[Any]], list[list[Any]]]:
    """The tournament as a game list (one row a game or bye) and its players tab."""
    players: list[list[Any]] = [["#", "Name", "Rating"]] + [
        [p.id, p.name, p.rating or ""] for p in t
    ]
    games: list[list[Any]] = [["Round", "White", "Black", "Result"]]
    for r in range(1, t.rounds + 1):
        for p in t:
            e = p.entries[r - 1]
            if e.kind in BYE:
                games.append([r, p.id, "", BYE[e.kind]])
            elif (
                e.kind in RESULT
                and e.opponent is not None
                and (e.colour is Colour.WHITE or (e.colour is None and p.id < e.opponent))
            ):
                games.append([r, p.id, e.opponent, RESULT[e.kind]])
    return games, players


def a_game(t: Tournament) -> tuple[int, int, int]:
    """(round, white's row, black's row) of a decisive game, to correct by hand."""
    for p in t:
        for r, e in enumerate(p.entries, start=1):
            if e.kind is EntryKind.WIN and e.colour is Colour.WHITE and e.opponent:
                return r, p.id, e.opponent
    raise LookupError("no decisive game")


def timed(action: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    value = action()
    return time.perf_counter() - start, value


def report(fake: FakeProcess, sheet_id: str, label: str, seconds: float) -> None:
    calls = fake.calls(sheet_id)
    kinds = ", ".join(f"{c.operation.removeprefix('spreadsheets.')}" for c in calls)
    written = sum(len(json.dumps(c.body)) for c in calls if c.operation == Op.BATCH_UPDATE)
    size = f", write request {written / 1e6:.2f} MB" if written else ""
    print(f"  {label:<34} {seconds * 1000:8.1f} ms   calls: {kinds}{size}")
    fake.reset_calls()


def bench(
    fake: FakeProcess, settings: SheetsSettings, email: str, layout: str, t: Tournament
) -> None:
    if layout == "crosstable":
        rows = crosstable_rows(t)
        tabs: dict[str, list[list[Any]]] = {"Results": rows}
        r, white, black = a_game(t)
        column = 2 + (1 if rows[0][2] == "Rating" else 0) + r - 1
        letter = chr(ord("A") + column)
        correction = [
            (f"Results!{letter}{white + 1}", f"L{black} (w)"),
            (f"Results!{letter}{black + 1}", f"W{white} (b)"),
        ]
    else:
        games, players = game_list(t)
        tabs = {"Results": games, "Players": players}
        correction = [(f"Results!D{len(games)}", "½-½")]
    sheet_id = fake.create_spreadsheet(f"{PLAYERS} x {ROUNDS}", tabs, shared_with=[email])
    cells = sum(len(row) for rows in tabs.values() for row in rows)
    print(f"{layout}: {PLAYERS} players × {ROUNDS} rounds, {cells} input cells")
    client = open_client(settings)
    client.http_client.fetch_sheet_metadata(sheet_id)  # the access token, fetched once
    fake.reset_calls()
    seconds, _ = timed(lambda: sync(client, sheet_id))
    report(fake, sheet_id, "first sync (creates the tabs)", seconds)
    seconds, _ = timed(lambda: sync(client, sheet_id))
    report(fake, sheet_id, "nothing changed", seconds)
    for a1, text in correction:
        fake.set_values(sheet_id, a1, [[text]])
    seconds, result = timed(lambda: sync(client, sheet_id))
    report(fake, sheet_id, "one game corrected", seconds)
    assert result.published and not result.problems, result.summary
    document = client.http_client.fetch_sheet_metadata(sheet_id, params=dict(READ_PARAMS))
    print(
        f"  the read's answer: {len(json.dumps(document)) / 1e6:.2f} MB "
        "(every tab: text, formats and notes)"
    )
    times = []
    for _ in range(5):
        # As if the input had changed: no stored hash, so everything is ranked and laid out.
        seconds, decision = timed(
            lambda: decide(replace(parse_snapshot(document), input_hash=None))
        )
        assert decision.plan is not None
        times.append(seconds)
    print(
        f"  between read and write, in-process: best {min(times) * 1000:.1f} ms, "
        f"median {statistics.median(times) * 1000:.1f} ms"
    )


def _corrected(t: Tournament, rows: list[list[Any]]) -> list[tuple[str, str]]:
    """The two cells of the crosstable that correct one decisive game (it becomes a loss)."""
    r, white, black = a_game(t)
    letter = chr(ord("A") + 2 + (1 if rows[0][2] == "Rating" else 0) + r - 1)
    return [
        (f"Results!{letter}{white + 1}", f"L{black} (w)"),
        (f"Results!{letter}{black + 1}", f"W{white} (b)"),
    ]


def size_classes(
    fake: FakeProcess, settings: SheetsSettings, email: str, sizes: list[tuple[int, int]]
) -> None:
    """For each section size (crosstable layout): the first sync (which writes every tab
    whole), a sync with nothing changed, and a sync after one game was corrected, with the
    size of each write and the read, next to their goals."""
    assert _CELL_MASK in READ_FIELDS
    client = open_client(settings)
    client.http_client.fetch_sheet_metadata(fake.create_spreadsheet("token", shared_with=[email]))
    print("requests per sync, by section size (crosstable):")
    for players, rounds in sizes:
        t = random_swiss(players, rounds, seed=7)
        rows = crosstable_rows(t)
        sheet_id = fake.create_spreadsheet(
            f"{players} x {rounds}", {"Results": rows}, shared_with=[email]
        )
        print(f"  {players} players × {rounds} rounds")
        for label in ("first sync", "nothing changed", "one game corrected"):
            if label == "one game corrected":
                for a1, text in _corrected(t, rows):
                    fake.set_values(sheet_id, a1, [[text]])
            fake.reset_calls()
            cpu = time.thread_time()
            seconds, result = timed(lambda s=sheet_id: sync(client, s))
            cpu = time.thread_time() - cpu
            assert result.problems == () and (result.published or not result.changed)
            calls = fake.calls(sheet_id)
            assert all(c.status == 200 for c in calls)
            reads = sum(c.operation == Op.GET for c in calls)
            writes = [c.size for c in calls if c.operation == Op.BATCH_UPDATE]
            largest = max(writes, default=0)
            if label == "first sync":
                goal = "each write ≤ 2 MB" + (", one write" if players <= 300 else "")
                met = largest <= 2_000_000 and (players > 300 or len(writes) == 1)
            elif label == "nothing changed":
                goal, met = "no write", not writes
            else:
                goal = "≤ 2 writes, each ≤ 2 MB, ≤ 3 s"
                met = len(writes) <= 2 and largest <= 2_000_000 and seconds <= 3
            sizes_mb = " ".join(f"{w / 1e6:.3f}" for w in writes)
            print(
                f"    {label:<19} {reads} read + {len(writes):>2} writes "
                f"[{sizes_mb}] MB, {seconds:6.1f} s (worker CPU {cpu:5.1f} s)   "
                f"goal: {goal}: {'met' if met else 'MISSED'}"
            )
        for label, fields in (
            ("the read", READ_FIELDS),
            ("text only", READ_FIELDS.replace(_CELL_MASK, "values(formattedValue)")),
        ):
            params = {"includeGridData": "true", "fields": fields}
            seconds, document = timed(
                lambda s=sheet_id, p=params: client.http_client.fetch_sheet_metadata(s, params=p)
            )
            tabs = {
                sheet["properties"]["title"]: len(json.dumps(sheet.get("data"))) / 1e6
                for sheet in document["sheets"]
            }
            each = ", ".join(f"{title} {mb:.2f}" for title, mb in tabs.items())
            what = (
                "text, formats and notes of every tab"
                if fields == READ_FIELDS
                else "what the read was before formats and notes were compared"
            )
            print(
                f"    {label}: {len(json.dumps(document)) / 1e6:.2f} MB in {seconds:.1f} s "
                f"({what}: {each} MB)"
            )


class SameProcess(FakeProcess):
    """The fake in a thread of the bench's own process (``--same-process``): how the bench
    ran before, to compare."""

    def __init__(self, folder: Path) -> None:
        self._fake = SheetsFake().start()
        key = generate_service_account(self._fake, folder)
        self.base_url, self.key_path, self.email = self._fake.base_url, key.path, key.email

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._fake, name)(*args, **kwargs)

    def close(self) -> None:
        self._fake.stop()


def main() -> None:
    t = random_swiss(PLAYERS, ROUNDS, seed=7)
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    where = SameProcess if "--same-process" in sys.argv else FakeProcess
    sizes = [
        (int(n), int(r or ROUNDS))
        for n, _, r in (
            size.partition("x")
            for size in (arguments[0] if arguments else "300,2000,5000x11").split(",")
        )
    ]
    load = ", ".join(f"{n:.2f}" for n in os.getloadavg())
    print(
        f"python {sys.version.split()[0]}; Sheets fake on 127.0.0.1, in "
        f"{'a thread of this' if where is SameProcess else 'its own'} process; "
        f"{os.cpu_count()} cores, load average {load}"
    )
    with tempfile.TemporaryDirectory() as folder, where(Path(folder)) as fake:
        settings = SheetsSettings(
            google_application_credentials=fake.key_path, api_base=fake.base_url, timeout=300
        )
        for layout in ("crosstable", "game list"):
            bench(fake, settings, fake.email, layout, t)
        size_classes(fake, settings, fake.email, sizes)


if __name__ == "__main__":
    main()

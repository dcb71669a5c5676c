"""Nothing is lost and nothing is written twice: results wait in the store's outbox until
their row is seen in the sheet, the bot looks for a row's key before writing it again, and
what a TD does in Discord (a decision, a bye, an undo) reaches the sheet too."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import socket
import subprocess
import sys
from datetime import timedelta

import pytest
from prometheus_client import REGISTRY

from bot.settings import BotSettings
from bot.store import Actor, OutboxItem, Store
from sheets import metrics
from sheets.discord_tabs import REPORT_HEADER
from tests.bot.support import clicked, reported
from tests.fakes.sheets_api import Op
from tests.link.conftest import LinkedClub, eventually

KEY = REPORT_HEADER.index("Key")
#: How long a bot process holds what it writes, unless HARKNESS_SHEETS_LEASE says otherwise.
LEASE = timedelta(seconds=BotSettings.model_fields["sheets_lease"].default)


def keys(club: LinkedClub) -> list[str]:
    return [row[KEY] for row in club.tab("Discord reports")[1:]]


async def test_a_write_that_times_out_but_lands_later_is_not_written_again(
    linked: LinkedClub,
) -> None:
    club = linked
    # Google takes longer than the bot waits (2 s) to answer the append, then carries it out.
    club.sheets.slow_next(1, 2.5, operation=Op.BATCH_UPDATE, spreadsheet_id=club.sheet_id)
    message = await reported(club, "alice", 2, "#3", "loss")
    confirmed = await clicked(club, "carol", message, "Confirm")
    assert confirmed.text.splitlines()[-1].startswith("⏳ Saved.")
    [item] = await club.store.linked.pending_writes(club.guild, "Club Night")
    await club.settled()
    # The retry found the row's key in the tab and wrote nothing: the row is there once, and
    # only the write that timed out ever carried it.
    assert keys(club) == [item.payload["key"]]
    carrying = [
        c
        for c in club.sheets.calls(club.sheet_id, operation=Op.BATCH_UPDATE)
        if item.payload["key"] in json.dumps(c.body)
    ]
    assert len(carrying) == 1


async def test_results_pending_when_the_bot_stops_are_written_after_it_restarts(
    linked: LinkedClub,
) -> None:
    club = linked
    club.sheets.fail_for(600, 503)  # Google is down
    message = await reported(club, "alice", 2, "#3", "draw")
    await clicked(club, "carol", message, "Confirm")
    [item] = await club.store.linked.pending_writes(club.guild, "Club Night")
    await club.restart()
    club.bot.sheets.clock = club.clock  # type: ignore[union-attr]
    club.sheets.clear_faults()  # Google is back
    await club.settled()
    assert keys(club) == [item.payload["key"]]


async def test_td_decisions_byes_and_undos_reach_the_sheet(linked: LinkedClub) -> None:
    club = linked
    set_ = await club.ok(
        "td",
        "result set",
        {"round": 2, "player": "#1", "opponent": "#2", "result": "draw", "colour": "white"},
    )
    assert set_.text.splitlines()[-1].startswith("📗 Written to the Google Sheet")
    await club.ok("td", "result bye", {"round": 2, "player": "#3", "kind": "half"})
    await club.ok("td", "result bye", {"round": 2, "player": "#4", "kind": "zero"})
    rows = club.tab("Discord reports")[1:]
    assert [row[1:7] for row in rows] == [
        ["2", "#1 Alice", "½-½", "#2 Bob", "White", "set by a TD"],
        ["2", "#3 Carol", "half-point bye", "", "", "bye"],
        ["2", "#4 Dave", "zero-point bye", "", "", "bye"],
    ]
    club.refresh()
    standings = await club.ok("erin", "standings")
    assert "after round 2" in standings.embeds[0]["title"]
    # The TD takes Dave's bye back: the undo is a row too, naming the row it undoes.
    undone = await club.ok("td", "result undo")
    assert undone.text.splitlines()[-1].startswith("📗 Written to the Google Sheet")
    last = club.tab("Discord reports")[-1]
    assert last[6] == "undone by a TD" and last[REPORT_HEADER.index("Undoes")] == rows[2][KEY]
    assert last[1:6] == ["2", "", "", "", ""]
    # On the sheet Dave has nothing in round 2 any more: an empty last cell, so withdrawn
    # (core/RULEBOOK.md, "Round entries"); Carol keeps her half-point bye, Alice and Bob their draw.
    crosstable = await club.ok("erin", "crosstable")
    table = list(
        csv.DictReader(io.StringIO(crosstable.attachment("club-night-crosstable.csv").text()))
    )
    assert {row["Name"]: row["Rd 2"] for row in table} == {
        "Carol": "H",
        "Alice": "D2 (w)",
        "Bob": "D1 (b)",
        "Dave": "-",
    }


async def _held_by(club: LinkedClub, worker: str, lease: timedelta) -> OutboxItem:
    """Stop the bot, then lease its one pending result to ``worker`` (as if that process
    had claimed it to write it)."""
    assert club.bot is not None
    await asyncio.wait_for(club.bot.close(), 30)
    store = await Store.open(os.environ["HARKNESS_DATABASE_URL"], migrate=False)
    try:
        [item] = await store.linked.pending_writes(club.guild, "Club Night")

        async def leased() -> bool:
            return bool(await store.linked.claim_writes(worker, lease=lease))

        await eventually(leased, 30, f"the result leased to {worker}")
    finally:
        await store.close()
    return item


def _stopped_worker() -> str:
    """The outbox worker name of a bot process of this host that was killed."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    return f"harkness-bot:{socket.gethostname()}:{int(done.stdout)}:0dead0ff"


async def test_a_result_held_by_a_killed_bot_is_written_as_soon_as_the_bot_restarts(
    linked: LinkedClub,
) -> None:
    club = linked
    club.sheets.fail_for(600, 503)  # Google is down while the result is made
    message = await reported(club, "alice", 2, "#3", "draw")
    await clicked(club, "carol", message, "Confirm")
    # The bot was killed (kill -9) in the middle of writing it: the result is still leased
    # to the dead process, for far longer than the test waits.
    item = await _held_by(club, _stopped_worker(), 10 * LEASE)
    assert timedelta(minutes=1) >= LEASE  # what a bot on another host waits at most
    club.sheets.clear_faults()  # Google is back
    await asyncio.wait_for(club.start(), 30)
    await club.settled(timeout=10)
    assert keys(club) == [item.payload["key"]]


async def test_a_result_held_by_a_bot_still_running_is_left_to_it(linked: LinkedClub) -> None:
    club = linked
    club.sheets.fail_for(600, 503)
    message = await reported(club, "alice", 2, "#3", "draw")
    await clicked(club, "carol", message, "Confirm")
    # Another process of this host, still running (the one that started the tests), holds
    # the result: a bot that starts must leave it alone.
    alive = f"harkness-bot:{socket.gethostname()}:{os.getppid()}:0a11ve00"
    item = await _held_by(club, alive, LEASE)
    club.sheets.clear_faults()
    await asyncio.wait_for(club.start(), 30)
    await asyncio.wait_for(club.links.flush(), 30)
    pending = await club.store.linked.pending_writes(club.guild, "Club Night")
    assert [held.id for held in pending] == [item.id]
    assert keys(club) == []


async def test_the_outbox_depth_and_age_are_measured_while_the_metrics_are_served(
    linked: LinkedClub, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = linked
    monkeypatch.setattr(metrics, "serving", True)
    club.sheets.fail_for(600, 503)  # Google is down: the result waits
    message = await reported(club, "alice", 2, "#3", "draw")
    await clicked(club, "carol", message, "Confirm")
    await asyncio.wait_for(club.links.flush(), 30)
    assert REGISTRY.get_sample_value("harkness_outbox_depth") == 1
    assert REGISTRY.get_sample_value("harkness_outbox_oldest_due_seconds") is not None
    club.sheets.clear_faults()
    await club.settled(timeout=30)
    await asyncio.wait_for(club.links.flush(), 30)
    assert REGISTRY.get_sample_value("harkness_outbox_depth") == 0
    assert REGISTRY.get_sample_value("harkness_outbox_oldest_due_seconds") == 0


async def test_a_result_made_final_wakes_the_writer_at_once(
    linked: LinkedClub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store tells the bot's sheet writer when a change queued a result
    (``store.linked.on_queued``): with a poll interval of ten minutes, a TD's decision made
    through the store alone (no command waiting for it to land) reaches the Discord reports
    tab within seconds."""
    club = linked
    monkeypatch.setenv("HARKNESS_SHEETS_OUTBOX_POLL", "600")
    await club.restart()
    assert club.links.outbox.poll_seconds == 600
    await asyncio.sleep(0.5)  # the writer's first look is over: it sleeps until woken
    td = Actor(str(club.member("td").id), "Tina Director", td=True)
    decided = await club.store.set_result(
        club.guild, "Club Night", td, round=2, player=1, opponent=2, result="win"
    )
    assert decided.outbox and decided.event is not None
    [item] = await club.store.linked.pending_writes(club.guild, "Club Night")
    await eventually(
        lambda: _written(club, item.payload["key"]), 5, "the decision in the Discord reports tab"
    )


async def _written(club: LinkedClub, key: str) -> bool:
    return key in keys(club)

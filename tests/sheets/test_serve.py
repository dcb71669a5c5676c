"""``harkness-sheets serve``: the add-on's endpoint lets a sheet's own key act on that sheet
only, debounces a burst of edits into one sync, and queues syncs one at a time."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from ipaddress import ip_network
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from sheets.addon_keys import KEY_HEADER, MemoryKeys, read_commitment
from sheets.client import SheetsClient
from sheets.forwarded import Network, trusted_networks
from sheets.gate import FAILURES_ALLOWED, Gate
from sheets.serve import SyncQueue, make_app
from sheets.settings import SheetsSettings
from sheets.sync import SyncResult, sync
from sheets.turns import Turns
from tests.fakes.sheets_api import Op, SheetsFake
from tests.sheets.addon import Editor, new_key, post
from tests.sheets.conftest import seed_crosstable, settings_rows

MakeSheet = Callable[..., str]
MakeEditor = Callable[..., Editor]


@dataclass
class Endpoint:
    url: str
    queue: SyncQueue
    keys: MemoryKeys
    runs: list[tuple[str, float, float]]
    """(spreadsheet id, start, end) of every sync the queue ran."""

    async def post(
        self, route: str, sheet: str, key: str | None, **options: Any
    ) -> tuple[int, Any]:
        return await post(self.url, route, sheet, key, **options)

    async def connect(self, editor: Editor, sheet: str) -> str:
        """What "Harkness → Connect this sheet" does: a new key, its hash in the sheet
        (as ``editor``), then ``/connect``; answers the key."""
        key = new_key()
        editor.vouch(sheet, key)
        assert await self.post("/connect", sheet, key) == (
            200,
            {"connected": True, "message": "This sheet is connected."},
        )
        return key


async def start(
    client: SheetsClient,
    allowed: set[str] | None = None,
    debounce: float = 0.3,
    max_wait: float = 5.0,
    keys: MemoryKeys | None = None,
    trusted_proxies: tuple[Network, ...] = (),
    turns: Turns | None = None,
    **options: Any,
) -> tuple[Endpoint, web.AppRunner]:
    """The endpoint as ``serve`` runs it without a database, in this process: its syncs,
    pairings and connects take turns (``turns``: this process's budget by default)."""
    runs: list[tuple[str, float, float]] = []

    def timed_sync(key: str) -> SyncResult:
        began = time.monotonic()
        try:
            return sync(client, key)
        finally:
            runs.append((key, began, time.monotonic()))

    turns = turns if turns is not None else Turns("w@x")
    queue = SyncQueue(
        timed_sync, debounce=debounce, max_wait=max_wait, syncs_per_minute=300, turns=turns
    )
    keys = keys if keys is not None else MemoryKeys()
    gate = Gate(
        keys, lambda key: read_commitment(client, key), allowed, share_with="w@x", turns=turns
    )
    app = make_app(queue, gate, trusted_proxies=trusted_proxies, **options)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    assert host == "127.0.0.1"
    return Endpoint(f"http://127.0.0.1:{port}", queue, keys, runs), runner


@pytest.fixture
async def endpoint(client: SheetsClient) -> AsyncIterator[Endpoint]:
    served, runner = await start(client)
    yield served
    await runner.cleanup()


@pytest.fixture
def connected(make_sheet: MakeSheet, make_editor: MakeEditor) -> Callable[..., Any]:
    """A new sheet (crosstable results) with its editor: ``(sheet, editor)``."""

    def make(**tabs: list[list[Any]]) -> tuple[str, Editor]:
        sheet = make_sheet({"Results": seed_crosstable(), **tabs})
        return sheet, make_editor(f"td-{sheet[-6:].lower()}", sheet)

    return make


async def test_a_wrong_or_missing_key_is_refused_and_nothing_is_synced(
    endpoint: Endpoint,
    sheets_fake: SheetsFake,
    connected: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    sheet_id, editor = connected()
    key = await endpoint.connect(editor, sheet_id)
    sheets_fake.reset_calls()
    with caplog.at_level("DEBUG"):
        for given in (None, "a guessed secret", key[:-1] + "!", new_key(), key + "x"):
            status, body = await endpoint.post("/sync", sheet_id, given)
            assert (status, body) == (401, {"error": "wrong or missing key for this spreadsheet"})
    assert "wrong or missing key" in caplog.text
    assert "a guessed secret" not in caplog.text and key not in caplog.text
    await asyncio.sleep(0.5)
    assert endpoint.queue.pending == 0 and endpoint.runs == []
    assert sheets_fake.call_count(sheet_id) == 0


async def test_a_sheets_key_acts_on_that_sheet_alone(
    endpoint: Endpoint,
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    make_editor: MakeEditor,
    client: SheetsClient,
) -> None:
    """Two clubs' TDs each connect their own sheet. With club 1's key, nothing is synced,
    paired or written on club 2's sheet, and no answer quotes it (its Players tab holds a
    child's name and birth date, in a cell a /pair answer used to quote)."""
    from sheets.pairing import pair_answer

    served, runner = await start(
        client, pair=lambda key, vouched: pair_answer(client, key, vouched)
    )
    players = [["#", "Name", "Rating"], [1, "Ann Adams", 1500], [2, "Zoë Child 2014-03-09", "x"]]
    game_list = [["Round", "White", "Black", "Result"]]
    try:
        first = make_sheet({"Results": seed_crosstable()}, title="Club 1")
        second = make_sheet(
            {
                "Results": game_list,
                "Players": players,
                "Harkness": settings_rows(Rounds="3", Write_pairings_into_results_tab="Yes"),
            },
            title="Club 2",
        )
        td1 = make_editor("td1", first)
        td2 = make_editor("td2", second)
        key1 = await served.connect(td1, first)
        before = sheets_fake.values(second, "Results!A1:F20")
        # Club 2's sheet is not connected yet: club 1's key opens nothing there.
        answers = [
            await served.post(route, second, key1) for route in ("/sync", "/pair", "/disconnect")
        ]
        await served.connect(td2, second)
        answers += [
            await served.post(route, second, key1) for route in ("/sync", "/pair", "/disconnect")
        ]
        # Nor can club 1 connect club 2's sheet with its own key.
        answers.append(await served.post("/connect", second, key1))
        await asyncio.sleep(0.6)
    finally:
        await runner.cleanup()
    assert [status for status, _ in answers] == [401] * 7
    assert all(set(body) <= {"error", "connect"} for _, body in answers)
    assert not any("Zoë" in str(body) or "2014" in str(body) for _, body in answers)
    assert served.runs == []
    assert sheets_fake.values(second, "Results!A1:F20") == before
    assert not any(
        t.startswith(("Pairings", "Standings")) for t in sheets_fake.sheet_titles(second)
    )


async def test_only_an_editor_can_connect_a_sheet(
    endpoint: Endpoint,
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    make_editor: MakeEditor,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A viewer cannot write the key's hash into the sheet, so no key of theirs connects
    it; a stranger asking to connect someone else's sheet (or one with no key at all, or
    one the worker cannot open) is told the same, and nothing is kept."""
    from sheets.client import SheetsPermissionError

    sheet_id = make_sheet({"Results": seed_crosstable()})
    viewer = make_editor("viewer", sheet_id, role="reader")
    mine = new_key()
    with pytest.raises(SheetsPermissionError):
        viewer.vouch(sheet_id, mine)
    nobody = sheets_fake.create_spreadsheet("Not shared", {"Results": seed_crosstable()})
    answers = [
        await endpoint.post("/connect", sheet_id, mine),  # the sheet holds no key
        await endpoint.post("/connect", nobody, mine),  # the worker cannot open it
    ]
    td = make_editor("td", sheet_id)
    td_key = await endpoint.connect(td, sheet_id)
    answers.append(await endpoint.post("/connect", sheet_id, mine))  # another key
    assert [status for status, _ in answers] == [401, 401, 401]
    assert len({body["error"] for _, body in answers}) == 1
    assert "shared with w@x as an Editor" in answers[0][1]["error"]
    assert len(await endpoint.keys.kept(sheet_id)) == 1
    assert (await endpoint.post("/sync", sheet_id, mine))[0] == 401
    assert (await endpoint.post("/sync", sheet_id, td_key))[0] == 202
    assert mine not in caplog.text and td_key not in caplog.text
    await endpoint.queue.idle()


async def test_each_editor_renews_their_key_and_any_editor_takes_the_sheet_back(
    endpoint: Endpoint, connected: Callable[..., Any], make_editor: MakeEditor
) -> None:
    """Each editor connects with a key of their own. Renewing refuses the old key at once (a
    copy of it opens nothing) and leaves the other editors' keys alone; disconnecting
    refuses every editor's key until the sheet is connected again."""
    sheet_id, td = connected()
    deputy = make_editor("deputy", sheet_id)
    old = await endpoint.connect(td, sheet_id)
    theirs = await endpoint.connect(deputy, sheet_id)
    new = await endpoint.connect(td, sheet_id)
    assert (await endpoint.post("/sync", sheet_id, old))[0] == 401
    assert (await endpoint.post("/connect", sheet_id, old))[0] == 401  # the sheet dropped it
    assert (await endpoint.post("/sync", sheet_id, new))[0] == 202
    assert (await endpoint.post("/sync", sheet_id, theirs))[0] == 202
    assert await endpoint.post("/disconnect", sheet_id, theirs) == (200, {"connected": False})
    for key in (new, theirs):
        status, body = await endpoint.post("/sync", sheet_id, key)
        assert (status, body.get("connect")) == (401, True)
    await endpoint.queue.idle()


async def test_the_operator_revokes_a_sheets_key(
    client: SheetsClient,
    sheets_fake: SheetsFake,
    connected: Callable[..., Any],
    sheets_env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``harkness-sheets revoke`` removes the key's hash from the sheet: the old key can
    neither pair (the sheet no longer vouches for it) nor connect again, in memory too."""
    from sheets.cli import main
    from sheets.pairing import pair_answer

    for name, value in sheets_env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("HARKNESS_DATABASE_URL", raising=False)
    sheet_id, td = connected(Harkness=settings_rows(Rounds="4"))
    served, runner = await start(
        client, pair=lambda key, vouched: pair_answer(client, key, vouched)
    )
    try:
        key = await served.connect(td, sheet_id)
        assert await asyncio.to_thread(main, ["revoke", sheet_id]) == 0
        assert "removed from the sheet" in capsys.readouterr().out
        assert sheets_fake.developer_metadata(sheet_id, "harkness.addonKey") == []
        status, body = await served.post("/pair", sheet_id, key)
        assert (status, body) == (
            401,
            {"error": "this spreadsheet no longer holds this key: connect it again"},
        )
        assert (await served.post("/connect", sheet_id, key))[0] == 401
        assert not any(t.startswith("Pairings") for t in sheets_fake.sheet_titles(sheet_id))
        await served.connect(td, sheet_id)  # its editors connect it again, with a new key
    finally:
        await runner.cleanup()


async def test_without_a_config_an_unconnected_sheet_is_not_served(
    endpoint: Endpoint, make_sheet: MakeSheet, sheets_fake: SheetsFake
) -> None:
    """Shared with the service account is not enough: a sheet no editor connected is
    refused (and the refusal costs Google nothing)."""
    sheet_id = make_sheet({"Results": seed_crosstable()})
    status, body = await endpoint.post("/sync", sheet_id, new_key())
    assert (status, body["connect"]) == (401, True)
    assert sheets_fake.call_count(sheet_id) == 0
    await asyncio.sleep(0.5)
    assert endpoint.runs == []


async def test_after_a_restart_without_a_database_the_add_on_connects_again(
    client: SheetsClient, connected: Callable[..., Any], sheets_fake: SheetsFake
) -> None:
    sheet_id, td = connected()
    first, runner = await start(client)
    key = await first.connect(td, sheet_id)
    await runner.cleanup()
    second, runner = await start(client)  # a new process: its memory holds no keys
    try:
        status, body = await second.post("/sync", sheet_id, key)
        assert (status, body["connect"]) == (401, True)
        reads = sheets_fake.call_count(sheet_id)
        assert (await second.post("/connect", sheet_id, key))[0] == 200
        assert sheets_fake.call_count(sheet_id) == reads + 1  # one read: the key's hash
        assert (await second.post("/sync", sheet_id, key))[0] == 202
        await second.queue.idle()
    finally:
        await runner.cleanup()


async def test_connects_cannot_spend_the_service_accounts_quota(
    client: SheetsClient, make_sheet: MakeSheet, sheets_fake: SheetsFake
) -> None:
    """Callers without a key, each from its own address (behind the proxy), make the
    worker read at most a few sheets a minute (each connect is a read): then 429."""
    sheet_id = make_sheet({"Results": seed_crosstable()})
    served, runner = await start(client, trusted_proxies=trusted_networks("127.0.0.1"))
    try:
        statuses = [
            (await served.post("/connect", sheet_id, new_key(), forwarded_for=f"203.0.113.{n}"))[0]
            for n in range(30)
        ]
    finally:
        await runner.cleanup()
    assert statuses[:10] == [401] * 10 and set(statuses[10:]) == {429}
    assert sheets_fake.call_count(sheet_id) == 10


async def test_a_burst_of_edits_becomes_one_sync(
    endpoint: Endpoint, sheets_fake: SheetsFake, connected: Callable[..., Any]
) -> None:
    sheet_id, td = connected()
    key = await endpoint.connect(td, sheet_id)
    for _ in range(5):
        status, body = await endpoint.post("/sync", sheet_id, key, reason="edit")
        assert status == 202 and body == {"spreadsheetId": sheet_id, "status": "scheduled"}
        await asyncio.sleep(0.05)
    await endpoint.queue.idle()
    assert [key for key, *_ in endpoint.runs] == [sheet_id]
    assert sheets_fake.call_count(sheet_id, operation=Op.GET) == 2  # the connect, the sync
    assert sheets_fake.values(sheet_id, "Standings!C2") == [["Player A"]]


async def test_syncs_of_several_sheets_are_queued_and_run_one_at_a_time(
    endpoint: Endpoint, make_sheet: MakeSheet, make_editor: MakeEditor
) -> None:
    keys = [make_sheet({"Results": seed_crosstable()}, title=f"Section {n}") for n in range(3)]
    td = make_editor("td", *keys)
    for key in keys:
        assert (await endpoint.post("/sync", key, await endpoint.connect(td, key)))[0] == 202
    await endpoint.queue.idle()
    assert sorted(key for key, *_ in endpoint.runs) == sorted(keys)
    spans = sorted((began, ended) for _, began, ended in endpoint.runs)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))  # one at a time
    assert all(b[0] - a[0] >= 60 / 300 - 0.01 for a, b in itertools.pairwise(spans))


async def test_an_edit_during_a_sync_brings_one_more_sync_after_it(
    endpoint: Endpoint, sheets_fake: SheetsFake, connected: Callable[..., Any]
) -> None:
    sheet_id, td = connected(Harkness=settings_rows())
    key = await endpoint.connect(td, sheet_id)
    sheets_fake.slow_next(1, delay=2.0, operation=Op.GET)
    await endpoint.post("/sync", sheet_id, key)
    deadline = time.monotonic() + 30
    while endpoint.queue.pending and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert endpoint.runs == []  # the debounce is over and the (slow) sync is running
    sheets_fake.set_values(sheet_id, "Harkness!B2", [["mdchess"]])
    status, body = await endpoint.post("/sync", sheet_id, key)
    assert (status, body["status"]) == (202, "after the running sync")
    status, body = await endpoint.post("/sync", sheet_id, key)
    assert body["status"] == "after the running sync"
    await endpoint.queue.idle()
    assert len(endpoint.runs) == 2
    assert "rules mdchess" in sheets_fake.values(sheet_id, "Errors!A4")[0][0]


async def test_only_the_listed_spreadsheets_are_accepted_and_bad_bodies_are_told_why(
    client: SheetsClient, connected: Callable[..., Any]
) -> None:
    listed, td = connected()
    served, runner = await start(client, allowed={listed})
    try:
        key = await served.connect(td, listed)
        assert (await served.post("/sync", "1SomeoneElsesSheet0000", key))[0] == 403
        assert (await served.post("/connect", "1SomeoneElsesSheet0000", key))[0] == 403
        async with aiohttp.ClientSession() as session:
            for body in ({"sheet": listed}, ["not", "an", "object"], "{"):
                async with session.post(
                    f"{served.url}/sync", json=body, headers={KEY_HEADER: key}
                ) as response:
                    assert response.status == 400
        assert (await served.post("/sync", listed, key))[0] == 202
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{served.url}/healthz") as response,
        ):
            assert response.status == 200
            assert await response.json() == {"ok": True, "pending": 1, "set_aside": 0}
        await served.queue.idle()
    finally:
        await runner.cleanup()


async def test_a_long_burst_still_syncs_by_the_longest_wait(
    client: SheetsClient, connected: Callable[..., Any]
) -> None:
    sheet_id, td = connected()
    served, runner = await start(client, debounce=0.3, max_wait=0.8)
    try:
        key = await served.connect(td, sheet_id)
        began = time.monotonic()
        # A sync that waited for the burst to end would start after 3.3 s; the longest wait
        # starts it after 0.8 s (the margin is for a loaded machine).
        while time.monotonic() - began < 3.0:
            await served.post("/sync", sheet_id, key)
            await asyncio.sleep(0.1)
        assert served.runs, "a sync ran during the burst"
        assert served.runs[0][1] - began < 2.4
        await served.queue.idle()
    finally:
        await runner.cleanup()


async def test_wrong_keys_from_one_source_are_rate_limited(
    endpoint: Endpoint, connected: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    """After a few wrong keys a source is answered 429, and the log gets one line for it,
    not one per guess."""
    sheet_id, td = connected()
    key = await endpoint.connect(td, sheet_id)
    with caplog.at_level("INFO", logger="sheets.serve"):
        statuses = [(await endpoint.post("/sync", sheet_id, new_key()))[0] for _ in range(50)]
        blocked, body = await endpoint.post("/pair", sheet_id, "one more guess")
        # The right key is still accepted from that source: an attacker sharing the
        # add-on's address (Apps Script calls from addresses Google shares) cannot lock it
        # out. It does not clear the source's count.
        accepted, _ = await endpoint.post("/sync", sheet_id, key)
        still_blocked, _ = await endpoint.post("/sync", sheet_id, None)
    assert statuses[:FAILURES_ALLOWED] == [401] * FAILURES_ALLOWED
    assert set(statuses[FAILURES_ALLOWED:]) == {429}
    assert blocked == 429 and "too many wrong keys" in body["error"]
    assert (accepted, still_blocked) == (202, 429)
    refusals = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == FAILURES_ALLOWED
    await endpoint.queue.idle()


async def test_the_callers_reason_is_logged_escaped(
    endpoint: Endpoint, connected: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    sheet_id, td = connected()
    key = await endpoint.connect(td, sheet_id)
    forged = "edit\nWARNING sheets.serve: sync of everything refused\x1b[2J"
    with caplog.at_level("INFO", logger="sheets.serve"):
        status, _ = await endpoint.post("/sync", sheet_id, key, reason=forged)
    assert status == 202
    (line,) = [r.getMessage() for r in caplog.records if "sync of" in r.getMessage()]
    assert "\n" not in line and "\x1b" not in line
    assert "edit\\nWARNING" in line


async def test_behind_a_trusted_proxy_wrong_keys_are_counted_per_caller(
    client: SheetsClient, connected: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    """The test connects from 127.0.0.1, named as a trusted proxy here: the caller is the
    right-most X-Forwarded-For address that is not a trusted proxy. One caller's wrong
    guesses hold back neither another caller nor the add-on, and the log names the caller."""
    sheet_id, td = connected()
    served, runner = await start(client, trusted_proxies=trusted_networks("127.0.0.1 ::1"))
    attacker, addon = "203.0.113.7", "198.51.100.20"
    try:
        key = await served.connect(td, sheet_id)
        with caplog.at_level("INFO", logger="sheets.serve"):
            statuses = [
                (await served.post("/sync", sheet_id, "guess", forwarded_for=attacker))[0]
                for _ in range(FAILURES_ALLOWED + 3)
            ]
            # What the attacker writes to the left of what the proxy appended is ignored,
            # and so are trusted hops to its right.
            for forwarded in (f"{addon}, {attacker}", f"10.0.0.1,{attacker}, 127.0.0.1"):
                status, _ = await served.post("/sync", sheet_id, "guess", forwarded_for=forwarded)
                assert status == 429, forwarded
            wrong, _ = await served.post("/sync", sheet_id, "typo", forwarded_for=addon)
            right, _ = await served.post("/sync", sheet_id, key, forwarded_for=addon)
        assert statuses == [401] * FAILURES_ALLOWED + [429] * 3
        assert (wrong, right) == (401, 202)
        refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(refusals) == FAILURES_ALLOWED + 1
        assert all(f"from {attacker}:" in line for line in refusals[:-1])
        assert f"from {addon}:" in refusals[-1]
        assert "127.0.0.1" not in caplog.text
        await served.queue.idle()
    finally:
        await runner.cleanup()


async def test_x_forwarded_for_is_not_believed_unless_a_proxy_is_named(
    endpoint: Endpoint, connected: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    """By default no proxy is trusted, loopback included: a local caller that writes
    X-Forwarded-For itself (a new address for every guess) is still counted, and logged,
    by its own address."""
    sheet_id, td = connected()
    await endpoint.connect(td, sheet_id)
    with caplog.at_level("INFO", logger="sheets.serve"):
        statuses = [
            (await endpoint.post("/sync", sheet_id, "guess", forwarded_for=f"203.0.113.{n}"))[0]
            for n in range(FAILURES_ALLOWED + 3)
        ]
    assert statuses == [401] * FAILURES_ALLOWED + [429] * 3
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refusals and all("from 127.0.0.1:" in line for line in refusals)
    assert "203.0.113." not in caplog.text


def test_the_trusted_proxies_setting_names_none_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HARKNESS_SHEETS_TRUSTED_PROXIES", raising=False)
    assert SheetsSettings().proxies == ()
    assert SheetsSettings(trusted_proxies="127.0.0.1,::1").proxies == (
        ip_network("127.0.0.1"),
        ip_network("::1"),
    )
    assert SheetsSettings(trusted_proxies="172.31.250.2 fd00::/8").proxies == (
        ip_network("172.31.250.2"),
        ip_network("fd00::/8"),
    )
    with pytest.raises(ValueError, match=r"'10\.0\.0\.1/8' has bits set beyond its prefix"):
        SheetsSettings(trusted_proxies="10.0.0.1/8")


async def test_pair_next_round_pressed_twice_pairs_once(
    client: SheetsClient,
    make_sheet: MakeSheet,
    make_editor: MakeEditor,
    sheets_fake: SheetsFake,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two presses at once, then a third half a second later: the round's games are added
    to the TD's game list once, and the other presses say the round is already paired
    (before, the games were appended twice, or the second press failed with a 502)."""
    from sheets.pairing import pair_answer
    from tests.sheets.test_pairing import HEADER, PLAYERS

    sheet_id = make_sheet(
        {
            "Results": [HEADER],
            "Players": PLAYERS,
            "Harkness": settings_rows(Rounds="3", Write_pairings_into_results_tab="Yes"),
        }
    )
    served, runner = await start(
        client, pair=lambda key, vouched: pair_answer(client, key, vouched)
    )
    try:
        key = await served.connect(make_editor("td", sheet_id), sheet_id)
        with caplog.at_level("INFO"):
            answers = list(
                await asyncio.gather(*(served.post("/pair", sheet_id, key) for _ in range(2)))
            )
            await asyncio.sleep(0.5)
            answers.append(await served.post("/pair", sheet_id, key))
    finally:
        await runner.cleanup()
    assert [status for status, _ in answers] == [200, 200, 200]
    messages = sorted(body["message"] for _, body in answers)
    already = (
        "Round 1 is already paired: see the Pairings Rd 1 tab. To pair it again, delete that "
        "tab first."
    )
    assert messages == [
        already,
        already,
        "Round 1 is paired: see the Pairings Rd 1 tab. Its games were added below your game "
        "list (3 rows).",
    ]
    rows = [row for row in sheets_fake.values(sheet_id, "Results!A1:E20") if any(row)]
    assert len(rows) == 1 + 3  # the header, two boards and the bye, once
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


async def test_pairings_spend_from_the_service_accounts_budget(
    client: SheetsClient,
    make_sheet: MakeSheet,
    make_editor: MakeEditor,
    sheets_fake: SheetsFake,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """80 presses of "Pair next round" on 8 sheets within a moment (before: 100 reads, and
    Google refused 40): each read and write is spent from the account's budget first, so
    Google refuses none; each sheet is paired once; a press that gets no turn within the
    wait is told why and when to come back (503, Retry-After), never an error."""
    from sheets.budget import Quota
    from sheets.pairing import pair_answer
    from tests.sheets.test_pairing import HEADER, PLAYERS

    window = 3.0  # Google's "minute", shortened: 10 reads and 10 writes in any 3 s
    sheets_fake.enforce_quotas(10, 10, window=window)
    turns = Turns("w@x", Quota(10, 10, window), wait=1.0)
    sheets = [
        make_sheet(
            {"Results": [HEADER], "Players": PLAYERS, "Harkness": settings_rows(Rounds="3")},
            title=f"Section {n}",
        )
        for n in range(8)
    ]
    td = make_editor("td", *sheets)
    served, runner = await start(
        client, turns=turns, pair=lambda key, vouched: pair_answer(client, key, vouched)
    )
    try:
        keys = {}
        for sheet in sheets:  # connected, a budgeted read each, ahead of the presses
            key = new_key()
            td.vouch(sheet, key)
            while (answer := await served.post("/connect", sheet, key))[0] == 503:
                await asyncio.sleep(float(window) / 3)
            assert answer[0] == 200
            keys[sheet] = key
        with caplog.at_level("INFO"):
            answers = list(
                await asyncio.gather(
                    *(
                        served.post("/pair", sheet, keys[sheet])
                        for _ in range(10)
                        for sheet in sheets
                    )
                )
            )
        # The TDs told to come back do, one press a sheet, until each has its answer.
        for sheet in sheets:
            while (answer := await served.post("/pair", sheet, keys[sheet]))[0] == 503:
                await asyncio.sleep(window / 3)
            answers.append(answer)
    finally:
        await runner.cleanup()
    statuses = [status for status, _ in answers]
    assert set(statuses) == {200, 503}
    told = {body["message"] for status, body in answers if status == 503}
    assert all("share of Google's quota" in text for text in told)
    paired = [body for status, body in answers if status == 200 and body["paired"]]
    assert len(paired) == len(sheets)  # each sheet once; every other answer says "already"
    for sheet in sheets:
        tabs = [t for t in sheets_fake.sheet_titles(sheet) if t.startswith("Pairings")]
        assert tabs == ["Pairings Rd 1"]
    assert sheets_fake.calls(status=429) == []  # Google refused nothing
    assert sheets_fake.max_calls_in_any_minute(kind="read", window=window) <= 10
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]

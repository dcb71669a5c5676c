"""``harkness-sheets serve`` against callers that misbehave, over raw sockets: a key header
that is not UTF-8, requests sent halfway and left open, and what the answers say about the
server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from sheets.addon_keys import MemoryKeys
from sheets.gate import BODY_SECONDS, FAILURES_ALLOWED, Gate
from sheets.serve import HEADER_SECONDS, SERVER_NAME, SyncQueue, make_app, serve
from sheets.sync import SyncResult

SHEET = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
BODY = b'{"spreadsheetId": "' + SHEET.encode() + b'"}'
#: How late a cut may come on a loaded machine, beyond the timeout itself.
SLACK = 4.0


def _never_read(key: str) -> str | None:
    raise AssertionError("no test here connects a sheet")


@pytest.fixture
async def port() -> AsyncIterator[int]:
    """The endpoint as ``harkness-sheets serve`` runs it (:func:`sheets.serve.serve`)."""
    queue = SyncQueue(lambda key: SyncResult(key, "", False, False))
    app = make_app(queue, Gate(MemoryKeys(), _never_read))
    stop, ready = asyncio.Event(), asyncio.get_running_loop().create_future()
    running = asyncio.create_task(serve(app, "127.0.0.1", 0, stop, ready.set_result))
    yield await asyncio.wait_for(ready, 10)
    stop.set()
    await running


async def _exchange(port: int, request: bytes) -> tuple[int, bytes]:
    """Send raw bytes; the answer's status and head."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    finally:
        writer.close()
    return int(head.split()[1]), head


def _post(header: bytes) -> bytes:
    return (
        b"POST /sync HTTP/1.1\r\nHost: harkness\r\nContent-Type: application/json\r\n"
        + header
        + b"\r\nContent-Length: "
        + str(len(BODY)).encode()
        + b"\r\n\r\n"
        + BODY
    )


async def test_a_key_header_that_is_not_utf8_is_a_counted_401(
    port: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Bytes that are not UTF-8 (or not ASCII) in the key's header are no key: 401, counted
    like any wrong key (then 429), never a 500 or a traceback."""
    headers = [b"X-Harkness-Key: \xff\xfe" + b"k" * 60, b"X-Harkness-Key: " + "é".encode() * 40]
    with caplog.at_level("INFO"):
        statuses = [
            (await _exchange(port, _post(headers[n % 2])))[0] for n in range(FAILURES_ALLOWED + 2)
        ]
    assert statuses == [401] * FAILURES_ALLOWED + [429] * 2
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert "Traceback" not in caplog.text


async def _closed_after(reader: asyncio.StreamReader, limit: float) -> float:
    """Seconds until the server closes the connection (reading what it says first)."""
    began = time.monotonic()
    while await asyncio.wait_for(reader.read(1024), limit):
        pass
    return time.monotonic() - began


async def test_a_half_sent_request_is_cut_within_seconds(port: int) -> None:
    async def cut(half: bytes, limit: float) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(half)
        await writer.drain()
        took = await _closed_after(reader, limit + SLACK + 10)
        writer.close()
        assert took <= limit + SLACK, (half, took)

    await asyncio.gather(
        cut(b"", HEADER_SECONDS),  # connected, said nothing
        cut(b"POST /sync HTTP/1.1\r\nHost: harkness\r\nContent-Le", HEADER_SECONDS),
        cut(b"POST /sync HTTP/1.1\r\nHost: h\r\nContent-Length: 50\r\n\r\n{", BODY_SECONDS),
    )


async def test_many_half_sent_requests_hold_nothing_for_long(port: int) -> None:
    """400 connections left halfway: the endpoint still answers at once meanwhile, and every
    one of them is closed within seconds."""
    connections = []
    for n in range(400):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST /sync HTTP/1.1\r\nHost: harkness\r\n" + b"X-Pad: y\r\n" * (n % 3))
        connections.append((reader, writer))
    opened = time.monotonic()
    async with aiohttp.ClientSession() as session:
        began = time.monotonic()
        async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
            assert response.status == 200
        assert time.monotonic() - began < 2.0
    closed = await asyncio.gather(
        *(_closed_after(reader, HEADER_SECONDS + SLACK + 10) for reader, _ in connections)
    )
    assert time.monotonic() - opened <= HEADER_SECONDS + SLACK
    assert len(closed) == 400
    for _, writer in connections:
        writer.close()


async def test_the_server_header_names_no_versions(port: int) -> None:
    answers = [
        await _exchange(port, b"GET /healthz HTTP/1.1\r\nHost: harkness\r\n\r\n"),
        await _exchange(port, b"GET /nothing HTTP/1.1\r\nHost: harkness\r\n\r\n"),
        await _exchange(port, _post(b"X-Harkness-Key: " + b"k" * 60)),
        await _exchange(port, b"NOT HTTP AT ALL\r\n\r\n"),
    ]
    assert [status for status, _ in answers] == [200, 404, 401, 400]
    for _, head in answers:
        (server,) = [line for line in head.split(b"\r\n") if line.lower().startswith(b"server:")]
        assert server.split(b":", 1)[1].strip() == SERVER_NAME.encode()
        assert b"aiohttp" not in head and b"Python" not in head

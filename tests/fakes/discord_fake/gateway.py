"""The fake gateway: a websocket speaking Discord's gateway protocol (API v10, JSON).

On connect it sends HELLO; it answers HEARTBEAT with HEARTBEAT_ACK; IDENTIFY with a good
token starts a session (READY, then one GUILD_CREATE per guild); RESUME replays the events
the client missed and sends RESUMED; REQUEST_GUILD_MEMBERS is answered with one
GUILD_MEMBERS_CHUNK. Bad tokens, repeated IDENTIFYs, unknown opcodes and disallowed
privileged intents close the socket with Discord's close codes (4004, 4005, 4001, 4014).
``compress=zlib-stream`` is honoured the way discord.py expects: one zlib stream per
connection, each message ending in a ``Z_SYNC_FLUSH``.

Every dispatch goes through the session's ordered queue, so events a test injects arrive
in the order the test injected them, and events sent while the client is reconnecting are
replayed on RESUME.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .models import JSON, PRIVILEGED_INTENTS

HELLO, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, VOICE_STATE_UPDATE = 10, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_GUILD_MEMBERS, INVALID_SESSION = 6, 7, 8, 9
HEARTBEAT_ACK, DISPATCH, REQUEST_SOUNDBOARD_SOUNDS = 11, 0, 31

CLOSE_UNKNOWN_ERROR = 4000
CLOSE_UNKNOWN_OPCODE = 4001
CLOSE_DECODE_ERROR = 4002
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_ALREADY_AUTHENTICATED = 4005
CLOSE_INVALID_SEQ = 4007
CLOSE_INVALID_SHARD = 4010
#: The most shards the fake accepts (Discord's own limit is far higher).
MAX_SHARDS = 64
CLOSE_INVALID_API_VERSION = 4012
CLOSE_INVALID_INTENTS = 4013
CLOSE_DISALLOWED_INTENTS = 4014


class GatewayHost(Protocol):
    """What the gateway needs from the fake Discord that owns it."""

    token: str
    heartbeat_interval_ms: int
    allowed_privileged_intents: int

    @property
    def gateway_url(self) -> str:
        """The websocket URL (also sent as ``resume_gateway_url``)."""
        ...

    def ready_payload(self, session: GatewaySession) -> JSON:
        """READY's data for a new session."""
        ...

    def guild_create_payloads(self, session: GatewaySession) -> list[JSON]:
        """GUILD_CREATE data for each guild, as the session's intents allow."""
        ...

    def member_chunk(self, session: GatewaySession, request: JSON) -> JSON:
        """The GUILD_MEMBERS_CHUNK answering a REQUEST_GUILD_MEMBERS."""
        ...

    def gateway_changed(self) -> None:
        """Something happened on the gateway; wake waiting tests."""
        ...


@dataclass
class GatewayFrame:
    """A payload the client sent over the gateway."""

    op: int
    data: Any
    at: float = field(default_factory=time.monotonic)


class GatewayConnection:
    """One websocket; writes happen in order on a single writer task."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: bool) -> None:
        self.ws = ws
        self.session: GatewaySession | None = None
        self.heartbeats = 0
        self.close_code: int | None = None
        self._compressor = zlib.compressobj() if compress else None
        self._queue: asyncio.Queue[tuple[str, GatewaySession | None, int] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop(), name="fake-gateway-writer")

    @property
    def compressed(self) -> bool:
        """Whether this socket speaks ``zlib-stream`` (what discord.py asks for)."""
        return self._compressor is not None

    def send(self, payload: JSON, *, session: GatewaySession | None = None, seq: int = 0) -> None:
        """Queue a payload; ``session``/``seq`` mark a dispatch as delivered once written."""
        self._queue.put_nowait((json.dumps(payload), session, seq))

    async def _write_loop(self) -> None:
        while (item := await self._queue.get()) is not None:
            text, session, seq = item
            try:
                if self._compressor is not None:
                    frame = self._compressor.compress(text.encode())
                    frame += self._compressor.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return
            if session is not None:
                session.mark_delivered(seq)

    async def close(self, code: int, reason: str = "") -> None:
        """Send what is queued, then close the socket with ``code``."""
        self.close_code = code
        self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self._writer
        await self.ws.close(code=code, message=reason.encode())

    async def abandon(self) -> None:
        """Stop writing (the socket is already gone)."""
        self._writer.cancel()
        with contextlib.suppress(BaseException):
            await self._writer


class GatewaySession:
    """A gateway session: its sequence numbers and every event dispatched in it."""

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] = (0, 1)) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.events: list[tuple[int, JSON]] = []
        self.connection: GatewayConnection | None = None
        self.resumes = 0
        self.invalidated = False
        self.presence: JSON | None = None
        self._delivered: dict[int, tuple[asyncio.Future[None], Callable[[], None] | None]] = {}

    def owns(self, guild_id: int) -> bool:
        """Whether this session's shard receives ``guild_id``'s events: Discord's formula,
        ``shard_id = (guild_id >> 22) % num_shards``."""
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    @property
    def connected(self) -> bool:
        """Whether a websocket is attached right now."""
        return self.connection is not None

    def dispatch(
        self, event: str, data: JSON, *, on_delivered: Callable[[], None] | None = None
    ) -> asyncio.Future[None]:
        """Send a DISPATCH event now (or on RESUME); the future resolves once written.

        ``on_delivered`` runs right after the write, before the client can have read it.
        """
        self.seq += 1
        payload: JSON = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.events.append((self.seq, payload))
        delivered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._delivered[self.seq] = (delivered, on_delivered)
        if self.connection is not None:
            self.connection.send(payload, session=self, seq=self.seq)
        return delivered

    def mark_delivered(self, seq: int) -> None:
        """The event with ``seq`` reached the client's socket."""
        entry = self._delivered.pop(seq, None)
        if entry is None:
            return
        delivered, on_delivered = entry
        if on_delivered is not None:
            on_delivered()
        if not delivered.done():
            delivered.set_result(None)

    def attach(self, connection: GatewayConnection, *, after_seq: int) -> None:
        """Bind a websocket and replay every event after ``after_seq``."""
        self.connection = connection
        connection.session = self
        for seq, payload in self.events:
            if seq > after_seq:
                connection.send(payload, session=self, seq=seq)


class GatewayServer:
    """Accepts gateway websockets for a :class:`GatewayHost`."""

    def __init__(self, host: GatewayHost) -> None:
        self.host = host
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.received: list[GatewayFrame] = []
        self.identifies = 0
        self.down = False
        """While True (an outage), connections are answered 503 before any websocket."""
        self.refused = 0

    @property
    def session(self) -> GatewaySession | None:
        """The newest live session (the bot's), if any."""
        live = [s for s in self.sessions.values() if not s.invalidated]
        return live[-1] if live else None

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The newest live session of the shard that receives ``guild_id``'s events (of
        any shard for a DM, ``None``)."""
        if guild_id is None:
            return self.session
        live = [s for s in self.sessions.values() if not s.invalidated and s.owns(guild_id)]
        return live[-1] if live else None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """The websocket endpoint."""
        if self.down:
            self.refused += 1
            raise web.HTTPServiceUnavailable(text="Discord is unavailable (a test outage).")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = GatewayConnection(ws, compress=request.query.get("compress") == "zlib-stream")
        self.connections.append(connection)
        connection.send(
            {
                "op": HELLO,
                "d": {"heartbeat_interval": self.host.heartbeat_interval_ms, "_trace": ["fake"]},
                "s": None,
                "t": None,
            }
        )
        if request.query.get("v", "10") not in ("9", "10"):
            await connection.close(CLOSE_INVALID_API_VERSION, "Invalid API version")
            return ws
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    await connection.close(CLOSE_DECODE_ERROR, "Decode error")
                    break
                try:
                    payload = json.loads(message.data)
                except ValueError:
                    await connection.close(CLOSE_DECODE_ERROR, "Decode error")
                    break
                await self._on_payload(connection, payload)
                if connection.close_code is not None:
                    break
        finally:
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            if connection.close_code is None:
                await connection.abandon()
            self.host.gateway_changed()
        return ws

    async def _on_payload(self, connection: GatewayConnection, payload: JSON) -> None:
        op = payload.get("op")
        data = payload.get("d")
        self.received.append(GatewayFrame(op if isinstance(op, int) else -1, data))
        if op == HEARTBEAT:
            connection.heartbeats += 1
            connection.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif connection.session is None:
            await connection.close(CLOSE_NOT_AUTHENTICATED, "Not authenticated.")
        elif op == PRESENCE_UPDATE:
            connection.session.presence = data
        elif op == REQUEST_GUILD_MEMBERS:
            connection.session.dispatch(
                "GUILD_MEMBERS_CHUNK", self.host.member_chunk(connection.session, data or {})
            )
        elif op in (VOICE_STATE_UPDATE, REQUEST_SOUNDBOARD_SOUNDS):
            pass  # accepted and ignored: the fake has no voice or soundboard
        else:
            await connection.close(CLOSE_UNKNOWN_OPCODE, "Unknown opcode.")
        self.host.gateway_changed()

    async def _identify(self, connection: GatewayConnection, data: JSON) -> None:
        if connection.session is not None:
            await connection.close(CLOSE_ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if data.get("token") != self.host.token:
            await connection.close(CLOSE_AUTHENTICATION_FAILED, "Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents >= 1 << 26:
            await connection.close(CLOSE_INVALID_INTENTS, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self.host.allowed_privileged_intents:
            await connection.close(CLOSE_DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        shard = data.get("shard", [0, 1])
        if (
            not isinstance(shard, list)
            or len(shard) != 2
            or not all(isinstance(n, int) for n in shard)
            or not 0 <= shard[0] < shard[1] <= MAX_SHARDS
        ):
            await connection.close(CLOSE_INVALID_SHARD, "Invalid shard.")
            return
        self.identifies += 1
        session = GatewaySession(secrets.token_hex(16), intents, (shard[0], shard[1]))
        self.sessions[session.id] = session
        session.attach(connection, after_seq=0)
        session.dispatch("READY", self.host.ready_payload(session))
        for guild in self.host.guild_create_payloads(session):
            session.dispatch("GUILD_CREATE", guild)

    async def _resume(self, connection: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalidated or data.get("token") != self.host.token:
            connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        seq = data.get("seq") or 0
        if not isinstance(seq, int) or seq > session.seq:
            await connection.close(CLOSE_INVALID_SEQ, "Invalid seq.")
            return
        previous = session.connection
        if previous is not None and previous is not connection:
            await previous.close(CLOSE_UNKNOWN_ERROR, "Resumed elsewhere.")
        session.attach(connection, after_seq=seq)
        session.resumes += 1
        session.dispatch("RESUMED", {"_trace": ["fake"]})

    async def request_reconnect(self) -> None:
        """Send RECONNECT (op 7) on the live session; the client should RESUME."""
        session = self._live_session()
        assert session.connection is not None
        session.connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def drop(self, code: int = CLOSE_UNKNOWN_ERROR) -> None:
        """Close the live session's socket with ``code`` (4000 lets the client resume)."""
        session = self._live_session()
        assert session.connection is not None
        connection, session.connection = session.connection, None
        await connection.close(code, "Dropped by the test.")

    async def invalidate(self) -> None:
        """Send INVALID_SESSION (not resumable): the client must IDENTIFY again."""
        session = self._live_session()
        session.invalidated = True
        assert session.connection is not None
        session.connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})

    def _live_session(self) -> GatewaySession:
        session = self.session
        if session is None or session.connection is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        return session

    async def close_all(self) -> None:
        """Close every socket (server shutdown)."""
        for connection in self.connections:
            if not connection.ws.closed:
                with contextlib.suppress(Exception):
                    await connection.close(1001, "Fake Discord shutting down.")

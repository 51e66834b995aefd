"""The gateway: the websocket endpoint, sessions, sequence numbers, and the RESUME replay buffer.

One session is what Discord keeps per IDENTIFY. The websocket under it can drop and be
replaced by a RESUME; events dispatched meanwhile wait in the buffer and are replayed,
so an interaction sent during a reconnect still reaches the bot, as on Discord.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# Opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, VOICE_STATE_UPDATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_GUILD_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Intents the fake looks at.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


@dataclass(eq=False)
class Connection:
    """One websocket; sends are serialised so frames never interleave.

    With `?compress=zlib-stream` (what discord.py asks for unless zstandard is installed)
    every frame is one shared zlib stream, each message ending in Z_SYNC_FLUSH, exactly as
    Discord sends it. Any other compression request gets plain JSON text frames, which
    discord.py also accepts (it only decompresses binary frames).
    """

    ws: web.WebSocketResponse
    query: dict[str, str]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed_by_server: bool = False
    compressor: "zlib._Compress | None" = None

    @classmethod
    def open(cls, ws: web.WebSocketResponse, query: dict[str, str], *, honor_compression: bool) -> Connection:
        compressor = zlib.compressobj() if honor_compression and query.get("compress") == "zlib-stream" else None
        return cls(ws, query, compressor=compressor)

    async def send(self, frame: str) -> bool:
        if self.ws.closed:
            return False
        try:
            if self.compressor is not None:
                data = self.compressor.compress(frame.encode()) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(frame)
        except (ConnectionError, RuntimeError):
            return False
        return True


@dataclass(eq=False)
class GatewaySession:
    session_id: str
    intents: int
    shard: tuple[int, int]
    identified_at: float
    connection: Connection | None = None
    seq: int = 0
    ready: bool = False
    alive: bool = True
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=5000))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    events_sent: int = 0

    @property
    def connected(self) -> bool:
        return self.connection is not None and not self.connection.ws.closed

    def has(self, intent: int) -> bool:
        return bool(self.intents & intent)

    def serves(self, guild_id: int) -> bool:
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    async def dispatch(self, event: str, data: Any) -> None:
        async with self.lock:
            self.seq += 1
            frame = dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
            self.buffer.append((self.seq, frame))
            self.events_sent += 1
            if self.connection is not None:
                await self.connection.send(frame)

    async def attach(self, connection: Connection, after_seq: int | None) -> None:
        """RESUME: take over the new socket and replay what it missed."""
        async with self.lock:
            self.connection = connection
            for seq, frame in list(self.buffer):
                if after_seq is None or seq > after_seq:
                    await connection.send(frame)


class GatewayServer:
    """Mixed into FakeDiscord: the websocket endpoint, IDENTIFY, RESUME and member chunks."""

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_refused:  # Discord's gateway is down: no websocket opens until it is back
            self.gateway_queries.append(dict(request.query))
            return web.Response(status=503, text="503 Service Unavailable")
        ws = web.WebSocketResponse(autoping=True, compress=False, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection.open(ws, dict(request.query), honor_compression=self.honor_compression)
        self._connections.add(connection)
        self.gateway_queries.append(dict(request.query))
        session: GatewaySession | None = None
        try:
            await connection.send(dumps({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                                         "s": None, "t": None}))
            async for msg in ws:
                if msg.type.name != "TEXT":
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    self.heartbeats += 1
                    async with (session.lock if session else connection.lock):
                        await connection.send(dumps({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None}))
                elif op == IDENTIFY:
                    session = await self._identify(connection, data)
                    if session is None:
                        break
                elif op == RESUME:
                    session = await self._resume(connection, data)
                elif op == REQUEST_GUILD_MEMBERS and session is not None:
                    await self._members_chunk(session, data)
        finally:
            self._connections.discard(connection)
            if session is not None and session.connection is connection:
                session.connection = None
                if ws.close_code in (1000, 1001) and not connection.closed_by_server:
                    session.alive = False  # a clean close from the client ends the session
            self._notify()
        return ws

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> GatewaySession | None:
        if data.get("token") != self.token:
            self._violate("unauthorized", 0, 4004, "Authentication failed.", "IDENTIFY")
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard") or [0, 1]
        if (not isinstance(shard, list) or len(shard) != 2 or not all(isinstance(n, int) for n in shard)
                or not 0 <= shard[0] < shard[1]):
            self._violate("invalid_shard", 0, 4010, "Invalid shard.", "IDENTIFY", f"shard {shard!r}")
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = GatewaySession(secrets.token_hex(16), int(data.get("intents", 0)), (int(shard[0]), int(shard[1])),
                                 identified_at=time.monotonic(), connection=connection)
        self.sessions[session.session_id] = session
        self.identify_count += 1
        guilds = [g for g in self.guilds.values() if session.serves(g.id)]
        await session.dispatch("READY", {
            "v": 10,
            "user": self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": list(session.shard),
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        })
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.payload())
        session.ready = True
        self._notify()
        return session

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or not session.alive or data.get("token") != self.token:
            await connection.send(dumps({"op": INVALID_SESSION, "d": False, "s": None, "t": None}))
            return None
        await session.attach(connection, data.get("seq"))
        await session.dispatch("RESUMED", {})
        self._notify()
        return session

    async def _members_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.name.startswith(data["query"])]
        await session.dispatch("GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": data.get("nonce"),
        })

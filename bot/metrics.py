"""What the bot is doing, for its host: Prometheus metrics on METRICS_PORT (opt in), and a health
file that `python -m bot health` reads (TONK_HEALTH_FILE; the Dockerfile's HEALTHCHECK).

The metrics are prometheus-client's, in a registry of their own, served by its own HTTP server (a
thread). What the event loop knows (tables by status, gateway latency, the loop's lag) is sampled
into gauges once a second by a task on the loop, so a scrape never reads the loop's data from its
thread. Clicks, requests to Discord (an aiohttp trace on discord.py's session: every attempt,
429s and 5xx included), database statements (SQLAlchemy's cursor events), finished hands and
picture renders are counted where they happen. With METRICS_PORT unset nothing is installed and
every call here returns at once.

Names and labels (docs/grafana-tonk.json draws them):
- tonk_clicks_total{shard, verb, outcome}: outcome "ok", "refused" (a refusal the player is shown),
  "error" (a fault, logged);
- tonk_click_ack_seconds{shard}: from the click's arrival to Discord's answer to its
  acknowledgement (the first callback);
- tonk_tables{status}: the open tables this process drives, by status;
- tonk_hands_finished_total{shard};
- tonk_discord_requests_total{method, route, status}, tonk_discord_request_seconds{method, route},
  tonk_discord_rate_limited_total{route} (429s) and tonk_discord_server_errors_total{route} (5xx);
- tonk_gateway_latency_seconds{shard}; tonk_event_loop_lag_seconds (histogram) and
  tonk_event_loop_lag_last_seconds;
- tonk_db_statement_seconds{statement}: SELECT, INSERT, UPDATE, DELETE or OTHER;
- tonk_picture_render_seconds{kind}: table, hand, chart (only drawings, not the cache's hits).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SAMPLE_SECONDS = 1.0
HEALTH_SECONDS = 10.0
"""How often the health file is written; `python -m bot health` calls a file older than
HEALTH_STALE seconds a stopped event loop."""
HEALTH_STALE = 45.0
PENDING_CLICKS = 10_000
"""Interactions awaiting their acknowledgement that are remembered (the oldest are forgotten)."""

_API = re.compile(r"/api/v\d+(/.*)$")
_TOKENED = re.compile(r"^/(interactions|webhooks)/(\d+)/[^/]+")
_ID = re.compile(r"/\d{2,}(?=/|$)")


def route_of(path: str) -> str | None:
    """A request's route as Discord's rate limits see it: ids and tokens out ("/channels/{id}/messages/{id}");
    None for anything that is not the HTTP API (the gateway, attachments)."""
    match = _API.search(path)
    if match is None:
        return None
    route = _TOKENED.sub(r"/\1/{id}/{token}", match.group(1))
    return _ID.sub("/{id}", route)


class Metrics:
    """The bot's metrics; `enabled` once `install` has run (METRICS_PORT set)."""

    def __init__(self) -> None:
        self.enabled = False
        self.registry = CollectorRegistry()
        r = self.registry
        self.clicks = Counter("tonk_clicks", "Clicks on the bot's buttons and menus", ["shard", "verb", "outcome"],
                              registry=r)
        self.ack = Histogram("tonk_click_ack_seconds", "From a click's arrival to Discord's answer to its acknowledgement",
                             ["shard"], buckets=LATENCY_BUCKETS, registry=r)
        self.tables = Gauge("tonk_tables", "Open tables this process drives, by status", ["status"], registry=r)
        self.hands = Counter("tonk_hands_finished", "Hands finished and written to the ledger", ["shard"], registry=r)
        self.requests = Counter("tonk_discord_requests", "Requests to Discord's HTTP API (every attempt)",
                                ["method", "route", "status"], registry=r)
        self.request_seconds = Histogram("tonk_discord_request_seconds", "Time Discord took to answer a request",
                                         ["method", "route"], buckets=LATENCY_BUCKETS, registry=r)
        self.rate_limited = Counter("tonk_discord_rate_limited", "Requests Discord answered with 429 Too Many Requests",
                                    ["route"], registry=r)
        self.server_errors = Counter("tonk_discord_server_errors", "Requests Discord answered with a 5xx status",
                                     ["route"], registry=r)
        self.gateway = Gauge("tonk_gateway_latency_seconds", "Gateway heartbeat latency", ["shard"], registry=r)
        self.loop_lag = Histogram("tonk_event_loop_lag_seconds", "How late the event loop ran a timer due now",
                                  buckets=FAST_BUCKETS, registry=r)
        self.loop_lag_last = Gauge("tonk_event_loop_lag_last_seconds", "The event loop's lag at the last sample",
                                   registry=r)
        self.statements = Histogram("tonk_db_statement_seconds", "Database statement latency", ["statement"],
                                    buckets=FAST_BUCKETS, registry=r)
        self.pictures = Histogram("tonk_picture_render_seconds", "Time to draw a picture (cache misses)", ["kind"],
                                  buckets=FAST_BUCKETS, registry=r)
        self._arrived: OrderedDict[int, tuple[float, str]] = OrderedDict()
        self.port: int | None = None

    # ------------------------------------------------------------------ serving

    def serve(self, port: int, addr: str = "0.0.0.0") -> int:
        """Start the exposition server (GET /metrics); returns the port it listens on (0 picks one)."""
        server, _thread = start_http_server(port, addr=addr, registry=self.registry)
        self.enabled = True
        self.port = server.server_address[1]
        return self.port

    # ------------------------------------------------------------------ events, counted where they happen

    def click_arrived(self, interaction_id: int, shard: int) -> None:
        if not self.enabled:
            return
        arrived = self._arrived
        arrived[interaction_id] = (time.perf_counter(), str(shard))
        if len(arrived) > PENDING_CLICKS:
            arrived.popitem(last=False)

    def click_done(self, shard: int, verb: str, outcome: str) -> None:
        if self.enabled:
            self.clicks.labels(str(shard), verb, outcome).inc()

    def hand_finished(self, shard: int) -> None:
        if self.enabled:
            self.hands.labels(str(shard)).inc()

    def picture(self, kind: str, seconds: float) -> None:
        if self.enabled:
            self.pictures.labels(kind).observe(seconds)

    def request(self, method: str, path: str, status: int, seconds: float) -> None:
        route = route_of(path)
        if route is None:
            return
        self.requests.labels(method, route, str(status)).inc()
        self.request_seconds.labels(method, route).observe(seconds)
        if status == 429:
            self.rate_limited.labels(route).inc()
        elif status >= 500:
            self.server_errors.labels(route).inc()
        if method == "POST" and route == "/interactions/{id}/{token}/callback" and status < 300:
            interaction_id = int(path.rsplit("/interactions/", 1)[1].split("/", 1)[0])
            pending = self._arrived.pop(interaction_id, None)
            if pending is not None:
                self.ack.labels(pending[1]).observe(time.perf_counter() - pending[0])

    # ------------------------------------------------------------------ hooks

    def trace_config(self):
        """An aiohttp TraceConfig for discord.py's session (`Client(http_trace=...)`)."""
        import aiohttp

        trace = aiohttp.TraceConfig()

        async def start(_session, ctx, _params) -> None:
            ctx.started = time.perf_counter()

        async def end(_session, ctx, params) -> None:
            self.request(params.method, params.url.path, params.response.status, time.perf_counter() - ctx.started)

        trace.on_request_start.append(start)
        trace.on_request_end.append(end)
        return trace

    def watch_database(self, sync_engine) -> None:
        """Time every statement on `sync_engine` (an AsyncEngine's `.sync_engine`)."""
        from sqlalchemy import event

        def before(conn, _cursor, _statement, _parameters, _context, _executemany) -> None:
            conn.info.setdefault("tonk_started", []).append(time.perf_counter())

        def after(conn, _cursor, statement, _parameters, _context, _executemany) -> None:
            started = conn.info.get("tonk_started")
            if started:
                kind = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else "OTHER"
                if kind not in ("SELECT", "INSERT", "UPDATE", "DELETE"):
                    kind = "OTHER"
                self.statements.labels(kind).observe(time.perf_counter() - started.pop())

        event.listen(sync_engine, "before_cursor_execute", before)
        event.listen(sync_engine, "after_cursor_execute", after)

    async def sample(self, tables: Callable[[], Iterable[str]], latencies: Callable[[], Iterable[tuple[int, float]]],
                     every: float = SAMPLE_SECONDS) -> None:
        """Forever: the loop's lag, the tables by status and the gateway's latency, every `every` seconds."""
        loop = asyncio.get_running_loop()
        seen: set[str] = set()
        while True:
            due = loop.time() + every
            await asyncio.sleep(every)
            lag = max(0.0, loop.time() - due)
            self.loop_lag.observe(lag)
            self.loop_lag_last.set(lag)
            counts: dict[str, int] = {}
            for status in tables():
                counts[status] = counts.get(status, 0) + 1
            for status in seen - counts.keys():
                self.tables.labels(status).set(0)
            for status, n in counts.items():
                self.tables.labels(status).set(n)
            seen |= counts.keys()
            for shard, latency in latencies():
                if math.isfinite(latency):
                    self.gateway.labels(str(shard)).set(latency)


METRICS = Metrics()


# ---------------------------------------------------------------------- health


async def write_health(path: Path, gateway: Callable[[], bool], database: Callable[[], Any],
                       every: float = HEALTH_SECONDS, wake: asyncio.Event | None = None) -> None:
    """Forever: write what `python -m bot health` checks into `path` (atomically), every `every` seconds,
    and at once when `wake` is set (the gateway connected). `database` is a coroutine function that
    raises when the database does not answer."""
    while True:
        try:
            await asyncio.wait_for(database(), timeout=5.0)
            db_ok, db_error = True, None
        except Exception as exc:  # noqa: BLE001 - reported in the file, not raised
            db_ok, db_error = False, f"{type(exc).__name__}: {exc}"[:200]
        state = {"at": time.time(), "pid": os.getpid(), "gateway": gateway(), "database": db_ok,
                 "database_error": db_error}
        temp = path.with_name(path.name + f".{os.getpid()}.tmp")
        temp.write_text(json.dumps(state), encoding="utf-8")
        os.replace(temp, path)
        if wake is None:
            await asyncio.sleep(every)
            continue
        wake.clear()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(wake.wait(), every)


def check_health(path: str | None, now: float | None = None) -> tuple[bool, str]:
    """Whether the bot that writes `path` is healthy, and one line saying why (`python -m bot health`)."""
    if not path:
        return False, "TONK_HEALTH_FILE is not set: the bot writes its health there (the Dockerfile sets it)."
    try:
        state = json.loads(Path(path).read_text(encoding="utf-8"))
        at = float(state["at"])
    except FileNotFoundError:
        return False, f"no health file at {path} yet: the bot is not running, or still starting."
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"the health file {path} is not the bot's: delete it and restart the bot."
    age = (time.time() if now is None else now) - at
    if age > HEALTH_STALE:
        return False, f"the bot's event loop has not answered for {age:.0f} s (health file {path})."
    if not state.get("database"):
        return False, f"the database does not answer: {state.get('database_error') or 'no reason given'}."
    if not state.get("gateway"):
        return False, "the gateway is not connected: Discord is unreachable, or the bot is reconnecting."
    return True, f"healthy: gateway connected, database answering, event loop answered {age:.0f} s ago."

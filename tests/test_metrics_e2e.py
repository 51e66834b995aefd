"""The host's view: the real bot (`python -m bot`, METRICS_PORT and TONK_HEALTH_FILE set) plays a hand
through the fake Discord while Prometheus's own parser scrapes its metrics, which must agree with
what the fake saw: its clicks, its requests by route and status, its 429s. `python -m bot health`
says healthy while the bot runs and not once it has stopped."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from collections import Counter

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import route_of
from e2e_helpers import bot_env

NAMED = ("tonk_clicks", "tonk_click_ack_seconds", "tonk_tables", "tonk_hands_finished", "tonk_discord_requests",
         "tonk_discord_request_seconds", "tonk_discord_rate_limited", "tonk_discord_server_errors",
         "tonk_gateway_latency_seconds", "tonk_event_loop_lag_seconds", "tonk_event_loop_lag_last_seconds",
         "tonk_db_statement_seconds", "tonk_picture_render_seconds")
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


@pytest.fixture
async def fake_discord(fake_discord_factory):
    # heartbeats every half second (Discord's are 41 s): the gateway's latency is measured at once
    return await fake_discord_factory(heartbeat_interval_ms=500)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _scrape(port: int) -> dict[str, list]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200
        text = await response.text()
    return {family.name: family.samples for family in text_string_to_metric_families(text)}


def _health(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", "health"], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=60)


async def test_metrics_agree_with_what_discord_saw(fake_discord, bot_process, tmp_path):
    from test_bot_e2e import open_table, play_hand, start_table

    fake = fake_discord
    port = _free_port()
    env = {"METRICS_PORT": str(port), "TONK_HEALTH_FILE": str(tmp_path / "health")}
    # a limit the bot is not told of (as Discord's shared limits are): it meets 429s and retries
    fake.rate_limits.set(EDIT, 2, 2.0, hidden=True)
    process = bot_process(env=bot_env(tmp_path, TONK_TABLE_EDIT_INTERVAL="0", **env))
    await process.start()
    await fake.wait_for_commands("tonk")
    table = await open_table(fake)
    await start_table(fake, table)
    await play_hand(fake, table, ["alice", "bob", "carol"])
    await fake.wait_for(lambda: "Next hand" in [b.label for b in table.buttons], what="the showdown")
    # written every 10 s: the first write may come before the gateway's READY
    await fake.wait_for(lambda: (tmp_path / "health").exists() and '"gateway": true' in (tmp_path / "health").read_text(),
                        timeout=30, what="the health file with the gateway connected")

    # the sampler runs every second: a scrape after it shows the table between hands
    metrics: dict[str, list] = {}

    async def settled() -> bool:
        nonlocal metrics
        metrics = await _scrape(port)
        tables = {s.labels["status"]: s.value for s in metrics.get("tonk_tables", [])}
        requests = sum(s.value for s in metrics["tonk_discord_requests"] if s.name.endswith("_total"))
        seen = sum(1 for r in fake.requests if route_of(r.path.split("?")[0]) is not None)
        return tables.get("between_hands") == 1 and requests == seen

    for _ in range(100):
        if await settled():
            break
        await asyncio.sleep(0.1)
    assert set(NAMED) <= set(metrics), f"missing: {set(NAMED) - set(metrics)}"

    # clicks: one per component interaction the fake sent, each acknowledged and timed
    clicks = [i for i in fake.interactions.values() if i.type == 3]
    counted = {(s.labels["verb"], s.labels["outcome"]): s.value for s in metrics["tonk_clicks"]
               if s.name == "tonk_clicks_total"}
    assert sum(counted.values()) == len(clicks) > 10
    assert counted.get(("join", "ok")) == 2 and counted.get(("start", "ok")) == 1
    acks = next(s.value for s in metrics["tonk_click_ack_seconds"] if s.name == "tonk_click_ack_seconds_count")
    assert acks == len(clicks)

    # requests: by route and status, exactly the fake's log
    theirs = Counter((r.method, route_of(r.path.split("?")[0]), str(r.status)) for r in fake.requests
                     if route_of(r.path.split("?")[0]) is not None)
    ours = Counter({(s.labels["method"], s.labels["route"], s.labels["status"]): int(s.value)
                    for s in metrics["tonk_discord_requests"] if s.name.endswith("_total")})
    assert ours == theirs
    assert ours[("PATCH", "/channels/{id}/messages/{id}", "429")] > 0
    hits = len(fake.rate_limit_hits)
    assert hits > 0  # the hidden limit was met
    limited = sum(s.value for s in metrics["tonk_discord_rate_limited"] if s.name.endswith("_total"))
    assert limited == hits
    assert sum(s.value for s in metrics["tonk_discord_server_errors"] if s.name.endswith("_total")) == 0

    finished = sum(s.value for s in metrics["tonk_hands_finished"] if s.name.endswith("_total"))
    assert finished == 1
    statements = {s.labels["statement"] for s in metrics["tonk_db_statement_seconds"] if s.name.endswith("_count")}
    assert {"SELECT", "UPDATE"} <= statements
    assert any(s.value > 0 for s in metrics["tonk_event_loop_lag_seconds"] if s.name.endswith("_count"))
    assert [s for s in metrics["tonk_gateway_latency_seconds"]], "no gateway latency sampled"

    health = _health(env)
    assert health.returncode == 0 and health.stdout.startswith("tonk-bot: healthy"), health
    await process.stop()
    (tmp_path / "health").write_text('{"at": 0, "gateway": true, "database": true}')  # as a hung bot leaves it
    health = _health(env)
    assert health.returncode == 1 and "has not answered" in health.stderr and health.stderr.count("\n") == 1


def test_a_bad_metrics_port_or_no_health_file_is_one_line(tmp_path):
    from bot.config import ConfigError, load_settings

    for bad in ("abc", "70000"):
        with pytest.raises(ConfigError, match="METRICS_PORT"):
            load_settings({"DISCORD_TOKEN": "x.y.z", "METRICS_PORT": bad})
    assert load_settings({"DISCORD_TOKEN": "x.y.z", "METRICS_PORT": "9100"}).metrics_port == 9100
    env = {"TONK_ENV_FILE": str(tmp_path / "none.env"), "TONK_HEALTH_FILE": ""}
    unset = _health(env)
    assert unset.returncode == 1 and unset.stderr.count("\n") == 1 and "TONK_HEALTH_FILE is not set" in unset.stderr
    missing = _health({**env, "TONK_HEALTH_FILE": str(tmp_path / "health")})
    assert missing.returncode == 1 and "not running, or still starting" in missing.stderr
    (tmp_path / "health").write_text("not json")
    broken = _health({**env, "TONK_HEALTH_FILE": str(tmp_path / "health")})
    assert broken.returncode == 1 and broken.stderr.count("\n") == 1 and "is not the bot's" in broken.stderr


def test_the_dashboard_draws_only_metrics_the_bot_serves():
    import json
    from pathlib import Path

    from bot.metrics import Metrics

    dashboard = json.loads((Path(__file__).resolve().parent.parent / "docs/grafana-tonk.json").read_text())
    served = {family.name for family in Metrics().registry.collect()}
    drawn = set()
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            drawn |= {re.sub(r"_(total|bucket|count|sum)$", "", name)
                      for name in re.findall(r"\b(tonk_[a-z_]+)", target["expr"])}
    assert drawn and drawn <= served, drawn - served
    assert set(NAMED) <= drawn | {"tonk_discord_request_seconds", "tonk_event_loop_lag_last_seconds"}

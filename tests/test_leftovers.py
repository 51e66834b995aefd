"""A test run killed midway leaves no bot and no PostgreSQL behind (tests/reaper.py).

Each test here runs pytest on a test that starts the real bot against the fake Discord and a
PostgreSQL server, then waits; once both run, the pytest process (or, under xdist, its
controller) is sent SIGTERM, SIGINT or SIGKILL. Within seconds the bot's process group and the
server must be gone, and the server's folder removed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

INNER = '''
import json, os, asyncio
from pathlib import Path

async def test_waits_with_a_bot_and_a_server(fake_discord, bot_process, postgres_server, tmp_path):
    process = bot_process(env={"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/tonk.db",
                               "TONK_ENV_FILE": str(tmp_path / "no.env")})
    await process.start()
    postmaster = int((postgres_server.data / "postmaster.pid").read_text().split()[0])
    Path(os.environ["LEFTOVERS_REPORT"]).write_text(json.dumps(
        {"bot": process.process.pid, "postgres": postmaster, "folder": str(postgres_server.folder),
         "pytest": os.getpid()}))
    await asyncio.sleep(120)  # killed before this ends
'''


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet reaped by its parent, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def wait_until(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig, workers", [(signal.SIGTERM, 0), (signal.SIGINT, 0), (signal.SIGKILL, 0),
                                          (signal.SIGTERM, 1), (signal.SIGKILL, 1)],
                         ids=["SIGTERM", "SIGINT", "SIGKILL", "SIGTERM-xdist", "SIGKILL-xdist"])
def test_a_killed_test_run_leaves_no_bot_and_no_database(tmp_path, postgres_server, sig, workers):
    # (postgres_server: the inner run needs PostgreSQL; skipped where this machine has none)
    (tmp_path / "test_inner.py").write_text(INNER)
    report = tmp_path / "report.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(LEFTOVERS_REPORT=str(report), PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
               "-o", "asyncio_mode=auto", "-p", "fakediscord.pytest_plugin", "-p", "pgserver",
               "--rootdir", str(tmp_path), *(["-n", str(workers)] if workers else []), "test_inner.py"]
    inner = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        started = wait_until(lambda: report.exists() and report.read_text() and json.loads(report.read_text()),
                             90, "the inner test to start its bot and its server")
        assert alive(started["bot"]) and alive(started["postgres"]) and Path(started["folder"]).is_dir()
        os.kill(inner.pid, sig)
        wait_until(lambda: not alive(started["bot"]), 30, "the bot to be gone")
        wait_until(lambda: not alive(started["postgres"]), 30, "PostgreSQL to be gone")
        wait_until(lambda: not Path(started["folder"]).exists(), 30, "the server's folder to be removed")
        wait_until(lambda: not alive(started["pytest"]), 30, "the test process (the xdist worker) to end")
    finally:
        if inner.poll() is None:
            os.killpg(inner.pid, signal.SIGKILL)
        inner.wait()

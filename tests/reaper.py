"""Nothing the tests start outlives them: a watcher process that stops what they leave behind.

The bot processes the tests start run in their own process group, and PostgreSQL servers in
their own folders; each is told to a watcher (`watch_group`, `watch_postgres`), a small process
of its own session that waits on a pipe from the test process. A test that ends stops what it
started and says so (`forget_group`, `forget_postgres`). When the test process ends in any way
(done, SIGTERM, SIGINT, SIGKILL, an xdist worker killed by its controller) the pipe closes, and
the watcher kills each group still told and stops each server (``pg_ctl stop -m immediate``),
removing its folder. The watcher is in a session of its own: a Ctrl+C in the terminal reaches
the tests, not it.

A process group is killed only while it is the one told: its leader, if still alive, must be the
process that started then (its start time in /proc), so a group id the system gave again to
another process is left alone.

`python tests/reaper.py` is the watcher itself (one per test process, started on first use).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import threading

_watcher: subprocess.Popen | None = None
_lock = threading.Lock()


def _start_time(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot, from /proc), or None: no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode(errors="replace")
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


def _send(message: dict) -> None:
    global _watcher
    with _lock:
        if _watcher is None or _watcher.poll() is not None:
            _watcher = subprocess.Popen([sys.executable, os.path.abspath(__file__)], stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True, close_fds=True)
            atexit.register(_close)
        assert _watcher.stdin is not None
        _watcher.stdin.write((json.dumps(message) + "\n").encode())
        _watcher.stdin.flush()


def _close() -> None:
    """At a normal exit: the watcher stops what is left (and exits) once the pipe closes."""
    watcher = _watcher
    if watcher is not None and watcher.stdin is not None:
        try:
            watcher.stdin.close()
        except OSError:
            pass


def watch_group(pgid: int) -> None:
    """Kill process group `pgid` (led by process `pgid`) if the tests end before `forget_group`."""
    _send({"group": pgid, "start": _start_time(pgid)})


def forget_group(pgid: int) -> None:
    _send({"forget_group": pgid})


def watch_postgres(stop: list[str], folder: str) -> None:
    """Run `stop` (pg_ctl ... stop) and remove `folder` if the tests end before `forget_postgres`."""
    _send({"postgres": folder, "stop": stop})


def forget_postgres(folder: str) -> None:
    _send({"forget_postgres": folder})


def kill_group(pgid: int, start: str | None) -> None:
    """SIGKILL the group `pgid` unless its id now belongs to another process's group."""
    leader = _start_time(pgid)
    if leader is not None and start is not None and leader != start:
        return  # the leader's id was given again: not our group
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _watch() -> None:
    """The watcher: read what to stop until the pipe closes, then stop what is still told."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    groups: dict[int, str | None] = {}
    servers: dict[str, list[str]] = {}

    def clean(*_: object) -> None:
        for pgid, start in groups.items():
            kill_group(pgid, start)
        for folder, stop in servers.items():
            try:
                subprocess.run(stop, capture_output=True, timeout=60)
            except (OSError, subprocess.SubprocessError):
                pass
            shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, clean)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "group" in message:
            groups[message["group"]] = message["start"]
        elif "forget_group" in message:
            groups.pop(message["forget_group"], None)
        elif "postgres" in message:
            servers[message["postgres"]] = message["stop"]
        elif "forget_postgres" in message:
            servers.pop(message["forget_postgres"], None)
    clean()


if __name__ == "__main__":
    _watch()

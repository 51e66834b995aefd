"""A PostgreSQL server for the test session, from the system's ``initdb``/``pg_ctl``.

``postgres_server`` (session scope) runs ``initdb`` in a fresh temporary folder and
starts the server on a free port of 127.0.0.1 with trust authentication; it is
stopped when the session ends. ``new_postgres_url()`` creates an empty database
on it for one test. PostgreSQL refuses to run as root: as root, the folder is
given to the ``postgres`` user and the commands run through ``runuser``.

No PostgreSQL on this machine: the tests that need it are skipped with the
reason, except in CI (``CI=true``), where ``.ci/run`` installs it and its
absence is an error.

Under pytest-xdist each worker starts a server of its own (its own folder and port). Every
server started here is told to tests/reaper.py's watcher: stopped, and its folder removed, even
when the test process is killed before it could stop it.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

import reaper

USER = "tonk"


def find_pg_bin() -> Path | None:
    """The folder of ``pg_ctl``: $TONK_PG_BIN, PATH, or Debian's /usr/lib/postgresql/<version>/bin."""
    configured = os.environ.get("TONK_PG_BIN")
    if configured:
        return Path(configured)
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).resolve().parent  # Debian links it from /usr/lib/postgresql/<version>/bin
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class PostgresServer:
    bin: Path
    folder: Path
    port: int
    as_user: list[str]

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, capture_output=True, text=True)

    def start(self, settings: str = "-c fsync=off") -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=300 {settings}"
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def stop_command(self) -> list[str]:
        return [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"]

    def stop(self) -> None:
        subprocess.run(self.stop_command(), capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)
        reaper.forget_postgres(str(self.folder))

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """An empty database of its own; its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        subprocess.run([str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, "-d", "postgres",
                        "-q", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
        return self.url(name)


class PostgresMissing(RuntimeError):
    """No PostgreSQL binaries on this machine."""


def start_server(settings: str = "-c fsync=off") -> PostgresServer:
    """A new server in a temporary folder, started; stop it with ``stop()`` (also used by scripts/)."""
    bin_dir = find_pg_bin()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        raise PostgresMissing("PostgreSQL is not installed (no pg_ctl/initdb); apt-get install postgresql")
    folder = Path(tempfile.mkdtemp(prefix="tonk-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    server = PostgresServer(bin_dir, folder, free_port(), as_user)
    reaper.watch_postgres(server.stop_command(), str(folder))
    try:
        server.run("initdb", "-D", str(server.data), "-A", "trust", "-U", USER, "--no-sync", "-E", "UTF8")
        for attempt in range(3):
            try:
                server.start(settings)
                break
            except subprocess.CalledProcessError:
                # another process (an xdist worker's server) took the port between free_port() and the start
                if attempt == 2:
                    raise
                server.port = free_port()
    except BaseException:
        server.stop()
        raise
    return server


@pytest.fixture(scope="session")
def postgres_server():
    try:
        server = start_server()
    except PostgresMissing as missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{missing}: CI must run the PostgreSQL tests", pytrace=False)
        pytest.skip(str(missing))
    try:
        yield server
    finally:
        server.stop()


BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path) -> str:
    """A URL of an empty database on each backend: a new SQLite file, a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tonk.db'}"
    return request.getfixturevalue("postgres_server").new_database()

"""`python -m bot` with a database it cannot use: one line naming it and what to do, exit 2, nothing changed."""

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from pgserver import free_port

from bot.store.sqlite import SCHEMA_VERSION_DDL, V1_DDL

ROOT = Path(__file__).resolve().parents[1]


def start_bot(tmp_path, database_url, *, pythonpath=None):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "DATABASE_", "TONK_"))}
    env.update(
        DISCORD_TOKEN="fake.token.for-tests",
        DATABASE_URL=database_url,
        TONK_ENV_FILE=str(tmp_path / "no.env"),
        # Never Discord: the database fails first, and nothing listens here anyway.
        DISCORD_API_BASE=f"http://127.0.0.1:{free_port()}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{free_port()}/",
        PYTHONPATH=os.pathsep.join(filter(None, [pythonpath, str(ROOT)])),
    )
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)


def assert_one_line(result, *needles):
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    [line] = lines
    assert line.startswith("tonk-bot: ")
    for needle in needles:
        assert needle in line, line
    assert result.stdout == ""
    return line


def snapshot(folder: Path):
    """Every file of the folder with its bytes' hash and mode: what 'nothing changed' compares."""
    return {
        path.name: (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mode)
        for path in sorted(folder.iterdir()) if path.is_file()
    }


def sqlite_url(path):
    return f"sqlite+aiosqlite:///{path}"


@pytest.mark.parametrize(
    "url, needles",
    [
        ("mysql+aiomysql://tonk@localhost/tonk", ["DATABASE_URL", "'mysql'", "SQLite or PostgreSQL"]),
        ("nosuchdb://x/y", ["DATABASE_URL", "'nosuchdb'"]),
        ("sqlite:///data/tonk.db", ["DATABASE_URL", "'pysqlite'", "sqlite+aiosqlite://"]),
        ("postgresql+psycopg2://tonk@localhost/tonk", ["DATABASE_URL", "'psycopg2'", "postgresql+asyncpg://"]),
    ],
)
def test_an_unknown_database_or_driver_is_named(tmp_path, url, needles):
    assert_one_line(start_bot(tmp_path, url), *needles)
    assert list(tmp_path.iterdir()) == []  # not even the data folder


def test_a_missing_driver_package_says_what_to_install(tmp_path):
    blocked = tmp_path / "blocked"
    (blocked / "asyncpg").mkdir(parents=True)
    (blocked / "asyncpg" / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'asyncpg'\")\n")
    result = start_bot(tmp_path, "postgresql+asyncpg://tonk@127.0.0.1/tonk", pythonpath=str(blocked))
    assert_one_line(result, "DATABASE_URL", "'asyncpg'", "pip install asyncpg")


def test_an_unreachable_server_is_named_without_its_password(tmp_path):
    url = f"postgresql+asyncpg://tonk:s3cret@127.0.0.1:{free_port()}/tonk"
    line = assert_one_line(start_bot(tmp_path, url), "127.0.0.1", "check that the server runs")
    assert "s3cret" not in line


def test_a_missing_postgresql_database_is_named(tmp_path, postgres_server):
    url = postgres_server.url("no_such_database")
    assert_one_line(start_bot(tmp_path, url), "no_such_database", "database name")


def write_foreign(path):
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    connection.execute("INSERT INTO notes (text) VALUES ('my shopping list')")
    connection.commit()
    connection.close()


def write_newer(path):
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
    connection.execute("INSERT INTO alembic_version VALUES ('99')")
    connection.commit()
    connection.close()


def write_legacy_newer(path):
    connection = sqlite3.connect(path)
    connection.execute(SCHEMA_VERSION_DDL)
    for statement in V1_DDL:
        connection.execute(statement)
    connection.execute("INSERT INTO schema_version VALUES (7, 'future', '2030-01-01 00:00:00')")
    connection.commit()
    connection.close()


@pytest.mark.parametrize(
    "make, needles",
    [
        (lambda path: path.write_bytes(os.urandom(4096)), ["not a SQLite database", "backup"]),
        (lambda path: path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4080), ["cannot be read", "backup"]),
        (write_foreign, ["another program", "new file name"]),
        (write_newer, ["version 99", "Upgrade the bot"]),
        (write_legacy_newer, ["version 7", "Upgrade the bot"]),
    ],
    ids=["random-bytes", "corrupt-sqlite", "foreign", "newer", "newer-legacy"],
)
def test_a_sqlite_file_the_bot_must_not_open_is_left_as_it_was(tmp_path, make, needles):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "tonk.db"
    make(path)
    before = snapshot(folder)
    assert_one_line(start_bot(tmp_path, sqlite_url(path)), str(path), *needles)
    assert snapshot(folder) == before  # same bytes, no -wal or -shm beside it


def test_a_read_only_database_file_is_refused_unchanged(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "tonk.db"
    subprocess.run([sys.executable, "-c", f"import asyncio, bot.store as s; asyncio.run(s.migrate(s.create_engine({sqlite_url(path)!r})))"],
                   check=True, cwd=ROOT)
    for extra in folder.glob("tonk.db-*"):
        extra.unlink()
    path.chmod(0o444)
    before = snapshot(folder)
    assert_one_line(start_bot(tmp_path, sqlite_url(path)), str(path), "read-only", "chmod")
    assert snapshot(folder) == before


def test_an_unwritable_folder_is_refused(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert_one_line(start_bot(tmp_path, sqlite_url(folder / "tonk.db")), str(folder), "not writable")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_folder_that_cannot_be_created_is_refused(tmp_path):
    (tmp_path / "plain-file").write_text("not a folder")
    path = tmp_path / "plain-file" / "data" / "tonk.db"
    assert_one_line(start_bot(tmp_path, sqlite_url(path)), str(path.parent), "cannot create the folder")
    assert (tmp_path / "plain-file").read_text() == "not a folder"


def test_a_newer_postgresql_schema_is_refused_unchanged(tmp_path, postgres_server):
    import asyncio

    from bot.store import open_database

    url = postgres_server.new_database()

    async def prepare():
        async with await open_database(url) as database, database.engine.begin() as connection:
            await connection.exec_driver_sql("UPDATE alembic_version SET version_num = '99'")

    asyncio.run(prepare())
    assert_one_line(start_bot(tmp_path, url), "127.0.0.1", "version 99", "Upgrade the bot")


def test_an_unreachable_discord_is_one_line_not_a_traceback(tmp_path):
    # the database opens; logging in finds nothing listening at DISCORD_API_BASE
    result = start_bot(tmp_path, sqlite_url(tmp_path / "tonk.db"))
    assert result.returncode == 3, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    [last] = result.stderr.strip().splitlines()  # one line: not after the INFO lines of the steps before
    assert last.startswith("tonk-bot: cannot reach Discord at http://127.0.0.1:"), last
    assert "check this machine's network" in last


def test_the_start_up_log_is_held_until_login_then_passes_through_in_order():
    import logging

    from bot.__main__ import StartupLog

    written = []

    class Target(logging.Handler):
        def emit(self, record):
            written.append(record.getMessage())

    def record(message):
        return logging.LogRecord("bot", logging.INFO, __file__, 1, message, (), None)

    held = StartupLog(Target())
    held.handle(record("database: opened"))
    held.handle(record("logging in"))
    assert written == []  # nothing yet: the token may still be refused
    held.pass_through()
    held.handle(record("connected"))
    assert written == ["database: opened", "logging in", "connected"]
    written.clear()
    refused = StartupLog(Target())
    refused.handle(record("logging in"))
    refused.drop()  # the refusal's one line says it all
    refused.pass_through()
    assert written == []
    refused.handle(record("closing"))
    assert written == ["closing"]

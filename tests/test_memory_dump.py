"""The bot's memory snapshots (TONK_MEMORY_DUMP, on SIGUSR1) and scripts/memory_diff.py, which
says where memory went between two of them."""

import importlib.util
import os
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path

from bot.__main__ import MemoryDump

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "memory_diff.py"
spec = importlib.util.spec_from_file_location("memory_diff", SCRIPT)
memory_diff = importlib.util.module_from_spec(spec)
spec.loader.exec_module(memory_diff)


def test_two_snapshots_show_what_grew_between_them_and_where(tmp_path):
    dump = MemoryDump(str(tmp_path / "mem"), frames=4)
    try:
        dump.save("before")
        kept = [bytearray(1000) for _ in range(300)]  # about 300 KiB, from this line
        dump.save("after")
    finally:
        tracemalloc.stop()
    old, new = (tracemalloc.Snapshot.load(str(tmp_path / f"mem.{n}")) for n in (1, 2))
    text = memory_diff.report(old, new, top=1, key="traceback", frames=1)
    biggest, where = text.splitlines()[1:3]
    assert 290 <= float(biggest.split()[0]) < 400, text
    assert "test_memory_dump.py" in where and len(kept) == 300


def test_memory_diff_says_in_one_line_when_a_snapshot_cannot_be_read(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "none.1"), str(tmp_path / "none.2")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("memory_diff: cannot read the snapshots") and len(done.stderr.splitlines()) == 1



def test_a_malformed_frame_count_stops_the_bot_with_one_line(tmp_path):
    from test_startup_errors import ROOT, assert_one_line

    env = {key: value for key, value in os.environ.items() if not key.startswith(("DISCORD_", "DATABASE_", "TONK_"))}
    env.update(DISCORD_TOKEN="fake.token.for-tests", DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/tonk.db",
               TONK_ENV_FILE=str(tmp_path / "no.env"), TONK_MEMORY_DUMP=str(tmp_path / "mem"),
               TONK_MEMORY_FRAMES="deep", PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=60)
    assert_one_line(result, "TONK_MEMORY_FRAMES", "'deep'")
    assert not list(tmp_path.glob("mem*")) and not (tmp_path / "tonk.db").exists()


async def test_the_running_bot_saves_a_snapshot_on_sigusr1_and_plays_on(fake_discord, bot_process, tmp_path):
    from e2e_helpers import ack
    from test_bot_e2e import open_table, start_bot

    process = await start_bot(bot_process, tmp_path, TONK_MEMORY_DUMP=str(tmp_path / "mem"), TONK_MEMORY_FRAMES="3")
    process.process.send_signal(signal.SIGUSR1)
    await fake_discord.wait_for(lambda: "memory snapshot" in process.output(), what="the snapshot's log line")
    snapshot = tracemalloc.Snapshot.load(str(tmp_path / "mem.1"))
    assert snapshot.traceback_limit == 3 and any("/bot/" in t.traceback[0].filename for t in snapshot.traces)
    table = await open_table(fake_discord, joiners=("bob",))  # the bot answers as before
    await ack(await fake_discord.click("alice", table.button("Start")))

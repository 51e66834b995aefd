"""The bot's memory snapshots (TONK_MEMORY_DUMP, on SIGUSR1) and scripts/memory_diff.py, which
says where memory went between two of them."""

import importlib.util
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

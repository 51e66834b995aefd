"""The bot's process gives memory freed after a burst of pictures back to the system."""

import platform
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Two buffers of 8 MiB, allocated and freed one after the other, as every picture does on a
# smaller scale, with small objects allocated between that stay. With glibc's defaults the
# first free raises the mmap threshold to 8 MiB, so the second buffer comes from the heap and
# stays in the process once freed; the bot's trim gives it back.
FREED = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[2])
    from bot.__main__ import give_back_freed_memory

    def rss_kib():
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))

    kept = []
    for _ in range(2):
        before = rss_kib()
        block = bytearray(8 << 20)
        block[::4096] = b"x" * len(block[::4096])  # touch every page
        kept.append([object() for _ in range(100)])
        del block
    trimmed = sys.argv[1] == "trimmed" and give_back_freed_memory()
    print(int(trimmed), rss_kib() - before)
""")


def kept_after_free(mode: str) -> tuple[bool, int]:
    out = subprocess.run([sys.executable, "-c", FREED, mode, str(ROOT)], capture_output=True, text=True, check=True)
    trimmed, kept = out.stdout.split()
    return trimmed == "1", int(kept)


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")
def test_memory_freed_after_a_burst_of_pictures_goes_back_to_the_system():
    assert kept_after_free("default") == (False, pytest.approx(8192, abs=1024))  # glibc's default keeps it
    trimmed, kept = kept_after_free("trimmed")
    assert trimmed and kept < 1024


async def test_the_bot_trims_its_memory_while_it_runs(monkeypatch):
    import asyncio

    from bot import __main__ as main

    trims = []
    monkeypatch.setattr(main, "give_back_freed_memory", lambda: trims.append(1) or len(trims) < 3)
    await asyncio.wait_for(main.trim_memory_every(0), 5)  # stops once trimming is not possible
    assert len(trims) == 3


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")
def test_the_c_library_is_looked_up_once_not_at_every_trim(monkeypatch):
    # finding libc runs `ldconfig -p` in a subprocess: every 10 s that stopped the event loop for milliseconds
    import ctypes.util

    from bot import __main__ as main

    looked_up = []
    find = ctypes.util.find_library
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: looked_up.append(name) or find(name))
    main._malloc_trim.cache_clear()
    try:
        assert all(main.give_back_freed_memory() for _ in range(3))
    finally:
        main._malloc_trim.cache_clear()
    assert looked_up == ["c"]

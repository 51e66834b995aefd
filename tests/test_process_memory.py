"""The bot's process gives large freed blocks (a picture's buffers) back to the system."""

import platform
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Two buffers of 8 MiB, allocated and freed one after the other, as every picture does on a
# smaller scale. With glibc's defaults the first free raises the mmap threshold to 8 MiB, so
# the second buffer comes from the heap and stays in the process once freed.
FREED = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[2])
    from bot.__main__ import give_back_freed_memory

    def rss_kib():
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))

    tuned = sys.argv[1] == "tuned" and give_back_freed_memory()
    for _ in range(2):
        before = rss_kib()
        block = bytearray(8 << 20)
        block[::4096] = b"x" * len(block[::4096])  # touch every page
        del block
    print(int(tuned), rss_kib() - before)
""")


def kept_after_free(mode: str) -> tuple[bool, int]:
    out = subprocess.run([sys.executable, "-c", FREED, mode, str(ROOT)], capture_output=True, text=True, check=True)
    tuned, kept = out.stdout.split()
    return tuned == "1", int(kept)


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")
def test_a_freed_picture_buffer_goes_back_to_the_system():
    assert kept_after_free("default") == (False, pytest.approx(8192, abs=1024))  # glibc's default keeps it
    tuned, kept = kept_after_free("tuned")
    assert tuned and kept < 1024

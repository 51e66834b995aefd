"""Where the bot's memory went between two `tracemalloc` snapshots of one run.

The bot saves a snapshot on each SIGUSR1 when started with TONK_MEMORY_DUMP=NAME (NAME.1,
NAME.2, ...; see bot/__main__.py). This prints the allocation sites that grew most from the
first snapshot to the second, each with its traceback (most recent call first):

    TONK_MEMORY_DUMP=/tmp/mem python scripts/bench_discord.py --tables 20 ...  # kill -USR1 <bot pid>, twice
    python scripts/memory_diff.py /tmp/mem.1 /tmp/mem.2 --top 15

Only memory that Python allocates is traced: Pillow's pixel buffers, SQLite's page cache and
the allocator's own slack are not, so RSS may grow by more than the traced total.
"""

from __future__ import annotations

import argparse
import linecache
import sys
import tracemalloc

IGNORED = (
    tracemalloc.Filter(False, tracemalloc.__file__),
    tracemalloc.Filter(False, linecache.__file__),
    tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
    tracemalloc.Filter(False, "<frozen importlib._bootstrap_external>"),
    tracemalloc.Filter(False, "<unknown>"),
)


def report(old: tracemalloc.Snapshot, new: tracemalloc.Snapshot, *, top: int, key: str, frames: int) -> str:
    old, new = old.filter_traces(IGNORED), new.filter_traces(IGNORED)
    total = lambda snapshot: sum(t.size for t in snapshot.traces) / 1024  # noqa: E731
    lines = [f"traced: {total(old):.0f} KiB -> {total(new):.0f} KiB ({total(new) - total(old):+.0f} KiB)"]
    for stat in new.compare_to(old, key)[:top]:
        lines.append(f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  "
                     f"(now {stat.size / 1024:.1f} KiB in {stat.count})")
        lines += [f"      {line}" for line in stat.traceback.format(limit=frames, most_recent_first=True)]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--by", choices=("traceback", "lineno", "filename"), default="traceback")
    parser.add_argument("--frames", type=int, default=6, help="frames shown of each traceback")
    args = parser.parse_args()
    try:
        old, new = tracemalloc.Snapshot.load(args.old), tracemalloc.Snapshot.load(args.new)
    except (OSError, EOFError, ValueError) as exc:
        print(f"memory_diff: cannot read the snapshots: {exc}", file=sys.stderr)
        return 2
    print(report(old, new, top=args.top, key=args.by, frames=args.frames))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run the bot's tests several times, each with its own deal seed, and print one line per run.

The end-to-end tests start the real bot with `TONK_DEAL_SEED` (from `TONK_TEST_DEAL_SEED`,
see tests/e2e_helpers.py), so each run deals different hands: tonks on the deal, early
drops, stock-outs. A test that passes only for some deals shows up here.

    python scripts/run_bot_tests.py                # 10 runs, seeds 1..10
    python scripts/run_bot_tests.py --runs 3 --first-seed 100 -- -x tests/test_bot_e2e.py

Exit status 0 when every run passed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT_TESTS = sorted({"tests/test_service.py", "tests/test_table.py", "tests/test_render.py", "tests/test_live_render.py",
                    "tests/test_stats_e2e.py",
                    *(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_bot_*.py"))})
"""Every test that starts the bot (each tests/test_bot_*.py, found afresh, so a new end-to-end
file is never left out) and the service and rendering tests around it."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="how many runs (default 10)")
    parser.add_argument("--first-seed", type=int, default=1, help="seed of the first run; each run adds 1")
    parser.add_argument("--logs", type=Path, default=Path(tempfile.gettempdir()) / "tonk-bot-tests",
                        help="where a failed run's whole output is kept (default: %(default)s)")
    parser.add_argument("pytest_args", nargs="*", help="instead of the bot's test files (after --)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.first_seed < 0:
        parser.error("--runs must be at least 1 and --first-seed at least 0")
    failed = 0
    for run in range(args.runs):
        seed = args.first_seed + run
        env = dict(os.environ, TONK_TEST_DEAL_SEED=str(seed))
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               *(args.pytest_args or BOT_TESTS)],
                              cwd=ROOT, env=env, capture_output=True, text=True)
        summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
        verdict = "pass" if done.returncode == 0 else "FAIL"
        failed += done.returncode != 0
        print(f"run {run + 1:2}/{args.runs} seed {seed:5}: {verdict} ({time.monotonic() - began:.0f} s) {summary}",
              flush=True)
        if done.returncode != 0:
            failures = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
            for line in failures[:10]:
                print(f"    {line}")
            args.logs.mkdir(parents=True, exist_ok=True)
            log = args.logs / f"seed-{seed}.log"
            log.write_text(done.stdout + done.stderr, encoding="utf-8")
            print(f"    whole output: {log}", flush=True)
    print(f"{args.runs - failed} of {args.runs} runs passed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

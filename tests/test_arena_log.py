"""scripts/arena_log.py: a long arena kept hand by hand, resumed, and split over processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = ("--players", "3", "--seats", "hard,normal,easy", "--preset", "waiting", "--seed", "5")


def arena_log(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "arena_log.py"), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def payments_tables(out: str) -> str:
    """The report without its command line and decision times (which vary run to run)."""
    return out.split("Decision time")[0].split("\n", 1)[1]


def test_a_run_split_over_files_reports_as_the_whole_run(tmp_path):
    whole, first, second = (str(tmp_path / name) for name in ("whole.jsonl", "a.jsonl", "b.jsonl"))
    assert arena_log("run", whole, "--hands", "3", *SETTINGS).returncode == 0
    assert arena_log("run", whole, "--hands", "6", *SETTINGS).returncode == 0  # resumed from hand 3
    assert arena_log("run", first, "--hands", "4", *SETTINGS).returncode == 0
    assert arena_log("run", second, "--first", "4", "--hands", "6", *SETTINGS).returncode == 0
    one, parts = arena_log("report", whole), arena_log("report", first, second)
    assert one.returncode == parts.returncode == 0, one.stderr + parts.stderr
    assert "Paired difference" in one.stdout and "6 hands, 3 players" in one.stdout
    assert payments_tables(parts.stdout) == payments_tables(one.stdout)
    # the same hand twice, or another run's settings, is refused in one line
    twice = arena_log("report", whole, second)
    assert twice.returncode == 2 and "holds hand 4 again" in twice.stderr and "Traceback" not in twice.stderr
    other = str(tmp_path / "other.jsonl")
    assert arena_log("run", other, "--first", "6", "--hands", "7", *SETTINGS[:-1], "6").returncode == 0
    mixed = arena_log("report", whole, other)
    assert mixed.returncode == 2 and "other settings" in mixed.stderr


def test_a_resumed_run_with_session_memory_plays_the_hands_the_whole_run_plays(tmp_path):
    """Hand 4 of a 3-hand session needs what hand 3 taught: a run resumed there plays the
    session's earlier hands again to rebuild the memory, and comes out hand for hand the same."""
    settings = ("--players", "2", "--seats", "expert,hard", "--seed", "3", "--expert-samples", "4", "--session", "3")
    whole, part = str(tmp_path / "whole.jsonl"), str(tmp_path / "part.jsonl")
    assert arena_log("run", whole, "--hands", "6", *settings).returncode == 0
    assert arena_log("run", part, "--hands", "4", *settings).returncode == 0
    assert arena_log("run", part, "--hands", "6", *settings).returncode == 0
    one, two = arena_log("report", whole), arena_log("report", part)
    assert one.returncode == two.returncode == 0
    assert "sessions of 3 hands" in one.stdout
    assert payments_tables(one.stdout) == payments_tables(two.stdout)


def test_compare_pairs_two_runs_of_the_same_deals_hand_by_hand(tmp_path):
    base = ("--players", "2", "--preset", "standard", "--seed", "4")
    hard, easy = str(tmp_path / "hard.jsonl"), str(tmp_path / "easy.jsonl")
    assert arena_log("run", hard, "--hands", "30", "--seats", "hard,normal", *base).returncode == 0
    assert arena_log("run", easy, "--hands", "30", "--seats", "easy,normal", *base).returncode == 0
    same = arena_log("compare", hard, hard)
    assert same.returncode == 0 and "30 hands in common, 0 differ: +0.0000" in same.stdout
    moved = arena_log("compare", hard, easy)
    assert moved.returncode == 0 and "(hard - normal)" in moved.stdout and "(easy - normal)" in moved.stdout
    other = str(tmp_path / "other.jsonl")
    assert arena_log("run", other, "--hands", "2", "--seats", "hard,normal", *base[:-1], "5").returncode == 0
    refused = arena_log("compare", hard, other)
    assert refused.returncode == 2 and "same seed" in refused.stderr and "Traceback" not in refused.stderr

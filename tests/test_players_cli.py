"""`python -m engine play` driven by a script on stdin, and `python -m engine arena`."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

from engine import Rules
from engine.players.arena import arrangements, hand_setup, mean_ci, report, run_arena
from engine.players.terminal import TerminalGame

ROOT = Path(__file__).resolve().parents[1]


def run_engine(*args: str, stdin: str = "", timeout: int = 60, **env_vars: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8", **env_vars)
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=timeout)


def test_play_a_full_hand_from_a_script():
    # draw, then the first choice after the draw; bad input on the way
    script = "x\n0\n" + "2\n1\n" * 60
    done = run_engine("play", "--seed", "4", "--seats", "you,hard,normal", "--hands", "1", stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Your hand:" in out and re.search(r"count \d+", out)
    assert any(s in out for s in "♣♦♥♠")
    assert "Table:" in out and "Discard pile:" in out and "Stock:" in out and "Others:" in out
    assert "1) Drop" in out and "2) Draw from the stock" in out
    assert "'x' is not a choice: type a number from 1 to 3" in out
    assert "'0' is not a choice" in out
    assert "You draw from the stock." in out and "You discard" in out
    assert re.search(r"(Hard|Normal) (draws|takes)", out)  # the computers' moves as they happen
    assert "--- Showdown:" in out
    assert re.search(r"Payments: You [+-]\d+, Hard [+-]\d+, Normal [+-]\d+", out)
    assert "Running totals:" in out and "Final totals:" in out


def test_play_several_hands_keeps_running_totals():
    done = run_engine("play", "--seed", "2", "--seats", "you,easy", "--hands", "3", "--stake", "5",
                      stdin="1\n" * 200)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("--- Showdown:") == 3
    assert "=== Hand 3 of 3" in done.stdout
    totals = re.findall(r"Final totals: You ([+-]\d+), Easy ([+-]\d+)", done.stdout)
    assert totals and int(totals[0][0]) + int(totals[0][1]) == 0


def test_play_ends_cleanly_at_the_end_of_input():
    done = run_engine("play", "--seed", "4", "--seats", "you,hard,normal", stdin="2\n")
    assert done.returncode == 0
    assert "End of input: leaving the table." in done.stdout
    assert "Traceback" not in done.stderr


def test_play_refuses_bad_seats():
    done = run_engine("play", "--seats", "you,wizard")
    assert done.returncode == 2 and "Unknown seat 'wizard'" in done.stderr


def test_terminal_game_in_process_with_computers_only_to_the_end():
    out = io.StringIO()
    game = TerminalGame(Rules.preset("waiting"), ["hard", "normal", "easy"], seed=9, hands=2,
                        stdin=io.StringIO(""), stdout=out)
    assert game.run() == 0
    assert out.getvalue().count("--- Showdown:") == 2
    assert sum(game.totals) == 0


def test_arena_rotates_seats_and_deal():
    assert sorted(arrangements(3)) == sorted([(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (1, 0, 2), (2, 1, 0)])
    dealers = [hand_setup(1, i, 3)[0] for i in range(6)]
    assert dealers == [0, 1, 2, 0, 1, 2]
    seatings = {hand_setup(1, i, 3)[1] for i in range(18)}
    assert len(seatings) == 6


def test_arena_is_the_same_whatever_the_workers():
    rules = Rules()
    one = run_arena(12, ["hard", "normal", "easy"], rules, 5, workers=1)
    two = run_arena(12, ["hard", "normal", "easy"], rules, 5, workers=2)
    assert [h.payments for h in one.hands] == [h.payments for h in two.hands]
    assert all(abs(sum(h.payments)) < 1e-9 for h in one.hands)
    text = report(one)
    assert "hard - normal" in text and "normal - easy" in text and "p99" in text


def test_mean_ci():
    mean, half = mean_ci([1.0, -1.0, 1.0, -1.0])
    assert mean == 0.0 and abs(half - 1.96 * (4 / 3) ** 0.5 / 2) < 1e-12


def test_arena_command_prints_tables():
    done = run_engine("arena", "--hands", "9", "--seats", "hard,normal,easy", "--preset", "push-ups",
                      "--seed", "3", "--workers", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Mean payment per hand" in out and "Paired difference" in out
    assert "Mean push-ups per hand" in out
    assert re.search(r"\| hard \| \d+ \| [\d.]+ \| [\d.]+ \|", out)


def test_arena_results_do_not_depend_on_the_process():
    """Same seed, different hash seeds and worker counts: the same payment tables."""
    def tables(hash_seed: str, workers: str) -> str:
        done = run_engine("arena", "--hands", "24", "--seats", "hard,normal,easy", "--preset", "waiting",
                          "--seed", "8", "--workers", workers, PYTHONHASHSEED=hash_seed)
        assert done.returncode == 0, done.stderr
        return done.stdout.split("Decision time")[0].split("\n", 1)[1]

    assert tables("1", "1") == tables("2", "2")


def test_arena_command_refuses_unknown_levels():
    done = run_engine("arena", "--hands", "2", "--seats", "hard,grandmaster")
    assert done.returncode == 2 and "unknown level" in done.stderr


def test_help_lists_the_commands():
    for args in (("--help",), ("arena", "--help"), ("play", "--help")):
        done = run_engine(*args)
        assert done.returncode == 0, done.stderr
    assert "arena" in run_engine("--help").stdout and "play" in run_engine("--help").stdout

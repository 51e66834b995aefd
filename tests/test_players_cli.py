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
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8", TONK_LANG="en-US")  # whatever LANG says
    env.update(env_vars)
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
                      stdin="1\ny\n" * 200)  # drop (and confirm) whenever asked
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


def play_in_process(script: str, seats=("you", "hard", "normal"), *, preset="standard", hands=None, seed=4):
    out = io.StringIO()
    session = TerminalGame(Rules.preset(preset), list(seats), seed=seed, hands=hands,
                           stdin=io.StringIO(script), stdout=out)
    assert session.run() == 0
    return session, out.getvalue()


def test_help_at_a_choice_teaches_the_tables_rules_and_asks_again():
    _, out = play_in_process("help\nq\n", preset="black company")
    lesson = out.split("(help for the rules, q to quit): help", 1)[1]
    assert "Goal:" in lesson and "Dropping and being caught:" in lesson
    assert "Tonk out (spread or hit your last card, no discard): 1 stake from each player." in lesson
    assert "**" not in lesson
    assert lesson.count("Choose 1-3") == 1  # the same question again, nothing played
    assert "You leave the table." in out and "You draw" not in out


def test_drop_asks_first_showing_your_count():
    _, out = play_in_process("1\nn\n1\ny\nq\n", hands=1)
    shown = int(re.search(r"Your hand: .*count (\d+)", out).group(1))
    assert f"Drop with a count of {shown}? Anyone with {shown} or less catches you." in out
    refused, confirmed = out.split("Not dropping.", 1)
    assert "You drop" not in refused and "You drop with 5 cards in hand!" in confirmed
    assert confirmed.count("Drop with a count of") == 1
    assert "--- Showdown: a" in confirmed and "drop by you" in confirmed


def test_hands_follow_one_another_with_a_pause_until_you_quit():
    session, out = play_in_process("1\ny\n" * 12 + "q\n")
    hands = re.findall(r"=== Hand (\d+):", out)
    assert len(hands) >= 3 and hands == [str(i) for i in range(1, len(hands) + 1)]  # no "of N"
    for later in hands[1:]:
        between = out.split(f"=== Hand {later}:", 1)[0].rsplit("--- Showdown:", 1)[1]
        assert "Press Enter for the next hand (q to leave):" in between  # paused at the showdown
    assert out.count("--- Showdown:") >= len(hands) - 1
    assert "You leave the table." in out and "Final totals:" in out
    assert sum(session.totals) == 0


def test_a_fixed_number_of_hands_ends_without_a_pause_after_the_last():
    _, out = play_in_process("1\ny\n" * 12, hands=2)
    assert out.count("--- Showdown:") == 2 and out.count("Press Enter for the next hand") == 1
    assert "=== Hand 2 of 2" in out and "End of input" not in out


def test_your_book_and_plurals():
    from types import SimpleNamespace

    from engine import DRAW, Card, Discard, Game, Spread, parse_cards, stacked_deck
    from engine.players.terminal import move_text, spread_text

    hands = [parse_cards("7s 7h 7d 2c 3c"), parse_cards("9h 10h Jh 3s 4s")]
    deck = stacked_deck(Rules(), 1, hands, upcard=Card.parse("4d"), stock=parse_cards("Qh 5c"))
    game = Game.deal(Rules(), ["You", "Hard"], 1, deck=deck)
    game.apply(0, DRAW)
    game.apply(0, Spread(tuple(parse_cards("7s 7h 7d"))))
    game.apply(0, Discard(Card.parse("Qh")))
    game.apply(1, DRAW)
    game.apply(1, Spread(tuple(parse_cards("9h 10h Jh"))))
    view = game.view(0)
    assert spread_text(view, 0).startswith("[1] your book: 7")
    assert spread_text(view, 1).startswith("[2] Hard's run: 9♥ 10♥ J♥")
    assert "You's" not in spread_text(view, 0)
    one = SimpleNamespace(hand=(Card.parse("As"),))
    from engine import Drop
    assert move_text("Hard", one, Drop()) == "Hard drops with 1 card in hand!"
    _, out = play_in_process("2\n1\nq\n")
    assert "(1 card)" in out and "(s)" not in out


def test_first_hand_hint_once_and_a_tied_stock_out_says_who_tied():
    from engine import DRAW, Card, Game, parse_cards, stacked_deck

    _, out = play_in_process("1\ny\n" * 6 + "q\n")
    assert out.count("First hand? Draw (or take the discard)") == 1
    assert "you pay 2 stakes or more. Type help for the rules." in out

    # The engine's tied stock-out (settle_stock_out), shown at the showdown.
    from types import SimpleNamespace

    from engine import parse_cards
    from engine.outcome import settle_stock_out

    hands = [parse_cards("As 2h 3d 9c 9s"), parse_cards("Ah 2c 3s 9d 9h"), parse_cards("Kd Qd Jd")]
    ended = SimpleNamespace(outcome=settle_stock_out([24, 24, 30], 1), hands=hands)
    assert ended.outcome.kind == "draw"
    session = TerminalGame(Rules(), ["you", "hard", "easy"], stdin=io.StringIO(""), stdout=io.StringIO())
    session.showdown(ended)
    assert "an empty stock with a tie for the lowest count (You and Hard, 24): nobody pays" in session.out.getvalue()


def test_the_terminal_game_and_the_arena_offer_expert():
    session, out = play_in_process("2\n1\n" * 80, seats=("you", "expert"), hands=1, seed=5)
    assert re.search(r"Expert (draws|takes|drops)", out)  # the expert's moves as they happen
    assert out.count("--- Showdown:") == 1 and sum(session.totals) == 0
    done = run_engine("arena", "--hands", "4", "--seats", "expert,hard", "--seed", "2", "--workers", "1",
                      "--expert-samples", "4")
    assert done.returncode == 0, done.stderr
    assert "| expert - hard |" in done.stdout
    assert "| mean | p50 | p99 | max | CPU mean | CPU p50 | CPU p99 | CPU max |" in done.stdout
    assert re.search(r"\| expert \| \d+( \| [\d.]+){8} \|", done.stdout)  # its decision times

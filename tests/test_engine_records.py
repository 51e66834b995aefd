"""Golden hand records replayed through `python -m engine replay`, and bad records refused."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECORDS = Path(__file__).parent / "records"
GOLDEN = sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))


def replay(path):
    return subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)


def test_there_are_golden_records_for_every_ending_kind():
    kinds = {json.loads(p.with_name(p.stem + ".expected.json").read_text())["outcome"] for p in GOLDEN}
    assert {"instant", "void", "tonk_out", "run_out", "drop_won", "caught", "stock_out", None} <= kinds


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_expected_result(path):
    done = replay(path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == json.loads(path.with_name(path.stem + ".expected.json").read_text())


def broken(tmp_path, change):
    record = json.loads((RECORDS / "run_out_3p.json").read_text())
    change(record)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    return path


BAD = [
    ("illegal action", lambda r: r["actions"].insert(0, {"seat": 0, "do": "discard", "card": "Js"}),
     "action 0: Draw from the stock"),
    ("out of turn", lambda r: r["actions"].__setitem__(0, {"seat": 1, "do": "draw"}), "action 0: It is Croaker's turn"),
    ("unknown card", lambda r: r["actions"][1].__setitem__("cards", ["7s", "8s", "9z"]), "action 1: '9z' is not a card"),
    ("unknown verb", lambda r: r["actions"].append({"seat": 1, "do": "knock"}), "action 5: unknown action 'knock'"),
    ("action after the end", lambda r: r["actions"].append({"seat": 1, "do": "draw"}), "action 5: This hand is over"),
    ("deck short a card", lambda r: r["deck"].pop(), "not a full 52-card deck"),
    ("deck with a card twice", lambda r: r["deck"].__setitem__(51, r["deck"][0]), "twice"),
    ("unknown rule", lambda r: r["rules"].__setitem__("colour", "red"), "Unknown house rule option"),
    ("wrong format", lambda r: r.__setitem__("format", "tonk-hand/9"), "Unknown record format"),
    ("missing actions", lambda r: r.pop("actions"), "lacks actions"),
    ("bad hit number", lambda r: r["actions"].__setitem__(2, {"seat": 0, "do": "hit", "card": "10s", "spread": 4}),
     "action 2: There is no such spread"),
]


@pytest.mark.parametrize("name, change, words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_record_exits_2_with_one_line_naming_the_problem(tmp_path, name, change, words):
    done = replay(broken(tmp_path, change))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr


def test_malformed_json_and_missing_file_exit_2(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    done = replay(path)
    assert done.returncode == 2 and done.stdout == "" and "not valid JSON" in done.stderr
    done = replay(tmp_path / "missing.json")
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_simulate_prints_endings_turns_and_speed():
    done = subprocess.run([sys.executable, "-m", "engine", "simulate", "--hands", "300", "--players", "3",
                           "--preset", "waiting", "--seed", "4"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "300 hands, 3 players, preset waiting, seed 4" in done.stdout
    assert "endings: " in done.stdout and "average turns per hand" in done.stdout and "hands per second" in done.stdout


def test_the_black_company_examples_are_golden_records():
    names = {p.stem for p in GOLDEN}
    assert {"black_company_example_1", "black_company_example_2"} <= names
    one = json.loads((RECORDS / "black_company_example_1.expected.json").read_text())
    assert one["counts"] == [9, 10, 24]  # the source's [25] for Elmo is a miscount


@pytest.mark.parametrize("text, words", [
    ("[" * 10_000_000 + "]" * 10_000_000, "nested too deeply"),
    ('{"format": "tonk-hand/1", "stake": ' + "9" * 5000 + "}", "number far too long"),
], ids=["nested-10MB-deep", "5000-digit-stake"])  # short ids: pytest puts the id in PYTEST_CURRENT_TEST,
# and a 20 MB environment variable makes the replay's subprocess fail with E2BIG
def test_hostile_json_is_refused_in_one_line(tmp_path, text, words):
    path = tmp_path / "hostile.json"
    path.write_text(text)
    done = replay(path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr


@pytest.mark.parametrize("stake, ok", [(1_000_000, True), (1_000_001, False), (10**4000, False)])
def test_a_stake_has_a_sane_upper_bound(tmp_path, stake, ok):
    path = broken(tmp_path, lambda r: r.__setitem__("stake", stake))
    done = replay(path)
    if ok:
        assert done.returncode == 0, done.stderr
    else:
        assert done.returncode == 2 and "from 1 to 1,000,000" in done.stderr


HOUSE_BAD = [
    ("unknown side bet", lambda r: r.__setitem__("side_bets", {"poker": {"seats": [0], "stake": 1}}),
     "Unknown side bet 'poker'"),
    ("side bet seat", lambda r: r.__setitem__("side_bets", {"naturals": {"seats": [7], "stake": 1}}),
     "distinct seats"),
    ("high card without suit", lambda r: r.__setitem__("side_bets", {"high_card": {"seats": [0], "stake": 1}}),
     "called suit"),
    ("wild card without the house rule", lambda r: r["actions"].__setitem__(
        1, {"seat": 0, "do": "spread", "cards": ["7s", "8s", "9s"], "as": {"7s": "7s"}}), "no wild cards"),
    ("unknown instant hand", lambda r: r["rules"].__setitem__("instant_hands", [{"hand": "42"}]),
     "instant hand must be one of"),
    ("slap without the house rule", lambda r: r["actions"].insert(3, {"seat": 2, "do": "slap", "spread": 0}),
     "action 3:"),
]


@pytest.mark.parametrize("name, change, words", HOUSE_BAD, ids=[b[0] for b in HOUSE_BAD])
def test_bad_house_rule_records_exit_2_with_one_line(tmp_path, name, change, words):
    done = replay(broken(tmp_path, change))
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr

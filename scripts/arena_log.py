"""A long arena run that keeps every finished hand, and its tables at any point.

    python scripts/arena_log.py run FILE --hands 2000 --players 2 --seats expert,hard \\
        --preset standard --seed 1 --expert-samples 16
    python scripts/arena_log.py report FILE
    python scripts/arena_log.py compare FILE_A FILE_B   # same deals: how slot 0 - slot 1 moved from B to A

`run` plays the hands of `python -m engine arena` with the same seed (the same deals,
seats and player seeds, hand by hand) in one process and appends one JSON line per
finished hand to FILE: its payments, push-ups, ending and each decision's wall-clock and
CPU milliseconds. A run that is stopped keeps what it finished, and run again with the
same FILE it goes on from the first hand not yet there. `report` prints the arena's own
tables (`engine.players.arena.report`) for the hands in FILE. On a shared machine an
expert arena takes hours; this lets a deadline cut it short without losing it.

One run can be split over processes: each plays a range of hands into its own file
(`--first K --hands N`: hands K to N-1), and `report` takes every part, checks that they
hold the same settings and no hand twice, and reports them as one run:

    python scripts/arena_log.py run part2.jsonl --first 7000 --hands 10000 ...
    python scripts/arena_log.py report part1.jsonl part2.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.errors import RulesError  # noqa: E402
from engine.players import LEVELS  # noqa: E402
from engine.players.arena import (ArenaResult, HandResult, mean_ci, new_sessions, play_hand, report,  # noqa: E402
                                  session_at)
from engine.players.cli import rules_from  # noqa: E402
from engine.players.oracle import MEASURING  # noqa: E402  (measuring oracles: the arena only)
from engine.rules import Rules  # noqa: E402


def read_log(path: Path) -> tuple[dict | None, list[dict]]:
    """(the run's settings, its hands in order) from FILE; (None, []) if it is empty."""
    if not path.exists():
        return None, []
    header, hands = None, []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if "settings" in entry:
            header = entry["settings"]
        else:
            hands.append(entry)
    return header, hands


def cmd_run(args: argparse.Namespace) -> int:
    seats = [s.strip().lower() for s in args.seats.split(",") if s.strip()]
    if not seats or any(s not in LEVELS and s not in MEASURING for s in seats):
        print(f"arena_log: --seats are levels among {', '.join(LEVELS + tuple(MEASURING))}", file=sys.stderr)
        return 2
    players = args.players or len(seats)
    levels = [seats[i % len(seats)] for i in range(players)]
    try:
        rules = rules_from(args.preset, args.rule)
    except RulesError as exc:
        print(f"arena_log: {exc}", file=sys.stderr)
        return 2
    options = {"expert": {"samples": args.expert_samples}} if args.expert_samples else {}
    if args.expert_infer is not None:  # (absent without: older files keep their settings)
        options.setdefault("expert", {})["infer_weight"] = args.expert_infer
    settings = {"levels": levels, "rules": rules.to_dict(), "seed": args.seed, "options": options}
    if args.session:
        settings["session"] = args.session  # (absent without: older files keep their settings)
    path = Path(args.file)
    header, done = read_log(path)
    if header is not None and header != settings:
        print(f"arena_log: {path} holds a run with other settings: {header}", file=sys.stderr)
        return 2
    with path.open("a") as out:
        if header is None:
            out.write(json.dumps({"settings": settings}) + "\n")
        start = done[-1]["index"] + 1 if done else args.first
        # a resumed or split run rebuilds the session memories by playing the session's earlier hands again
        sessions = session_at(rules, levels, args.seed, start, args.session, 1, options)
        for index in range(start, args.hands):
            times: dict = {}
            cpu: dict = {}
            if args.session and index % args.session == 0:
                sessions = new_sessions(levels)
            hand = play_hand(rules, levels, args.seed, index, 1, times, options, cpu, sessions)
            out.write(json.dumps({"index": index, "payments": hand.payments, "pushups": hand.pushups,
                                  "kind": hand.kind, "actions": hand.actions, "times": times, "cpu": cpu}) + "\n")
            out.flush()
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    header, entries, seen = None, [], set()
    for name in args.file:
        part_header, part = read_log(Path(name))
        if part_header is None:
            print(f"arena_log: {name} holds no run", file=sys.stderr)
            return 2
        if header is not None and part_header != header:
            print(f"arena_log: {name} holds a run with other settings: {part_header}", file=sys.stderr)
            return 2
        twice = seen.intersection(e["index"] for e in part)
        if twice:
            print(f"arena_log: {name} holds hand {min(twice)} again", file=sys.stderr)
            return 2
        header = part_header
        seen.update(e["index"] for e in part)
        entries.extend(part)
    hands = [HandResult(tuple(e["payments"]), tuple(e["pushups"]), e["kind"], e["actions"]) for e in entries]
    times: dict = {}
    cpu: dict = {}
    for e in entries:
        for level, values in e["times"].items():
            times.setdefault(level, []).extend(values)
        for level, values in e["cpu"].items():
            cpu.setdefault(level, []).extend(values)
    result = ArenaResult(Rules.from_dict(header["rules"]), header["levels"], header["seed"], hands, times,
                         0.0, 1, cpu, header["options"], header.get("session", 0))
    print(report(result, f"python scripts/arena_log.py report {' '.join(args.file)}"))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Two runs of the same deals (same seed and table size), hand by hand: how much the
    paired difference slot K - slot L (the arena's "A - B" for those slots) moved from run
    B to run A, over the hands both hold, with its 95% interval. It says what changing the
    player in slot K (another level, a version, a session memory) did on the same hands."""
    (ha, a), (hb, b) = read_log(Path(args.a)), read_log(Path(args.b))
    if ha is None or hb is None:
        print("arena_log: both files must hold a run", file=sys.stderr)
        return 2
    if ha["seed"] != hb["seed"] or len(ha["levels"]) != len(hb["levels"]):
        print("arena_log: the runs must have the same seed and table size to be paired", file=sys.stderr)
        return 2
    k, other = args.slot, args.against
    by_index = {e["index"]: e for e in b}
    diffs = []
    for e in a:
        f = by_index.get(e["index"])
        if f is not None:
            diffs.append((e["payments"][k] - e["payments"][other]) - (f["payments"][k] - f["payments"][other]))
    if not diffs:
        print("arena_log: the runs hold no hand in common", file=sys.stderr)
        return 2
    mean, half = mean_ci(diffs)
    differ = sum(1 for d in diffs if d)
    la, lb, lo = ha["levels"][k], hb["levels"][k], ha["levels"][other]
    print(f"({la} - {lo}) in {args.a} minus ({lb} - {lo}) in {args.b}: {len(diffs)} hands in common, "
          f"{differ} differ: {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}] stakes a hand")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play (or go on playing) an arena, one JSON line per hand")
    run.add_argument("file")
    run.add_argument("--hands", type=int, required=True)
    run.add_argument("--players", type=int, default=None)
    run.add_argument("--seats", default="expert,hard")
    run.add_argument("--preset", default="standard")
    run.add_argument("--rule", action="append", metavar="KEY=VALUE")
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--first", type=int, default=0, help="the first hand to play (a part of a split run)")
    run.add_argument("--expert-samples", type=int, default=None)
    run.add_argument("--expert-infer", type=float, default=None,
                     help="expert's drop: this share of the inference from the opponents' decisions (engine/players/infer.py)")
    run.add_argument("--session", type=int, default=0,
                     help="hands per session: each slot keeps a session memory of the others over that many hands")
    run.set_defaults(run=cmd_run)
    rep = sub.add_parser("report", help="the arena's tables for the hands in FILE")
    rep.add_argument("file", nargs="+", help="the run's file, or every part of a split run")
    rep.set_defaults(run=cmd_report)
    cmp_ = sub.add_parser("compare", help="two runs of the same deals, hand by hand: how slot K - slot L moved")
    cmp_.add_argument("a")
    cmp_.add_argument("b")
    cmp_.add_argument("--slot", type=int, default=0, help="the slot whose player differs (default 0)")
    cmp_.add_argument("--against", type=int, default=1, help="the slot it is measured against (default 1)")
    cmp_.set_defaults(run=cmd_compare)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())

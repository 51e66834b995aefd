"""`python -m engine arena` and `python -m engine play`: computer players on the command line."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys

from ..errors import RulesError
from ..rules import PRESET_NAMES, Rules
from . import LEVELS
from ..text import t


def rules_from(preset: str, options: list[str] | None) -> Rules:
    """A preset plus `key=value` house-rule options (values read as JSON when they parse)."""
    data: dict = {"preset": preset}
    for item in options or []:
        key, sep, raw = item.partition("=")
        if not sep:
            raise RulesError(t('House rule options are key=value, not {item}.', item=repr(item)))
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        data[key.strip()] = value
    return Rules.from_dict(data)


def cmd_arena(args: argparse.Namespace) -> int:
    from .arena import report, run_arena

    seats = [s.strip().lower() for s in args.seats.split(",") if s.strip()]
    unknown = [s for s in seats if s not in LEVELS]
    if unknown or not seats:
        print(f"arena: unknown level(s) {', '.join(unknown) or '(none)'}; use {', '.join(LEVELS)}.", file=sys.stderr)
        return 2
    players = args.players or len(seats)
    if not 2 <= players <= 6:
        print("arena: Tonk is for 2 to 6 players.", file=sys.stderr)
        return 2
    if len(seats) > players:
        print(f"arena: {len(seats)} seats given for {players} players.", file=sys.stderr)
        return 2
    levels = [seats[i % len(seats)] for i in range(players)]
    rules = rules_from(args.preset, args.rule)
    if players > rules.max_players():
        print(f"arena: these rules seat at most {rules.max_players()} players.", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("arena: --hands must be at least 1.", file=sys.stderr)
        return 2
    workers = args.workers if args.workers is not None else min(2, os.cpu_count() or 1)
    if args.expert_samples is not None and args.expert_samples < 1:
        print("arena: --expert-samples must be at least 1.", file=sys.stderr)
        return 2
    expert = {}
    if args.expert_samples is not None:
        expert["samples"] = args.expert_samples
    if args.expert_time_cap is not None:
        expert["time_cap"] = args.expert_time_cap / 1000.0
    result = run_arena(args.hands, levels, rules, args.seed, workers=workers,
                       options={"expert": expert} if expert else None, session=max(args.session, 0))
    command = "python -m engine " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if args.show_command else None
    print(report(result, command))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .terminal import TerminalGame, parse_seats

    try:
        seats = parse_seats(args.seats)
    except ValueError as exc:
        print(f"play: {exc}", file=sys.stderr)
        return 2
    rules = rules_from(args.preset, args.rule)
    if len(seats) > rules.max_players():
        print(f"play: these rules seat at most {rules.max_players()} players.", file=sys.stderr)
        return 2
    if args.stake < 1 or (args.hands is not None and args.hands < 1):
        print("play: --stake and --hands must be at least 1.", file=sys.stderr)
        return 2
    session = TerminalGame(rules, seats, stake=args.stake, seed=args.seed, hands=args.hands,
                           stdin=sys.stdin, stdout=sys.stdout)
    return session.run()


def add_commands(subparsers) -> None:
    """Add `arena` and `play` to `python -m engine` (called by engine.__main__)."""
    arena = subparsers.add_parser(
        "arena", help="computer players against each other: mean payments with 95%% intervals")
    arena.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    arena.add_argument("--players", type=int, default=None, metavar="2..6",
                       help="seats at the table (default: as many as --seats names)")
    arena.add_argument("--seats", default="hard,normal,easy",
                       help="levels, comma-separated, repeated round the table (default hard,normal,easy)")
    arena.add_argument("--preset", default="standard", choices=PRESET_NAMES)
    arena.add_argument("--rule", action="append", metavar="KEY=VALUE",
                       help="a house-rule option over the preset, e.g. caught_pays=five_to_low (repeatable)")
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--workers", type=int, default=None,
                       help="processes to use (default: up to 2); results do not depend on it")
    arena.add_argument("--expert-samples", type=int, default=None, metavar="N",
                       help="expert's search budget: sampled deals per decision (default: the level's)")
    arena.add_argument("--expert-time-cap", type=float, default=None, metavar="MS",
                       help="expert stops sampling a decision after this much CPU time (default: the level's)")
    arena.add_argument("--session", type=int, default=0, metavar="N",
                       help="sessions of N hands: each seat's session memory of the others (expert uses it)")
    arena.add_argument("--show-command", action="store_true", help="print the command line above the tables")
    arena.set_defaults(run=cmd_arena)

    play = subparsers.add_parser("play", help="play Tonk in the terminal against computer players")
    play.add_argument("--preset", default="standard", choices=PRESET_NAMES)
    play.add_argument("--rule", action="append", metavar="KEY=VALUE", help="a house-rule option (repeatable)")
    play.add_argument("--seats", default="you,hard,normal",
                      help="'you' and computer levels round the table, e.g. you,hard,normal")
    play.add_argument("--stake", type=int, default=1)
    play.add_argument("--seed", type=int, default=None, help="repeat the same deals and computer play")
    play.add_argument("--hands", type=int, default=None,
                      help="hands to play (default: hand after hand until you type q)")
    play.set_defaults(run=cmd_play)

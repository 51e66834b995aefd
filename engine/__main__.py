"""Command line: `python -m engine replay FILE`, `review FILE --seat N`, `simulate`, `arena`, `play`."""

from __future__ import annotations

import argparse
import json
import sys

from .errors import RecordError, TonkError
from .game import Game
from .rules import PRESET_NAMES


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as exc:
        print(f"replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(f"replay: {args.file} is not valid JSON: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print(f"replay: {args.file} is nested too deeply to be a hand record.", file=sys.stderr)
        return 2
    except ValueError:  # a number with more digits than Python will convert (4,300)
        print(f"replay: {args.file} holds a number far too long to be part of a hand record.", file=sys.stderr)
        return 2
    try:
        game = Game.from_record(record)
    except RecordError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(game.result()))
    return 0


def read_record(command: str, path: str):
    """The JSON in `path`, or None after one line on standard error."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        print(f"{command}: cannot read {path}: {exc.strerror}", file=sys.stderr)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(f"{command}: {path} is not valid JSON: {exc}", file=sys.stderr)
    except RecursionError:
        print(f"{command}: {path} is nested too deeply to be a hand record.", file=sys.stderr)
    except ValueError:
        print(f"{command}: {path} holds a number far too long to be part of a hand record.", file=sys.stderr)
    return None


def cmd_review(args: argparse.Namespace) -> int:
    from .review import ReviewError, review

    record = read_record("review", args.file)
    if record is None:
        return 2
    try:
        result = review(record, args.seat, seed=args.seed, samples=args.samples, search=args.search)
    except ReviewError as exc:
        print(f"review: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_json(), indent=1) if args.json else result.text())
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate

    summary = simulate(args.hands, args.players, args.preset, args.seed)
    print(f"{summary['hands']} hands, {summary['players']} players, preset {summary['preset']}, seed {summary['seed']}")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in summary["endings"].items()))
    print(f"average turns per hand: {summary['average_turns']}  (actions: {summary['average_actions']})")
    print(f"time: {summary['seconds']} s  =  {summary['hands_per_second']} hands per second")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="The Tonk rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="replay a hand record and print its result as JSON")
    replay.add_argument("file")
    replay.set_defaults(run=cmd_replay)

    from .review import DEFAULT_SAMPLES, DEFAULT_SEARCH

    review = sub.add_parser("review", help="what the expert would have done at each of a seat's decisions, "
                                           "and what each difference cost")
    review.add_argument("file")
    review.add_argument("--seat", type=int, required=True, help="the seat to review, as numbered in the record (0 first)")
    review.add_argument("--seed", type=int, default=0, help="the same seed gives the same review (default 0)")
    review.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"sampled deals to price each difference (default {DEFAULT_SAMPLES})")
    review.add_argument("--search", type=int, default=DEFAULT_SEARCH,
                        help=f"the expert's sampled deals per decision (default {DEFAULT_SEARCH})")
    review.add_argument("--json", action="store_true", help="print the review as JSON")
    review.set_defaults(run=cmd_review)

    simulate = sub.add_parser("simulate", help="play random hands and report speed and endings")
    simulate.add_argument("--hands", type=int, default=10_000)
    simulate.add_argument("--players", type=int, default=2, choices=range(2, 7), metavar="2..6")
    simulate.add_argument("--preset", default="standard", choices=PRESET_NAMES)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.set_defaults(run=cmd_simulate)

    try:
        from .players.cli import add_commands
    except ImportError:
        pass
    else:
        add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except TonkError as exc:
        print(f"{args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

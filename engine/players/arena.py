"""The arena: computer players against each other, with honest statistics.

Hand `i` is dealt from its own `random.Random` (seeded from the arena seed and `i`), the
deal rotates every hand, and the seats the levels sit in rotate and reflect every round
of deals, so neither seat position nor deal order favours a level. Every player gets
its own seed from the arena seed, the hand and its slot, so results are identical for
a seed whatever the number of worker processes.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from itertools import combinations

from ..game import Game
from ..rules import Rules
from . import make_player
from .house import slap_race

MAX_ACTIONS = 5_000


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Rotations and reflections of the slots around the table (every order for 3)."""
    out: list[tuple[int, ...]] = []
    for reflect in (False, True):
        for shift in range(players):
            seats = tuple((shift + (-s if reflect else s)) % players for s in range(players))
            if seats not in out:
                out.append(seats)
    return out


def hand_setup(seed: int, index: int, players: int) -> tuple[int, tuple[int, ...]]:
    """(dealer, slot sitting in each seat) for hand `index`."""
    orders = arrangements(players)
    return index % players, orders[(index // players) % len(orders)]


@dataclass(slots=True)
class HandResult:
    payments: tuple[float, ...]  # per slot, in stakes
    pushups: tuple[int, ...]  # per slot
    kind: str
    actions: int


def seat_player(level: str, seed: int, options: dict):
    """A level of the bot (`make_player`), or in the arena only one of the measuring
    oracles of `engine.players.oracle`, which see hidden cards."""
    from .oracle import MEASURING

    if level in MEASURING:
        return MEASURING[level](seed, **options)
    return make_player(level, seed=seed, **options)


def play_hand(rules: Rules, levels: list[str], seed: int, index: int, stake: int = 1,
              times: dict | None = None, options: dict | None = None, cpu_times: dict | None = None,
              sessions: dict | None = None) -> HandResult:
    """Play hand `index` of an arena; `levels[slot]` is the level in each slot.

    `options`: per level, keyword options for its player (e.g. {"expert": {"samples": 20}}).
    `times` / `cpu_times` collect each level's wall-clock / CPU milliseconds per decision.
    `sessions`: per slot, its `SessionMemory` of the session so far; players that use one
    (expert) get theirs, and every slot's memory learns from its own seat's view of the
    finished hand.
    """
    options = options or {}
    players = len(levels)
    dealer, slot_of_seat = hand_setup(seed, index, players)
    rng = random.Random(f"tonk-arena|{seed}|{index}")
    game = Game.deal(rules, [levels[slot_of_seat[s]] for s in range(players)], dealer, rng=rng, stake=stake)
    bots = [seat_player(levels[slot_of_seat[s]], (seed * 1_000_003 + index) * 8 + slot_of_seat[s],
                        options.get(levels[slot_of_seat[s]], {}))
            for s in range(players)]
    for s, bot in enumerate(bots):
        if getattr(bot, "sees_game", False):  # a measuring oracle (engine.players.oracle): never at a real table
            bot.game = game
        if sessions is not None and hasattr(bot, "session"):
            bot.session = (sessions[slot_of_seat[s]], slot_of_seat)
    steps = 0
    clock = time.perf_counter
    cpu_clock = time.thread_time
    house = game.rules.house and game.rules.slap != "off"
    while game.outcome is None:
        seat = game.to_act
        view = game.view(seat)
        started, cpu_started = clock(), cpu_clock()
        action = bots[seat].choose(view)
        elapsed, cpu = clock() - started, cpu_clock() - cpu_started
        if times is not None:
            times.setdefault(levels[slot_of_seat[seat]], []).append(elapsed * 1000.0)
        if cpu_times is not None:
            cpu_times.setdefault(levels[slot_of_seat[seat]], []).append(cpu * 1000.0)
        game.apply(seat, action)
        if house and game.outcome is None:
            steps += len(slap_race(game, bots))
        steps += 1
        if steps > MAX_ACTIONS:
            raise RuntimeError(f"arena hand {index} did not end")
    out = game.outcome
    if sessions is not None:
        for s in range(players):
            sessions[slot_of_seat[s]].learn(game.view(s), slot_of_seat)
    payments = [0.0] * players
    pushups = [0] * players
    for s in range(players):
        payments[slot_of_seat[s]] = out.payments[s] / stake
        pushups[slot_of_seat[s]] = out.pushups[s]
    fallbacks = sum(b.fallbacks for b in bots)
    if fallbacks:
        raise RuntimeError(f"arena hand {index}: a player chose an illegal action {fallbacks} time(s)")
    return HandResult(tuple(payments), tuple(pushups), out.kind, steps)


def new_sessions(levels: list[str]) -> dict:
    from .sessionmemory import SessionMemory

    return {slot: SessionMemory(slot) for slot in range(len(levels))}


def session_at(rules: Rules, levels: list[str], seed: int, index: int, session: int, stake: int = 1,
               options: dict | None = None) -> dict | None:
    """The slots' session memories as they stand before hand `index` (sessions are runs
    of `session` hands, from hand 0: hands k*session to (k+1)*session - 1), by playing
    the session's earlier hands again; None when `session` is 0 (no memory)."""
    if not session:
        return None
    sessions = new_sessions(levels)
    for i in range(index - index % session, index):
        play_hand(rules, levels, seed, i, stake, None, options, None, sessions)
    return sessions


def _run_chunk(args) -> tuple[list[HandResult], dict, dict]:
    rules_dict, levels, seed, start, stop, stake, options, session = args
    rules = Rules.from_dict(rules_dict)
    times: dict = {}
    cpu_times: dict = {}
    sessions = session_at(rules, levels, seed, start, session, stake, options)
    results = []
    for i in range(start, stop):
        if session and i % session == 0:
            sessions = new_sessions(levels)
        results.append(play_hand(rules, levels, seed, i, stake, times, options, cpu_times, sessions))
    return results, times, cpu_times


@dataclass
class ArenaResult:
    rules: Rules
    levels: list[str]
    seed: int
    hands: list[HandResult]
    times: dict = field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 1
    cpu_times: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    session: int = 0  # hands per session of the slots' session memories (0: none)


def run_arena(hands: int, levels: list[str], rules: Rules, seed: int, *, workers: int = 1,
              stake: int = 1, options: dict | None = None, session: int = 0) -> ArenaResult:
    """Play `hands` hands; split into contiguous chunks over `workers` processes.
    `options`: per level, keyword options for its players (see `play_hand`).
    `session`: hands per session of the slots' session memories (0: none); the results
    are the same whatever `workers`."""
    options = {level: dict(opts) for level, opts in (options or {}).items()}
    started = time.perf_counter()
    rules_dict = rules.to_dict()
    workers = max(1, min(workers, hands or 1))
    chunks = max(workers * 4, 1) if workers > 1 else 1
    bounds = [hands * k // chunks for k in range(chunks + 1)]
    jobs = [(rules_dict, list(levels), seed, bounds[k], bounds[k + 1], stake, options, session) for k in range(chunks)
            if bounds[k] < bounds[k + 1]]
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn" if _no_fork() else "fork").Pool(workers) as pool:
            parts = pool.map(_run_chunk, jobs)
    else:
        parts = [_run_chunk(job) for job in jobs]
    results: list[HandResult] = []
    times: dict = {}
    cpu_times: dict = {}
    for part, part_times, part_cpu in parts:
        results.extend(part)
        for level, values in part_times.items():
            times.setdefault(level, []).extend(values)
        for level, values in part_cpu.items():
            cpu_times.setdefault(level, []).extend(values)
    return ArenaResult(rules, list(levels), seed, results, times, time.perf_counter() - started, workers,
                       cpu_times, options, session)


def _no_fork() -> bool:
    import multiprocessing

    return "fork" not in multiprocessing.get_all_start_methods()


# ---------------------------------------------------------------------- statistics


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (1.96 sd / sqrt n)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]


def slot_labels(levels: list[str]) -> list[str]:
    labels = []
    for i, level in enumerate(levels):
        if levels.count(level) > 1:
            labels.append(f"{level}#{levels[:i + 1].count(level)}")
        else:
            labels.append(level)
    return labels


def level_series(result: ArenaResult, attr: str = "payments") -> dict[str, list[float]]:
    """Per hand, the mean figure of each level's slots."""
    distinct = list(dict.fromkeys(result.levels))
    series: dict[str, list[float]] = {lv: [] for lv in distinct}
    slots = {lv: [i for i, x in enumerate(result.levels) if x == lv] for lv in distinct}
    for hand in result.hands:
        values = getattr(hand, attr)
        for lv in distinct:
            series[lv].append(sum(values[i] for i in slots[lv]) / len(slots[lv]))
    return series


def report(result: ArenaResult, command: str | None = None) -> str:
    """The arena's tables as Markdown-friendly text."""
    rules = result.rules
    n = len(result.hands)
    lines = []
    if command:
        lines.append(f"command: {command}")
    lines.append(
        f"{n} hands, {len(result.levels)} players ({', '.join(result.levels)}), preset "
        f"{rules.closest_preset()}, seed {result.seed}, {result.workers} worker(s), {result.seconds:.1f} s"
    )
    if result.session:
        lines.append(f"session memory: each slot learns the others over sessions of {result.session} hands")
    for level, opts in result.options.items():
        if opts:
            lines.append(f"{level} options: " + ", ".join(f"{k}={v}" for k, v in sorted(opts.items())))
    kinds: dict[str, int] = {}
    for hand in result.hands:
        kinds[hand.kind] = kinds.get(hand.kind, 0) + 1
    lines.append("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    lines.append("")
    lines.append("Mean payment per hand (stakes), 95% interval:")
    lines.append("")
    lines.append("| seat (slot) | mean | 95% interval |")
    lines.append("|---|---|---|")
    labels = slot_labels(result.levels)
    for i, label in enumerate(labels):
        mean, half = mean_ci([h.payments[i] for h in result.hands])
        lines.append(f"| {label} | {mean:+.4f} | ±{half:.4f} |")
    series = level_series(result)
    if len(series) < len(result.levels):
        lines.append("")
        lines.append("| level (mean of its slots) | mean | 95% interval |")
        lines.append("|---|---|---|")
        for level, values in series.items():
            mean, half = mean_ci(values)
            lines.append(f"| {level} | {mean:+.4f} | ±{half:.4f} |")
    if len(series) > 1:
        lines.append("")
        lines.append("Paired difference per hand (A minus B, stakes), 95% interval:")
        lines.append("")
        lines.extend(_paired_table(series, "A - B", digits=4, excludes=True))
    if rules.scoring == "pushups":
        pushups = level_series(result, "pushups")
        lines.append("")
        lines.append("Mean push-ups per hand (low is good), 95% interval:")
        lines.append("")
        lines.append("| level | mean | 95% interval |")
        lines.append("|---|---|---|")
        for level, values in pushups.items():
            mean, half = mean_ci(values)
            lines.append(f"| {level} | {mean:.3f} | ±{half:.3f} |")
        if len(pushups) > 1:
            lines.append("")
            lines.extend(_paired_table(pushups, "A - B (push-ups)", digits=3, excludes=False))
    lines.append("")
    lines.append("Decision time per call of choose() (ms; wall clock, then CPU time of the deciding thread):")
    lines.append("")
    lines.append("| level | decisions | mean | p50 | p99 | max | CPU mean | CPU p50 | CPU p99 | CPU max |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for level in dict.fromkeys(result.levels):
        values = result.times.get(level, [])
        cpu = result.cpu_times.get(level, [])
        mean = sum(values) / len(values) if values else 0.0
        cpu_mean = sum(cpu) / len(cpu) if cpu else 0.0
        lines.append(f"| {level} | {len(values)} | {mean:.3f} | {percentile(values, 50):.3f} | "
                     f"{percentile(values, 99):.3f} | {max(values) if values else 0.0:.2f} | {cpu_mean:.3f} | "
                     f"{percentile(cpu, 50):.3f} | {percentile(cpu, 99):.3f} | {max(cpu) if cpu else 0.0:.2f} |")
    return "\n".join(lines)


LEVEL_ORDER = {"oracle_stock": -4, "oracle": -3, "oracle_drop": -2, "oracle_veto": -1.5,  # measuring oracles
               "expert": -1, "hard": 0, "normal": 1, "easy": 2}


def _paired_table(series: dict, title: str, *, digits: int, excludes: bool) -> list[str]:
    """Markdown rows: per-hand differences between every two levels, with 95% intervals."""
    lines = [f"| {title} | mean | 95% interval |" + (" excludes 0 |" if excludes else ""),
             "|---|---|---|" + ("---|" if excludes else "")]
    for a, b in _ordered_pairs(list(series)):
        mean, half = mean_ci([x - y for x, y in zip(series[a], series[b])])
        row = f"| {a} - {b} | {mean:+.{digits}f} | [{mean - half:+.{digits}f}, {mean + half:+.{digits}f}] |"
        if excludes:
            row += f" {'yes' if abs(mean) > half else 'no'} |"
        lines.append(row)
    return lines


def _ordered_pairs(levels: list[str]) -> list[tuple[str, str]]:
    ranked = sorted(levels, key=lambda lv: (LEVEL_ORDER.get(lv, 9), lv))
    return list(combinations(ranked, 2))

"""Benchmark: many Tonk tables at once in one bot process, driven through the fake Discord.

The real bot runs as production starts it (`python -m bot`, via the test harness's
BotProcess, TONK_TABLE_EDIT_INTERVAL=1 as in production) against the fake Discord on
127.0.0.1, on a SQLite file in a temporary directory. One guild, one channel per table,
2 or 3 distinct members per table. Scripted members open the tables (`/tonk new`, a few
at a time), join and start them, then play every table at once by clicks, as people do:
"My hand", Draw (or Drop now and then, confirmed with "Drop with N"), lay a spread when one is offered, discard the
highest card, "Next hand" when a hand ends. Before every click the acting player thinks
a uniform `--think-min`..`--think-max` seconds (default 0.5-2 s).

Figures printed:
  - clicks, and the acknowledgement latency p50/p90/p99/max: from the fake sending
    INTERACTION_CREATE to it accepting the bot's interaction callback (the fake's own
    `ack_latency`), over the measured window (after `--warmup`), overall and per click;
  - hands completed, violations and 429s the fake recorded, errors in the bot's log,
    and table messages left showing an older state than the bot had answered;
  - the bot's RSS (VmRSS of /proc/<pid>/status): after login with no table, with every
    table open, dealt and in play (after the warm-up), and after the run; memory per
    table is (RSS with tables - baseline) / tables; and how RSS grew over the window;
  - CPU used by the bot process (also as milliseconds per acknowledged click), by this process (the fake and the scripted users) and
    by anything else on the machine, since all share its cores;
  - with `--baseline-seconds` (default 20), the same click pattern against the fake's
    trivial test bot (`python -m fakediscord.testbot`, a counter button answered at once),
    the floor that the fake, the gateway, discord.py and the loopback add by themselves;
  - the machine's own speed in each window (`SpeedProbe`: this machine's speed moves by
    itself, and a ratio between two windows means something when both ran at the same speed).

    python scripts/bench_discord.py --tables 200 --seconds 60
    python scripts/bench_discord.py --tables 200 --seconds 60 --think-min 2 --think-max 8
    python scripts/bench_discord.py --tables 200 --seconds 60 --py-spy /tmp/bot.txt   # profile the bot
    python scripts/bench_discord.py --tables 200 --seconds 60 --shards 2   # two shard processes, 200 tables each
    python scripts/bench_discord.py --tables 200 --seconds 60 --no-pictures   # the server's pictures setting off

`--wait-quiet 600` first waits for other processes to leave the CPU alone. A Start that
the bot answers with an apology (a tonk on the deal, see docs/BENCHMARKS.md) is pressed
again. This is a script, not a test: it prints figures and exits 0 unless the harness
itself failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fakediscord import MANAGE_GUILD, BotProcess, FakeDiscord, FakeMember, FakeMessage, SentInteraction, loopback_only  # noqa: E402
from e2e_helpers import card_value  # noqa: E402  (a menu's card by its value, jokers too)

CLK_TCK = os.sysconf("SC_CLK_TCK")
HAND_OVER = "This hand is over"
NEXT_TURN = re.compile(r"Not your turn: \*\*(.+?)\*\* is playing")
TURN = re.compile(r"\*\*(.+?)\*\* to play")


# ---------------------------------------------------------------------------- the fake, with a wake-up per ack


class BenchFake(FakeDiscord):
    """FakeDiscord that wakes the scripted user waiting on an interaction when its callback arrives.

    `SentInteraction.ack()` polls through `wait_for`, which wakes every waiter on every
    change; with hundreds of users that costs the harness more CPU than it needs to. Here
    each click gets one future, resolved when the fake has handled the callback (accepted
    or refused). The latency figure itself is the fake's own `ack_latency`.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.ack_waiters: dict[int, asyncio.Future] = {}

    async def _interaction_callback(self, request):  # type: ignore[override]
        try:
            return await super()._interaction_callback(request)
        finally:
            with contextlib.suppress(ValueError):
                waiter = self.ack_waiters.pop(int(request.match_info["webhook_id"]), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(None)


def build_world(tables: int, rng: random.Random, *, rate_limits: bool) -> tuple[BenchFake, list[list[FakeMember]]]:
    """One guild, one channel per table, and 2 or 3 distinct members per table (no one sits twice)."""
    fake = BenchFake(rate_limits=None if rate_limits else {})
    guild = fake.add_guild("Tonk Hall", channels=[f"table-{i:03d}" for i in range(tables)])
    seating: list[list[FakeMember]] = []
    n = 0
    for _ in range(tables):
        players = []
        for _ in range(rng.choice((2, 3))):
            n += 1
            players.append(fake.add_member(guild, f"player{n:04d}"))
        seating.append(players)
    return fake, seating


def display_name(member: FakeMember) -> str:
    return member.user.global_name or member.name.title()  # what discord.py's display_name gives the bot


# ---------------------------------------------------------------------------- process figures


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime


def own_cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system


def machine_busy(*, niced: bool = True) -> tuple[float, float]:
    """(busy, total) jiffies of all cores, from /proc/stat; `niced=False` leaves out the work of
    processes running under `nice`, which yields the CPU to the benchmark."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4] + (0 if niced else values[1])
    return sum(values) - idle, sum(values)


async def steady_rss(pid: int, samples: int = 5, every: float = 0.2) -> int:
    values = []
    for _ in range(samples):
        values.append(rss_kib(pid))
        await asyncio.sleep(every)
    return int(statistics.median(values))


# ---------------------------------------------------------------------------- the machine's speed

PROBE_CODE = """
import time
def work():
    s = 0
    for i in range(200_000):
        s += i * i % 7
    return s
while True:
    a = time.process_time()
    work()
    b = time.process_time()
    print(f"{time.monotonic():.3f} {1000 * (b - a):.3f}", flush=True)
    time.sleep(2)
"""


class SpeedProbe:
    """How fast this machine runs Python at each moment of a run: a fixed loop (about 15 ms of CPU on
    a quiet fast minute) timed every 2 s in a process of its own, by its CPU time, so a probe that
    waited for a core does not count as slow. This machine's speed moves by itself: with nothing else
    running, the same loop took 14 ms in one minute and 24 ms in another (docs/BENCHMARKS.md, round
    13). The bot's window and the trivial bot's window are a minute apart, so their ratio compares like
    with like only when the probe read about the same in both."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []
        self.process: subprocess.Popen | None = None
        self.reader: threading.Thread | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", PROBE_CODE], stdout=subprocess.PIPE, text=True)
        self.reader = threading.Thread(target=self._read, name="speed-probe", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            at, took = line.split()
            self.samples.append((float(at), float(took)))

    def during(self, start: float, end: float) -> dict[str, float]:
        """The probe's readings (ms of CPU for the fixed loop) between two `time.monotonic()` instants."""
        values = sorted(took for at, took in self.samples if start <= at <= end)
        if not values:
            return {"count": 0, "median": 0.0, "min": 0.0, "max": 0.0}
        return {"count": len(values), "median": statistics.median(values), "min": values[0], "max": values[-1]}

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()


def probe_line(probe: dict[str, float]) -> str:
    if not probe["count"]:
        return "no reading"
    return (f"a fixed loop took {probe['median']:.1f} ms of CPU at the median ({probe['count']} readings, "
            f"{probe['min']:.1f}-{probe['max']:.1f}; lower is faster)")


# ---------------------------------------------------------------------------- latency figures


def quantiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0, "p50": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}
    values = sorted(values)
    if len(values) == 1:
        v = values[0]
        return {"count": 1, "p50": v, "p90": v, "p99": v, "max": v}
    q = statistics.quantiles(values, n=100, method="inclusive")
    return {"count": len(values), "p50": q[49], "p90": q[89], "p99": q[98], "max": values[-1]}


def cpu_per_click(cpu_seconds_used: float, latencies: list[float]) -> float:
    """Milliseconds of the bot's CPU per acknowledged click in the window: what a click costs,
    comparable between commits and machines' loads where percentages of a core are not."""
    return 1000 * cpu_seconds_used / max(1, len(latencies))


def ms(stats: dict[str, float]) -> str:
    return (f"n={stats['count']:>6}  p50 {stats['p50'] * 1000:7.1f} ms  p90 {stats['p90'] * 1000:7.1f} ms  "
            f"p99 {stats['p99'] * 1000:7.1f} ms  max {stats['max'] * 1000:7.1f} ms")


# ---------------------------------------------------------------------------- scripted users


@dataclass
class Clicks:
    """Every click the scripted users made, with its verb and when it was sent."""

    records: list[tuple[str, float, SentInteraction]] = field(default_factory=list)
    timeouts: int = 0
    refusals: Counter = field(default_factory=Counter)
    resyncs: int = 0
    samples: list[str] = field(default_factory=list)

    def surprise(self, kind: str, text: str) -> None:
        self.refusals[kind] += 1
        if len(self.samples) < 12:
            self.samples.append(f"{kind}: {' | '.join(text.splitlines())[:240]}")

    def window(self, start: float, end: float) -> list[tuple[str, SentInteraction]]:
        return [(verb, s) for verb, at, s in self.records if start <= at < end]


class Driver:
    """Clicks as users do, and waits for each acknowledgement."""

    def __init__(self, fake: BenchFake, clicks: Clicks, think: tuple[float, float], ack_timeout: float = 10.0):
        self.fake = fake
        self.clicks = clicks
        self.think_range = think
        self.ack_timeout = ack_timeout
        self.stopping = False

    async def think(self, rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(*self.think_range))

    async def send(self, verb: str, sending) -> SentInteraction:
        at = time.perf_counter()
        sent: SentInteraction = await sending
        self.clicks.records.append((verb, at, sent))
        if not sent.acked and not sent.response_errors:
            waiter = asyncio.get_running_loop().create_future()
            self.fake.ack_waiters[sent.id] = waiter
            try:
                await asyncio.wait_for(waiter, self.ack_timeout)
            except asyncio.TimeoutError:
                self.fake.ack_waiters.pop(sent.id, None)
                self.clicks.timeouts += 1
        return sent

    async def click(self, verb: str, member: FakeMember, message: FakeMessage, custom_id: str) -> SentInteraction:
        return await self.send(verb, self.fake.click(member, message, custom_id))

    async def select(self, verb: str, member: FakeMember, message: FakeMessage, custom_id: str, value: str) -> SentInteraction:
        return await self.send(verb, self.fake.select(member, message, custom_id, [value]))


def find_button(message: FakeMessage, prefix: str):
    return next((b for b in message.buttons if b.label and b.label.startswith(prefix) and not b.disabled), None)


async def stop_asking(driver, member, hand) -> None:
    """A new player's first pick asks first: these players are practised, so they play it and
    stop asking (once per player and table; later picks play at once, as before)."""
    once = find_button(hand, "Play it, and stop asking")
    if once is not None:
        await driver.click("askoff", member, hand, once.custom_id)


def find_menu(message: FakeMessage, verb: str):
    return next((s for s in message.selects if f":{verb}-menu" in s.custom_id), None)


def hand_count(message: FakeMessage) -> int:
    match = re.search(r"Count \*\*(\d+)\*\*", message.text)
    return int(match.group(1)) if match else 99


@dataclass
class Table:
    index: int
    channel: object
    players: list[FakeMember]
    rng: random.Random
    message: FakeMessage | None = None
    table_id: int = 0
    turn: str | None = None
    over: bool = False
    turns_this_hand: int = 0
    by_name: dict[str, FakeMember] = field(default_factory=dict)
    known_since: float = 0.0  # when the driver learned `turn` / `over` from the bot's answer

    hands_ended: int = 0

    def learn(self, turn: str | None, over: bool) -> None:
        if over and not self.over:
            self.hands_ended += 1
        self.turn, self.over, self.known_since = turn, over, time.monotonic()

    def shown_turn(self) -> tuple[str | None, bool]:
        """What the channel's table message shows now: (whose turn, hand over)."""
        assert self.message is not None
        over = any(b.label == "Next hand" for b in self.message.buttons)
        embed = self.message.embeds[0] if self.message.embeds else {}
        match = TURN.search(embed.get("description") or "")
        return (None if over or match is None else match.group(1)), over

    def cid(self, verb: str) -> str:
        return f"tonk:{self.table_id}:{verb}"

    def read_table(self) -> None:
        """Whose turn, or whether the hand is over, from the channel's table message."""
        self.learn(*self.shown_turn())


async def open_table(driver: Driver, table: Table) -> None:
    host, *joiners = table.players
    table.by_name = {display_name(m): m for m in table.players}
    for _ in range(3):
        sent = await driver.send("new", driver.fake.slash(host, table.channel, "tonk new"))
        message = sent.original_message
        if message is not None and message.buttons:
            break
        # the answer was late (the table exists but has no message): end it as a person would, and try again
        driver.clicks.surprise("new", f"{sent.response_errors} {message.text if message else ''}")
        await driver.send("end", driver.fake.slash(host, table.channel, "tonk end"))
    else:
        raise RuntimeError(f"/tonk new in {table.channel} got {sent!r}: {sent.response_errors}")
    table.message = message
    join = message.button("Join").custom_id
    table.table_id = int(join.split(":")[1])
    for member in joiners:
        await driver.click("join", member, message, join)
    for _ in range(5):
        sent = await driver.click("start", host, message, table.cid("start"))
        table.read_table()
        if table.turn is not None or table.over:
            return
        # the bot answered with an apology (a tonk on the deal fails Start: see docs/BENCHMARKS.md); press again
        reply = sent.original_message.text if sent.original_message is not None else sent.response_errors
        driver.clicks.refusals[f"start: {str(reply)[:60]}"] += 1
    raise RuntimeError(f"table {table.table_id} did not start: {message.text[:300]}")


async def resync(driver: Driver, table: Table) -> None:
    """After a surprise, read the table again once the bot has edited it (at most once a second)."""
    driver.clicks.resyncs += 1
    await asyncio.sleep(1.5)
    table.read_table()


async def play_turn(driver: Driver, table: Table) -> None:
    """One turn of the player the bot last named: My hand, then drop or draw, spread, discard."""
    rng = table.rng
    member = table.by_name.get(table.turn or "")
    if member is None:
        await resync(driver, table)
        return
    await driver.think(rng)
    sent = await driver.click("hand", member, table.message, table.cid("hand"))
    hand = sent.original_message
    if hand is None:
        driver.clicks.surprise("hand", f"no hand message: {sent.response_errors}")
        await resync(driver, table)
        return
    if find_button(hand, "Draw") is None and find_menu(hand, "discard") is None:  # not this player's turn
        driver.clicks.surprise("hand", f"{table.turn} expected; {hand.text}")
        match = NEXT_TURN.search(hand.text)
        if match is not None:
            table.learn(match.group(1), False)  # "Not your turn: **Y** is playing", as a person reads it
        elif HAND_OVER in hand.text:
            table.learn(None, True)
        else:
            await resync(driver, table)
        return
    draw = find_button(hand, "Draw")
    if draw is not None:  # the start of the turn (else: drawn already, e.g. after a failed click)
        table.turns_this_hand += 1
        rounds = table.turns_this_hand / len(table.players)
        drop = find_button(hand, "Drop")
        await driver.think(rng)
        if drop is not None and (hand_count(hand) <= 10 or (rounds > 2 and rng.random() < 0.35)):
            await driver.click("drop", member, hand, drop.custom_id)
            confirm = find_button(hand, "Drop with")  # the bot asks first: "Drop with N" or Cancel
            if confirm is None:
                driver.clicks.surprise("drop", f"no confirm: {hand.text}")
                await resync(driver, table)
                return
            await driver.think(rng)
            await driver.click("dropnow", member, hand, confirm.custom_id)
        else:
            await driver.click("draw", member, hand, draw.custom_id)
    if HAND_OVER not in hand.text and find_button(hand, "Draw") is None:
        spread = find_menu(hand, "spread")
        if spread is not None:
            await driver.think(rng)
            await driver.select("spread", member, hand, spread.custom_id, spread.options[0].value)
            await stop_asking(driver, member, hand)
        discard = find_menu(hand, "discard")
        if discard is not None and HAND_OVER not in hand.text:
            highest = max(discard.options, key=lambda o: card_value(o.label))
            await driver.think(rng)
            await driver.select("discard", member, hand, discard.custom_id, highest.value)
            await stop_asking(driver, member, hand)
    if HAND_OVER in hand.text:
        table.learn(None, True)
        return
    match = NEXT_TURN.search(hand.text)
    if match is None:  # a click went unanswered (late): look again
        driver.clicks.surprise("no-next-turn", hand.text)
        await resync(driver, table)
        return
    table.learn(match.group(1), False)


async def next_hand(driver: Driver, table: Table) -> None:
    table.turns_this_hand = 0
    deadline = time.monotonic() + 15
    while find_button(table.message, "Next hand") is None:  # the bot edits the table message within ~1 s
        if time.monotonic() > deadline or driver.stopping:
            await resync(driver, table)
            return
        await asyncio.sleep(0.1)
    await driver.think(table.rng)
    member = table.rng.choice(table.players)
    await driver.click("next", member, table.message, table.cid("next"))
    table.read_table()


async def play(driver: Driver, table: Table) -> None:
    try:
        while not driver.stopping:
            try:
                if table.over:
                    await next_hand(driver, table)
                else:
                    await play_turn(driver, table)
            except LookupError as exc:
                # the message moved on before this player clicked (a deferred answer landing late,
                # another player's Next hand): as a person would, look again and play on
                driver.clicks.surprise("moved-on", str(exc)[:60])
                await resync(driver, table)
    except Exception as exc:  # a harness surprise at one table must not stop the others
        print(f"table {table.table_id}: driver stopped: {exc!r}", file=sys.stderr)


async def testbot_counter(driver: Driver, member: FakeMember, others: list[FakeMember], message: FakeMessage,
                          rng: random.Random) -> None:
    while not driver.stopping:
        await driver.think(rng)
        await driver.click("counter", rng.choice([member, *others]), message, "fd:counter")


# ---------------------------------------------------------------------------- the harness's own pauses


def harness_collector_off() -> None:
    """Over a measured window the harness's cyclic garbage collector is off: collected once as the
    warm-up begins (a collection there stops the harness too, but no click it times is in flight).
    The fake keeps every request it served, so its full collections grew to 87-321 ms by the
    trivial bot's window: the harness stopped, and the clicks it was timing waited with it (the
    trivial bot's p99 was 222 ms, its median 3 ms). Reference counting still frees nearly all."""
    gc.collect()
    gc.disable()


def harness_collector_on() -> None:
    gc.enable()


# ---------------------------------------------------------------------------- py-spy


IDLE_LEAVES = ("aiosqlite/core.py:59)", "select (selectors.py", "wait (threading.py", "_wait_for_tstate_lock")
PROJECT = ("(bot/", "(cogs/", "(engine/")
PACKAGES = ("sqlalchemy", "aiosqlite", "discord", "aiohttp", "asyncio", "json", "engine", "bot", "cogs", "sqlmodel",
            "pydantic", "yarl", "multidict", "zlib")


def _frame(frame: str) -> str:
    return re.sub(r" \((?:.*?/(?:site-packages|lib/python3\.\d+|main)/)?", " (", frame)


def _package(frame: str) -> str:
    match = re.search(r"\(([^/:)]+)", frame)
    name = match.group(1) if match else "?"
    name = name.removesuffix(".py")
    return name if name in PACKAGES else "other"


def summarize_py_spy(path: Path, top: int = 20, *, gil: bool = True) -> str:
    """Where the bot's busy samples go, from py-spy's raw (collapsed) output.

    Samples whose leaf is a thread waiting (the event loop in epoll, aiosqlite's workers
    on their queue, the heartbeat thread) are idle and left out. Shares are of busy samples:
    own share by package, and inclusive share of the project's own functions.
    """
    inclusive: Counter = Counter()
    own: Counter = Counter()
    packages: Counter = Counter()
    total = busy = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_frame(f) for f in stack.split(";")]
        if any(mark in frames[-1] for mark in IDLE_LEAVES):
            continue
        busy += n
        for frame in set(frames):
            inclusive[frame] += n
        own[frames[-1]] += n
        packages[_package(frames[-1])] += n
    if not busy:
        return "py-spy: no busy samples"
    pct = lambda n: f"{100 * n / busy:5.1f}%"  # noqa: E731
    who = "the thread holding the GIL" if gil else "every busy thread"
    lines = [f"py-spy{' --gil' if gil else ''}: {total} samples ({who}), {busy} not idle"]
    lines.append("  own share of busy samples by package (leaf frame):")
    lines += [f"    {pct(n)}  {name}" for name, n in packages.most_common()]
    lines.append("  inclusive share, the project's functions (with what they call):")
    project = Counter({f: n for f, n in inclusive.items() if any(m in f for m in PROJECT)})
    lines += [f"    {pct(n)}  {f}" for f, n in project.most_common(top)]
    lines.append("  own share, leaf frames:")
    lines += [f"    {pct(n)}  {f}" for f, n in own.most_common(top)]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- runs


def bot_log_problems(process: BotProcess) -> tuple[int, int, list[str]]:
    text = process.output()
    errors = [line for line in text.splitlines() if " ERROR " in line or " CRITICAL " in line]
    warnings = [line for line in text.splitlines() if " WARNING " in line]
    return len(errors), len(warnings), errors[:5]


def violations_summary(fake: FakeDiscord) -> tuple[Counter, Counter]:
    fake.check_interactions()
    kinds = Counter(v.kind for v in fake.violations)
    hits = Counter(h.route for h in fake.rate_limit_hits)
    return kinds, hits


def stale_tables(tables: list[Table], older_than: float) -> list[str]:
    """Tables whose channel message still disagrees with what the bot answered the players `older_than` s ago."""
    now = time.monotonic()
    out = []
    for t in tables:
        if t.message is None or now - t.known_since < older_than:
            continue
        shown = t.shown_turn()
        if shown != (t.turn, t.over):
            out.append(f"table {t.table_id}: players were told {(t.turn, t.over)} {now - t.known_since:.0f} s ago; "
                       f"the table message shows {shown} ({t.message.embeds[0].get('title') if t.message.embeds else ''})")
    return out


SCRAPES: list[int] = []


async def scrape_every(port: int, seconds: float) -> None:
    """GET /metrics every `seconds`, as a Prometheus server would (the sizes are kept)."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        while True:
            async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                SCRAPES.append(len(await response.read()))
            await asyncio.sleep(seconds)


REQUEST_KINDS = ("replies", "channel edits", "messages sent", "messages deleted", "live hand edits",
                 "hands replaced", "other")


def request_kinds(fake: FakeDiscord, start: float, end: float) -> dict[str, int]:
    """The bot's requests that arrived in the window (fake clock), by what they are for: a click's own
    answer (its callback, follow-ups, and edits through its token within 3 s), the table's channel
    message edits, channel messages sent (turn pings, warnings, notes) and deleted, live private hand
    edits (an older click's token), and replaced hand messages removed."""
    sent_at = {i.token: i.sent_at for i in fake.interactions.values()}
    kinds: Counter = Counter()
    for r in fake.requests:
        if not start <= r.at < end:
            continue
        method, route = r.route.split(" ", 1)
        if route.startswith("/interactions/"):
            kind = "replies"
        elif route.startswith("/webhooks/"):
            token = r.path.split("/webhooks/", 1)[1].split("/")[1]
            own = r.at - sent_at.get(token, -1e9) < 3.0
            if method == "POST" or (method == "PATCH" and own):
                kind = "replies"
            elif method == "PATCH":
                kind = "live hand edits"
            else:
                kind = "replies" if own else "hands replaced"
        elif route == "/channels/{channel_id}/messages/{message_id}":
            kind = {"PATCH": "channel edits", "DELETE": "messages deleted"}.get(method, "other")
        elif route == "/channels/{channel_id}/messages" and method == "POST":
            kind = "messages sent"
        else:
            kind = "other"
        kinds[kind] += 1
    return {k: kinds[k] for k in REQUEST_KINDS}


async def run_tonk(args: argparse.Namespace, workdir: Path) -> dict:
    rng = random.Random(args.seed)
    fake, seating = build_world(args.tables, rng, rate_limits=not args.no_rate_limits)
    await fake.start()
    env = {
        "DATABASE_URL": args.database_url or f"sqlite+aiosqlite:///{workdir}/tonk.db",
        "TONK_ENV_FILE": str(workdir / "no.env"),
        "TONK_COMPUTER_DELAY": str(args.computer_delay),
        "TONK_TABLE_EDIT_INTERVAL": str(args.edit_interval),
        "LOG_LEVEL": "INFO",
    }
    if args.metrics_port:
        env["METRICS_PORT"] = str(args.metrics_port)  # the metrics on, scraped every 15 s as Prometheus would
    process = BotProcess(fake, "bot", env=env, log_path=workdir / "bot.log")
    result: dict = {"tables": args.tables, "members": sum(len(p) for p in seating)}
    try:
        t0 = time.perf_counter()
        await process.start(timeout=60)
        await fake.wait_for_commands("tonk", timeout=30)
        pid = process.process.pid
        result["login_seconds"] = time.perf_counter() - t0
        await asyncio.sleep(3)  # let startup work (sync, resume) finish
        result["rss_baseline_kib"] = await steady_rss(pid)
        print(f"bot pid {pid} logged in ({result['login_seconds']:.1f} s); RSS with no table "
              f"{result['rss_baseline_kib'] / 1024:.1f} MiB", flush=True)

        clicks = Clicks()
        driver = Driver(fake, clicks, (args.think_min, args.think_max))
        if args.no_pictures:  # the server's own setting, as its admin would turn it off: text-only tables and hands
            admin = fake.add_member(fake.guild, "bench-admin", permissions=MANAGE_GUILD)
            sent = await driver.send("settings", fake.slash(admin, fake.guild.channel("table-000"), "tonk-admin settings",
                                                            pictures=False))
            if not sent.acked:
                raise RuntimeError("the bot did not answer /tonk-admin settings pictures:False")
            clicks.records.clear()
        tables = [Table(i, fake.guild.channel(f"table-{i:03d}"), players, random.Random(args.seed * 100_003 + i))
                  for i, players in enumerate(seating)]
        gate = asyncio.Semaphore(args.setup_concurrency)

        async def setup(table: Table) -> None:
            async with gate:
                await open_table(driver, table)

        t0 = time.perf_counter()
        await asyncio.gather(*(setup(t) for t in tables))
        result["setup_seconds"] = time.perf_counter() - t0
        setup_stats = quantiles([s.ack_latency for _, _, s in clicks.records if s.ack_latency is not None])
        result["setup_ack"] = setup_stats
        print(f"{args.tables} tables opened, joined and dealt in {result['setup_seconds']:.1f} s "
              f"({len(clicks.records)} interactions; ack {ms(setup_stats)})", flush=True)

        # play: every table at once; the measured window starts after the warm-up
        drivers = [asyncio.create_task(play(driver, t)) for t in tables]
        harness_collector_off()
        await asyncio.sleep(args.warmup)
        result["rss_with_tables_kib"] = await steady_rss(pid)
        print(f"RSS with {args.tables} tables in play: {result['rss_with_tables_kib'] / 1024:.1f} MiB", flush=True)
        spy = None
        if args.py_spy:
            spy = subprocess.Popen(
                [shutil.which("py-spy", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
                 or "py-spy", "record", "--pid", str(pid), "--duration", str(int(args.seconds)), "--rate", str(args.py_spy_rate),
                 "--nonblocking", *([] if args.py_spy_threads else ["--gil"]), "--format", "raw",
                 "--output", str(args.py_spy)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        start, window0, fake0 = time.perf_counter(), time.monotonic(), fake.clock.now()
        bot_cpu0, own_cpu0, busy0 = cpu_seconds(pid), own_cpu_seconds(), machine_busy()
        hands0 = sum(t.hands_ended for t in tables)
        rss_series, stale_series, stale_samples = [], [], []
        scraper = asyncio.create_task(scrape_every(args.metrics_port, 15.0)) if args.metrics_port else None
        while time.perf_counter() - start < args.seconds:
            await asyncio.sleep(min(5.0, args.seconds - (time.perf_counter() - start)))
            rss_series.append(rss_kib(pid))
            stale = stale_tables(tables, older_than=3.0)
            stale_series.append(len(stale))
            stale_samples += stale[: max(0, 6 - len(stale_samples))]
        end, window1, fake1 = time.perf_counter(), time.monotonic(), fake.clock.now()
        if scraper is not None:
            scraper.cancel()
            result["metrics_scrapes"] = SCRAPES[:]
        elapsed = end - start
        bot_cpu1, own_cpu1, busy1 = cpu_seconds(pid), own_cpu_seconds(), machine_busy()
        result["window_monotonic"] = (window0, window1)
        harness_collector_on()
        hands = sum(t.hands_ended for t in tables) - hands0
        driver.stopping = True
        await asyncio.wait(drivers, timeout=20)
        for task in drivers:
            task.cancel()
        await fake.settle()
        result["rss_after_kib"] = await steady_rss(pid)
        result["rss_series_kib"] = rss_series
        result["stale_series"] = stale_series
        result["stale_samples"] = stale_samples
        if spy is not None:
            _, err = spy.communicate(timeout=60)
            if spy.returncode != 0:
                print(f"py-spy failed: {err.decode(errors='replace')[-500:]}", file=sys.stderr)

        window = clicks.window(start, end)
        latencies = [s.ack_latency for _, s in window if s.ack_latency is not None]
        by_verb: dict[str, list[float]] = defaultdict(list)
        for verb, s in window:
            if s.ack_latency is not None:
                by_verb[verb].append(s.ack_latency)
        hand_clicks = sum(1 for verb, _ in window if verb == "hand")
        growth = (rss_series[-1] if rss_series else result["rss_with_tables_kib"]) - result["rss_with_tables_kib"]
        result.update(
            rss_growth_kib=growth,
            hand_clicks=hand_clicks,
            rss_growth_per_hand_click_kib=growth / max(1, hand_clicks),
            seconds=elapsed,
            clicks=len(window),
            clicks_per_second=len(window) / elapsed,
            unacked_in_window=sum(1 for _, s in window if s.ack_latency is None),
            ack=quantiles(latencies),
            ack_by_verb={verb: quantiles(v) for verb, v in sorted(by_verb.items())},
            ack_all_fake=fake.ack_latency_stats().__dict__,
            hands_completed=hands,
            hands_completed_total=sum(t.hands_ended for t in tables),
            driver_timeouts=clicks.timeouts,
            driver_resyncs=clicks.resyncs,
            driver_refusals=dict(clicks.refusals),
            driver_samples=clicks.samples,
            bot_cpu_percent=100 * (bot_cpu1 - bot_cpu0) / elapsed,
            bot_cpu_ms_per_click=cpu_per_click(bot_cpu1 - bot_cpu0, latencies),
            harness_cpu_percent=100 * (own_cpu1 - own_cpu0) / elapsed,
            machine_busy_percent=100 * (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * (os.cpu_count() or 1),
        )
        kinds, hits = violations_summary(fake)
        result["violations"] = dict(kinds)
        result["rate_limit_hits"] = dict(hits)
        result["requests"] = dict(Counter(r.route for r in fake.requests))
        result["requests_by_kind"] = request_kinds(fake, fake0, fake1)
        spied = Path(args.py_spy) if args.py_spy else None
        result["py_spy"] = summarize_py_spy(spied, gil=not args.py_spy_threads) if spied and spied.exists() else None
    finally:
        code = await process.stop(timeout=15)
        result["bot_exit_code"] = code
        errors, warnings, first = bot_log_problems(process)
        result.update(bot_log_errors=errors, bot_log_warnings=warnings, bot_log_first_errors=first)
        await process.close()
        await fake.stop()
    return result


async def run_testbot(args: argparse.Namespace, workdir: Path) -> dict:
    """The same click pattern on a trivial bot: the floor the harness adds without Tonk."""
    rng = random.Random(args.seed + 1)
    fake, seating = build_world(args.tables, rng, rate_limits=not args.no_rate_limits)
    await fake.start()
    process = BotProcess(fake, "fakediscord.testbot", log_path=workdir / "testbot.log")
    result: dict = {}
    try:
        await process.start(timeout=60)
        await fake.wait_for_commands("fd", timeout=30)
        pid = process.process.pid
        clicks = Clicks()
        driver = Driver(fake, clicks, (args.think_min, args.think_max))
        gate = asyncio.Semaphore(args.setup_concurrency)
        messages = []

        async def setup(i: int) -> None:
            async with gate:
                sent = await driver.send("new", fake.slash(seating[i][0], fake.guild.channel(f"table-{i:03d}"), "fd counter"))
                messages.append((i, sent.original_message))

        await asyncio.gather(*(setup(i) for i in range(args.tables)))
        drivers = [asyncio.create_task(testbot_counter(driver, seating[i][0], seating[i][1:], m,
                                                       random.Random(args.seed * 7 + i)))
                   for i, m in messages]
        harness_collector_off()
        await asyncio.sleep(args.warmup)
        start, window0 = time.perf_counter(), time.monotonic()
        bot_cpu0, own_cpu0 = cpu_seconds(pid), own_cpu_seconds()
        await asyncio.sleep(args.baseline_seconds)
        end, window1 = time.perf_counter(), time.monotonic()
        result["window_monotonic"] = (window0, window1)
        bot_cpu1, own_cpu1 = cpu_seconds(pid), own_cpu_seconds()
        harness_collector_on()
        driver.stopping = True
        await asyncio.wait(drivers, timeout=20)
        await fake.settle()
        window = clicks.window(start, end)
        elapsed = end - start
        latencies = [s.ack_latency for _, s in window if s.ack_latency is not None]
        result.update(
            seconds=elapsed,
            clicks=len(window),
            clicks_per_second=len(window) / elapsed,
            ack=quantiles(latencies),
            bot_cpu_percent=100 * (bot_cpu1 - bot_cpu0) / elapsed,
            bot_cpu_ms_per_click=cpu_per_click(bot_cpu1 - bot_cpu0, latencies),
            harness_cpu_percent=100 * (own_cpu1 - own_cpu0) / elapsed,
            driver_timeouts=clicks.timeouts,
        )
        kinds, hits = violations_summary(fake)
        result["violations"] = dict(kinds)
        result["rate_limit_hits"] = dict(hits)
    finally:
        await process.close()
        await fake.stop()
    return result


# ---------------------------------------------------------------------------- shard processes (issue 11)


def build_sharded_world(tables: int, shards: int, rng: random.Random, *,
                        rate_limits: bool) -> tuple[BenchFake, list[tuple[int, object, list[FakeMember]]]]:
    """One guild per shard (an id Discord puts on that shard) with `tables` channels, 2 or 3 members a table.

    Returns the fake and, per table, (shard, channel, members)."""
    fake = BenchFake(rate_limits=None if rate_limits else {}, shards=shards)
    places = []
    for shard in range(shards):
        guild = fake.add_guild(f"Shard {shard} Hall", channels=[f"table-{i:03d}" for i in range(tables)],
                               shard=(shard, shards))
        for i in range(tables):
            names = [f"s{shard}p{len(places):04d}{chr(97 + k)}" for k in range(rng.choice((2, 3)))]
            places.append((shard, guild.channel(f"table-{i:03d}"), [fake.add_member(guild, n) for n in names]))
    return fake, places


async def stop_playing(driver: Driver, players: list[asyncio.Task]) -> None:
    """Let every table finish its click in flight (20 s at most), then stop."""
    driver.stopping = True
    await asyncio.wait(players, timeout=20)
    for player in players:
        player.cancel()


async def deal_all(driver: Driver, tables: list[Table], at_once: int) -> float:
    """Open, join and deal every table, `at_once` tables at a time; the seconds it took."""
    started = time.perf_counter()
    waiting = iter(tables)

    async def dealer() -> None:
        for table in waiting:
            await open_table(driver, table)

    await asyncio.gather(*(dealer() for _ in range(at_once)))
    return time.perf_counter() - started


async def run_shards(args: argparse.Namespace, workdir: Path) -> dict:
    """`args.shards` bot processes (SHARD_COUNT=n, SHARD_IDS=i) on one database, `args.tables` tables per shard."""
    rng = random.Random(args.seed)
    fake, places = build_sharded_world(args.tables, args.shards, rng, rate_limits=not args.no_rate_limits)
    await fake.start()
    processes = [
        BotProcess(fake, "bot", log_path=workdir / f"bot-shard{shard}.log", env={
            "DATABASE_URL": args.database_url, "TONK_ENV_FILE": str(workdir / "no.env"),
            "TONK_COMPUTER_DELAY": str(args.computer_delay), "TONK_TABLE_EDIT_INTERVAL": str(args.edit_interval),
            "LOG_LEVEL": "INFO", "SHARD_COUNT": str(args.shards), "SHARD_IDS": str(shard)})
        for shard in range(args.shards)
    ]
    shard_of_channel = {channel.id: shard for shard, channel, _ in places}
    result: dict = {"shards": args.shards, "tables": len(places), "members": sum(len(p) for _, _, p in places)}
    try:
        await asyncio.gather(*(process.start(timeout=90) for process in processes))  # they migrate once, together
        await fake.wait_for_commands("tonk", timeout=30)
        await fake.wait_for(lambda: len(fake.shard_sessions()) == args.shards, timeout=60, what="every shard")
        pids = [process.process.pid for process in processes]
        await asyncio.sleep(3)
        result["rss_baseline_kib"] = [await steady_rss(pid) for pid in pids]
        print(f"{args.shards} shard processes {pids} logged in", flush=True)

        driver = Driver(fake, Clicks(), (args.think_min, args.think_max))
        clicks = driver.clicks
        tables = [Table(i, channel, players, random.Random(args.seed * 100_003 + i))
                  for i, (_, channel, players) in enumerate(places)]
        seconds = await deal_all(driver, tables, args.setup_concurrency)
        print(f"{len(tables)} tables opened, joined and dealt in {seconds:.1f} s", flush=True)
        drivers = [asyncio.create_task(play(driver, t)) for t in tables]
        harness_collector_off()
        await asyncio.sleep(args.warmup)
        result["rss_with_tables_kib"] = [await steady_rss(pid) for pid in pids]
        start = time.perf_counter()
        cpu0, own0, busy0 = [cpu_seconds(pid) for pid in pids], own_cpu_seconds(), machine_busy()
        hands0 = sum(t.hands_ended for t in tables)
        await asyncio.sleep(args.seconds)
        end = time.perf_counter()
        cpu1, own1, busy1 = [cpu_seconds(pid) for pid in pids], own_cpu_seconds(), machine_busy()
        harness_collector_on()
        hands = sum(t.hands_ended for t in tables) - hands0
        await stop_playing(driver, drivers)
        await fake.settle()

        elapsed = end - start
        window = clicks.window(start, end)
        by_shard: dict[int, list[float]] = defaultdict(list)
        for _, sent in window:
            if sent.ack_latency is not None:
                by_shard[shard_of_channel[sent.channel.id]].append(sent.ack_latency)
        shard_clicks = Counter(shard_of_channel[sent.channel.id] for _, sent in window)
        result.update(
            seconds=elapsed,
            clicks=len(window),
            clicks_per_second=len(window) / elapsed,
            unacked_in_window=sum(1 for _, s in window if s.ack_latency is None),
            ack=quantiles([latency for values in by_shard.values() for latency in values]),
            ack_by_shard={shard: quantiles(values) for shard, values in sorted(by_shard.items())},
            clicks_per_second_by_shard={shard: shard_clicks[shard] / elapsed for shard in range(args.shards)},
            bot_cpu_percent=[100 * (b - a) / elapsed for a, b in zip(cpu0, cpu1)],
            bot_cpu_ms_per_click=[1000 * (b - a) / max(1, shard_clicks[shard])
                                  for shard, (a, b) in enumerate(zip(cpu0, cpu1))],
            harness_cpu_percent=100 * (own1 - own0) / elapsed,
            machine_busy_percent=100 * (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * (os.cpu_count() or 1),
            hands_completed=hands,
            driver_timeouts=clicks.timeouts,
            driver_resyncs=clicks.resyncs,
            driver_refusals=dict(clicks.refusals),
        )
        kinds, hits = violations_summary(fake)
        result["violations"] = dict(kinds)
        result["rate_limit_hits"] = dict(hits)
    finally:
        result["bot_exit_codes"] = [await process.stop(timeout=15) for process in processes]
        result["bot_log_problems"] = [bot_log_problems(process) for process in processes]
        for process in processes:
            await process.close()
        await fake.stop()
    return result


def report_shards(args: argparse.Namespace, run: dict) -> None:
    print()
    print(f"=== {run['shards']} shard processes on one database: {run['tables']} tables ({args.tables} per shard), "
          f"{run['members']} members, think {args.think_min}-{args.think_max} s ===")
    print(f"measured window   {run['seconds']:.1f} s after a {args.warmup:g} s warm-up")
    print(f"clicks            {run['clicks']} ({run['clicks_per_second']:.1f} per second); "
          f"not acknowledged {run['unacked_in_window']}")
    print(f"ack latency       {ms(run['ack'])}")
    for shard, stats in run["ack_by_shard"].items():
        print(f"  shard {shard}         {ms(stats)}; {run['clicks_per_second_by_shard'][shard]:.1f} clicks/s; "
              f"process CPU {run['bot_cpu_percent'][shard]:.0f}% of a core, "
              f"{run['bot_cpu_ms_per_click'][shard]:.1f} ms per click")
    print(f"hands completed   {run['hands_completed']} in the window")
    print(f"violations        {run['violations'] or 'none'}; 429s {run['rate_limit_hits'] or 'none'}")
    print(f"driver            timeouts {run['driver_timeouts']}, resyncs {run['driver_resyncs']}, "
          f"surprises {run['driver_refusals'] or 'none'}")
    for shard, (errors, warnings, first) in enumerate(run["bot_log_problems"]):
        print(f"bot log shard {shard}   {errors} errors, {warnings} warnings; exit code {run['bot_exit_codes'][shard]}")
        for line in first:
            print(f"  {line[:200]}")
    memory = [(w - b) / args.tables for b, w in zip(run["rss_baseline_kib"], run["rss_with_tables_kib"])]
    print(f"memory per table  {', '.join(f'{m:.1f}' for m in memory)} KiB (per process, in play)")
    others = run["machine_busy_percent"] - sum(run["bot_cpu_percent"]) - run["harness_cpu_percent"]
    print(f"CPU (100% = 1 core) bots {' + '.join(f'{c:.0f}%' for c in run['bot_cpu_percent'])}, harness "
          f"{run['harness_cpu_percent']:.0f}%, other processes {max(0.0, others):.0f}%; "
          f"machine {run['machine_busy_percent']:.0f}% of {100 * (os.cpu_count() or 1)}%")


def report(args: argparse.Namespace, tonk: dict, floor: dict | None) -> None:
    print()
    print(f"=== Tonk bot: {tonk['tables']} tables, {tonk['members']} members, think {args.think_min}-{args.think_max} s, "
          f"rate limits {'off' if args.no_rate_limits else 'Discord-like'}{', pictures off' if args.no_pictures else ''} ===")
    print(f"measured window   {tonk['seconds']:.1f} s after a {args.warmup:g} s warm-up")
    print(f"clicks            {tonk['clicks']} ({tonk['clicks_per_second']:.1f} per second); "
          f"not acknowledged {tonk['unacked_in_window']}")
    print(f"ack latency       {ms(tonk['ack'])}")
    print(f"CPU per click     {tonk['bot_cpu_ms_per_click']:.2f} ms of the bot's CPU per acknowledged click "
          f"(bot {tonk['bot_cpu_percent']:.0f}% of a core)")
    for verb, stats in tonk["ack_by_verb"].items():
        print(f"  {verb:<8}        {ms(stats)}")
    if tonk.get("metrics_scrapes") is not None:
        sizes = tonk["metrics_scrapes"]
        print(f"metrics           on: {len(sizes)} scrapes, {max(sizes, default=0) / 1024:.0f} KiB each at most")
    kinds = tonk["requests_by_kind"]
    per = max(1, tonk["clicks"])
    print(f"requests per click  {sum(kinds.values()) / per:.2f} ("
          + ", ".join(f"{k} {n / per:.2f}" for k, n in kinds.items()) + ")")
    print(f"setup ack         {ms(tonk['setup_ack'])} ({tonk['setup_seconds']:.1f} s for {tonk['tables']} tables)")
    print(f"hands completed   {tonk['hands_completed']} in the window ({tonk['hands_completed_total']} in all)")
    print(f"violations        {tonk['violations'] or 'none'}")
    print(f"429s              {tonk['rate_limit_hits'] or 'none'}")
    print(f"driver            timeouts {tonk['driver_timeouts']}, resyncs {tonk['driver_resyncs']}, "
          f"surprises {tonk['driver_refusals'] or 'none'}")
    for line in tonk["driver_samples"][:6]:
        print(f"  {line}")
    print(f"bot log           {tonk['bot_log_errors']} errors, {tonk['bot_log_warnings']} warnings; "
          f"exit code {tonk['bot_exit_code']}")
    for line in tonk["bot_log_first_errors"]:
        print(f"  {line[:200]}")
    base, with_tables, after = tonk["rss_baseline_kib"], tonk["rss_with_tables_kib"], tonk["rss_after_kib"]
    print(f"RSS               baseline {base / 1024:.1f} MiB; with tables {with_tables / 1024:.1f} MiB; "
          f"after the run {after / 1024:.1f} MiB")
    print(f"memory per table  {(with_tables - base) / tonk['tables']:.1f} KiB in play; "
          f"{(after - base) / tonk['tables']:.1f} KiB after the run")
    print(f"stale table msgs  {', '.join(map(str, tonk['stale_series']))} (every 5 s: tables whose channel message "
          f"disagreed for 3 s or more with what the bot had answered)")
    for line in tonk["stale_samples"][:4]:
        print(f"  {line}")
    print(f"RSS growth        {tonk['rss_growth_kib'] / 1024:.1f} MiB over the window = "
          f"{tonk['rss_growth_per_hand_click_kib']:.1f} KiB per 'My hand' click ({tonk['hand_clicks']} of them)")
    print(f"RSS every 5 s     {', '.join(f'{v / 1024:.1f}' for v in tonk['rss_series_kib'])} MiB")
    others = tonk["machine_busy_percent"] - tonk["bot_cpu_percent"] - tonk["harness_cpu_percent"]
    print(f"CPU (100% = 1 core) bot {tonk['bot_cpu_percent']:.0f}%, harness (fake + users) "
          f"{tonk['harness_cpu_percent']:.0f}%, other processes {max(0.0, others):.0f}%; "
          f"machine {tonk['machine_busy_percent']:.0f}% of {100 * (os.cpu_count() or 1)}%")
    print(f"machine speed     {probe_line(tonk['probe_ms'])}")
    if floor:
        print()
        print("=== trivial test bot, same pattern (the harness's floor) ===")
        print(f"clicks            {floor['clicks']} ({floor['clicks_per_second']:.1f} per second) in {floor['seconds']:.1f} s")
        print(f"ack latency       {ms(floor['ack'])}")
        print(f"CPU               bot {floor['bot_cpu_percent']:.0f}% ({floor['bot_cpu_ms_per_click']:.2f} ms per click), "
              f"harness {floor['harness_cpu_percent']:.0f}%")
        print(f"violations        {floor['violations'] or 'none'}; 429s {floor['rate_limit_hits'] or 'none'}")
        print(f"machine speed     {probe_line(floor['probe_ms'])}")
        speeds = ""
        if tonk["probe_ms"]["count"] and floor["probe_ms"]["count"]:
            speeds = (f"; the fixed loop took {tonk['probe_ms']['median'] / floor['probe_ms']['median']:.2f}x as long "
                      f"in the Tonk bot's window as in the trivial bot's")
        print(f"CPU per click     {tonk['bot_cpu_ms_per_click'] / floor['bot_cpu_ms_per_click']:.2f}x the trivial bot's{speeds}")
    if tonk.get("py_spy"):
        print()
        print(tonk["py_spy"])
    target_p99 = tonk["ack"]["p99"] <= 0.050
    target_mem = (with_tables - base) / tonk["tables"] <= 200 * 1000 / 1024
    print()
    print(f"targets: p99 <= 50 ms: {'met' if target_p99 else 'NOT met'}; <= 200 KB per table: "
          f"{'met' if target_mem else 'NOT met'}")


async def wait_quiet(limit: float, most_percent: float = 25.0) -> None:
    """Wait (at most `limit` s) until other processes use less than `most_percent` of a core over 3 s
    (work under `nice`, which yields to the benchmark, is not counted)."""
    deadline = time.monotonic() + limit
    while True:
        b0, n0 = machine_busy(niced=False), machine_busy()
        await asyncio.sleep(3)
        b1, n1 = machine_busy(niced=False), machine_busy()
        cores = 100 * (os.cpu_count() or 1)
        busy = cores * (b1[0] - b0[0]) / max(1, b1[1] - b0[1])
        if busy < most_percent or time.monotonic() > deadline:
            niced = cores * (n1[0] - n0[0]) / max(1, n1[1] - n0[1]) - busy
            print(f"machine busy {busy:.0f}% of a core before the run (and {niced:.0f}% niced)", flush=True)
            return
        await asyncio.sleep(5)


@contextlib.contextmanager
def scratch(args: argparse.Namespace, prefix: str) -> Iterator[Path]:
    """A scratch folder for a run (the bot's database and logs), and, with ``--postgres`` or for
    shards without ``--database-url``, a throwaway PostgreSQL server from the system's pg_ctl
    (tests/pgserver.py) whose new database becomes ``args.database_url``. Both go at the end;
    the folder stays with ``--keep``. Used by this script and scripts/soak_faults.py."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    server = None
    try:
        if args.postgres or (getattr(args, "shards", 1) > 1 and not args.database_url):
            from pgserver import start_server

            server = start_server("-c synchronous_commit=off")
            args.database_url = server.new_database()
        yield workdir
    finally:
        if server is not None:
            server.stop()
        if args.keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


async def main_async(args: argparse.Namespace) -> int:
    if args.wait_quiet:
        await wait_quiet(args.wait_quiet)
    with scratch(args, "bench-discord-") as workdir:
        if args.shards > 1:  # the shard processes share one database server
            with loopback_only():
                run = await run_shards(args, workdir)
            report_shards(args, run)
            if args.json:
                Path(args.json).write_text(json.dumps({"args": vars(args), "shards": run}, indent=1, default=str))
            return 0
        probe = SpeedProbe()
        probe.start()
        try:
            with loopback_only():
                tonk = await run_tonk(args, workdir)
                floor = await run_testbot(args, workdir) if args.baseline_seconds > 0 else None
        finally:
            probe.stop()
        for run in (tonk, floor):
            if run is not None:
                run["probe_ms"] = probe.during(*run["window_monotonic"])
        report(args, tonk, floor)
        if args.json:
            Path(args.json).write_text(json.dumps({"args": vars(args), "tonk": tonk, "floor": floor}, indent=1, default=str))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window of play")
    parser.add_argument("--warmup", type=float, default=5.0, help="play before the window (RSS 'with tables' is taken then)")
    parser.add_argument("--think-min", type=float, default=0.5, help="least seconds before each click")
    parser.add_argument("--think-max", type=float, default=2.0, help="most seconds before each click")
    parser.add_argument("--setup-concurrency", type=int, default=4, help="tables being opened at once")
    parser.add_argument("--edit-interval", type=float, default=1.0, help="TONK_TABLE_EDIT_INTERVAL (production: 1)")
    parser.add_argument("--computer-delay", type=float, default=1.0, help="TONK_COMPUTER_DELAY (no computer seats here)")
    parser.add_argument("--metrics-port", type=int, default=0,
                        help="set METRICS_PORT for the bot and scrape it every 15 s (0: metrics off)")
    parser.add_argument("--no-rate-limits", action="store_true", help="turn the fake's Discord-like rate limits off")
    parser.add_argument("--no-pictures", action="store_true",
                        help="the server's pictures setting off (/tonk-admin settings pictures:False) before the tables open")
    parser.add_argument("--baseline-seconds", type=float, default=20.0,
                        help="window for the trivial test bot with the same pattern (0: skip)")
    parser.add_argument("--py-spy", metavar="FILE", help="record the bot with py-spy (raw collapsed stacks) over the window")
    parser.add_argument("--py-spy-rate", type=int, default=100, help="py-spy's samples per second")
    parser.add_argument("--py-spy-threads", action="store_true",
                        help="sample every busy thread, not only the one holding the GIL (where CPU goes, C code included)")
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                        help="first wait up to this long for other processes to leave the CPU alone")
    parser.add_argument("--database-url", help="an EMPTY database for the bot (default: a SQLite file)")
    parser.add_argument("--postgres", action="store_true",
                        help="run the bot on a throwaway PostgreSQL server (synchronous_commit=off)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (database, bot logs)")
    parser.add_argument("--shards", type=int, default=1,
                        help="run this many bot processes (SHARD_COUNT, SHARD_IDS=0..n-1) on one PostgreSQL "
                             "(a throwaway server unless --database-url), --tables tables in a server of each shard")
    args = parser.parse_args()
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())

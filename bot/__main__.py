"""`python -m bot` (and the `tonk-bot` command): read `.env`, open the database, run the bot."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import sys

import aiohttp
import discord
from bot.config import ConfigError, Settings, load_env_file, load_settings
from bot.endpoints import apply_endpoints

EXIT_CONFIG = 2
EXIT_UNREACHABLE = 3


CLOSE_TIMEOUT = 8.0
"""Seconds a stop signal leaves the bot to finish its edits and log out before it quits anyway."""

MEMORY_DUMP_ENV = "TONK_MEMORY_DUMP"
"""A file name: trace allocations (`tracemalloc`) and, on each SIGUSR1 and at exit, save a
snapshot to NAME.1, NAME.2, ... (compare two with scripts/memory_diff.py). Off unless set:
tracing slows the bot several times over and costs memory itself. For profiling only."""
MEMORY_DUMP_FRAMES_ENV = "TONK_MEMORY_FRAMES"


def give_back_freed_memory() -> bool:
    """Return the heap's free pages to the system (glibc's ``malloc_trim``); False where the C
    library is not glibc (nothing is done there).

    Every picture allocates and frees buffers of a megabyte or so, between small objects that
    live on. glibc keeps such freed memory in the process for later allocations; after a burst
    of pictures (a restart resuming 200 tables, a busy minute) it stays freed and unused. A fixed
    low mmap threshold would return every buffer at once, but page-faulting them anew made each
    picture 60% dearer; trimming now and then (`TRIM_SECONDS`) costs a heap walk instead."""
    malloc_trim = _malloc_trim()
    if malloc_trim is None:
        return False
    malloc_trim(0)
    return True


@functools.cache
def _malloc_trim():
    """glibc's ``malloc_trim``, looked up once (None where the C library has none): finding the
    library runs ``ldconfig -p`` in a subprocess, a few milliseconds with the event loop stopped."""
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None


def event_loop_factory(name: str | None):
    """The event loop the bot runs on: uvloop's (libuv) unless `name` is "asyncio" or uvloop is
    not installed (None then: asyncio's own). Much of a click is the event loop's and aiohttp's
    socket handling, which uvloop does in C: about 7% less CPU per click at 200 tables
    (docs/BENCHMARKS.md). Asking for uvloop where it cannot be imported is a ConfigError."""
    if name == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if name == "uvloop":
            raise ConfigError("TONK_EVENT_LOOP is uvloop, but uvloop is not installed here "
                              "(pip install uvloop, or set TONK_EVENT_LOOP=asyncio).") from None
        return None
    return uvloop.new_event_loop


TRIM_SECONDS = 10.0
"""How often the bot gives freed memory back (`give_back_freed_memory`)."""


async def trim_memory_every(seconds: float) -> None:
    while give_back_freed_memory():
        await asyncio.sleep(seconds)


class MemoryDump:
    """Snapshots of where the bot's Python memory is (by allocation traceback), saved as they
    are: grouping and formatting them is left to scripts/memory_diff.py, so the bot (and every
    table's clicks) stops only for the copy."""

    def __init__(self, path: str, frames: int = 6):
        import tracemalloc

        self.path = path
        self.saved = 0
        tracemalloc.start(frames)

    @staticmethod
    def from_env(environ) -> MemoryDump | None:
        """The dump TONK_MEMORY_DUMP asks for (None: not set); a malformed TONK_MEMORY_FRAMES is a ConfigError."""
        path = environ.get(MEMORY_DUMP_ENV)
        if not path:
            return None
        frames = environ.get(MEMORY_DUMP_FRAMES_ENV) or "6"
        if not frames.isdigit() or not 1 <= int(frames) <= 100:
            raise ConfigError(f"{MEMORY_DUMP_FRAMES_ENV} must be a whole number of frames from 1 to 100, not {frames!r}.")
        return MemoryDump(path, int(frames))

    def save(self, why: str) -> None:
        """Save what is alive: cyclic garbage (every discord.Interaction is a cycle with its
        response) is collected first, and how much there was is logged."""
        import gc
        import tracemalloc

        self.saved += 1
        name = f"{self.path}.{self.saved}"
        traced = tracemalloc.get_traced_memory()[0]
        full = gc.get_stats()[2]["collections"]
        unreachable = gc.collect()
        try:
            tracemalloc.take_snapshot().dump(name)
        except OSError as exc:
            logging.getLogger(__name__).warning("could not save the memory snapshot %s: %s", name, exc)
            return
        alive = tracemalloc.get_traced_memory()[0]
        logging.getLogger(__name__).info(
            "memory snapshot %s saved (%s): %d KiB traced, of which %d KiB cyclic garbage (%d objects; "
            "%d full collections before this one)", name, why, traced // 1024, (traced - alive) // 1024, unreachable, full)


HOLD_SECONDS = 5.0
"""How long the start-up log is held back at most while the bot logs in (`StartupLog`)."""


class StartupLog(logging.Handler):
    """The log of a start-up, held back until Discord accepts the token: a start that ends in one
    of the one-line refusals (a token Discord rejects, Discord unreachable, a database the bot
    cannot use) then prints that line alone, not after the INFO lines of the steps before it.
    Released at once on login, after `HOLD_SECONDS` (a slow login still shows what it does), or
    when the start ends otherwise; then every record passes straight through to `target`."""

    LIMIT = 10_000

    def __init__(self, target: logging.Handler):
        super().__init__()
        self.target = target
        self.held: list[logging.LogRecord] | None = []

    def emit(self, record: logging.LogRecord) -> None:
        held = self.held
        if held is None:
            self.target.handle(record)
        elif len(held) < self.LIMIT:
            held.append(record)

    def pass_through(self) -> None:
        """Write what is held, and from now on every record as it comes (not `release`: that is a
        Handler's lock, which `emit` runs under: the pictures warm up on a worker thread)."""
        with self.lock:
            held, self.held = self.held, None
            for record in held or ():
                self.target.handle(record)

    def drop(self) -> None:
        """Forget what is held (the one line said it all); what follows passes through."""
        with self.lock:
            self.held = None


async def run(settings: Settings, dump: MemoryDump | None = None, startup: StartupLog | None = None) -> None:
    from bot.client import TonkBot
    from bot.store import open_database

    db = await open_database(settings.database_url)
    bot = TonkBot(settings=settings, db=db, after_login=startup.pass_through if startup is not None else None)
    loop = asyncio.get_running_loop()
    if startup is not None:
        loop.call_later(HOLD_SECONDS, startup.pass_through)
    logging.getLogger(__name__).info("event loop: %s", type(loop).__module__.partition(".")[0])
    if dump is not None:
        with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):  # no SIGUSR1 here
            loop.add_signal_handler(signal.SIGUSR1, dump.save, "SIGUSR1")
    trimmer = asyncio.ensure_future(trim_memory_every(TRIM_SECONDS))
    try:
        await bot.__aenter__()
        runner = asyncio.ensure_future(bot.start(settings.token))

        async def stop() -> None:
            # Discord may be unreachable (discord.py then retries its requests and reconnects
            # with back-off): close politely, but quit within the timeout all the same.
            try:
                await asyncio.wait_for(bot.close(), CLOSE_TIMEOUT)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - quitting anyway
                logging.getLogger(__name__).warning("could not close cleanly; quitting")
            runner.cancel()

        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(stop()))
            except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform
                pass
        try:
            await runner
        except asyncio.CancelledError:
            if not runner.cancelled():
                raise
    finally:
        trimmer.cancel()
        try:
            await asyncio.wait_for(bot.__aexit__(None, None, None), 2.0)
        except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - quitting anyway
            pass
        await db.close()
        if dump is not None:
            dump.save("exit")


def health() -> int:
    """`python -m bot health`: one line, and 0 when the running bot is healthy (its gateway connected,
    its database answering, its event loop writing TONK_HEALTH_FILE), 1 when not."""
    from bot.metrics import check_health

    try:
        load_env_file(os.environ.get("TONK_ENV_FILE", ".env"), os.environ)
    except ConfigError as exc:
        print(f"tonk-bot: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    healthy, line = check_health(os.environ.get("TONK_HEALTH_FILE", "").strip() or None)
    print(f"tonk-bot: {line}", file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


def serve_metrics(port: int) -> None:
    from bot.metrics import METRICS

    try:
        METRICS.serve(port)
    except OSError as exc:
        raise ConfigError(f"METRICS_PORT {port} cannot be served ({exc.strerror or exc}): "
                          "pick a free port, or unset METRICS_PORT.") from None


DISCORD_TROUBLE = (OSError, asyncio.TimeoutError)
"""What Discord's bad day raises in discord.py's reconnect loop (aiohttp's errors are OSErrors or
ClientErrors; both are named below)."""


def discord_trouble_in_one_line(record: logging.LogRecord) -> bool:
    """discord.py logs each failed reconnect ("Attempting a reconnect in 4.53s") with the
    traceback of Discord's refusal, as an ERROR: it is Discord's trouble, not the bot's, so the line
    stays and names the refusal, as a WARNING without the traceback (an operator's ERROR lines are
    the bot's own). A traceback of anything else passes untouched."""
    exc = record.exc_info[1] if record.exc_info else None
    if exc is not None and isinstance(exc, (*DISCORD_TROUBLE, aiohttp.ClientError)):
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.msg = f"{record.getMessage()} ({type(exc).__name__}: {exc})"
        record.args = None
        record.exc_info = None
        record.exc_text = None
    return True


def main() -> int:
    if sys.argv[1:2] == ["health"]:
        return health()
    try:
        load_env_file(os.environ.get("TONK_ENV_FILE", ".env"), os.environ)
        settings = load_settings(os.environ)
        if settings.metrics_port is not None:
            serve_metrics(settings.metrics_port)
        dump = MemoryDump.from_env(os.environ)
        loop_factory = event_loop_factory(settings.event_loop)
    except ConfigError as exc:
        print(f"tonk-bot: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    stream = logging.StreamHandler()
    stream.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    startup = StartupLog(stream)
    logging.basicConfig(level=settings.log_level_number, handlers=[startup])
    for reconnecting in ("discord.client", "discord.shard"):
        logging.getLogger(reconnecting).addFilter(discord_trouble_in_one_line)
    for chatty in ("discord.http", "alembic"):  # the store logs its own line when it upgrades the schema
        logging.getLogger(chatty).setLevel(max(settings.log_level_number, logging.WARNING))
    apply_endpoints(settings.api_base, settings.gateway_url)
    if settings.metrics_port is not None:
        logging.getLogger(__name__).info("metrics: served on port %s (GET /metrics)", settings.metrics_port)
    from bot.store import DatabaseStartupError, SchemaTooNewError, describe_database

    # each refusal the host can act on is one line: what was held of the start-up log is dropped
    # (`StartupLog`); anything else releases it, so the log says what happened before
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(run(settings, dump, startup))
    except DatabaseStartupError as exc:
        startup.drop()
        print(f"tonk-bot: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except SchemaTooNewError as exc:
        startup.drop()
        print(f"tonk-bot: {describe_database(settings.database_url)}: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except discord.LoginFailure:
        startup.drop()
        print("tonk-bot: Discord rejected DISCORD_TOKEN: check the token in .env "
              "(Developer Portal → your application → Bot → Reset Token).", file=sys.stderr)
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        startup.drop()
        print("tonk-bot: Discord refused the intents.", file=sys.stderr)
        return EXIT_CONFIG
    except (aiohttp.ClientConnectionError, OSError) as exc:
        # Only logging in gets here: once connected, discord.py reconnects by itself.
        startup.drop()
        where = settings.api_base or "https://discord.com"
        print(f"tonk-bot: cannot reach Discord at {where} ({_reason(exc)}): check this machine's network "
              "(and DISCORD_API_BASE if set), then start the bot again.", file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        pass
    finally:
        startup.pass_through()
    return 0


def _reason(exc: BaseException) -> str:
    """The innermost cause in a few words ("Name or service not known", "Connect call failed ...")."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())

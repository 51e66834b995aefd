"""Starting the bot under test against the fake: in this process, or as `python -m <module>`.

In-process is fast and lets a test reach into the bot; the subprocess is exactly how
production starts (env vars DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL), and
can be stopped and started again on the same database to test restarts. The subprocess runs in
a process group of its own, told to tests/reaper.py's watcher: a test run killed midway leaves
no bot behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, AsyncIterator, Mapping

import discord.http
from discord.gateway import DiscordWebSocket

import reaper
from bot.endpoints import apply_endpoints

if TYPE_CHECKING:
    import discord

    from .server import FakeDiscord

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TESTS_DIR = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def endpoints_applied(fake: FakeDiscord):
    """apply_endpoints() for the duration, then restores discord.py's own addresses."""
    saved = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    apply_endpoints(fake.api_base, fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


@contextlib.asynccontextmanager
async def running(
    fake: FakeDiscord, client: discord.Client, *, token: str | None = None, timeout: float = 15.0
) -> AsyncIterator[discord.Client]:
    """Runs `client.start(token)` in a task until its gateway session is ready; closes it on exit."""
    with endpoints_applied(fake):
        identifies = fake.identify_count + 1
        task = asyncio.create_task(client.start(token or fake.token), name="bot-under-test")
        try:
            await fake.wait_for(
                lambda: task.done() or (fake.bot_ready and fake.identify_count >= identifies),
                timeout=timeout,
                what="the in-process bot to connect",
            )
            if task.done():
                task.result()  # raises what the bot died of
                raise RuntimeError("the bot stopped before it connected")
            yield client
        finally:
            await client.close()
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, timeout=5.0)


class BotProcess:
    """`python -m <module>` with the fake's env; output goes to a log file (see `output()`)."""

    def __init__(
        self,
        fake: FakeDiscord,
        module: str = "bot",
        *,
        args: tuple[str, ...] = (),
        env: Mapping[str, str] | None = None,
        cwd: Path | str | None = None,
        python: str = sys.executable,
        log_path: Path | str | None = None,
    ) -> None:
        self.fake = fake
        self.module = module
        self.args = args
        self.env = dict(env or {})
        self.cwd = Path(cwd) if cwd else PROJECT_ROOT
        self.python = python
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        if log_path is None:
            handle, name = tempfile.mkstemp(prefix=f"fakediscord-{module}-", suffix=".log")
            os.close(handle)
            log_path = name
        self.log_path = Path(log_path)
        self._log = self.log_path.open("ab")

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
        path = [str(self.cwd), str(TESTS_DIR), env.get("PYTHONPATH", "")]
        env.update(self.fake.env())
        env.update(PYTHONPATH=os.pathsep.join(p for p in path if p), PYTHONUNBUFFERED="1")
        env.update(self.env)
        return env

    async def start(self, *, wait: bool = True, timeout: float = 30.0) -> None:
        """Starts the process; with `wait`, returns once it has IDENTIFYed and received its guilds."""
        if self.running:
            raise RuntimeError(f"{self.module} is already running")
        identifies = self.fake.identify_count + 1
        self._log.write(f"\n===== start #{self.starts + 1}: python -m {self.module} =====\n".encode())
        self._log.flush()
        self.process = await asyncio.create_subprocess_exec(
            self.python, "-m", self.module, *self.args,
            cwd=str(self.cwd), env=self.environment(),
            stdin=asyncio.subprocess.DEVNULL, stdout=self._log, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # its own group: a Ctrl+C of the tests is theirs to pass on; the watcher's to kill
        )
        reaper.watch_group(self.process.pid)
        self.starts += 1
        if wait:
            process = self.process
            await self.fake.wait_for(
                lambda: process.returncode is not None or (self.fake.bot_ready and self.fake.identify_count >= identifies),
                timeout=timeout,
                what=f"python -m {self.module} to connect",
            )
            if process.returncode is not None:
                raise RuntimeError(f"python -m {self.module} exited with {process.returncode}:\n{self.output()[-4000:]}")

    async def stop(self, *, sig: int = signal.SIGTERM, timeout: float = 10.0) -> int | None:
        """Sends `sig` (SIGTERM as a service manager would), waits, then kills; returns the exit code."""
        process = self.process
        if process is None:
            return None
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(sig)
            try:
                await asyncio.wait_for(process.wait(), timeout)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)  # the whole group, anything it started too
                await process.wait()
            await self.fake.wait_for(lambda: True, timeout=0.1)
        reaper.forget_group(process.pid)
        return process.returncode

    async def restart(self, **start_kwargs) -> None:
        await self.stop()
        await self.start(**start_kwargs)

    async def close(self) -> None:
        await self.stop()
        self._log.close()

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

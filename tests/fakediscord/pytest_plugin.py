"""pytest fixtures for end-to-end tests on the fake Discord.

Enable with `pytest_plugins = ["fakediscord.pytest_plugin"]` (in tests/conftest.py, or in
a test module). Fixtures:

- `fake_discord`: started FakeDiscord.tonk_hall() (guild "Tonk Hall", #tonk and #lobby,
  alice, bob, carol, dave, and admin with Manage Server), Discord-like rate limits.
  At teardown it waits for pending interactions to settle and FAILS the test if the bot
  broke a Discord rule, unless the test is marked `@pytest.mark.allow_violations`, called
  `fake_discord.allow_violations()`, or took the violations it expected with
  `fake_discord.take_violations(kind)`.
- `fake_discord_factory`: `await fake_discord_factory(**FakeDiscord kwargs)` for other
  setups (same teardown checks); build the world before calling `start()` yourself via
  `build=lambda fake: ...`.
- `bot_process`: a factory, `bot_process(module="bot", env={...})` -> BotProcess (not yet
  started: `await process.start()`), on `fake_discord`, stopped at teardown; its output is
  in `process.output()` and in a file under pytest's tmp dir.

All network access other than 127.0.0.1 is refused while these fixtures are active.
"""

from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable

import pytest

from .netguard import loopback_only
from .runner import BotProcess
from .server import FakeDiscord


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "allow_violations: the test breaks Discord's rules on purpose; do not fail it at teardown",
    )


async def _finish(fake: FakeDiscord, request: pytest.FixtureRequest) -> None:
    try:
        await fake.settle()
    finally:
        await fake.stop()
    if request.node.get_closest_marker("allow_violations") is None and not fake.violations_allowed:
        fake.assert_no_violations()


@pytest.fixture
async def fake_discord_factory(request: pytest.FixtureRequest) -> AsyncIterator[Callable[..., Awaitable[FakeDiscord]]]:
    fakes: list[FakeDiscord] = []

    async def make(*, build: Callable[[FakeDiscord], Any] | None = None, tonk_hall: bool = True, **kwargs: Any) -> FakeDiscord:
        fake = FakeDiscord.tonk_hall(**kwargs) if tonk_hall else FakeDiscord(**kwargs)
        if build is not None:
            build(fake)
        fakes.append(fake)
        return await fake.start()

    def blocked(host: str) -> None:
        for fake in fakes:
            fake._violate("external_network", 0, 0, "Connection blocked", "socket.connect", host)

    with loopback_only(blocked):
        yield make
        errors: list[BaseException] = []
        for fake in fakes:
            try:
                await _finish(fake, request)
            except BaseException as error:  # report every fake's violations, not just the first
                errors.append(error)
        if errors:
            raise errors[0]


@pytest.fixture
async def fake_discord(fake_discord_factory: Callable[..., Awaitable[FakeDiscord]]) -> FakeDiscord:
    return await fake_discord_factory()


@pytest.fixture
async def bot_process(fake_discord: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Callable[..., BotProcess]]:
    processes: list[BotProcess] = []

    def make(module: str = "bot", **kwargs: Any) -> BotProcess:
        kwargs.setdefault("log_path", tmp_path_factory.mktemp("bot-process") / f"{module}.log")
        process = BotProcess(fake_discord, module, **kwargs)
        processes.append(process)
        return process

    yield make
    for process in processes:
        await process.close()

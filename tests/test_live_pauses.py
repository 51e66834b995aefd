"""What stops a table's clock (issue 35): Discord's gateway away stops every table's; Discord's REST
refusing one table's updates stops that table's alone, from the start of the round that failed
until one lands, and a round stuck in discord.py's own retries holds it after `ROUND_GRACE`.
Time away counts once when both happen at once."""

import asyncio

import pytest

from cogs.live import runtime as live_runtime
from cogs.live.runtime import ROUND_GRACE, Paused, Reachability, TableReach


class Clock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(live_runtime.time, "time", fake)
    return fake


def test_a_failed_round_stops_only_its_tables_clock_from_when_the_round_began(clock):
    gateway, mine, other = Reachability(), TableReach(), TableReach()
    turn_began = clock.now
    clock.now += 2
    mine.round_began()
    clock.now += 1
    mine.round_failed()  # the channel edit failed a second into the round
    mine.round_ended(landed=False)
    clock.now += 10
    assert Paused(gateway, mine).down and not Paused(gateway, other).down
    assert Paused(gateway, mine).away_since(turn_began) == pytest.approx(11)
    assert Paused(gateway, other).away_since(turn_began) == 0
    mine.round_began()
    clock.now += 0.5
    assert mine.round_ended(landed=True) == pytest.approx(11.5)  # the round that landed counts, to its end
    clock.now += 30
    assert not Paused(gateway, mine).down
    assert Paused(gateway, mine).away_since(turn_began) == pytest.approx(11.5)
    assert Paused(gateway, mine).away_since(turn_began + 20) == 0  # a later turn never stood still


def test_the_gateway_and_the_rest_away_at_once_count_once(clock):
    gateway, mine = Reachability(), TableReach()
    since = clock.now
    gateway.went_down()
    clock.now += 4
    mine.round_began()
    mine.round_failed()
    clock.now += 6
    gateway.came_back()  # 10 s away, 6 of them also refused
    clock.now += 3
    mine.round_began()
    mine.round_ended(landed=True)  # refused 9 s, from 4 to 13
    assert Paused(gateway, mine).away_since(since) == pytest.approx(13)
    assert Paused(gateway).away_since(since) == pytest.approx(10)


def test_a_round_stuck_in_retries_holds_the_clock_after_its_grace(clock):
    mine = TableReach()
    since = clock.now
    mine.round_began()
    clock.now += ROUND_GRACE - 1
    assert not mine.down and mine.away_since(since) == 0  # a slow round within the grace holds nothing
    clock.now += 8
    assert mine.down and mine.away_since(since) == pytest.approx(7)
    assert mine.round_ended(landed=True) == pytest.approx(7)
    assert not mine.down and mine.away_since(since) == pytest.approx(7)  # kept once the round is over


async def test_a_timer_sleeps_through_a_tables_outage_and_wakes_when_its_round_lands():
    gateway, mine = Reachability(), TableReach()
    began = live_runtime.time.time()
    mine.round_began()
    mine.round_failed()
    woke = asyncio.Event()

    async def timer():
        await Paused(gateway, mine).sleep_until(lambda: began + 0.05 + Paused(gateway, mine).away_since(began))
        woke.set()

    task = asyncio.create_task(timer())
    await asyncio.sleep(0.2)
    assert not woke.is_set()  # its end passed, but its table's updates still fail
    mine.round_ended(landed=False)
    mine.round_began()
    mine.round_ended(landed=True)
    await asyncio.wait_for(woke.wait(), 1.0)  # then it goes on with the time it had left
    await task

"""The database's write gate (bot/writes.py): plays' saves together, a multi-statement transaction alone."""

import asyncio

import pytest

from bot.writes import WriteGate


async def _hold(gate_cm, log: list, name: str, release: asyncio.Event) -> None:
    async with gate_cm:
        log.append(f"{name} in")
        await release.wait()
        log.append(f"{name} out")



async def test_shared_saves_run_together_up_to_the_limit():
    gate, log, release = WriteGate(shared_limit=3), [], asyncio.Event()
    tasks = [asyncio.create_task(_hold(gate.shared(), log, f"s{i}", release)) for i in range(4)]
    await asyncio.sleep(0)
    assert log == ["s0 in", "s1 in", "s2 in"] and gate.shared_in_flight == 4  # s3 waits for a slot
    release.set()
    await asyncio.gather(*tasks)
    assert log[-2:] == ["s3 in", "s3 out"] and gate.shared_in_flight == 0


async def test_an_exclusive_write_waits_for_a_shared_save_still_waiting_for_its_slot():
    gate, log = WriteGate(shared_limit=1), []
    first, second, ex = asyncio.Event(), asyncio.Event(), asyncio.Event()
    s1 = asyncio.create_task(_hold(gate.shared(), log, "s1", first))
    s2 = asyncio.create_task(_hold(gate.shared(), log, "s2", second))  # waits for s1's slot
    await asyncio.sleep(0)
    x = asyncio.create_task(_hold(gate.exclusive(), log, "x", ex))
    first.set()
    second.set()
    ex.set()
    await asyncio.gather(s1, s2, x)
    assert log == ["s1 in", "s1 out", "s2 in", "s2 out", "x in", "x out"]



async def test_an_exclusive_write_waits_for_the_shared_ones_in_flight_and_holds_back_new_ones():
    gate, log = WriteGate(), []
    first, ex, later = asyncio.Event(), asyncio.Event(), asyncio.Event()
    s1 = asyncio.create_task(_hold(gate.shared(), log, "s1", first))
    await asyncio.sleep(0)
    x = asyncio.create_task(_hold(gate.exclusive(), log, "x", ex))
    await asyncio.sleep(0)
    s2 = asyncio.create_task(_hold(gate.shared(), log, "s2", later))  # came after the exclusive writer
    for _ in range(3):
        await asyncio.sleep(0)
    assert log == ["s1 in"]  # x waits for s1 to land; s2 waits behind x
    first.set()
    for _ in range(3):
        await asyncio.sleep(0)
    assert log == ["s1 in", "s1 out", "x in"]
    ex.set()
    later.set()
    await asyncio.gather(s1, x, s2)
    assert log == ["s1 in", "s1 out", "x in", "x out", "s2 in", "s2 out"]



async def test_exclusive_writes_go_one_at_a_time_in_order():
    gate, log = WriteGate(), []
    events = [asyncio.Event() for _ in range(3)]
    tasks = [asyncio.create_task(_hold(gate.exclusive(), log, f"x{i}", e)) for i, e in enumerate(events)]
    await asyncio.sleep(0)
    assert log == ["x0 in"]
    for e in events:
        e.set()
    await asyncio.gather(*tasks)
    assert log == ["x0 in", "x0 out", "x1 in", "x1 out", "x2 in", "x2 out"]



async def test_a_failed_shared_save_still_lets_the_exclusive_writer_in():
    gate = WriteGate()
    with pytest.raises(RuntimeError):
        async with gate.shared():
            raise RuntimeError("the UPDATE failed")
    async with asyncio.timeout(1):
        async with gate.exclusive():
            assert gate.shared_in_flight == 0

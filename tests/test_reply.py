"""A click's answer in time: a fast answer goes as the response, as always; an answer not ready
by the budget is deferred first, then edited in (the clicked message) or sent as a follow-up."""

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from cogs.reply import Reply, in_time, reply_of


class FakeResponse:
    def __init__(self, calls):
        self.calls, self.done = calls, False

    def is_done(self):
        return self.done

    async def defer(self):
        self.calls.append("defer")
        self.done = True

    async def edit_message(self, **message):
        self.calls.append(("edit", message))
        self.done = True

    async def send_message(self, *, ephemeral, **message):
        self.calls.append(("send", ephemeral, message))
        self.done = True
        return SimpleNamespace(message_id=11)


def interaction(age: float = 0.0):
    calls = []

    async def edit_original_response(**message):
        calls.append(("edit original", message))

    async def followup_send(*, ephemeral, wait, **message):
        calls.append(("followup", ephemeral, message))
        return SimpleNamespace(id=22)

    return SimpleNamespace(
        calls=calls, extras={}, response=FakeResponse(calls),
        created_at=datetime.now(UTC) - timedelta(seconds=age),
        edit_original_response=edit_original_response,
        followup=SimpleNamespace(send=followup_send))


async def test_a_fast_answer_is_the_response_itself():
    click = interaction()

    async def answer():
        await reply_of(click).edit(content="done")

    await in_time(click, answer(), budget=5.0)
    assert click.calls == [("edit", {"content": "done"})]
    assert not reply_of(click).deferred


async def test_a_slow_answer_is_deferred_then_edited_in():
    click = interaction()
    release = asyncio.Event()

    async def answer():
        await release.wait()  # the table's lock, a busy machine...
        await reply_of(click).edit(content="done")

    async def later():
        while "defer" not in click.calls:  # released only once the deferral has gone
            await asyncio.sleep(0)
        release.set()

    await asyncio.gather(in_time(click, answer(), budget=0.05), later())
    assert click.calls == ["defer", ("edit original", {"content": "done"})]


async def test_a_slow_new_message_is_a_follow_up_with_its_own_id():
    click = interaction()
    release = asyncio.Event()
    sent = []

    async def answer():
        await release.wait()
        sent.append(await reply_of(click).send(content="hand", ephemeral=True))

    async def later():
        while "defer" not in click.calls:
            await asyncio.sleep(0)
        release.set()

    await asyncio.gather(in_time(click, answer(), budget=0.05), later())
    assert click.calls == ["defer", ("followup", True, {"content": "hand"})] and sent == [22]
    assert reply_of(click).followup


async def test_a_click_that_arrives_late_is_deferred_at_once():
    click = interaction(age=2.5)
    release = asyncio.Event()

    async def answer():
        await release.wait()
        await reply_of(click).send(content="late", ephemeral=True)

    task = asyncio.ensure_future(in_time(click, answer(), budget=2.0))
    for _ in range(5):
        await asyncio.sleep(0)
    assert click.calls == ["defer"]  # before the answer is even ready
    release.set()
    await task
    assert click.calls[-1] == ("followup", True, {"content": "late"})


async def test_an_answer_ready_first_is_never_deferred_after():
    click = interaction()
    reply = Reply(click)
    click.extras["tonk_reply"] = reply
    await reply.edit(content="quick")
    await reply.defer()  # the timer fires late: nothing more is sent
    assert click.calls == [("edit", {"content": "quick"})]

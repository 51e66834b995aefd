"""Tournament night, end to end: the real bot (`python -m bot`) on the fake Discord, threads and all.

Entrants leave their seats once their table is dealt, so computer players play the seats out
(the result stays theirs, as at any table): the test follows the tournament, not the cards.
"""

from __future__ import annotations

import re
import signal

import pytest
from fakediscord.model import CREATE_PUBLIC_THREADS, GUILD_VOICE, PUBLIC_THREAD

from e2e_helpers import ack, bot_env, reply_text

ENTRANTS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan"]


@pytest.fixture
def hall(fake_discord):
    """Tonk Hall with nine members to sign up (the bot process talks to this fake)."""
    for name in ENTRANTS[4:]:
        fake_discord.add_member(fake_discord.guild, name)
    return fake_discord


async def start_bot(bot_process, tmp_path, fake, **extra):
    process = bot_process(env=bot_env(tmp_path, TONK_NEXT_DEAL_DELAY="0.2", **extra))
    await process.start()
    await fake.wait_for_commands("tonk")
    return process


async def open_signups(fake, channel="tonk", **options):
    sent = await fake.slash("admin", channel, "tonk tournament open", **options)
    await ack(sent)
    message = await sent.original()
    assert "sign-ups open" in message.text, message.text
    return message


async def sign_up(fake, message, names, *, already: int = 0):
    for name in names:
        await ack(await fake.click(name, message.button("Join")), expect=7)
    total = already + len(names)
    await fake.wait_for(lambda: f"{total} entrants" in message.text, what="the entrants listed")


def round_threads(fake, round_number):
    return [t for t in fake.guild.threads if t.name.startswith(f"Round {round_number} · Table")]


def table_message(fake, thread):
    return next((m for m in fake.visible("admin", thread) if m.author.id == fake.bot_user.id and m.embeds), None)


async def leave_every_seat(fake, thread):
    """Everyone seated at the thread's table leaves: a computer plays each seat out."""
    message = await fake.wait_for(lambda: table_message(fake, thread), what=f"the table in {thread.name}")
    await fake.wait_for(lambda: "Tonk · hand" in message.text or "closed" in message.text.lower(),
                        what="the first deal")
    seated = [name for name in ENTRANTS if f"<@{fake.user(name).id}>" in message.content
              or re.search(rf"\*\*{name.capitalize()}\*\*", message.text)]
    assert len(seated) >= 2, message.text
    for name in seated:
        if not any(b.label == "Leave" and not b.disabled for b in message.buttons):
            break  # the round is over at this table already
        sent = await fake.click(name, message.button("Leave"))
        await ack(sent)
        question = await sent.original()
        leave_now = next((b for b in question.buttons if b.label == "Leave now"), None)
        if leave_now is not None:
            await ack(await fake.click(name, leave_now))
    return seated


async def test_a_knockout_of_nine_at_three_seats_down_to_a_winner(hall, bot_process, tmp_path):
    fake = hall
    await start_bot(bot_process, tmp_path, fake)
    signups = await open_signups(fake, format="knockout", seats=3, hands=1, counts="ledger", starts_in=30)
    assert re.search(r"<t:\d+:F>", signups.text)  # the planned start, as a Discord timestamp
    # a second tournament in the channel, a stranger's Start, too few entrants: one line each, nothing changes
    assert "running in this channel already" in await reply_text(
        await fake.slash("admin", "tonk", "tonk tournament open"))
    await sign_up(fake, signups, ENTRANTS[:4])
    assert "needs 6 entrants for two tables of 3; 4 have signed up" in await reply_text(
        await fake.click("admin", signups.button("Start")))
    assert "signed up already" in await reply_text(await fake.click("alice", signups.button("Join")))
    await sign_up(fake, signups, ENTRANTS[4:], already=4)
    assert "Only the organiser" in await reply_text(await fake.click("alice", signups.button("Start")))
    assert round_threads(fake, 1) == []

    await ack(await fake.click("admin", signups.button("Start")))
    await fake.wait_for(lambda: len(round_threads(fake, 1)) == 3, timeout=15, what="three threads for round one")
    threads = round_threads(fake, 1)
    assert all(t.type == PUBLIC_THREAD and t.parent is fake.channel("tonk") for t in threads)
    await fake.wait_for(lambda: all(table_message(fake, t) is not None for t in threads), timeout=15,
                        what="a table in each thread")
    await fake.wait_for(lambda: "Table 3" in signups.text and "round 1" in signups.text, what="the standings")
    seated = []
    for thread in threads:
        seated += await leave_every_seat(fake, thread)
    assert sorted(seated) == sorted(ENTRANTS)  # everyone at one table of round one
    await fake.wait_for(lambda: "Round 1 is over" in signups.text, timeout=30, what="round one over")
    going = re.search(r"Going on: (.+)", signups.text).group(1)
    # the standings drawn, and said for screen readers: every entrant's place among the first ten
    picture = signups.attachment("standings.png")
    assert signups.embeds[0]["image"]["url"] == "attachment://standings.png"
    assert picture.description.startswith("Standings picture: Tonk tournament") and "1. " in picture.description
    assert signups.button("Next round") is not None
    assert "Only the organiser" in await reply_text(await fake.click("bob", signups.button("Next round")))

    await ack(await fake.click("admin", signups.button("Next round")))
    await fake.wait_for(lambda: len(round_threads(fake, 2)) == 1, timeout=15, what="the final table's thread")
    (final,) = round_threads(fake, 2)
    finalists = await leave_every_seat(fake, final)
    assert all(name.capitalize() in going or name in going for name in finalists)
    await fake.wait_for(lambda: " wins" in signups.text, timeout=30, what="the winner")
    winner = re.search(r"Tonk tournament: (.+?) wins", signups.text).group(1)
    assert winner.lower() in finalists
    # at the end, a podium: the winner first in its words too
    await fake.wait_for(lambda: signups.attachment("standings.png").description.startswith("Podium picture"),
                        what="the podium")
    assert f"1. {winner}: " in signups.attachment("standings.png").description
    announcement = await fake.wait_for_message("bob", "tonk", contains="wins the tournament")
    assert winner in announcement.text
    assert signups.buttons == [] or all(b.disabled for b in signups.buttons)

    # the history and the stats show it
    history = await reply_text(await fake.slash("carol", "tonk", "tonk tournament history"))
    assert "knock-out, 9 entrants" in history and winner in history
    stats = await fake.slash("carol", "tonk", "tonk stats player", player=winner.lower(), chart="none")
    await ack(stats)
    embed = (await stats.original()).embeds[0]
    field = next(f for f in embed["fields"] if f["name"] == "Tournaments")
    assert field["value"] == "1 played, 1 won"
    standings = await reply_text(await fake.slash("dave", "tonk", "tonk tournament standings"))
    assert "No tournament runs in this channel" in standings  # over: the channel is free again


async def test_a_swiss_of_eight_over_three_rounds_never_seats_a_pair_more_than_it_must(hall, bot_process, tmp_path):
    fake = hall
    await start_bot(bot_process, tmp_path, fake)
    signups = await open_signups(fake, format="swiss", seats=3, hands=1, rounds=3)
    await sign_up(fake, signups, ENTRANTS[:8])
    await ack(await fake.click("admin", signups.button("Start")))
    tables_by_round = []
    for number in (1, 2, 3):
        await fake.wait_for(lambda: len(round_threads(fake, number)) == 2, timeout=15,  # noqa: B023
                            what=f"round {number}'s threads")
        seatings = []
        for thread in round_threads(fake, number):
            seatings.append(frozenset(await leave_every_seat(fake, thread)))
        tables_by_round.append(seatings)
        if number < 3:
            await fake.wait_for(lambda: f"Round {number} is over" in signups.text, timeout=30,  # noqa: B023
                                what=f"round {number} over")
            await ack(await fake.click("admin", signups.button("Next round")))
    await fake.wait_for(lambda: " wins" in signups.text, timeout=30, what="the Swiss's winner")
    assert [sorted(len(t) for t in r) for r in tables_by_round] == [[4, 4]] * 3
    # eight at two tables of four: round two must repeat at least 4 pairs (2 of each table's
    # four from each old table); the bot's seating repeats no more than that
    pairs = lambda table: {frozenset((a, b)) for a in table for b in table if a < b}  # noqa: E731
    met = set().union(*(pairs(t) for t in tables_by_round[0]))
    assert sum(len(pairs(t) & met) for t in tables_by_round[1]) == 4
    places = re.findall(r"^(\d+)\. (\w+): (-?\d+) points, (\d+) hands? won, opponents (-?\d+)", signups.text, re.M)
    assert [int(p[0]) for p in places] == list(range(1, 9))
    keyed = [(-int(p[2]), -int(p[3]), -int(p[4])) for p in places]
    assert keyed == sorted(keyed)  # points, then hands won, then opponents' points decide


async def test_a_channel_without_threads_refuses_the_tournament_in_one_line(hall, bot_process, tmp_path):
    fake = hall
    await start_bot(bot_process, tmp_path, fake)
    bot_member = fake.guild.member(fake.bot_user.id)
    lobby = fake.channel("lobby")
    lobby.set_permissions(bot_member, deny=CREATE_PUBLIC_THREADS)
    text = await reply_text(await fake.slash("admin", "lobby", "tonk tournament open"))
    assert "I lack Create Public Threads in this channel" in text and "\n" not in text
    voice = fake.guild.add_channel("table-talk", type=GUILD_VOICE)
    assert "this channel takes no threads" in await reply_text(await fake.slash("admin", voice, "tonk tournament open"))
    assert "No tournament runs in this channel" in await reply_text(
        await fake.slash("alice", "lobby", "tonk tournament standings"))  # nothing was opened
    # permissions taken away between the sign-up and the start: Start names the missing one, and
    # the sign-ups stay open as they were
    lobby.set_permissions(bot_member, allow=CREATE_PUBLIC_THREADS)
    signups = await open_signups(fake, channel="lobby")
    await sign_up(fake, signups, ENTRANTS[:6])
    lobby.set_permissions(bot_member, deny=CREATE_PUBLIC_THREADS)
    text = await reply_text(await fake.click("admin", signups.button("Start")))
    assert "I lack Create Public Threads in this channel" in text
    assert "sign-ups open" in signups.text and fake.guild.threads == []


def standings_field(message) -> str:
    return next(f["value"] for f in message.embeds[0]["fields"] if f["name"] in ("Standings", "Places"))


async def test_a_kill_mid_round_resumes_every_table_and_the_standings(hall, bot_process, tmp_path, database_url):
    """On SQLite and on PostgreSQL: one table has finished its round, the other is mid-hand, when
    the bot is killed. After the start the standings are as they were, the other table plays on,
    and every hand is stored once, the ledger summing to zero."""
    fake = hall
    process = await start_bot(bot_process, tmp_path, fake, DATABASE_URL=database_url)
    signups = await open_signups(fake, format="knockout", seats=3, hands=2, counts="ledger")
    await sign_up(fake, signups, ENTRANTS[:6])
    await ack(await fake.click("admin", signups.button("Start")))
    await fake.wait_for(lambda: len(round_threads(fake, 1)) == 2 and all(
        table_message(fake, t) for t in round_threads(fake, 1)), timeout=15, what="round one's tables")
    first, second = round_threads(fake, 1)
    await leave_every_seat(fake, first)
    await fake.wait_for(lambda: "Round 1 is over at this table" in table_message(fake, first).text, timeout=30,
                        what="the first table's round over")
    await fake.wait_for(lambda: "done, best" in signups.text, timeout=10, what="the standings after it")
    assert "Round 1 is over at this table" not in table_message(fake, second).text  # a person is to play there
    before, edits = standings_field(signups), signups.edits
    await process.stop(sig=signal.SIGKILL)
    await process.start()
    await fake.wait_for(lambda: signups.edits > edits, timeout=15, what="the standings shown again")
    assert standings_field(signups) == before
    await leave_every_seat(fake, second)  # the second table resumed: its seats can still be left, and play on
    await fake.wait_for(lambda: "Round 1 is over" in signups.text, timeout=40, what="round one over after the kill")
    for thread in (first, second):
        await fake.wait_for(lambda: "Round 1 is over at this table: 2 hands played" in table_message(  # noqa: B023
            fake, thread).text, timeout=10, what=f"{thread.name} closed after its two hands")
    history = await fake.slash("alice", "tonk", "tonk history", count=10)
    await ack(history)
    hands = re.findall(r"`(\d+-\d+)`", (await history.original()).text)
    assert len(hands) == len(set(hands)) == 4, hands  # nothing lost, nothing doubled
    ledger = await fake.slash("alice", "tonk", "tonk ledger")
    await ack(ledger)
    text = (await ledger.original()).text
    points = [int(x) for x in re.findall(r"([+-]?\d+) points?", text)]
    assert points and sum(points) == 0, text

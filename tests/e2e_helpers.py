"""Driving the real bot through the fake Discord the way players do: clicks and menus."""

from __future__ import annotations

import os
import re
from pathlib import Path

from fakediscord import FakeDiscord

VALUES = {"ace": 1, "jack": 10, "queen": 10, "king": 10}


DEAL_SEED = os.environ.get("TONK_TEST_DEAL_SEED", "1")
"""The bot's deals are seeded (TONK_DEAL_SEED): a run is repeatable, and scripts/run_bot_tests.py
runs the suite under other seeds. No test may depend on which deal comes up."""


def bot_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        "TONK_DEAL_SEED": DEAL_SEED,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/tonk.db",
        "TONK_ENV_FILE": str(tmp_path / "no.env"),
        "TONK_COMPUTER_DELAY": "0.05",
        "TONK_TABLE_EDIT_INTERVAL": "0.5",
        # every turn pings, as the tests of pings expect; tests/test_bot_pings_e2e.py keeps the default
        "TONK_LOOKING_SECONDS": "0",
        "LOG_LEVEL": "INFO",
    }
    env.update(extra)
    return env


def card_value(label: str) -> int:
    """A card's value from its name (`king of spades`: 10; `joker 1`: 0, as engine.cards.count counts
    a joker): a house preset with jokers deals them into the menus."""
    if label.startswith("joker"):
        return 0
    rank = label.split(" of ")[0]
    return VALUES.get(rank) or int(rank)


def hand_line(message) -> list[str]:
    """The cards a private hand lists in its first line, as written (`7 of hearts (drawn)`)."""
    return message.embeds[0]["description"].splitlines()[0].removeprefix("### ").split(", ")


def button(message, prefix: str):
    for b in message.buttons:
        if b.label and b.label.startswith(prefix):
            return b
    return None


def menu(message, verb: str):
    for s in message.selects:
        if f":{verb}-menu" in s.custom_id:
            return s
    return None


def turn_name(table_message) -> str | None:
    embed = table_message.embeds[0] if table_message.embeds else {}
    match = re.search(r"\*\*(.+?)\*\* to play", embed.get("description") or "")
    return match.group(1) if match else None


def seat_counts(table_message) -> dict[str, int]:
    """{name: cards held} from the table embed's Seats field."""
    embed = table_message.embeds[0]
    field = next(f for f in embed["fields"] if f["name"] == "Seats")
    out = {}
    for line in field["value"].splitlines():
        m = re.search(r"\*\*(.+?)\*\* · (\d+) cards", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def showdown_payments(table_message) -> dict[str, int]:
    embed = table_message.embeds[0]
    out = {}
    for f in embed["fields"]:
        m = re.match(r"(.+?): count \d+$", f["name"])
        if m:
            pay = re.search(r"([+-]?\d+) points?", f["value"])
            out[m.group(1)] = int(pay.group(1)) if pay else 0
    return out


def hand_over(table_message) -> bool:
    return "Next hand" in [b.label for b in table_message.buttons]


async def deal_until_in_play(fake, table_message, user: str = "alice") -> None:
    """Past a tonk on the deal (a hand over at once), deal again until a hand is in play."""
    for _ in range(20):
        if not hand_over(table_message):
            return
        hand_number = int(re.search(r"hand (\d+)", table_message.text).group(1))
        await ack(await fake.click(user, table_message.button("Next hand")))
        await fake.wait_for(lambda: f"hand {hand_number + 1}" in table_message.text, what="the next deal")
    raise AssertionError("twenty tonks on the deal in a row")


async def ack(sent, *, expect: int | None = None) -> int:
    kind = await sent.ack()
    if expect is not None:
        assert kind == expect, (kind, sent)
    return kind


async def open_hand(fake: FakeDiscord, user: str, table_message, *, label: str = "My hand"):
    sent = await fake.click(user, table_message.button(label))
    await ack(sent)
    return await sent.original()


async def end_table(fake: FakeDiscord, user: str, channel: str = "tonk") -> None:
    """`/tonk end`, confirmed when it asks first (a hand in play, others waiting in the lobby)."""
    sent = await fake.slash(user, channel, "tonk end")
    await ack(sent)
    reply = await sent.original()
    if reply.buttons and reply.buttons[0].label == "Close the table":
        await ack(await fake.click(user, reply.button("Close the table")), expect=7)


async def reply_text(sent) -> str:
    """The text of an interaction's reply (ephemeral refusals included)."""
    await sent.ack()
    message = await sent.original()
    return message.text


DRAWN = "then discard to end your turn"
"""What the private hand says once its player has drawn (the first-hand hint also says
"then discard", so tests look for the whole phrase)."""


def hand_is_over(hand) -> bool:
    """The private hand says the hand has ended (not just any text with "over" in it: the
    first-hand hint and the help are free text)."""
    return "This hand is over" in hand.text


def confirm_button(hand):
    """The hand's Confirm button while a pick waits for its player's word (new players confirm picks)."""
    return next((b for b in hand.buttons if ":confirm:" in (b.custom_id or "")), None)


async def pick(fake: FakeDiscord, user: str, hand, select, value: str) -> None:
    """Pick a play from a menu of the hand message `hand`; confirm it if the hand asks first."""
    await ack(await fake.select(user, select, values=[value]))
    confirm = confirm_button(hand)
    if confirm is not None:
        await ack(await fake.click(user, confirm))


async def drop_confirmed(fake: FakeDiscord, user: str, hand) -> None:
    """Drop from the hand message: Drop asks once, then the confirm button drops."""
    await ack(await fake.click(user, button(hand, "Drop")))
    await fake.wait_for(lambda: button(hand, "Drop with") is not None, what="the drop's confirm step")
    await ack(await fake.click(user, button(hand, "Drop with")))


async def play_simple_turn(fake: FakeDiscord, user: str, table_message, *, drop: bool = False, hand=None):
    """Open the hand (or use `hand`, a live hand message); drop, or draw, lay the first spread
    offered, and discard the highest card."""
    if hand is None:
        hand = await open_hand(fake, user, table_message)
    if DRAWN not in hand.text:  # else the player has drawn already
        assert "Your turn" in hand.text, hand.text
        if drop and button(hand, "Drop"):
            await drop_confirmed(fake, user, hand)
            return hand
        await ack(await fake.click(user, button(hand, "Draw")))
        await fake.wait_for(lambda: DRAWN in hand.text or hand_is_over(hand), what="the draw")
    spread = menu(hand, "spread")
    if spread is not None:
        await pick(fake, user, hand, spread, spread.options[0].value)
        if hand_is_over(hand):
            return hand
    discard = menu(hand, "discard")
    if discard is None:
        return hand
    highest = max(discard.options, key=lambda o: card_value(o.label))
    await pick(fake, user, hand, discard, highest.value)
    return hand

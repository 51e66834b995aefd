"""Play a real game through the fake Discord and keep what the bot sent: docs/live/.

The bot runs as `python -m bot` against the fake Discord of the tests (tests/fakediscord),
on a throw-away database. Alice and Bob play a hand against a computer player by clicking
as people do; the script saves the pictures the bot attached to three messages (the table
in play, Alice's private hand just after a draw, the showdown) and, beside each, the text
of the same message, into docs/live/ with an index.md.

    python scripts/live_samples.py            # writes docs/live/*.png and index.md
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from e2e_helpers import (ack, bot_env, button, deal_until_in_play, hand_over, open_hand,  # noqa: E402
                         play_simple_turn, turn_name)
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.runner import BotProcess  # noqa: E402

OUT = ROOT / "docs" / "live"
PLAYERS = ("alice", "bob")
TURNS_BEFORE_DROP = 4


def snapshot(message, picture: str) -> tuple[bytes, str]:
    """The picture and the text of `message` as they are now (both at the same moment): its
    text, the picture's description (alt text), its buttons and its menus with their options,
    all that a screen reader reads of it."""
    attachment = message.attachment(picture)
    lines = [message.text, "", f"[picture, described as] {attachment.description or '(no description)'}"]
    buttons = [b.label for b in message.buttons if b.label]
    if buttons:
        lines.append("[buttons] " + " | ".join(buttons))
    for select in message.selects:
        options = "; ".join(o.label + (f" ({o.description})" if o.description else "") for o in select.options)
        lines.append(f"[menu] {select.placeholder}: {options}")
    return attachment.data, "\n".join(lines)


async def play(fake: FakeDiscord) -> dict[str, tuple[bytes, str]]:
    sent = await fake.slash("alice", "tonk", "tonk new", computers=1, level="normal", preset="standard")
    await ack(sent)
    table = await sent.original()
    await ack(await fake.click("bob", table.button("Join")))
    await fake.wait_for(lambda: f"<@{fake.user('bob').id}>" in table.text, what="bob seated")
    await ack(await fake.click("alice", table.button("Start")))
    await fake.wait_for(lambda: "Tonk · hand" in table.text, what="the deal")
    await deal_until_in_play(fake, table)
    hands = {user: await open_hand(fake, user, table) for user in PLAYERS}
    saved: dict[str, tuple[bytes, str]] = {}
    turns = 0
    while not hand_over(table):
        name = await fake.wait_for(
            lambda: hand_over(table) and "-" or (turn_name(table) in ("Alice", "Bob") and
                                                 "may drop, draw or take" in table.text and turn_name(table)),
            timeout=30, what="a person's turn")
        if name == "-":
            break
        user = name.lower()
        hand = hands[user]
        await fake.wait_for(lambda: "Your turn" in hand.text, timeout=10, what=f"{user}'s hand to show the turn")
        if turns >= 2 and "table" not in saved:
            saved["table"] = snapshot(table, "table.png")
        drop = turns >= TURNS_BEFORE_DROP and button(hand, "Drop") is not None
        if not drop and user == "alice" and "hand" not in saved:
            await ack(await fake.click(user, button(hand, "Draw")))
            await fake.wait_for(lambda: "You drew" in hand.text or hand_over(table), what="alice's draw")
            if "You drew" in hand.text:
                saved["hand"] = snapshot(hand, "hand.png")
        before = table.text
        await play_simple_turn(fake, user, table, hand=hand, drop=drop)
        turns += 1
        await fake.wait_for(lambda: table.text != before, timeout=10, what=f"{user}'s play to show")
    await fake.wait_for(lambda: hand_over(table) and "table.png" in [a.filename for a in table.attachments],
                        what="the showdown's picture")
    saved["showdown"] = snapshot(table, "table.png")
    return saved


async def main() -> None:
    fake = await FakeDiscord.tonk_hall().start()
    with tempfile.TemporaryDirectory() as tmp:
        process = BotProcess(fake, "bot", env=bot_env(Path(tmp), TONK_COMPUTER_DELAY="0.2"),
                             log_path=Path(tmp) / "bot.log")
        try:
            await process.start()
            await fake.wait_for_commands("tonk")
            saved = await play(fake)
        finally:
            await process.close()
            await fake.stop()
    OUT.mkdir(parents=True, exist_ok=True)
    lines = ["# Live play on the fake Discord", "",
             "Made by `python scripts/live_samples.py`: the real bot (`python -m bot`) against the",
             "fake Discord of the tests, Alice and Bob clicking against a computer player. Each",
             "picture is what the bot attached to a message; the text beside it is the same",
             "message's text (content, embed, fields), which menus, screen readers and",
             "notifications read, then the picture's description (its alt text), the buttons",
             "and the menus with their options. Cards are written in words in all of them (a",
             "screen reader says \"A♥\" as \"A black heart suit\"); the pictures draw them.", ""]
    captions = {"table": "The table in play (channel message)",
                "hand": "Alice's private hand just after a draw (ephemeral, edited as the game moves)",
                "showdown": "The showdown (the same channel message, at the hand's end)"}
    for name in ("table", "hand", "showdown"):
        png, text = saved[name]
        path = OUT / f"{name}.png"
        path.write_bytes(png)
        text = re.sub(r"<t:\d+:R>", "<t:…:R>", text)  # the deadline differs on every run
        lines += [f"## {captions[name]}", "", f"![{name}]({name}.png)", "", "```text", text, "```", ""]
        print(f"{path.relative_to(ROOT)}: {len(png):,} bytes")
    (OUT / "index.md").write_text("\n".join(lines))
    print(f"{(OUT / 'index.md').relative_to(ROOT)}")


if __name__ == "__main__":
    asyncio.run(main())

"""No word reaches a player without going through the catalogue: the real bot runs with the
pseudo-language (TONK_PSEUDO_LOCALE=1: every catalogue message wrapped in ⟦ ⟧, its letters
swapped for look-alikes), a table is opened, joined, dealt and played a turn, and help, rules and
the ledger are asked for. Every text the fake Discord was sent (contents, embeds, buttons, menus,
pictures' alt text) must then be pseudo-text, names, mentions, numbers and punctuation: a plain
English word in it was built outside the catalogue."""

from __future__ import annotations

import re

from e2e_helpers import ack, bot_env
from engine import PRESET_NAMES

PLAIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
ALLOWED = {
    # what is not words of the bot's: names, the game's name and Discord's own names for its permissions
    "Alice", "Bob", "Carol", "Dave", "Tonk", "Hall", "png",
} | {word for name in PRESET_NAMES for word in name.split()}  # a preset keeps the name a host types (preset:)


def _texts(message) -> list[str]:
    out = [message.content or ""]
    for embed in message.embeds:
        out += [embed.get("title") or "", embed.get("description") or "", (embed.get("footer") or {}).get("text") or ""]
        out += [part for f in embed.get("fields", []) for part in (f.get("name") or "", f.get("value") or "")]
    out += [b.label or "" for b in message.buttons]
    for select in message.selects:
        out.append(select.placeholder or "")
        out += [part for o in select.options for part in (o.label or "", o.description or "")]
    out += [a.description or "" for a in message.attachments]
    return out


def leaks(text: str) -> set[str]:
    """The plain words of `text` outside any pseudo-text (⟦…⟧, nested ones included)."""
    text = re.sub(r"<[@#!&t:][^>]*>", " ", text)  # mentions and timestamps
    text = re.sub(r"`[^`]*`", " ", text)  # code: command names stay English, as Discord shows them
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if stripped == text:
            break
        text = stripped
    return {w for w in PLAIN_WORD.findall(text) if w not in ALLOWED}


def _button(message, verb: str):
    return next(b for b in message.buttons if b.custom_id and f":{verb}" in b.custom_id)


async def test_every_text_the_bot_shows_comes_from_the_catalogue(fake_discord, bot_process, tmp_path):
    fake = fake_discord
    process = bot_process(env=bot_env(tmp_path, TONK_PSEUDO_LOCALE="1"))
    await process.start()
    await fake.wait_for_commands("tonk")
    sent = await fake.slash("alice", "tonk", "tonk new")
    await ack(sent)
    table = await sent.original()
    lobby = _texts(table)  # the lobby's words (its menus go once the hand is dealt)
    await ack(await fake.click("bob", _button(table, "join")))
    await ack(await fake.click("bob", _button(table, "start")))  # not the host: a refusal
    await ack(await fake.click("alice", _button(table, "start")))
    await fake.wait_for(lambda: any(b.custom_id and ":hand" in b.custom_id for b in table.buttons), what="the deal")
    hands = {}
    for user in ("alice", "bob"):
        sent = await fake.click(user, _button(table, "hand"))
        await ack(sent)
        hands[user] = await sent.original()
    to_act = next((u for u, h in hands.items() if any(b.custom_id and ":draw:" in b.custom_id for b in h.buttons)), None)
    if to_act is not None:
        await ack(await fake.click(to_act, _button(hands[to_act], "draw:")))
        await fake.wait_for(lambda: any(s.custom_id and "discard-menu" in s.custom_id for s in hands[to_act].selects),
                            what="the discard menu")
        discard = next(s for s in hands[to_act].selects if "discard-menu" in s.custom_id)
        await ack(await fake.select(to_act, discard, values=[discard.options[0].value]))
    for command in ("tonk help", "tonk rules", "tonk ledger", "tonk history", "tonk stats player", "tonk stats server",
                    "tonk top"):
        await ack(await fake.slash("carol", "tonk", command))
    for command, options in (("tonk-admin forget", {}), ("tonk-admin settings", {"new_season": True})):
        question = await (await fake.slash("admin", "tonk", command, **options)).original()  # a manager's questions
        # forget: keep everything ("Nothing changed."); the new season: begun, and the settings say so
        await ack(await fake.click("admin", question.buttons[-1 if command == "tonk-admin forget" else 0]))
    await fake.settle()
    found: dict[str, str] = {}
    for text in lobby + [text for message in fake.messages.values() for text in _texts(message)]:
        if True:
            for word in leaks(text):
                found.setdefault(word, text[:120])
    import sys
    for text in sorted(set(found.values())):
        print("LEAK", text, file=sys.stderr)
    assert not found, f"{len(found)} words outside the catalogue, e.g. " + "; ".join(
        f"{w!r} in {t!r}" for w, t in list(found.items())[:12])

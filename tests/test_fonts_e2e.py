"""A first start on a host with less than the README asks for: no Noto fonts, no raqm layout, or
both. The real bot (`python -m bot`) starts, says so in one warning naming the packages to install,
and draws the table, a hand and the showdown with what it has (TONK_FONT_DIRS pointing at an empty
folder is a host without the fonts; TONK_FONT_LAYOUT=basic one without raqm)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from e2e_helpers import ack, bot_env, deal_until_in_play, hand_over, open_hand, play_simple_turn, turn_name
from test_bot_e2e import open_table, start_table

FONT_PACKAGES = ("fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji")
MIXES = {
    "no fonts, raqm": (True, ""),
    "fonts, no raqm": (False, "basic"),
    "no fonts, no raqm": (True, "basic"),
}
CAROL = "محمد 👍🏽"
"""Carol's name: Arabic and an emoji, which a host without the fonts draws as code point boxes."""


def picture(message, name: str) -> bytes:
    data = message.attachment(name).data
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.width > 100 and image.height > 50, image.size
    return data


def warnings_of(output: str) -> list[str]:
    return [line for line in output.splitlines() if " WARNING " in line or " ERROR " in line]


@pytest.mark.parametrize("mix", list(MIXES))
async def test_the_bot_starts_and_draws_every_picture_with_what_the_host_has(mix, fake_discord, bot_process,
                                                                             tmp_path):
    empty, layout = MIXES[mix]
    fake = fake_discord
    fake.user("carol").global_name = CAROL
    folder = tmp_path / "no-fonts"
    folder.mkdir()
    env = bot_env(tmp_path, TONK_FONT_LAYOUT=layout, TONK_FONT_DIRS=str(folder) if empty else "")
    process = bot_process(env=env)
    await process.start()
    await fake.wait_for_commands("tonk")
    # one warning at start-up, naming what to install (and nothing else to worry the host)
    (warning,) = warnings_of(process.output())
    assert all((package in warning) == empty for package in FONT_PACKAGES), warning
    assert ("TONK_FONT_LAYOUT=basic" in warning) == (layout == "basic"), warning
    assert "Traceback" not in process.output()

    users = {"Alice": "alice", "Bob": "bob", CAROL: "carol"}
    table = await open_table(fake)
    await start_table(fake, table)
    await deal_until_in_play(fake, table)
    in_play = picture(table, "table.png")
    name = turn_name(table)
    hand = await open_hand(fake, users[name], table)
    picture(hand, "hand.png")
    # everyone plays; after a round the player to act drops: the showdown
    turns = 0
    while not hand_over(table):
        name = await fake.wait_for(lambda: hand_over(table) and "-" or turn_name(table), what="whose turn")
        if name == "-":
            break
        await play_simple_turn(fake, users[name], table, drop=turns >= len(users))
        turns += 1
        await fake.wait_for(lambda: turn_name(table) != name or hand_over(table), timeout=10,
                            what=f"the table after {name}'s turn")
    await fake.wait_for(lambda: table.attachments and table.attachment("table.png").data != in_play,
                        timeout=10, what="the showdown's picture")
    picture(table, "table.png")
    assert f"{CAROL}: count" in table.text  # the showdown names her as written, in the text
    assert process.running
    # and still one warning: the characters no font holds were drawn as boxes without a word each
    assert warnings_of(process.output()) == [warning]
    assert "Traceback" not in process.output()

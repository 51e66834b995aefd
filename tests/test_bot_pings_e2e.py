"""A turn pings only a person who is not looking (the production default, TONK_LOOKING_SECONDS=90):
a player who has not opened their hand is mentioned when their turn comes; once their private hand
follows the game and they have just clicked, their turn shows in their hand and the channel gets no
ping (the other tests set 0, every turn pinging, as the tests of pings expect)."""

from e2e_helpers import hand_over, play_simple_turn, turn_name

PING = "your turn at the Tonk table"


def pings_for(fake, user: str) -> list:
    """Every turn ping the channel was sent for `user`, removed ones included."""
    mention = f"<@{fake.user(user).id}>"
    return [m for m in fake.messages.values() if PING in m.content and m.content.startswith(mention)]


async def test_a_player_is_pinged_until_they_look_and_not_while_they_look(fake_discord, bot_process, tmp_path):
    from test_bot_e2e import open_table, start_bot, start_table

    fake = fake_discord
    await start_bot(bot_process, tmp_path, TONK_LOOKING_SECONDS="90")
    table = await open_table(fake, joiners=("bob", "carol"))
    await start_table(fake, table)  # nobody has opened a hand yet
    turns = {"alice": 0, "bob": 0, "carol": 0}
    while min(turns.values()) < 2:
        assert not hand_over(table), "the hand ended before everyone had two turns (another deal seed?)"
        name = await fake.wait_for(lambda: turn_name(table), what="whose turn")
        user = name.lower()
        if turns[user] == 0:
            # not looking yet: the ping is their word that it is their turn
            await fake.wait_for(lambda: len(pings_for(fake, user)) == 1, what=f"{user}'s ping")
        await play_simple_turn(fake, user, table)  # opens the hand (a click) and plays from it
        turns[user] += 1
        await fake.wait_for(lambda: turn_name(table) != name or hand_over(table), timeout=10, what="the turn to pass")
    await fake.settle()
    # every later turn found its player looking (their hand following, their click seconds old): no ping
    assert {user: len(pings_for(fake, user)) for user in turns} == {"alice": 1, "bob": 1, "carol": 1}

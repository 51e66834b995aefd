"""One table, five languages: a Spanish server (its Discord language, guild_locale es-ES) where
players whose clients speak Brazilian Portuguese, German, Japanese and Polish play a hand. The
channel's table message, its picture's alt text and the turn's ping are Spanish (shared, the
server's); each private hand, its picture's alt text and each refusal are in its reader's own
language, with the counts as that language writes them (Polish: 1 karta, 2 karty, 5 kart). The
words are looked up in the shipped catalogues, and each is held to differ from the English, so the
test fails if a language falls back to English for any of them (the pictures' alt text is held to
the reader's catalogue as it stands: where a language lacks a message, it reads English there)."""

import i18n
from engine.text import t, tc, tn
from e2e_helpers import ack, open_hand, reply_text

PLAYERS = {"alice": "pt-BR", "bob": "de", "carol": "ja", "dave": "pl"}
SERVER = "es-ES"


def words(locale: str, text) -> str:
    rendered = i18n.lang(locale).render(text)
    assert rendered != i18n.ENGLISH.render(text), f"{locale} has no translation of {text!r}"
    return rendered


async def test_each_player_reads_their_own_language_at_a_spanish_table(fake_discord, bot_process, tmp_path):
    from test_bot_e2e import start_bot

    fake = fake_discord
    fake.guild.locale = SERVER
    for user, locale in PLAYERS.items():
        fake.user(user).locale = locale
    await start_bot(bot_process, tmp_path)

    sent = await fake.slash("alice", "tonk", "tonk new")
    await ack(sent)
    table = await sent.original()
    assert words(SERVER, t("Tonk table: waiting for players")) in table.text  # shared: the server's language
    join = words(SERVER, tc("button", "Join"))
    for user in ("bob", "carol", "dave"):
        await ack(await fake.click(user, table.button(join)))
    await fake.wait_for(lambda: all(f"<@{fake.user(u).id}>" in table.text for u in PLAYERS), what="the joins")
    # a refusal goes to the one who clicked, in their language: only the host may start
    refusal = await reply_text(await fake.click("bob", table.button(words(SERVER, tc("button", "Start")))))
    assert refusal == words("de", t("Only the host can start the table."))
    await ack(await fake.click("alice", table.button(words(SERVER, tc("button", "Start")))))
    lobby = words(SERVER, t("Tonk table: waiting for players"))
    await fake.wait_for(lambda: lobby not in table.text and table.attachments, what="the deal")
    assert not any(b.custom_id and ":next" in b.custom_id for b in table.buttons), \
        "a tonk on the deal (another deal seed?): nothing to read"

    # the table's picture is described in Spanish for the server's screen readers
    picture = table.attachment("table.png")
    head = words(SERVER, t("Table picture: {title}.", title="\x00")).split("\x00")[0]
    assert picture.description.startswith(head)

    my_hand = words(SERVER, tc("button", "My hand"))
    for user, locale in PLAYERS.items():
        hand = await open_hand(fake, user, table, label=my_hand)
        assert hand.embeds[0]["title"] == words(locale, t("Your hand"))
        count = words(locale, t("Count **{count}**", count=0)).split("**")[0]
        assert count in hand.text
        if any(b.custom_id and ":draw:" in b.custom_id for b in hand.buttons):  # this reader's turn  # the stock's size, counted as the reader's language counts
            stock = next(f["value"] for f in hand.embeds[0]["fields"]
                         if f["name"] == words(locale, t("Stock")))
            n = int("".join(ch for ch in stock if ch.isdigit()))
            assert stock == i18n.lang(locale).render(tn("{n} card", "{n} cards", n))
        else:
            assert words(locale, t("Not your turn: **{who}** is playing.", who="XX")).split("XX")[0].strip() \
                in hand.text
        # the hand's picture is described in the reader's language too
        alt = hand.attachment("hand.png").description
        assert alt.startswith(i18n.lang(locale).render(t("Your hand.")))

    # Polish counts as Polish does, and German writes a decimal comma
    polish = i18n.lang("pl")
    assert [polish.render(tn("{n} card", "{n} cards", n)) for n in (1, 2, 5, 22)] == \
        ["1 karta", "2 karty", "5 kart", "22 karty"]
    assert i18n.lang("de").number(1.5) == "1,5" and i18n.lang(SERVER).number(1.5) == "1,5"

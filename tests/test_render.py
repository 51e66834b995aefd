"""What the cogs render stays inside Discord's limits and holds nothing in memory."""

import random

import pytest

from bot.commands import Join, Start, play_value
from bot.service import Person, TableService
from bot.store import open_database
from cogs import render
from engine_helpers import cards_named
from i18n import ENGLISH
from service_helpers import do, play


@pytest.fixture
async def service(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/tonk.db")
    yield TableService(db, rng=random.Random(2))
    await db.close()


def check_limits(message):
    embed = message["embed"].to_dict()
    assert len(embed.get("description") or "") <= 4096 and len(embed.get("fields", [])) <= 25
    assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in embed.get("fields", []))
    view = message["view"]
    if view is None:
        return
    # clicks are routed by cogs/components.py's route, so no view is kept alive per message
    assert view.is_finished()
    items = view.children
    assert len(items) <= 25
    for item in items:
        assert len(item.custom_id) <= 100
        options = getattr(item, "options", None)
        if options is not None:
            assert 1 <= len(options) <= 25 and all(len(o.value) <= 100 and len(o.label) <= 100 for o in options)


async def test_lobby_table_and_hand_messages_fit_discord(service):
    people = [Person(i, f"player{i}") for i in range(1, 7)]
    view = await service.open_table(guild_id=1, channel_id=2, host=people[0], preset="seattle")
    check_limits(render.table_message(view.public()))
    for p in people[1:5]:
        view = await do(service, view.id, p, Join)
    view = await do(service, view.id, people[0], Start)
    for _ in range(40):
        check_limits(render.table_message(view.public()))
        if not view.in_play:
            break
        game = view.game
        check_limits(render.hand_message(view.seat_view(game.turn), table_id=view.id, hand_number=view.hand_number,
                                         moves=view.moves))
        action = random.Random(len(game.log)).choice([a for a in game.legal_actions(game.turn) if a.verb != "drop"])
        view = await play(service, view.id, people[game.turn], action.verb, play_value(action))
    check_limits(render.table_message(view.public()))


def _shown(message) -> str:
    """Everything a message shows or carries: embed text, labels, option values, custom ids."""
    parts = [str(message.get("content") or ""), str(message["embed"].to_dict())]
    view = message["view"]
    for item in view.children if view is not None else ():
        parts += [str(getattr(item, "label", "") or ""), str(getattr(item, "placeholder", "") or ""), item.custom_id]
        for option in getattr(item, "options", None) or ():
            parts += [option.label, option.value]
    return "\n".join(parts)


def _cards_in(text: str, cards) -> set:
    """The cards of `cards` that `text` names: in words (ace of spades, a run's 4, 5, 6 of hearts),
    with a suit symbol (A♠) or by code (As)."""
    import re

    tokens = set(re.split(r"[\s.,:;@'\"()\[\]{}]+", text))
    return {c for c in cards if c.code in tokens} | (cards_named(text) & set(cards))


def _named(view) -> set:
    """The cards wild cards stand for: on the table, in the history, and in this seat's own
    legal plays (a name says nothing of where that card is)."""
    named = {n for s in view.spreads for _, n in s.named}
    for action in [e.action for e in view.history] + list(view.legal_actions):
        named |= {n for _, n in getattr(action, "wilds", ())}
        if getattr(action, "stands_for", None) is not None:
            named.add(action.stands_for)
    return named


def _cards_in_words_of(lang):
    """What `_cards_in` is for English, in `lang`: the cards a text names, each as the language
    writes a card (`lang.value(card)`), longest names first (so "10" is not read as "1")."""
    from engine import Card

    def cards_in(text: str, cards) -> set:
        named = set()
        for card in sorted(cards, key=lambda c: -len(lang.value(c))):
            words = lang.value(card)
            if words in text:
                named.add(card)
                text = text.replace(words, "\x00")
        tokens = set(__import__("re").split(r"[\s.,:;@'\"()\[\]{}]+", text))
        return named | {c for c in cards if isinstance(c, Card) and c.code in tokens}
    return cards_in


@pytest.mark.parametrize("seed", range(12))
def test_no_message_shows_a_card_its_viewer_may_not_see(seed):
    """Random tables and hands: before the showdown the channel names no card of any hand or
    of the stock (unless the table saw it), and a private hand names no other hand's cards."""
    _no_card_leaks(seed, ENGLISH, _cards_in)


@pytest.mark.parametrize("code", [code for code in __import__("i18n").CATALOGUES if code != "en"])
def test_no_message_shows_a_card_its_viewer_may_not_see_in_any_language(code):
    """The same, in every shipped language: the words change, what a seat is shown does not
    (the showdown must name every hand's cards in the language's words, so the reader works)."""
    import i18n

    lang = i18n.lang(code)
    for seed in (100, 101):
        _no_card_leaks(seed, lang, _cards_in_words_of(lang))


def _no_card_leaks(seed, lang, cards_in):
    from bot.table import Scoring, Table
    from engine import PRESET_NAMES, Rules

    rng = random.Random(seed)
    preset = rng.choice([p for p in PRESET_NAMES if Rules.preset(p).max_players() >= 4])
    table = Table.open(guild_id=1, channel_id=2, host_id=1, host_name="p1", rules=Rules.preset(preset), stake=1,
                       scoring=Scoring.STAKES)
    for user in range(2, rng.randint(2, 4) + 1):
        table, _ = table.join(user, f"p{user}")
    table, _ = table.start(1, rng)
    for _ in range(3):  # hands
        while table.in_play:
            game = table.game
            # what the whole table saw: what every seat saw (only its own hand is a seat's alone)
            seen = set.intersection(*(table.seat_view(i).seen_cards() for i in range(len(table.seats))))
            hidden = {c for h in game.hands for c in h} | set(game.stock)
            seen |= _cards_in(ENGLISH.render(table.cuts) if table.cuts else "", hidden)  # the cut for the deal is a deck of its own
            seen |= _named(table.seat_view(0))  # what wild cards stand for is public (not where that card is)
            channel = _shown(render.table_message(table.public(), lang=lang))
            assert not cards_in(channel, hidden - seen), (preset, channel)
            for seat in range(len(table.seats)):
                view = table.seat_view(seat)
                private = _shown(render.hand_message(view, table_id=table.id, hand_number=table.hand_number,
                                                     moves=table.moves, lang=lang))
                allowed = view.seen_cards() | _named(view)
                assert not cards_in(private, hidden - allowed), (preset, seat, private)
            seat = game.to_act
            legal = game.legal_actions(seat)
            action = rng.choice([a for a in legal if a.verb != "drop"] if rng.random() < 0.95 else legal)
            table, _ = table.act(table.seats[seat].user_id, action)
        shown = _shown(render.table_message(table.public(), lang=lang))
        every = {c for h in table.game.hands for c in h}
        assert every <= cards_in(shown, every), (preset, shown)  # the showdown shows every hand
        table, _ = table.next_hand(1, rng)


@pytest.mark.parametrize("scoring", ["stakes", "pushups"])
async def test_the_help_fits_one_embed_for_every_preset(scoring):
    from dataclasses import replace

    from engine import PRESET_NAMES, Rules
    from engine.help import help_sections

    for name in PRESET_NAMES:
        rules = replace(Rules.preset(name), scoring=scoring)
        message = render.help_message(help_sections(rules, stake=1000), "Under the house rules of table 99 here")
        check_limits(message)
        assert len(message["embed"]) <= 6000  # Discord's total for an embed
        assert [f.name for f in message["embed"].fields][0] == "Goal"


async def test_a_wild_card_hand_offers_each_menu_value_once():
    from engine import DRAW, Rules
    from engine_helpers import deal

    game = deal(["5s 6s X1 2h Kd", "2c 3d 4h 9h Qh"], stock="8c", upcard="Jd", rules=Rules.preset("deuces wild"))
    game.apply(0, DRAW)
    assert any(getattr(a, "wilds", ()) for a in game.legal_actions(0))  # plays the menus cannot carry yet
    message = render.hand_message(game.view(0), table_id=1, hand_number=1, moves=1)
    check_limits(message)
    for item in message["view"].children:
        values = [o.value for o in getattr(item, "options", None) or []]
        assert len(values) == len(set(values))


async def test_a_turn_that_stood_still_for_discord_says_so_in_the_servers_language(service):
    """The table tells why its turn's timer waited: Discord was out of reach for a while (said with
    CLDR's units in the server's language); a reconnect of a second or two goes unsaid."""
    import time

    import i18n

    people = [Person(1, "p1"), Person(2, "p2")]
    view = await service.open_table(guild_id=1, channel_id=2, host=people[0])
    view = await do(service, view.id, people[1], Join)
    view = await do(service, view.id, people[0], Start)
    assert view.in_play  # the seeded deal is no tonk on the deal
    deadline = time.time() + 60
    assert "unreachable" not in render.table_message(view.public(), deadline=deadline, paused=2)["embed"].description
    shown = render.table_message(view.public(), deadline=deadline, paused=130)["embed"].description
    assert "Discord was unreachable for 2 minutes: the timer paused." in shown
    german = render.table_message(view.public(), deadline=deadline, paused=9, lang=i18n.lang("de"))["embed"].description
    assert "Discord war 9 Sekunden lang nicht erreichbar" in german
    polish = render.table_message(view.public(), deadline=deadline, paused=300, lang=i18n.lang("pl"))["embed"].description
    assert "przez 5 minut:" in polish

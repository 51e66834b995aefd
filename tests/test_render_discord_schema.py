"""Every message the bot builds is one Discord accepts.

Generated tables of every preset, every hand size the rules allow and every player count are
played with random legal moves (seeded: the same tables every run); at each step the channel
message and every seat's private hand (its confirm and two-step states too) are turned into the
JSON discord.py sends and held against Discord's own OpenAPI description
(../shared/discord-api/openapi.json): the request body of an interaction's message, whose
schema gives the text limits, the menus' option counts and the buttons per row. What the
schema does not state, Discord's documentation does, and the test checks it as written there:
at most 5 action rows, custom ids unique within a message, 6,000 characters of embed text.

Every text a player reads in these messages (content, embeds, button and menu labels, options,
a picture's description) writes cards in words ("ace of spades", "4, 5, 6 of hearts"), never
with a suit symbol: a screen reader says "10♥" as "10 black heart suit". The pictures keep
the symbols; player names (none here has one) are shown as written.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

import i18n

from bot.commands import play_from, play_value
from bot.table import Level, Scoring, Status, Table
from cogs import render
from cogs.components import SELECT_TEMPLATE, Verb
from engine import DRAW, PRESET_NAMES, Discard, Hit, Rules, Spread
from engine.help import OPTIONS, help_sections
from engine.rules import HAND_SIZES
from engine_helpers import C, cards, cards_named, deal
from test_table_house import ALICE, BOB, at_table
from test_table_house import slap_window

SPEC = Path(__file__).resolve().parents[2] / "shared" / "discord-api" / "openapi.json"
BODY = "IncomingWebhookUpdateForInteractionCallbackRequestPartial"
"""The schema of a message sent or edited through an interaction (the table message is the reply
to /tonk new, a private hand an interaction's reply): the strictest of Discord's message bodies
(2,000 characters of content, where a bot's own channel message may have 4,000)."""
MAX_ACTION_ROWS = 5  # Discord's documentation (the schema allows 40 components of the newer kind)
MAX_EMBED_TEXT = 6000  # Discord's documentation: all of an embed's text together
NAME = "Abcdefghijklmnopqrstuvwxyz-12345"  # 32 characters: the longest display name Discord has
SUITS = set("♠♥♦♣")


class Schema:
    """The OpenAPI description's request schemas, checked the way JSON Schema does for the
    keywords they use (type, properties, required, items, min/maxItems, uniqueItems,
    min/maxLength, pattern, minimum/maximum, enum, const, allOf, oneOf, $ref; `format` is not checked). `jsonschema` does the same fifty times slower:
    `test_the_fast_check_agrees_with_jsonschema` holds the two against each other."""

    def __init__(self, spec: dict):
        self.schemas = spec["components"]["schemas"]

    def resolve(self, schema: dict) -> dict:
        while "$ref" in schema:
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def may_fit(self, schema: dict, value) -> bool:
        schema = self.resolve(schema)
        if "const" in schema:
            return value == schema["const"]
        kind = (schema.get("properties") or {}).get("type") or {}
        if isinstance(value, dict) and "enum" in kind and "type" in value:
            return value["type"] in kind["enum"]
        return True

    def errors(self, schema: dict, value, path: str = "") -> list[str]:
        schema = self.resolve(schema)
        out: list[str] = []
        kinds = schema.get("type")
        if kinds is not None:
            kinds = [kinds] if isinstance(kinds, str) else kinds
            if not any(TYPES[k](value) for k in kinds):
                return [f"{path}: {value!r:.60} is not of type {kinds}"]
        if "enum" in schema and value not in schema["enum"]:
            out.append(f"{path}: {value!r} is not one of {schema['enum']}")
        if "const" in schema and value != schema["const"]:
            out.append(f"{path}: {value!r} is not {schema['const']!r}")
        if isinstance(value, str):
            if "pattern" in schema and not re.search(schema["pattern"], value):
                out.append(f"{path}: {value!r:.60} does not match {schema['pattern']}")
            if len(value) > schema.get("maxLength", len(value)) or len(value) < schema.get("minLength", 0):
                out.append(f"{path}: {len(value)} characters, not {schema.get('minLength', 0)} to "
                           f"{schema.get('maxLength')}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if value > schema.get("maximum", value) or value < schema.get("minimum", value):
                out.append(f"{path}: {value} is outside {schema.get('minimum')} to {schema.get('maximum')}")
        if isinstance(value, list):
            if len(value) > schema.get("maxItems", len(value)) or len(value) < schema.get("minItems", 0):
                out.append(f"{path}: {len(value)} items, not {schema.get('minItems', 0)} to {schema.get('maxItems')}")
            if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in value}) < len(value):
                out.append(f"{path}: items repeat")
            if "items" in schema:
                for i, item in enumerate(value):
                    out += self.errors(schema["items"], item, f"{path}/{i}")
        if isinstance(value, dict):
            out += [f"{path}: {key} is required" for key in schema.get("required", ()) if key not in value]
            for key, sub in schema.get("properties", {}).items():
                if key in value:
                    out += self.errors(sub, value[key], f"{path}/{key}")
        for sub in schema.get("allOf", ()):
            out += self.errors(sub, value, path)
        if "oneOf" in schema:
            # a branch that names other constants or component types than `value` has cannot fit
            # it: it is counted as not fitting without walking it (what makes this check fast)
            results = [self.errors(sub, value, path) if self.may_fit(sub, value) else ["another kind"]
                       for sub in schema["oneOf"]]
            fits = [r for r in results if not r]
            if len(fits) != 1:
                best = min(results, key=len)
                out += best if not fits else [f"{path}: fits {len(fits)} of oneOf"]
        return out


TYPES = {"object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
         "string": lambda v: isinstance(v, str), "null": lambda v: v is None,
         "boolean": lambda v: isinstance(v, bool),
         "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
         "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)}


@pytest.fixture(scope="module")
def spec() -> dict:
    if not SPEC.exists():
        pytest.skip(f"Discord's API description is not beside the repository ({SPEC})")
    return json.loads(SPEC.read_text())


@pytest.fixture(scope="module")
def validator(spec):
    return Schema(spec)


@pytest.fixture(scope="module")
def schema_limits(spec):
    """The limits the checks below take from the schema (not typed in here a second time)."""
    schemas = spec["components"]["schemas"]
    row = schemas["ActionRowComponentForMessageRequest"]["properties"]["components"]
    return SimpleNamespace(per_row=row["maxItems"])


class Checker:
    """Holds each message against the schema and the documented limits; counts what it saw."""

    def __init__(self, validator, limits):
        self.validator, self.limits = validator, limits
        self.messages = 0
        self.two_focus_menus = 0
        self.focus_states = 0
        self.naming_cards = 0  # messages that name a card (in words)
        self.english_suits = 0  # messages that name a card's suit in English ("of spades")

    def __call__(self, message: dict, what: str) -> dict:
        payload = payload_of(message)
        errors = self.validator.errors({"$ref": BODY}, payload)
        assert not errors, f"{what}: " + "; ".join(errors[:5])
        rows = payload.get("components") or []
        assert len(rows) <= MAX_ACTION_ROWS, (what, len(rows))
        ids = [c["custom_id"] for row in rows for c in row["components"] if c.get("custom_id")]
        assert len(ids) == len(set(ids)), (what, ids)
        for row in rows:
            # the schema's limit, and a menu fills its row alone (Discord's documentation)
            assert len(row["components"]) <= self.limits.per_row
            assert all(c["type"] == 2 for c in row["components"]) or len(row["components"]) == 1, (what, row)
        for embed in payload.get("embeds") or []:
            assert embed_text(embed) <= MAX_EMBED_TEXT, (what, embed_text(embed))
        focus = [i for i in ids if ":focus-menu:" in i]
        self.two_focus_menus += len(focus) == 2
        read = "\n".join(texts_read(payload) + [f.description or "" for f in message.get("attachments") or ()])
        assert not SUITS & set(read), (what, [line for line in read.splitlines() if SUITS & set(line)])
        self.naming_cards += bool(cards_named(read))
        self.english_suits += bool(re.search(r"\bof (clubs|diamonds|hearts|spades)\b", read, re.IGNORECASE))
        self.messages += 1
        return payload


def texts_read(payload: dict) -> list[str]:
    """Every text of a message a player reads or hears: its content, its embeds' title,
    description, fields, footer and author, its buttons' and menus' labels, placeholders and options."""
    out = [payload.get("content") or ""]
    for embed in payload.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or "",
                (embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
        out += [part for f in embed.get("fields") or [] for part in (f["name"], f["value"])]
    for row in payload.get("components") or []:
        for item in row["components"]:
            out += [item.get("label") or "", item.get("placeholder") or ""]
            out += [part for o in item.get("options") or [] for part in (o["label"], o.get("description") or "")]
    return out


def payload_of(message: dict) -> dict:
    """The JSON discord.py sends for a message the cogs built (content, embeds, components)."""
    payload: dict = {}
    if message.get("content") is not None:
        payload["content"] = message["content"]
    embeds = list(message.get("embeds") or []) + ([message["embed"]] if message.get("embed") is not None else [])
    if embeds:
        payload["embeds"] = [e.to_dict() for e in embeds]
    if message.get("view") is not None:
        payload["components"] = message["view"].to_components()
    assert payload, "an empty message"
    return payload


def embed_text(embed: dict) -> int:
    fields = embed.get("fields") or []
    return (len(embed.get("title") or "") + len(embed.get("description") or "")
            + sum(len(f["name"]) + len(f["value"]) for f in fields)
            + len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or ""))


def menus(payload: dict) -> list[dict]:
    return [c for row in payload.get("components") or [] for c in row["components"] if c["type"] == 3]


# ---------------------------------------------------------------------------- generated tables

def tables_to_play(preset: str):
    """(hand size, players) for every hand size the preset's deck deals to two or more: two
    players, as many as it seats, and one count between (every count at the preset's own size)."""
    rng = random.Random(preset)
    for size in sorted(HAND_SIZES):
        rules = replace(Rules.preset(preset), hand_size=size)
        most = rules.max_players()
        if most < 2:
            continue
        counts = range(2, most + 1) if size == Rules.preset(preset).hand_size else {2, most, rng.randint(2, most)}
        for players in sorted(counts):
            yield size, players


def open_table(rules: Rules, players: int, rng: random.Random) -> Table:
    table = Table.open(guild_id=1, channel_id=2, host_id=1, host_name=NAME, rules=rules, stake=1000,
                       scoring=rng.choice(list(Scoring)))
    for user in range(2, players + 1):
        if rng.random() < 0.3:
            table, _ = table.add_computer(1, rng.choice(list(Level)))
        else:
            table, _ = table.join(user, NAME[:-len(str(user))] + str(user))
    return table


def check_hand(check: Checker, table: Table, seat: int, rng: random.Random, what: str) -> None:
    view = table.seat_view(seat)
    common = dict(table_id=table.id, hand_number=table.hand_number, moves=table.moves, deadline=1.7e9,
                  away=table.seats[seat].away)
    payload = check(render.hand_message(view, **common, note="x" * 200), what)
    if not view.my_turn:
        return
    check(render.hand_message(view, **common, confirm_drop=True), what + " (drop's confirm)")
    for select in menus(payload):
        if ":focus-menu:" not in select["custom_id"]:
            continue
        # the click parses as the two-step choice of this message, whichever menu it came from
        match = re.fullmatch(SELECT_TEMPLATE, select["custom_id"])
        assert match and (match["verb"], match["version"]) == (Verb.FOCUS, str(table.moves)), select["custom_id"]
        for option in rng.sample(select["options"], min(2, len(select["options"]))):
            check.focus_states += 1
            second = check(render.hand_message(view, **common, focus=option["value"]), what + " (second step)")
            verb = option["value"].split(":")[0]
            assert any(f":{verb}-menu:" in m["custom_id"] for m in menus(second)), (what, option)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_table_and_hand_message_of_every_preset_is_one_discord_accepts(validator, schema_limits, preset):
    check = Checker(validator, schema_limits)
    play_through(check, preset)
    assert check.messages > 100 and check.naming_cards > check.messages / 2 and check.english_suits > 0


@pytest.mark.parametrize("code", [code for code in i18n.CATALOGUES if code != "en"])
def test_every_message_is_one_discord_accepts_in_every_language(validator, schema_limits, code, monkeypatch):
    """Chicago's tables (wild cards, long menus, 5 to 12 cards) played through in each shipped
    language: German and Russian run 30% longer, and no label, option, field or alt text may
    break Discord's limits for it (the messages are the ones the English run checks)."""
    import functools

    lang = i18n.lang(code)
    for name in ("table_message", "lobby_message", "hand_message"):
        monkeypatch.setattr(render, name, functools.partial(getattr(render, name), lang=lang))
    check = Checker(validator, schema_limits)
    play_through(check, "chicago")
    assert check.messages > 100 and check.english_suits == 0  # no card named in English among the language's words


def play_through(check: "Checker", preset: str) -> None:
    """Every table size of `preset`, two hands each, every message checked by `check`."""
    for size, players in tables_to_play(preset):
        rng = random.Random(f"{preset}/{size}/{players}")
        rules = replace(Rules.preset(preset), hand_size=size)
        table = open_table(rules, players, rng)
        what = f"{preset}, {size} cards, {players} players"
        check(render.lobby_message(table.public()), what + ": lobby")
        table, _ = table.start(1, rng)
        for hand in range(2):
            steps = 0
            while table.in_play and steps < (30 if hand == 0 else 1):
                check(render.table_message(table.public(), deadline=1.7e9), what + ": table")
                game = table.game
                for seat in range(len(table.seats)):
                    if seat == game.to_act or steps % 10 == 0:
                        check_hand(check, table, seat, rng, f"{what}: seat {seat}")
                legal = game.legal_actions(game.to_act)
                # lay and hit where possible (big tables with many spreads), drop seldom
                plays = [a for a in legal if a.verb in ("spread", "hit")] if rng.random() < 0.7 else []
                action = rng.choice(plays or [a for a in legal if a.verb != "drop"] or legal)
                table, _ = table.act(table.seats[game.to_act].user_id or 1, action) \
                    if table.seats[game.to_act].is_human else table.computer_play(lambda *_: action)
                steps += 1
            check(render.table_message(table.public()), what + ": showdown")
            for seat in range(len(table.seats)):
                check_hand(check, table, seat, rng, f"{what}: seat {seat} after the hand")
            if table.status is Status.BETWEEN_HANDS:
                table, _ = table.next_hand(1, rng)
        table, _ = table.end(1, NAME)
        check(render.table_message(table.public()), what + ": closed")


def both_menus_in_two_steps() -> Table:
    """Chicago with 12 cards: alice has laid three spreads; bob, five wild cards in hand, has
    drawn: 70 spreads and 28 hits, more than a menu holds of each."""
    rules = replace(Rules.preset("chicago"), hand_size=12)
    game = deal(["7c 8c 9c Qs Qh Qd 4d 5d 6d Kh As 3s", "2c 2d 2h X1 X2 10c 3d Qc 5s 9h Jh Ad",
                 "3h 3c 4h 4s 4c 8s 8d 8h Jc 5h 6h 7h"], stock="Jd 5c", rules=rules, names=["alice", "bob", "carol"])
    table = at_table(game, rules)
    table, _ = table.act(ALICE, DRAW)
    for spread in ("7c 8c 9c", "Qs Qh Qd", "4d 5d 6d"):
        table, _ = table.act(ALICE, next(a for a in table.game.legal_actions(0)
                                         if isinstance(a, Spread) and set(a.cards) == set(cards(spread))))
    table, _ = table.act(ALICE, Discard(C("Jd")))
    table, _ = table.act(BOB, DRAW)
    return table


def test_a_hand_with_too_many_spreads_and_too_many_hits_shows_both_menus_and_both_work(validator, schema_limits):
    check = Checker(validator, schema_limits)
    table = both_menus_in_two_steps()
    legal = table.game.legal_actions(1)
    wanted = {"spread": {a for a in legal if isinstance(a, Spread)}, "hit": {a for a in legal if isinstance(a, Hit)}}
    assert len(wanted["spread"]) > 25 and len(wanted["hit"]) > 25
    common = dict(table_id=table.id, hand_number=table.hand_number, moves=table.moves)
    first = check(render.hand_message(table.seat_view(1), **common), "both two-step menus")  # ids unique
    steps = [m for m in menus(first) if re.fullmatch(SELECT_TEMPLATE, m["custom_id"])["verb"] == Verb.FOCUS]
    assert len(steps) == 2
    for select in steps:
        verb = select["options"][0]["value"].split(":")[0]
        reached = set()
        for option in select["options"]:
            assert option["value"].startswith(f"{verb}:")
            # the pick (the same click from either menu) shows that group's plays in the kind's menu
            second = check(render.hand_message(table.seat_view(1), **common, focus=option["value"]), "second step")
            offered = next(m for m in menus(second) if f":{verb}-menu:" in m["custom_id"])
            reached |= {play_from(verb, o["value"]) for o in offered["options"]}
        assert reached == wanted[verb], verb  # every play of either kind can be reached


def test_cards_are_written_in_words_wherever_a_player_reads_them(validator, schema_limits):
    """The places a card is written outside the generated tables' usual turn: a slap window (the
    table's line and a watcher's hand), the side bets' high card, the cut for the deal of a table
    saved while cards were still written with symbols, a drawn card, a pick waiting for its
    confirm (the longest spread in a button of 80 characters), a review, and the pictures' alt text."""
    from test_table_session import ALICE as HOST, betting, hands

    check = Checker(validator, schema_limits)
    slap = slap_window()
    channel = check(render.table_message(slap.public()), "slap window")
    assert "The 9 of spades fits a spread" in channel["embeds"][0]["description"]
    watcher = check(render.hand_message(slap.seat_view(2), table_id=slap.id, hand_number=1, moves=slap.moves),
                    "a hand that may slap")
    assert "You may slap the 9 of spades" in str(watcher)

    table = next(hands(betting(kinds=("high_card",)), random.Random(21), 1))
    side = check(render.table_message(table.public()), "side bets")
    suit = table.game.side_bets["high_card"].suit
    assert f"High card in {suit.name.lower()}" in str(side)

    started, _ = betting().start(HOST, random.Random(5))
    old = replace(started, cuts="Cut for the deal: alice A♠, bob 10♥, carol K♦. alice deals.")
    cut = check(render.table_message(old.public()), "a cut saved with symbols")
    assert "alice ace of spades, bob 10 of hearts, carol king of diamonds" in str(cut)

    bob = both_menus_in_two_steps()
    view = bob.seat_view(1)
    common = dict(table_id=bob.id, hand_number=1, moves=bob.moves)
    drawn = view.hand[-1]
    shown = check(render.hand_message(view, **common, drawn=drawn, picture=True), "a drawn card, with its picture")
    assert f"{drawn.name} (drawn)" in shown["embeds"][0]["description"]
    longest = max((a for a in view.legal_actions if isinstance(a, Spread)), key=lambda a: len(render.spread_text(a)))
    pending = check(render.hand_message(view, **common, pending=("spread", play_value(longest)), confirms=True),
                    "a pick waiting for its confirm")
    confirm = next(c for row in pending["components"] for c in row["components"] if ":confirm" in c["custom_id"])
    assert confirm["label"].startswith("Lay ") and len(confirm["label"]) <= 80
    check({"embed": render.review_embed("abc", "You discarded K♠; the expert would have kept it.")}, "a review")
    assert check.naming_cards == check.messages


# ---------------------------------------------------------------------------- the other messages

def test_rule_menus_help_rules_and_ledger_messages_are_ones_discord_accepts(validator, schema_limits):
    check = Checker(validator, schema_limits)
    for preset in PRESET_NAMES:
        rules = Rules.preset(preset)
        for key in OPTIONS:
            check(render.rule_choice_message(7, key, rules, done="Changed: something. " * 3), f"{preset}: {key}")
        check({"embed": render.rules_embed(rules, f"House rules: {preset}")}, f"{preset}: /tonk rules")
        check(render.help_message(help_sections(rules, stake=1000, preset=preset), "The rules of the table here",
                                  rules), f"{preset}: /tonk help")
    check(render.hand_retired(2 ** 40), "a retired hand")
    big = [2 ** 63 - 1 - i for i in range(6)]  # six seats, the longest ids Discord has
    check({"content": render.stale_hands_note(big, 9999)}, "the note to stale hands")
    for host in (False, True):
        check({"content": render.stuck_text(["View Channel", "Send Messages", "Embed Links", "Attach Files"],
                                            big[0], host=host)}, "a stuck table")
    rows = [SimpleNamespace(rank=i + 1, display_name=NAME, balance=-123456 * (i + 1), pushups=99999, hands=9999,
                            wins=999, account=f"u{i}") for i in range(10)]
    mine = SimpleNamespace(rank=11, display_name=NAME, balance=-1, pushups=1, account="me")
    for mode in ("stakes", "pushups"):
        check({"embed": render.ledger_embed(rows, mine, mode=mode, season=12, guild_name="G" * 100)}, "ledger")
        check({"embed": render.ledger_embed([], None, mode=mode, season=1, guild_name="G" * 100)}, "empty ledger")


def test_the_fast_check_agrees_with_jsonschema(validator, schema_limits):
    """The schema check above, held against the `jsonschema` package on messages Discord takes and
    on the same messages broken past each kind of limit the schema states."""
    jsonschema = pytest.importorskip("jsonschema")
    full = jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{BODY}",
                                            "components": {"schemas": validator.schemas}})
    check = Checker(validator, schema_limits)
    table = both_menus_in_two_steps()
    good = [check(render.hand_message(table.seat_view(1), table_id=table.id, hand_number=1, moves=table.moves), "hand"),
            check(render.table_message(table.public(), deadline=1.7e9), "table"),
            check(render.lobby_message(open_table(Rules.preset("slap"), 4, random.Random(1)).public()), "lobby")]

    def broken(change):
        payload = json.loads(json.dumps(good[0]))
        change(payload)
        return payload

    select = next(i for i, row in enumerate(good[0]["components"]) if row["components"][0]["type"] == 3)
    bad = [
        broken(lambda p: p.update(content="x" * 2001)),
        broken(lambda p: p["embeds"][0].update(title="x" * 257)),
        broken(lambda p: p["embeds"][0]["fields"].__setitem__(0, {"name": "n", "value": "x" * 1025})),
        broken(lambda p: p["components"][0]["components"].extend(p["components"][0]["components"] * 5)),
        broken(lambda p: p["components"][0]["components"][0].update(label="x" * 81)),
        broken(lambda p: p["components"][0]["components"][0].update(custom_id="x" * 101)),
        broken(lambda p: p["components"][select]["components"][0]["options"].extend(
            [{"label": f"o{i}", "value": f"v{i}"} for i in range(25)])),
        broken(lambda p: p["components"][select]["components"][0]["options"][0].update(label="")),
        broken(lambda p: p["components"][select]["components"][0].update(placeholder="x" * 151)),
        broken(lambda p: p["components"][select]["components"][0].update(max_values=26)),
        broken(lambda p: p["components"][0].update(type=2)),
    ]
    for payload in good:
        assert validator.errors({"$ref": BODY}, payload) == [] and list(full.iter_errors(payload)) == []
    for n, payload in enumerate(bad):
        assert validator.errors({"$ref": BODY}, payload), n
        assert list(full.iter_errors(payload)), n

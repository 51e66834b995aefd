"""Saved games made by commit 6ae261d's engine (the last one with a HouseGame subclass), for
tests/test_engine_one_path.py: a table saved in a user's database before one engine must load.

    git archive 6ae261d engine | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/states/make_saved_states.py tests/states/saved_by_6ae261d.json

Each case: a hand played part way with seeded random legal actions (slaps taken often),
its `to_json()`, `record()`, `result()`, the seat to act, that seat's legal actions and
the seats that may slap, as that engine gave them.
"""
import json, random, sys
from engine import Game, Rules
from engine.session import side_bet
out = sys.argv[1]
cases = []
def play(game, rng, steps, slap_bias=0.7):
    for _ in range(steps):
        if game.outcome is not None:
            break
        seat = game.to_act
        slaps = []
        if hasattr(game, "legal_slaps"):
            slaps = [(s, a) for s in range(game.num_players) if s != seat for a in game.legal_slaps(s)]
        if slaps and rng.random() < slap_bias:
            seat, action = rng.choice(slaps)
        else:
            actions = [a for a in game.legal_actions(seat) if a.verb != "drop"] or game.legal_actions(seat)
            action = rng.choice(actions)
        game.apply(seat, action)
    return game
specs = [("standard", {}, None, 6), ("waiting", {}, None, 14), ("slap", {"slap": "next_player_first", "jokers": 2, "wild_cards": "jokers", "wild_swap": True}, None, 12),
         ("chicago", {}, None, 10), ("high faces", {}, None, 8), ("standard", {}, "bets", 9), ("washington dc", {}, "bets", 11),
         ("deuces wild", {}, None, 9), ("newark", {"take_must_be_used": True, "boobed": True}, None, 16)]
for i, (preset, extra, bets, steps) in enumerate(specs):
    rules = Rules.from_dict({"preset": preset, **extra})
    for seed in range(200):
        rng = random.Random(1000 * i + seed)
        side = None
        if bets:
            side = {"high_card": side_bet("high_card", [0, 1, 2], 2, 3, "s", 3), "naturals": side_bet("naturals", [0, 2], 1, 0, None, 3)}
        game = Game.deal(rules, ["Croaker", "Goblin", "Elmo"], seed % 3, rng=rng, stake=2, side_bets=side)
        play(game, rng, steps)
        if game.outcome is None and len(game.log) >= steps // 2:
            want_pending = "next_player_first" in json.dumps(rules.to_dict())
            if want_pending and getattr(game, "pending", None) is None:
                continue
            cases.append({"name": f"{preset}{' + side bets' if bets else ''}", "state": game.to_json(), "record": game.record(),
                          "result": game.result(), "seed": 1000 * i + seed,
                          "to_act": game.to_act, "legal": [a.to_record() for a in game.legal_actions(game.to_act)],
                          "slappers": game.slappers() if hasattr(game, "slappers") else []})
            break
json.dump(cases, open(out, "w"), indent=1)
print(len(cases), [c["name"] for c in cases], [("house" in c["state"], c["state"]["house"].get("pending") is not None if "house" in c["state"] else None) for c in cases])

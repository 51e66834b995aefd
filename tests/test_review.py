"""engine.review (issue 26): a seat's decisions, the expert's choice and what each difference cost,
from the seat's view alone."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine import Game, Rules
from engine.actions import DROP, Drop
from engine.cards import Card, spread_name
from engine.players.noisy import play_record
from engine_helpers import cards_named
from engine.review import MAX_TEXT, Review, ReviewError, decision_points, review

STANDARD = Rules.preset("standard")
QUICK = {"samples": 12, "search": 8}  # small budgets: the tests check behaviour, not precision


def record_with_differences(players: int, start: int = 0, need: int = 2) -> tuple[dict, Review]:
    """A seeded self-play hand (noisy hard players) whose seat 0 made several decisions,
    some the expert would have made differently."""
    for seed in range(start, start + 200):
        record = play_record(STANDARD, players, seed, noise=0.3)
        rv = review(record, 0, seed=seed, **QUICK)
        if len(rv.decisions) >= 4 and len(rv.differences) >= need:
            return record, rv
    raise AssertionError("no hand with enough decisions")  # pragma: no cover


def redeal(record: dict, view, rng: random.Random) -> dict:
    """The record with every card this seat had not seen (the others' hidden cards, the
    stock) moved to another unseen place of the deck: a deal the seat cannot tell apart."""
    seen = view.seen_cards()
    deck = list(record["deck"])
    places = [i for i, code in enumerate(deck) if Card.parse(code) not in seen]
    cards = [deck[i] for i in places]
    rng.shuffle(cards)
    for i, code in zip(places, cards):
        deck[i] = code
    return {**record, "deck": deck}


def test_a_review_lists_every_decision_costliest_first_with_errors():
    record, rv = record_with_differences(3)
    game = Game.from_record(record)
    assert rv.name == game.players[0] and rv.unit == "stakes" and rv.result == game.result()
    kinds = {d.kind for d in rv.decisions}
    assert kinds == {"start", "play"}
    diffs = rv.differences
    assert diffs == list(rv.decisions[: len(diffs)])  # differences first
    assert [d.cost for d in diffs] == sorted((d.cost for d in diffs), reverse=True)  # costliest first
    for d in diffs:
        assert d.samples == QUICK["samples"] and d.error >= 0 and d.did != d.expert
    for d in rv.decisions:
        if d.same:
            assert d.cost == 0 and d.samples == 0
        assert len(d.did) == 1  # every action is a decision of its own
        assert (d.kind == "start") == (d.step == 0) == (d.did[0].verb in ("drop", "draw", "take"))
        assert (d.low_chance is not None) == d.drop_allowed
        if d.low_chance is not None:
            assert 0.0 <= d.low_chance <= 1.0
    # every action of seat 0 in the record where it had a choice is there once, each spread,
    # hit and discard apart: one decision per record index
    mine = [i for i, e in enumerate(record["actions"]) if e["seat"] == 0]
    points = [index for _, _, index, _ in decision_points(record, 0)]
    assert sorted(d.index for d in rv.decisions) == points and set(points) <= set(mine)
    assert len(points) >= len(mine) - 2  # (an action with no choice is left out: rare)
    verbs = {d.did[0].verb for d in rv.decisions}
    assert {"discard"} <= verbs and verbs & {"draw", "take"}
    data = rv.to_json()
    assert json.loads(json.dumps(data)) == data and data["decisions"][0]["cost"] == round(diffs[0].cost, 4)


def test_a_blunder_comes_first_priced_high_and_with_the_drop_chance():
    # seat 0 drops at its first turn with a high count: the expert plays on
    for seed in range(50):
        record = play_record(STANDARD, 2, seed, noise=0.0)
        view, _, index, _ = next(decision_points(record, 0))
        if view.phase == "start" and DROP in view.legal_actions and view.count >= 30:
            break
    blunder = {**record, "actions": record["actions"][:index] + [{"seat": 0, "do": "drop"}]}
    rv = review(blunder, 0, seed=1, samples=64, search=16)
    first = rv.decisions[0]
    assert isinstance(first.did[0], Drop) and not first.same and first.expert[0] != DROP
    assert first.cost > 0.5 and first.cost > 3 * first.error
    assert first.low_chance > 0.5
    text = rv.text()
    lines = text.splitlines()
    assert lines[2] == "" and lines[3].startswith(f"1. Turn 1, start (count {view.count}): you dropped; the expert would have ")
    assert f"Chance that someone held {view.count} or less, from what you could see: " in lines[3]


def test_the_advice_is_unchanged_when_the_hidden_cards_are_dealt_again():
    """Honest to what the seat saw: at each decision, the cards the seat had not seen (the
    others' hands, the stock order) are re-dealt, and the review of that decision is the
    same, whatever the real hidden cards were."""
    record = play_record(STANDARD, 3, 15, noise=0.3)  # seat 0 spreads after a draw, then discards
    rng = random.Random(5)
    checked = changed = 0
    kinds = set()
    for view, did, index, _ in decision_points(record, 0):
        kinds.add((did[0].verb, view.phase))
        end = index + len(did)
        upto = {**record, "actions": record["actions"][:end]}
        base = {d.index: d for d in review(upto, 0, seed=7, **QUICK).decisions}[index].to_json()
        for _ in range(2):
            for _attempt in range(20):
                other = redeal(upto, view, rng)
                try:
                    game = Game.from_record(other)  # the re-deal replays the same actions
                except Exception:  # a tonk on the deal in the new hands: deal again
                    continue
                break
            else:  # pragma: no cover
                raise AssertionError("no re-deal replays")
            before = Game.from_record({**other, "actions": other["actions"][:index]})
            assert before.view(0).hand == view.hand
            real = Game.from_record({**record, "actions": record["actions"][:index]})
            changed += any(sorted(map(str, a)) != sorted(map(str, b)) for j, (a, b) in
                           enumerate(zip(before.hands, real.hands)) if j != 0) or before.stock != real.stock
            again = {d.index: d for d in review(other, 0, seed=7, **QUICK).decisions}[index].to_json()
            assert again == base, (index, game.record()["deck"])
            checked += 1
    assert checked >= 12 and changed == checked  # every re-deal really moved hidden cards
    # the start, a spread after the draw and a discard after that spread were each checked apart
    assert {("draw", "start"), ("spread", "play"), ("discard", "play")} <= kinds
    assert any(not d.same and d.did[0].verb == "discard" and d.step == 2 for d in review(record, 0, seed=7, **QUICK).decisions)


def test_each_lay_and_the_discard_are_priced_on_their_own():
    """A player who discards at once where the expert would lay a spread first: that discard is
    the decision priced, against the expert's spread at that point, and the cost is clear."""
    record = play_record(STANDARD, 3, 15, noise=0.3)
    view, did, index, _ = next((v, d, i, t) for v, d, i, t in decision_points(record, 0) if d[0].verb == "spread")
    spread = did[0]
    loose = max((c for c in view.hand if c not in spread.cards), key=lambda c: c.value)
    blunder = {**record, "actions": record["actions"][:index] + [{"seat": 0, "do": "discard", "card": loose.code}]}
    rv = review(blunder, 0, seed=2, samples=64, search=16)
    first = rv.decisions[0]
    assert first.index == index and first.kind == "play" and first.step == 1 and not first.same
    assert first.did_text == f"discarded {loose.name}" and first.expert[0] == spread
    assert first.expert_text == "spread " + spread_name(spread.cards, spread.named)
    assert first.cost > 0.3 and first.cost > 3 * first.error
    assert rv.text().splitlines()[3].startswith(f"1. Turn {first.turn}, after the draw (count {view.count}): "
                                                f"you discarded {loose.name}; the expert would have spread ")
    # in the real hand the same spread agrees with the expert, and the discard after it is a
    # decision of its own at the next step
    real = {d.index: d for d in review(record, 0, seed=2, **QUICK).decisions}
    assert real[index].same and real[index].did == (spread,)
    assert real[index + 1].step == 2 and real[index + 1].did[0].verb == "discard"


def test_the_text_names_only_cards_the_seat_had_seen():
    for players, start in ((2, 0), (3, 40), (4, 80)):
        record, _ = record_with_differences(players, start=start, need=1)
        final = Game.from_record(record)
        for seat in range(players):
            rv = review(record, seat, seed=3, **QUICK)
            seen_by = {index: view.seen_cards() for view, _, index, _ in decision_points(record, seat)}
            for d in rv.decisions:
                named = cards_named(d.did_text + " " + d.expert_text)
                assert named <= seen_by[d.index] | set(d.hand), (d.did_text, d.expert_text)
            text = rv.text()
            named = cards_named(text)
            assert named, text  # the check reads the cards the text names (in words)
            seen = final.view(seat).seen_cards()  # everything the seat saw during play (not the showdown)
            assert named <= seen
            hidden = {c for j, h in enumerate(final.hands) if j != seat for c in h} - seen
            assert hidden  # there were cards it never saw, and none of them is named
            assert len(text) <= MAX_TEXT


def test_the_text_fits_a_limit_by_leaving_out_the_smallest_differences():
    _, rv = record_with_differences(2, need=2)
    full = rv.text()
    short = rv.text(limit=len(full.splitlines()[0]) + 240)
    assert len(short) <= len(full.splitlines()[0]) + 240
    assert "smaller difference" in short and short.startswith(full.splitlines()[0])


def test_the_same_seed_gives_the_same_review():
    record, rv = record_with_differences(2)
    assert review(record, 0, seed=0, **QUICK).to_json() == review(record, 0, seed=0, **QUICK).to_json()
    other = review(record, 0, seed=12345, **QUICK)
    assert [d.cost for d in other.differences] != [d.cost for d in review(record, 0, seed=0, **QUICK).differences]


@pytest.mark.parametrize("bad, message", [
    ("not a record", "This hand record cannot be replayed (A hand record must be a JSON object.)."),
    ({"format": "tonk-hand/1"}, "This hand record cannot be replayed (The record lacks rules, players, dealer, "
                                "stake, deck, actions.)."),
])
def test_a_bad_record_gets_one_line(bad, message):
    with pytest.raises(ReviewError) as caught:
        review(bad, 0)
    assert str(caught.value) == message and "\n" not in str(caught.value)


def test_an_illegal_action_a_wrong_seat_a_computer_and_house_rules_are_refused_in_one_line():
    record = play_record(STANDARD, 3, 1)
    broken = {**record, "actions": record["actions"] + [{"seat": 9, "do": "draw"}]}
    with pytest.raises(ReviewError, match=r"^This hand record cannot be replayed \(action \d+: "):
        review(broken, 0)
    with pytest.raises(ReviewError, match=r"^There is no seat 3 in this hand: the seats are 0 to 2\.$"):
        review(record, 3)
    with pytest.raises(ReviewError, match=r"^There is no seat True"):
        review(record, True)
    name = record["players"][1]
    with pytest.raises(ReviewError) as caught:
        review(record, 1, computers=[1, 2])
    assert str(caught.value) == (f"Seat 1 ({name}) was played by the computer: a review is of a person's own "
                                 "decisions.")
    house = Game.deal(Rules.preset("slap"), 2, 0, rng=random.Random(1)).record()
    with pytest.raises(ReviewError) as caught:
        review(house, 0)
    assert str(caught.value) == (
        "Reviews cover the rules of RULES.md sections 1-8: the review's look-ahead does not know this hand's house "
        "rules (section 9), and its prices were checked without them, so it cannot price your choices here.")
    naturals = {**record, "side_bets": {"naturals": {"seats": [0, 1], "stake": 1, "pot_in": 0}}}
    Game.from_record(naturals)  # a record that replays
    with pytest.raises(ReviewError, match=r"^This hand had the naturals side bet \(RULES\.md section 10\): "):
        review(naturals, 0)
    for e in (ReviewError,):
        assert issubclass(e, ValueError)


def test_a_hand_with_the_high_card_side_bet_is_reviewed_on_its_own_payments():
    from engine.players.expert import ExpertPlayer
    from engine.players.hard import Estimate
    from engine.players.memory import Memory

    record, plain = record_with_differences(2, need=1)
    game = Game.from_record(record)
    suit = Game.from_record({**record, "actions": []}).hands[1][0].suit.value  # a suit seat 1 holds
    bet = {"high_card": {"suit": suit, "seats": [0, 1], "stake": 1, "pot_in": 0}}
    betting = {**record, "side_bets": bet}
    rv = review(betting, 0, seed=0, **QUICK)
    assert rv.result["payments"] == game.result()["payments"] and "side_payments" in rv.result
    assert rv.decisions and rv.note.startswith("The high card side pot was settled at the deal")
    assert rv.note in rv.text() and rv.note not in plain.text() and rv.to_json()["note"] == rv.note
    # the card seat 1 showed is public: every sampled deal keeps it in seat 1's hand while it holds it
    shown = Game.from_record(betting).side_cards[1]
    view = next(decision_points(betting, 0))[0]
    assert shown is not None and view.side_cards[1] == shown
    estimate = Estimate(ExpertPlayer(0), view, Memory(view))
    assert all(shown in hands[1] for hands, _ in estimate.sample_hands(20))


def test_a_hand_before_the_seats_first_turn_has_nothing_to_review():
    record = play_record(STANDARD, 3, 2)
    first = record["actions"][0]["seat"]
    seat = (first + 2) % 3
    cut = {**record, "actions": [a for a in record["actions"][:1]]}  # only the first seat's start so far
    rv = review(cut, seat, **QUICK)
    assert rv.decisions == () and rv.result is None
    assert rv.text().splitlines() == [
        f"Review of your hand ({record['players'][seat]}): the hand is not over.",
        "You had no decision to make in this hand."]


# ---------------------------------------------------------------------- the command line and the terminal game


def test_the_review_command_prints_the_review_of_a_record(tmp_path):
    from tests.test_players_cli import run_engine

    record, _ = record_with_differences(2, need=1)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    done = run_engine("review", str(path), "--seat", "0", "--samples", "12", "--search", "8", "--seed", "3")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == review(record, 0, seed=3, **QUICK).text() + "\n"
    assert done.stdout.startswith(f"Review of your hand ({record['players'][0]}): ")
    assert "the expert would have" in done.stdout
    done = run_engine("review", str(path), "--seat", "0", "--samples", "12", "--search", "8", "--seed", "3", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == review(record, 0, seed=3, **QUICK).to_json()


def test_the_review_command_refuses_bad_input_in_one_line(tmp_path):
    from tests.test_players_cli import run_engine

    record = play_record(STANDARD, 2, 1)
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(record))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**record, "deck": record["deck"][:-1]}))
    cases = [
        ((str(good), "--seat", "2"), "review: There is no seat 2 in this hand: the seats are 0 to 1."),
        ((str(bad), "--seat", "0"), f"review: {bad} is not valid JSON: "),
        ((str(tmp_path / "none.json"), "--seat", "0"), f"review: cannot read {tmp_path / 'none.json'}: "),
        ((str(broken), "--seat", "0"), "review: This hand record cannot be replayed ("),
        ((str(good), "--seat", "0", "--samples", "1"), "review: A review needs at least 2 evaluation deals"),
    ]
    for args, line in cases:
        done = run_engine("review", *args)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(line) and done.stderr.count("\n") == 1, done.stderr
    assert "review" in run_engine("--help").stdout


def test_the_terminal_game_offers_a_review_at_the_showdown():
    from tests.test_players_cli import play_in_process

    # drop at once with a high count, ask for the review, then leave
    session, out = play_in_process("1\ny\nreview\nq\n", seats=("you", "hard"), seed=3)
    showdown, after = out.split("--- Showdown:", 1)
    assert "Type review to see what the expert would have done in that hand, and what each difference cost you." \
        in after
    text = after.split("Press Enter for the next hand (q to leave): review", 1)[1]
    assert text.lstrip().startswith("Review of your hand: a drop")
    assert re.search(r"1\. Turn 1, start \(count \d+\): you dropped; the expert would have (drawn|taken)", text)
    assert "Chance that someone held" in text
    assert text.count("Press Enter for the next hand (q to leave): ") == 1  # asked again after the review
    assert "You leave the table." in text
    hidden = {c for c in session.last_game.hands[1]} - session.last_game.view(0).seen_cards()
    review_part = text.split("Press Enter", 1)[0]
    assert not cards_named(review_part) & hidden


def test_the_terminal_game_offers_a_review_after_the_last_hand_too():
    from tests.test_players_cli import play_in_process

    _, out = play_in_process("1\ny\nreview\n", seats=("you", "hard"), seed=3, hands=1)
    assert "Type review to see what the expert would have done in that hand, or press Enter to leave: review" in out
    assert "Review of your hand: a drop" in out and "End of input" not in out
    _, out = play_in_process("1\ny\n", seats=("you", "hard"), seed=3, hands=1)
    assert "Review of your hand" not in out and "End of input" not in out and "Final totals:" in out


def test_a_review_crosses_a_process_boundary_intact():
    """The bot may run reviews in a process pool: the result pickles and comes back equal."""
    import pickle

    _, rv = record_with_differences(2, need=1)
    back = pickle.loads(pickle.dumps(rv))
    assert back == rv and back.text() == rv.text() and back.to_json() == rv.to_json()


def test_costs_and_chances_are_the_calibrated_play_out_figures():
    """The text's cost is the play-out estimate mapped to what such differences lost at the table
    (COST_MAP), its error scaled alike; the drop chance is the count model's, recalibrated
    (CHANCE_MAP: lower in the middle, where the model read 6-14 points high), a sure one kept."""
    from engine.review import CHANCE_MAP, COST_MAP, calibrated_chance

    _, rv = record_with_differences(3, need=2)
    for d in rv.decisions:
        if d.same:
            assert d.cost == d.raw_cost == 0
        elif d.raw_error > 0:
            a, b = COST_MAP[d.kind]
            assert 0 < b < 1 and d.cost == pytest.approx(a + b * d.raw_cost) and d.error == pytest.approx(b * d.raw_error)
        if d.low_chance is not None:
            assert d.low_chance == calibrated_chance(d.raw_chance, 3)
    assert CHANCE_MAP[0] < 0
    for players in (2, 3, 4):
        assert calibrated_chance(0.0, players) == 0.0 and calibrated_chance(1.0, players) == 1.0
        assert 0.4 < calibrated_chance(0.63, players) < 0.56 and 0.65 < calibrated_chance(0.83, players) < 0.78
        xs = [calibrated_chance(p / 20, players) for p in range(1, 20)]
        assert xs == sorted(xs)

"""Expert: determinised Monte Carlo search over the hands it cannot see.

At the start of a turn (drop, draw or take) and when it plans the rest of a turn after
drawing (which spreads, hits and discard: the `hard` scoring's best few plans), it
weighs every candidate on the same sampled deals and picks the one that pays best on
average:

- **Sampled deals.** The opponents' hidden cards and the stock order are drawn from the
  cards it has not seen, with `hard`'s model of what the others' play reveals: a card an
  opponent took from the pile and has not played is in that hand; hidden cards lean to
  low values the longer a player has played (players throw their high cards), to cards
  that pair or run with what the player took, and away from ranks the player threw.
  Nothing else goes in: it is built from the `SeatView` alone (its hand, the table, the
  public history), so the real hidden cards cannot reach a decision.
- **Play-outs.** On each sampled deal the candidate is played into a real engine `Game`
  (so every house rule, wait and settlement is the engine's own), its own turn by its
  plan and then every seat, itself included, by a quick rule policy (drop at a count
  threshold that falls with the turns played, take a discard that makes or extends a
  spread, lay what can be laid, throw the highest loose card) to the end of the hand.
  The value is its payment in stakes (push-ups avoided under push-ups scoring).
- **Common random numbers.** Every candidate is played on the same sampled deals with
  the same play-out randomness, so the comparison sees the candidates' difference, not
  the luck of the samples.
- **The drop, from a learned model of the opponents' counts.** Whether to drop is decided
  apart from the play-outs (whose quick policy is a weaker future self). In standard and
  waiting play the drop's mean payment comes from `countmodel`: for each opponent, the
  distribution of its hidden cards' sum learned from self-play by public features of that
  opponent, weighed by the unknown cards (round 8). Elsewhere (other settlements, scoring,
  hand sizes and decks) it is as in round 7: on `drop_samples` deals drawn with hard's
  model leaning the hidden cards only `drop_lean` as far to low values (hard's own lean
  makes a drop look lost far too often at a drop decision: the hands still in play are
  not the low ones), the drop is settled exactly by `settle_drop`. Either way expert
  drops when that mean payment beats `drop_bar` plus `drop_play` times hard's one-turn
  look-ahead of playing on; never when taking the discard goes out (stakes scoring;
  under push-ups the drop stays a candidate of the search). The rule and its
  figures were chosen by replaying hard's self-play positions with their real values of
  dropping and of playing on (scripts/drop_study.py, scripts/count_model.py;
  docs/BENCHMARKS.md).
- **hard's choice first.** For draw against take and for the plan after the draw it
  starts from what `hard` would do and changes its mind only when another candidate's
  gain on the same deals is at least `min_gain` stakes and `confidence` standard errors:
  a few dozen play-outs by a plain policy are noisy and biased, and acting on every
  small difference (a first version did) lost to hard.

`samples` (deals per decision) is the search budget; `time_cap` stops the sampling early
once a decision has used that much CPU time (a guard for a slow machine: when it acts the
play is no longer the same for a seed, so it is set well above the usual decision time).
"""

from __future__ import annotations

import random
import time

from ..actions import DRAW, DROP, TAKE, Action, Discard, Hit, Spread
from ..outcome import settle_drop
from ..cards import count
from ..errors import TonkError
from ..game import PLAY, START, Game, TableSpread
from ..view import SeatView
from . import countmodel, infer
from .base import stock_is_out
from .hands import Layout, table_places
from .hard import Estimate, HardPlayer, _wants, greedy_spreads, plain_discard, utility
from .memory import Memory
from .normal import count_scale

MAX_ROLLOUT_ACTIONS = 400  # a play-out that has not ended by then is scored as it stands
# The counts at which `hard` drops about half the time, by the turns it has played (2 and
# 3 players, standard; measured over 500 hands of hard against itself). Play-outs use
# them for every seat: opponents that drop later than real ones make playing on look
# better than it is (a first version with the normal player's thresholds lost 0.5 stakes
# a hand to hard by dropping too late).
DROP_AT = (22.0, 20.0, 16.0, 12.0, 9.0, 7.0, 5.0)
# The inference's figures for the drop (docs/BENCHMARKS.md round 11): every finished turn
# of each opponent weighed under hard's discard score at temperature 3, its non-drops and
# its draws over pile cards that made a spread; particles drawn uniformly.
INFER = infer.Params(particles=300, tau=3.0, prior="uniform", history=True)


class ExpertPlayer(HardPlayer):
    level = "expert"
    samples = 40  # sampled deals per decision: the search budget
    time_cap = 0.2  # CPU seconds: stop sampling a decision after this much (see the module doc)
    plans = 3  # plans after a draw compared by play-outs (the hard scoring's best few)
    min_gain = 0.1  # stakes a hand: the least gain over hard's choice that makes it change its mind
    confidence = 2.0  # ... in standard errors of that gain, measured on the same sampled deals
    # Play-out seats drop when their count is at most DROP_AT[turns they have played]
    # (5-card hands; scaled like the normal player's thresholds) plus this offset.
    rollout_offset = 0.0
    house_search = True  # search under section 9's house rules too (False: play as hard there)
    # The drop decision (see `drop_decision`; measured in docs/BENCHMARKS.md). hard's opponent
    # model leans the hidden cards too far to low values for the hands that are still in
    # play at a drop decision (it was fitted on every hand, including those whose holders
    # had dropped already): over hard's own drop decisions it makes the drop look lost
    # too often (a drop it gave a 44% chance won 77% of the time). Scaled by 0.5-0.6 the
    # same model is calibrated (log loss 0.44 -> 0.35 at 2 and 3 players).
    drop_lean = 0.6
    drop_samples = 64
    drop_bar = 0.2  # stakes: the least value of playing on
    drop_play = 0.3  # ... plus this share of hard's estimate of playing on
    # Drop values from the learned model of the opponents' counts (`countmodel`), where it
    # applies (standard caught pays, stakes, 52 cards, 5-card hands); the lean deals elsewhere.
    # (The bar stays drop_bar + drop_play x play: other bars replayed and screened no better.)
    learned_drop = True
    # Inference from the opponents' own decisions (`infer`, issue 25): when set, each
    # opponent's chance of a count at most mine is this share (in log-odds) of the
    # inference's weighted particles and the rest the learned model's; None: the learned
    # model alone (round 8).
    infer_weight: float | None = None
    infer_params = None  # infer.Params, or None for the tuned default (`INFER`)
    search_draws = True  # weigh draw against take by play-outs (hard's choice unless clearly beaten)

    def __init__(self, seed: int | None = None, *, samples: int | None = None, time_cap: float | None = None,
                 infer_weight: float | None = None):
        super().__init__(seed)
        if infer_weight is not None:
            if not 0.0 <= infer_weight <= 1.0:
                raise ValueError("infer_weight is a share between 0 and 1")
            self.infer_weight = infer_weight or None
        if samples is not None:
            if samples < 1:
                raise ValueError("samples must be at least 1")
            self.samples = samples
        if time_cap is not None:
            self.time_cap = time_cap
        self.last_search: dict | None = None  # candidate -> mean value, for the last searched decision
        self.last_drop: dict | None = None  # the figures behind the last drop decision
        # (SessionMemory, each seat's key) of this seat's session, or None: see `sessionmemory`
        self.session = None

    def __repr__(self) -> str:
        return f"ExpertPlayer(seed={self.seed!r}, samples={self.samples})"

    # ------------------------------------------------------------------ decisions

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        legal = view.legal_actions
        self.last_values = None
        self.last_drop = None
        default = super().start_turn(view, memory)  # hard's choice: kept unless the search finds better
        if not self.searches(view.rules):
            self.last_search = None
            return default
        hard_choice = default
        drop_now = None  # decided by `drop_decision`: True or False; None: left to the search
        if DROP in legal and view.rules.scoring == "stakes" and not stock_is_out(view) and \
                Estimate(self, view, memory).worth_sampling():
            # (the bar is in stakes, measured in stakes play; push-ups scoring leaves the drop to the search)
            # going out with the top discard pays at least what a won drop pays, and surely
            drop_now = not (TAKE in legal and self.take_goes_out(view, memory)) and self.drop_decision(view, memory)
            if default == DROP:
                default = self.draw_or_take(view, memory)
        candidates = [a for a in (DROP, DRAW, TAKE) if a in legal]
        if DROP in candidates and (drop_now is not None or
                                   (default != DROP and not Estimate(self, view, memory).worth_sampling())):
            candidates.remove(DROP)  # decided above, or a count far too high to drop
        if len(candidates) == 1 or not self.search_draws:
            self.last_search = None
            chosen = default
        else:
            chosen = candidates[self.search(view, memory, [[a] for a in candidates], candidates.index(default))]
        if drop_now:
            chosen = DROP
        if self.last_search is not None:
            if self.last_drop is not None:
                self.last_search["drop"] = self.last_drop["drop"]  # the drop settled on the calibrated deals
            self.last_search["default"] = _label([hard_choice])
            self.last_search["chosen"] = _label([chosen])
        return chosen

    def searches(self, rules) -> bool:
        """Does expert search under these rules, or play as hard? (Under the house rules of
        section 9 the play-outs run in the engine with them, the quick policy falling back
        to any legal action where a house rule refuses it; see docs/BENCHMARKS.md round 10
        for the presets measured.)"""
        return not rules.house or self.house_search

    def drop_decision(self, view: SeatView, memory: Memory) -> bool:
        """Drop now? The drop's mean payment comes from the learned model of the opponents'
        counts (`countmodel.drop_value`) where it applies, otherwise it is settled exactly
        (`settle_drop`) on `drop_samples` deals of the hidden cards drawn with the calibrated
        lean (`drop_lean`); the drop is taken when that beats the value of playing on,
        `drop_bar` plus `drop_play` times hard's one-turn look-ahead of playing on
        (`self.last_values["play"]`)."""
        rules = view.rules
        seat = view.seat
        learned = self.learned_drop and countmodel.applies(rules)
        if learned and self.infer_weight:
            rng = random.Random(self.rng.getrandbits(32))  # one draw: the rest of the play keeps its stream
            drop, _ = infer.blended_drop_value(view, memory, rng, self.infer_params or INFER, self.infer_weight)
        elif learned:
            drop, _ = countmodel.drop_value(view, memory)
        else:
            estimate = Estimate(self, view, memory, lean=self.drop_lean)
            total = 0.0
            samples = estimate.sample_hands(self.drop_samples)
            for hands, _ in samples:
                counts = [count(h) for h in hands]
                total += utility(settle_drop(rules, seat, counts, view.dealer, view.stake), seat, rules.scoring,
                                 view.stake)
            drop = total / len(samples)
        values = self.last_values
        if values is None or "play" not in values:
            values = Estimate(self, view, memory).values(take=self.draw_or_take(view, memory) == TAKE,
                                                         stock_out_now=False)
        play = values.get("play", 0.0)
        bar = self.drop_bar + self.drop_play * max(play, 0.0)
        self.last_drop = {"drop": drop, "play": play, "bar": bar}
        return drop > bar

    def take_goes_out(self, view: SeatView, memory: Memory) -> bool:
        """Does my plan with the top discard empty my hand (a tonk out or a run out)?"""
        hand = list(view.hand) + [view.discard_top]
        _, actions = self.best_plan(hand, view, memory)
        return _cards_left(view, actions) == -1  # the taken card and every card in hand laid or thrown

    def draw_or_take(self, view: SeatView, memory: Memory) -> Action:
        """hard's choice between the stock and the discard when it does not drop."""
        if TAKE not in view.legal_actions:
            return DRAW
        take_score, draw_score = self.draw_scores(view, memory)
        return TAKE if take_score is not None and take_score < draw_score - 0.5 else DRAW

    def plan_turn(self, view: SeatView, memory: Memory) -> list[Action]:
        if not self.searches(view.rules):  # as in start_turn: hard's plan
            self.last_search = None
            return super().plan_turn(view, memory)
        plans = self.ranked_plans(list(view.hand), view, memory, self.plans)
        if len(plans) == 1 or _cards_left(view, plans[0][1]) == 0:
            self.last_search = None
            return plans[0][1]  # only one way, or it goes out: nothing beats that
        candidates = [actions for _, actions in plans]
        return candidates[self.search(view, memory, candidates, 0)]

    # ------------------------------------------------------------------ search

    def search(self, view: SeatView, memory: Memory, candidates: list[list[Action]], default: int) -> int:
        """Which candidate (a list of this seat's next actions) to play: each is played
        out on the same sampled deals; the best mean wins, but it replaces `default`
        (hard's choice) only when its gain on the same deals is clearly more than noise:
        at least `min_gain` stakes and `confidence` standard errors."""
        started = time.thread_time()
        estimate = self.deals(view, memory)
        values: list[list[float]] = [[] for _ in candidates]
        done = 0
        batch = 8
        while done < self.samples:
            for hands, stock in estimate.sample_hands(min(batch, self.samples - done)):
                seed = self.rng.getrandbits(32)
                for i, actions in enumerate(candidates):
                    values[i].append(self.play_out(view, memory, estimate, hands, stock, actions, seed))
                done += 1
            if time.thread_time() - started > self.time_cap:
                break
        means = [sum(v) / done for v in values]
        best = max(range(len(candidates)), key=lambda i: (means[i], i == default, -i))
        chosen = default
        if best != default:
            gains = [a - b for a, b in zip(values[best], values[default])]
            mean = sum(gains) / done
            spread = (sum((g - mean) ** 2 for g in gains) / (done - 1)) ** 0.5 if done > 1 else float("inf")
            if mean >= self.min_gain and mean >= self.confidence * spread / done ** 0.5:
                chosen = best
        self.last_search = {_label(c): m for c, m in zip(candidates, means)}
        self.last_search["samples"] = done
        self.last_search["default"] = _label(candidates[default])
        self.last_search["chosen"] = _label(candidates[chosen])
        return chosen

    def session_offsets(self, view: SeatView) -> list[float] | None:
        """Per seat, how much higher than the play-outs' drop counts that opponent drops,
        from the session memory (`self.session`: (SessionMemory, keys by seat)); None
        without one."""
        if self.session is None:
            return None
        learned, keys = self.session
        return [0.0 if j == view.seat else learned.drop_offset(keys[j]) for j in range(len(view.players))]

    def session_offset(self, view: SeatView, j: int) -> float:
        if self.session is None:
            return 0.0
        learned, keys = self.session
        return learned.drop_offset(keys[j])

    def deals(self, view: SeatView, memory: Memory):
        """Where the search's deals of the hidden cards come from: `sample_hands(k)` of
        hard's model, built from the seat view alone (the measuring oracles of
        `oracle` replace it with the true cards)."""
        return Estimate(self, view, memory)

    def play_out(self, view: SeatView, memory: Memory, estimate: Estimate, hands, stock,
                 actions: list[Action], seed: int) -> float:
        """Play `actions` (then this seat's plan if it drew or took) on one sampled deal,
        then every seat by the quick policy to the end; this seat's value."""
        game = sampled_game(view, memory, hands, stock)
        seat = view.seat
        for action in actions:
            if not game.is_legal(seat, action):  # a house rule may refuse a plan's later step
                break
            game.apply(seat, action)
            if game.outcome is not None:
                return utility(game.outcome, seat, view.rules.scoring, view.stake)
        if game.phase == PLAY and game.turn == seat:
            # drew or took: my own plan for the card I got, as I would really play it
            _, plan = self.best_plan(list(game.hands[seat]), view, memory)
            for action in plan:
                if not game.is_legal(seat, action):
                    break
                game.apply(seat, action)
                if game.outcome is not None:
                    return utility(game.outcome, seat, view.rules.scoring, view.stake)
        Rollout(game, memory, random.Random(seed), self.rollout_offset, self.session_offsets(view)).run()
        if game.outcome is None:  # pragma: no cover - a play-out always ends
            return 0.0
        return utility(game.outcome, seat, view.rules.scoring, view.stake)


def _label(actions: list[Action]) -> str:
    return ", ".join(f"{a.verb} {a.card}" if isinstance(a, (Discard, Hit)) else a.verb for a in actions)


def _cards_left(view: SeatView, actions: list[Action]) -> int:
    """How many cards this seat holds after playing `actions` from its view."""
    laid = sum(len(a.cards) if isinstance(a, Spread) else 1 for a in actions)
    return len(view.hand) - laid


def sampled_game(view: SeatView, memory: Memory, hands, stock) -> Game:
    """An engine `Game` in the view's position, with one sampled set of hidden cards.

    It starts from a fresh deal under the same rules (so every part of the state the
    engine keeps is there and fresh) and then takes the view's public state and the
    sample's hands and stock.
    """
    rules = view.rules
    game = Game.deal(rules, list(view.players), view.dealer, rng=random.Random(0), stake=view.stake)
    n = len(view.players)
    game.hands = [list(h) for h in hands]
    game.stock = list(stock)
    game.discard = list(memory.pile)
    game.spreads = [TableSpread(s.owner, s.kind, list(s.cards), dict(s.named) if s.named else None)
                    for s in view.spreads]
    game.turn = view.turn
    game.phase = view.phase
    game.waits = list(view.waits)
    game.drop_blocked = view.drop_blocked
    game.hit_flags = [False] * n
    game.spreads_this_turn = _spreads_this_turn(view)
    game.turns = sum(memory.turns)
    game.log = []
    game.outcome = None
    if game.house is not None:
        _house_state(game, view, memory)
    return game


def _house_state(game: Game, view: SeatView, memory: Memory) -> None:
    """The public part of the house rules' state (`Game.hs`), read from the view's history:
    each seat's turns (first turn tonk out, claims in turn), hits this turn (hits per
    turn), the card taken this turn (take must be used), who hit (hit spoils tonk out) and
    the wild cards swapped into hands. Slap windows stay closed (the play-outs do not
    slap) and no seat is boobed."""
    hs = game.hs
    n = len(view.players)
    hs.own_turns = [memory.turns[s] + (s == view.turn and view.phase == START) for s in range(n)]
    hs.hit_any = [False] * n
    hs.swaps = []
    hits = 0
    taken = None
    for event in view.history:
        verb = event.action.verb
        if verb in ("hit", "swap", "slap"):
            hs.hit_any[event.seat] = True
            if verb == "swap" and event.card is not None:
                hs.swaps.append(event.card)
        if verb in ("draw", "take", "drop"):
            hits = 0
            taken = memory.taken[event.seat][-1] if verb == "take" and memory.taken[event.seat] else None
        elif verb in ("hit", "swap") and event.seat == view.turn:
            hits += 1
    if view.phase == PLAY:
        hs.hits_this_turn = hits
        if view.rules.take_must_be_used and taken is not None and taken in view.hand:
            hs.taken = taken


def _spreads_this_turn(view: SeatView) -> int:
    if view.phase != PLAY:
        return 0
    laid = 0
    for event in reversed(view.history):
        if event.seat != view.seat or event.action.verb in ("draw", "take"):
            break
        laid += event.action.verb == "spread"
    return laid


class Rollout:
    """Every seat plays by a quick rule policy until the hand ends."""

    __slots__ = ("game", "layout", "rng", "turns", "n", "scale", "offset", "offsets")

    def __init__(self, game: Game, memory: Memory, rng: random.Random, offset: float,
                 offsets: list[float] | None = None):
        self.game = game
        self.layout: Layout = memory.layout
        self.rng = rng
        self.turns = list(memory.turns)
        self.n = memory.n
        self.scale = count_scale(game.rules)
        self.offset = offset
        self.offsets = offsets  # per seat, learned over the session (count points, 5-card hands)

    def threshold(self, seat: int) -> float:
        extra = self.offsets[seat] if self.offsets is not None else 0.0
        return (DROP_AT[min(self.turns[seat], len(DROP_AT) - 1)] + extra) * self.scale + self.offset

    def run(self) -> None:
        game = self.game
        steps = 0
        while game.outcome is None and steps < MAX_ROLLOUT_ACTIONS:
            seat = game.to_act
            try:
                if game.phase == START:
                    self.start(seat)
                else:
                    self.play(seat)
            except (TonkError, ValueError):  # a house rule refused the quick policy: any other legal action
                legal = game.legal_actions(seat)
                if not legal:  # a sampled house-rule position with no way on: score it as it stands
                    break
                calm = [a for a in legal if a is not DROP]
                game.apply(seat, self.rng.choice(calm or legal))
            steps += 1

    def start(self, seat: int) -> None:
        game = self.game
        hand = game.hands[seat]
        if not game.drop_blocked and count(hand) <= self.threshold(seat):
            game.apply(seat, DROP)
            return
        self.turns[seat] += 1
        top = game.discard[-1] if game.discard else None
        if top is not None and (top.joker or _wants(self.layout, hand, table_places(self.layout, game.spreads), top)):
            game.apply(seat, TAKE)
        elif not game.stock and top is not None and game.rules.stock_out != "reshuffle" and \
                count(hand) > self.threshold(seat) + 4:
            game.apply(seat, TAKE)  # drawing would end the hand: keep it going while high
        else:
            game.apply(seat, DRAW)

    def play(self, seat: int) -> None:
        game = self.game
        hand = game.hands[seat]
        for cards in greedy_spreads(game.possible_spreads(hand)):
            game.apply(seat, Spread(cards))
            if game.outcome is not None:
                return
        while game.spreads and hand:
            hits = game.possible_hits(hand)
            if not hits:
                break
            card, index = hits[0]
            game.apply(seat, Hit(card, index))
            if game.outcome is not None:
                return
        game.apply(seat, Discard(plain_discard(hand)))

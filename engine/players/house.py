"""How every computer player plays the house rules of RULES.md section 9.

The planners of `base`/`normal`/`hard` see natural spreads and hits only. Under house
rules a player follows its plan while the plan is legal, and otherwise (or when the
house rules open a better lay the plan cannot see: a wild card, an ace-high run, a wild
swap) picks from `view.legal_actions`: going out first, then swaps (a natural card for
a wild one lowers the count and gains a wild card), then the plan's lays, then lays the
planner cannot see (the one that sheds the most count), then the plan's discard, then a
lay the house rules force (must spread), then the discard that keeps the best hand.

Slaps: `slap_decision` says whether a player would slap the open window, and after how
many seconds, drawn from a human-like reaction time per level (easy players also miss
some). The bot can wait that long before it sends the computer's slap.
"""

from __future__ import annotations

from ..actions import Discard, Hit, Slap, Spread, Swap
from ..cards import Rank
from ..view import SeatView
from .memory import Memory

LAYS = (Spread, Hit, Swap)

# (chance to notice a slap window, mean reaction in seconds, its spread, fastest possible)
REACTION = {
    "easy": (0.7, 1.6, 0.45, 0.6),
    "normal": (0.9, 1.0, 0.25, 0.4),
    "hard": (1.0, 0.6, 0.12, 0.3),
}


def laid_value(action, view: SeatView) -> int:
    """Count points an action takes out of the hand (a swap: the natural card less the wild card)."""
    value = view.rules.card_value
    if type(action) is Spread:
        return sum(value(c) for c in action.cards)
    if type(action) is Swap:
        spread = view.spreads[action.spread]
        wild = next(w for w, n in spread.named if n is action.card)
        return value(action.card) - value(wild)
    return value(action.card)


def empties_hand(action, view: SeatView) -> bool:
    if type(action) is Spread:
        return len(action.cards) == len(view.hand)
    return type(action) is Hit and len(view.hand) == 1


def unseen_by_planner(action) -> bool:
    """A lay the natural planner cannot find: with a wild card, or a run with the ace high."""
    if type(action) is Hit:
        return action.stands_for is not None
    if type(action) is Spread:
        if action.wilds:
            return True
        ranks = {c.rank for c in action.cards}
        return Rank.ACE in ranks and Rank.KING in ranks and len({c.suit for c in action.cards}) == 1
    return False


def is_wild(card, rules) -> bool:
    return card.joker != 0 or (rules.wild_cards == "deuces_and_jokers" and card.rank is Rank.TWO)


def house_play(player, view: SeatView) -> object:
    """One action after the draw under house rules (see the module docstring)."""
    legal = view.legal_actions
    lays = [a for a in legal if type(a) in LAYS]
    for action in lays:
        if empties_hand(action, view):
            return action
    swaps = [a for a in lays if type(a) is Swap and laid_value(a, view) > 0]
    if swaps:
        return max(swaps, key=lambda a: laid_value(a, view))
    planned = player._planned(view)
    if planned is None:
        planned = player._remember(view, player.plan_turn(view, Memory(view)))
    if type(planned) in LAYS and planned in legal:
        return planned
    unseen = [a for a in lays if unseen_by_planner(a)]
    if unseen:
        player._plan = None
        return max(unseen, key=lambda a: (laid_value(a, view), -len(getattr(a, "wilds", ()))))
    if type(planned) is Discard and planned in legal:
        return planned
    player._plan = None
    discards = [a for a in legal if type(a) is Discard]
    if not discards and lays:  # the house rules force a lay (must spread)
        return max(lays, key=lambda a: laid_value(a, view))
    return best_discard(player, view, discards)


def best_discard(player, view: SeatView, discards=None):
    """The discard that keeps the best hand: high, loose cards go first; wild cards stay."""
    if discards is None:
        discards = [a for a in view.legal_actions if type(a) is Discard]
    memory = Memory(view)
    combos = player.combo_values(list(view.hand), memory) if player.style.potential else {}
    value = view.rules.card_value
    rules = view.rules

    def worth_throwing(action):
        card = action.card
        return (not is_wild(card, rules), value(card) - combos.get(card, 0.0) - player.feed(card, view, memory))

    return max(discards, key=worth_throwing)


def window_discarder(view: SeatView) -> int | None:
    """Who discarded the card that may be slapped now."""
    for event in reversed(view.history):
        if event.action.verb == "discard":
            return event.seat
    return None


def slap_decision(player, view: SeatView) -> tuple[Slap, float] | None:
    """(the slap, reaction time in seconds) if this player would slap now, else None."""
    slaps = [a for a in view.legal_actions if type(a) is Slap]
    if not slaps:
        return None
    rng = player.rng
    notice, mean, spread, fastest = REACTION.get(player.level, REACTION["normal"])
    if rng.random() >= notice:
        return None
    rules = view.rules
    mine = view.seat
    next_player = view.turn == mine
    if rules.hit_spoils_tonk_out and not any(e.seat == mine and e.action.verb in ("hit", "swap", "slap")
                                             for e in view.history) and len(view.hand) <= 3:
        return None  # a slap would spoil a likely double tonk out
    if window_discarder(view) == mine or (next_player and rules.slap == "next_player_first"):
        # no extra discard: slap only to keep the card from the others
        if player.level == "easy" or (player.level == "normal" and rng.random() < 0.5):
            return None
    delay = max(fastest, rng.gauss(mean, spread))
    natural = [a for a in slaps if a.stands_for is None]
    return (natural or slaps)[0], round(delay, 3)


def slap_race(game, bots) -> list[tuple[int, Slap, float]]:
    """Let computer players race for an open slap window; apply the winning slap(s).

    `bots[seat]` is a ComputerPlayer (or None for a seat that does not slap). Under
    first to slap the quickest reaction wins; under next player first the next player's
    slap takes over an earlier one. Returns what was applied, as (seat, slap, delay).
    """
    slappers = game.slappers()
    if not slappers:
        return []
    offers = []
    for seat in slappers:
        bot = bots[seat]
        if bot is None:
            continue
        decision = bot.slap(game.view(seat))
        if decision is not None:
            offers.append((decision[1], seat, decision[0]))
    if not offers:
        return []
    offers.sort(key=lambda o: (o[0], o[1]))
    delay, seat, action = offers[0]
    game.apply(seat, action)
    applied = [(seat, action, delay)]
    if game.rules.slap == "next_player_first":
        late = [o for o in offers[1:] if o[1] == game.turn]
        if late and late[0][2] in game.legal_slaps(game.turn):
            game.apply(game.turn, late[0][2])
            applied.append((game.turn, late[0][2], late[0][0]))
    return applied

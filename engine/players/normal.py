"""Normal: solid heuristic Tonk.

- Draw source: takes the discard when the best plan with it beats the expected plan
  after a stock draw (it makes or extends a spread, or clearly lowers the count).
- Spreads and hits are laid at once, except that on a waiting table it may hold a
  spread when the turns barred from dropping cost more than the count it sheds.
- Discards lower the count while keeping live pairs and two-card runs, and avoid
  feeding the next player (cards that hit the table or fit what that player took).
- Drops by a count threshold that depends on the table size, the turn and how small
  the other hands have become.
"""

from __future__ import annotations

from ..actions import DRAW, DROP, TAKE, Action
from ..view import SeatView
from .base import ComputerPlayer, Style, take_or_draw
from .memory import Memory

# Drop when the count is at most BASE - SLOPE * (turns played - 1), never under FLOOR
# (index: players at the table). Measured in self-play: early in the hand a middling
# count is usually lowest; the others' counts fall with every turn they play.
BASE = {2: 17.0, 3: 14.0, 4: 13.0, 5: 11.0, 6: 10.0}
SLOPE = {2: 1.0, 3: 1.7, 4: 1.8, 5: 1.7, 6: 1.5}
FLOOR = {2: 11.0, 3: 6.0, 4: 5.0, 5: 4.0, 6: 4.0}


def count_scale(rules) -> float:
    """Counts grow with the hand size and shrink with the 40-card deck (no 8, 9, 10)."""
    scale = rules.hand_size / 5
    if rules.deck == 40:
        scale *= 0.9
    return scale


def drop_threshold(view: SeatView, memory: Memory, turns: int | None = None) -> float:
    """The count at or under which a normal player drops at the start of this turn."""
    n = len(view.players)
    played = memory.turns[view.seat] if turns is None else turns
    threshold = max(BASE[n] - SLOPE[n] * max(played - 1, 0), FLOOR[n])
    if played == 0:
        threshold += 2
    threshold *= count_scale(view.rules)
    if view.stock_size < 6:
        threshold -= 1  # long hands: the others have had time to get low
    smallest = min(view.hand_sizes[j] for j in memory.others())
    if smallest <= 2:
        threshold -= 3  # someone is nearly out: their count is likely low too
    elif smallest == 3:
        threshold -= 1.5
    if view.rules.caught_pays in ("five_to_low", "per_player", "dropper_pays_all", "double_to_all"):
        threshold -= 2
    elif view.rules.caught_pays == "equal_or_lower":
        threshold += 1
    return threshold


class NormalPlayer(ComputerPlayer):
    level = "normal"
    style = Style(potential=1.0, draws_ahead=6.0, feed_collected=5.0, feed_hit=6.0, feed_low=0.3,
                  holds=True, wait_turn=1.5, small_hand=15.0, go_out=30.0)

    def start_turn(self, view: SeatView, memory: Memory) -> Action:
        legal = view.legal_actions
        count = view.count
        if DROP in legal and count <= drop_threshold(view, memory):
            return DROP
        if view.stock_size == 0 and view.rules.stock_out != "reshuffle":
            # drawing ends the hand (lowest count wins): only when I am likely lowest
            if TAKE in legal and count > drop_threshold(view, memory) + 4:
                return TAKE
            return DRAW
        if TAKE not in legal:
            return DRAW
        take, draw = self.draw_scores(view, memory, quick=True)
        return take_or_draw(view, take, draw, margin=1.0)

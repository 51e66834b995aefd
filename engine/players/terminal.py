"""Play Tonk in a terminal against computer players (`python -m engine play`).

Reads one line of input per choice, so a script can drive it; bad input gets a clear
message and the question again; end of input ends the session cleanly. `help` at any
choice teaches the game under the table's rules; a drop asks for a confirmation first;
hands follow one another, with a pause at each showdown, until you type q; `review` at
the showdown shows what the expert would have done at each of your decisions
(engine.review).
"""

from __future__ import annotations

import random
from typing import IO, Mapping

from ..actions import Discard, Draw, Drop, Hit, Spread, TakeDiscard
from ..cards import count, sorted_hand
from ..game import Game, cut_for_dealer, next_dealer
from ..help import first_hand_hint, help_text, plural
from ..text import Text, t, tn
from ..rules import Rules
from ..view import SeatView
from . import LEVELS, make_player

HUMAN = "you"

ENDINGS = {
    "instant": "a tonk on the deal",
    "void": "a void deal (two tonks on the deal): nobody pays",
    "tonk_out": "a tonk out",
    "run_out": "a run out",
    "drop_won": "a drop that won",
    "caught": "a caught drop",
    "stock_out": "an empty stock: the lowest count wins",
    "draw": "a draw: nobody pays",
}


REVIEW_HINT = t("Type review to see what the expert would have done in that hand, and what each difference cost you.")


def terminal_lang(environ: "Mapping[str, str] | None" = None):
    """The language the terminal speaks: `TONK_LANG` (a Discord locale such as `pt-BR`, or a POSIX
    one), else `LANG` (`de_DE.UTF-8`); English when neither names a language (`C`, `POSIX`)."""
    import os

    import i18n

    environ = os.environ if environ is None else environ
    for name in ("TONK_LANG", "LANG"):
        value = (environ.get(name) or "").strip()
        if value and value.split(".")[0] not in ("C", "POSIX"):
            return i18n.lang(value)
    return i18n.ENGLISH


class EndOfInput(Exception):
    """Standard input ran out: leave quietly."""


class Quit(Exception):
    """The player typed q."""


def cards_text(cards) -> str:
    return " ".join(c.label for c in sorted_hand(cards)) or "(none)"


def seat_names(seats: list[str]) -> list[str]:
    names = []
    for i, kind in enumerate(seats):
        base = "You" if kind == HUMAN else kind.capitalize()
        same = seats[: i + 1].count(kind)
        names.append(base if seats.count(kind) == 1 or same == 1 else f"{base} {same}")
    return names


def possessive(name: str) -> str:
    """`your` for the player at the keyboard, `Hard's` for the others."""
    return "your" if name == "You" else f"{name}'s"


def spread_text(view: SeatView, number: int) -> str:
    spread = view.spreads[number]
    owner = view.players[spread.owner]
    cards = " ".join(c.label for c in spread.cards)  # runs lie in order, books by suit
    return f"[{number + 1}] {possessive(owner)} {spread.kind}: {cards}"


def action_text(view: SeatView, action) -> str:
    """A menu line for one of the human's legal actions."""
    if isinstance(action, Drop):
        return f"Drop (show your hand: count {view.count})"
    if isinstance(action, Draw):
        if view.stock_size == 0:
            return "Draw from the stock (it is empty: this ends the hand)"
        return "Draw from the stock"
    if isinstance(action, TakeDiscard):
        return f"Take {view.discard_top.label} from the discard pile"
    if isinstance(action, Spread):
        return f"Spread {' '.join(c.label for c in action.cards)}"
    if isinstance(action, Hit):
        spread = view.spreads[action.spread]
        return f"Hit {action.card.label} on spread {action.spread + 1} ({possessive(view.players[spread.owner])} {spread.kind})"
    if isinstance(action, Discard):
        return f"Discard {action.card.label}"
    return str(action)


def move_text(name: str, view_before: SeatView, action, *, you: bool = False) -> str:
    """What the table sees a player do (in the second person for the human)."""
    def verb(word: str) -> str:
        return word if you else word + "s"

    if isinstance(action, Drop):
        return f"{name} {verb('drop')} with {plural(len(view_before.hand), 'card')} in hand!"
    if isinstance(action, Draw):
        if view_before.stock_size == 0 and not view_before.rules.can_reshuffle(view_before.discard_size):
            return f"{name} {verb('call')} for a card from the empty stock."
        return f"{name} {verb('draw')} from the stock."
    if isinstance(action, TakeDiscard):
        return f"{name} {verb('take')} {view_before.discard_top.label} from the discard pile."
    if isinstance(action, Spread):
        return f"{name} {verb('spread')} {' '.join(c.label for c in action.cards)}."
    if isinstance(action, Hit):
        owner = view_before.players[view_before.spreads[action.spread].owner]
        whose = "yours" if owner == "You" else f"{owner}'s"
        return f"{name} {verb('hit')} {action.card.label} on spread {action.spread + 1} ({whose})."
    if isinstance(action, Discard):
        return f"{name} {verb('discard')} {action.card.label}."
    return f"{name}: {action}"


class TerminalGame:
    """A session of hands at one table, humans at the keyboard and computer players."""

    def __init__(self, rules: Rules, seats: list[str], *, stake: int = 1, seed: int | None = None,
                 hands: int | None = None, stdin: IO[str], stdout: IO[str], lang=None):
        """`hands`: how many to play; None plays on until the player quits (one hand when
        only computers sit at the table). `lang`: the `i18n.Lang` it speaks (default: the
        environment's, `terminal_lang`)."""
        self.lang = lang if lang is not None else terminal_lang()
        self.rules = rules
        self.seats = seats
        self.names = seat_names(seats)
        self.stake = stake
        self.human = HUMAN in seats
        self.hands = hands if hands is not None or self.human else 1
        self.rng = random.Random(seed)
        self.seed = seed
        self.stdin = stdin
        self.out = stdout
        self.echo = not (hasattr(stdin, "isatty") and stdin.isatty())  # show scripted answers
        self.bots = {
            i: make_player(kind, seed=None if seed is None else seed * 100 + i)
            for i, kind in enumerate(seats) if kind != HUMAN
        }
        self.totals = [0] * len(seats)
        self.pushups = [0] * len(seats)

    def verb(self, seat: int, word: str) -> str:
        return word if self.seats[seat] == HUMAN else word + "s"

    def say(self, text: "Text | str" = "") -> None:
        self.out.write(self.lang.render(text) + "\n")
        self.out.flush()

    def ask(self, prompt: "Text | str") -> str:
        self.out.write(self.lang.render(prompt))
        self.out.flush()
        line = self.stdin.readline()
        if line == "":
            raise EndOfInput
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    # ------------------------------------------------------------------ the session

    def run(self) -> int:
        try:
            dealer = self.cut()
            number = 1
            while True:
                self.play_hand(number, dealer)
                if self.hands is not None and number >= self.hands:
                    if self.human:
                        self.offer_review()
                    break
                if self.human:
                    self.pause()
                dealer = next_dealer(dealer, len(self.seats))
                number += 1
        except EndOfInput:
            self.say("")
            self.say(t("End of input: leaving the table."))
        except Quit:
            self.say(t("You leave the table."))
        except KeyboardInterrupt:
            self.say("")
            self.say(t("Interrupted: leaving the table."))
        self.say_totals(final=True)
        return 0

    def cut(self) -> int:
        dealer, rounds = cut_for_dealer(len(self.seats), self.rng)
        for i, cuts in enumerate(rounds):
            shown = ", ".join(f"{self.names[s]} {c.label}" for s, c in enumerate(cuts) if c is not None)
            self.say(f"Cut for the deal{' again' if i else ''}: {shown}")
        self.say(f"{self.names[dealer]} {self.verb(dealer, 'deal')} first.")
        return dealer

    def play_hand(self, number: int, dealer: int) -> None:
        game = Game.deal(self.rules, self.names, dealer, rng=self.rng, stake=self.stake)
        self.drawn = None
        self.say("")
        of = f" of {self.hands}" if self.hands is not None else ""
        self.say(f"=== Hand {number}{of}: {self.names[dealer]} {self.verb(dealer, 'deal')} "
                 f"({self.rules.closest_preset()}, stake {self.stake}) ===")
        while game.outcome is None:
            seat = game.turn
            view = game.view(seat)
            if self.seats[seat] == HUMAN:
                action = self.human_turn(view)
                game.apply(seat, action)
                self.say(move_text(self.names[seat], view, action, you=True))
                if isinstance(action, Draw) and game.outcome is None:
                    drawn = [c for c in game.view(seat).hand if c not in view.hand]
                    if drawn:
                        self.say(f"You drew {drawn[0].label}.")
                        self.drawn = drawn[0]
                continue
            action = self.bots[seat].choose(view)
            self.say(move_text(self.names[seat], view, action))
            game.apply(seat, action)
        self.showdown(game)
        self.last_game = game

    drawn = None  # the card the human just drew, marked in the hand until the turn ends

    last_game = None  # the hand just played, for `review`

    def pause(self) -> None:
        """Wait at the showdown until the player is ready for the next hand (or asks for a review)."""
        self.say(REVIEW_HINT)
        while True:
            answer = self.ask(t("Press Enter for the next hand (q to leave): "))
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer.lower() != "review":
                return
            self.show_review()

    def offer_review(self) -> None:
        """After the last hand: a review if asked for, else leave (end of input leaves quietly)."""
        try:
            answer = self.ask(t("Type review to see what the expert would have done in that hand, "
                                "or press Enter to leave: "))
        except EndOfInput:
            return
        if answer.lower() == "review":
            self.show_review()

    def show_review(self) -> None:
        """The review of every human seat's decisions in the hand just played (engine.review)."""
        from ..review import ReviewError, review

        game = self.last_game
        if game is None:
            self.say(t("There is no hand to review yet."))
            return
        computers = [s for s, kind in enumerate(self.seats) if kind != HUMAN]
        for seat, kind in enumerate(self.seats):
            if kind != HUMAN:
                continue
            self.say("")
            try:
                self.say(review(game.record(), seat, seed=self.rng.getrandbits(32) if self.seed is None
                                else self.seed, computers=computers).text())
            except ReviewError as exc:
                self.say(t("No review: {why}", why=exc.text))
            self.say("")

    def confirm_drop(self, view: SeatView) -> bool:
        answer = self.ask(t("Drop with a count of {count}? Anyone with {count} or less catches you. "
                            "Type y to drop, anything else to choose again: ", count=view.count))
        return answer.lower() in ("y", "yes")

    hinted = False  # the first-hand hint is shown once a session

    def human_turn(self, view: SeatView):
        if view.phase == "start":
            self.drawn = None
        self.show_table(view)
        if not self.hinted:
            self.say(t("{hint} Type help for the rules.", hint=first_hand_hint(self.rules)))
            self.hinted = True
        legal = list(view.legal_actions)
        lays = [a for a in legal if not isinstance(a, Discard)]
        discards = sorted((a for a in legal if isinstance(a, Discard)), key=lambda a: a.card.sort_key)
        legal = lays + discards
        if view.phase == "start":
            self.say(t("{name}, it is your turn.", name=self.names[view.seat]))
        self.say(t("Your choices:"))
        for i, action in enumerate(legal, 1):
            self.say(f"  {i}) {action_text(view, action)}")
        while True:
            answer = self.ask(t("Choose 1-{last} (help for the rules, q to quit): ", last=len(legal)))
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer.lower() in ("help", "h", "?"):
                self.say("")
                self.say(help_text(self.rules, stake=self.stake, markdown=False))
                self.say("")
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                action = legal[int(answer) - 1]
                if isinstance(action, Drop) and not self.confirm_drop(view):
                    self.say(t("Not dropping."))
                    continue
                return action
            self.say(t("'{answer}' is not a choice: type a number from 1 to {last}, help, or q to quit.", answer=answer,
                       last=len(legal)))

    def show_table(self, view: SeatView) -> None:
        self.say("")
        self.say(t("Table:"))
        if view.spreads:
            for i in range(len(view.spreads)):
                self.say(f"  {spread_text(view, i)}")
        else:
            self.say(t("  No spreads yet."))
        top = view.discard_top.label if view.discard_top else "(empty)"
        self.say(f"  Discard pile: {top} on top ({plural(view.discard_size, 'card')})   "
                 f"Stock: {plural(view.stock_size, 'card')}")
        others = []
        for s, name in enumerate(view.players):
            if s == view.seat:
                continue
            note = f"{name}: {plural(view.hand_sizes[s], 'card')}"
            if view.rules.waiting and view.waits[s]:
                note += f", waiting {view.waits[s]}"
            others.append(note)
        self.say("  Others: " + " | ".join(others))
        if view.rules.waiting and (view.waits[view.seat] or view.drop_blocked):
            more = view.waits[view.seat]
            if view.drop_blocked:
                self.say(f"  You are waiting: no drop this turn{f' (then {more} more)' if more else ''}.")
            else:
                self.say(f"  You are waiting: no drop on your next {plural(more, 'turn')}.")
        drawn = f"   (you drew {self.drawn.label})" if self.drawn in view.hand else ""
        self.say(f"Your hand: {cards_text(view.hand)}   count {count(view.hand)}{drawn}")

    def showdown(self, game: Game) -> None:
        out = game.outcome
        self.say("")
        what = ENDINGS.get(out.kind, out.kind)
        if out.kind == "draw":
            if self.rules.stock_out == "dead_hand":
                what = "an empty stock: a dead hand, nobody pays"
            else:
                low = min(out.counts)
                tied = [self.names[s] for s, c in enumerate(out.counts) if c == low]
                what = (f"an empty stock with a tie for the lowest count ({', '.join(tied[:-1])} and {tied[-1]}, "
                        f"{low}): nobody pays")
        if out.dropper is not None:
            dropper = self.names[out.dropper]
            what += f" by {'you' if dropper == 'You' else dropper}"
        winners = [self.names[s] for s in out.winners]
        who = f"winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}" if winners else "nobody wins"
        self.say(f"--- Showdown: {what}; {who} ---")
        width = max(len(n) for n in self.names)
        for s, name in enumerate(self.names):
            self.say(f"  {name:<{width}}  {cards_text(game.hands[s]):<28} count {out.counts[s]:>2}   "
                     f"payment {out.payments[s]:+d}   push-ups {out.pushups[s]}")
            self.totals[s] += out.payments[s]
            self.pushups[s] += out.pushups[s]
        self.say("Payments: " + ", ".join(f"{n} {p:+d}" for n, p in zip(self.names, out.payments)))
        self.say_totals()

    def say_totals(self, final: bool = False) -> None:
        label = "Final totals" if final else "Running totals"
        self.say(f"{label}: " + ", ".join(f"{n} {t:+d}" for n, t in zip(self.names, self.totals))
                 + "   (push-ups: " + ", ".join(f"{n} {p}" for n, p in zip(self.names, self.pushups)) + ")")


def parse_seats(text: str) -> list[str]:
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    for s in seats:
        if s != HUMAN and s not in LEVELS:
            raise ValueError(f"Unknown seat {s!r}: use 'you' or one of {', '.join(LEVELS)}.")
    if not 2 <= len(seats) <= 6:
        raise ValueError("Tonk is for 2 to 6 players.")
    return seats

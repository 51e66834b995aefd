"""How a hand ended and what everyone pays: data, computed from the rules.

All payments here are zero-sum by construction (every payment moves points from one
seat to another). Push-ups follow RULES.md section 6.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules

KINDS = ("instant", "void", "tonk_out", "run_out", "drop_won", "caught", "stock_out", "draw")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a hand. `payments` are points (stake times multiples), zero-sum."""

    kind: str
    winners: tuple[int, ...]
    counts: tuple[int, ...]
    payments: tuple[int, ...]
    pushups: tuple[int, ...]
    dropper: int | None = None
    multiple: int = 0

    def result(self, *, dropper: bool = False) -> dict:
        """The replay result object of HAND_RECORD.md; with `dropper`, also who dropped
        (the store needs it to count caught drops)."""
        data = {
            "outcome": self.kind,
            "winners": list(self.winners),
            "counts": list(self.counts),
            "payments": list(self.payments),
            "pushups": list(self.pushups),
        }
        if dropper:
            data["dropper"] = self.dropper
        return data

    def to_dict(self) -> dict:
        data = self.result(dropper=True)
        data["multiple"] = self.multiple
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Outcome":
        return cls(
            kind=data["outcome"],
            winners=tuple(data["winners"]),
            counts=tuple(data["counts"]),
            payments=tuple(data["payments"]),
            pushups=tuple(data["pushups"]),
            dropper=data.get("dropper"),
            multiple=data.get("multiple", 0),
        )


def seats_from_left_of(dealer: int, n: int) -> list[int]:
    """Seats in play order: the dealer's left first, the dealer last."""
    return [(dealer + 1 + i) % n for i in range(n)]


def nearest_dealers_left(seats, dealer: int, n: int) -> int:
    wanted = set(seats)
    return next(s for s in seats_from_left_of(dealer, n) if s in wanted)


class _Ledger:
    def __init__(self, n: int, stake: int):
        self.units = [0] * n
        self.stake = stake

    def pay(self, payer: int, payee: int, units: int) -> None:
        self.units[payer] -= units
        self.units[payee] += units

    def points(self) -> tuple[int, ...]:
        stake = self.stake
        return tuple([u * stake for u in self.units])


def win_by_one(kind: str, winner: int, counts, stake: int, multiple: int, dropper: int | None = None) -> Outcome:
    """Every other seat pays `multiple` stakes to one winner (tonk out, run out, drop won, stock out)."""
    n = len(counts)
    pay = multiple * stake
    payments = [-pay] * n
    payments[winner] = pay * (n - 1)
    pushups = [c * multiple for c in counts]
    pushups[winner] = 0
    return Outcome(kind, (winner,), tuple(counts), tuple(payments), tuple(pushups), dropper, multiple)


RUN_OUT_MULTIPLE = 1  # a run out (last card discarded) pays a single stake
DROP_WON_MULTIPLE = 1  # so does a drop that wins


def no_payment(kind: str, counts) -> Outcome:
    n = len(counts)
    return Outcome(kind, (), tuple(counts), (0,) * n, (0,) * n)


# Order of instant hands in the "beats" conflicts (lower is better); a low count is
# ranked by the conflict rule and by its count. RULE_KEYS.md: 49 (47) beats 41, the
# face hands rank above 50.
_HIGH_ORDER = {"all_faces": 0, "all_tens_and_faces": 1, "50": 2, "49": 3, "47": 3, "41": 4}


def instant_claims(rules: Rules, hands, counts, when: str = "deal") -> dict[int, tuple[int, tuple]]:
    """seat -> (multiple, strength under the conflict rule; lower is stronger) for every
    seat whose dealt hand makes an instant hand claimed `when` ("deal" or "turn").
    A seat holding two instant hands is paid the larger multiple and ranked by its best."""
    low_first = rules.instant_conflict != "high_beats_low"
    claims: dict[int, tuple[int, tuple]] = {}
    for seat, c in enumerate(counts):
        hand = hands[seat] if hands is not None else ()
        for instant in rules.instant_list:
            if instant.when != when:
                continue
            if hands is None and instant.hand in ("all_faces", "all_tens_and_faces"):
                continue
            if not instant.holds(rules, hand, c):
                continue
            if instant.hand == "low":
                strength = (0, c) if low_first else (9, c)
            else:
                strength = (1 + _HIGH_ORDER[instant.hand] if low_first else _HIGH_ORDER[instant.hand], 0)
            old = claims.get(seat)
            if old is None:
                claims[seat] = (instant.pays, strength)
            else:
                claims[seat] = (max(old[0], instant.pays), min(old[1], strength))
    return claims


def instant_winners(rules: Rules, counts, dealer: int, hands=None) -> list[tuple[int, int]]:
    """The seats that win on the deal, with their multiples, after the conflict rule.

    Returns [] for no instant win and a list with `(-1, 0)` alone for a void hand.
    `hands` (the dealt cards) is needed for the all-faces hands; counts alone do the rest.
    """
    claims = instant_claims(rules, hands, counts)
    if (rules.instant_hands is None and rules.instant_high == "50_over_49"
            and any(counts[s] == 50 for s in claims)):
        lesser = rules.instant_high_counts[0]
        claims = {s: v for s, v in claims.items() if counts[s] != lesser}  # 50 beats 49
    if not claims:  # nearly every deal
        return []
    if len(claims) <= 1:
        return [(s, m) for s, (m, _) in claims.items()]
    conflict = rules.instant_conflict
    if conflict == "void":
        return [(-1, 0)]
    if conflict == "all_paid":
        return sorted((s, m) for s, (m, _) in claims.items())
    order = seats_from_left_of(dealer, len(counts))
    if conflict == "first_from_left":
        best = next(s for s in order if s in claims)
        return [(best, claims[best][0])]
    strongest = min(v[1] for v in claims.values())
    best_seats = [s for s in order if s in claims and claims[s][1] == strongest]
    if len(best_seats) > 1 and rules.instant_tie == "void":
        return [(-1, 0)]
    best = best_seats[0]
    return [(best, claims[best][0])]


def settle_instant(winners: list[tuple[int, int]], counts, stake: int) -> Outcome:
    n = len(counts)
    if winners == [(-1, 0)]:
        return no_payment("void", counts)
    ledger = _Ledger(n, stake)
    winning = {s for s, _ in winners}
    for seat in range(n):
        if seat in winning:
            continue
        for winner, multiple in winners:
            ledger.pay(seat, winner, multiple)
    top = max(m for _, m in winners)
    pushups = tuple(0 if s in winning else counts[s] * top for s in range(n))
    return Outcome("instant", tuple(sorted(winning)), tuple(counts), ledger.points(), pushups, None, top)


def settle_drop(rules: Rules, dropper: int, counts, dealer: int, stake: int) -> Outcome:
    """A drop: won when the dropper is strictly lowest, otherwise caught (section 5)."""
    n = len(counts)
    d = counts[dropper]
    others = [s for s in range(n) if s != dropper]
    lowest = min([counts[s] for s in others])
    if d < lowest:
        return win_by_one("drop_won", dropper, counts, stake, DROP_WON_MULTIPLE, dropper)
    low = [s for s in others if counts[s] == lowest]
    rest = [s for s in others if counts[s] != lowest]
    ledger = _Ledger(n, stake)
    variant = rules.caught_pays
    if variant == "standard":
        for s in others:
            if counts[s] <= d:
                ledger.pay(dropper, s, 2)
        for s in rest:
            for winner in low:
                ledger.pay(s, winner, 1)
    elif variant == "low_collects":
        for winner in low:
            ledger.pay(dropper, winner, 2)
        for s in rest:
            for winner in low:
                ledger.pay(s, winner, 1)
    elif variant == "dropper_pays_all":
        for winner in low:
            ledger.pay(dropper, winner, n - 1)
    elif variant == "equal_or_lower":
        for s in others:
            if counts[s] <= d:
                ledger.pay(dropper, s, 1)
        for s in rest:
            for winner in low:
                ledger.pay(s, winner, 1)
    elif variant == "double_to_all":
        for s in others:
            ledger.pay(dropper, s, 2)
    elif variant == "five_to_low":
        ledger.pay(dropper, nearest_dealers_left(low, dealer, n), 5)
    elif variant == "per_player":
        for winner in low:
            ledger.pay(dropper, winner, 2 * n)
    elif variant == "catchers_only":
        for s in others:
            if counts[s] <= d:
                ledger.pay(dropper, s, rules.catchers_stakes)
    else:  # pragma: no cover - Rules validates the variant
        raise AssertionError(variant)
    pushups = tuple([2 * d if s == dropper else 0 if s in low else counts[s] for s in range(n)])
    return Outcome("caught", tuple(low), tuple(counts), ledger.points(), pushups, dropper, 2)


def settle_stock_out(counts, stake: int) -> Outcome:
    """Lowest count wins a single stake; a tie for lowest is a draw."""
    lowest = min(counts)
    low = [s for s, c in enumerate(counts) if c == lowest]
    if len(low) > 1:
        return no_payment("draw", counts)
    return win_by_one("stock_out", low[0], counts, stake, 1)

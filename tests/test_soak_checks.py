"""scripts/soak_faults.py's own checks (issue 35): the soak's verdicts are only as good as these, so
they must see a hand lost or doubled, and its schedule must bring every kind of fault."""

import importlib.util
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def soak():
    sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("soak_faults", ROOT / "scripts" / "soak_faults.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def stored(hands, status="playing", hand_number=4, seats=None):
    return dict(tables={7: dict(version=50, status=status, hand_number=hand_number)},
                hands=[(7, f"7-{n}") for n in hands], seats=2 * len(hands) if seats is None else seats,
                ledger_hands=2 * len(hands), balance_sum=0, accounts=2)


def test_the_hand_check_sees_a_lost_hand_a_doubled_one_and_a_ledger_that_counts_wrong():
    check = soak().check_hands
    assert check(stored([1, 2, 3])) == []  # hand 4 in play
    assert check(stored([1, 2, 3, 4], status="between_hands")) == []  # hand 4 over and stored
    assert check(stored([1, 3]))  # hand 2 lost
    assert check(stored([1, 2, 2, 3]))  # hand 2 twice
    assert check(stored([1, 2, 3], status="between_hands"))  # hand 4 over but not stored
    assert check(stored([1, 2, 3], seats=7))  # the ledger counts other hands than stored


def test_a_soaks_schedule_brings_every_kind_of_fault_and_is_the_same_for_a_seed():
    module = soak()
    kinds = module.schedule(20, random.Random(35))
    assert len(kinds) == 20 and set(kinds) == set(module.KINDS)
    assert kinds == module.schedule(20, random.Random(35))

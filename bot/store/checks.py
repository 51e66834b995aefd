"""Argument checks shared by the repository modules.

Each returns the value in its stored form or raises ``ValueError`` naming the
argument, before anything is written.
"""

import json
from collections.abc import Iterable, Mapping
from typing import Any

from engine.game import MAX_PLAYERS

from .models import SCORING_MODES, TABLE_STATUSES

SEAT_KINDS = ("human", "computer")
SEAT_KEYS = frozenset({"kind", "user_id", "name", "level"})
MAX_SEATS = MAX_PLAYERS  # the engine's limit: one definition


def is_int(value: object) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_int(name: str, value: object, *, minimum: int | None = None) -> int:
    if not is_int(value):
        raise ValueError(f"{name} must be an integer, not {value!r}")
    assert isinstance(value, int)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")
    return value


def check_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def check_language(language: object) -> str | None:
    """A shipped language's Discord locale ("es-ES"), or None (the server's Discord language)."""
    from i18n import SHIPPED

    if language is not None and language not in SHIPPED:
        raise ValueError(f"language must be one of {', '.join(SHIPPED)} or None, not {language!r}")
    return language  # type: ignore[return-value]


def check_stake(stake: object) -> int:
    return check_int("stake", stake, minimum=1)


def check_scoring_mode(mode: object) -> str:
    if mode not in SCORING_MODES:
        raise ValueError(f"scoring mode must be one of {', '.join(SCORING_MODES)}, not {mode!r}")
    assert isinstance(mode, str)
    return mode


def check_status(status: object) -> str:
    if status not in TABLE_STATUSES:
        raise ValueError(f"table status must be one of {', '.join(TABLE_STATUSES)}, not {status!r}")
    assert isinstance(status, str)
    return status


def check_json(name: str, value: Any) -> Any:
    json_text(name, value)
    return value


def json_text(name: str, value: Any) -> str:
    """``value`` as the JSON text SQLAlchemy's JSON type stores (``json.dumps``), or ``ValueError``."""
    try:
        return json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be JSON data: {error}") from None


def check_json_object(name: str, value: object) -> dict[str, Any]:
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise ValueError(f"{name} must be a JSON object (a dict with string keys), not {value!r}")
    return check_json(name, dict(value))


def check_rules(rules: object) -> dict[str, Any]:
    """House rules: ``{"preset": name, ...option overrides}``. Option names are the engine's to check."""
    rules = check_json_object("rules", rules)
    if not isinstance(rules.get("preset"), str) or not rules["preset"]:
        raise ValueError(f'rules need a "preset" name: {rules!r}')
    return rules


def check_seats(seats: object) -> list[dict[str, Any]]:
    """Seats in seat order, each ``{"kind", "user_id", "name", "level"}``."""
    if not isinstance(seats, list | tuple) or len(seats) > MAX_SEATS:
        raise ValueError(f"seats must be a list of at most {MAX_SEATS} seats, not {seats!r}")
    checked = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, Mapping) or not set(seat) <= SEAT_KEYS:
            raise ValueError(f"seat {index} must be a dict with keys among {sorted(SEAT_KEYS)}: {seat!r}")
        kind, user_id, name, level = seat.get("kind"), seat.get("user_id"), seat.get("name"), seat.get("level")
        if kind not in SEAT_KINDS:
            raise ValueError(f"seat {index}: kind must be 'human' or 'computer', not {kind!r}")
        if kind == "human" and not is_int(user_id):
            raise ValueError(f"seat {index}: a human seat needs an integer user_id, not {user_id!r}")
        if kind == "computer" and user_id is not None:
            raise ValueError(f"seat {index}: a computer seat has no user_id")
        if not isinstance(name, str) or not name:
            raise ValueError(f"seat {index}: name must be a non-empty string, not {name!r}")
        if level is not None and not isinstance(level, str):
            raise ValueError(f"seat {index}: level must be a string or None, not {level!r}")
        checked.append({"kind": kind, "user_id": user_id, "name": name, "level": level})
    return checked


def check_channel_ids(channel_ids: Iterable[object] | None) -> list[int] | None:
    """Channels allowed to host tables; an empty list or None means every channel (stored as NULL)."""
    if channel_ids is None:
        return None
    if isinstance(channel_ids, str | bytes) or not isinstance(channel_ids, Iterable):
        raise ValueError(f"table channels must be a list of channel ids, not {channel_ids!r}")
    ids = [check_int("channel id", channel_id) for channel_id in channel_ids]
    return sorted(set(ids)) or None

"""A `Text` kept as data (JSON): what a table keeps across restarts is the message and its
values, never words in one language."""

from __future__ import annotations

from typing import Any

from .cards import Card
from .text import Text, as_text


def to_data(value: Any) -> Any:
    """A `Text` (or one of its parameters) as JSON data that `from_data` restores: what a table
    keeps across restarts is the message and its values, never words in one language. A card is
    `{"card": code}`, a list a list; numbers, names and None stay as they are."""
    if isinstance(value, Text):
        data: dict[str, Any] = {"text": value.msgid}
        if value.params:
            data["params"] = {k: to_data(v) for k, v in value.params.items()}
        if value.plural is not None:
            data["plural"], data["n"] = value.plural, value.n
        if value.context is not None:
            data["context"] = value.context
        return data
    if isinstance(value, Card):
        return {"card": value.code}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if value is None or isinstance(value, (str, int, float)):
        return str(value) if isinstance(value, str) else value  # a StrEnum is kept as its text
    raise TypeError(f"a Text parameter cannot be kept as data: {value!r}")


def from_data(data: Any) -> Any:
    """The value `to_data` kept; a plain string where a `Text` is expected is `as_text`'s."""
    if isinstance(data, dict):
        if "card" in data:
            return Card.parse(data["card"])
        params = {k: from_data(v) for k, v in (data.get("params") or {}).items()}
        return Text(data["text"], params, data.get("plural"), data.get("n"), data.get("context"))
    if isinstance(data, list):
        return [from_data(v) for v in data]
    return data


def text_from_data(data: Any) -> "Text | None":
    """A kept `Text`, or None; an older snapshot's plain English string is shown as it is."""
    if data is None:
        return None
    value = from_data(data)
    return value if isinstance(value, Text) else as_text(str(value))

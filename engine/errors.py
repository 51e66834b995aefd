"""Errors the engine raises. Each carries what is wrong as a `Text` (a message id and its
parameters, `engine.text`), written for players; the edge says it in the reader's language
(`i18n.Lang.render(exc.text)`), and `str(exc)` is its English, for logs."""

from __future__ import annotations

from .text import Text, as_text


class TonkError(ValueError):
    """Base of every refusal the engine makes; its `text` is safe to show a player."""

    def __init__(self, text: "Text | str" = "", *args):
        self.text: Text = as_text(text)
        super().__init__(self.text, *args)

    def __str__(self) -> str:
        return str(self.text)


class IllegalAction(TonkError):
    """The action breaks a rule of the game; the state is unchanged."""


class NotYourTurn(IllegalAction):
    """Someone tried to act while it was another seat's turn."""


class RulesError(TonkError):
    """House rules that do not exist or do not fit together."""


class RecordError(TonkError):
    """A hand record that cannot be read or replayed.

    `index` is the position of the offending action, or None when the record itself
    (its format, deck or rules) is at fault.
    """

    def __init__(self, message: "Text | str", index: int | None = None):
        super().__init__(message)
        self.index = index
        if index is not None:
            from .text import t

            self.text = t("action {index}: {reason}", index=index, reason=self.text)

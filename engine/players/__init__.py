"""Computer players for Tonk: `easy`, `normal` and `hard`, each deciding from a SeatView alone.

```python
from engine.players import make_player
bot = make_player("hard", seed=7)
action = bot.choose(game.view(seat))   # always one of view.legal_actions
game.apply(seat, action)
```
"""

from __future__ import annotations

from .base import ComputerPlayer
from .easy import EasyPlayer
from .hard import HardPlayer
from .normal import NormalPlayer

LEVELS = ("easy", "normal", "hard")
_CLASSES = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}


def make_player(level: str, seed: int | None = None) -> ComputerPlayer:
    """A computer player of `level` ("easy", "normal" or "hard"); `seed` makes it repeatable."""
    key = level.strip().lower() if isinstance(level, str) else level
    if key not in _CLASSES:
        raise ValueError(f"There is no computer level {level!r}; choose one of {', '.join(LEVELS)}.")
    return _CLASSES[key](seed)


__all__ = ["LEVELS", "ComputerPlayer", "EasyPlayer", "HardPlayer", "NormalPlayer", "make_player"]

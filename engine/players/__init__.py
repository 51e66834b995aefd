"""Computer players for Tonk: `easy`, `normal`, `hard` and `expert`, each deciding from a SeatView alone.

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
from .expert import ExpertPlayer
from .hard import HardPlayer
from .normal import NormalPlayer

LEVELS = ("easy", "normal", "hard", "expert")
_CLASSES = {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer, "expert": ExpertPlayer}


def make_player(level: str, seed: int | None = None, **options) -> ComputerPlayer:
    """A computer player of `level` ("easy", "normal", "hard" or "expert"); `seed` makes it
    repeatable. `options` go to the level's constructor (expert: `samples`, `time_cap`)."""
    key = level.strip().lower() if isinstance(level, str) else level
    if key not in _CLASSES:
        raise ValueError(f"There is no computer level {level!r}; choose one of {', '.join(LEVELS)}.")
    return _CLASSES[key](seed, **options)


__all__ = ["LEVELS", "ComputerPlayer", "EasyPlayer", "ExpertPlayer", "HardPlayer", "NormalPlayer", "make_player"]

"""Log-odds and back: the one clamped logit and logistic function of the engine.

The hand review's recalibrated chance (engine/review.py), the blend of inferred and learned drop
chances (engine/players/infer.py) and the scripts that fit them (scripts/infer_model.py,
scripts/review_calibration.py) all go through these, so a chance is clamped the same way
everywhere. This module imports nothing of the engine: anything may use it without an import circle.
"""

from __future__ import annotations

import math

EDGE = 1e-4
"""A chance is clamped to [EDGE, 1 - EDGE] before its log-odds are taken: 0 and 1 have none."""


def logit(p: float) -> float:
    """The log-odds of `p`, clamped away from 0 and 1."""
    p = min(max(p, EDGE), 1.0 - EDGE)
    return math.log(p / (1.0 - p))


def logistic(x: float) -> float:
    """The chance whose log-odds are `x` (the inverse of `logit` inside the clamp)."""
    return 1.0 / (1.0 + math.exp(-x))

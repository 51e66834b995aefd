"""The engine's one clamped log-odds function (engine/odds.py), shared by the review and inference."""

import math

from engine.odds import EDGE, logistic, logit


def test_a_sure_chance_has_finite_log_odds_at_the_clamp():
    assert logit(0.0) == logit(EDGE)
    assert math.isclose(logit(1.0), -logit(0.0), rel_tol=1e-12)
    assert math.isfinite(logit(0.0)) and logit(0.0) < -9


def test_logistic_undoes_logit_inside_the_clamp():
    for p in (EDGE, 0.01, 0.25, 0.5, 0.8, 1 - EDGE):
        assert math.isclose(logistic(logit(p)), p, rel_tol=1e-12)
    assert logit(0.5) == 0.0 and logistic(0.0) == 0.5

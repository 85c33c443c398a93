"""pods.c's team evaluation, its racer terms pinned by positions set up by
hand and scores worked out by hand (the literals) from the formula in the
parameter text: racer = passed * cp_value - distance to the next checkpoint
+ w_speed * velocity toward it - w_heading * degrees between the heading and
the aim (the next checkpoint, or the one after within `lineup` of it).

Map `oval`: checkpoints 0 (3000,4500), 1 (8000,1800), 2 (13000,4500),
3 (8000,7200). One pod alone (a time trial): the score is its racer value."""
from __future__ import annotations

import pytest

from sandbox.native import Game
from tests.games.test_pods_rules import place

# the pod sits 2700 below checkpoint 1, which lies straight up (angle 270)
AT = dict(x=8000, y=4500, vx=0, vy=0, next_cp=1, passed=0)


def solo(**params) -> Game:
    p = {"map": "oval", "players": 1, "pods_per_player": 1, "w_heading": 0, "w_speed": 0,
         "lineup": 0, **params}
    return Game("pods", p, seed=0)


def score(g: Game, turn: int = 1, **pod) -> float:
    place(g, turn=turn, p0={**AT, **pod})
    return float(g.evaluate()[0])


def test_heading_error_costs_w_heading_per_degree():
    with solo(w_heading=10) as g:
        assert score(g, angle=270.0) == pytest.approx(-2700.0)        # facing it
        assert score(g, angle=0.0) == pytest.approx(-2700.0 - 900.0)  # 90 degrees off
        assert score(g, angle=90.0) == pytest.approx(-2700.0 - 1800.0)  # facing away
        assert score(g, angle=300.0) == pytest.approx(-2700.0 - 300.0)
        # the short way round: 200 is 70 degrees from 270, not 290
        assert score(g, angle=200.0) == pytest.approx(-2700.0 - 700.0)


def test_no_heading_before_the_first_turn():
    # on turn 0 a pod first faces its checkpoint (RULES §3): no error yet
    with solo(w_heading=10) as g:
        assert score(g, turn=0, angle=90.0) == pytest.approx(-2700.0)


def test_speed_toward_the_checkpoint_counts_w_speed_times():
    with solo(w_speed=2) as g:
        assert score(g, angle=270.0, vy=-300) == pytest.approx(-2700.0 + 600.0)
        assert score(g, angle=270.0, vy=300) == pytest.approx(-2700.0 - 600.0)
        assert score(g, angle=270.0, vx=300) == pytest.approx(-2700.0)   # sideways
        # (300, -400): 400 of it toward the checkpoint
        assert score(g, angle=270.0, vx=300, vy=-400) == pytest.approx(-2700.0 + 800.0)


def test_within_lineup_the_pod_is_scored_facing_the_checkpoint_after():
    # 1200 below checkpoint 1; checkpoint 2 lies at (+5000, +1500) from
    # there: angle atan(1500/5000) = 16.69924423 degrees
    near = dict(y=3000)
    with solo(w_heading=10, lineup=2000) as g:
        assert score(g, angle=16.69924423, **near) == pytest.approx(-1200.0, abs=1e-4)
        # facing checkpoint 1 instead: 360 - (270 - 16.69924423) degrees off
        assert score(g, angle=270.0, **near) == pytest.approx(-1200.0 - 1066.9924423, abs=1e-4)
    with solo(w_heading=10, lineup=1000) as g:    # 1200 away: still aims at 1
        assert score(g, angle=270.0, **near) == pytest.approx(-1200.0)


def test_a_checkpoint_passed_outweighs_the_racer_terms():
    with solo(w_heading=10, w_speed=2, cp_value=30000) as g:
        # a lap on (4 checkpoints passed), the same spot, worst heading and drift
        assert score(g, angle=90.0, vy=300, passed=4) == pytest.approx(
            4 * 30000.0 - 2700.0 - 600.0 - 1800.0)
        assert score(g, angle=90.0, vy=300, passed=4) > score(g, angle=270.0, vy=-300)


def test_by_default_pointing_and_moving_at_the_checkpoint_scores_higher():
    with Game("pods", {"map": "oval", "players": 1, "pods_per_player": 1}, seed=0) as g:
        toward = score(g, angle=270.0, vy=-300)
        assert toward > score(g, angle=90.0, vy=-300)     # pointing away
        assert toward > score(g, angle=270.0, vy=300)     # drifting away

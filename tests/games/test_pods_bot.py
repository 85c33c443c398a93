"""The pods heuristic bot (sbx_game_bot_move, pods.c): hand-made positions
where its choice follows from its rule (aim at the next checkpoint minus 3
x velocity, full thrust, no thrust when the target is behind, one boost on
the longest leg), and races it must finish or win."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.config import scenario_from_dict
from sandbox.games.pods.view import decode_pods, encode_pods
from sandbox.native import Game, InvalidState, has_bot
from sandbox.sim.match import Match

L0, L200, S200, BOOST = 0, 2, 5, 9          # default move ids (see test_pods_rules.py)


def game(**params) -> Game:
    return Game("pods", {"map": "oval", "players": 1, "pods_per_player": 1, **params}, seed=0)


def place(g: Game, turn: int = 1, **pods) -> None:
    from dataclasses import replace
    v = replace(decode_pods(g.export()), turn=turn)
    for key, changes in pods.items():
        v = v.with_pod(int(key[1:]), **changes)
    g.import_state(encode_pods(v))


def test_aims_at_the_checkpoint_with_the_closest_rotation():
    g = game()                                     # oval: checkpoint 1 at (8000, 1800)
    place(g, p0=dict(x=5000, y=4500, vx=0, vy=0, angle=0.0))
    assert g.bot_move(0) == L200                   # wants -42°: turn left, full thrust
    place(g, p0=dict(x=5000, y=1800, vx=0, vy=0, angle=0.0))
    assert g.bot_move(0) == S200                   # dead ahead


def test_corrects_for_velocity():
    g = game()
    # drifting south at 300: the target is the checkpoint minus 3 x velocity,
    # (8000, 900), 16.7° to the left (closer to -18 than to 0), where the
    # bare checkpoint is dead ahead
    place(g, p0=dict(x=5000, y=1800, vx=0, vy=300, angle=0.0))
    assert g.bot_move(0) == L200


def test_coasts_when_it_would_orbit():
    g = game()
    # drifting south at 500: the target (8000, 300) is 26.6° off, out of
    # this turn's reach, and the checkpoint (3000 away) is nearer than
    # 8 x speed = 4000: no thrust
    place(g, p0=dict(x=5000, y=1800, vx=0, vy=500, angle=0.0))
    assert g.bot_move(0) == L0


def test_no_thrust_when_the_target_is_behind():
    g = game()
    place(g, p0=dict(x=5000, y=1800, vx=0, vy=0, angle=180.0))
    assert g.bot_move(0) == L0                     # -180°: turn (left wins the tie), coast


def test_boosts_once_on_the_longest_leg():
    g = game(map="hairpin")     # legs: 2->0 4601, 0->1 11045, 1->2 11479 (the longest)
    v = decode_pods(g.export())
    (x1, y1), (x2, y2) = v.checkpoints[1], v.checkpoints[2]
    # on the longest leg, facing checkpoint 2 exactly, far from it
    a = math.degrees(math.atan2(y2 - y1, x2 - x1)) % 360
    place(g, p0=dict(x=x1, y=y1, vx=0, vy=0, angle=a, next_cp=2, passed=1))
    assert g.bot_move(0) == BOOST
    place(g, p0=dict(x=x1, y=y1, vx=0, vy=0, angle=a, next_cp=2, passed=1, boost_used=True))
    assert g.bot_move(0) == S200
    # the 0 -> 1 leg is not the longest: no boost
    (x0, y0) = v.checkpoints[0]
    a = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
    place(g, p0=dict(x=x0, y=y0, vx=0, vy=0, angle=a, next_cp=1, passed=0))
    assert g.bot_move(0) == S200


@pytest.mark.parametrize("map_, map_seed", [("hairpin", 1), ("oval", 1), ("zigzag", 1),
                                            ("star", 1), ("seeded", 1), ("seeded", 13)])
def test_the_bot_finishes_a_three_lap_time_trial(map_, map_seed):
    with Game("pods", {"players": 1, "pods_per_player": 1, "map": map_, "map_seed": map_seed},
              seed=0) as g:
        while not g.is_terminal:
            g.step([g.bot_move(0)])
        v = decode_pods(g.export())
        assert v.winner == 0 and v.turn < 300, (map_, v.turn)
        assert v.pods[0].boost_used


def test_the_bot_beats_a_random_team():
    with Game("pods", {}, seed=0) as g:
        rng = np.random.default_rng(1)
        while not g.is_terminal:
            g.step([g.bot_move(0), g.bot_move(1), int(rng.integers(11)), int(rng.integers(11))])
        v = decode_pods(g.export())
        # the random team times out (or the bots finish first)
        assert (v.winner == 0 or v.out_turn[1] >= 0) and v.out_turn[0] < 0
        assert g.ranking() == [0, 0, 2, 2]
        assert g.bot_move(0) is None                   # terminal: no move


def test_only_pods_has_a_bot():
    assert has_bot("pods") and not has_bot("snakes") and not has_bot("nope")
    with Game("snakes", {}, seed=0) as g, pytest.raises(InvalidState, match="no bot"):
        g.bot_move(0)
    with pytest.raises(ValueError, match="has no bot"):
        scenario_from_dict({"game": "snakes", "game_params": {"snakes": 2},
                            "players": [{"controller": "bot"}, {}]})


def test_a_bot_player_in_a_match():
    sc = scenario_from_dict({"game": "pods", "game_params": {"map": "oval", "laps": 1},
                             "budget": {"ms": 0, "iterations": 200},
                             "players": [{"name": "S", "agents": [0, 1],
                                          "search": {"max_depth": 3}},
                                         {"name": "B", "agents": [2, 3], "controller": "bot"}]})
    with Match(sc, seed=1, max_turns=5) as m:
        m.play()
        assert m.turn == 5

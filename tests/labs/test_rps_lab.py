"""RPS playground: the scripted opponents, the score, the model of your
history (by hand) and the move the agent plays from it."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sandbox.labs.common import LabError, choose_move, final_move_for
from sandbox.labs.kinds import column_game_params, matrix_game, payoff_tables
from sandbox.labs.rps import Opponent, RpsLab, run_rps
from sandbox.native import MoveStat

NAMES = ["rock", "paper", "scissors"]
# who beats whom, written out (not read from the game): the oracle for scores
BEATS = {("rock", "scissors"), ("paper", "rock"), ("scissors", "paper")}


@pytest.mark.parametrize("pattern, first", [
    ("rock", [0] * 7), ("Paper", [1] * 7), ("cycle", [0, 1, 2, 0, 1, 2, 0]),
    ("r,p,s,r", [0, 1, 2, 0, 0, 1, 2]), ("scissors,r", [2, 0, 2, 0, 2, 0, 2]),
    ("biased:0,0,1", [2] * 7)])
def test_opponent_patterns(pattern, first):
    you = Opponent(pattern, NAMES, seed=3)
    assert [you.move(k) for k in range(7)] == first


def test_uniform_and_biased_opponents_are_seeded_and_follow_their_odds():
    u, v = Opponent("uniform", NAMES, seed=5), Opponent("uniform", NAMES, seed=5)
    a = [u.move(k) for k in range(3000)]
    assert a == [v.move(k) for k in range(3000)]
    assert np.allclose(np.bincount(a, minlength=3) / 3000, 1 / 3, atol=0.04)
    c = Opponent("biased:0.6,0.3,0.1", NAMES, seed=5)
    freq = np.bincount([c.move(k) for k in range(4000)], minlength=3) / 4000
    assert np.allclose(freq, [0.6, 0.3, 0.1], atol=0.04)


@pytest.mark.parametrize("bad", ["xyz", "r,p,q", "biased:0.5,0.5", "biased:a,b,c",
                                 "biased:0.5,0.6,-0.1", "biased:0.2,0.2,0.2", ""])
def test_bad_patterns_are_refused(bad):
    with pytest.raises(LabError, match="--opponent"):
        Opponent(bad, NAMES)


def test_the_score_follows_the_rules_of_rps():
    lab = RpsLab("ucb1", iterations=50, seed=2)
    you = Opponent("uniform", lab.names, seed=9)
    for k in range(60):
        lab.play(you.move(k))
    wins = ties = losses = 0
    for r in lab.rounds:
        y, a = NAMES[r.you], NAMES[r.agent]
        if (a, y) in BEATS:
            assert r.outcome == 1 and r.agent_payoff == 1.0
            losses += 1
        elif (y, a) in BEATS:
            assert r.outcome == -1 and r.agent_payoff == -1.0
            wins += 1
        else:
            assert r.outcome == 0 and y == a
            ties += 1
    assert lab.score == [wins, ties, losses] and sum(lab.score) == 60


def test_model_history_column_by_hand_after_always_rock():
    lab = RpsLab("ucb1", iterations=200, model_history=True, seed=1)
    assert np.allclose(lab.model_column(), [0.0, 0.0, 0.0])     # no history: all even
    for _ in range(10):
        lab.play(0)
    # Laplace: rock (10+1)/13, paper and scissors 1/13 each. Against that,
    # rock earns 0*11/13 - 1/13 + 1/13 = 0, paper 11/13 - 1/13, scissors the opposite.
    assert np.allclose(lab.frequencies(), [11 / 13, 1 / 13, 1 / 13])
    assert np.allclose(lab.model_column(), [0.0, 10 / 13, -10 / 13])
    # the game the agent searches holds that column (to the export's 1/1000)
    a, _ = payoff_tables(matrix_game(column_game_params(lab.model_column(), lab.names)))
    assert a.shape == (3, 1) and np.allclose(a[:, 0], [0.0, 10 / 13, -10 / 13], atol=1e-3)
    move, strat, column, _ = lab.decide()
    assert lab.names[move] == "paper" and np.argmax(strat) == 1
    assert np.allclose(column, [0.0, 10 / 13, -10 / 13])
    # and it records the searched column each round
    assert np.allclose(lab.rounds[-1].column, [0.0, 9 / 12, -9 / 12])


def test_without_the_model_the_search_is_plain_rps():
    lab = RpsLab("ucb1", iterations=300, model_history=False, seed=1)
    for _ in range(10):
        lab.play(0)
    assert lab.rounds[-1].column is None
    # a fresh self-play search of RPS knows nothing of your rocks: no move dominates
    assert max(lab.rounds[-1].strategy) < 0.5


def test_the_agent_beats_always_rock_once_it_models_you():
    rep = run_rps(30, "ucb1", 200, "rock", model_history=True, seed=4)
    assert rep.rows[-1].agent_wins >= 28
    assert all(NAMES[r.agent] == "paper" for r in rep.rounds[1:])


def test_final_move_sample_draws_from_the_root_policy_and_argmax_is_the_best_move():
    assert final_move_for("ucb1") == "argmax" and final_move_for("rm") == "sample"
    stats = [MoveStat(0, 20, 0.0, 0.2, 0.2), MoveStat(1, 50, 0.0, 0.5, 0.5),
             MoveStat(2, 30, 0.0, 0.3, 0.3)]
    fake = SimpleNamespace(root_stats=lambda agent: stats, best_moves=lambda: [2, None])
    rng = np.random.default_rng(0)
    draws = [choose_move(fake, 0, 3, "sample", rng) for _ in range(4000)]
    assert np.allclose(np.bincount(draws, minlength=3) / 4000, [0.2, 0.5, 0.3], atol=0.03)
    assert choose_move(fake, 0, 3, "argmax", rng) == 2


def test_runs_are_reproducible_and_the_table_has_a_row_per_tenth():
    a = run_rps(50, "ucb1", 100, "uniform", seed=7)
    b = run_rps(50, "ucb1", 100, "uniform", seed=7)
    assert [(r.you, r.agent) for r in a.rounds] == [(r.you, r.agent) for r in b.rounds]
    assert [r.round for r in a.rows] == list(range(5, 51, 5))
    text = a.text()
    assert "rock" in text and text.count("\n") >= 12


@pytest.mark.parametrize("kwargs, match", [
    ({"policy": "ucb2"}, "unknown policy"), ({"iterations": 0}, "--iterations"),
    ({"rounds": 0}, "--rounds"), ({"seed": -1}, "--seed")])
def test_bad_settings_are_refused(kwargs, match):
    with pytest.raises(LabError, match=match):
        run_rps(**{"rounds": 5, **kwargs})

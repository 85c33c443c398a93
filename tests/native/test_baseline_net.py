"""SUCT and joint with a value net and with relative_scores: their leaf
scores come from the same evaluation point as Smitsimax's
(sbx_search_evaluate), so a leaf that is not terminal is scored by the
net's values and a terminal one by the game's result. Oracle: the net's own
forward pass (Net.evaluate) on the leaf state, rebuilt in Python from the
traced iteration's moves."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sandbox.native import Game, Net, Search, SearchParams

NET = Path(__file__).resolve().parents[2] / "assets" / "nets" / "goofspiel5.sbxnet"
PARAMS = "num_cards=5,points_order=descending,returns_type=win_loss"


def _leaf(trace) -> Game:
    g = Game("goofspiel", PARAMS, seed=1)
    for d in range(trace.depth):
        g.step([int(m) for m in trace.moves[:, d]])
    return g


@pytest.mark.parametrize("algorithm", ["suct", "joint"])
@pytest.mark.parametrize("max_depth, relative", [(1, False), (2, False), (5, False), (2, True)])
def test_each_leaf_is_scored_by_the_net_or_by_the_result(algorithm, max_depth, relative):
    net = Net(NET)
    params = SearchParams(algorithm=algorithm, value_net=str(NET), max_depth=max_depth,
                          gamma=1.0, relative_scores=relative)
    differs = 0
    with Search(Game("goofspiel", PARAMS, seed=1), params, seed=5) as s:
        for _ in range(40):
            tr = s.step_traced()
            leaf = _leaf(tr)
            own = leaf.evaluate()
            if leaf.is_terminal:
                want = own
            else:
                values, _ = net.evaluate([leaf])
                want = values[0, :, 0]
                differs += not np.allclose(want, own, atol=1e-3)
            if relative:
                want = np.array([want[0] - want[1], want[1] - want[0]])
            assert tr.scores == pytest.approx(want, abs=1e-5)
            leaf.close()
    if max_depth < 5:   # the net, not the evaluation, scored these leaves
        assert differs > 0


@pytest.mark.parametrize("algorithm", ["suct", "joint"])
def test_relative_scores_on_a_general_sum_snake_duel(algorithm):
    """Without a net: each traced score is the agent's evaluation minus the
    other's, so a duel's pair adds to 0 (the snake evaluation alone does
    not: a dead snake's -1 beside a living one's length and space). The
    first iteration is the same draw with the setting on or off."""
    game = Game("snakes", "width=7 height=7 snakes=2", seed=3)
    base = SearchParams(algorithm=algorithm, max_depth=3, gamma=1.0)
    with Search(game, base, seed=2) as s:
        own = s.step_traced().scores
    assert abs(own.sum()) > 0.5
    with Search(game, base.model_copy(update={"relative_scores": True}), seed=2) as s:
        for _ in range(30):
            tr = s.step_traced()
            assert tr.scores.sum() == pytest.approx(0.0, abs=1e-9)
    with Search(game, base.model_copy(update={"relative_scores": True}), seed=2) as s:
        assert s.step_traced().scores == pytest.approx([own[0] - own[1], own[1] - own[0]])


@pytest.mark.parametrize("algorithm", ["suct", "joint"])
@pytest.mark.parametrize("change", [{"value_net": ""}, {"relative_scores": True}])
def test_a_change_of_scale_starts_the_tree_afresh(algorithm, change):
    """Totals gathered on one scale would be mixed with another's: detaching
    the net or switching relative_scores clears the tree; another setting
    keeps it."""
    with Search(Game("goofspiel", PARAMS, seed=1),
                SearchParams(algorithm=algorithm, value_net=str(NET), max_depth=2),
                seed=5) as s:
        s.run(iterations=500)
        s.update_params(c=0.9)
        s.run(iterations=100)
        assert s.stats().root_visits[0] == 600
        s.update_params(**change)
        s.run(iterations=300)
        assert s.stats().root_visits[0] == 300

"""Smitsimax with a value net: a leaf that is not terminal is scored by the
net's values (one state a batch, on the search's own evaluator), a terminal
one by the game's result. Oracle: the net's own forward pass (Net.evaluate)
on the leaf state, rebuilt in Python from the traced iteration's moves."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sandbox.native import Game, InvalidArgument, Net, Search, SearchParams

NET = Path(__file__).resolve().parents[2] / "assets" / "nets" / "goofspiel5.sbxnet"
PARAMS = "num_cards=5,points_order=descending,returns_type=win_loss"


def _leaf(trace) -> Game:
    g = Game("goofspiel", PARAMS, seed=1)
    for d in range(trace.depth):
        g.step([int(m) for m in trace.moves[:, d]])
    return g


@pytest.mark.parametrize("max_depth", [1, 2, 5])
def test_each_leaf_is_scored_by_the_net_or_by_the_result(max_depth):
    net = Net(NET)
    params = SearchParams(value_net=str(NET), max_depth=max_depth, gamma=1.0)
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
            assert tr.scores == pytest.approx(want, abs=1e-5)
            leaf.close()
    if max_depth < 5:   # the net, not the evaluation, scored these leaves
        assert differs > 0


def test_a_net_change_starts_the_trees_afresh():
    """Scores and ranges gathered from one set of values would be mixed with
    another's: attaching or detaching the net clears the trees."""
    with Search(Game("goofspiel", PARAMS, seed=1),
                SearchParams(value_net=str(NET), max_depth=2), seed=5) as s:
        s.run(iterations=500)
        s.update_params(value_net="")
        s.run(iterations=300)
        assert s.stats().root_visits[0] == 300


@pytest.mark.parametrize("mode", ["wu_uct", "tree", "root"])
def test_a_parallel_smitsimax_with_a_net_is_refused_up_front(mode):
    """One evaluator per search: threads would share it. Refused when the
    settings are made, naming the way out."""
    with pytest.raises(ValueError, match="parallel = serial"):
        SearchParams(value_net=str(NET), parallel=mode, threads=2)


def test_the_core_refuses_it_too():
    """Settings that skipped the check (model_copy does not validate) still
    meet the core's refusal: a status and a message, no shared evaluator."""
    params = SearchParams(value_net=str(NET), max_depth=2).model_copy(
        update={"parallel": "wu_uct", "threads": 2})
    with Search(Game("goofspiel", PARAMS, seed=1), params, seed=1) as s:
        with pytest.raises(InvalidArgument, match="one thread"):
            s.run(iterations=100)

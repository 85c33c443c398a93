"""SUCT and joint with relative_scores and a value net: their leaf scores
come from the same evaluation point as Smitsimax's (sbx_search_evaluate).
The net's leaf values are checked against its own forward pass with
Smitsimax's (tests/native/test_smitsimax_net.py, every algorithm); here, the
relative transform on a general-sum game and the tree starting afresh when
the scale changes."""
from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.native import Game, Search, SearchParams

NET = Path(__file__).resolve().parents[2] / "assets" / "nets" / "goofspiel5.sbxnet"
PARAMS = "num_cards=5,points_order=descending,returns_type=win_loss"


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

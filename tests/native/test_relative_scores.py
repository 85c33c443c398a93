"""Smitsimax's `relative_scores`: each agent's leaf score becomes its
evaluation minus the mean of the other agents' evaluations. Oracles: a
general-sum matrix game whose best row flips under the transform (worked
out by hand below), and the transform's identity that the agents' relative
scores add up to zero, so their trees' backed-up totals do too."""
from __future__ import annotations

import pytest

from sandbox.native import Game, Search, SearchParams

# Row payoffs a, column payoffs b. Row 0 pays the row player more (5 > 4),
# row 1 pays it more than the column player (a - b: 0 against 4); the
# column player is indifferent either way (b is the same across columns).
GAME = "rows=2 cols=2 a0=5/5 a1=4/4 b0=5/5 b1=0/0"


@pytest.mark.parametrize("relative, best_row", [(False, 0), (True, 1)])
def test_the_row_player_maximises_what_the_setting_says(relative, best_row):
    params = SearchParams(relative_scores=relative, c=0.7, random_threshold=0, gamma=1.0)
    with Search(Game("matrix", GAME, 1), params, seed=4) as s:
        s.run(iterations=5000)
        stats = {m.move: m for m in s.root_stats(0)}
        share = stats[best_row].visits / sum(m.visits for m in stats.values())
        assert share >= 0.9
        if relative:   # the mean score of row 1 is a - mean(b) = 4 - 0 exactly
            assert stats[1].mean == pytest.approx(4.0)
        else:
            assert stats[0].mean == pytest.approx(5.0)


@pytest.mark.parametrize("snakes", [2, 3])
def test_the_agents_relative_scores_add_up_to_zero(snakes):
    """Every iteration backs up one score per agent from one evaluation; the
    relative ones add up to zero, so the root children's totals (visits x
    mean) of all the trees do. Without the transform they do not (the snake
    evaluation is one-signed while the snakes live)."""
    totals = {}
    for relative in (False, True):
        params = SearchParams(relative_scores=relative, gamma=1.0, max_depth=6)
        game = Game("snakes", f"width=7 height=7 snakes={snakes}", 3)
        with Search(game, params, seed=5) as s:
            s.run(iterations=400)
            totals[relative] = sum(m.visits * m.mean for a in range(snakes)
                                   for m in s.root_stats(a))
    assert totals[True] == pytest.approx(0.0, abs=1e-6 * 400)
    assert abs(totals[False]) > 1.0

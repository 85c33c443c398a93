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


def test_smitsimax_switching_the_setting_starts_the_trees_afresh():
    """Totals gathered on one scale would be mixed with the other's."""
    with Search(Game("matrix", GAME, 1), SearchParams(c=0.7), seed=4) as s:
        s.run(iterations=500)
        s.update_params(relative_scores=True)   # applied when the next run starts
        s.run(iterations=300)
        assert sum(m.visits for m in s.root_stats(0)) == 300


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


# ---------------------------------------------------------------- MCGS

MCGS = dict(algorithm="mcgs", c_puct=1.0, fpu_offset=0.1, rollout_steps=0)


@pytest.mark.parametrize("relative, best_row", [(False, 0), (True, 1)])
def test_mcgs_row_player_maximises_what_the_setting_says(relative, best_row):
    """The same hand-worked game as above, searched by MCGS: one round, so a
    row's value is its payoff (own) or its payoff minus the column's (relative)."""
    params = SearchParams(**MCGS, relative_scores=relative)
    with Search(Game("matrix", GAME, 1), params, seed=4) as s:
        s.run(iterations=3000)
        stats = {m.move: m for m in s.root_stats(0)}
        share = stats[best_row].visits / sum(m.visits for m in stats.values())
        assert share >= 0.9
        assert stats[best_row].mean == pytest.approx(4.0 if relative else 5.0, abs=1e-6)


def _maze_root_values(relative, iterations):
    game = Game("maze", "size=medium maze_seed=1 claim_decay=0.8", 1)
    with Search(game, SearchParams(**MCGS, max_depth=20, relative_scores=relative), seed=3) as s:
        s.run(iterations=iterations)
        return s.root_matrix().root_values


def test_mcgs_relative_values_of_a_duel_add_up_to_zero():
    """Base, rewards and leaf values all come from the transformed
    evaluation, so the graph's two root values are opposite."""
    v0, v1 = _maze_root_values(True, 2000)
    assert v0 + v1 == pytest.approx(0.0, abs=1e-6)
    w0, w1 = _maze_root_values(False, 2000)
    assert w0 + w1 > 5.0   # the maze credits both explorers: one-signed


@pytest.mark.parametrize("parallel, threads, rollout_steps",
                         [("serial", 1, 4), ("tree", 1, 0), ("tree", 1, 4), ("tree", 2, 4)])
def test_mcgs_relative_values_add_up_to_zero_with_rollouts_chance_and_threads(
        parallel, threads, rollout_steps):
    """The other places the graph reads the evaluation: a rollout's end, and
    a parallel run's chance children (snakes' food: an edge meets several
    states; the parallel code links them itself, and runs on one thread
    too). With two threads a node's two values are recomputed from edges
    other threads are updating, so the identity holds only up to that race."""
    game = Game("snakes", "width=7 height=7 snakes=2", 3)
    params = SearchParams(algorithm="mcgs", max_depth=8, rollout_steps=rollout_steps,
                          parallel=parallel, threads=threads)
    sums = {}
    for relative in (False, True):
        with Search(game, params.replace(relative_scores=relative), seed=5) as s:
            s.run(iterations=3000)
            sums[relative] = sum(s.root_matrix().root_values)
    assert sums[True] == pytest.approx(0.0, abs=1e-5 if threads == 1 else 0.05)
    assert abs(sums[False]) > 0.3


def test_mcgs_own_scores_drift_with_the_budget_in_a_symmetric_maze():
    """The defect relative scores remove (docs/algorithms.md, "Relative
    scores"): the maze's evaluation grows as the explorers walk towards
    their cheese, so a value-to-go grows with how deep the playouts went,
    and the most-visited line, the deepest, looks best because it is deep.
    The opening of the mirrored maze is even: the zero-sum view values it
    near 0 at any budget, while each player's own view climbs with it."""
    own = [_maze_root_values(False, n)[0] for n in (500, 8000)]
    rel = [_maze_root_values(True, n)[0] for n in (500, 8000)]
    assert own[1] - own[0] > 0.8
    assert all(abs(v) < 0.75 for v in rel)


def test_mcgs_switching_the_setting_starts_the_graph_afresh():
    """Stored values are on the old scale: a graph kept across the switch
    would mix own and relative figures, and its two root values would no
    longer be opposite."""
    game = Game("maze", "size=medium maze_seed=1 claim_decay=0.8", 1)
    with Search(game, SearchParams(**MCGS, max_depth=20), seed=3) as s:
        s.run(iterations=1000)
        s.update_params(relative_scores=True)   # applied when the next run starts
        s.run(iterations=1000)
        assert s.stats().root_visits[0] == 1000   # not 2,000: the old graph is gone
        v0, v1 = s.root_matrix().root_values
        assert v0 + v1 == pytest.approx(0.0, abs=1e-6)

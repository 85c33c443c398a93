"""A short parallel search in every mode (Smitsimax, with and without a value
net; MCGS's wu_uct and tree),
for the ThreadSanitizer run (`python tools/sanitize.py --tsan`, a CI step):
two threads on shared trees, root sets and leaf hand-offs, over a re-root, with every option that adds a
shared write (death flags, freeze, depth bounds, pass nodes). Budgets are
small because TSan runs the core ~10x slower; the normal suite runs it too
and checks the budget and the root counts."""
from __future__ import annotations

import pytest

from sandbox.native import Game, Search, SearchParams, cores

pytestmark = pytest.mark.skipif(cores() < 2, reason="needs two cores")

OPTIONS = [
    {},
    {"rollout": True, "elimination": "freeze", "bounds": "depth", "death_penalty": True,
     "random_threshold": 1},
]


@pytest.mark.parametrize("opts", OPTIONS, ids=["plain", "rollout-freeze-depth-doom"])
@pytest.mark.parametrize("mode", ["wu_uct", "tree", "root", "leaf"])
def test_short_parallel_search(mode, opts):
    if mode == "leaf":
        opts = {**opts, "rollout": True}
    p = SearchParams(parallel=mode, threads=2, max_depth=6, **opts)
    n = 3000
    with Game("snakes", {"snakes": 4, "width": 7, "height": 7}, seed=2) as g, \
            Search(g, p, 5) as s:
        for _ in range(2):
            r = s.run(iterations=n)
            assert r.iterations == n
            rows = s.root_stats(0)
            assert sum(m.visits for m in rows) == s.stats().root_visits[0] >= n
            s.snapshot(0, 500, 1)
            moves = s.best_moves()
            g.step(moves)
            s.advance(moves)


@pytest.mark.parametrize("mode", ["wu_uct", "tree", "root", "leaf"])
def test_short_parallel_search_with_a_net(mode):
    """Each worker asks the (shared, read-only) net on its own evaluator:
    two threads' batches must not touch. A goofspiel-5 net at a depth its
    leaves are rarely terminal, over a re-root."""
    from pathlib import Path
    net = Path(__file__).resolve().parents[2] / "assets" / "nets" / "goofspiel5.sbxnet"
    p = SearchParams(parallel=mode, threads=2, max_depth=3, value_net=str(net),
                     rollout=mode == "leaf")
    with Game("goofspiel", "num_cards=5,points_order=descending,returns_type=win_loss",
              seed=2) as g, Search(g, p, 5) as s:
        for _ in range(2):
            assert s.run(iterations=1500).iterations == 1500
            moves = s.best_moves()
            g.step(moves)
            s.advance(moves)


@pytest.mark.parametrize("opts", [{}, {"rollout_steps": 3, "short_circuit": True},
                                  {"priors": "heuristic", "transpositions": False}],
                         ids=["plain", "rollout-shortcut", "priors-no-tt"])
@pytest.mark.parametrize("mode", ["wu_uct", "tree"])
def test_short_parallel_mcgs(mode, opts):
    """MCGS's shared graph: two threads linking edges, inserting into and
    looking up the sharded transposition table (the maze has transpositions),
    over an epoch's array growth and a re-root."""
    p = SearchParams(algorithm="mcgs", parallel=mode, threads=2, max_depth=12, **opts)
    n = 3000
    with Game("maze", {}, seed=2) as g, Search(g, p, 5) as s:
        for _ in range(2):
            r = s.run(iterations=n)
            assert r.iterations == n
            assert sum(m.visits for m in s.root_stats(0)) == s.stats().root_visits[0] >= n
            s.snapshot(0, 500, 1)
            moves = s.best_moves()
            g.step(moves)
            s.advance(moves)


@pytest.mark.parametrize("game", [("goofspiel", {"num_cards": 6, "points_order": "random"}),
                                  ("snakes", {"snakes": 2, "width": 7, "height": 7})],
                         ids=["goofspiel-random", "snakes"])
@pytest.mark.parametrize("mode", ["wu_uct", "tree"])
def test_short_parallel_mcgs_with_chance(mode, game):
    """Chance outcomes on the shared graph: two threads listing an edge's
    outcomes (the shard lock of the state, the list head's CAS) and reading
    them while the other adds and evaluates, with a small node_cap so that
    the epochs grow the outcome array and the run ends at the cap."""
    p = SearchParams(algorithm="mcgs", parallel=mode, threads=2, short_circuit=True,
                     rollout_steps=2, node_cap=4096)
    with Game(*game, seed=2) as g, Search(g, p, 5) as s:
        for _ in range(2):
            r = s.run(iterations=3000)
            assert r.iterations > 0
            assert sum(m.visits for m in s.root_stats(0)) == s.stats().root_visits[0]
            s.snapshot(0, 500, 1)
            moves = s.best_moves()
            g.step([m if m is not None else 0 for m in moves])
            s.advance(moves, new_root=g)

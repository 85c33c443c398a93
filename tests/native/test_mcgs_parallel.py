"""MCGS's tree parallelism (params parallel = wu_uct / tree, threads).

With one thread the parallel path (atomic counts, CLAIMed edges, the sharded
transposition table, epoch-grown arrays) must give exactly the serial graph
search: every in-flight count is 0 at selection, so each formula and RNG draw
is the serial one. With two threads nothing is bit-reproducible, so those
tests check what must hold whatever the interleaving, by walking the raw
graph (the debug hook): no visit is lost, every node's count is the sum of its
edges', and the transposition table made one node per state.
"""
from __future__ import annotations

import pytest

from pydantic import ValidationError

from sandbox.native import Game, InvalidArgument, Search, SearchParams, cores
from sandbox.native._lib import ffi, lib
from test_mcgs_chance import children
from test_parallel import _signature

MODES = ("wu_uct", "tree")
GAMES = [("maze", {}), ("goofspiel", {"num_cards": 6}),
         ("goofspiel", {"num_cards": 6, "points_order": "random"})]  # chance: edges with several children
GAME_IDS = ["maze", "goofspiel", "goofspiel-random"]
two_cores = pytest.mark.skipif(cores() < 2, reason="needs two cores")


def mcgs(**kw) -> SearchParams:
    return SearchParams(algorithm="mcgs", **kw)


def node(s: Search, i: int):
    d = ffi.new("sbx_mcgs_debug_node *")
    assert lib.sbx_search_debug_mcgs_node(s._h.get(), i, d) == 0
    return d


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("extra", [{}, {"transpositions": False},
                                   {"rollout_steps": 4, "short_circuit": True,
                                    "fpu_offset": 0.5},
                                   {"node_cap": 1024}],
                         ids=["plain", "no-tt", "rollout-shortcut", "node-cap"])
@pytest.mark.parametrize("mode", MODES)
def test_one_thread_is_the_serial_mcgs(game, extra, mode):
    base = mcgs(**extra)
    serial = _signature(game, base)
    # the budget ran (random-order goofspiel fills node_cap 1024 first: a
    # new node per playout, chance multiplying the states)
    assert serial and (serial[0][0] == 1500 or serial[0][2] == "node_cap")
    assert _signature(game, base.replace(parallel=mode, threads=1)) == serial


@pytest.mark.parametrize("mode", MODES)
def test_one_thread_is_the_serial_mcgs_with_heuristic_priors(mode):
    base = mcgs(priors="heuristic")
    serial = _signature(GAMES[0], base)
    assert _signature(GAMES[0], base.replace(parallel=mode, threads=1)) == serial


def _walk(s: Search):
    """Every node of the graph, with the invariants checked on the way
    (an edge's children: one per state it met)."""
    n = s.stats().nodes[0]
    nodes = [node(s, i) for i in range(n)]
    seen, stack = {0}, [0]
    while stack:
        i = stack.pop()
        d = nodes[i]
        assert d.flags & 1, "a reachable node that was never evaluated"
        assert d.visits == sum(d.edge_visits[e] for e in range(d.n1 * d.n2))
        for e in range(d.n1 * d.n2):
            outs = children(s, i, e)
            assert sum(v for _, v, _ in outs) == d.edge_visits[e], "a child's visit lost"
            if d.edge_visits[e]:
                assert outs and all(0 < c < n for c, _, _ in outs), "a visited edge without a child"
            for c, _, _ in outs:
                if c not in seen:
                    seen.add(c)
                    stack.append(c)
    return nodes, seen


@two_cores
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_two_threads_lose_no_visit(game, mode):
    """Every playout passes one root edge: the root's edges count exactly the
    budget (a plain `visits++` from two threads loses increments here), and
    every node's count is its edges' sum."""
    n = 40_000
    p = mcgs(parallel=mode, threads=2, virtual_loss=2.0)
    with Game(*game, seed=5) as g, Search(g, p, 11) as s:
        r = s.run(iterations=n)
        assert r.iterations == n and r.stop_reason == "iterations"
        root = node(s, 0)
        assert sum(root.edge_visits[e] for e in range(root.n1 * root.n2)) == n
        assert root.visits == n == s.stats().root_visits[0]
        for a in range(2):
            assert sum(m.visits for m in s.root_stats(a)) == n
        _walk(s)
        st = s.stats()
        assert st.run_threads == 2 and sum(st.thread_iterations) == n


@two_cores
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_two_threads_make_one_node_per_state(game, mode):
    """The transposition table after a two-thread search: every node is
    reachable, evaluated and holds a state no other node holds (a look-up
    racing an insert of the same state must end with one node), and the
    table was used on the maze (hits: edges linked to existing nodes)."""
    p = mcgs(parallel=mode, threads=2)
    with Game(*game, seed=5) as g, Search(g, p, 11) as s:
        for _ in range(2):  # the second run after a re-root
            s.run(iterations=30_000)
            nodes, seen = _walk(s)
            assert len(seen) == len(nodes)
            hashes = [d.hash for d in nodes]
            assert len(set(hashes)) == len(hashes)
            moves = s.best_moves()
            g.step(moves)
            s.advance(moves)
        if game[0] == "maze":  # goofspiel's states carry their history: no transpositions
            assert s.stats().transposition_hits > 0


@two_cores
@pytest.mark.parametrize("mode", MODES)
def test_two_threads_keep_the_time_budget_and_node_cap(mode):
    with Game(*GAMES[1], seed=5) as g, Search(g, mcgs(parallel=mode, threads=2), 3) as s:
        r = s.run(ms=30)
        assert r.stop_reason == "time" and r.iterations > 0
    p = mcgs(parallel=mode, threads=2, node_cap=1024)
    for game in GAMES[1:]:
        with Game(*game, seed=5) as g, Search(g, p, 3) as s:
            r = s.run(iterations=200_000)
            assert r.stop_reason == "node_cap" and 0 < r.iterations < 200_000
            assert s.stats().nodes[0] <= 1024
            _walk(s)


@pytest.mark.parametrize("mode", ["root", "leaf"])
def test_mcgs_refuses_root_and_leaf(mode):
    """The model refuses them (TOML, CLI); C refuses them too, at creation and
    on set_params (model_copy skips the model's validation), and the search
    goes on with its settings."""
    extra = {"rollout": True} if mode == "leaf" else {}
    with pytest.raises(ValidationError, match=f"mcgs runs serial, wu_uct or tree .*{mode}"):
        mcgs(parallel=mode, **extra)
    bad = mcgs(**extra).model_copy(update={"parallel": mode})
    with Game(*GAMES[0], seed=5) as g:
        with pytest.raises(InvalidArgument, match=f"mcgs runs serial, wu_uct or tree .*{mode}"):
            Search(g, bad, 1)
        with Search(g, mcgs(), 1) as s:
            with pytest.raises(InvalidArgument, match="mcgs runs serial, wu_uct or tree"):
                s.set_params(bad)
            assert s.run(iterations=50).iterations == 50  # still searching
    SearchParams(parallel=mode, **extra)  # smitsimax's modes: fine

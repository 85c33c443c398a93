"""Smitsimax's parallel modes (params threads / parallel / virtual_loss).

With one thread every mode runs its own parallel code path (shared-tree
atomics, the root-parallel worker, the leaf hand-off) and must give exactly
the serial search: the in-flight counts are 0 at every selection, so each
formula is the serial one and the RNG draws come in the same order. With two
threads nothing is bit-reproducible, so those tests check what must hold
whatever the interleaving: no visit is lost (the root's count is the
iteration budget), in-flight counts are gone after the run, the budget is
kept, and the tree still satisfies Smitsimax's invariants.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from pydantic import ValidationError

from sandbox.native import Game, InvalidArgument, Search, SearchParams, cores

MODES = ("wu_uct", "tree", "root", "leaf")
GAMES = [("snakes", {"snakes": 4, "width": 9, "height": 9}), ("goofspiel", {"num_cards": 6})]
two_cores = pytest.mark.skipif(cores() < 2, reason="needs two cores")


def _signature(game, params: SearchParams, iterations: int = 1500, turns: int = 3):
    """Per turn: what run returned, the moves, every root row, the tree (or
    graph) sizes and the transposition hits (MCGS's; 0 for trees); the search
    is advanced by its own moves between turns (tree reuse, re-rooting,
    compaction). test_mcgs_parallel.py uses it too."""
    out = []
    with Game(*game, seed=5) as g, Search(g, params, 11) as s:
        for _ in range(turns):
            if g.is_terminal:
                break
            r = s.run(iterations=iterations)
            moves = s.best_moves()
            out.append((r.iterations, r.sim_turns, r.stop_reason, moves,
                        [[(m.move, m.visits, m.mean) for m in s.root_stats(a)]
                         for a in range(g.num_agents)],
                        s.stats().nodes, s.stats().transposition_hits))
            g.step(moves)
            s.advance(moves)
    return out


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0])
@pytest.mark.parametrize("extra", [{}, {"rollout": True},
                                   {"bounds": "depth", "elimination": "freeze",
                                    "death_penalty": True, "random_threshold": 2}],
                         ids=["plain", "rollout", "depth-freeze-doom"])
@pytest.mark.parametrize("mode", MODES)
def test_one_thread_is_the_serial_search(game, extra, mode):
    base = SearchParams(**extra)
    if mode == "leaf" and not base.rollout:
        pytest.skip("leaf needs rollout")
    serial = _signature(game, base)
    assert serial and serial[0][0] == 1500
    assert _signature(game, base.replace(parallel=mode, threads=1)) == serial


def _root_rows(s: Search, agent: int) -> tuple[int, int]:
    rows = s.root_stats(agent)
    return sum(r.visits for r in rows), s.stats().root_visits[agent]


@two_cores
@pytest.mark.parametrize("mode", ("wu_uct", "tree", "root"))
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0])
def test_two_threads_lose_no_visit(game, mode):
    """Every iteration passes the root once in every tree: with shared trees
    (atomics) or merged root sets the root counts exactly the budget. A
    plain `visits++` from two threads loses increments here."""
    n = 40_000
    p = SearchParams(parallel=mode, threads=2, virtual_loss=2.0)
    with Game(*game, seed=5) as g, Search(g, p, 11) as s:
        r = s.run(iterations=n)
        assert r.iterations == n and r.stop_reason == "iterations"
        for a in range(g.num_agents):
            children, root = _root_rows(s, a)
            assert children == n and root == n
        # the trees are whole: a snapshot walks them, every child's visits
        # at most its parent's
        for a in range(g.num_agents):
            snap = s.snapshot(a, 3000, 1)
            parent_visits = snap.visits[snap.parent[1:]]
            assert (snap.visits[1:] <= parent_visits).all()
        # and the next turn searches on from the reused subtree
        moves = s.best_moves()
        g.step(moves)
        s.advance(moves)
        assert s.run(iterations=2000).iterations == 2000


@two_cores
def test_two_threads_wu_uct_leaves_no_in_flight_count():
    """O is kept in the bytes ucb1 leaves zero (the node's policy floats):
    after a run every node's O is back to 0, which the serial search run on
    the same trees sees (its UCB1 reads those bytes as nothing, but a
    policy switch would read them). The visible effect: a shared-tree run
    followed by a serial one on the same trees gives the same counts as the
    budget says."""
    with Game(*GAMES[0], seed=5) as g, Search(g, SearchParams(parallel="wu_uct", threads=2), 3) as s:
        s.run(iterations=20_000)
        s.update_params(parallel="serial", threads=1)
        s.run(iterations=5000)
        for a in range(g.num_agents):
            assert _root_rows(s, a) == (25_000, 25_000)


@two_cores
def test_two_threads_root_sets_are_merged_and_differ():
    """Root parallelism: each thread its own trees and seed; the root stats
    and the move come from the sum, and the second set really searched."""
    with Game(*GAMES[0], seed=5) as g:
        with Search(g, SearchParams(parallel="root", threads=2), 3) as s:
            s.run(iterations=10_000)
            merged = [[(m.move, m.visits) for m in s.root_stats(a)] for a in range(4)]
            assert all(sum(v for _, v in rows) == 10_000 for rows in merged)
            nodes_two = sum(s.stats().nodes)
        with Search(g, SearchParams(), 3) as s1:
            s1.run(iterations=10_000)
            nodes_one = sum(s1.stats().nodes)
        # two trees of ~5,000 iterations each hold more nodes than one of
        # 10,000 (the top of the tree is built twice)
        assert nodes_two > nodes_one


@two_cores
def test_two_threads_leaf_backs_up_every_rollout():
    """Leaf parallelism: one selection per iteration, a rollout per thread
    from the leaf; each rollout is a visit on the common path, so the root
    counts more visits than iterations (at most threads x)."""
    n = 5000
    p = SearchParams(parallel="leaf", threads=2, rollout=True)
    with Game(*GAMES[0], seed=5) as g, Search(g, p, 3) as s:
        r = s.run(iterations=n)
        assert r.iterations == n
        for a in range(g.num_agents):
            children, root = _root_rows(s, a)
            assert children == root
            assert n < root <= 2 * n


@two_cores
@pytest.mark.parametrize("mode", MODES)
def test_two_threads_keep_the_time_budget_and_stop(mode):
    p = SearchParams(parallel=mode, threads=2, rollout=True)
    with Game(*GAMES[0], seed=5) as g, Search(g, p, 3) as s:
        r = s.run(ms=30)
        assert r.stop_reason == "time"
        if r.iterations == 0:
            # a loaded machine (or a sanitizer build) can spend all 30 ms
            # starting the threads: a longer budget must then do work
            r = s.run(ms=300)
            assert r.stop_reason == "time"
        assert r.iterations > 0


def test_node_cap_stops_a_shared_run_cleanly():
    p = SearchParams(parallel="tree", threads=min(2, cores()), node_cap=1024, max_depth=8)
    with Game(*GAMES[0], seed=5) as g, Search(g, p, 3) as s:
        r = s.run(iterations=100_000)
        assert r.stop_reason == "node_cap"
        assert max(s.stats().nodes) <= 1024


@pytest.mark.parametrize("bad, words", [
    ({"parallel": "leaf"}, "needs rollout"),
    ({"parallel": "tree", "policy": "exp3"}, "policy ucb1"),
    ({"parallel": "wu_uct", "policy": "ucb1_tuned"}, "policy ucb1"),
    ({"parallel": "root", "policy": "rm"}, "ucb1 or ucb1_tuned"),
    ({"parallel": "tree", "backup": "power"}, "backup mean"),
    ({"threads": 0}, "threads"), ({"threads": 65}, "threads"),
    ({"parallel": "fast"}, "parallel"), ({"virtual_loss": -1}, "virtual_loss"),
])
def test_bad_parallel_params_are_refused_by_the_model(bad, words):
    with pytest.raises(ValidationError, match=words):
        SearchParams(**bad)


def test_c_refuses_the_same_and_more_threads_than_cores():
    with Game(*GAMES[0], seed=5) as g, Search(g, None, 1) as s:
        too_many = SearchParams(threads=min(64, cores() + 1))
        if cores() < 64:
            with pytest.raises(InvalidArgument, match="threads: .* cores"):
                s.set_params(too_many)
        # what the model refuses, C refuses too (the raw struct bypasses pydantic)
        raw = SearchParams().to_c()
        raw.parallel = 4          # leaf
        raw.rollout = 0
        from sandbox.native._lib import lib
        assert lib.sbx_search_params_validate(raw) != 0
        raw.rollout = 1
        assert lib.sbx_search_params_validate(raw) == 0
        raw.parallel = 2          # tree
        raw.policy = 2            # exp3
        assert lib.sbx_search_params_validate(raw) != 0


def test_the_run_meters_count_each_threads_iterations():
    """stats(): the last run's threads, each one's iterations (they add up
    to the run's) and the share of time waiting; a serial run says 0."""
    n = min(2, cores())
    with Game(*GAMES[0], seed=5) as g, \
            Search(g, SearchParams(parallel="wu_uct", threads=n), 3) as s:
        r = s.run(iterations=6000)
        st = s.stats()
        assert st.run_threads == n and len(st.thread_iterations) == n
        assert sum(st.thread_iterations) == r.iterations == 6000
        assert 0.0 <= st.wait_share <= 1.0
        s.update_params(parallel="serial", threads=1)
        s.run(iterations=10)
        st = s.stats()
        assert (st.run_threads, st.thread_iterations, st.wait_share) == (0, (), 0.0)


def test_the_arenas_mode_list_is_cs_rule():
    """parallel_modes (what the arena offers) against C's own checks, for
    Smitsimax and MCGS with every policy and backup and every mode: a mode
    is listed exactly when C accepts it, through the raw struct (bypassing
    the model) into a real goofspiel search (mcgs_check's rule included).
    Leaf is judged with rollouts on (the arena leaves that need to C's
    refusal, which names the fix)."""
    from sandbox.native._lib import lib
    from sandbox.native.params import PARALLEL, POLICY as POLICIES
    from sandbox.settings.algorithms import PARALLEL_LABELS, parallel_modes
    assert set(PARALLEL_LABELS) == set(PARALLEL)
    seen = set()
    with Game("goofspiel", None, seed=1) as g, Search(g, None, 1) as s:
        for algorithm in ("smitsimax", "mcgs"):
            for policy in POLICIES:
                for backup in ("mean", "power"):
                    if backup == "power" and policy != "ucb1":
                        continue  # refused whatever the mode (power is UCB1's)
                    settings = SearchParams(algorithm=algorithm, policy=policy, backup=backup,
                                            threads=min(2, cores()))
                    listed = parallel_modes(settings)
                    for mode, k in PARALLEL.items():
                        raw = settings.replace(rollout=True).to_c()
                        raw.parallel = k
                        accepted = lib.sbx_search_check_params(s._h.get(), raw) == 0
                        assert accepted == (mode in listed), (algorithm, policy, backup, mode)
                    seen.add((algorithm, listed))
    # what the arena shows: Smitsimax's five, root only, serial only; MCGS's three
    assert {m for a, m in seen if a == "smitsimax"} == {
        ("serial", "wu_uct", "tree", "root", "leaf"), ("serial", "root"), ("serial",)}
    assert {m for a, m in seen if a == "mcgs"} == {("serial", "wu_uct", "tree")}


def test_line_transfer_is_measured_and_bad_counts_are_refused():
    """sbx_line_transfer_ns (bench --parallel's cache-line latency): a
    positive figure on two cores; every bad count refused by the wrapper and
    by C itself (the raw call bypasses the wrapper)."""
    from sandbox.native import InvalidArgument, InvalidState, line_transfer_ns
    from sandbox.native._lib import ffi, lib
    for bad in (0, -5, 100_000_001, 2.5, "100", True, None):
        with pytest.raises(InvalidArgument, match="round_trips"):
            line_transfer_ns(bad)
    out = ffi.new("double *")
    assert lib.sbx_line_transfer_ns(0, out) == -1
    assert lib.sbx_line_transfer_ns(10, ffi.NULL) == -1
    if usable_cpus() >= 2:
        assert line_transfer_ns(np.int64(1)) > 0.0    # numpy integers are ints too
        # a positive figure; its size is the machine's and its load's (a
        # busy second core makes a move wait for a time slice: milliseconds,
        # so a few round trips: 2,000 took over C's 10 s on a machine loaded
        # tenfold, and the figure's size is the bench's business)
        ns = line_transfer_ns(20)
        assert math.isfinite(ns) and ns > 0.0
    else:   # one CPU to run on (taskset): C refuses rather than spin
        with pytest.raises(InvalidState, match="two cores"):
            line_transfer_ns(2_000)


def usable_cpus() -> int:
    """The CPUs this process may run on (C's own test), not the machine's."""
    import os
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores()


@pytest.mark.parametrize("threads", (1, pytest.param(2, marks=two_cores)))
def test_a_reset_root_parallel_search_is_a_new_one(threads):
    """After a reset a root-parallel search holds what a new search holds: one
    root per agent, nothing visited (the helper threads' tree sets included;
    cleared instead of dropped, each kept a root and the counts were 2).
    One thread makes no extra set; two threads make one even if the helper
    gets no iteration in."""
    with Game("snakes", {"width": 7, "height": 7, "snakes": 2}, seed=2) as g:
        params = SearchParams(parallel="root", threads=threads)
        with Search(g, params, 4) as s:
            fresh = s.stats()
            s.run(iterations=50)
            s.reset(g)
            after = s.stats()
            assert list(after.nodes) == list(fresh.nodes) == [1, 1]
            assert list(after.root_visits) == [0, 0]
            s.run(iterations=50)  # the sets are made again and searched
            assert sum(r.visits for r in s.root_stats(0)) == 50

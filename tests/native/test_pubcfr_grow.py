"""pubcfr's growing mode (grow_tree = true: GT-CFR over public states),
against independent oracles.

  * the whole tree: given enough expansion simulations the grown tree holds
    one history per decision state of the game tree that imperfect.py
    enumerates from the start (its own code, no pubcfr), the same number the
    breadth-first build makes, every one of them expanded;
  * a small budget grows a partial tree, one whole public node per
    simulation: every history at a public node is expanded or none is, and
    the count of expanded public nodes is the root's plus one per
    simulation (no simulation can end at a terminal that early);
  * node_cap: the run stops at the cap with the tree inside it;
  * the exact NashConv over information states (imperfect.py's best
    response, independent of pubcfr.c) falls with expansions, re-solving
    from the uniform range and with the gadget along each seat's history;
  * determinism: same seed, same tree and moves; other seeds grow another
    order.

  * the simulation: root histories drawn by the root ranges (derived by hand
    in test_pubcfr.py), and the first simulation's move half the PUCT argmax,
    half a draw from the (then uniform) average strategy.

Mutations of pubcfr.c these tests were run against (edited, rebuilt, this
file run; the tests that failed):
  only the simulation's history expanded, not      grows_to_the_whole_tree (3, 4),
  its whole public node                            grows_by_whole_public_nodes
                                                   (1, 2, 3), node_cap_stops_the_growth,
                                                   nashconv_falls..._with_the_gadget
  PUCT alone (the average strategy's half gone)    grows_to_the_whole_tree,
                                                   other_seeds_grow_other_orders,
                                                   first_simulation_mixes
  the average strategy alone (PUCT's half gone)    grows_to_the_whole_tree (3, 4),
                                                   first_simulation_mixes
  the root history always the first one (no draw   root_histories_drawn_by_the_ranges
  by the ranges)
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from sandbox.analysis.imperfect import build_info_tree
from sandbox.native import Search, SearchParams
from sandbox.native._lib import ffi, lib

from pubcfr_oracle import P, exact_nashconv, imp_game



def grow(n: int = 10, **kw) -> SearchParams:
    return SearchParams(algorithm="pubcfr", max_depth=n, grow_tree=True, **kw)


def hists(s: Search) -> dict[str, np.ndarray]:
    """Every history of the search's tree: public node, expanded, depth,
    parent history, simulations through it (sbx_search_debug_pubcfr_hists)."""
    cap = 1 << 16
    bufs = {k: ffi.new(f"int32_t[{cap}]")
            for k in ("node", "interior", "depth", "parent", "sims")}
    n = ffi.new("int *")
    assert lib.sbx_search_debug_pubcfr_hists(s._h.get(), bufs["node"], bufs["interior"],
                                             bufs["depth"], bufs["parent"], bufs["sims"],
                                             cap, n) == 0
    assert n[0] <= cap
    return {k: np.frombuffer(ffi.buffer(b, 4 * n[0]), dtype=np.int32).copy()
            for k, b in bufs.items()}


def by_node(h: dict[str, np.ndarray]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = defaultdict(list)
    for i, nd in enumerate(h["node"]):
        out[int(nd)].append(int(h["interior"][i]))
    return out


def decision_states(n: int) -> int:
    """The game tree's decision states from the start (imperfect.py): with
    no chance, one per joint bid history, so one per pubcfr history."""
    return len(build_info_tree(imp_game(n), P.info_key).nodes)


@pytest.mark.parametrize("n", [3, 4])
def test_grows_to_the_whole_tree(n):
    full = decision_states(n)
    assert full == {3: 46, 4: 737}[n]   # 1 + 9 + 36 and 1 + 16 + 144 + 576
    with Search(imp_game(n), SearchParams(algorithm="pubcfr", max_depth=10), seed=1) as s:
        assert s.stats().nodes[0] == full           # the breadth-first build
    with Search(imp_game(n), grow(), seed=1) as s:
        start = s.stats().nodes[0]
        assert start == 1 + n * n                   # the root and its children
        r = s.run(iterations=2000)
        assert r.stop_reason == "iterations"
        h = hists(s)
        assert len(h["node"]) == s.stats().nodes[0] == full
        assert h["interior"].all()                  # every history expanded
        assert s.stats().max_depth_reached[0] == n


@pytest.mark.parametrize("sims", [1, 2, 3])
def test_partial_tree_grows_by_whole_public_nodes(sims):
    # Goofspiel-4: the root public node starts expanded; each simulation
    # expands one more public node. No terminal can be met before a node of
    # depth 3 is expanded, so after 1-3 simulations exactly 1 + sims public
    # nodes are expanded and the tree is partial.
    with Search(imp_game(4), grow(), seed=5) as s:
        s.run(iterations=sims)
        h = hists(s)
    assert 1 + 16 < len(h["node"]) < decision_states(4)
    nodes = by_node(h)
    expanded = [nd for nd, kinds in nodes.items() if all(kinds)]
    mixed = [nd for nd, kinds in nodes.items() if any(kinds) and not all(kinds)]
    assert mixed == []                              # whole public nodes only
    assert len(expanded) == 1 + sims
    # every history but the root's has an expanded parent, one round above
    for i in range(len(h["node"])):
        p = h["parent"][i]
        if h["depth"][i] == 0:
            assert p == -1
        else:
            assert h["interior"][p] and h["depth"][p] == h["depth"][i] - 1


def test_expansions_per_update_credits_cfr_iterations():
    # c = 2.5: one CFR+ iteration every 2 or 3 simulations (credited as
    # gtcfr does): 10 simulations -> 4 CFR+ iterations; c = 0.5: 2 per
    # simulation. root_visits counts CFR+ iterations.
    for c, sims, cfr in ((2.5, 10, 4), (0.5, 10, 20), (1.0, 7, 7)):
        with Search(imp_game(4), grow(expansions_per_update=c), seed=3) as s:
            s.run(iterations=sims)
            assert s.stats().root_visits[0] == cfr


def test_max_depth_bounds_the_growth():
    # max_depth = 2 rounds: nodes of depth 2 stay frontier (valued by the
    # evaluation); the tree stops at the breadth-first build's two levels.
    with Search(imp_game(4), SearchParams(algorithm="pubcfr", max_depth=2), seed=1) as s:
        levels = s.stats().nodes[0]
    with Search(imp_game(4), grow(2), seed=1) as s:
        s.run(iterations=500)
        h = hists(s)
    assert len(h["node"]) == levels == 1 + 16 + 144
    assert not h["interior"][h["depth"] == 2].any()


def test_node_cap_stops_the_growth():
    # Goofspiel-5's tree holds 18,426 histories; the cap, 1,024, stops the
    # growth at the first expansion that might not fit.
    with Search(imp_game(5), grow(node_cap=1024), seed=2) as s:
        r = s.run(iterations=1000)
        h = hists(s)
    assert r.stop_reason == "node_cap" and r.iterations < 1000
    assert 500 < len(h["node"]) <= 1024
    assert all(all(k) or not any(k) for k in by_node(h).values())


def test_same_seed_same_tree_and_moves():
    g = imp_game(4)
    g.step([3, 1])
    out = []
    for _ in range(2):
        with Search(g, grow(info_seat=1), seed=7) as s:
            s.run(iterations=12)
            h = hists(s)
            out.append((s.best_moves()[1], [st.policy for st in s.root_stats(1)],
                        h["node"].tolist(), h["parent"].tolist()))
    assert out[0] == out[1]


def test_other_seeds_grow_other_orders():
    # Five simulations from the start of goofspiel-4: which public nodes are
    # expanded, in which order, depends on the seed's draws.
    def order(seed):
        with Search(imp_game(4), grow(), seed=seed) as s:
            s.run(iterations=5)
            h = hists(s)
        return tuple(h["node"].tolist()), tuple(h["parent"].tolist())

    assert order(1) == order(1)
    assert len({order(seed) for seed in range(1, 7)}) > 1


def nashconv(n: int, iterations: int, reuse: bool) -> float:
    return exact_nashconv(n, grow(n, tree_reuse=reuse), iterations)


def test_nashconv_falls_with_expansions_from_the_uniform_range():
    # Goofspiel-3: a search per information set, re-solving from the
    # uniform-play range, judged exactly.
    ncs = [nashconv(3, it, reuse=False) for it in (3, 30, 300)]
    assert ncs[0] > ncs[1] > ncs[2]
    assert ncs[2] < 0.01


def test_nashconv_falls_with_expansions_with_the_gadget():
    # Goofspiel-4, continual re-solving with the gadget over the grown
    # tree, judged along each seat's history.
    ncs = [nashconv(4, it, reuse=True) for it in (10, 100, 300)]
    assert ncs[0] > ncs[1] > ncs[2]
    assert ncs[2] < 0.005


def test_plays_a_game_through_advances_with_the_gadget():
    # Each turn re-solves from the grown tree's summary; every move legal,
    # the carried ranges are ranges (non-negative, not all zero).
    g = imp_game(4)
    with Search(g, grow(info_seat=0), seed=2) as s:
        while not g.is_terminal:
            s.run(iterations=30)
            mine = s.best_moves()[0]
            assert mine in g.legal_moves(0)
            joint = [mine, g.legal_moves(1)[-1]]
            g.step(joint)
            s.advance(joint, g)
            if not g.is_terminal:
                for seat in (0, 1):
                    w = [p for _, p in s.ranges(seat)]
                    assert min(w) >= 0 and sum(w) > 0


def test_switching_modes_rebuilds():
    # A change of grow_tree reaches the search at its next run and rebuilds
    # the tree in the new mode.
    with Search(imp_game(4), grow(), seed=1) as s:
        assert s.stats().nodes[0] == 17
        s.update_params(grow_tree=False)
        s.run(iterations=1)
        assert s.stats().nodes[0] == 737
        s.update_params(grow_tree=True)
        s.run(iterations=1)
        assert 17 < s.stats().nodes[0] < 737


def test_simulations_start_from_root_histories_drawn_by_the_ranges():
    # Seat 0 won the first two rounds bidding 4 then 3: seat 1 holds {3, 4}
    # with probability 1/2, {2, 4} and {1, 4} with 1/4 each (the root range
    # test_pubcfr.py derives by hand). Seat 0's own range is its one hand, so
    # the root's three histories are drawn 1/2, 1/4, 1/4: over 2,000
    # simulations (binomial sd about 22 and 19) the counts come close.
    g = imp_game(4)
    g.step([3, 0])
    g.step([2, 1])
    with Search(g, grow(info_seat=0), seed=4) as s:
        s.run(iterations=2000)
        h = hists(s)
        theirs = dict(s.ranges(1))
        order = [i for i, _ in s.ranges(1)]
    assert theirs == pytest.approx({0b1100: 0.5, 0b1010: 0.25, 0b1001: 0.25})
    roots = np.flatnonzero(h["depth"] == 0)
    assert len(roots) == 3
    got = {order[j]: int(h["sims"][r]) for j, r in enumerate(roots)}
    assert sum(got.values()) == 2000
    for hand, p in theirs.items():
        assert abs(got[hand] - 2000 * p) < 100, got


def test_the_first_simulation_mixes_puct_and_the_average_strategy():
    # By hand: after the first CFR+ iteration the root's average strategy is
    # uniform (regrets start at 0) and, with c_puct = 0, PUCT picks the move
    # of the highest Q (root_stats' mean: the move's value against the
    # opponent's uniform strategy and range). Half PUCT, half average: the
    # first simulation takes that move with probability 1/2 + 1/8 = 0.625
    # and each other with 1/8 (4 cards). PUCT alone would give 1, the
    # average alone 0.25. Over 400 seeds (binomial sd 0.024):
    best = other = 0
    for seed in range(400):
        with Search(imp_game(4), grow(c_puct=0.0), seed=seed) as s:
            s.run(iterations=1)
            rows = s.root_stats(0)
        assert sum(r.visits for r in rows) == 1
        top = max(rows, key=lambda r: r.mean)
        assert sum(r.mean == top.mean for r in rows) == 1
        best += top.visits
        other += sum(r.visits for r in rows if r is not top)
    assert best + other == 400
    assert 0.55 < best / 400 < 0.70

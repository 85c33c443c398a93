"""MCGS (native/src/search/mcgs.c): the graph's invariants and formulas,
each checked against an independent oracle (a Python recomputation from the
raw node data, hand-solved games, counting), not against a twin."""
from __future__ import annotations

import pytest

from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.native._lib import ffi, lib

SHARED = 32  # SBX_NODE_SHARED


def mcgs(**kw) -> SearchParams:
    return SearchParams(algorithm="mcgs", node_cap=1 << 16, **kw)


def node(s: Search, i: int):
    d = ffi.new("sbx_mcgs_debug_node *")
    assert lib.sbx_search_debug_mcgs_node(s._h.get(), i, d) == 0
    return d


def edges(d):
    return [(e // d.n2, e % d.n2, d.edge_visits[e], d.edge_child[e], tuple(d.edge_r[e]))
            for e in range(d.n1 * d.n2)]


def all_nodes(s: Search):
    return [node(s, i) for i in range(s.stats().nodes[0])]


def q_formula(s: Search, d) -> tuple[float, float]:
    """The formalisation's recompute_Q, written out again in Python."""
    total = 0
    acc = [0.0, 0.0]
    for _, _, v, c, r in edges(d):
        if v:
            ch = node(s, c)
            total += v
            for p in range(2):
                acc[p] += v * (r[p] + ch.q[p])
    return tuple((d.u[p] + acc[p]) / (1 + total) for p in range(2))


def test_root_q_is_the_formula_and_recomputing_twice_changes_nothing():
    g = Game("goofspiel", "num_cards=5 returns_type=total_points", seed=1)
    with Search(g, mcgs(rollout_steps=2), seed=7) as s:
        s.run(iterations=700)
        r = node(s, 0)
        # after a playout the root was recomputed last: Q is the formula
        assert tuple(r.q) == pytest.approx(q_formula(s, r), rel=1e-12, abs=1e-12)
        assert abs(r.q[0]) > 1e-6  # a real value, not the trivial 0
        for i in range(0, s.stats().nodes[0], 7):
            lib.sbx_search_debug_mcgs_recompute(s._h.get(), i)
            once = tuple(node(s, i).q)
            assert once == pytest.approx(q_formula(s, node(s, i)), abs=1e-12)
            lib.sbx_search_debug_mcgs_recompute(s._h.get(), i)
            assert tuple(node(s, i).q) == once


def test_edge_visits_add_up_to_node_visits_and_root_counts_iterations():
    g = Game("goofspiel", "num_cards=5", seed=2)
    with Search(g, mcgs(), seed=1) as s:
        s.run(iterations=500)
        for d in all_nodes(s):
            assert sum(v for _, _, v, _, _ in edges(d)) == d.visits
        assert node(s, 0).visits == 500
        assert sum(m.visits for m in s.root_stats(0)) == 500
        assert s.stats().root_visits[0] == 500


def test_two_move_orders_reach_one_node_and_the_table_saves_nodes():
    # RPS repeated 3 times: the export holds the counts of each joint action
    # and the last one, so (a, b, c) and (b, a, c) are the same state
    g = Game("matrix", "preset=rps repeats=3", seed=1)
    with Search(g, mcgs(), seed=3) as s:
        s.run(iterations=3000)
        nodes = all_nodes(s)
        parents: dict[int, set[int]] = {}
        for i, d in enumerate(nodes):
            for _, _, _, c, _ in edges(d):
                if c:
                    parents.setdefault(c, set()).add(i)
        shared = [c for c, ps in parents.items() if len(ps) > 1]
        assert shared
        # a shared node has one hash: the table found it, not a new node
        hashes = [d.hash for d in nodes]
        assert len(set(hashes)) == len(hashes)
        assert node(s, 0).hits > 0
        snap = s.snapshot(0, max_nodes=10_000)
        ids = list(snap.rows["node"])
        assert len(ids) == len(set(ids))          # each node once
        flagged = {int(n) for n, f in zip(ids, snap.flags) if f & SHARED}
        assert flagged and flagged <= set(shared)
        with_table = s.stats().nodes[0]
    with Search(g, mcgs(transpositions=False), seed=3) as t:
        t.run(iterations=3000)
        assert t.stats().nodes[0] > with_table
        assert not any(f & SHARED for f in t.snapshot(0, max_nodes=10_000).flags)


def test_move_equals_the_pure_saddle_of_a_matrix_game():
    # row payoffs [[3, 1], [2, 0]], zero-sum: row 0 dominates row 1 and
    # column 1 (row gets 1 or 0) dominates column 0: the saddle is (0, 1)
    g = Game("matrix", "rows=2 cols=2 a0=3/1 a1=2/0", seed=1)
    with Search(g, mcgs(c_puct=1.0), seed=5) as s:
        s.run(iterations=400)
        assert s.best_moves() == [0, 1]
        # the marginal values are the true payoffs against the opponent's play
        st = {m.move: m for m in s.root_stats(0)}
        assert st[0].visits > st[1].visits


@pytest.mark.parametrize("params", ["num_cards=3 returns_type=point_difference",
                                    "num_cards=4 returns_type=point_difference",
                                    "num_cards=3 returns_type=point_difference points_order=ascending"])
def test_goofspiel_first_move_is_the_exhaustive_solution(params):
    # oracle: backward induction with an LP at every simultaneous node over
    # the whole game (sandbox/analysis/tree.py); these roots have a pure
    # equilibrium (bid the top card for the top prize, the 1 for the 1)
    from sandbox.analysis.tree import build_tree, solve_equilibrium
    g = Game("goofspiel", params, seed=1)
    t = build_tree(g)
    row, col = solve_equilibrium(t).strategies[t.root[0][1]]
    moves = t.nodes[t.root[0][1]].moves
    want = [moves[0][int(row.argmax())], moves[1][int(col.argmax())]]
    assert max(row) == max(col) == pytest.approx(1.0)
    with Search(g, mcgs(c_puct=2.0), seed=2) as s:
        s.run(iterations=4000)
        assert s.best_moves() == want


def test_deterministic_under_a_seed():
    g = Game("goofspiel", "num_cards=6", seed=4)
    runs = []
    for _ in range(2):
        with Search(g, mcgs(rollout_steps=3), seed=11) as s:
            s.run(iterations=800)
            runs.append((s.best_moves(), s.root_stats(0), s.root_stats(1), s.stats().nodes[0]))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("field,value", [("c_puct", -1.0), ("fpu_offset", 1e9),
                                         ("rollout_steps", -1), ("temperature", 0.0)])
def test_bad_params_refused(field, value):
    g = Game("matrix", "preset=rps", seed=1)
    with pytest.raises(InvalidArgument, match=field):
        Search(g, {"algorithm": "mcgs", field: value})
    p = ffi.new("sbx_search_params *")
    lib.sbx_search_params_default(p)
    setattr(p, field, value)
    assert lib.sbx_search_params_validate(p) != 0
    assert field in ffi.string(lib.sbx_last_error()).decode()


def test_refuses_games_without_two_players():
    g = Game("goofspiel", "num_cards=4 players=3", seed=1)
    with pytest.raises(InvalidArgument, match="two-player"):
        Search(g, mcgs())


@pytest.mark.parametrize("kind,params", [
    ("goofspiel", "num_cards=5"), ("goofspiel", "num_cards=5 points_order=random"),
    ("matrix", "preset=biased_rps repeats=4"),
    ("snakes", "snakes=2 width=7 height=7")])
@pytest.mark.parametrize("reuse", [True, False])
def test_plays_legal_moves_to_the_end_with_reuse(kind, params, reuse):
    g = Game(kind, params, seed=3)
    with Search(g, mcgs(tree_reuse=reuse, short_circuit=True, rollout_steps=2), seed=9) as s:
        turns = 0
        while not g.is_terminal and turns < 60:
            s.run(iterations=300)
            moves = s.best_moves()
            for a in range(2):
                legal = g.legal_moves(a)
                assert (moves[a] in legal) if legal else moves[a] is None
            for d in all_nodes(s):  # compaction keeps every edge count
                assert sum(v for _, _, v, _, _ in edges(d)) == d.visits
            g.step([m if m is not None else 0 for m in moves])
            s.advance(moves, new_root=g)
            turns += 1
            if reuse and not g.is_terminal and "random" not in params and kind != "snakes":
                # no chance: the reached node was in the graph and was kept
                assert node(s, 0).flags & 1
        assert g.is_terminal or turns == 60


def test_trace_fills_path_and_both_agents_moves():
    g = Game("goofspiel", "num_cards=4", seed=1)
    with Search(g, mcgs(), seed=1) as s:
        s.run(iterations=50)
        t = s.step_traced()
        assert t.paths[0][0] == 0 and len(t.paths[0]) == t.depth + 1
        assert t.paths[1] == ()
        for d in range(t.depth):
            r = node(s, t.paths[0][d])
            e = [x for x in edges(r) if x[3] == t.paths[0][d + 1]]
            assert e  # each step follows an edge of the graph
            i, j = e[0][0], e[0][1]
            assert (t.moves[0][d], t.moves[1][d]) == (r.act[0][i], r.act[1][j])


def test_sampling_with_temperature_follows_the_visits():
    g = Game("matrix", "preset=rps", seed=1)
    picks = set()
    for seed in range(12):
        with Search(g, mcgs(final_move="sample", temperature=1.0), seed=seed) as s:
            s.run(iterations=300)
            picks.add(s.best_moves()[0])
            # asking again gives the same draw
            assert s.best_moves() == s.best_moves()
    assert len(picks) > 1  # RPS's visits are spread: a draw varies

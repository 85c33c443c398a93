"""What MCGS shows a person (sbx.h: root matrix, transposition hits,
snapshot links), each recomputed from the graph's raw node data
(test-only sbx_search_debug_mcgs_node) rather than trusted."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.native import Game, InvalidArgument, InvalidState, Search, SearchParams

from test_mcgs import all_nodes, edges, mcgs, node


def test_root_matrix_is_the_roots_edges():
    g = Game("maze", "size=tiny maze_seed=3", seed=1)
    with Search(g, mcgs(fpu_offset=0.3), seed=2) as s:
        s.run(iterations=2000)
        m = s.root_matrix()
        r = node(s, 0)
        assert m.shape == (r.n1, r.n2) and m.shape[0] > 1 and m.shape[1] > 1
        assert m.root_visits == r.visits == int(m.visits.sum()) == 2000
        for i, j, v, c, rew in edges(r):
            assert m.visits[i, j] == v
            for p in range(2):
                if v:
                    want = r.base[p] + rew[p] + node(s, c).q[p]
                    assert m.values[p, i, j] == pytest.approx(want, rel=1e-6)
                else:
                    assert math.isnan(m.values[p, i, j])
        for p in range(2):
            assert m.moves[p] == tuple(r.act[p][i] for i in range(m.shape[p]))
            assert m.root_values[p] == pytest.approx(r.base[p] + r.q[p])
            axis_visits = m.visits.sum(axis=1 - p)
            assert list(m.marginal_visits[p]) == list(axis_visits)
            # Option D, written out: each row's visited cells weighted by
            # their visits; an unvisited row gets FPU = Q(root) - offset
            vals = m.values[p] if p == 0 else m.values[p].T
            cells = m.visits if p == 0 else m.visits.T
            for i in range(m.shape[p]):
                if axis_visits[i]:
                    seen = cells[i] > 0
                    want = float((cells[i][seen] * vals[i][seen]).sum() / cells[i].sum())
                else:
                    want = r.base[p] + r.q[p] - 0.3
                assert m.marginal_values[p][i] == pytest.approx(want, rel=1e-5)
            np.testing.assert_allclose(m.priors[p], 1.0 / m.shape[p])
            # the view's marginal policy is what root stats report
            stats = {st.move: st for st in s.root_stats(p)}
            pol = m.policies()[p]
            for i, mv in enumerate(m.moves[p]):
                assert stats[mv].visits == m.marginal_visits[p][i]
                assert stats[mv].policy == pytest.approx(pol[i])


def test_root_matrix_before_any_iteration_is_empty_and_other_searches_refuse():
    g = Game("matrix", "preset=rps", seed=1)
    with Search(g, mcgs(), seed=1) as s:
        m = s.root_matrix()
        assert m.shape == (0, 0) and m.root_visits == 0
    with Search(g, SearchParams(algorithm="smitsimax"), seed=1) as s:
        s.run(iterations=10)
        with pytest.raises(InvalidState, match="no joint-action matrix"):
            s.root_matrix()
    with Search(Game("snakes", "snakes=3", seed=1),
                SearchParams(algorithm="joint", max_depth=2), seed=1) as s:
        s.run(iterations=10)
        with pytest.raises(InvalidState, match="3 agents"):
            s.root_matrix()


def test_joint_root_matrix_is_its_children_in_mixed_radix_order():
    # biased RPS: row 0 beats row 2 by 3 ... the payoff of each cell is the
    # table's, so a cell's mean is exactly that payoff (one-shot game)
    g = Game("matrix", "preset=biased_rps", seed=1)
    with Search(g, SearchParams(algorithm="joint"), seed=4) as s:
        s.run(iterations=3000)
        m = s.root_matrix()
        assert m.shape == (3, 3) and m.root_visits == 3000 == m.visits.sum()
        table = Game("matrix", "preset=biased_rps", seed=1)
        for i in range(3):
            for j in range(3):
                t = table.clone()
                t.step([i, j])
                want = t.evaluate()
                if m.visits[i, j]:
                    assert m.values[0, i, j] == pytest.approx(want[0])
                    assert m.values[1, i, j] == pytest.approx(want[1])
        for p in range(2):
            stats = {st.move: st.visits for st in s.root_stats(p)}
            assert [stats[mv] for mv in m.moves[p]] == list(m.marginal_visits[p])


def test_transposition_hits_count_the_edges_that_found_a_node():
    # every node but the root was made through one edge; any other linked
    # edge found its child in the table
    g = Game("matrix", "preset=rps repeats=3", seed=1)
    with Search(g, mcgs(), seed=3) as s:
        s.run(iterations=3000)
        nodes = all_nodes(s)
        linked = sum(1 for d in nodes for _, _, _, c, _ in edges(d) if c)
        hits = s.stats().transposition_hits
        assert hits == linked - (len(nodes) - 1) > 0
        assert hits == nodes[0].hits
    with Search(g, mcgs(transpositions=False), seed=3) as s:
        s.run(iterations=3000)
        assert s.stats().transposition_hits == 0
    with Search(g, SearchParams(algorithm="smitsimax"), seed=3) as s:
        s.run(iterations=300)
        assert s.stats().transposition_hits == 0


def _all_links(s: Search, snap) -> set[tuple[int, int]]:
    """Every (parent row, child row) of a visited edge between two rows."""
    row = {int(n): r for r, n in enumerate(snap.node)}
    out = set()
    for r, n in enumerate(snap.node):
        for _, _, v, c, _ in edges(node(s, int(n))):
            if v and c in row:
                out.add((r, row[c]))
    return out


def test_snapshot_links_are_the_graphs_other_parents():
    g = Game("matrix", "preset=rps repeats=3", seed=1)
    with Search(g, mcgs(), seed=3) as s:
        s.run(iterations=3000)
        for cap in (10_000, 20):
            snap = s.snapshot(0, max_nodes=cap)
            everything = _all_links(s, snap)
            tree = {(int(snap.parent[r]), r) for r in range(1, len(snap))}
            assert tree <= everything
            got = {tuple(map(int, p)) for p in snap.links}
            assert len(got) == len(snap.links)          # each pair once
            assert got == everything - tree
        snap = s.snapshot(0, max_nodes=10_000)
        assert len(snap.links) > 0
        shared = {int(c) for _, c in snap.links}
        # a row with another parent is flagged shared, and parents_of lists
        # its snapshot parent first
        for c in shared:
            assert snap.flags[c] & 32
            ps = snap.parents_of(c)
            assert ps[0] == snap.parent[c] and len(ps) == len(set(ps)) >= 2
    with Search(g, mcgs(transpositions=False), seed=3) as s:
        s.run(iterations=3000)
        assert len(s.snapshot(0, max_nodes=10_000).links) == 0
    with Search(g, SearchParams(algorithm="suct"), seed=3) as s:
        s.run(iterations=300)
        assert len(s.snapshot(0, max_nodes=1000).links) == 0


def test_each_link_carries_the_joint_action_of_its_own_edge():
    """A shared node's row carries its first parent's joint; a link's joint
    is the action on the OTHER parent's edge, read back from the raw edges
    (the most visited edge from that parent into that child). The maze:
    two move orders reach one state (a matrix game's state holds its last
    joint action, so there every edge into a node has the same one)."""
    g = Game("maze", "size=tiny maze_seed=3", seed=1)
    with Search(g, mcgs(max_depth=12), seed=2) as s:
        s.run(iterations=3000)
        snap = s.snapshot(0, max_nodes=10_000)
        assert len(snap.link_joints) == len(snap.links) > 0
        differ = 0
        for (p, c), lj in zip(snap.links.tolist(), snap.link_joints.tolist()):
            d = node(s, int(snap.node[p]))
            into = [(v, i, j) for i, j, v, ch, _ in edges(d) if v and ch == int(snap.node[c])]
            v, i, j = max(into)
            assert tuple(lj) == (d.act[0][i], d.act[1][j])
            differ += tuple(lj) != tuple(int(x) for x in snap.joint[c][:2])
        assert differ > 0     # the rows' own joints would have been wrong there


def test_snapshot_links_refuse_bad_buffers():
    from sandbox.native._lib import ffi, lib
    g = Game("matrix", "preset=rps repeats=2", seed=1)
    with Search(g, mcgs(), seed=3) as s:
        s.run(iterations=300)
        n = ffi.new("int *")
        rows = ffi.new("sbx_snapshot_node[]", 4)
        assert lib.sbx_search_snapshot_links(s._h.get(), ffi.NULL, 3, ffi.NULL, ffi.NULL, 0,
                                             n) != 0
        assert lib.sbx_search_snapshot_links(s._h.get(), rows, -1, ffi.NULL, ffi.NULL, 0, n) != 0
        # stale or hostile node ids are skipped, not followed
        for i in range(4):
            rows[i].node = [-5, 10**9, 0, 2**31 - 1][i]
            rows[i].parent = [-1, 99, -7, 3][i]
        out = ffi.new("int32_t[]", 16)
        assert lib.sbx_search_snapshot_links(s._h.get(), rows, 4, out, ffi.NULL, 8, n) == 0
        assert lib.sbx_search_root_matrix(s._h.get(), ffi.NULL) != 0

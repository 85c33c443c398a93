"""Layout maths of the tree views: exact on hand-built trees, invariants on a
real search tree."""
from __future__ import annotations

import math

import numpy as np
import pytest
from render_support import make_snapshot

from sandbox.native import Game, Search, SearchParams
from sandbox.native.snapshot import (FLAG_DIED, FLAG_DOOMED, FLAG_PASS, FLAG_SURVIVED,
                                     FLAG_TRUNCATED)
from sandbox.render.tree_layout import (compact_count, icicle_layout, level_starts,
                                        nodelink_layout, rasterize_intervals, rows_for_path,
                                        ucb_value)


def test_icicle_widths_are_visit_shares(small_snapshot):
    x0, w = icicle_layout(small_snapshot)
    np.testing.assert_allclose(w, [1.0, 0.5, 0.3, 0.2, 0.25, 0.25, 0.3])
    # Siblings sit side by side in move order inside their parent.
    np.testing.assert_allclose(x0, [0.0, 0.0, 0.5, 0.8, 0.0, 0.25, 0.5])


def test_icicle_hidden_children_leave_a_gap():
    # Root's children: 60 shown + 40 visits in a child the snapshot left out.
    snap = make_snapshot([(-1, 100, 0.5, 255, FLAG_TRUNCATED), (0, 60, 0.5, 0, 0)],
                         hidden={0: 40})
    x0, w = icicle_layout(snap)
    assert w[1] == pytest.approx(0.6)


def test_icicle_real_tree_nests_children_in_parents(real_snapshot):
    snap = real_snapshot
    x0, w = icicle_layout(snap)
    par = snap.parent[1:]
    eps = 1e-6   # probs are float32
    assert np.all(x0[1:] >= x0[par] - eps)
    assert np.all(x0[1:] + w[1:] <= x0[par] + w[par] + eps)
    # Width = product of the probs along the path.
    for row in (len(snap) - 1, len(snap) // 2, 5):
        path = snap.path_to(row)
        assert w[row] == pytest.approx(np.prod(snap.prob[path[1:]].astype(np.float64)), rel=1e-9)
    # Each depth is one block, sorted left to right, without overlaps.
    starts = level_starts(snap.depth)
    for s, e in zip(starts[:-1], starts[1:]):
        assert np.all(np.diff(x0[s:e]) >= -eps)
        assert np.all(x0[s + 1:e] >= x0[s:e - 1] + w[s:e - 1] - 1e-7)
    # Children fill a fully shown parent.
    sums = np.bincount(par, weights=w[1:], minlength=len(snap))
    has_kids = np.bincount(par, minlength=len(snap)) > 0
    full = has_kids & ((snap.flags & FLAG_TRUNCATED) == 0)
    np.testing.assert_allclose(sums[full], w[full], rtol=1e-5)


def test_rasterize_area_weights_sub_pixel_nodes():
    # Level 0: one node covering columns 0..3; level 1: a 0.3 px node in
    # column 1 and a 0.2 px node in the same column, different values.
    level = np.array([0, 1, 1])
    x0 = np.array([0.0, 1.0, 1.5])
    x1 = np.array([4.0, 1.3, 1.7])
    ch = np.array([[1.0, 1.0, 1.0], [0.5, 1.0, 0.0]])     # coverage, value
    out = rasterize_intervals(level, x0, x1, ch, 2, 4)
    np.testing.assert_allclose(out[0, 0], [1, 1, 1, 1])
    np.testing.assert_allclose(out[0, 1], [0, 0.5, 0, 0], atol=1e-12)
    # Column 1 of level 1: value mass 0.3*1 + 0.2*0 over coverage 0.5.
    assert out[1, 1, 1] / out[0, 1, 1] == pytest.approx(0.6)


def test_rasterize_total_coverage_equals_widths(real_snapshot):
    x0, w = icicle_layout(real_snapshot)
    lev = real_snapshot.depth.astype(np.int64)
    W = 500
    out = rasterize_intervals(lev, x0 * W, (x0 + w) * W, np.ones((1, len(x0))), int(lev[-1]) + 1, W)
    per_level = np.bincount(lev, weights=w * W)
    np.testing.assert_allclose(out[0].sum(axis=1), per_level, rtol=1e-6)


def test_ucb_value_matches_the_c_formula():
    """ucb_value claims to score a child as smitsimax_iterate.c's select_ucb does.
    Checked against the C core itself: from full snapshots taken before a
    traced iteration, every child C picked by UCB1 is the argmax of
    ucb_value over its siblings, given the parent's visits counting the one
    that makes the pick and the death penalty where a child is certain death
    (unvisited children are +inf: one of them is taken, at random). Picks that float32
    snapshot means cannot separate are skipped, and must be rare."""
    # safe_moves off: with it, C never picks an untried child whose move the
    # game knows loses at once, so "fresh" would need the game's fatal set;
    # tests/native/test_safe_moves.py checks that choice
    params = SearchParams(max_depth=6, c=1.1, random_threshold=4, death_penalty=True,
                          death_min_visits=2, death_penalty_value=0.4, safe_moves=False)
    checked = skipped = 0
    with Game("snakes", {"width": 9, "height": 9, "snakes": 3}, seed=2) as g, \
            Search(g, params, seed=2) as s:
        s.run(iterations=1500)
        for _ in range(60):
            snaps = [s.snapshot(a, max_nodes=s.stats().nodes[a], min_visits=0) for a in range(3)]
            tr = s.step_traced()
            for a, snap in enumerate(snaps):
                row_of = {int(n): r for r, n in enumerate(snap.node)}
                for k, pick in enumerate(tr.picks[a]):   # no rollout or freeze: path[k] is at k
                    parent = row_of.get(tr.paths[a][k])
                    if pick != "ucb" or parent is None or tr.expanded[a][k]:
                        continue
                    kids = [r for r in snap.children(parent) if not snap.flags[r] & FLAG_PASS]
                    values = []
                    for r in kids:
                        f = int(snap.flags[r])
                        doomed = bool(f & FLAG_DOOMED) or (
                            f & (FLAG_DIED | FLAG_SURVIVED) == FLAG_DIED and snap.visits[r] >= 2)
                        values.append(ucb_value(float(snap.mean[r]), int(snap.visits[r]),
                                                int(snap.visits[parent]) + 1, snap.norm_min,
                                                snap.norm_max, params.c,
                                                params.death_penalty_value if doomed else 0.0))
                    fresh = {int(snap.node[kids[i]]) for i, v in enumerate(values)
                             if v == math.inf}
                    if fresh:                  # untried children: one at random
                        assert tr.paths[a][k + 1] in fresh, (a, k, values)
                        checked += 1
                        continue
                    best = int(np.argmax(values))
                    close = [v for v in values if math.isfinite(values[best])
                             and values[best] - v < 1e-5]
                    if len(close) > 1:
                        skipped += 1
                        continue
                    assert snap.node[kids[best]] == tr.paths[a][k + 1], (a, k, values)
                    checked += 1
    assert checked > 300 and skipped < checked // 50
    # the parts a snapshot cannot show: no spread yet means scale 1, and the
    # penalty comes off the whole value
    v = ucb_value(0.7, 9, 100, -1.0, 3.0, 0.7)
    assert v == pytest.approx((0.7 + 1.0) / 4.0 + 0.7 * math.sqrt(math.log(100)) / 3.0)
    assert ucb_value(0.7, 0, 100, -1.0, 3.0, 0.7) == math.inf
    assert ucb_value(0.5, 4, 16, 0.5, 0.5, 1.0) == pytest.approx(0.0 + math.sqrt(math.log(16)) / 2)
    assert ucb_value(0.7, 9, 100, -1.0, 3.0, 0.7, penalty=1.0) == pytest.approx(v - 1.0)


def test_nodelink_layout_is_tidy(small_snapshot):
    x, lev = nodelink_layout(small_snapshot)
    assert list(lev) == [0, 1, 1, 1, 2, 2, 2]
    assert np.all((x >= 0) & (x <= 1))
    # Leaves in distinct slots, left to right in move order.
    leaves = [4, 5, 6, 3]
    assert np.all(np.diff(x[leaves]) > 0)
    # Parents centred over their first and last child.
    assert x[1] == pytest.approx((x[4] + x[5]) / 2)
    assert x[0] == pytest.approx((x[1] + x[3]) / 2)


def test_best_line_is_most_visited_chain(real_snapshot):
    snap = real_snapshot
    line = snap.best_line()
    for a, b in zip(line, line[1:]):
        kids = snap.children(a)
        assert snap.visits[b] == snap.visits[kids].max()
    assert len(snap.children(line[-1])) == 0


def test_rows_for_path_counts_unshown_tail():
    rows, hidden = rows_for_path([0, 5, 9, 77, 78], {0: 0, 5: 1, 9: 4})
    assert rows == [0, 1, 4] and hidden == 2


def test_compact_count():
    assert [compact_count(v) for v in (7, 999, 1000, 19713, 295000, 2_500_000)] == \
        ["7", "999", "1.0k", "20k", "295k", "2.5M"]

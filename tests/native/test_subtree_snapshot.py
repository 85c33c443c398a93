"""The top of any subtree (sbx_search_snapshot_at) and the node at a move path
(sbx_search_find_path), for every algorithm that keeps a tree.

The oracle is independent of the subtree code: each search's WHOLE tree is
taken once (a root snapshot with every node, zero-visit ones included); the
expected subtree under a node is recomputed from it in Python (its
descendants, then best-first by visits with ties to the lower node id, as
sbx.h says a snapshot picks), and a node's move path is read off the full
tree's rows. Tiny hand-built position, iteration budgets, fixed seeds.
"""
from __future__ import annotations

import heapq

import numpy as np
import pytest

from sandbox.games.snakes.reference import Snake, build_export
from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.native.snapshot import MOVE_NONE

TREE_ALGOS = ("smitsimax", "suct", "joint", "uct", "gtcfr")


def _game() -> Game:
    """Two snakes on a 5x5 board, no food: a few hundred iterations grow a
    tree a few levels deep with passes and deaths in it."""
    g = Game("snakes", {"width": 5, "height": 5, "snakes": 2, "food_spawn_chance": 0,
                        "minimum_food": 0, "initial_food": 0}, seed=3)
    g.import_state(build_export(5, 5, [Snake([(1, 1), (1, 0)], 100),
                                       Snake([(3, 3), (3, 4)], 100)], (), 0))
    return g


@pytest.fixture(scope="module", params=TREE_ALGOS + ("mcgs",))
def grown(request):
    g = _game()
    s = Search(g, SearchParams(algorithm=request.param, max_depth=6, node_cap=1 << 14), seed=11)
    s.run(iterations=400)
    yield request.param, s
    s.close()
    g.close()


def _full(s: Search, agent: int):
    return s.snapshot(agent, max_nodes=s.stats().nodes[agent] + 1, min_visits=0)


def _children(full) -> dict[int, list[int]]:
    """Every edge among the full tree's rows, by node id (a graph's other
    parents, links, included)."""
    kids: dict[int, list[int]] = {}
    for r in range(1, len(full)):
        kids.setdefault(int(full.node[full.parent[r]]), []).append(int(full.node[r]))
    for p, c in full.links.tolist():
        kids.setdefault(int(full.node[p]), []).append(int(full.node[c]))
    return kids


def _expected(full, top: int, max_nodes: int, min_visits: int) -> set[int]:
    """Best-first from `top` over the full tree: at most max_nodes ids."""
    visits = {int(n): int(v) for n, v in zip(full.node, full.visits)}
    kids = _children(full)
    chosen: set[int] = set()
    heap = [(-visits[top], top)]
    while heap and len(chosen) < max_nodes:
        v, n = heapq.heappop(heap)
        if n in chosen:
            continue
        if n != top and -v < min_visits:
            break
        chosen.add(n)
        for c in kids.get(n, []):
            if c not in chosen and visits[c] >= min_visits and (visits[c] > 0 or min_visits == 0):
                heapq.heappush(heap, (-visits[c], c))
    return chosen


def _step(full, row: int, algo: str):
    """One step of a move path, as find_path takes it."""
    if algo in ("joint", "mcgs", "gtcfr"):
        return tuple(int(m) for m in full.joint[row][:2])
    return int(full.move[row])


def _inner_rows(full, k: int) -> list[int]:
    """Up to k rows with visited children, spread over the depths."""
    kids = np.bincount(full.parent[1:][full.visits[1:] > 0], minlength=len(full))
    rows = [r for r in range(1, len(full)) if kids[r] >= 2]
    rows.sort(key=lambda r: (-int(full.depth[r]), r))
    return rows[:: max(1, len(rows) // k)][:k]


@pytest.mark.parametrize("max_nodes", [1, 5, 40, 100_000])
def test_subtree_snapshot_is_the_top_of_that_subtree(grown, max_nodes):
    algo, s = grown
    if algo == "mcgs" and max_nodes not in (1, 100_000):
        pytest.skip("mcgs breaks visit ties in heap order: whole subtrees only")
    for a in range(2) if algo == "smitsimax" else (0,):
        full = _full(s, a)
        rows = _inner_rows(full, 4)
        assert rows, "the search grew no inner nodes below the root"
        by_id = {int(n): r for r, n in enumerate(full.node)}
        for r in rows:
            top = int(full.node[r])
            sub = s.snapshot(a, max_nodes, 1, top=top)
            assert sub.node[0] == top and sub.parent[0] == -1 and sub.prob[0] == 1.0
            assert sub.move[0] == MOVE_NONE
            assert set(sub.node.tolist()) == _expected(full, top, max_nodes, 1)
            for row in range(len(sub)):
                fr = by_id[int(sub.node[row])]
                assert sub.visits[row] == full.visits[fr]
                assert sub.mean[row] == pytest.approx(float(full.mean[fr]), rel=1e-6)
                if algo != "mcgs" and row:   # a tree: the same parent as in the whole tree
                    assert sub.node[sub.parent[row]] == full.node[full.parent[fr]]
                    assert sub.depth[row] == full.depth[fr]
                    assert sub.move[row] == full.move[fr]
            if algo != "mcgs":
                assert sub.depth[0] == full.depth[r]


def test_node_zero_is_the_root_snapshot(grown):
    _, s = grown
    assert s.snapshot(0, 50, top=0).rows.tobytes() == s.snapshot(0, 50).rows.tobytes()


def test_find_path_names_the_node_of_each_full_tree_row(grown):
    algo, s = grown
    full = _full(s, 0)
    reached = 0
    for r in range(1, len(full)):
        path = [_step(full, p, algo) for p in full.path_to(r)[1:]]
        if algo == "mcgs" and full.visits[r] == 0:
            continue
        assert s.find_path(0, path) == int(full.node[r]), path
        reached += 1
    assert reached >= 10
    assert s.find_path(0, []) == 0
    # a path as `top` is the same subtree as its node id
    r = _inner_rows(full, 1)[0]
    path = [_step(full, p, algo) for p in full.path_to(r)[1:]]
    assert (s.snapshot(0, 30, top=path).rows.tobytes()
            == s.snapshot(0, 30, top=int(full.node[r])).rows.tobytes())


def test_bad_ids_and_paths_are_refused_with_a_message(grown):
    algo, s = grown
    n = s.stats().nodes[0]
    with pytest.raises(InvalidArgument, match="is not in"):
        s.snapshot(0, 10, top=n + 5)
    with pytest.raises(InvalidArgument, match="top"):
        s.snapshot(0, 10, top=-1)
    with pytest.raises(InvalidArgument, match="top"):
        s.snapshot(0, 10, top="3")
    bad = (7, 7) if algo in ("joint", "mcgs", "gtcfr") else 7   # no move 7 in snakes
    with pytest.raises(InvalidArgument, match="step 1 of 1"):
        s.find_path(0, [bad])
    with pytest.raises(InvalidArgument, match="path"):
        s.find_path(0, "UL")
    with pytest.raises(InvalidArgument, match="path step"):
        s.find_path(0, [300])
    if algo in ("joint", "mcgs", "gtcfr"):   # a joint step needs every player's move
        with pytest.raises(InvalidArgument, match="2 moves"):
            s.find_path(0, [1])


@pytest.mark.parametrize("algo", ["random", "greedy"])
def test_searches_without_a_tree_have_only_the_root(algo):
    g = _game()
    with Search(g, SearchParams(algorithm=algo), seed=1) as s:
        s.run(iterations=20)
        assert s.snapshot(0, 10, top=0).node.tolist() == [0]
        with pytest.raises(InvalidArgument, match="keeps no tree"):
            s.snapshot(0, 10, top=1)
        with pytest.raises(InvalidArgument, match="keeps no tree"):
            s.find_path(0, [0])
    g.close()

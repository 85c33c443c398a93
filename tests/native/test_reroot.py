"""Re-rooting between turns (tree reuse), checked on the C search alone:

- the new root's visits and total are what its kept children say: the
  simulations that ended AT the played child (a simulated death in freeze
  mode, a terminal state in pass mode) did not happen in the real game and
  must not stay in ln N;
- reuse_decay scales the kept subtree (visits rounded down, means kept);
- a childless new root (a depth-1 search, e.g. a matrix game) starts at 0
  visits, so its first random_threshold picks are random again.

Expectations are computed from the full tree snapshot taken before the
advance, not from the reference twin."""
from __future__ import annotations

import math

import pytest

from sandbox.games.snakes.reference import Snake, build_export
from sandbox.games.snakes.reference import LEFT, RIGHT, UP
from sandbox.native import Game, Search, SearchParams, TreeSnapshot
from sandbox.native.snapshot import MOVE_NONE

QUIET = {"food_spawn_chance": 0, "minimum_food": 0, "initial_food": 0}


def position(snakes) -> Game:
    g = Game("snakes", {"width": 11, "height": 11, "snakes": len(snakes), **QUIET}, seed=0)
    g.import_state(build_export(11, 11, snakes, (), 0))
    return g


def head_on(players: int) -> Game:
    """Snakes 0 and 1 face each other two cells apart (right/left meets
    head-on, both die); with 4 players two more sit safely apart, so the
    game goes on after a head-on; with 2 it ends (terminal)."""
    snakes = [Snake([(5, 5), (4, 5), (3, 5)], 100), Snake([(7, 5), (8, 5), (9, 5)], 100)]
    if players == 4:
        snakes += [Snake([(2, 8)] * 3, 100), Snake([(8, 2)] * 3, 100)]
    return position(snakes)


def full_tree(s: Search, agent: int) -> TreeSnapshot:
    return s.snapshot(agent, max_nodes=s.stats().nodes[agent], min_visits=0)


def child_rows(snap: TreeSnapshot, row: int) -> dict[int, int]:
    return {int(snap.move[r]): r for r in snap.children(row)}


@pytest.mark.parametrize("players, elimination", [(4, "freeze"), (2, "pass"), (2, "freeze")])
def test_new_root_counts_only_what_went_on_below_it(players, elimination):
    """The 'right' child of snake 0 collects simulations that ended there
    (its death, frozen; or the terminal head-on). The real turn is survived
    (snake 1 went up), so those simulations never happened: the new root's
    visits are the sum over its children, and its mean is gamma times their
    visit-weighted mean."""
    params = SearchParams(max_depth=5, random_threshold=1_000_000, elimination=elimination)
    with head_on(players) as g, Search(g, params, seed=3) as s:
        s.run(iterations=4000)
        full = full_tree(s, 0)
        right = child_rows(full, 0)[RIGHT]
        kids = list(full.children(right))
        below = sum(int(full.visits[k]) for k in kids)
        ended_there = int(full.visits[right]) - below
        assert ended_there > 0, "the case must have simulations that ended at 'right'"
        kid_totals = sum(float(full.mean[k]) * int(full.visits[k]) for k in kids)
        joint = [RIGHT, UP] + [UP] * (players - 2)
        g.step(joint)
        assert g.is_alive(0) and not g.is_terminal
        s.advance(joint, new_root=g)
        st = s.stats()
        assert st.root_visits[0] == below                      # not full.visits[right]
        assert sum(k.visits for k in s.root_stats(0)) == below
        root_mean = float(full_tree(s, 0).mean[0])
        expected = params.gamma * kid_totals / below
        assert root_mean == pytest.approx(expected, rel=1e-5)   # float32 snapshot means


def test_childless_new_root_starts_fresh_and_random():
    """A depth-1 search: the played child has no children, so the new root
    has 0 visits and the next iteration picks at random (the tutorial's
    random phase), instead of UCB on a root that 'has' 1,000 visits."""
    params = SearchParams(max_depth=1, random_threshold=10)
    with Game("matrix", "preset=biased_rps repeats=5", seed=0) as g, \
            Search(g, params, seed=5) as s:
        s.run(iterations=1000)
        joint = s.best_moves()
        g.step(joint)
        s.advance(joint, new_root=g)
        assert s.stats().root_visits == (0, 0)
        tr = s.step_traced()
        assert [tr.picks[a][0] for a in range(2)] == ["random", "random"]


@pytest.mark.parametrize("decay", [0.5, 0.3, 0.0])
def test_reuse_decay_scales_the_kept_subtree(decay):
    params = SearchParams(max_depth=6, reuse_decay=decay)
    with Game("snakes", {"width": 11, "height": 11, "snakes": 4}, seed=4) as g, \
            Search(g, params, seed=4) as s:
        s.run(iterations=3000)
        joint = s.best_moves()
        before = [full_tree(s, a) for a in range(4)]
        g.step(joint)
        s.advance(joint, new_root=g)
        for a in range(4):
            snap = before[a]
            child = child_rows(snap, 0)[joint[a]]
            old = {int(snap.move[r]) if snap.move[r] != MOVE_NONE else -1:
                   (int(snap.visits[r]), float(snap.mean[r])) for r in snap.children(child)}
            got = {k.move: (k.visits, k.mean) for k in s.root_stats(a)}
            assert set(got) == set(old)
            for m, (v, mean) in old.items():
                want = math.floor(v * decay)
                assert got[m][0] == want, (a, m, v, got[m][0])
                if want:
                    assert got[m][1] == pytest.approx(mean, rel=1e-5)   # means are kept
                else:
                    assert got[m][1] == 0.0
            assert s.stats().root_visits[a] == sum(v for v, _ in got.values())


def test_reuse_decay_one_is_today():
    """decay = 1 leaves the kept statistics exactly as they were."""
    with Game("snakes", {"width": 11, "height": 11, "snakes": 4}, seed=4) as g, \
            Search(g, SearchParams(max_depth=6, reuse_decay=1.0), seed=4) as s:
        s.run(iterations=3000)
        joint = s.best_moves()
        snap = full_tree(s, 0)
        child = child_rows(snap, 0)[joint[0]]
        old = sorted((int(snap.move[r]), int(snap.visits[r])) for r in snap.children(child))
        g.step(joint)
        s.advance(joint, new_root=g)
        assert sorted((k.move, k.visits) for k in s.root_stats(0)) == old


@pytest.mark.parametrize("elimination", ["pass", "freeze"])
def test_left_branch_of_the_head_on_is_dropped_when_it_happened(elimination):
    """The real head-on kills snake 0 (4 players, the game goes on): its
    move children under 'right' can no longer happen. In pass mode only its
    pass child is kept and the root is exactly that child's count; a frozen
    tree has no pass child, so the dead agent's new root is bare (0 visits,
    no children) and stays so: it only counts the iterations that follow."""
    params = SearchParams(max_depth=5, random_threshold=1_000_000, elimination=elimination)
    with head_on(4) as g, Search(g, params, seed=3) as s:
        s.run(iterations=4000)
        full = full_tree(s, 0)
        right = child_rows(full, 0)[RIGHT]
        passes = [k for k in full.children(right) if full.move[k] == MOVE_NONE]
        moves = [k for k in full.children(right) if full.move[k] != MOVE_NONE]
        assert moves, "snake 0 also survived 'right' in the search"
        joint = [RIGHT, LEFT, UP, UP]
        g.step(joint)
        assert not g.is_alive(0)
        s.advance(joint, new_root=g)
        if elimination == "pass":
            assert passes
            assert s.stats().root_visits[0] == int(full.visits[passes[0]])
            assert [k.move for k in s.root_stats(0)] == [-1]
        else:
            assert not passes
            assert s.stats().root_visits[0] == 0 and s.stats().nodes[0] == 1
            assert s.root_stats(0) == []
            s.run(iterations=100)
            assert s.stats().root_visits[0] == 100 and s.stats().nodes[0] == 1
        assert s.best_moves()[0] is None

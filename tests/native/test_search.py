"""Smitsimax search through sandbox.native (smitsimax-tutorial.txt §5–§7, §12–§13).

Every test uses iteration budgets, so results are deterministic per build;
hand-made positions come from import_state (export layout in sbx.h). Where a
test depends on which moves are fatal, it computes that by brute force over
every joint action on the C engine instead of trusting the picture.
"""
from __future__ import annotations

import itertools
import math
import threading
import time

import numpy as np
import pytest

from sandbox.native import (SNAPSHOT_DTYPE, Game, InvalidArgument, Search, SearchParams,
                            TreeSnapshot)
from sandbox.native.snapshot import (FLAG_DIED, FLAG_DOOMED, FLAG_PASS, FLAG_SURVIVED,
                                     FLAG_TRUNCATED, MOVE_NONE)
from sandbox.games.snakes.reference import Snake, build_export
from sandbox.games.snakes.reference import CAUSE_BODY_COLLISION, DOWN, LEFT, RIGHT, UP

# No food appears unless a case asks for it.
QUIET = {"food_spawn_chance": 0, "minimum_food": 0, "initial_food": 0}
START_4P = {"width": 11, "height": 11, "snakes": 4}


def snake(*body, health=100) -> Snake:
    """A live snake, segments head first."""
    return Snake(list(body), health)


def position(width: int, height: int, snakes, turn: int = 0, seed: int = 0) -> Game:
    g = Game("snakes", {"width": width, "height": height, "snakes": len(snakes), **QUIET},
             seed=seed)
    g.import_state(build_export(width, height, snakes, (), turn))
    return g


def fatal_moves(g: Game, agent: int) -> set[int]:
    """Moves after which `agent` is dead whatever the others do."""
    options = [g.legal_moves(b) or [None] for b in range(g.num_agents)]
    out = set()
    for m in g.legal_moves(agent):
        dies = True
        for joint in itertools.product(*(o if b != agent else [m] for b, o in enumerate(options))):
            with g.clone() as h:
                h.step(list(joint))
                if h.is_alive(agent):
                    dies = False
                    break
        if dies:
            out.add(m)
    return out


# ------------------------------------------------------------------ positions
# (0,0) is bottom-left, UP is y+1.

def pos_wall() -> Game:
    """Snake 0 on the left wall facing left: left is out of bounds, right is
    its own neck. Snake 1's only fatal move is down (its neck)."""
    return position(7, 7, [snake((0, 3), (1, 3), (2, 3)), snake((5, 5), (5, 4), (5, 3))])


def pos_corner() -> Game:
    """Snake 0 in the bottom-left corner facing left: only up is safe."""
    return position(7, 7, [snake((0, 0), (1, 0), (2, 0)), snake((5, 5), (5, 4), (5, 3))])


def pos_body() -> Game:
    """Snake 0 faces up with snake 1's body on its right: right (body
    collision) and down (neck) are fatal."""
    return position(7, 7, [snake((3, 3), (3, 2), (3, 1)),
                           snake((4, 5), (4, 4), (4, 3), (4, 2), (5, 2))])


def pos_four() -> Game:
    """Four snakes on 9x9, each with one to three fatal moves."""
    return position(9, 9, [snake((0, 4), (1, 4), (2, 4)),
                           snake((4, 8), (4, 7), (4, 6), (4, 5), (4, 4), (3, 4)),
                           snake((8, 0), (7, 0), (6, 0)),
                           snake((4, 3), (4, 2), (4, 1))])


FATAL_POSITIONS = {
    # builder, expected fatal moves per agent (checked by brute force too)
    "wall": (pos_wall, [{LEFT, RIGHT}, {DOWN}]),
    "corner": (pos_corner, [{DOWN, LEFT, RIGHT}, {DOWN}]),
    "body": (pos_body, [{DOWN, RIGHT}, {DOWN}]),
    "four": (pos_four, [{LEFT, RIGHT}, {UP, DOWN}, {DOWN, LEFT, RIGHT}, {DOWN}]),
}


def pos_open(max_depth: int) -> Game:
    """Four length-1 snakes on 19x19, 10 cells apart and 4 from the walls:
    no move sequence of up to 4 turns can kill anyone, so every simulation
    runs the full depth."""
    assert max_depth <= 4
    return position(19, 19, [snake((4, 4)), snake((4, 14)), snake((14, 4)), snake((14, 14))])


def pos_doomed() -> Game:
    """Snake 0 dies on turn 1 whatever it does (down/left out of bounds,
    right its neck, up into snake 1's body); three snakes play on."""
    return position(7, 7, [snake((0, 0), (1, 0), (2, 0)),
                           snake((2, 2), (1, 2), (0, 2), (0, 1), (1, 1)),
                           snake((5, 5), (5, 4), (5, 3)),
                           snake((5, 1), (4, 1), (3, 1))])


def pos_dead_at_root() -> Game:
    """Snake 0 is already dead (died on turn 3), two snakes alive."""
    dead = Snake([(0, 1), (0, 2), (0, 3)], 80, alive=False, death_turn=3,
                 cause=CAUSE_BODY_COLLISION)
    return position(7, 7, [dead, snake((3, 3), (3, 2), (3, 1)), snake((5, 5), (5, 4), (5, 3))],
                    turn=5)


def full_tree(s: Search, agent: int) -> TreeSnapshot:
    """Every node of agent's tree, zero-visit ones included."""
    n = s.stats().nodes[agent]
    return s.snapshot(agent, max_nodes=n, min_visits=0)


def visit_entropy(visits) -> float:
    v = np.asarray(visits, dtype=np.float64)
    p = v[v > 0] / v.sum()
    return float(-(p * np.log(p)).sum())


# ------------------------------------------------------------ fatal moves

@pytest.mark.parametrize("name", sorted(FATAL_POSITIONS))
def test_positions_have_the_fatal_moves_described(name):
    build, expected = FATAL_POSITIONS[name]
    with build() as g:
        assert [fatal_moves(g, a) for a in range(g.num_agents)] == expected
    with pos_doomed() as g:
        assert fatal_moves(g, 0) == {UP, DOWN, LEFT, RIGHT}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", sorted(FATAL_POSITIONS))
def test_best_move_is_never_immediately_fatal(name, seed):
    build, expected = FATAL_POSITIONS[name]
    with build() as g, Search(g, SearchParams(), seed=seed) as s:
        r = s.run(iterations=3000)
        assert r.iterations == 3000
        best = s.best_moves()
        for a, fatal in enumerate(expected):
            assert best[a] in g.legal_moves(a)
            assert best[a] not in fatal, f"agent {a} picks fatal move {best[a]}"
            # and the fatal children really did score worse than the best one
            stats = {st.move: st for st in s.root_stats(a)}
            for m in fatal:
                assert stats[m].visits < stats[best[a]].visits
                assert stats[m].mean < stats[best[a]].mean


def test_only_safe_move_is_chosen_in_the_corner():
    with pos_corner() as g, Search(g, seed=9) as s:
        s.run(iterations=3000)
        assert s.best_moves()[0] == UP


# ------------------------------------------------------------ visit accounting

def assert_root_visits_add_up(s: Search, expected_root: int) -> None:
    st = s.stats()
    for a in range(s.num_agents):
        assert st.root_visits[a] == expected_root
        kids = s.root_stats(a)
        assert sum(k.visits for k in kids) == expected_root, f"agent {a}"
        snap = s.snapshot(a, max_nodes=1)
        assert snap.visits[0] == expected_root


@pytest.mark.parametrize("build", [lambda: Game("snakes", START_4P, seed=3), pos_four,
                                   lambda: pos_open(4)])
def test_root_child_visits_sum_to_iterations(build):
    with build() as g, Search(g, SearchParams(max_depth=4), seed=5) as s:
        s.run(iterations=1234)
        assert s.stats().iterations == 1234
        assert_root_visits_add_up(s, 1234)
        for a in range(g.num_agents):
            assert {k.move for k in s.root_stats(a)} == set(g.legal_moves(a))
            probs = [k.prob for k in s.root_stats(a)]
            assert sum(probs) == pytest.approx(1.0)


def test_dead_agent_gives_all_visits_to_its_pass_child():
    with pos_dead_at_root() as g, Search(g, SearchParams(max_depth=5), seed=2) as s:
        assert g.alive == [False, True, True]
        s.run(iterations=800)
        assert_root_visits_add_up(s, 800)
        (pass_child,) = s.root_stats(0)
        assert pass_child.move == -1 and pass_child.visits == 800
        assert s.best_moves()[0] is None
        snap = s.snapshot(0, 100)
        assert np.all(snap.flags[1:] & FLAG_PASS)
        assert np.all(snap.move[1:] == MOVE_NONE)


def test_summary_is_stats_best_moves_and_every_root_in_one_call():
    """Search.summary() (what a controller publishes each slice) reports
    exactly what the separate calls do, pass children included."""
    with pos_dead_at_root() as g, Search(g, SearchParams(max_depth=5), seed=2) as s:
        for _ in range(3):
            s.run(iterations=300)
            u = s.summary()
            assert u.stats == s.stats()
            assert list(u.best_moves) == s.best_moves()
            assert u.best_moves[0] is None
            assert [list(r) for r in u.root_stats] == [s.root_stats(a) for a in range(3)]
            assert [m.move for m in u.root_stats[0]] == [-1]
            assert sum(m.visits for m in u.root_stats[1]) == u.stats.iterations_root


def test_tree_reuse_keeps_the_played_childs_visits():
    with Game("snakes", START_4P, seed=4) as g, Search(g, SearchParams(max_depth=6), seed=4) as s:
        s.run(iterations=3000)
        joint = s.best_moves()
        kept = []
        for a in range(g.num_agents):
            stats = {st.move: st for st in s.root_stats(a)}
            kept.append(stats[joint[a]].visits)
        g.step(joint)
        s.advance(joint, new_root=g)
        st = s.stats()
        assert st.iterations_root == 0 and st.iterations == 3000
        assert list(st.root_visits) == kept
        for a in range(g.num_agents):
            # turn 1 cannot end the game here, so the old child's own
            # children carry all of its visits
            assert sum(k.visits for k in s.root_stats(a)) == kept[a]
        s.run(iterations=500)
        assert [v - k for v, k in zip(s.stats().root_visits, kept)] == [500] * 4
        for a in range(g.num_agents):
            assert sum(k.visits for k in s.root_stats(a)) == kept[a] + 500


def pos_head_on() -> Game:
    """Snakes 0 and 1 face each other two cells apart: if 0 goes right while
    1 goes left they meet head-on and both die (equal lengths). Snakes 2 and
    3 are stacked in open space and cannot die on turn 1, so turn 1 never
    ends the game."""
    return position(11, 11, [snake((5, 5), (4, 5), (3, 5)), snake((7, 5), (8, 5), (9, 5)),
                             snake((2, 8), (2, 8), (2, 8)), snake((8, 2), (8, 2), (8, 2))])


@pytest.mark.parametrize("joint, survives", [([RIGHT, UP, UP, UP], True),
                                             ([RIGHT, LEFT, UP, UP], False)])
def test_advance_keeps_only_what_the_real_move_left_reachable(joint, survives):
    """Snake 0's 'right' child saw both fates (its pass child holds the
    simulations where snake 1 also went left). After the real turn, the new
    root keeps the branch that can still happen: the move children if snake
    0 lived, the pass child if it died; either way its visits are exactly
    those of the kept children, so visits keep adding up."""
    params = SearchParams(max_depth=5, random_threshold=1_000_000)   # visit every move often
    with pos_head_on() as g, Search(g, params, seed=1) as s:
        s.run(iterations=4000)
        full = full_tree(s, 0)
        (right,) = [r for r in full.children(0) if full.move[r] == RIGHT]
        kids = full.children(right)
        moves = {int(full.move[k]): int(full.visits[k]) for k in kids}
        assert MOVE_NONE in moves and moves[MOVE_NONE] > 0      # died there sometimes
        assert len(moves) == 5 and sum(moves.values()) == full.visits[right]
        g.step(joint)
        assert g.is_alive(0) == survives
        s.advance(joint, new_root=g)
        kept = {m: v for m, v in moves.items() if (m != MOVE_NONE) == survives}
        assert s.stats().root_visits[0] == sum(kept.values())
        got = {(MOVE_NONE if k.move < 0 else k.move): k.visits for k in s.root_stats(0)}
        assert got == kept
        for a in range(4):
            assert sum(k.visits for k in s.root_stats(a)) == s.stats().root_visits[a]
        s.run(iterations=300)
        for a in range(4):
            assert sum(k.visits for k in s.root_stats(a)) == s.stats().root_visits[a]
        if not survives:
            assert [k.move for k in s.root_stats(0)] == [-1]
            assert s.best_moves()[0] is None


def test_tree_reuse_off_starts_fresh_roots():
    with Game("snakes", START_4P, seed=4) as g, \
            Search(g, SearchParams(max_depth=6, tree_reuse=False), seed=4) as s:
        s.run(iterations=2000)
        joint = s.best_moves()
        s.advance(joint)
        assert s.stats().root_visits == (0, 0, 0, 0)
        assert s.stats().nodes == (1, 1, 1, 1)
        assert s.root_game().turn == 1


def test_time_budget_and_both_budgets():
    """Which budget ended a run (no timing is asserted)."""
    with Game("snakes", START_4P, seed=1) as g, \
            Search(g, SearchParams(time_check_interval=1), seed=1) as s:
        assert s.run(ms=2.0).stop_reason == "time"
        r = s.run(iterations=50, ms=60_000.0)
        assert r.stop_reason == "iterations" and r.iterations == 50


def test_slow_iterations_read_the_clock_sooner():
    """A time budget used to read the clock only every time_check_interval
    (32) iterations, so a search of slow iterations -- GT-CFR valuing each
    of goofspiel-13's 169 first-bid cells by 32 rollouts takes milliseconds
    an iteration -- could only stop after 32 of them, several budgets late.
    The clock is now read sooner when iterations are slow: given a quarter
    of the time its first 32 iterations take, the run stops before the 32nd.
    That time is measured here, in this run (the fastest of three runs of
    the same iterations, so a stall while measuring cannot inflate it), so
    nothing depends on how fast the machine is."""
    params = SearchParams(algorithm="gtcfr", rollout=True, max_depth=13, leaf_rollouts=32)
    interval = SearchParams().time_check_interval
    assert interval == 32
    with Game("goofspiel", "num_cards=13", seed=1) as g:
        first_32_ms = math.inf
        for _ in range(3):   # the same seed: the same iterations each time
            with Search(g, params, seed=1) as s:
                first_32_ms = min(first_32_ms, s.run(iterations=interval).elapsed_ms)
        with Search(g, params, seed=1) as s:
            r = s.run(ms=first_32_ms / 4)
    assert r.stop_reason == "time"
    # a clock read every 32 iterations could not stop before the 32nd
    assert 1 <= r.iterations < interval, (r.iterations, first_32_ms)


def test_best_moves_before_any_search_are_the_first_legal_moves():
    with pos_dead_at_root() as g, Search(g, seed=1) as s:
        assert s.best_moves() == [None, g.legal_moves(1)[0], g.legal_moves(2)[0]]
        assert s.root_stats(1) == []
        assert s.stats().root_visits == (0, 0, 0)


# ------------------------------------------------------------ determinism

def fingerprint(s: Search) -> tuple:
    st = s.stats()
    roots = tuple(tuple(s.root_stats(a)) for a in range(s.num_agents))
    snaps = tuple(s.snapshot(a, 2000).rows.tobytes() for a in range(s.num_agents))
    return (st.iterations, st.sim_turns, st.nodes, st.root_visits, st.norm_min, st.norm_max,
            tuple(s.best_moves()), roots, snaps)


def test_same_seed_and_budget_give_identical_searches():
    with Game("snakes", START_4P, seed=7) as g:
        with Search(g, seed=11) as s1, Search(g, seed=11) as s2:
            s1.run(iterations=4000)
            s2.run(iterations=4000)
            assert fingerprint(s1) == fingerprint(s2)
            # and again after a re-root on the same real move
            joint = s1.best_moves()
            s1.advance(joint)
            s2.advance(joint)
            s1.run(iterations=1500)
            s2.run(iterations=1500)
            assert fingerprint(s1) == fingerprint(s2)


def test_slices_give_the_same_tree_as_one_run():
    with Game("snakes", START_4P, seed=7) as g:
        with Search(g, seed=11) as whole, Search(g, seed=11) as sliced:
            whole.run(iterations=5000)
            done = 0
            for k in (1, 999, 1000, 1500, 1500):
                done += sliced.run(iterations=k).iterations
            assert done == 5000
            assert fingerprint(whole) == fingerprint(sliced)


def test_different_search_seeds_give_different_trees():
    with Game("snakes", START_4P, seed=7) as g:
        prints = []
        for seed in (1, 2, 3):
            with Search(g, seed=seed) as s:
                s.run(iterations=3000)
                prints.append(fingerprint(s))
        snaps = [p[8] for p in prints]
        assert snaps[0] != snaps[1] and snaps[1] != snaps[2] and snaps[0] != snaps[2]
        assert len({p[7] for p in prints}) == 3     # root statistics differ too


# ------------------------------------------------------------ gamma, depth normalisation

ALL_RANDOM = dict(random_threshold=1_000_000, c=0.7)


@pytest.mark.parametrize("gamma", [0.9, 0.5])
@pytest.mark.parametrize("max_depth", [2, 4])
def test_gamma_scales_root_means_by_gamma_to_the_depth(gamma, max_depth):
    """Tutorial §13: the leaf gets the score and every step toward the root
    multiplies it by gamma, so a node at depth k holds the undiscounted mean
    times gamma^(max_depth - k) when every simulation reaches max_depth. With
    all selection random the sampled paths do not depend on gamma."""
    iters = 2500
    with pos_open(max_depth) as g:
        with Search(g, SearchParams(gamma=1.0, max_depth=max_depth, **ALL_RANDOM), seed=3) as s1, \
                Search(g, SearchParams(gamma=gamma, max_depth=max_depth, **ALL_RANDOM), seed=3) as sg:
            s1.run(iterations=iters)
            sg.run(iterations=iters)
            assert s1.stats().sim_turns == iters * max_depth   # nothing ended early
            factor = gamma ** (max_depth - 1)
            for a in range(g.num_agents):
                base, disc = s1.root_stats(a), sg.root_stats(a)
                assert [k.visits for k in base] == [k.visits for k in disc]
                for b, d in zip(base, disc):
                    assert b.visits > 0
                    assert d.mean == pytest.approx(b.mean * factor, rel=1e-9)
                    assert d.mean != pytest.approx(b.mean, rel=1e-6)
                # deeper nodes too (float32 snapshot means)
                t1, tg = s1.snapshot(a, 500), sg.snapshot(a, 500)
                assert np.array_equal(t1.node, tg.node)
                expect = t1.mean.astype(np.float64) * gamma ** (max_depth - t1.depth.astype(np.float64))
                np.testing.assert_allclose(tg.mean, expect, rtol=1e-5)


def test_rollout_discounts_from_the_depth_the_score_was_taken():
    """Tutorial §13: "a score evaluated at depth 10 reaches the root
    multiplied by gamma^10". With rollouts the tree path stops at the node
    it expanded, but the score is still taken at the simulation's depth: the
    child at depth 1 holds score * gamma^(depth - 1), the root gamma^depth."""
    gamma, depth = 0.8, 4
    params = SearchParams(gamma=gamma, max_depth=depth, rollout=True, **ALL_RANDOM)
    with pos_open(depth) as g, Search(g, params, seed=4) as s:
        tr = s.step_traced()   # a fresh tree: root, one expanded child, rollout below
        assert tr.depth == depth and not tr.terminal
        for a in range(g.num_agents):
            assert len(tr.paths[a]) == 2
            child = [k for k in s.root_stats(a) if k.visits]
            assert len(child) == 1
            assert child[0].mean == pytest.approx(tr.scores[a] * gamma ** (depth - 1), rel=1e-12)
            root = s.snapshot(a, 10)
            assert root.mean[0] == pytest.approx(tr.scores[a] * gamma ** depth, rel=1e-6)


def test_score_bounds_start_afresh_every_turn():
    """Tutorial §7 starts each search with lowest = +INF, highest = -INF. The
    bounds are one turn's: after advance (tree reuse or not) they hold
    nothing until the next iteration, which sets both to its own score."""
    for reuse in (True, False):
        with Game("snakes", START_4P, seed=6) as g, \
                Search(g, SearchParams(tree_reuse=reuse), seed=6) as s:
            s.run(iterations=800)
            st = s.stats()
            assert all(lo < hi for lo, hi in zip(st.norm_min, st.norm_max))
            joint = s.best_moves()
            g.step(joint)
            s.advance(joint, new_root=g)
            st = s.stats()
            assert list(st.norm_min) == [0.0] * 4 and list(st.norm_max) == [0.0] * 4
            if reuse:
                assert st.root_visits[0] > 0   # the tree itself was kept
            tr = s.step_traced()
            st = s.stats()
            assert list(st.norm_min) == list(tr.scores) == list(st.norm_max)


def test_switching_depth_normalize_restarts_the_bounds():
    """Raw scores and scores per turn are on different scales (§13): bounds
    kept across the switch would squash the new scores' range."""
    with pos_open(4) as g, Search(g, SearchParams(max_depth=4), seed=2) as s:
        s.run(iterations=300)
        s.update_params(depth_normalize=True)
        tr = s.step_traced()
        st = s.stats()
        assert list(st.norm_min) == list(tr.scores) == list(st.norm_max)
        s.update_params(c=0.5)   # other changes keep them
        s.run(iterations=50)
        st = s.stats()
        assert any(lo < hi for lo, hi in zip(st.norm_min, st.norm_max))


def test_depth_normalize_divides_by_full_depth():
    iters, depth = 2000, 4
    with pos_open(depth) as g:
        plain = SearchParams(gamma=1.0, max_depth=depth, **ALL_RANDOM)
        with Search(g, plain, seed=8) as s1, \
                Search(g, plain.replace(depth_normalize=True), seed=8) as sn:
            s1.run(iterations=iters)
            sn.run(iterations=iters)
            for a in range(g.num_agents):
                for b, d in zip(s1.root_stats(a), sn.root_stats(a)):
                    assert d.visits == b.visits
                    assert d.mean == pytest.approx(b.mean / depth, rel=1e-9)
            st1, stn = s1.stats(), sn.stats()
            # the bounds used for UCB normalisation are over normalised scores
            for a in range(g.num_agents):
                assert stn.norm_max[a] == pytest.approx(st1.norm_max[a] / depth, rel=1e-9)
                assert stn.norm_min[a] == pytest.approx(st1.norm_min[a] / depth, rel=1e-9)


def test_depth_normalize_uses_the_depth_actually_reached():
    """When a simulation ends early the leaf score is divided by the depth it
    reached, not by max_depth: replay each traced iteration and compare."""
    # safe_moves off: the early ends are snakes dying by moves it would skip
    params = SearchParams(max_depth=6, depth_normalize=True, random_threshold=1_000_000,
                          safe_moves=False)
    depths = set()
    with pos_wall() as g, Search(g, params, seed=5) as s:
        for _ in range(200):
            tr = s.step_traced()
            with s.root_game() as h:
                h.reseed(tr.sim_seed)
                for d in range(tr.depth):
                    h.step([None if m < 0 else int(m) for m in tr.moves[:, d]])
                assert h.is_terminal == tr.terminal
                raw = h.evaluate()
            depths.add(tr.depth)
            np.testing.assert_allclose(tr.scores, raw / max(tr.depth, 1), rtol=1e-12)
    assert min(depths) < 6 and 6 in depths  # both early ends and full depth were seen


@pytest.mark.parametrize("normalize", [False, True])
def test_frozen_agents_score_is_the_evaluation_when_they_died(normalize):
    """Freeze (tutorial §13): a dead agent's tree stops at its death and
    learns the evaluation of the state it died in (divided by that depth
    under depth_normalize); the living get the final evaluation."""
    params = SearchParams(max_depth=6, elimination="freeze", depth_normalize=normalize,
                          random_threshold=1_000_000)
    died_at = set()
    with pos_four() as g, Search(g, params, seed=4) as s:
        for _ in range(150):
            tr = s.step_traced()
            expect = np.zeros(4)
            death = [None] * 4
            with s.root_game() as h:
                h.reseed(tr.sim_seed)
                for d in range(tr.depth):
                    h.step([None if m < 0 else int(m) for m in tr.moves[:, d]])
                    ev = h.evaluate()
                    for a in range(4):
                        if death[a] is None and not h.is_alive(a):
                            death[a] = d + 1
                            expect[a] = ev[a] / (d + 1 if normalize else 1)
                final = h.evaluate()
            for a in range(4):
                if death[a] is None:
                    expect[a] = final[a] / (tr.depth if normalize else 1)
                    assert len(tr.paths[a]) == tr.depth + 1
                else:
                    died_at.add(death[a])
                    assert len(tr.paths[a]) == death[a] + 1       # frozen below its death
                    assert all(p == "none" for p in tr.picks[a][death[a]:])
            np.testing.assert_allclose(tr.scores, expect, rtol=1e-12)
    assert len(died_at) >= 3      # deaths at several depths were seen


# ------------------------------------------------------------ elimination

def test_pass_nodes_keep_learning_after_elimination():
    params = SearchParams(max_depth=5, elimination="pass")
    with pos_doomed() as g, Search(g, params, seed=1) as s:
        s.run(iterations=2000)
        snap = full_tree(s, 0)
        below = snap.depth > 1
        assert below.any(), "a pass-through tree grows below the fatal moves"
        assert np.all(snap.flags[below] & FLAG_PASS)
        assert np.all(snap.move[below] == MOVE_NONE)
        # every depth-1 child died on its move
        d1 = snap.depth == 1
        assert d1.sum() == 4
        assert np.all(snap.flags[d1] & FLAG_DIED)
        assert not np.any(snap.flags[d1] & FLAG_SURVIVED)
        pass_visits = int(snap.visits[snap.depth == 2].sum())
        assert pass_visits > 1000       # only a rare early terminal skips them
        assert s.stats().max_depth_reached[0] == 5
        s.run(iterations=1000)
        assert int(full_tree(s, 0).visits[full_tree(s, 0).depth == 2].sum()) > pass_visits + 500


def test_frozen_tree_stops_at_death_with_the_death_evaluation():
    params = SearchParams(max_depth=5, elimination="freeze", gamma=0.9)
    with pos_doomed() as g, Search(g, params, seed=1) as s:
        s.run(iterations=2000)
        st = s.stats()
        assert st.nodes[0] == 5          # root and its four children, nothing below
        assert st.max_depth_reached[0] == 1
        assert st.nodes[1] > 5           # the living keep growing
        snap = full_tree(s, 0)
        assert snap.depth.max() == 1
        # the evaluation at the moment snake 0 died (nobody died earlier)
        at_death = set()
        for m in g.legal_moves(0):
            with g.clone() as h:
                h.step([m, UP, UP, RIGHT])
                assert not h.is_alive(0)
                at_death.add(float(h.evaluate()[0]))
        assert len(at_death) == 1
        value = at_death.pop()
        for k in s.root_stats(0):
            assert k.visits > 0
            assert k.mean == pytest.approx(value, abs=1e-12)
        assert snap.mean[0] == pytest.approx(value * 0.9, rel=1e-6)


# ------------------------------------------------------------ death penalty

def doomed_children(s: Search, agent: int, parent_visits: int) -> tuple[int, int]:
    """(visits, count) of certain-death nodes (DOOMED, or DIED and never
    SURVIVED) whose parent has at least parent_visits visits."""
    snap = full_tree(s, agent)
    f = snap.flags
    doomed = ((f & FLAG_DOOMED) != 0) | ((f & (FLAG_DIED | FLAG_SURVIVED)) == FLAG_DIED)
    pv = np.where(snap.parent >= 0, snap.visits[np.maximum(snap.parent, 0)], 0)
    sel = doomed & (pv >= parent_visits)
    return int(snap.visits[sel].sum()), int(sel.sum())


@pytest.mark.parametrize("build", [pos_corner, pos_four])
def test_death_penalty_starves_doomed_children(build):
    base = SearchParams(max_depth=8, safe_moves=False)   # the fatal moves must be tried
    with build() as g:
        with Search(g, base, seed=2) as off, \
                Search(g, base.replace(death_penalty=True, death_min_visits=3), seed=2) as on:
            off.run(iterations=4000)
            on.run(iterations=4000)
            for a in range(g.num_agents):
                fatal = fatal_moves(g, a)
                v_off = sum(k.visits for k in off.root_stats(a) if k.move in fatal)
                v_on = sum(k.visits for k in on.root_stats(a) if k.move in fatal)
                assert v_on * 3 < v_off, f"agent {a}: {v_on} vs {v_off}"
                # a fatal child is never revisited beyond the few visits that prove it
                for k in on.root_stats(a):
                    if k.move in fatal:
                        assert k.visits <= 10
            # all through the trees: below every well-visited node, a child of
            # certain death gets about death_min_visits visits, not more
            v_off, n_off = np.sum([doomed_children(off, a, 100) for a in range(g.num_agents)], 0)
            v_on, n_on = np.sum([doomed_children(on, a, 100) for a in range(g.num_agents)], 0)
            assert n_off > 10 and n_on > 10
            assert 2 * v_on / n_on < v_off / n_off
            assert v_on / n_on <= 3 + 1


# ------------------------------------------------------------ node cap

def test_node_cap_stops_cleanly_and_resumes():
    params = SearchParams(node_cap=1024, max_depth=10)
    with Game("snakes", START_4P, seed=2) as g, Search(g, params, seed=2) as s:
        r = s.run(iterations=100_000)
        assert r.stop_reason == "node_cap"
        assert 0 < r.iterations < 100_000
        st = s.stats()
        assert st.cap_reached and st.node_cap == 1024
        assert max(st.nodes) <= 1024
        assert sum(st.root_visits) == 4 * r.iterations
        for _ in range(3):
            again = s.run(iterations=1000)
            assert again.iterations == 0 and again.stop_reason == "node_cap"
            assert again.nodes_added == 0
        assert s.stats().cap_reached
        # inspection still works at the cap
        assert len(s.snapshot(0, 4000, min_visits=0)) == s.stats().nodes[0]
        best = s.best_moves()

        # the real game moves on: the kept subtree is smaller, search resumes
        s.advance(best)
        assert max(s.stats().nodes) < 1024
        r2 = s.run(iterations=50)
        assert r2.iterations > 0
        assert not s.stats().cap_reached or r2.stop_reason == "node_cap"


def test_larger_node_cap_resumes_a_full_search():
    with Game("snakes", START_4P, seed=2) as g, \
            Search(g, SearchParams(node_cap=1024), seed=2) as s:
        r = s.run(iterations=100_000)
        assert r.stop_reason == "node_cap"
        nodes_before = s.stats().nodes
        roots_before = s.root_stats(0)
        s.set_params(s.params.replace(node_cap=8192))
        assert s.c_params().node_cap == 8192
        # the existing tree survives the resize
        assert s.stats().nodes == nodes_before
        assert s.root_stats(0) == roots_before
        r2 = s.run(iterations=500)
        assert r2.iterations == 500 and r2.stop_reason == "iterations"
        assert not s.stats().cap_reached
        assert max(s.stats().nodes) > 1024


# ------------------------------------------------------------ hot-swap

def test_set_params_from_another_thread_applies_mid_run():
    """set_params while run() works on another thread takes effect from the
    next iteration: one run shows both depths (open position, nothing ends
    early, so simulated turns = iterations x depth exactly)."""
    p3 = SearchParams(max_depth=3, random_threshold=1_000_000)
    for attempt in range(4):
        with pos_open(3) as g, Search(g, p3, seed=1) as s:
            result = {}
            entered = threading.Event()

            def work():
                entered.set()
                result["r"] = s.run(iterations=2_000_000_000)

            t = threading.Thread(target=work, daemon=True)
            t.start()
            assert entered.wait(30)
            time.sleep(0.05 * 2 ** attempt)        # ordering only, nothing timed
            s.set_params(p3.replace(max_depth=1))
            time.sleep(0.05 * 2 ** attempt)
            s.stop()
            t.join(60)
            assert not t.is_alive(), "run did not return after stop()"
            r = result["r"]
            assert r.stop_reason == "requested"
            assert s.c_params() == p3.replace(max_depth=1)
            assert s.params.max_depth == 1
            if r.iterations < r.sim_turns < 3 * r.iterations:
                return  # both depths were used within the one run
    pytest.fail(f"set_params never landed mid-run: {r}")


def test_changing_c_changes_the_next_slice():
    """Tutorial §6: C = 0 is greedy, a large C spreads visits. Two identical
    searches run one slice with C = 0; then one switches to C = 3 and the
    visits of the NEXT slice alone (differences of root stats) spread out."""
    base = SearchParams(c=0.0, max_depth=6)
    with Game("snakes", START_4P, seed=5) as g, \
            Search(g, base, seed=5) as keep, Search(g, base, seed=5) as swap:
        keep.run(iterations=3000)
        swap.run(iterations=3000)
        before = [[k.visits for k in keep.root_stats(a)] for a in range(4)]
        assert before == [[k.visits for k in swap.root_stats(a)] for a in range(4)]
        swap.set_params(base.replace(c=3.0))
        assert keep.c_params().c == 0.0 and swap.c_params().c == 3.0
        keep.run(iterations=3000)
        swap.run(iterations=3000)
        h_keep, h_swap = [], []
        for a in range(4):
            inc_keep = np.subtract([k.visits for k in keep.root_stats(a)], before[a])
            inc_swap = np.subtract([k.visits for k in swap.root_stats(a)], before[a])
            assert inc_keep.sum() == inc_swap.sum() == 3000
            h_keep.append(visit_entropy(inc_keep))
            h_swap.append(visit_entropy(inc_swap))
        assert sum(h_swap) > sum(h_keep) + 0.5, (h_keep, h_swap)
        assert sum(hs > hk for hs, hk in zip(h_swap, h_keep)) >= 3


# ------------------------------------------------------------ traced steps

VALID_PICKS = {"random", "ucb", "pass", "rollout", "none"}


@pytest.mark.parametrize("rollout", [False, True])
def test_step_traced_replays_exactly(rollout):
    params = SearchParams(max_depth=8, random_threshold=5, rollout=rollout)
    with Game("snakes", {**START_4P, "width": 7, "height": 7}, seed=3) as g, \
            Search(g, params, seed=3) as s:
        s.run(iterations=300)
        for i in range(60):
            before = s.stats().iterations
            tr = s.step_traced()
            assert tr.stop_reason == "none"
            assert s.stats().iterations == before + 1
            full = [full_tree(s, a) for a in range(4)]
            with s.root_game() as h:
                h.reseed(tr.sim_seed)
                for d in range(tr.depth):
                    joint = []
                    for a in range(4):
                        m = int(tr.moves[a, d])
                        legal = h.legal_moves(a)
                        if legal:
                            assert m in legal
                            allowed = {"random", "ucb", "rollout"} if rollout else {"random", "ucb"}
                            assert tr.picks[a][d] in allowed
                        else:
                            assert m == -1
                            assert tr.picks[a][d] in ("pass", "none")
                        joint.append(None if m < 0 else m)
                    h.step(joint)
                    assert list(tr.alive_after[:, d]) == h.alive, f"depth {d}"
                assert h.is_terminal == tr.terminal
                if not tr.terminal:
                    assert tr.depth == 8
                np.testing.assert_array_equal(tr.scores, h.evaluate())
            for a in range(4):
                path = tr.paths[a]
                assert path[0] == 0
                assert set(tr.picks[a]) <= VALID_PICKS
                ids = {int(n): row for row, n in enumerate(full[a].node)}
                for k in range(1, len(path)):
                    row = ids[path[k]]
                    assert full[a].node[full[a].parent[row]] == path[k - 1]
                    assert full[a].depth[row] == k
                    mv = full[a].move[row]
                    assert (mv == MOVE_NONE and tr.moves[a, k - 1] == -1) or mv == tr.moves[a, k - 1]
                if not rollout:
                    assert len(path) == tr.depth + 1
                else:
                    assert len(path) <= tr.depth + 1
                    assert sum(tr.expanded[a]) <= 1


# ------------------------------------------------------------ snapshots

def test_snapshot_dtype_matches_the_c_struct():
    from sandbox.native._lib import ffi
    ctype = ffi.typeof("sbx_snapshot_node")
    assert SNAPSHOT_DTYPE.itemsize == ffi.sizeof(ctype)
    assert list(SNAPSHOT_DTYPE.names) == [name for name, _ in ctype.fields]
    for name, field in ctype.fields:
        dt, offset = SNAPSHOT_DTYPE.fields[name][:2]
        assert offset == field.offset == ffi.offsetof(ctype, name), name
        assert dt.itemsize == ffi.sizeof(field.type), name
        ctype_f, dt_f = field.type, dt
        if field.type.kind == "array":  # joint: uint8_t[SBX_MAX_AGENTS]
            assert dt.shape == (field.type.length,), name
            ctype_f, dt_f = field.type.item, dt.base
        assert dt_f.kind == ("f" if ctype_f.cname == "float" else
                             "u" if ctype_f.cname.startswith("uint") else "i"), name


@pytest.fixture(scope="module")
def grown_search():
    g = Game("snakes", START_4P, seed=6)
    s = Search(g, SearchParams(max_depth=8), seed=6)
    s.run(iterations=6000)
    yield s
    s.close()
    g.close()


@pytest.mark.parametrize("max_nodes", [1, 7, 300, 2500])
def test_snapshot_is_the_most_visited_connected_top(grown_search, max_nodes):
    s = grown_search
    for a in range(4):
        snap = s.snapshot(a, max_nodes)
        full = full_tree(s, a)
        n = len(snap)
        assert n == min(max_nodes, int((full.visits > 0).sum()))
        assert snap.parent[0] == -1 and snap.node[0] == 0 and snap.depth[0] == 0
        assert snap.visits[0] == s.stats().root_visits[a]
        for row in range(1, n):
            p = snap.parent[row]
            assert 0 <= p < row
            assert snap.visits[row] <= snap.visits[p]
            assert snap.depth[row] == snap.depth[p] + 1
            if row > 1 and snap.parent[row - 1] == p:   # siblings in move order
                assert snap.move[row - 1] < snap.move[row] or snap.move[row] == MOVE_NONE
        assert list(snap.parent) == sorted(snap.parent)  # breadth-first
        assert snap.visits.min() >= 1
        # nothing left out beats anything shown
        shown = set(snap.node.tolist())
        left_out = [v for node, v in zip(full.node, full.visits) if node not in shown]
        if left_out:
            assert max(left_out) <= snap.visits.min()
        # TRUNCATED exactly where a visited child is missing
        full_parent_node = {int(full.node[r]): int(full.node[full.parent[r]])
                            for r in range(1, len(full))}
        hidden_parents = {full_parent_node[int(nd)] for nd, v in zip(full.node, full.visits)
                          if v > 0 and int(nd) not in shown and int(nd) in full_parent_node}
        for row in range(n):
            assert bool(snap.flags[row] & FLAG_TRUNCATED) == (int(snap.node[row]) in hidden_parents)
        # the same rows as in the whole tree
        full_rows = {int(nd): r for r, nd in enumerate(full.node)}
        for row in range(n):
            r = full_rows[int(snap.node[row])]
            assert full.visits[r] == snap.visits[row]
            assert full.mean[r] == snap.mean[row]
            assert full.move[r] == snap.move[row]
            assert (full.flags[r] & 15) == (snap.flags[row] & 15)


def test_snapshot_probabilities_and_min_visits(grown_search):
    s = grown_search
    for a in range(4):
        full = full_tree(s, a)
        for row in range(len(full)):
            kids = full.children(row)
            if kids.size and full.visits[kids].sum() > 0:
                np.testing.assert_allclose(full.prob[kids].sum(), 1.0, rtol=1e-5)
                assert full.visits[kids].sum() <= full.visits[row]
        snap = s.snapshot(a, 100_000, min_visits=25)
        assert np.all(snap.visits[1:] >= 25)
        expect = {int(nd) for nd, v in zip(full.node, full.visits) if v >= 25} | {0}
        assert set(snap.node.tolist()) == expect
        assert s.snapshot(a, 100_000, min_visits=10**9).node.tolist() == [0]


def test_snapshot_into_a_reusable_buffer(grown_search):
    s = grown_search
    buf = np.zeros(500, dtype=SNAPSHOT_DTYPE)
    snap = s.snapshot(1, 400, out=buf)
    assert len(snap) == 400
    assert np.shares_memory(snap.rows, buf)
    assert snap.rows.tobytes() == s.snapshot(1, 400).rows.tobytes()
    assert snap.tree_nodes == s.stats().nodes[1]
    with pytest.raises(InvalidArgument):
        s.snapshot(1, 600, out=buf)
    with pytest.raises(InvalidArgument):
        s.snapshot(1, 10, out=np.zeros(20, dtype=np.int32))
    with pytest.raises(InvalidArgument):
        s.snapshot(1, 0)


@pytest.mark.parametrize("depth_normalize", [False, True])
def test_snapshot_means_lie_within_the_score_bounds(depth_normalize):
    """With gamma = 1 every node's mean is an average of leaf scores (per
    turn under depth_normalize), so it lies within the bounds the leaf
    scores set (tutorial §12: the exploitation term is in [0, 1]), and the
    snapshot's normalized_mean is that term, clipping nothing. (Bounds
    taken before normalising, or not kept up to date, put means outside.)
    The means are checked unclipped: float32 rounding is the only slack."""
    params = SearchParams(max_depth=6, gamma=1.0, depth_normalize=depth_normalize)
    with Game("snakes", START_4P, seed=6) as g, Search(g, params, seed=6) as s:
        s.run(iterations=3000)
        for a in range(4):
            snap = s.snapshot(a, 2000)
            lo, hi = snap.norm_min, snap.norm_max
            assert hi - lo > 0.1
            raw = (snap.mean.astype(np.float64) - lo) / (hi - lo)
            slack = 1e-6 * (abs(lo) + abs(hi)) / (hi - lo)
            assert raw.min() >= -slack and raw.max() <= 1 + slack, (raw.min(), raw.max())
            assert raw.max() - raw.min() > 0.25      # the means do spread over the range
            np.testing.assert_allclose(snap.normalized_mean(), raw, atol=slack)


def test_snapshot_best_line_follows_the_most_visited_children(grown_search):
    snap = grown_search.snapshot(2, 1000)
    line = snap.best_line()
    assert line[0] == 0 and len(line) >= 4
    for parent, row in zip(line, line[1:]):
        kids = snap.children(parent)
        assert snap.visits[row] == snap.visits[kids].max()
    assert snap.children(line[-1]).size == 0
    assert snap.path_to(line[-1]) == line

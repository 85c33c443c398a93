"""Selection, the final move and certain death, pinned on the C search alone
(no reference twin): every traced pick is recomputed from the statistics the
trees held before the iteration (selection_oracle.py), the random phase's
boundary is checked to the visit, best_moves against trees whose visits and
means are worked out by hand, and DOOMED is checked where it must be set and
where it must change what the search does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest

from sandbox.games.snakes.reference import Snake, build_export
from sandbox.games.snakes.reference import DOWN, LEFT, RIGHT, UP
from sandbox.native import Game, Search, SearchParams
from sandbox.native.snapshot import FLAG_DIED, FLAG_DOOMED, FLAG_PASS, FLAG_SURVIVED

from selection_oracle import Bounds, Tree, certain_death, full_tree, traced_iterations

QUIET = {"food_spawn_chance": 0, "minimum_food": 0, "initial_food": 0}


def snakes_position(width: int, height: int, bodies, seed: int = 0) -> Game:
    g = Game("snakes", {"width": width, "height": height, "snakes": len(bodies), **QUIET},
             seed=seed)
    g.import_state(build_export(width, height, [Snake(list(b), 100) for b in bodies], (), 0))
    return g


def head_on_2p() -> Game:
    """Snakes 0 and 1 face each other two cells apart on 11x11: if 0 goes
    right while 1 goes left they meet head-on and both die (a draw, the game
    ends); every other first turn is survived."""
    return snakes_position(11, 11, [[(5, 5), (4, 5), (3, 5)], [(7, 5), (8, 5), (9, 5)]])


def four_snakes() -> Game:
    """Four snakes on 9x9, each with one to three fatal first moves: deaths
    at every depth, so DIED, SURVIVED, DOOMED and pass nodes all occur."""
    return snakes_position(9, 9, [[(0, 4), (1, 4), (2, 4)],
                                  [(4, 8), (4, 7), (4, 6), (4, 5), (4, 4), (3, 4)],
                                  [(8, 0), (7, 0), (6, 0)],
                                  [(4, 3), (4, 2), (4, 1)]])


# ------------------------------------------------------------ the UCB oracle

@dataclass(frozen=True)
class Case:
    build: Callable[[], Game]
    params: SearchParams
    traced: int                     # iterations checked against the oracle
    warm: int = 0                   # untraced iterations run first
    advance: bool = False           # then play the best moves (fresh bounds)
    swap: dict | None = None        # then hot-swap these parameters
    exact_ties: bool = False        # equal float32 means are equal totals


# C values are where the choice is not trivial: the tally shows picks where
# exploration overrode the best mean and picks where the mean overrode the
# least visited child.
ORACLE_CASES = {
    # 4 snakes from the start; after an advance the kept trees are deep and
    # well visited, and the bounds start afresh (so the oracle knows them).
    "snakes_4p_leaf": Case(lambda: Game("snakes", {"width": 11, "height": 11, "snakes": 4},
                                        seed=3),
                           SearchParams(max_depth=8, c=0.7), 120, warm=3000, advance=True),
    "snakes_4p_depth": Case(lambda: Game("snakes", {"width": 11, "height": 11, "snakes": 4},
                                         seed=5),
                            SearchParams(max_depth=8, c=1.0, gamma=0.9, bounds="depth"), 120,
                            warm=3000, advance=True),
    # head-on duel: deaths decided by the other tree, the death penalty on
    "head_on_2p_depth_penalty": Case(head_on_2p, SearchParams(
        max_depth=10, c=1.2, random_threshold=6, bounds="depth", death_penalty=True,
        death_min_visits=2, death_penalty_value=0.5), 400),
    "head_on_2p_leaf_penalty": Case(head_on_2p, SearchParams(
        max_depth=6, c=0.5, random_threshold=3, death_penalty=True, death_min_visits=1), 300),
    # leaves before the end of the game: the evaluation's expected shares
    "goofspiel_depth": Case(lambda: Game("goofspiel", "num_cards=7 returns_type=point_difference",
                                         seed=2),
                            SearchParams(max_depth=4, c=1.0, gamma=0.9, random_threshold=4,
                                         bounds="depth"), 300),
    # played to the end (max_depth = cards) on integer points, gamma 1:
    # ties are exact, as in the matrix games below
    "goofspiel_leaf": Case(lambda: Game("goofspiel",
                                        "num_cards=5 players=3 returns_type=total_points", seed=4),
                           SearchParams(max_depth=5, c=0.6, gamma=1.0, random_threshold=2), 250,
                           exact_ties=True),
    # integer payoffs, gamma 1: equal visits and equal float32 means are
    # equal totals, so a tie is exact and must be drawn among the tied
    "matrix_exact_ties": Case(lambda: Game("matrix", "preset=biased_rps repeats=6", seed=0),
                              SearchParams(max_depth=6, c=2.0, gamma=1.0, random_threshold=3),
                              300, exact_ties=True),
    "matrix_zero_c_ties": Case(lambda: Game("matrix", "preset=rps repeats=4", seed=0),
                               SearchParams(max_depth=4, c=0.0, gamma=1.0, random_threshold=0),
                               150, exact_ties=True),
    # A one-armed bandit (the column player has one action): row 0 pays 1,
    # row 1 pays 0. After 270,000 iterations at C = 1 (0.04 s) a hot-swap to
    # C = 3 makes UCB1 revisit row 1 until the exploration terms balance
    # again; the root is past SQRT_LN_TABLE visits and row 0 past
    # RSQRT_TABLE, where sqrt(ln N) and 1/sqrt(n) leave C's tables, so both
    # direct computations decide where that balance is. (The warm-up is not
    # traced: the leaf bounds come from the stats.)
    "bandit_past_the_tables": Case(lambda: Game("matrix", "rows=2 cols=1 a0=1 a1=0 b0=0 b1=0",
                                                seed=0),
                                   SearchParams(max_depth=1, c=1.0, gamma=1.0), 300,
                                   warm=270_000, swap={"c": 3.0}, exact_ties=True),
    # freeze, rollouts and the penalty together, normalised per depth
    "four_freeze_rollout_depth": Case(four_snakes, SearchParams(
        max_depth=8, c=0.9, random_threshold=5, elimination="freeze", rollout=True,
        death_penalty=True, bounds="depth"), 300),
    "four_pass_depth_normalize": Case(four_snakes, SearchParams(
        max_depth=6, c=0.8, random_threshold=8, depth_normalize=True, bounds="depth",
        death_penalty=True, death_min_visits=2), 250),
}


@pytest.mark.parametrize("case", sorted(ORACLE_CASES))
def test_every_pick_is_the_one_ucb1_calls_for(case):
    k = ORACLE_CASES[case]
    with k.build() as g, Search(g, k.params, seed=11) as s:
        if k.warm:
            s.run(iterations=k.warm)
        if k.advance:
            s.advance(s.best_moves())
        if k.swap:
            s.update_params(**k.swap)
        bounds = Bounds.from_stats(s) if k.warm and not k.advance else Bounds(g.num_agents)
        tally = traced_iterations(s, k.traced, bounds, exact_ties=k.exact_ties)
    p = s.params
    assert tally["ucb_checked"] >= 100
    assert tally["ucb_ambiguous"] <= tally["ucb_checked"] // 50 + 1, tally
    # the check tells apart a formula that leaves out either term
    if p.c > 0:
        assert tally["ucb_explore_mattered"] >= 10 and tally["ucb_exploit_mattered"] >= 10, tally
    if p.random_threshold > 1 and (k.advance or not k.warm):
        assert tally["random"] >= 20, tally
    if p.bounds == "depth":      # picks below depth 1, whose bounds no stats report
        assert sum(v for key, v in tally.items() if key.startswith("ucb_checked_depth_")
                   and int(key.rsplit("_", 1)[1]) >= 2) >= 20, tally
    if k.exact_ties and not k.warm:
        assert tally["ucb_exact_tie"] >= 10, tally
        # drawn, not kept by index: with ties kept by the earlier child, the
        # two trees of a symmetric position picked alike at every step
        assert tally["ucb_tie_to_a_later_child"] >= 3, tally
    if case == "bandit_past_the_tables":
        assert tally["ucb_parent_past_table"] >= 100 and tally["ucb_child_past_table"] >= 100


# ------------------------------------------------------------ the random phase

@pytest.mark.parametrize("threshold", [0, 1, 2, 5, 13])
def test_random_phase_ends_exactly_at_the_threshold(threshold):
    """Tutorial §6-§7: a parent picks at random while its visits, this one
    counted, are below random_threshold, and by UCB1 from the visit that
    reaches it. In a one-shot game iteration i is the root's i-th visit."""
    with Game("matrix", "preset=biased_rps", seed=0) as g, \
            Search(g, SearchParams(max_depth=1, random_threshold=threshold), seed=3) as s:
        for visit in range(1, threshold + 6):
            tr = s.step_traced()
            want = "random" if visit < threshold else "ucb"
            assert [tr.picks[a][0] for a in range(2)] == [want, want], f"visit {visit}"


@pytest.mark.parametrize("above", [0, 1])
def test_a_kept_root_is_random_exactly_below_the_threshold(above):
    """After a re-root the new root carries V visits from the old search: its
    next pick is its (V+1)-th visit, random iff V + 1 < random_threshold.
    The threshold is set to V + 1 (UCB at once) or V + 2 (one random pick,
    then UCB)."""
    params = SearchParams(max_depth=2, random_threshold=1_000_000)
    with Game("matrix", "preset=biased_rps repeats=3", seed=0) as g, Search(g, params, seed=3) as s:
        s.run(iterations=500)
        joint = s.best_moves()
        s.advance(joint)
        kept = s.stats().root_visits
        assert min(kept) > 50
        for a in range(2):
            assert kept[a] == sum(m.visits for m in s.root_stats(a))
        # one threshold for both trees: agent 0's root sits exactly on it
        s.update_params(random_threshold=kept[0] + 1 + above)
        picks = [s.step_traced().picks[0][0] for _ in range(3)]
        assert picks == ["random"] * above + ["ucb"] * (3 - above)


# ------------------------------------------------------------ the final move

# Agent 0 picks a row, agent 1 a column. Only the diagonal and a[1][0] = b[1][0]
# = 0 matter below.
TIE_TABLE = "rows=3 cols=3 a0=1/0/0 a1=0/5/0 a2=0/0/5 b0=4/0/0 b1=0/2/0 b2=0/0/4"


def test_best_move_is_most_visits_then_higher_mean_then_earlier_child():
    """sbx.h: the most-visited root child, ties by the higher mean, then the
    earlier child. With random_threshold 0 and C = 0 the tree is built by
    hand: UCB1 tries every untried child first, in random order, so
    iterations 1-3 pair the rows and columns by two random permutations; a
    seed whose pairing is (row i, column i) is looked for (one in six).
    Iteration 4 picks the best mean, an exact tie drawn at random."""
    params = SearchParams(max_depth=1, random_threshold=0, c=0.0)
    diagonal = ([(1, 1.0), (1, 5.0), (1, 5.0)], [(1, 4.0), (1, 2.0), (1, 4.0)])
    seeds_seen = set()
    for seed in range(1, 200):
        with Game("matrix", TIE_TABLE, seed=0) as g, Search(g, params, seed=seed) as s:
            s.run(iterations=3)
            pairing = tuple(tuple((m.visits, m.mean) for m in s.root_stats(a)) for a in (0, 1))
            seeds_seen.add(pairing)
            if pairing == tuple(tuple(x) for x in diagonal):
                break
    else:
        pytest.fail("no seed paired row i with column i")
    assert len(seeds_seen) > 1          # the order really depends on the seed
    with Game("matrix", TIE_TABLE, seed=0) as g, Search(g, params, seed=seed) as s:
        s.run(iterations=3)
        # every child has 1 visit; row means 1, 5, 5 and column means 4, 2, 4
        assert [(m.visits, m.mean) for m in s.root_stats(0)] == [(1, 1.0), (1, 5.0), (1, 5.0)]
        assert [(m.visits, m.mean) for m in s.root_stats(1)] == [(1, 4.0), (1, 2.0), (1, 4.0)]
        # visits tie: the higher mean (row 1 over row 0), then on equal means
        # the earlier child (row 1 over row 2, column 0 over column 2)
        assert s.best_moves() == [1, 0]

        s.run(iterations=1)
        # iteration 4 picks the best mean, an exact tie drawn at random: row
        # 1 or 2 (mean 5), column 0 or 2 (mean 4); only (row 2, column 2)
        # pays anything, a[2][2] = 5 and b[2][2] = 4, so the means stay put
        # there and (r, c) otherwise pays 0
        row = [m.visits for m in s.root_stats(0)].index(2)
        col = [m.visits for m in s.root_stats(1)].index(2)
        assert row in (1, 2) and col in (0, 2)
        paid = (5.0, 4.0) if (row, col) == (2, 2) else (0.0, 0.0)
        assert s.root_stats(0)[row].mean == (5.0 + paid[0]) / 2
        assert s.root_stats(1)[col].mean == ((4.0 + paid[1]) / 2)
        # most visits wins over an equal or higher mean
        assert s.best_moves() == [row, col]


# ------------------------------------------------------------ certain death

def corridor() -> Game:
    """Snake 0's head is at (0, 2), its body runs (1, 2), (1, 1), (1, 0) and
    along the bottom row, so the corridor (0, 1)-(0, 0) is a dead end: moving
    down enters it, and every move from (0, 0) is fatal whatever snake 1
    does. Left (wall) and right (neck) are fatal at once; up is safe.
    Snake 1 is far away."""
    return snakes_position(7, 7, [[(0, 2), (1, 2), (1, 1), (1, 0), (2, 0), (3, 0), (4, 0)],
                                  [(5, 5), (5, 4), (5, 3)]])


def assert_doomed_where_every_child_is_certain_death(snap, min_visits: int) -> int:
    """DOOMED is set on exactly the nodes whose move children are all certain
    death (DOOMED themselves, or died on all of at least min_visits visits).
    The flag is re-judged on every visit, and a child's status only changes
    when it is visited, i.e. when its parent is too: so this holds after
    every iteration (without reuse_decay). The root's flags are not shown.
    Returns how many nodes are DOOMED."""
    rows = np.arange(len(snap))
    move_child = (snap.parent >= 0) & ((snap.flags & FLAG_PASS) == 0)
    parents = snap.parent[move_child]
    kids = np.bincount(parents, minlength=len(snap))
    dead_kids = np.bincount(parents, weights=certain_death(snap, rows[move_child], min_visits),
                            minlength=len(snap))
    want = (kids > 0) & (dead_kids == kids)
    got = (snap.flags & FLAG_DOOMED) != 0
    wrong = np.flatnonzero(want[1:] != got[1:]) + 1      # the root's flags are not shown
    assert wrong.size == 0, [(int(r), int(snap.flags[r]), int(kids[r]), int(dead_kids[r]))
                             for r in wrong[:5]]
    return int(got[1:].sum())


def test_doomed_is_set_on_a_dead_end_and_propagates_up():
    # safe_moves off: the marks are learned by trying the fatal moves
    params = SearchParams(max_depth=6, random_threshold=1_000_000, death_min_visits=3,
                          safe_moves=False)
    with corridor() as g, Search(g, params, seed=1) as s:
        s.run(iterations=3000)
        snap = full_tree(s, 0)
        t = Tree(snap)
        first = {int(snap.move[r]): r for r in t.move_children(0)}
        # left and right: died on every visit (certain death, not DOOMED)
        for m in (LEFT, RIGHT):
            assert snap.flags[first[m]] & (FLAG_DIED | FLAG_SURVIVED) == FLAG_DIED
            assert snap.visits[first[m]] >= 3
        # down to (0, 1) is survived; below it only down to (0, 0) is, and
        # every move from (0, 0) dies: (0, 0) is DOOMED from its children,
        # (0, 1) from a DOOMED child and three fatal ones
        x1 = first[DOWN]
        assert snap.flags[x1] & FLAG_SURVIVED and snap.flags[x1] & FLAG_DOOMED
        second = {int(snap.move[r]): r for r in t.move_children(x1)}
        x2 = second.pop(DOWN)
        assert snap.flags[x2] & FLAG_SURVIVED and snap.flags[x2] & FLAG_DOOMED
        assert all(snap.flags[r] & (FLAG_DIED | FLAG_SURVIVED) == FLAG_DIED
                   for r in list(second.values()) + list(t.move_children(x2)))
        assert not snap.flags[first[UP]] & FLAG_DOOMED
        assert assert_doomed_where_every_child_is_certain_death(snap, 3) >= 2


def contested_exit() -> Game:
    """Snake 0 at (0, 1) heading down: in the corner (0, 0) its only way on
    is right to (1, 0), which the longer snake 1 (head at (2, 1)) can reach
    on the same turn and win head-on. So the corner's 'right' child dies or
    survives depending on snake 1's moves: with death_min_visits = 1 a first
    fatal visit there dooms the corner, a later survival lifts it."""
    return snakes_position(7, 7, [[(0, 1), (0, 2), (0, 3), (0, 4)],
                                  [(2, 1), (2, 2), (2, 3), (3, 3), (4, 3), (5, 3)],
                                  [(5, 6), (6, 6), (6, 5)]])


ALL_RANDOM = 1_000_000
# The certain-death marks are learned by trying fatal moves, which safe_moves
# skips: these cases search as the tutorial does (safe_moves off).
# build, params, seeds, whether DOOMED must be seen set, and lifted again
DOOM_CASES = {
    "corridor_pass": (corridor, SearchParams(max_depth=5, death_min_visits=1,
                                             random_threshold=ALL_RANDOM), (1, 2), True, False),
    "corridor_freeze": (corridor, SearchParams(max_depth=5, elimination="freeze",
                                               random_threshold=ALL_RANDOM), (1, 2), True, False),
    "contested_exit": (contested_exit, SearchParams(max_depth=4, death_min_visits=1, safe_moves=False,
                                                    random_threshold=ALL_RANDOM),
                       (1, 2, 3, 4, 5, 6), True, True),
    "contested_exit_ucb": (contested_exit, SearchParams(max_depth=4, death_min_visits=1, safe_moves=False,
                                                        random_threshold=3),
                           tuple(range(1, 13)), True, True),
    # open positions: nothing may be DOOMED that should not be
    "head_on": (head_on_2p, SearchParams(max_depth=6, death_min_visits=1, random_threshold=20,
                                         death_penalty=True), (1,), False, False),
    "four_freeze": (four_snakes, SearchParams(max_depth=6, death_min_visits=1,
                                              elimination="freeze"), (1,), False, False),
}


@pytest.mark.parametrize("case", sorted(DOOM_CASES))
def test_doomed_is_exactly_all_children_certain_death(case):
    """The invariant over whole trees, after every one of the first 120
    iterations and then after slices; where deaths depend on the other
    agents' moves, a child that died once can survive later, which must
    lift its parent's doom."""
    build, params, seeds, expect_set, expect_lift = DOOM_CASES[case]
    seen = lifted = 0
    for seed in seeds:
        with build() as g, Search(g, params, seed=seed) as s:
            before: set = set()
            for k in range(126):
                s.run(iterations=1 if k < 120 else 300)
                now = set()
                for a in range(g.num_agents):
                    snap = full_tree(s, a)
                    seen += assert_doomed_where_every_child_is_certain_death(
                        snap, params.death_min_visits)
                    now |= {(a, int(n)) for n in snap.node[(snap.flags & FLAG_DOOMED) != 0]}
                lifted += len(before - now)        # node ids are stable until an advance
                before = now
    if expect_set:
        assert seen > 0
    if expect_lift:
        assert lifted > 0


def test_death_penalty_steers_random_picks_away_from_doomed_children():
    """Tutorial §13: with the penalty on, a child of certain death is avoided
    in the random phase too. All picks here are random: with the penalty the
    dead end (DOOMED, though its first step is survived) and the two fatal
    moves keep the few visits that prove them; without it they get their
    random share."""
    params = SearchParams(max_depth=6, random_threshold=1_000_000, death_min_visits=3,
                          safe_moves=False)   # the doomed children must be tried
    visits = {}
    for penalty in (False, True):
        with corridor() as g, Search(g, params.replace(death_penalty=penalty), seed=1) as s:
            s.run(iterations=1500)
            # from here on, every random pick at the root is checked
            avoided = chosen = 0
            for _ in range(300):
                snap = full_tree(s, 0)
                t = Tree(snap)
                kids = t.move_children(0)
                doomed = {int(snap.move[r]) for r, d in zip(kids, certain_death(snap, kids, 3))
                          if d}
                tr = s.step_traced()
                assert tr.picks[0][0] == "random"
                if doomed:
                    chosen += int(tr.moves[0, 0]) in doomed
                    avoided += 1
            assert avoided == 300                   # the dead end and the walls are known
            if penalty:
                assert chosen == 0
            else:
                assert chosen > 300 // 2            # three of the four moves are doomed
            visits[penalty] = {m.move: m.visits for m in s.root_stats(0)}
    assert visits[True][DOWN] * 10 < visits[False][DOWN]
    assert visits[True][UP] > 0.9 * sum(visits[True].values())

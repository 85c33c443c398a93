"""An oracle for Smitsimax selection, written from the tutorial (§6-§7, §12-§13)
and sbx.h, not from smitsimax*.c or the Python reference twin.

Before one traced iteration, every tree is snapshotted whole (visits, float32
means, moves, flags, parents). After it, every pick the trace reports is
recomputed from those PRE-iteration statistics:

- a parent whose visits, counting this one, are below random_threshold picks
  at random ("random"), from then on by UCB1 ("ucb"); the parent's visit
  count was incremented at selection, before its pick (tutorial §7), so the
  count that matters is pre-visits + 1;
- UCB1: any untried child (they are tried in random order), else the argmax of
  (mean - lo) / (hi - lo) + C * sqrt(ln N) / sqrt(n), less
  death_penalty_value for a child of certain death when death_penalty is
  on; ties go to the earlier child;
- random picks avoid children of certain death when the penalty is on and
  some child is not doomed;
- with safe_moves, no pick (random, untried or UCB) is a move the game says
  is fatal in the state the pick was made in (Game.fatal_moves, the trace
  replayed on the root state), unless every move there is: UCB1's untried
  children and argmax are taken among the safe children only.

[lo, hi] is rebuilt from the traces themselves (class Bounds): the running
range of the leaf scores (bounds=leaf), or per depth the range of the
discounted values backed up there (bounds=depth), starting empty where the C
core starts it afresh (a new search, an advance, a change of bounds or
depth_normalize). After each iteration the rebuilt range is checked against
the one the trace reports (depth 1's under bounds=depth).

Snapshot means are float32, so the oracle compares picks, never values, and
skips a pick only where two candidates are within float32 noise of each
other (counted as "ambiguous"; callers assert such skips are rare). Where
the caller knows ties are exact (integer payoffs, gamma 1: equal visits and
equal float32 means mean equal totals), such a tie must go to the earlier
child.
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np

from sandbox.native import Game, Search, SearchParams, TreeSnapshot
from sandbox.native.snapshot import FLAG_DIED, FLAG_DOOMED, FLAG_PASS, FLAG_SURVIVED

F32_EPS = 2.0 ** -24       # relative rounding of a float32 snapshot mean
MAX_DEPTH = 64             # SBX_MAX_DEPTH
# smitsimax_tree.h's table sizes (SQRT_LN_N, RSQRT_N): past them sqrt(ln N) and
# 1/sqrt(n) are computed directly, a path only a long search reaches
SQRT_LN_TABLE = 1 << 18
RSQRT_TABLE = 1 << 16


def full_tree(s: Search, agent: int) -> TreeSnapshot:
    """Every node of agent's tree, zero-visit ones included."""
    return s.snapshot(agent, max_nodes=s.stats().nodes[agent], min_visits=0)


class Tree:
    """A full snapshot indexed by node id."""

    def __init__(self, snap: TreeSnapshot) -> None:
        self.snap = snap
        ids = snap.node.astype(np.int64)
        self.row_of = np.full(int(ids.max()) + 1, -1, dtype=np.int64)
        self.row_of[ids] = np.arange(len(ids))

    def row(self, node_id: int) -> int:
        """Row of node_id, -1 if the node did not exist."""
        return int(self.row_of[node_id]) if node_id < len(self.row_of) else -1

    def move_children(self, row: int) -> np.ndarray:
        """Rows of row's move children (pass child excluded), in move order:
        the children selectChild chooses among."""
        kids = np.flatnonzero(self.snap.parent == row)
        return kids[(self.snap.flags[kids] & FLAG_PASS) == 0]


def certain_death(snap: TreeSnapshot, rows: np.ndarray, min_visits: int) -> np.ndarray:
    """SBX_NODE_DOOMED, or died on every visit so far with at least
    death_min_visits of them (sbx.h: "visits, all fatal, before certain
    death")."""
    f = snap.flags[rows]
    died_only = (f & (FLAG_DIED | FLAG_SURVIVED)) == FLAG_DIED
    return ((f & FLAG_DOOMED) != 0) | (died_only & (snap.visits[rows] >= min_visits))


class Bounds:
    """The score ranges selection normalises by, rebuilt from traces."""

    def __init__(self, num_agents: int) -> None:
        self.n = num_agents
        self.smin = [math.inf] * num_agents
        self.smax = [-math.inf] * num_agents
        self.dmin = [[math.inf] * (MAX_DEPTH + 1) for _ in range(num_agents)]
        self.dmax = [[-math.inf] * (MAX_DEPTH + 1) for _ in range(num_agents)]

    @classmethod
    def from_stats(cls, s: Search) -> "Bounds":
        """bounds=leaf only: the leaf range C reports (after at least one
        iteration since the bounds were last reset, so (0, 0) is a range)."""
        assert s.params.bounds == "leaf"
        b = cls(s.num_agents)
        st = s.stats()
        b.smin, b.smax = list(st.norm_min), list(st.norm_max)
        return b

    def range(self, agent: int, mode: str, depth: int) -> tuple[float, float]:
        """Range for children at `depth` (from the current root)."""
        if mode == "depth":
            return self.dmin[agent][depth], self.dmax[agent][depth]
        return self.smin[agent], self.smax[agent]

    def shown(self, agent: int, mode: str) -> tuple[float, float]:
        """As sbx_trace / sbx_search_stats report it: depth 1's range under
        bounds=depth, (0, 0) before any score."""
        lo, hi = self.range(agent, mode, 1)
        return (lo, hi) if lo <= hi else (0.0, 0.0)

    def record(self, tr, p: SearchParams, alive_at_root: list[bool]) -> None:
        """Add one iteration: its leaf scores and, per depth of its path, the
        discounted value backed up there (tutorial §13: the leaf gets the
        score, each step toward the root multiplies it by gamma; a score
        taken below the path's end, after a rollout, is discounted for those
        turns too; a frozen agent's score is taken when it died)."""
        for a in range(self.n):
            score = float(tr.scores[a])
            self.smin[a] = min(self.smin[a], score)
            self.smax[a] = max(self.smax[a], score)
            leaf_depth = tr.depth
            if p.elimination == "freeze" and alive_at_root[a]:
                dead = np.flatnonzero(~tr.alive_after[a])
                if dead.size:
                    leaf_depth = int(dead[0]) + 1
            path_end = len(tr.paths[a]) - 1          # path[k] sits at depth k
            v = score
            for _ in range(leaf_depth - path_end):
                v *= p.gamma
            for k in range(path_end, -1, -1):
                self.dmin[a][k] = min(self.dmin[a][k], v)
                self.dmax[a][k] = max(self.dmax[a][k], v)
                v *= p.gamma


def ucb_pick(pre: Tree, kids: np.ndarray, parent_visits: int, lo: float, hi: float,
             p: SearchParams, exact_ties: bool, tally: Counter, fatal: int = 0) -> np.ndarray:
    """The row UCB1 must pick among `kids` (pre-iteration rows): one row, or
    the rows float32 noise cannot tell apart (the pick must be one of them).
    `fatal`: the safe_moves mask of the state (0: none, or every move)."""
    snap = pre.snap
    if fatal:
        kids = kids[[not fatal >> int(snap.move[r]) & 1 for r in kids]]
    visits = snap.visits[kids].astype(np.int64)
    unvisited = np.flatnonzero(visits == 0)
    if unvisited.size:
        tally["ucb_unvisited"] += 1
        return kids[unvisited]                       # tried in random order
    scale = hi - lo
    if not scale > 0:
        scale = 1.0
        if not lo <= hi:
            lo = 0.0                                  # no score seen yet
    means = snap.mean[kids].astype(np.float64)
    exploit = (means - lo) / scale
    explore = p.c * math.sqrt(math.log(parent_visits)) / np.sqrt(visits.astype(np.float64))
    penalty = np.zeros(len(kids))
    if p.death_penalty:
        penalty = p.death_penalty_value * certain_death(snap, kids, p.death_min_visits)
    value = exploit + explore - penalty
    best = int(np.argmax(value))                      # argmax: the first of equals
    tol = 8 * F32_EPS * (float(np.abs(means).max()) + abs(lo)) / scale + 1e-12
    near = np.flatnonzero(value >= value[best] - tol)
    if near.size > 1:
        # exactly tied: the same mean, penalty and exploration term (the
        # latter a function of the visits, or 0 for every child if C = 0)
        same = {(float(snap.mean[kids[i]]), float(penalty[i]),
                 int(visits[i]) if p.c > 0 else 0) for i in near}
        if not (exact_ties and len(same) == 1):
            tally["ucb_ambiguous"] += 1
            return kids[near]
        # an exact tie is drawn at random (search.h, sbx_keep_max_fair): any
        # of the tied rows; check_iteration counts how often a later one won
        tally["ucb_exact_tie"] += 1
        return kids[near]
    # How much the check can tell: picks where neither term alone decides.
    if int(np.argmax(exploit - penalty)) != best:
        tally["ucb_explore_mattered"] += 1
    if int(np.argmax(explore - penalty)) != best:
        tally["ucb_exploit_mattered"] += 1
    # the C core takes sqrt(ln N) and 1/sqrt(n) from tables below these
    # sizes and computes them directly above
    if parent_visits >= SQRT_LN_TABLE:
        tally["ucb_parent_past_table"] += 1
    if visits.max() >= RSQRT_TABLE:
        tally["ucb_child_past_table"] += 1
    return kids[best:best + 1]


def fatal_masks(root: Game, tr, p: SearchParams) -> list[list[int]]:
    """Per agent and depth, the mask of fatal moves the pick there had to
    avoid: the trace replayed on the root state (its chance reseeded as the
    iteration's), 0 where safe_moves is off or every move is fatal."""
    n = root.num_agents
    out = [[0] * tr.depth for _ in range(n)]
    if not p.safe_moves:
        return out
    sim = root.clone()
    sim.reseed(tr.sim_seed)
    for d in range(tr.depth):
        for a in range(n):
            legal = sim.legal_moves(a)
            m = sim.fatal_moves(a)
            if legal and all(m >> mv & 1 for mv in legal):
                m = 0
            out[a][d] = m
        sim.step([None if mv < 0 else int(mv) for mv in tr.moves[:, d]])
    sim.close()
    return out


def check_iteration(pre: list[Tree], post: list[Tree], tr, p: SearchParams, bounds: Bounds,
                    tally: Counter, exact_ties: bool = False,
                    fatal: list[list[int]] | None = None) -> None:
    """Assert that every pick of the traced iteration `tr` is the one the
    pre-iteration trees and bounds call for (`fatal`: fatal_masks)."""
    for a in range(len(pre)):
        path = tr.paths[a]
        k = 0                                         # index into path
        for d in range(tr.depth):
            pick = tr.picks[a][d]
            mask = fatal[a][d] if fatal else 0
            if mask and tr.moves[a][d] >= 0:
                assert not mask >> int(tr.moves[a][d]) & 1, \
                    f"agent {a}, depth {d}: {pick} pick of a fatal move"
                tally["safe_checked"] += 1
            if pick in ("none", "rollout"):           # outside the tree
                continue
            parent_id, child_id = path[k], path[k + 1]
            k += 1
            if pick == "pass":
                assert post[a].snap.flags[post[a].row(child_id)] & FLAG_PASS
                continue
            prow = pre[a].row(parent_id)
            parent_visits = (int(pre[a].snap.visits[prow]) if prow >= 0 else 0) + 1
            where = f"agent {a}, depth {d}, parent visits {parent_visits}"
            random_phase = parent_visits < p.random_threshold
            assert pick == ("random" if random_phase else "ucb"), where
            tally[pick] += 1
            if prow < 0 or tr.expanded[a][d]:
                # Expanded on this visit: every child is new and untried, so
                # UCB takes any one of them (at random).
                assert tr.expanded[a][d], where
                if pick == "ucb":
                    fresh = post[a].move_children(post[a].row(parent_id))
                    assert child_id in {int(post[a].snap.node[r]) for r in fresh}, where
                    tally["ucb_fresh"] += 1
                continue
            kids = pre[a].move_children(prow)
            crow = pre[a].row(child_id)
            assert crow in kids, where
            if pick == "random":
                if p.death_penalty:
                    doomed = certain_death(pre[a].snap, kids, p.death_min_visits)
                    safe = np.array([not mask >> int(pre[a].snap.move[r]) & 1 for r in kids])
                    if 0 < (doomed | ~safe).sum() < len(kids) and (~doomed & safe).any():
                        assert not doomed[list(kids).index(crow)], f"{where}: random pick of a doomed child"
                        tally["random_avoided_doomed"] += 1
                continue
            lo, hi = bounds.range(a, p.bounds, k)     # the children's depth
            ties_before = tally["ucb_exact_tie"]
            want = ucb_pick(pre[a], kids, parent_visits, lo, hi, p, exact_ties, tally, mask)
            assert crow in want, (
                f"{where}: C picked move {pre[a].snap.move[crow]}, UCB1 says "
                f"{pre[a].snap.move[want].tolist()} (bounds {lo}..{hi})")
            if len(want) == 1:
                tally[f"ucb_checked_depth_{k}"] += 1
                tally["ucb_checked"] += 1
            elif tally["ucb_exact_tie"] > ties_before and crow != want[0]:
                tally["ucb_tie_to_a_later_child"] += 1


def traced_iterations(s: Search, iterations: int, bounds: Bounds, tally: Counter | None = None,
                      exact_ties: bool = False) -> Counter:
    """Run `iterations` traced iterations, checking each against the oracle
    (and the rebuilt bounds against the ones C reports)."""
    tally = Counter() if tally is None else tally
    p = s.params
    n = s.num_agents
    with s.root_game() as root:
        alive = root.alive
    pre = [Tree(full_tree(s, a)) for a in range(n)]
    root = s.root_game()
    for _ in range(iterations):
        tr = s.step_traced()
        assert tr.stop_reason == "none"
        post = [Tree(full_tree(s, a)) for a in range(n)]
        check_iteration(pre, post, tr, p, bounds, tally, exact_ties, fatal_masks(root, tr, p))
        bounds.record(tr, p, alive)
        for a in range(n):
            assert (tr.norm_min[a], tr.norm_max[a]) == bounds.shown(a, p.bounds), f"agent {a}"
        pre = post
        tally["iterations"] += 1
    root.close()
    return tally

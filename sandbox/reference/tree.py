"""The reference search's trees: Node and Tree (one decoupled tree per agent), the node
flags, pick and stop names, and the selection policies' arithmetic over a node's children
(strategy, avg_weight) and a tree's score bounds (norm_at, norm_values): what
sandbox/reference/smitsimax.py searches with."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from .rng import SplitMix64

MOVE_NONE = 255  # SBX_MOVE_NONE: root and pass nodes, dead agents' action
MAX_DEPTH = 64   # SBX_MAX_DEPTH

# Node flags (SBX_NODE_*).
FLAG_PASS = 1       # pass node of an eliminated agent
FLAG_DIED = 2       # the agent died on this node's move (at least once)
FLAG_SURVIVED = 4   # the agent survived this node's move (at least once)
FLAG_DOOMED = 8     # certain death: every child is certain death

# How a move was chosen, as in sbx_trace.pick (names of sandbox.native).
PICK_NONE, PICK_RANDOM, PICK_UCB, PICK_PASS, PICK_ROLLOUT, PICK_SAMPLE = (
    "none", "random", "ucb", "pass", "rollout", "sample")

SAMPLING = ("exp3", "rm", "rm_plus")   # the rest is the UCB family

def avg_weight(mode: str, policy: str, t: int) -> float:
    """The weight of one selection's distribution in the average strategy
    (smitsimax_sampling.h avg_weight); t is the parent's visit count then."""
    if mode == "auto":
        mode = "sqrt" if policy == "rm_plus" else "uniform"
    return math.sqrt(t) if mode == "sqrt" else float(t) if mode == "linear" else 1.0


def rng_unit(rng: SplitMix64) -> float:
    """A double in [0, 1) from the top 53 bits (smitsimax_tree.h rng_unit)."""
    return (rng.next() >> 11) * (1.0 / 9007199254740992.0)


def norm_at(tree: "Tree", mode: str, depth: int) -> tuple[float, float]:
    """(lo, scale) of values at `depth` with selection's fallbacks (C's
    norm_at): no range yet, scale 1; no score yet, lo 0."""
    lo, hi = tree.norm_range(mode, depth)
    scale = hi - lo
    if not scale > 0.0:
        scale = 1.0
        if not lo <= hi:
            lo = 0.0
    return lo, scale


def norm_values(tree: "Tree", depth: int) -> tuple[float, float]:
    """(lo, scale) of the values backed up at `depth`, for the sampling
    policies' rewards and the power mean (C's norm_values): that depth's own
    range whatever `bounds` says, since discounted values do not live on the
    leaf scores' range."""
    return norm_at(tree, "depth", depth)


def explore_share(p: Any, k: int, visits: int) -> float:
    """The uniform share of a sampling node's distribution (C's
    explore_share): `exploration`, raised to exploration_decay * sqrt(K / n)
    while the node is young (n its visits, at most 1)."""
    g = p.exploration_decay * math.sqrt(float(k) / float(visits if visits else 1))
    if g > 1.0:
        g = 1.0
    return g if g > p.exploration else p.exploration


def strategy(children: Sequence["Node"], gamma_x: float, policy: str) -> list[float]:
    """The un-mixed strategy over the children (C's strategy())."""
    k = len(children)
    if policy == "exp3":
        eta = gamma_x / k
        gmax = children[0].p0
        for c in children[1:]:
            if c.p0 > gmax:
                gmax = c.p0
        w = [math.exp(eta * (c.p0 - gmax)) for c in children]
        total = 0.0
        for x in w:
            total += x
        return [x / total for x in w]
    pos = [c.p0 if c.p0 > 0.0 else 0.0 for c in children]
    total = 0.0
    for x in pos:
        total += x
    if total > 0.0:
        return [x / total for x in pos]
    return [1.0 / k] * k

# Why a run stopped (SBX_STOP_*).
STOP_NONE, STOP_ITERATIONS, STOP_NODE_CAP, STOP_TERMINAL = (
    "none", "iterations", "node_cap", "terminal")


@dataclass
class Node:
    move: int                # MOVE_NONE for the root and pass nodes
    depth: int               # distance from the current root
    visits: int = 0          # incremented when selected (tutorial §7)
    total: float = 0.0       # sum of backed-up, discounted scores
    first_child: int = 0     # 0: not expanded (index 0 is never a child)
    nchildren: int = 0
    pass_child: int = 0      # 0: none
    flags: int = 0
    aux: float = 0.0         # double: ucb1_tuned sum of squares / power value
    p0: float = 0.0          # exp3 reward estimate G, rm regret R (C: side array)
    p1: float = 0.0          # average-strategy sum (exp3, rm) (C: side array)

    def children(self) -> range:
        return range(self.first_child, self.first_child + self.nchildren)

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Tree:
    """One agent's tree plus its running bounds of backed-up leaf scores."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.nodes: list[Node] = [Node(move=MOVE_NONE, depth=0)]
        self.reset_bounds()
        self.depth_reached = 0

    def reset_bounds(self) -> None:
        self.smin = math.inf
        self.smax = -math.inf
        # bounds="depth": per depth, the range of the discounted values added
        # to node totals there
        self.dmin = [math.inf] * (MAX_DEPTH + 1)
        self.dmax = [-math.inf] * (MAX_DEPTH + 1)

    def norm_range(self, mode: str, depth: int) -> tuple[float, float]:
        """The range UCB normalises children at `depth` by (C's norm_range)."""
        if mode == "depth":
            return self.dmin[depth], self.dmax[depth]
        return self.smin, self.smax

    @property
    def used(self) -> int:
        return len(self.nodes)

    def expand(self, idx: int, moves: Sequence[int]) -> None:
        """Append one child per legal move, in move order."""
        parent = self.nodes[idx]
        parent.first_child = len(self.nodes)
        parent.nchildren = len(moves)
        for m in moves:
            self.nodes.append(Node(move=m, depth=parent.depth + 1))

    def pass_child(self, idx: int) -> int:
        """The node's pass child, created on first use."""
        parent = self.nodes[idx]
        if parent.pass_child == 0:
            parent.pass_child = len(self.nodes)
            self.nodes.append(Node(move=MOVE_NONE, depth=parent.depth + 1, flags=FLAG_PASS))
        return parent.pass_child

    def reroot(self, new_root: int, alive: bool, gamma: float, decay: float = 1.0,
               policy: str = "ucb1") -> None:
        """Keep only the subtree under new_root. Kept nodes keep their order,
        so a node's new index is its rank among the kept ones (as C's
        in-place compaction gives). First the branch the real game ruled out
        is dropped: the pass child if the agent is alive at the new root, the
        move children if it is dead. Then every kept node but the root is
        scaled by `decay` (visits rounded down, totals by the same factor as
        the visits, so means stay), and the new root's visits and total are
        derived from its kept children (simulations that ended at it did not
        happen in the real game)."""
        nr = self.nodes[new_root]
        if alive and nr.pass_child:
            nr.pass_child = 0
        elif not alive and nr.nchildren:
            nr.first_child = 0
            nr.nchildren = 0
        keep = {new_root}
        for i in range(new_root, len(self.nodes)):  # parents come before children
            if i in keep:
                nd = self.nodes[i]
                keep.update(nd.children())
                if nd.pass_child:
                    keep.add(nd.pass_child)
        kept = sorted(keep)
        new_index = {old: new for new, old in enumerate(kept)}
        nodes = []
        for old in kept:
            nd = self.nodes[old]
            nodes.append(Node(
                move=nd.move, depth=nd.depth - 1, visits=nd.visits, total=nd.total,
                first_child=new_index[nd.first_child] if nd.first_child else 0,
                nchildren=nd.nchildren,
                pass_child=new_index[nd.pass_child] if nd.pass_child else 0,
                flags=nd.flags, aux=nd.aux, p0=nd.p0, p1=nd.p1))
        if decay < 1.0:
            # the policies' sums: tuned's like the total, exp3/rm's by decay
            for nd in nodes[1:]:
                v = int(nd.visits * decay)
                f = v / nd.visits if v else 0.0
                nd.total = nd.total * f if v else 0.0
                if policy == "ucb1_tuned":
                    nd.aux = nd.aux * f if v else 0.0
                if policy in SAMPLING:
                    nd.p0 = nd.p0 * decay
                    nd.p1 = nd.p1 * decay
                nd.visits = v
        root = nodes[0]
        visits, total = 0, 0.0
        for c in root.children():
            visits += nodes[c].visits
            total += nodes[c].total
        if root.pass_child:
            visits += nodes[root.pass_child].visits
            total += nodes[root.pass_child].total
        root.visits = visits
        root.total = gamma * total
        root.move = MOVE_NONE  # a root is nobody's move
        root.flags = 0
        root.p0 = root.p1 = root.aux = 0.0  # a root is nobody's child (C zeroes its 8 bytes)
        self.nodes = nodes
        self.depth_reached = 0

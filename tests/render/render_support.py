"""Helpers for the tree-view tests: snapshots built by hand (exact numbers
to check against)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from sandbox.games.snakes.view import MOVE_NAMES
from sandbox.native.snapshot import SNAPSHOT_DTYPE, TreeSnapshot


def move_name(m: int) -> str:
    return MOVE_NAMES[m] if 0 <= m < 4 else "pass"


def make_snapshot(nodes: Sequence[tuple], norm: tuple[float, float] = (0.0, 1.0),
                  hidden: dict[int, int] | None = None, tree_nodes: int | None = None,
                  agent: int = 0) -> TreeSnapshot:
    """Rows from (parent, visits, mean, move, flags[, mover[, joint]]) tuples
    in breadth-first order (row 0 = root, parent -1). prob = visits / the
    parent's child visits, where `hidden[parent]` adds visits of children not
    shown. mover: whose move the row is (default `agent`; the root -1);
    joint: each agent's move at a joint-action node (default none: 255s)."""
    hidden = hidden or {}
    rows = np.zeros(len(nodes), dtype=SNAPSHOT_DTYPE)
    kid_visits: dict[int, int] = {}
    for p, v, *_ in nodes:
        if p >= 0:
            kid_visits[p] = kid_visits.get(p, 0) + v
    for i, (p, v, mean, move, flags, *extra) in enumerate(nodes):
        total = kid_visits.get(p, 0) + hidden.get(p, 0)
        mover = extra[0] if extra else (-1 if p < 0 else agent)
        joint = tuple(extra[1]) + (255,) * (8 - len(extra[1])) if len(extra) > 1 else (255,) * 8
        rows[i] = (i, p, v, mean, v / total if p >= 0 and total else 1.0,
                   0 if p < 0 else rows[p]["depth"] + 1, move, flags, mover, joint, 0.0)
    rows.flags.writeable = False
    return TreeSnapshot(agent=agent, rows=rows, norm_min=norm[0], norm_max=norm[1],
                        tree_nodes=tree_nodes or len(nodes))


# A small exact tree: root 100 -> up 50 (-> up 25, down 25), down 30 (-> left 30),
# left 20 (a doomed leaf). Means in [0, 1].
SMALL = [
    (-1, 100, 0.5, 255, 0),
    (0, 50, 0.9, 0, 4),
    (0, 30, 0.4, 1, 4),
    (0, 20, 0.1, 2, 2 | 8),
    (1, 25, 0.95, 0, 4),
    (1, 25, 0.85, 1, 4),
    (2, 30, 0.4, 2, 4),
]




# Sequential UCT over two snakes, agent 0 serialised first: depth 1 is agent
# 0's move, depth 2 agent 1's reply (which sees agent 0's move: the leak),
# depth 3 agent 0 again.
SUCT = [
    (-1, 100, 0.5, 255, 0, -1),
    (0, 60, 0.8, 0, 0, 0),            # A0 up
    (0, 40, 0.3, 1, 0, 0),            # A0 down
    (1, 35, 0.7, 2, 0, 1),            # A1 left after A0 up
    (1, 25, 0.4, 3, 0, 1),            # A1 right after A0 up
    (2, 40, 0.2, 2, 0, 1),            # A1 left after A0 down
    (3, 20, 0.9, 0, 0, 0),            # A0 up again
    (3, 15, 0.6, 1, 0, 0),
]

# Joint-action MCTS over two snakes: each child is a joint action (the
# snapshot's mover is -1 below the root too).
JOINT = [
    (-1, 90, 0.5, 255, 0, -1),
    (0, 40, 0.8, 255, 0, -1, (0, 2)),     # up/left
    (0, 30, 0.5, 255, 0, -1, (0, 3)),     # up/right
    (0, 20, 0.2, 255, 0, -1, (1, 2)),     # down/left
    (1, 25, 0.9, 255, 0, -1, (0, 0)),     # up/up
    (1, 15, 0.6, 255, 0, -1, (3, 255)),   # right/(agent 1 out)
]

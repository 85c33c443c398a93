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
    """Rows from (parent, visits, mean, move, flags) tuples in breadth-first
    order (row 0 = root, parent -1). prob = visits / the parent's child
    visits, where `hidden[parent]` adds visits of children not shown."""
    hidden = hidden or {}
    rows = np.zeros(len(nodes), dtype=SNAPSHOT_DTYPE)
    kid_visits: dict[int, int] = {}
    for p, v, *_ in nodes:
        if p >= 0:
            kid_visits[p] = kid_visits.get(p, 0) + v
    for i, (p, v, mean, move, flags) in enumerate(nodes):
        total = kid_visits.get(p, 0) + hidden.get(p, 0)
        rows[i] = (i, p, v, mean, v / total if p >= 0 and total else 1.0,
                   0 if p < 0 else rows[p]["depth"] + 1, move, flags,
                   -1 if p < 0 else agent, (255,) * 8)
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



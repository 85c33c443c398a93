"""TreeSnapshot: the top of one agent's tree as numpy columns.

Rows mirror C's `sbx_snapshot_node` (a numpy structured dtype with the same
layout, filled by C without copying): parents come before children, siblings
in move order, row 0 is the root with parent -1.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SNAPSHOT_DTYPE = np.dtype(
    [("node", np.int32), ("parent", np.int32), ("visits", np.int32),
     ("mean", np.float32), ("prob", np.float32), ("depth", np.int16),
     ("move", np.uint8), ("flags", np.uint8), ("agent", np.int8),
     ("joint", np.uint8, (8,)), ("prior", np.float32)],
    align=True,
)

FLAG_PASS = 1
FLAG_DIED = 2
FLAG_SURVIVED = 4
FLAG_DOOMED = 8
FLAG_TRUNCATED = 16
FLAG_SHARED = 32       # MCGS: the node has more than one parent in the graph
FLAG_PRIOR = 64        # `prior` holds the search's prior of the node's move
                       # (priors = heuristic or net; joint-action rows: the
                       # joint action's, the product of the players' priors)
MOVE_NONE = 255


@dataclass(frozen=True)
class TreeSnapshot:
    agent: int
    rows: np.ndarray            # SNAPSHOT_DTYPE, read-only
    norm_min: float             # the agent's score bounds when taken
    norm_max: float
    tree_nodes: int             # nodes in the whole tree
    # A graph's (MCGS's) other parents: [k, 2] int32 (parent row, child row)
    # for every visited edge into a row that is not its row's parent (a node
    # reached from two parents is one row). Empty for trees.
    links: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int32))
    # each link's joint action, [k, 2] uint8 (player 0's move, player 1's):
    # a link's child row carries its FIRST parent's joint in `joint`, not
    # this edge's. Empty when not asked for (then a walk along a link has
    # no joint: tree_layout.line_joints)
    link_joints: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.uint8))
    # The move path from the search's root to row 0 (Search.find_path's
    # steps): () for a root snapshot; None for a subtree asked by node id.
    top_path: tuple | None = ()

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def node(self) -> np.ndarray:
        return self.rows["node"]

    @property
    def parent(self) -> np.ndarray:
        return self.rows["parent"]

    @property
    def move(self) -> np.ndarray:
        return self.rows["move"]

    @property
    def depth(self) -> np.ndarray:
        return self.rows["depth"]

    @property
    def visits(self) -> np.ndarray:
        return self.rows["visits"]

    @property
    def mean(self) -> np.ndarray:
        return self.rows["mean"]

    @property
    def prob(self) -> np.ndarray:
        return self.rows["prob"]

    @property
    def mover(self) -> np.ndarray:
        """Whose move each row is (-1: the root, or every agent's: joint)."""
        return self.rows["agent"]

    @property
    def joint(self) -> np.ndarray:
        """[rows, 8] each agent's move at a joint-action node (255 = none)."""
        return self.rows["joint"]

    @property
    def flags(self) -> np.ndarray:
        return self.rows["flags"]

    def normalized_mean(self) -> np.ndarray:
        """Means mapped to [0, 1] by the agent's running score bounds (the
        exploitation term of UCB1)."""
        span = self.norm_max - self.norm_min
        if not span > 0:
            return np.full(len(self.rows), 0.5, dtype=np.float64)
        return np.clip((self.mean.astype(np.float64) - self.norm_min) / span, 0.0, 1.0)

    def parents_of(self, row: int) -> list[int]:
        """Every row with an edge into `row`: its snapshot parent first,
        then the graph's other parents (links)."""
        first = [int(self.parent[row])] if self.parent[row] >= 0 else []
        return first + [int(p) for p in self.links[self.links[:, 1] == row, 0]]

    def children(self, row: int) -> np.ndarray:
        return np.flatnonzero(self.parent == row)

    def path_to(self, row: int) -> list[int]:
        """Rows from the root down to `row`."""
        out = [row]
        while self.parent[out[-1]] >= 0:
            out.append(int(self.parent[out[-1]]))
        return out[::-1]

    def best_line(self) -> list[int]:
        """Rows of the most-visited child at each level, from the root."""
        line, row = [0], 0
        while True:
            kids = self.children(row)
            if kids.size == 0:
                return line
            row = int(kids[np.argmax(self.visits[kids])])
            line.append(row)

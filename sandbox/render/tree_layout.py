"""Layout maths for the tree views: numpy only, no pygame, never mutates input.

A TreeSnapshot's rows are breadth-first (parents before children, so each
depth is one contiguous block) with siblings contiguous in move order. Within
a depth block the rows are therefore already sorted left to right, which lets
the icicle layout run one vectorised step per depth and lets the rasteriser
treat a whole tree as one sorted list of intervals.

    x0, w = icicle_layout(snap)             # unit coordinates, root = [0, 1)
    x, y  = nodelink_layout(snap)           # tidy tree, unit coordinates
    ucb_value(mean, visits, parent_visits, lo, hi, c)   # as the C core scores it
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..native.snapshot import FLAG_DIED, FLAG_DOOMED, FLAG_SURVIVED

if TYPE_CHECKING:
    from ..native.snapshot import TreeSnapshot


def level_starts(depth: np.ndarray) -> np.ndarray:
    """Row index where each depth block starts, plus len(depth) at the end."""
    n = len(depth)
    if n == 0:
        return np.zeros(1, dtype=np.intp)
    cuts = np.flatnonzero(np.diff(depth)) + 1
    return np.concatenate(([0], cuts, [n])).astype(np.intp)


def icicle_layout(snap: "TreeSnapshot") -> tuple[np.ndarray, np.ndarray]:
    """(x0, width) per row in unit coordinates (float64).

    A node is `prob` (its share of the parent's child visits) of its parent's
    width, placed after its earlier siblings: x0 = parent x0 + exclusive
    cumsum of sibling widths. Visible children of a truncated node do not
    fill the parent: the rest is the hidden children's share.
    """
    n = len(snap.rows)
    x0 = np.zeros(n, dtype=np.float64)
    w = np.zeros(n, dtype=np.float64)
    if n == 0:
        return x0, w
    parent = snap.parent
    prob = snap.prob.astype(np.float64)
    starts = level_starts(snap.depth)
    levels = list(zip(starts[1:-1], starts[2:]))
    w[0] = 1.0
    for s, e in levels:                       # widths: one product per depth
        w[s:e] = prob[s:e] * w[parent[s:e]]
    # Offset inside the parent = exclusive cumsum of earlier siblings' widths.
    # Sibling groups are contiguous runs of equal parent, so one global
    # cumsum minus its value at each group's start does every group at once.
    first = np.ones(n, dtype=bool)
    np.not_equal(parent[1:], parent[:-1], out=first[1:])
    excl = np.cumsum(w) - w
    off = excl - np.maximum.accumulate(np.where(first, excl, 0.0))
    for s, e in levels:
        x0[s:e] = x0[parent[s:e]] + off[s:e]
    return x0, w


def subtree_leaves(parent: np.ndarray) -> np.ndarray:
    """Leaves under each row (1 for a leaf), bottom-up over BFS rows."""
    P = parent.tolist()
    n = len(P)
    has_kids = [False] * n
    for p in P[1:]:
        has_kids[p] = True
    leaves = [0 if k else 1 for k in has_kids]
    for i in range(n - 1, 0, -1):  # children after parents: one reverse pass
        leaves[P[i]] += leaves[i]
    return np.array(leaves, dtype=np.int64)


def nodelink_layout(snap: "TreeSnapshot") -> tuple[np.ndarray, np.ndarray]:
    """(x, level) per row: a tidy top-down tree. Every leaf gets one equal
    slot in move order; a parent is centred over its first and last child.
    Meant for small trees (a few hundred rows: plain Python loops)."""
    n = len(snap.rows)
    if n == 0:
        return np.zeros(0), np.zeros(0)
    P = snap.parent.tolist()
    leaves = subtree_leaves(snap.parent).tolist()
    start = [0] * n
    cursor = [0] * n                      # next free slot inside each parent
    first = [-1] * n
    last = [-1] * n
    for i in range(1, n):
        p = P[i]
        start[i] = start[p] + cursor[p]
        cursor[p] += leaves[i]
        if first[p] < 0:
            first[p] = i
        last[p] = i
    x = [s + lv / 2.0 for s, lv in zip(start, leaves)]
    for i in range(n - 1, -1, -1):       # centre parents over their children
        if first[i] >= 0:
            x[i] = (x[first[i]] + x[last[i]]) / 2.0
    total = max(leaves[0], 1)
    level = (snap.depth - snap.depth[0]).astype(np.float64)
    return np.array(x) / total, level


def is_doomed(flags: int, visits: int, death_min_visits: int) -> bool:
    """The C core's is_doomed(): flagged certain death, or died on every one
    of at least death_min_visits visits."""
    return bool(flags & FLAG_DOOMED) or (
        (flags & (FLAG_DIED | FLAG_SURVIVED)) == FLAG_DIED and visits >= death_min_visits)


def ucb_terms(mean: float, visits: int, parent_visits: int, norm_min: float,
              norm_max: float, c: float) -> tuple[float, float]:
    """(exploitation, exploration) of UCB1 exactly as smitsimax_iterate.c select_ucb
    computes them: (mean - lo) / scale and c * sqrt(ln N) / sqrt(n)."""
    lo, scale = norm_min, norm_max - norm_min
    if not scale > 0:
        scale = 1.0
        if not norm_min <= norm_max:
            lo = 0.0
    explore = c * math.sqrt(math.log(parent_visits)) if parent_visits > 1 else 0.0
    return (mean - lo) / scale, explore / math.sqrt(visits)


def ucb_value(mean: float, visits: int, parent_visits: int, norm_min: float,
              norm_max: float, c: float, penalty: float = 0.0) -> float:
    """A child's UCB1 value under exploration constant `c`; +inf while the
    child is unvisited (the C core picks those first). `penalty` is the death
    penalty when it applies."""
    if visits <= 0:
        return math.inf
    exploit, explore = ucb_terms(mean, visits, parent_visits, norm_min, norm_max, c)
    return exploit + explore - penalty


def compact_count(v: int) -> str:
    """19713 -> '19.7k': short visit labels for narrow nodes."""
    v = int(v)
    if v < 1000:
        return str(v)
    for div, suffix in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if v >= div:
            q = v / div
            return f"{q:.1f}{suffix}" if q < 10 else f"{q:.0f}{suffix}"
    return str(v)


def rasterize_intervals(level: np.ndarray, x0: np.ndarray, x1: np.ndarray,
                        channels: np.ndarray, nlev: int, width: int) -> np.ndarray:
    """Area-weighted sums of per-interval channels over pixel columns.

    Intervals (sorted by level, then x; disjoint within a level) cover pixel
    columns [0, width) of their level; `channels` is (k, intervals). Returns
    (k, nlev, width): for each column the integral of each channel over the
    column, so a 0.3 px node adds 0.3 of its colour and dust merges into its
    column's visit-weighted average instead of vanishing or flickering. The
    integral is piecewise linear in x, so one searchsorted over the whole
    tree evaluates it at every column edge; no per-node Python.
    """
    k = channels.shape[0]
    m = len(x0)
    if m == 0 or width <= 0 or nlev <= 0:
        return np.zeros((k, max(nlev, 0), max(width, 0)))
    span = float(width + 2)                  # keeps levels apart on one axis
    off = level * span
    a = np.clip(x0, 0.0, width) + off
    np.maximum.accumulate(a, out=a)          # float noise must not unsort it
    w = np.maximum(np.clip(x1, 0.0, width) + off - a, 0.0)
    mass = channels * w
    before = np.cumsum(mass, axis=1)
    before -= mass
    # F(g) = mass of intervals left of g = before[j] + channel[j] * (part of
    # interval j left of g), j = the last interval starting at or before g.
    grid = (np.arange(nlev)[:, None] * span + np.arange(width + 1)[None, :]).ravel()
    j = np.searchsorted(a, grid, side="right") - 1
    jj = np.maximum(j, 0)
    part = np.clip(grid - a[jj], 0.0, w[jj])
    part[j < 0] = 0.0
    val = np.take(before, jj, axis=1)
    val += np.take(channels, jj, axis=1) * part
    return np.diff(val.reshape(k, nlev, width + 1), axis=2)


def rows_for_path(node_ids: Sequence[int], id_to_row: dict[int, int]) -> tuple[list[int], int]:
    """Rows of the leading part of a node-id path that the snapshot shows,
    and how many deeper path nodes it does not show."""
    rows: list[int] = []
    for i, nid in enumerate(node_ids):
        r = id_to_row.get(int(nid))
        if r is None:
            return rows, len(node_ids) - i
        rows.append(r)
    return rows, 0


# -- trees of every algorithm ---------------------------------------------------
# Smitsimax keeps one tree per agent (every row is that agent's move); SUCT
# keeps ONE tree whose rows are the agents' moves in the serialised order
# (TreeSnapshot.mover); joint-action MCTS keeps one tree whose children are
# joint actions (TreeSnapshot.joint, 255 = no move for that agent).
NO_MOVE = 255


def tree_kind(snap: "TreeSnapshot") -> str:
    """'joint' if any row holds a joint action, 'sequential' if the rows
    below the root belong to more than one agent, else 'agent'."""
    if len(snap.rows) <= 1:
        return "agent"
    joint = snap.joint[1:]
    if (joint != NO_MOVE).any():
        return "joint"
    movers = snap.mover[1:]
    movers = movers[movers >= 0]
    return "sequential" if len(np.unique(movers)) > 1 else "agent"


def level_movers(snap: "TreeSnapshot") -> list[int]:
    """Per depth level from the root: the agent whose move that level is
    (-1: the root, or a level of several agents' moves, e.g. joint)."""
    starts = level_starts(snap.depth)
    mover = snap.mover
    out = []
    for s, e in zip(starts[:-1], starts[1:]):
        m = np.unique(mover[s:e])
        out.append(int(m[0]) if len(m) == 1 else -1)
    return out


def joint_label(joint_row: Sequence[int], move_names: Sequence) -> str:
    """'up/left': each agent's move at a joint-action node, in agent order,
    skipping agents without one (255); `move_names[a]` names agent a's."""
    parts = []
    for a, m in enumerate(joint_row):
        m = int(m)
        if m == NO_MOVE or a >= len(move_names):
            continue
        parts.append(move_names[a](m))
    return "/".join(parts) if parts else "pass"


def mover_shades(mover: np.ndarray, norm: np.ndarray, colors: Sequence[Sequence[int]],
                 root_rgb: Sequence[float], dark: Sequence[int] = (24, 26, 32),
                 lo: float = 0.3) -> np.ndarray:
    """(rows, 3) float colours: the mover's colour, its brightness by the
    normalised mean (lo .. 1 of the way from `dark`), so the hue says whose
    move a node is and the shade how good it looked. Rows of no single mover
    (-1) get `root_rgb`."""
    n = len(mover)
    out = np.empty((n, 3), dtype=np.float64)
    out[:] = np.asarray(root_rgb, dtype=np.float64)
    if not len(colors):
        return out
    pal = np.asarray(colors, dtype=np.float64)
    d = np.asarray(dark, dtype=np.float64)
    ok = (mover >= 0) & (mover < len(pal))
    t = lo + (1.0 - lo) * np.clip(norm[ok], 0.0, 1.0)
    out[ok] = d + (pal[mover[ok]] - d) * t[:, None]
    return out


# -- graphs (MCGS) ------------------------------------------------------------------
# An MCGS snapshot lists each graph node once: its row's parent is the first
# parent met breadth-first, and TreeSnapshot.links holds the other parents
# ([k, 2] (parent row, child row)). The layouts above draw the first-parent
# tree; the node-link view adds the links as extra edges.

def graph_children(snap: "TreeSnapshot") -> list[list[int]]:
    """Per row, every row it has an edge into: its tree children (rows whose
    parent it is) and the children it reaches through a link."""
    n = len(snap.rows)
    out: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(snap.parent.tolist()):
        if p >= 0:
            out[p].append(i)
    for p, c in snap.links.tolist():
        if 0 <= p < n and 0 <= c < n and c not in out[p]:
            out[p].append(c)
    return out


def principal_variation(snap: "TreeSnapshot") -> list[int]:
    """Rows of the most-visited path from the root, following every edge a
    graph has (tree children and links): at each node the child with the
    most visits (ties: the lower row, as best_line). For a tree this is
    TreeSnapshot.best_line. Stops at a node it has already met (a graph
    without cycles never does; a guard all the same)."""
    if len(snap.rows) == 0:
        return []
    if len(snap.links) == 0:    # a tree: the numpy walk, ~50x faster than the lists
        return snap.best_line()
    kids = graph_children(snap)
    visits = snap.visits.tolist()
    line, row, seen = [0], 0, {0}
    while kids[row]:
        best = max(kids[row], key=lambda r: (visits[r], -r))
        if best in seen:
            break
        line.append(best)
        seen.add(best)
        row = best
    return line


def line_joints(snap: "TreeSnapshot", rows: Sequence[int]) -> list[np.ndarray | None]:
    """The joint action of each step of a line below the root: a row's own
    `joint` when the step comes from its snapshot parent, the link's joint
    (TreeSnapshot.link_joints) when it comes through a link (a graph node
    reached from two parents carries only its first parent's joint; the
    other parents reach it by other joint actions). None for a step that
    is neither (a link without its joint)."""
    out: list[np.ndarray | None] = []
    lj = snap.link_joints
    for prev, r in zip(rows[:-1], rows[1:]):
        if int(snap.parent[r]) == prev:
            out.append(snap.joint[r])
            continue
        hit = np.flatnonzero((snap.links[:, 0] == prev) & (snap.links[:, 1] == r)) \
            if len(snap.links) else []
        if len(hit) and len(lj) == len(snap.links):
            j = np.full(len(snap.joint[r]), NO_MOVE, dtype=np.uint8)
            j[:2] = lj[int(hit[0])]
            out.append(j)
        else:
            out.append(None)
    return out


def line_moves(snap: "TreeSnapshot", rows: Sequence[int], agent: int) -> list[int]:
    """`agent`'s move at each step of a line below the root (joint rows: its
    part of the step's joint action, through links too; -1 where it has
    none)."""
    out = []
    for r, j in zip(rows[1:], line_joints(snap, rows)):
        if j is None:
            out.append(-1)
            continue
        m = int(j[agent]) if (j != NO_MOVE).any() else int(snap.move[r])
        out.append(-1 if m == NO_MOVE else m)
    return out

"""TreeView: one agent's live search tree, drawn as an icicle or a node-link tree.

    view = TreeView(agent=0, color=agent_color(0), move_name=lambda m: MOVE_NAMES[m])
    view.update(snapshot, params)        # 10-20x/s from the controller: just stores it
    view.prepare(rect)                   # optional: do the heavy re-render now
    view.draw(surface, rect)             # every frame: a blit plus a few outlines
    info = view.hover(mouse_pos)         # NodeInfo | None; view.draw_tooltip(surface, pos, info)

The tree is rendered into a cached Surface, re-rendered only when the snapshot
object, the size or the layout changes (`render_count` counts re-renders).
Hover, the pinned selection and the step-mode highlight are a handful of
outlines drawn over the blit each frame, so moving the mouse never re-renders.

Icicle: row = depth, width = share of the parent's child visits, colour =
normalised mean. Sub-pixel nodes are not dropped: each pixel column shows the
visit-weighted average colour of the dust in it (tree_layout.rasterize_intervals),
so the picture is stable from 10 nodes to the snapshot cap. The part of a
truncated node's width that its shown children do not fill is its hidden
children's share, drawn dotted.

Every algorithm's tree (tree_layout.tree_kind): a Smitsimax tree is one
agent's moves; a Sequential-UCT tree interleaves the agents' moves row by
row, so each depth row is labelled with its player (a gutter of name and
colour) and nodes take the mover's colour, shaded by their mean; a
joint-action tree's children are labelled with the joint action ("up/left").
Give the view every agent's colour, name and move names for those
(`agent_colors`, `agent_names`, `move_names`).

The view is in parts: tree_view.py (TreeView: its state, the snapshot in, the render
cache), tree_geometry.py (where rows are), tree_draw.py (drawing), tree_interact.py (the
mouse and the explorer), tree_common.py (colours, sizes, NodeInfo, primitives).
"""
from __future__ import annotations

import os
from typing import Callable, Sequence

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..native.params import SearchParams  # noqa: E402
from ..native.snapshot import MOVE_NONE, TreeSnapshot
from . import palette
from .tree_explore import row_at_path, subtree
from .tree_layout import NO_MOVE, joint_label, mover_shades, principal_variation, tree_kind
from .tree_common import (BACKPROP, BEST_LINE, DOOMED_STRIPE, HIDDEN_DOT, HOVER, KEEP_SNAPSHOTS,
                          LINK, MODES, NODELINK_MAX_ROWS, NODELINK_RETURN_ROWS, NodeInfo, PASS_FILL,
                          PASS_STRIPE, SELECTED, SELECT_PATH, SHARED, _LUT, default_move_name)
from .tree_draw import TreeDrawing
from .tree_geometry import TreeGeometry
from .tree_interact import TreeInteraction

__all__ = ["TreeView", "NodeInfo", "MODES", "BACKPROP", "BEST_LINE", "DOOMED_STRIPE", "HIDDEN_DOT",
           "LINK", "PASS_FILL", "PASS_STRIPE", "SELECT_PATH", "SHARED", "default_move_name"]


class TreeView(TreeDrawing, TreeInteraction, TreeGeometry):
    def __init__(self, agent: int, color: tuple[int, int, int] | None = None,
                 move_name: Callable[[int], str] | None = None, mode: str = "auto",
                 agent_colors: Sequence[tuple[int, int, int]] | None = None,
                 agent_names: Sequence[str] | None = None,
                 move_names: Sequence[Callable[[int], str]] | None = None) -> None:
        self.agent = int(agent)
        self.color = tuple(color) if color else palette.agent_color(agent)
        self._move_name = move_name or default_move_name
        # Every agent's colour, name and move names: a SUCT or joint-action
        # tree shows other agents' moves too.
        self.agent_colors = [tuple(c) for c in agent_colors] if agent_colors else []
        self.agent_names = list(agent_names) if agent_names else []
        self.move_names = list(move_names) if move_names else []
        self.title: str | None = None    # header text (default "Agent N")
        # The selection policy in force when it samples (e.g. "Exp3"): the
        # tooltip then shows no UCB value, which that search does not use.
        self.sampling_policy = ""
        # A search without score bounds (MCGS: its Q is in the game's own
        # units): shade the means by the range of the rows shown instead.
        self.range_from_rows = False
        # The value net's reading of a node, for the tooltip: (snapshot, row)
        # -> the tree's agent's value at the node's state, or None. Set by
        # the arena for a search that reads a net (None: no such line).
        self.net_value: Callable[[TreeSnapshot, int], float | None] | None = None
        self._mode = "auto"
        self.mode = mode
        self.snapshot: TreeSnapshot | None = None
        self.params: SearchParams = SearchParams()
        self.render_count = 0            # heavy re-renders so far (tests, profiling)
        self.last_render_ms = 0.0
        self._layout = "icicle"
        self._layout_now = "icicle"
        self._surf: pygame.Surface | None = None
        self._rendered: tuple | None = None   # (snapshot object, size, layout)
        self._rect = pygame.Rect(0, 0, 0, 0)
        self._g: dict | None = None           # geometry of the last render
        self._id_to_row: dict[int, int] | None = None
        self._hover_pos: tuple[int, int] | None = None
        self._hover: NodeInfo | None = None
        self._hover_snap: TreeSnapshot | None = None
        self._pinned: tuple[int, tuple[int, ...]] | None = None  # node id, move path
        self._highlight: tuple[tuple[int, ...], str, float] | None = None
        # The explorer. `source` is the snapshot given to update(); the view
        # shows `snapshot`, the subtree under the focus: the last of the
        # breadcrumbs, each a move path from the search's root (() = root).
        self.source: TreeSnapshot | None = None
        self._crumbs: list[tuple] = [()]
        self._crumb_names: list[str] = ["root"]
        # each crumb's (x0, width) in its parent crumb's icicle units: where
        # zooming out past x1 continues in the parent (None: unknown)
        self._crumb_spans: list[tuple[float, float] | None] = [None]
        self._crumb_rects: list[tuple[int, pygame.Rect]] = []
        self._by_top: dict[tuple, TreeSnapshot] = {}   # recent snapshots by top_path
        self._focus_key: tuple | None = None     # (source, focus) shown now
        self.zoom = 1.0                          # horizontal magnification
        self.view_x = 0.0                        # unit x at the panel's left edge
        self.scroll_y = 0.0                      # pixels scrolled down (deep levels)
        self._unit: tuple | None = None          # (snapshot, x0, width) layout cache
        self._facts_of: TreeSnapshot | None = None   # _memo: whose facts these are
        self._facts: dict = {}

    # -- data in ---------------------------------------------------------------
    def update(self, snapshot: TreeSnapshot | None, params: SearchParams | None = None) -> None:
        """New data (cheap: stores it; the next prepare/draw re-renders)."""
        self.source = snapshot
        if snapshot is not None and snapshot.top_path is not None:
            if snapshot.top_path == ():     # a whole tree: older pieces are stale
                self._by_top.clear()
            self._by_top.pop(snapshot.top_path, None)
            self._by_top[snapshot.top_path] = snapshot
            while len(self._by_top) > KEEP_SNAPSHOTS:
                self._by_top.pop(next(iter(self._by_top)))
        self._refocus()
        if params is not None and params is not self.params:
            self.params = params
            # The hovered node's UCB depends on C: refresh it now unless a
            # re-render (new snapshot) will do it anyway.
            if self._hover_pos is not None and self._hover_snap is self.snapshot:
                self._hover = self.node_at(self._hover_pos)

    # -- explorer: focus (re-root), zoom, pan, find, export ----------------------
    def _refocus(self) -> None:
        """Show the subtree under the focus: a snapshot that is that subtree
        (a live search asked for it by path), else one cut in numpy from
        the newest snapshot that holds it (the source, or one kept from
        before: zooming back out shows the parent at once, while the live
        search is asked for it). A focus the source's branch no longer has
        (the tree moved on after a real move) falls back to the nearest
        crumb it has; one it merely does not cover yet waits, the last
        picture kept."""
        src = self.source
        key = (id(src), tuple(self._crumbs))   # identity: snapshots hold arrays
        if key == self._focus_key and (src is None) == (self.snapshot is None):
            return
        shown = src
        while src is not None:
            focus = self._crumbs[-1]
            found = None
            for cand in [src] + list(reversed(self._by_top.values())):
                base = cand.top_path
                if base is None or focus[:len(base)] != base:
                    continue
                if base == focus:
                    found = cand
                    break
                row = row_at_path(cand, focus[len(base):])
                if row is not None:
                    found = subtree(cand, row, focus)
                    break
            if found is not None:
                shown = found
                break
            base = src.top_path
            if len(self._crumbs) == 1:
                break
            if base is None or focus[:len(base)] != base:
                # not this snapshot's branch (going back up): keep the picture
                shown = self.snapshot if self.snapshot is not None else src
                break
            self._crumbs.pop()
            self._crumb_names.pop()
            self._crumb_spans.pop()
            self.reset_zoom()
        self._focus_key = (id(src), tuple(self._crumbs))
        if shown is not self.snapshot:
            self.snapshot = shown
            self._id_to_row = None

    @property
    def focus_path(self) -> tuple:
        """The move path from the search's root to the view's root (())."""
        return self._crumbs[-1]

    @property
    def focus_depth(self) -> int:
        """How many crumbs below the root the view is."""
        return len(self._crumbs) - 1

    @property
    def focus_label(self) -> str:
        return " › ".join(self._crumb_names)

    @property
    def crumbs(self) -> list[str]:
        return list(self._crumb_names)

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(self._rect)

    def move_name(self, move: int) -> str:
        return "pass" if move == MOVE_NONE or move < 0 else self._move_name(int(move))

    def agent_move_name(self, agent: int, move: int) -> str:
        if move == MOVE_NONE or move < 0:
            return "pass"
        if 0 <= agent < len(self.move_names):
            return self.move_names[agent](int(move))
        return self._move_name(int(move))

    def agent_color(self, agent: int) -> tuple[int, int, int]:
        if 0 <= agent < len(self.agent_colors):
            return self.agent_colors[agent]
        return palette.agent_color(agent)

    def agent_name(self, agent: int) -> str:
        if 0 <= agent < len(self.agent_names):
            return self.agent_names[agent]
        return f"Agent {agent}"

    @property
    def kind(self) -> str:
        """'agent', 'sequential' or 'joint' (tree_layout.tree_kind)."""
        return "agent" if self.snapshot is None else self._kind(self.snapshot)

    def row_name(self, snap: TreeSnapshot, row: int, kind: str | None = None) -> str:
        """A node's label: its mover's move name, or the joint action."""
        kind = kind or self._kind(snap)
        if row == 0 and int(snap.parent[0]) < 0:
            # the view's root: the search's, or the last crumb's node
            top = snap.top_path
            if top == ():
                return "root"
            if top is not None and top == self._crumbs[-1]:
                return self._crumb_names[-1].split(" › ")[-1]
            return "top"
        if kind == "joint":
            j = snap.joint[row]
            if (j != NO_MOVE).any():
                names = [(lambda m, a=a: self.agent_move_name(a, m))
                         for a in range(len(j))]
                return joint_label(j, names)
            return "pass"
        mover = int(snap.mover[row])
        move = int(snap.move[row])
        if kind == "sequential" and mover >= 0:
            return self.agent_move_name(mover, move)
        return self.move_name(move)

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES} (got {mode!r})")
        self._mode = mode

    @property
    def layout(self) -> str:
        """The layout the next render uses: 'icicle' or 'nodelink'."""
        if self._mode != "auto":
            return self._mode
        if self.zoom > 1.0 and self._layout == "icicle":
            return "icicle"        # a zoom in progress keeps its layout (and its units)
        n = 0 if self.snapshot is None else len(self.snapshot.rows)
        limit = NODELINK_RETURN_ROWS if self._layout == "icicle" and self._rendered else \
            NODELINK_MAX_ROWS
        return "nodelink" if n <= limit else "icicle"

    @property
    def needs_render(self) -> bool:
        return self._needs(self._rect.size)

    def _needs(self, size: tuple[int, int]) -> bool:
        r = self._rendered
        return (r is None or r[0] is not self.snapshot or r[1] != size or r[2] != self.layout
                or r[3] != self._view_key())

    def _view_key(self) -> tuple:
        return (self.zoom, self.view_x, self.scroll_y, len(self._crumbs))

    # -- rendering -------------------------------------------------------------
    def prepare(self, rect: pygame.Rect | Sequence[int]) -> bool:
        """Re-render the cached tree if anything it shows changed. Returns
        True if it rendered (the app may call this on a quiet frame)."""
        rect = pygame.Rect(rect)
        self._rect = rect
        size = (max(rect.w, 1), max(rect.h, 1))
        if not self._needs(size):
            return False
        import time
        t0 = time.perf_counter()
        layout = self.layout
        if self._surf is None or self._surf.get_size() != size:
            self._surf = pygame.Surface(size)
        surf = self._surf
        surf.fill(palette.PANEL)
        snap = self.snapshot
        self._g = None
        self._layout_now = layout
        if snap is None or len(snap.rows) == 0:
            self._header(surf, snap, layout)
            self._message(surf, "no search data yet")
        elif layout == "icicle":
            self._header(surf, snap, layout)
            self._render_icicle(surf, snap)
            self._footer(surf, snap)
        else:
            self._header(surf, snap, layout)
            self._render_nodelink(surf, snap)
            self._footer(surf, snap)
        self._layout = layout
        self._rendered = (snap, size, layout, self._view_key())
        self.render_count += 1
        self.last_render_ms = (time.perf_counter() - t0) * 1e3
        if self._hover_pos is not None and self._hover_snap is not snap:
            self._hover = self.node_at(self._hover_pos)
            self._hover_snap = snap
        self._check_pinned()
        return True

    def draw(self, surface: pygame.Surface, rect: pygame.Rect | Sequence[int]) -> None:
        """Blit the cached tree (re-rendering first if needed) and draw the
        hover, selection and step highlights over it."""
        rect = pygame.Rect(rect)
        self.prepare(rect)
        surface.blit(self._surf, rect.topleft)
        if self._g is None:
            return
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip) if clip else rect)
        try:
            self._draw_highlight(surface)
            if self._pinned is not None:
                row = self._rows_by_id().get(self._pinned[0])
                if row is not None:
                    self._outline(surface, row, SELECTED, 3, grow=1)
            if self._hover is not None and self._hover.row < len(self.snapshot.rows):
                self._outline(surface, self._hover.row, HOVER, 2)
        finally:
            surface.set_clip(clip)

    def _memo(self, snap: TreeSnapshot, what: str, make):
        """A fact of one snapshot computed once (zoom and pan frames
        re-render the same snapshot many times)."""
        if self._facts_of is not snap:
            self._facts_of, self._facts = snap, {}
        if what not in self._facts:
            self._facts[what] = make()
        return self._facts[what]

    def _kind(self, snap: TreeSnapshot) -> str:
        return self._memo(snap, "kind", lambda: tree_kind(snap))

    def _best(self, snap: TreeSnapshot) -> list[int]:
        return self._memo(snap, "best", lambda: principal_variation(snap))

    def _normalized(self, snap: TreeSnapshot) -> np.ndarray:
        return self._memo(snap, ("norm", self.range_from_rows, self._bounds(snap)),
                          lambda: self._normalized_now(snap))

    def _normalized_now(self, snap: TreeSnapshot) -> np.ndarray:
        lo, hi = self._bounds(snap)
        if not hi > lo:
            return np.full(len(snap.rows), 0.5, dtype=np.float64)
        return np.clip((snap.mean.astype(np.float64) - lo) / (hi - lo), 0.0, 1.0)

    def _node_colors(self, snap: TreeSnapshot, norm: np.ndarray | None = None) -> np.ndarray:
        """Each row's colour (a fresh array: callers paint over it)."""
        if norm is None:
            norm = self._normalized(snap)
        return self._memo(snap, ("rgb", id(norm), tuple(self.agent_colors)),
                          lambda: self._node_colors_now(snap, norm)).copy()

    def _node_colors_now(self, snap: TreeSnapshot, norm: np.ndarray) -> np.ndarray:
        idx = np.clip((norm * 255).astype(np.int64), 0, 255)
        rgb = _LUT[idx]
        if self._kind(snap) == "sequential":
            top = int(snap.mover.max()) + 1 if len(snap.rows) else 0
            rgb = mover_shades(snap.mover, norm, [self.agent_color(a) for a in range(top)],
                               rgb[0])
        unvisited = snap.visits <= 0
        if unvisited.any():
            rgb[unvisited] = _LUT[128] * 0.6
        return rgb

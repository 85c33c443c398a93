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
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..native.params import SearchParams  # noqa: E402
from ..native.snapshot import (FLAG_DIED, FLAG_DOOMED, FLAG_PASS, FLAG_SHARED,  # noqa: E402
                               FLAG_SURVIVED, FLAG_TRUNCATED, MOVE_NONE, TreeSnapshot)
from . import fonts, palette  # noqa: E402
from .tree_explore import export_tree, path_steps, place_box, row_at_path, subtree  # noqa: E402
from .tree_layout import (NO_MOVE, compact_count, icicle_layout, is_doomed,  # noqa: E402
                          joint_label, level_movers, level_starts, mover_shades,
                          nodelink_layout, principal_variation, rasterize_intervals,
                          rows_for_path, tree_kind, ucb_terms, ucb_value)

MODES = ("auto", "icicle", "nodelink")
KEEP_SNAPSHOTS = 8           # recent subtree snapshots the explorer keeps (going back up)
MAX_ZOOM = 2.0 ** 20         # ~1M: a node of a 1M-node tree still gets a pixel
NODELINK_MAX_ROWS = 300      # auto: node-link up to this many rows ...
NODELINK_RETURN_ROWS = 240   # ... and back to it only below this (no flip-flop)

FLAG_NAMES = ((FLAG_PASS, "pass"), (FLAG_DIED, "died"), (FLAG_SURVIVED, "survived"),
              (FLAG_DOOMED, "doomed"), (FLAG_TRUNCATED, "truncated"), (FLAG_SHARED, "shared"))

# Colours of the view (the value map itself is palette.value_color).
PASS_FILL = (84, 88, 100)
PASS_STRIPE = (58, 61, 70)
DOOMED_FILL = (44, 28, 32)
DOOMED_STRIPE = (220, 60, 60)
HIDDEN_FILL = (40, 43, 53)
HIDDEN_DOT = (118, 124, 140)
BEST_LINE = (240, 242, 248)
HOVER = (255, 236, 130)
SELECTED = palette.ACCENT
SELECT_PATH = (190, 120, 255)    # tutorial §5: purple = selected path
BACKPROP = (255, 160, 40)        # tutorial §5: orange flash = backpropagation
DARK_TEXT = (18, 20, 26)
SHARED = (110, 225, 235)         # MCGS: a node with several parents, and its other-parent edges
LINK = (64, 118, 128)

HEADER_H = 18
FOOTER_H = 14
PAD = 4
GUTTER = 62          # sequential trees: the player label of each depth row
GUTTER_MIN_W = 220   # ... only in panels at least this wide (else a colour strip)
STRIP_W = 5
MAX_BAND = 34
MIN_BAND = 4

_LUT = np.array([palette.value_color(i / 255) for i in range(256)], dtype=np.float64)
_BG, _PASS, _DOOMED, _HIDDEN = (np.array(c, dtype=np.float64)
                                for c in (palette.BG, PASS_FILL, DOOMED_FILL, HIDDEN_FILL))
_FLAT_COLORS = np.stack((_PASS, _DOOMED, _HIDDEN, _BG))   # order of the coverage stack


def _lum(c: Sequence[float]) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def default_move_name(move: int) -> str:
    return "pass" if move in (MOVE_NONE, -1) else str(move)


@dataclass(frozen=True)
class NodeInfo:
    """What the tooltip and the inspector show for one node."""
    agent: int
    row: int
    node_id: int
    path: list[str]              # move names from the root ("pass" for pass nodes)
    depth: int
    visits: int
    mean: float                  # raw backed-up mean
    norm_mean: float             # (mean - min) / (max - min) of the agent's bounds
    ucb: float | None            # under params.c; None for the root, inf if unvisited
    prob: float                  # share of the parent's child visits (UCB1's policy)
    parent_visits: int | None
    random_phase: bool           # the parent's next visit < random_threshold: picked uniformly
    flags: list[str]
    c: float = 0.0               # the C the UCB was computed under
    exploit: float | None = None
    explore: float | None = None
    death_penalty: float = 0.0   # subtracted from ucb (doomed child, penalty on)
    random_threshold: int = 0
    # Later selection policies (Exp3, regret matching) add their own move
    # probability here, e.g. {"Exp3": 0.31}; the tooltip lists each entry.
    policy_probs: dict[str, float] = field(default_factory=dict)
    depth_bounds: bool = False   # bounds=depth below depth 1: shown with depth 1's range
    mover: int = -1              # whose move the node is (SUCT); -1: the root / joint
    kind: str = "agent"          # tree_layout.tree_kind of the tree
    sampled: str = ""            # the policy in force samples (Exp3/RM): no UCB to show
    # A graph (MCGS): every parent of the node among the snapshot's rows,
    # each as its move path from the root (the first is the row's parent).
    parents: list[str] = field(default_factory=list)
    shared: bool = False         # SBX_NODE_SHARED: more than one parent in the graph
    graph: bool = False          # an MCGS graph: PUCT selection, no UCB1 to show


class TreeView:
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

    def reroot(self, row: int, keep_view: bool = False) -> bool:
        """Make shown row `row` the view's root (a new crumb). keep_view:
        the picture stays where it is (zoom and pan carried into the new
        root's units: the wheel's level of detail), else the new root
        fills the panel."""
        snap = self.snapshot
        if snap is None or not 0 < row < len(snap.rows):
            return False
        steps = tuple(path_steps(snap, row))
        kind = self._kind(snap)
        names = [self.row_name(snap, r, kind) for r in snap.path_to(row)[1:]]
        x0u, wu = self._unit_layout(snap)
        span = (float(x0u[row]), float(wu[row])) if wu[row] > 0 else None
        self._crumbs.append(self._crumbs[-1] + steps)
        self._crumb_names.append(names[-1] if len(names) == 1 else "… › " + names[-1])
        self._crumb_spans.append(span)
        self._pinned = None
        if keep_view and span is not None:
            levels = int(snap.depth[row] - snap.depth[0])
            self.zoom = max(self.zoom * span[1], 1.0)
            self.view_x = min(max((self.view_x - span[0]) / span[1], 0.0), 1.0 - 1.0 / self.zoom)
            self.scroll_y = max(self.scroll_y - levels * self._band(), 0.0)
        else:
            self.reset_zoom()
        self._refocus()
        return True

    def _band(self) -> float:
        g = self._g
        return float(g["band"]) if g is not None and g["kind"] == "icicle" else float(MIN_BAND)

    def _descend(self) -> None:
        """Level of detail when zooming in: once the panel shows only part
        of one child of the view's root, that child becomes the root (a
        crumb), so the view holds -- and a live search is asked for -- the
        top of that subtree alone, with its own rows of detail."""
        for _ in range(64):
            snap = self.snapshot
            if snap is None or len(snap.rows) < 2 or self.layout != "icicle" or self.zoom <= 1:
                return
            x0u, wu = self._unit_layout(snap)
            lo, hi = self.view_x, self.view_x + 1.0 / self.zoom
            kids = snap.children(0)
            inside = kids[(x0u[kids] <= lo + 1e-12) & (hi <= x0u[kids] + wu[kids] + 1e-12)]
            if not len(inside) or not self.reroot(int(inside[0]), keep_view=True):
                return

    def _ascend(self, zoom: float, ux: float, f: float) -> bool:
        """Zooming out past the whole of a crumb continues in its parent:
        the crumb is left (the parent's units, the cursor's point kept)."""
        span = self._crumb_spans[-1]
        if span is None or len(self._crumbs) == 1:
            return False
        x0, w = span
        levels = len(self._crumbs[-1]) - len(self._crumbs[-2])
        del self._crumbs[-1], self._crumb_names[-1], self._crumb_spans[-1]
        self._refocus()
        # the panel showed 1/zoom of the crumb, which is w of its parent
        self.zoom = max(zoom / w, 1.0)
        if self.zoom < 1.0 + 1e-9:   # float drift of the spans' products
            self.zoom = 1.0
        uxp = x0 + ux * w
        self.view_x = min(max(uxp - f / self.zoom, 0.0), 1.0 - 1.0 / self.zoom)
        self.scroll_y += levels * self._band()
        if zoom / w < 1.0:
            return self._ascend(zoom / w, uxp, f) or True
        return True

    def reroot_at(self, pos: Sequence[int]) -> bool:
        row = self.row_at(pos)
        return row is not None and self.reroot(row)

    def go_up_to(self, crumb: int) -> None:
        """Back to crumb `crumb` (0 = the search's root)."""
        crumb = max(0, min(int(crumb), len(self._crumbs) - 1))
        del self._crumbs[crumb + 1:]
        del self._crumb_names[crumb + 1:]
        del self._crumb_spans[crumb + 1:]
        self.reset_zoom()
        self._refocus()

    def crumb_at(self, pos: Sequence[int]) -> int | None:
        """The breadcrumb under pos (surface coordinates), if any."""
        lx, ly = pos[0] - self._rect.x, pos[1] - self._rect.y
        for i, r in self._crumb_rects:
            if r.collidepoint(lx, ly):
                return i
        return None

    def reset_zoom(self) -> None:
        self.zoom, self.view_x, self.scroll_y = 1.0, 0.0, 0.0

    def _area_w(self) -> float:
        g = self._g
        if g is not None and g["kind"] == "icicle":
            return float(g["aw"])
        return float(max(self._rect.w - 2 * PAD - 12, 1))

    def _area_x(self) -> float:
        g = self._g
        if g is not None and g["kind"] == "icicle":
            return float(self._rect.x + g["ax"])
        return float(self._rect.x + PAD + 6)

    def wheel(self, pos: Sequence[int], clicks: float) -> None:
        """Zoom by 1.25 per wheel click about pos: the point under the
        cursor stays under it. In the icicle, zooming into one child of
        the view's root makes it the root (a crumb: _descend), and zooming
        out past the whole root goes back up (_ascend)."""
        want = self.zoom * 1.25 ** float(clicks)
        aw = self._area_w()
        f = min(max((pos[0] - self._area_x()) / aw, 0.0), 1.0)
        ux = self.view_x + f / self.zoom
        if want < 1.0 and self.focus_depth > 0:
            if self.layout == "icicle" and self._ascend(want, ux, f):
                return
            if self.layout != "icicle":     # node-link: out of the crumb, whole
                self.go_up_to(self.focus_depth - 1)
                return
        new = min(max(want, 1.0), MAX_ZOOM)
        if new < 1.0 + 1e-9:         # float drift of the spans' products
            new = 1.0
        self.zoom = new
        self.view_x = min(max(ux - f / new, 0.0), 1.0 - 1.0 / new)
        if clicks > 0:
            self._descend()

    def pan(self, dx: float, dy: float) -> None:
        """Drag by (dx, dy) pixels: the tree follows the mouse."""
        self.view_x = min(max(self.view_x - dx / (self._area_w() * self.zoom), 0.0),
                          1.0 - 1.0 / self.zoom)
        self.scroll_y = max(self.scroll_y - dy, 0.0)   # the render clamps the bottom

    def show_row(self, row: int) -> None:
        """Zoom and scroll so shown row `row` is on the panel, a readable
        width if it is narrow."""
        snap = self.snapshot
        if snap is None:
            return
        x0u, wu = self._unit_layout(snap)
        wid = max(float(wu[row]), 1e-12)
        if self.layout == "icicle":
            if wid * self.zoom < 0.25 or x0u[row] < self.view_x or \
                    x0u[row] + wid > self.view_x + 1.0 / self.zoom:
                self.zoom = min(max(self.zoom, 0.25 / wid), MAX_ZOOM)
                self.view_x = min(max(float(x0u[row]) + wid / 2 - 0.5 / self.zoom, 0.0),
                                  1.0 - 1.0 / self.zoom)
            band = self._g["band"] if self._g and self._g["kind"] == "icicle" else MIN_BAND
            lev = int(snap.depth[row] - snap.depth[0])
            h = max(self._rect.h - HEADER_H - FOOTER_H, band)
            if not self.scroll_y <= lev * band <= self.scroll_y + h - band:
                self.scroll_y = max(lev * band - h / 2, 0.0)

    def _match_step(self, snap: TreeSnapshot, row: int, token: str, kind: str) -> bool:
        """Does `token` name the move into row? The name the view shows
        ('up', 'up/left'), its initials ('U', 'U/L') or the move number."""
        t = token.strip().lower()
        name = self.row_name(snap, row, kind).lower()
        if t == name or t == str(int(snap.move[row])):
            return True
        parts = name.split("/")
        return t == "/".join(p[:1] for p in parts) or (
            len(parts) > 1 and t == "".join(p[:1] for p in parts))

    def find(self, text: str) -> tuple[NodeInfo | None, str]:
        """Select (pin) the node at a move path typed as the view shows the
        moves ('U,L,R', 'up left', 'U/L, D/R'), from the search's root; it
        is then zoomed into view. (None, why) if no shown node has it."""
        src = self.source
        if src is not None and src.top_path != ():
            # a live subtree is shown: find from the whole tree kept from before
            src = self._by_top.get(())
        if src is None:
            return None, "no whole tree to search yet (Backspace to the root first)"
        tokens = [t for t in re.split(r"[,\s›>]+", text.strip()) if t]
        kind = self._kind(src)
        row = 0
        for i, tok in enumerate(tokens):
            nxt = next((int(c) for c in src.children(row)
                        if self._match_step(src, int(c), tok, kind)), None)
            if nxt is None:
                names = ", ".join(self.row_name(src, int(c), kind)
                                  for c in src.children(row)[:8]) or "none"
                return None, f"step {i + 1} ({tok!r}) is not shown; the moves there: {names}"
            row = nxt
        steps = tuple(path_steps(src, row))
        if steps[:len(self.focus_path)] != self.focus_path:
            self.go_up_to(0)
        shown = row_at_path(self.snapshot, steps[len(self.focus_path):])
        if shown is None:
            return None, "not in the view"
        nid = int(self.snapshot.node[shown])
        self._pinned = (nid, self._moves_to(shown))
        if self._rect.w > 0 and self._g is None:
            self.prepare(self._rect)
        self.show_row(shown)
        return self.info(shown), ""

    def export(self, folder) -> tuple:
        """The snapshot under the view (the focused subtree) as JSON and DOT
        files in folder; returns their paths."""
        snap = self.snapshot
        kind = self._kind(snap)
        meta = {"title": self.title or f"Agent {self.agent}", "focus": self.crumbs}
        return export_tree(snap, folder, f"tree-agent{self.agent}",
                           lambda r: self.row_name(snap, r, kind), meta)

    def dismiss(self) -> None:
        """Unpin the pinned node's facts."""
        self._pinned = None

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

    def _header(self, surf: pygame.Surface, snap: TreeSnapshot | None, layout: str) -> None:
        w = surf.get_width()
        pygame.draw.rect(surf, self.color, (PAD, 4, 10, 10))
        x = PAD + 14
        title = fonts.text(self.title or f"Agent {self.agent}", 12, palette.TEXT, bold=True)
        surf.blit(title, (x, 1))
        x += title.get_width() + 8
        self._crumb_rects = []
        if len(self._crumbs) > 1:
            # Breadcrumbs: each a way back up (a click; Backspace: one up).
            for i, name in enumerate(self._crumb_names):
                last = i == len(self._crumb_names) - 1
                lab = fonts.text(fonts.elide(name, 11, 90), 11,
                                 palette.TEXT if last else palette.ACCENT, bold=last)
                if x + lab.get_width() > w - PAD:
                    break
                surf.blit(lab, (x, 3))
                self._crumb_rects.append((i, pygame.Rect(x - 2, 0, lab.get_width() + 4,
                                                         HEADER_H)))
                x += lab.get_width() + 2
                if not last:
                    sep = fonts.text("›", 11, palette.TEXT_DIM)
                    surf.blit(sep, (x + 2, 3))
                    x += sep.get_width() + 6
            x += 8
        if snap is None or len(snap.rows) == 0:
            return
        root_v = int(snap.visits[0])
        parts = [f"showing {len(snap.rows):,} of {max(snap.tree_nodes, len(snap.rows)):,} nodes",
                 f"{'root' if len(self._crumbs) == 1 else 'top'} {root_v:,} visits", layout]
        if self.zoom > 1.0:
            parts.insert(2, f"zoom ×{self.zoom:.3g}")
        for i in range(len(parts), 0, -1):   # drop trailing parts that do not fit
            s = "  ·  ".join(parts[:i])
            if fonts.font(11).size(s)[0] <= w - x - PAD:
                surf.blit(fonts.font(11).render(s, True, palette.TEXT_DIM), (x, 3))
                break

    def _footer(self, surf: pygame.Surface, snap: TreeSnapshot) -> None:
        w, h = surf.get_size()
        y = h - FOOTER_H + 2
        lo, hi = self._bounds(snap)
        s = f"mean {lo:.3g} … {hi:.3g}" if hi > lo else "mean (no spread yet)"
        if self._kind(snap) == "sequential":
            # hue = whose move, shade = mean: a dark-to-bright swatch per mover
            x = PAD
            movers = sorted({m for m in level_movers(snap) if m >= 0})
            for m in movers:
                for k in range(4):
                    c = palette.lerp((24, 26, 32), self.agent_color(m), 0.3 + 0.7 * k / 3)
                    surf.fill(c, (x + 4 * k, y + 2, 4, 9))
                x += 18
            s = "colour: mover · shade: " + s
        else:
            grad = _gradient(60, 8)
            surf.blit(grad, (PAD, y + 2))
            x = PAD + 64
        lab = fonts.text(s, 10, palette.TEXT_DIM)
        surf.blit(lab, (x, y))
        x += lab.get_width() + 10
        if (snap.flags & FLAG_SHARED).any() or len(snap.links):
            # a graph: one node per state, however many parents reach it
            note = ("◆ shared node · dashed: its other parents" if self._layout_now == "nodelink"
                    else "◆ shared: shown once, under its 1st parent (no DAG here)")
            lab = fonts.text(fonts.elide(note, 10, max(0, w - PAD - x)), 10, SHARED)
            surf.blit(lab, (x, y))
            x += lab.get_width() + 10
        for fill, name in ((PASS_FILL, "pass"), (DOOMED_FILL, "doomed"), (HIDDEN_FILL, "hidden")):
            lab = fonts.text(name, 10, palette.TEXT_DIM)
            if x + 12 + lab.get_width() > w - PAD:
                break
            pygame.draw.rect(surf, fill, (x, y + 2, 9, 9))
            if fill is DOOMED_FILL:
                pygame.draw.line(surf, DOOMED_STRIPE, (x, y + 10), (x + 8, y + 2))
            pygame.draw.rect(surf, palette.BORDER, (x, y + 2, 9, 9), 1)
            surf.blit(lab, (x + 12, y))
            x += 12 + lab.get_width() + 8
        if self._g and self._g.get("cut_depth") is not None:
            lab = fonts.text(f"depth ≥ {self._g['cut_depth']} not shown", 10, palette.WARN)
            if x + lab.get_width() <= w - PAD:
                surf.blit(lab, (w - PAD - lab.get_width(), y))

    def _message(self, surf: pygame.Surface, msg: str) -> None:
        lab = fonts.text(msg, 12, palette.TEXT_DIM)
        w, h = surf.get_size()
        surf.blit(lab, ((w - lab.get_width()) // 2, (h - lab.get_height()) // 2))

    def _bounds(self, snap: TreeSnapshot) -> tuple[float, float]:
        """The range the means are shaded by: the search's score bounds, or
        (range_from_rows, when it has none) the visited rows' own range."""
        lo, hi = snap.norm_min, snap.norm_max
        if self.range_from_rows and not hi > lo and len(snap.rows):
            seen = snap.mean[snap.visits > 0]
            if len(seen):
                lo, hi = float(seen.min()), float(seen.max())
        return lo, hi

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

    # -- icicle ----------------------------------------------------------------
    def _gutter(self, snap: TreeSnapshot, w: int) -> int:
        """Width kept at the left for the player of each depth row (SUCT)."""
        if self._kind(snap) != "sequential":
            return 0
        return GUTTER if w >= GUTTER_MIN_W else STRIP_W + 2

    def _row_labels(self, surf: pygame.Surface, snap: TreeSnapshot, gutter: int,
                    centers: Sequence[float], band: float, first: int = 0) -> None:
        """The gutter of a sequential tree: each depth row's player, as a
        colour strip and (room permitting) the name (levels from `first`)."""
        movers = level_movers(snap)
        for lev, yc in enumerate(centers, start=first):
            m = movers[lev] if lev < len(movers) else -1
            if m < 0:
                name, col = ("root" if lev == 0 else "mixed"), palette.TEXT_DIM
            else:
                name, col = self.agent_name(m), self.agent_color(m)
            hh = max(int(band) - 1, 2)
            surf.fill(col if m >= 0 else palette.GRID, (PAD, int(yc - hh / 2), STRIP_W, hh))
            if gutter >= GUTTER and band >= 10:
                fs = 10 if band < 14 else 11
                lab = fonts.text(fonts.elide(name, fs, gutter - STRIP_W - 6, bold=m >= 0), fs,
                                 col, bold=m >= 0)
                surf.blit(lab, (PAD + STRIP_W + 3, int(yc - lab.get_height() / 2)))

    def _render_icicle(self, surf: pygame.Surface, snap: TreeSnapshot) -> None:
        w, h = surf.get_size()
        gutter = self._gutter(snap, w)
        area = pygame.Rect(PAD + gutter, HEADER_H, w - 2 * PAD - gutter, h - HEADER_H - FOOTER_H)
        if area.w < 4 or area.h < MIN_BAND:
            return
        depth = (snap.depth - snap.depth[0]).astype(np.int64)
        nlev = int(depth[-1]) + 1
        band = max(MIN_BAND, min(MAX_BAND, area.h // nlev))
        # Levels deeper than the panel holds are scrolled to (scroll_y, in
        # pixels): the rows drawn are one contiguous block of levels.
        fit = max(area.h // band, 1)
        max_scroll = max(nlev - fit, 0) * band
        self.scroll_y = min(max(self.scroll_y, 0.0), float(max_scroll))
        top = int(self.scroll_y // band)
        nshow = min(fit, nlev - top)
        cut = top + nshow if top + nshow < nlev else None
        starts_all = level_starts(depth)
        lo = int(starts_all[top])
        n = int(starts_all[top + nshow])
        starts = starts_all[top:top + nshow + 1] - 0
        x0u, wu = self._unit_layout(snap)
        aw = area.w
        # Zoom about view_x: unit x -> pixels of the area. Geometry keeps the
        # true (possibly far off-panel) positions; what is rasterised or
        # labelled is clipped to the panel first (level of detail: off-panel
        # nodes cost one vector op, never a draw).
        scale = aw * self.zoom
        x0 = (x0u[:n] - self.view_x) * scale
        x1 = (x0u[:n] + wu[:n] - self.view_x) * scale
        lev = depth[:n] - top
        sl = slice(lo, n)
        flags = snap.flags[:n]
        norm = self._normalized(snap)
        rgb = self._node_colors(snap, norm)[:n]
        # Sequential trees colour by mover: the colour itself is rasterised
        # (three channels) instead of the value the map turns into colour.
        seq = self._kind(snap) == "sequential"
        k = 3 if seq else 1
        is_pass = (flags & FLAG_PASS) != 0
        doomed = (flags & FLAG_DOOMED) != 0
        rgb[is_pass] = PASS_FILL
        rgb[doomed] = DOOMED_FILL
        is_pass &= ~doomed

        # Hidden children's share of each truncated node, one level down.
        parent = snap.parent[:n]
        kids = np.arange(max(lo, 1), n)
        shown = np.bincount(parent[kids], weights=(x1 - x0)[kids], minlength=n)[:n]
        # Culling: only the rows on the panel are rasterised (rows are
        # sorted by level then x, so the subset stays sorted).
        idx = lo + np.flatnonzero((x1[sl] > 0.0) & (x0[sl] < aw))
        trunc = idx[((flags[idx] & FLAG_TRUNCATED) != 0) & (lev[idx] + 1 < nshow)]
        hx0 = x0[trunc] + shown[trunc]
        hx1 = x1[trunc]
        keep = (hx1 - hx0 > 1e-6) & (hx1 > 0) & (hx0 < aw)
        trunc, hx0, hx1 = trunc[keep], hx0[keep], hx1[keep]

        # Channels: coverage, value (plain nodes), pass, doomed, hidden. Dust
        # columns then show the visit-weighted mean value of their nodes.
        nb = len(idx)
        m = nb + len(trunc)
        ch = np.zeros((4 + k, m))
        ch[0] = 1.0
        plain = ~(is_pass | doomed)[idx]
        if seq:
            ch[1:4, :nb] = np.where(plain[None, :], rgb[idx].T, 0.0)
        else:
            ch[1, :nb] = np.where(plain, norm[idx], 0.0)
        ch[k + 1, :nb] = is_pass[idx]
        ch[k + 2, :nb] = doomed[idx]
        ch[k + 3, nb:] = 1.0
        # Clipped to just outside the panel: a zoomed node may start far to
        # the left, and the level-major sort key below must stay in its level.
        cx0, cx1 = np.clip(x0[idx], -1.0, aw + 1.0), np.clip(x1[idx], -1.0, aw + 1.0)
        vlev = lev[idx]
        ilev, ix0, ix1 = vlev, cx0, cx1
        if len(trunc):
            # Both lists are sorted by (level, x): merge the hidden intervals
            # in instead of sorting everything.
            hx0c, hx1c = np.clip(hx0, -1.0, aw + 1.0), np.clip(hx1, -1.0, aw + 1.0)
            span = aw + 4.0
            pos = np.searchsorted(vlev * span + cx0, (lev[trunc] + 1) * span + hx0c,
                                  side="right")
            hid_at = pos + np.arange(len(pos))        # final slots of the hidden ones
            real = np.ones(m, dtype=bool)
            real[hid_at] = False
            order = np.empty(m, dtype=np.intp)        # merged slot -> source index
            order[real] = np.arange(nb)
            order[hid_at] = np.arange(nb, m)
            ilev = np.concatenate((vlev, lev[trunc] + 1))[order]
            ix0 = np.concatenate((cx0, hx0c))[order]
            ix1 = np.concatenate((cx1, hx1c))[order]
            ch = ch[:, order]
        cols = rasterize_intervals(ilev, ix0, ix1, ch, nshow, aw)

        cov = np.clip(cols[0], 0.0, 1.0)
        pas, doo, hid = cols[k + 1], cols[k + 2], cols[k + 3]
        plain_cov = np.maximum(cov - pas - doo - hid, 0.0)
        if seq:   # already coverage-weighted colour sums
            img_rows = np.moveaxis(cols[1:4], 0, -1).copy()
        else:
            value = cols[1] / np.maximum(plain_cov, 1e-9)
            lut_i = np.clip((value * 255).astype(np.int64), 0, 255)
            img_rows = _LUT[lut_i] * plain_cov[..., None]
        img_rows += np.stack((pas, doo, hid, 1.0 - cov), axis=-1) @ _FLAT_COLORS
        # Separators: a dark first column for nodes wide enough to tell apart.
        wide = idx[(x1[idx] - x0[idx] >= 3.0) & (x0[idx] >= 0)]
        if len(wide):
            cx = np.clip(x0[wide].astype(np.int64), 0, aw - 1)
            img_rows[lev[wide], cx] *= 0.45
        half = np.maximum(cov, 1e-9) * 0.5
        pass_m = pas > half
        doom_m = doo > half
        hid_m = hid > half

        # Expand bands to pixel rows: the last row of each band is a gap.
        ys = np.arange(min(area.h, nshow * band))
        yband = ys // band
        if band >= 5:
            yband = np.where(ys % band == band - 1, nshow, yband)
        ext = np.empty((nshow + 1, aw, 3), dtype=np.uint8)
        np.clip(img_rows, 0, 255, out=img_rows)
        ext[:nshow] = img_rows
        ext[nshow] = palette.BG
        img = ext[yband]
        # Patterns say what a colour cannot: pass = grey hatch, doomed = red
        # hatch, hidden = dots. Only the masked columns are visited.
        gap = 1 if band >= 5 else 0
        for mask, color, kind in ((pass_m, PASS_STRIPE, 0), (doom_m, DOOMED_STRIPE, 1),
                                  (hid_m, HIDDEN_DOT, 2)):
            _hatch(img, mask, band, gap, color, kind)
        pix = pygame.image.frombuffer(img, (aw, len(ys)), "RGB")
        surf.blit(pix, area.topleft)

        if gutter:
            self._row_labels(surf, snap, gutter,
                             [area.y + (lv + 0.5) * band for lv in range(nshow)], band,
                             first=top)
        self._g = {"kind": "icicle", "ax": area.x, "ay": area.y, "band": band,
                   "nshow": nshow, "starts": starts.copy(), "x0": x0, "x1": x1,
                   "lev": lev, "n": n, "lo": lo, "aw": aw, "cut_depth": cut, "rgb": rgb,
                   "top": top, "nlev": nlev}
        best = [r for r in (self._best(snap) if n else []) if lo <= r < n]
        self._g["best"] = best
        self._icicle_marks(surf, snap, area, band, x0, x1, lev, rgb, flags, best, n, nshow, lo)

    def _unit_layout(self, snap: TreeSnapshot) -> tuple[np.ndarray, np.ndarray]:
        """icicle_layout of the snapshot, once per snapshot (zoom and pan
        frames re-render from it)."""
        if self._unit is None or self._unit[0] is not snap:
            self._unit = (snap, *icicle_layout(snap))
        return self._unit[1], self._unit[2]

    def _icicle_marks(self, surf, snap, area, band, x0, x1, lev, rgb, flags, best, n, nshow,
                      lo=0):
        aw = area.w
        ax, ay = area.x, area.y
        # Only nodes on the panel (zoomed-out ones are off it) get marks.
        on = np.zeros(n, dtype=bool)
        on[lo:n] = (x1[lo:n] > 0) & (x0[lo:n] < aw)
        vx0 = np.maximum(x0, 0.0)              # the visible part of each node
        vx1 = np.minimum(x1, float(aw))
        wpx = np.where(on, vx1 - vx0, 0.0)
        # Truncation ticks: a small notch at the bottom right of a node with
        # hidden visited children (visible even when the hidden share is dust).
        tr = np.flatnonzero(((flags & FLAG_TRUNCATED) != 0) & (wpx >= 5) & (x1 <= aw))
        for r in tr.tolist():
            x = ax + int(x1[r]) - 4
            y = ay + int(lev[r]) * band + band - (4 if band >= 5 else 3)
            surf.fill(HIDDEN_DOT, (x, y, 3, 2))
        # Doomed nodes wide enough get a red X.
        if band >= 8:
            for r in np.flatnonzero(((flags & FLAG_DOOMED) != 0) & (wpx >= 10)).tolist():
                rx, ry = ax + int(vx0[r]) + 2, ay + int(lev[r]) * band + 2
                rw, rh = int(wpx[r]) - 4, band - 5
                s = min(rw, rh)
                cx, cy = rx + rw // 2, ry + rh // 2
                pygame.draw.line(surf, DOOMED_STRIPE, (cx - s // 2, cy - s // 2),
                                 (cx + s // 2, cy + s // 2), 2)
                pygame.draw.line(surf, DOOMED_STRIPE, (cx - s // 2, cy + s // 2),
                                 (cx + s // 2, cy - s // 2), 2)
        # Labels where they fit: move name, then visits if there is room.
        if band >= 11:
            kind = self._kind(snap)
            fs = min(12, band - 4)
            mono_w = fonts.font(fs - 1, mono=True).size("0")[0]
            for r in np.flatnonzero(wpx >= 12).tolist():
                col = DARK_TEXT if _lum(rgb[r]) > 120 and not flags[r] & FLAG_DOOMED \
                    else palette.TEXT
                name = self.row_name(snap, r, kind)
                lab = fonts.text(name, fs, col)
                avail = int(wpx[r]) - 5
                if lab.get_width() > avail:
                    lab = fonts.text(name[0], fs, col)
                    if lab.get_width() > avail:
                        continue
                x = ax + int(vx0[r]) + 3
                y = ay + int(lev[r]) * band + (band - 1 - lab.get_height()) // 2
                surf.blit(lab, (x, y))
                cnt = compact_count(snap.visits[r])
                cw = mono_w * len(cnt)
                if lab.get_width() + 5 + cw <= avail:
                    _blit_mono(surf, cnt, x + lab.get_width() + 5, y + 1, fs - 1, col)
        # Best line: the most-visited chain, outlined.
        lw = 2 if band >= 8 else 1
        for r in best:
            if on[r]:
                self._outline_icicle(surf, r, BEST_LINE, lw, offset=(0, 0))
        # Shared graph nodes (MCGS): a cyan corner inside the outline; the
        # icicle cannot draw their other parents (the footer says so, the
        # tooltip lists them).
        for r in np.flatnonzero(((flags & FLAG_SHARED) != 0) & (wpx >= 6)).tolist():
            x, y = ax + int(vx0[r]) + 2, ay + int(lev[r]) * band + 2
            k = max(3, min(8, band // 2, int(wpx[r]) - 3))
            pygame.draw.polygon(surf, SHARED, [(x, y), (x + k, y), (x, y + k)])

    def _row_box(self, row: int, offset: tuple[int, int]) -> pygame.Rect:
        g = self._g
        # the part on the panel (a zoomed node may reach far past it)
        x0 = min(max(g["x0"][row], -2.0), g["aw"] + 2.0)
        x1 = min(max(g["x1"][row], -2.0), g["aw"] + 2.0)
        band = g["band"]
        x = offset[0] + g["ax"] + int(x0)
        w = max(int(math.ceil(x1)) - int(x0), 1)
        if w < 4:               # keep tiny nodes' outlines visible
            x -= (4 - w) // 2
            w = 4
        return pygame.Rect(x, offset[1] + g["ay"] + int(g["lev"][row]) * band, w,
                           band - 1 if band >= 5 else band)

    def _outline_icicle(self, surf, row, color, width, offset, grow=0):
        box = self._row_box(row, offset).inflate(2 * grow, 2 * grow)
        pygame.draw.rect(surf, color, box, width)

    # -- node-link -------------------------------------------------------------
    def _render_nodelink(self, surf: pygame.Surface, snap: TreeSnapshot) -> None:
        w, h = surf.get_size()
        gutter = self._gutter(snap, w)
        area = pygame.Rect(PAD + 6 + gutter, HEADER_H + 2, w - 2 * PAD - 12 - gutter,
                           h - HEADER_H - FOOTER_H - 4)
        if area.w < 4 or area.h < 4:
            return
        xu, lev = nodelink_layout(snap)
        n = len(xu)
        nlev = int(lev.max()) + 1
        # At least 16 px a level: deeper trees scroll (scroll_y) instead.
        lh = max(min(70.0, area.h / nlev), 16.0)
        self.scroll_y = min(max(self.scroll_y, 0.0), max(nlev * lh - area.h, 0.0))
        cx = area.x + (xu - self.view_x) * self.zoom * area.w
        cy = area.y + (lev + 0.5) * lh - self.scroll_y
        v = snap.visits.astype(np.float64)
        rmax = max(3.0, min(16.0, lh * 0.36))
        rmin = min(2.5, rmax)
        r = rmin + (rmax - rmin) * np.sqrt(np.clip(v / max(v[0], 1.0), 0.0, 1.0))
        best = self._best(snap)
        on_best = np.zeros(n, dtype=bool)
        on_best[best] = True
        # Edge label room: the distance to the neighbours on the same level
        # (BFS rows run left to right within a level).
        gap = np.full(n, float(area.w))
        if n > 1:
            d = np.where(lev[1:] == lev[:-1], np.diff(cx), np.inf)
            gap[1:] = np.minimum(gap[1:], d)
            gap[:-1] = np.minimum(gap[:-1], d)
        # Python lists: the loops below index per node, and numpy scalars
        # are slow to index one at a time.
        X, Y, R = cx.tolist(), cy.tolist(), r.tolist()
        P, F = snap.parent.tolist(), snap.flags.tolist()
        V, PR, B, G = snap.visits.tolist(), snap.prob.tolist(), on_best.tolist(), gap.tolist()
        RGB = self._node_colors(snap).astype(np.int64).tolist()
        # Edges first, best line last so it stays on top.
        edge_col = (86, 92, 110)
        for i in range(1, n):
            if not B[i]:
                p = P[i]
                pygame.draw.line(surf, edge_col, (X[p], Y[p] + R[p]), (X[i], Y[i] - R[i]),
                                 2 if PR[i] >= 0.5 else 1)
        # A graph's other parents (MCGS links): dashed edges into the shared
        # child, which the layout placed under its first parent.
        links = [(int(p), int(c)) for p, c in snap.links.tolist() if 0 <= p < n and 0 <= c < n]
        for p, c in links:
            _dashed(surf, LINK, (X[p], Y[p] + R[p]), (X[c], Y[c] - R[c]), 1, 3.0, 4.0)
        for a, b in zip(best, best[1:]):
            pygame.draw.line(surf, BEST_LINE, (X[a], Y[a] + R[a]), (X[b], Y[b] - R[b]), 3)
        if gutter:
            self._row_labels(surf, snap, gutter, [area.y + (lv + 0.5) * lh for lv in range(nlev)],
                             min(lh, 18.0))
        kind = self._kind(snap)
        fs = 10 if lh >= 26 else 9
        if lh >= 18:
            for i in range(1, n):
                name = self.row_name(snap, i, kind)
                lab = fonts.text(name, fs, palette.TEXT if B[i] else palette.TEXT_DIM)
                room = G[i] * 0.72 - 4      # labels sit 72% of the way to the child
                if lab.get_width() > room:
                    lab = fonts.text(name[0], fs, palette.TEXT_DIM)
                    if lab.get_width() > room:
                        continue
                p = P[i]
                mx = X[p] + (X[i] - X[p]) * 0.72
                my = Y[p] + (Y[i] - Y[p]) * 0.72
                surf.blit(lab, (mx - lab.get_width() / 2, my - lab.get_height() / 2))
        mono_w = fonts.font(9, mono=True).size("0")[0]
        for i in range(n):
            c = (int(X[i]), int(Y[i]))
            ri = max(int(R[i] + 0.5), 2)
            f = F[i]
            fill = DOOMED_FILL if f & FLAG_DOOMED else PASS_FILL if f & FLAG_PASS else RGB[i]
            pygame.draw.circle(surf, fill, c, ri)
            pygame.draw.circle(surf, BEST_LINE if B[i] else (16, 18, 22), c, ri, 2 if B[i] else 1)
            if f & FLAG_SHARED:   # one state, several parents: a cyan ring outside
                pygame.draw.circle(surf, SHARED, c, ri + 2, 1)
            if f & FLAG_DOOMED:
                k = max(ri * 0.6, 1.5)
                pygame.draw.line(surf, DOOMED_STRIPE, (c[0] - k, c[1] - k), (c[0] + k, c[1] + k), 2)
                pygame.draw.line(surf, DOOMED_STRIPE, (c[0] - k, c[1] + k), (c[0] + k, c[1] - k), 2)
            elif f & FLAG_PASS and ri >= 4:
                pygame.draw.line(surf, PASS_STRIPE, (c[0] - ri + 2, c[1] + 1),
                                 (c[0] + ri - 2, c[1] + 1), 2)
            if f & FLAG_TRUNCATED:   # hidden visited children: "…" below
                for k in (-3, 0, 3):
                    surf.fill(HIDDEN_DOT, (c[0] + k - 1, c[1] + ri + 2, 2, 2))
            if ri >= 10:
                txt = compact_count(V[i])
                mw = mono_w * len(txt)
                if mw <= 2 * ri - 2:
                    col = DARK_TEXT if _lum(fill) > 120 else palette.TEXT
                    _blit_mono(surf, txt, c[0] - mw // 2, c[1] - 6, 9, col)
        self._g = {"kind": "nodelink", "cx": cx, "cy": cy, "r": r, "n": n, "best": best,
                   "cut_depth": None, "links": links}

    # -- overlays (per frame) -------------------------------------------------
    def _outline(self, surface: pygame.Surface, row: int, color, width: int, grow: int = 0) -> None:
        g = self._g
        if g is None or not g.get("lo", 0) <= row < g["n"]:
            return
        if g["kind"] == "icicle":
            if g["x1"][row] <= 0 or g["x0"][row] >= g["aw"]:
                return                   # zoomed off the panel
            self._outline_icicle(surface, row, color, width, self._rect.topleft, grow)
        else:
            c = (self._rect.x + g["cx"][row], self._rect.y + g["cy"][row])
            pygame.draw.circle(surface, color, c, g["r"][row] + 2 + grow, width)

    def _center(self, row: int) -> tuple[float, float]:
        g = self._g
        if g["kind"] == "icicle":
            return self._row_box(row, self._rect.topleft).center
        return self._rect.x + g["cx"][row], self._rect.y + g["cy"][row]

    def _edge(self, surface, a: int, b: int, color, width: int) -> None:
        if self._g["kind"] == "nodelink":
            pygame.draw.line(surface, color, self._center(a), self._center(b), width)

    def _rows_by_id(self) -> dict[int, int]:
        if self._id_to_row is None:
            snap = self.snapshot
            ids = [] if snap is None else snap.node.tolist()
            self._id_to_row = dict(zip(ids, range(len(ids))))
        return self._id_to_row

    def _draw_highlight(self, surface: pygame.Surface) -> None:
        if self._highlight is None or self.snapshot is None:
            return
        ids, kind, progress = self._highlight
        rows, hidden = rows_for_path(ids, self._rows_by_id())
        lo = self._g.get("lo", 0)
        drawn = [r for r in rows if lo <= r < self._g["n"]]   # scrolled off or cut: not drawn
        hidden += len(rows) - len(drawn)
        rows = drawn
        total = len(rows) + hidden
        if not rows:
            return
        if kind == "select":
            # Reveal the path from the root down as progress goes 0 -> 1.
            reveal = max(1, math.ceil(progress * total - 1e-9))
            shown = rows[:reveal]
            for a, b in zip(shown, shown[1:]):
                self._edge(surface, a, b, SELECT_PATH, 4)
            for r in shown:
                self._outline(surface, r, SELECT_PATH, 3, grow=1)
            extra = min(hidden, reveal - len(rows))
            if extra > 0:
                self._plus(surface, rows[-1], extra, SELECT_PATH)
            return
        # Backprop: a flash climbs from the leaf (progress 0) to the root (1);
        # nodes it has passed keep a fading orange outline.
        front = (1.0 - min(max(progress, 0.0), 1.0)) * (total - 1)
        for i, r in enumerate(rows):
            if i + 0.5 < front:
                self._outline(surface, r, SELECT_PATH, 1)
                continue
            dist = i - front
            col = palette.lerp(BACKPROP, (120, 90, 60), min(max(dist, 0.0) / 4.0, 1.0))
            self._outline(surface, r, col, 3 if dist < 1.0 else 2, grow=1)
            if abs(dist) < 0.5:
                self._outline(surface, r, (255, 230, 160), 2, grow=3)
        if hidden and front > len(rows) - 1 - 0.5:
            self._plus(surface, rows[-1], hidden, BACKPROP)
            self._outline(surface, rows[-1], (255, 230, 160), 2, grow=3)

    def _plus(self, surface, row: int, k: int, color) -> None:
        """'+k' beside a node: k deeper path nodes the snapshot does not show."""
        lab = fonts.text(f"+{k}", 11, color, bold=True)
        x, y = self._center(row)
        g = self._g
        if g["kind"] == "icicle":
            box = self._row_box(row, self._rect.topleft)
            x, y = box.right + 3, box.centery
        else:
            x += g["r"][row] + 4
        bg = pygame.Rect(int(x) - 1, int(y - lab.get_height() / 2) - 1, lab.get_width() + 2,
                         lab.get_height() + 2)
        surface.fill(palette.BG, bg)
        surface.blit(lab, (bg.x + 1, bg.y + 1))

    # -- step mode -------------------------------------------------------------
    def set_highlight(self, node_ids: Sequence[int] | None, kind: str = "select",
                      progress: float = 1.0) -> None:
        """Highlight a path of node ids from the root (step mode). kind:
        'select' (revealed root-down with progress) or 'backprop' (a flash
        climbing to the root as progress goes 0 -> 1). None clears."""
        if node_ids is None:
            self._highlight = None
            return
        if kind not in ("select", "backprop"):
            raise ValueError(f"kind must be 'select' or 'backprop' (got {kind!r})")
        self._highlight = (tuple(int(i) for i in node_ids), kind, float(progress))

    @property
    def highlight(self) -> tuple[tuple[int, ...], str, float] | None:
        return self._highlight

    # -- geometry of the last render (surface coordinates) ----------------------
    def node_rect(self, row: int) -> pygame.Rect | None:
        """Where snapshot row `row` was drawn: its icicle cell or its circle's
        bounding box; None if it was not drawn (depth cut, no render yet)."""
        g = self._g
        if g is None or not g.get("lo", 0) <= row < g["n"]:
            return None
        if g["kind"] == "icicle":
            x0, x1 = g["x0"][row], g["x1"][row]
            if x1 <= 0 or x0 >= g["aw"]:
                return None              # zoomed off the panel
            x0, x1 = max(x0, 0.0), min(x1, float(g["aw"]))
            band = g["band"]
            return pygame.Rect(self._rect.x + g["ax"] + round(x0),
                               self._rect.y + g["ay"] + int(g["lev"][row]) * band,
                               max(round(x1) - round(x0), 1), band - 1 if band >= 5 else band)
        r = float(g["r"][row])
        c = (self._rect.x + g["cx"][row], self._rect.y + g["cy"][row])
        return pygame.Rect(int(c[0] - r), int(c[1] - r), int(2 * r) + 1, int(2 * r) + 1)

    def node_center(self, row: int) -> tuple[int, int] | None:
        """Centre of where row `row` was drawn (None if not drawn)."""
        g = self._g
        if g is None or not g.get("lo", 0) <= row < g["n"]:
            return None
        if g["kind"] == "icicle":
            r = self.node_rect(row)
            return None if r is None else r.center
        return int(self._rect.x + g["cx"][row]), int(self._rect.y + g["cy"][row])

    # -- picking ---------------------------------------------------------------
    def row_at(self, pos: Sequence[int]) -> int | None:
        """Snapshot row under `pos` (surface coordinates) in the last render."""
        g = self._g
        if g is None or not self._rect.collidepoint(pos):
            return None
        lx = pos[0] - self._rect.x
        ly = pos[1] - self._rect.y
        if g["kind"] == "nodelink":
            d2 = (g["cx"] - lx) ** 2 + (g["cy"] - ly) ** 2
            i = int(np.argmin(d2))
            return i if d2[i] <= (g["r"][i] + 4) ** 2 else None
        lx -= g["ax"]
        ly -= g["ay"]
        if ly < 0 or lx < 0:
            return None
        level = int(ly // g["band"])
        if level >= g["nshow"]:
            return None
        s, e = int(g["starts"][level]), int(g["starts"][level + 1])
        x0, x1 = g["x0"], g["x1"]
        i = int(np.searchsorted(x0[s:e], lx, side="right")) - 1
        if i < 0 or lx >= x1[s + i]:
            return None
        row = s + i
        if x1[row] - x0[row] < 1.0:
            # Dust: the pixel shows a blend, so answer with its most-visited node.
            c = math.floor(lx)
            lo = int(np.searchsorted(x1[s:e], c, side="right"))
            hi = int(np.searchsorted(x0[s:e], c + 1, side="left"))
            if hi > lo:
                row = s + lo + int(np.argmax(self.snapshot.visits[s + lo:s + hi]))
        return row

    def node_at(self, pos: Sequence[int]) -> NodeInfo | None:
        row = self.row_at(pos)
        return None if row is None else self.info(row)

    def info(self, row: int) -> NodeInfo:
        """Everything the tooltip shows about snapshot row `row`."""
        snap = self.snapshot
        p = self.params
        rows = snap.rows
        path = snap.path_to(row)
        parent = int(rows["parent"][row])
        visits = int(rows["visits"][row])
        mean = float(rows["mean"][row])
        f = int(rows["flags"][row])
        lo, hi = self._bounds(snap)
        norm = min(max((mean - lo) / (hi - lo), 0.0), 1.0) if hi > lo else 0.5
        ucb = exploit = explore = pv = None
        penalty = 0.0
        kind = self._kind(snap)
        if parent >= 0 and (self.sampling_policy or self.range_from_rows):
            pv = int(rows["visits"][parent])
        elif parent >= 0:
            pv = int(rows["visits"][parent])
            if p.death_penalty and is_doomed(f, visits, p.death_min_visits):
                penalty = p.death_penalty_value
            # The value the NEXT pick computes: the parent is counted as
            # visited before its child is picked (tutorial §7), so ln(N + 1).
            nxt = pv + 1
            ucb = ucb_value(mean, visits, nxt, snap.norm_min, snap.norm_max, p.c, penalty)
            if visits > 0:
                exploit, explore = ucb_terms(mean, visits, nxt, snap.norm_min, snap.norm_max,
                                             p.c)
        parents = []
        if len(snap.links) or f & FLAG_SHARED:
            for pr in snap.parents_of(row):
                pp = [self.row_name(snap, r, kind) for r in snap.path_to(pr)[1:]]
                parents.append(" › ".join(pp) if pp else "root")
        return NodeInfo(
            parents=parents, shared=bool(f & FLAG_SHARED), graph=self.range_from_rows,
            agent=self.agent, row=row, node_id=int(rows["node"][row]),
            path=[self.row_name(snap, r, kind) for r in path[1:]],
            depth=int(rows["depth"][row]) - int(rows["depth"][0]), visits=visits, mean=mean,
            norm_mean=norm, ucb=ucb, prob=float(rows["prob"][row]), parent_visits=pv,
            random_phase=pv is not None and pv + 1 < p.random_threshold,
            depth_bounds=p.bounds == "depth" and int(rows["depth"][row]) - int(rows["depth"][0]) > 1,
            flags=[name for bit, name in FLAG_NAMES if f & bit], c=p.c,
            exploit=exploit, explore=explore, death_penalty=penalty,
            random_threshold=p.random_threshold, mover=int(rows["agent"][row]), kind=kind,
            sampled=self.sampling_policy)

    def hover(self, pos: Sequence[int] | None) -> NodeInfo | None:
        """Set the hovered node (None: mouse left) and return its info."""
        self._hover_pos = None if pos is None else (int(pos[0]), int(pos[1]))
        self._hover = None if pos is None else self.node_at(pos)
        self._hover_snap = self.snapshot
        return self._hover

    @property
    def hovered(self) -> NodeInfo | None:
        return self._hover

    def click(self, pos: Sequence[int]) -> NodeInfo | None:
        """Pin the node under pos (or unpin it if it is pinned; clicking
        empty space unpins). Returns the pinned node's info or None."""
        row = self.row_at(pos)
        if row is None:
            self._pinned = None
            return None
        nid = int(self.snapshot.node[row])
        if self._pinned is not None and self._pinned[0] == nid:
            self._pinned = None
            return None
        self._pinned = (nid, self._moves_to(row))
        return self.info(row)

    @property
    def selected(self) -> NodeInfo | None:
        if self._pinned is None or self.snapshot is None:
            return None
        row = self._rows_by_id().get(self._pinned[0])
        return None if row is None else self.info(row)

    def _moves_to(self, row: int) -> tuple[int, ...]:
        snap = self.snapshot
        return tuple(int(snap.move[r]) for r in snap.path_to(row)[1:])

    def _check_pinned(self) -> None:
        """Node ids are stable only until the tree re-roots: keep a pin only
        while its id still names a node at the same move path."""
        if self._pinned is None:
            return
        row = self._rows_by_id().get(self._pinned[0]) if self.snapshot is not None else None
        if row is None or self._moves_to(row) != self._pinned[1]:
            self._pinned = None

    # -- tooltip ---------------------------------------------------------------
    def tooltip_lines(self, info: NodeInfo) -> list[tuple[str, tuple[int, int, int]]]:
        T, D = palette.TEXT, palette.TEXT_DIM
        path = " › ".join(info.path) if info.path else "root"
        if len(path) > 60:
            path = "… › " + " › ".join(info.path[-6:])
        if info.kind == "sequential" and info.mover >= 0:
            head = (f"{self.agent_name(info.mover)}'s move · depth {info.depth}",
                    self.agent_color(info.mover))
        elif info.kind == "joint":
            head = (f"joint action · depth {info.depth}", T)
        else:
            head = (f"Agent {info.agent} · depth {info.depth}", self.color)
        lines = [head, (path, T)]
        if info.parent_visits is not None:
            lines.append((f"visits {info.visits:,}  ({info.prob * 100:.1f}% of parent's "
                          f"{info.parent_visits:,})", T))
        else:
            lines.append((f"visits {info.visits:,} (root)", T))
        lines.append((f"mean {info.mean:.4g}   normalised {info.norm_mean:.3f}", T))
        if info.ucb is not None:
            if math.isinf(info.ucb):
                lines.append((f"UCB at C={info.c:.2f}: ∞ (unvisited: picked first)", T))
            else:
                s = (f"UCB at C={info.c:.2f}: {info.ucb:.3f} = {info.exploit:.3f}"
                     f" + {info.explore:.3f}")
                if info.death_penalty:
                    s += f" − {info.death_penalty:.2f} (doomed)"
                lines.append((s, T))
            if info.depth_bounds:
                lines.append(("normalised by the root children's range; the search uses "
                              "this depth's own (bounds = depth)", D))
            if info.random_phase:
                lines.append((f"random phase: the parent's next visit ({info.parent_visits + 1})"
                              f" is below {info.random_threshold}: children picked uniformly",
                              palette.WARN))
            lines.append((f"policy prob (visit share) {info.prob * 100:.1f}%", D))
        elif info.graph and info.parent_visits is not None:
            lines.append(("MCGS: decoupled PUCT over each player's marginal (no UCB1); "
                          "mean = Q", D))
        elif info.sampled and info.parent_visits is not None:
            lines.append((f"{info.sampled}: moves sampled from its strategy (no UCB)", D))
        for name, prob in info.policy_probs.items():
            lines.append((f"{name} prob {prob * 100:.1f}%", D))
        if info.flags:
            lines.append(("flags: " + ", ".join(info.flags), D))
        if info.shared or len(info.parents) > 1:
            lines.append((f"shared graph node: {len(info.parents)} parent(s) in view", SHARED))
            for pp in info.parents[:6]:
                lines.append(("  from " + (pp if len(pp) <= 60 else "… " + pp[-58:]), SHARED))
            if len(info.parents) > 6:
                lines.append((f"  +{len(info.parents) - 6} more", SHARED))
        return lines

    def pinned_box(self, bounds: pygame.Rect | Sequence[int]) -> pygame.Rect | None:
        """Where the pinned node's facts go inside bounds: off the node
        (tree_explore.place_box); None if nothing is pinned or shown."""
        info = self.selected
        if info is None:
            return None
        labs = [fonts.text(s, 11, c) for s, c in self.tooltip_lines(info)]
        size = (max(l.get_width() for l in labs) + 12, sum(l.get_height() for l in labs) + 8)
        b = pygame.Rect(bounds)
        if b.h - HEADER_H >= size[1] + 4:   # keep the header (breadcrumbs) readable
            b = pygame.Rect(b.x, b.y + HEADER_H, b.w, b.h - HEADER_H)
        return place_box(size, self.node_rect(info.row), b)

    def draw_pinned(self, surface: pygame.Surface, bounds: pygame.Rect | Sequence[int]) -> None:
        """The pinned node's facts, kept off the node itself."""
        box = self.pinned_box(bounds)
        if box is not None:
            self._draw_box(surface, box, self.tooltip_lines(self.selected))

    def draw_tooltip(self, surface: pygame.Surface, pos: Sequence[int],
                     info: NodeInfo | None) -> None:
        """A box of node facts near `pos`, kept inside the surface."""
        if info is None:
            return
        lines = self.tooltip_lines(info)
        labs = [fonts.text(s, 11, c) for s, c in lines]
        w = max(l.get_width() for l in labs) + 12
        h = sum(l.get_height() for l in labs) + 8
        sw, sh = surface.get_size()
        x, y = int(pos[0]) + 14, int(pos[1]) + 14
        if x + w > sw:
            x = max(0, int(pos[0]) - 14 - w)
        if y + h > sh:
            y = max(0, int(pos[1]) - 14 - h)
        self._draw_box(surface, pygame.Rect(x, y, w, h), lines)

    def _draw_box(self, surface: pygame.Surface, box: pygame.Rect, lines) -> None:
        labs = [fonts.text(s, 11, c) for s, c in lines]
        x, y = box.topleft
        surface.fill(palette.PANEL_HI, box)
        pygame.draw.rect(surface, palette.BORDER, box, 1)
        ty = y + 4
        for lab in labs:
            surface.blit(lab, (x + 6, ty))
            ty += lab.get_height()


_GRADIENTS: dict[tuple[int, int], pygame.Surface] = {}   # cache: legend bars by size


def _gradient(w: int, h: int) -> pygame.Surface:
    s = _GRADIENTS.get((w, h))
    if s is None:
        idx = np.clip((np.arange(w) / max(w - 1, 1) * 255).astype(int), 0, 255)
        img = np.repeat(_LUT[idx][None, :, :], h, 0).astype(np.uint8)
        s = pygame.image.frombuffer(img.tobytes(), (w, h), "RGB").copy()
        _GRADIENTS[(w, h)] = s
    return s


def _hatch(img: np.ndarray, mask: np.ndarray, band: int, gap: int, color, kind: int) -> None:
    """Paint a pattern over the pixels of masked (level, column) cells:
    kind 0 = '/' hatch, 1 = '\\' hatch, 2 = dots. Work is proportional to
    the masked area, not the image."""
    lv, xs = np.nonzero(mask)
    if len(lv) == 0:
        return
    ys = lv[:, None] * band + np.arange(band - gap)[None, :]
    xs = np.broadcast_to(xs[:, None], ys.shape)
    if kind == 0:
        sel = (xs + ys) % 5 == 0
    elif kind == 1:
        sel = (xs - ys) % 4 == 0
    else:
        sel = ((xs % 3) == 1) & ((ys % 3) == 1)
    ys, xs = ys[sel], xs[sel]
    keep = ys < img.shape[0]
    img[ys[keep], xs[keep]] = color


def _dashed(surf: pygame.Surface, color, a, b, width: int = 1, dash: float = 5.0,
            gap: float = 4.0) -> None:
    """A dashed line from a to b (pygame has none)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        pygame.draw.line(surf, color, (a[0] + ux * t, a[1] + uy * t),
                         (a[0] + ux * e, a[1] + uy * e), width)
        t = e + gap


def _blit_mono(surf: pygame.Surface, s: str, x: int, y: int, size: int, color) -> None:
    """Numbers glyph by glyph from the cached label store: visit counts change
    every update, single characters do not."""
    adv = fonts.font(size, mono=True).size("0")[0]
    for ch in s:
        surf.blit(fonts.text(ch, size, color, mono=True), (x, y))
        x += adv

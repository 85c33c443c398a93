"""What the tree view does with the mouse and the explorer's keys: zoom and pan, re-root
into a subtree and back up the breadcrumbs, find a move path, export, hover, click
and pin a node, the step-mode highlight, the NodeInfo of a row."""
from __future__ import annotations

import math
import os
import re
from typing import Sequence

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..native.snapshot import FLAG_PRIOR, FLAG_SHARED, TreeSnapshot
from . import fonts
from .tree_explore import export_tree, path_steps, place_box, row_at_path
from .tree_layout import is_doomed, ucb_terms, ucb_value
from .tree_common import FLAG_NAMES, FOOTER_H, HEADER_H, MAX_ZOOM, MIN_BAND, NodeInfo


class TreeInteraction:
    """TreeView's part: interaction (a mixin over the view's state)."""

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

    def legend_tip(self, pos: Sequence[int]) -> str:
        """The meaning of the legend term under pos (surface coordinates),
        else "": the footer's words are the glossary's (settings.glossary)."""
        from ..settings.glossary import term_tip
        lx, ly = pos[0] - self._rect.x, pos[1] - self._rect.y
        for term, r in getattr(self, "_legend_rects", ()):
            if r.collidepoint(lx, ly):
                return term_tip(term)
        return ""

    def reset_zoom(self) -> None:
        self.zoom, self.view_x, self.scroll_y = 1.0, 0.0, 0.0

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
        # priors make the UCB1 searches choose by decoupled PUCT: no UCB1 value
        puct = p.priors != "uniform" and not self.range_from_rows and p.ucb_takes_priors
        if parent >= 0 and (self.sampling_policy or self.range_from_rows or puct):
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
            sampled=self.sampling_policy, puct_c=p.c_puct if puct else None,
            prior=float(rows["prior"][row]) if f & FLAG_PRIOR else None,
            prior_source=(("net off: uniform" if p.priors == "net" and not p.value_net
                           else p.priors) if f & FLAG_PRIOR else ""),
            net_value=self.net_value(snap, row) if self.net_value is not None else None)

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

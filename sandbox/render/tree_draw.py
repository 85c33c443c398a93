"""How the tree view draws: the header and footer, the icicle and node-link renders into
the cached surface, the outlines of hover, selection and step highlights, tooltips and
the pinned box."""
from __future__ import annotations

import math
import os
from typing import Sequence

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..native.snapshot import FLAG_DOOMED, FLAG_PASS, FLAG_SHARED, FLAG_TRUNCATED, TreeSnapshot
from . import fonts, palette  # noqa: E402
from .tree_layout import (compact_count, level_movers, level_starts, nodelink_layout,
                          rasterize_intervals, rows_for_path)
from .tree_common import (BACKPROP, BEST_LINE, DARK_TEXT, DOOMED_FILL, DOOMED_STRIPE, FOOTER_H,
                          GUTTER, HEADER_H, HIDDEN_DOT, HIDDEN_FILL, LINK, MAX_BAND, MIN_BAND,
                          NodeInfo, PAD, PASS_FILL, PASS_STRIPE, SELECT_PATH, SHARED, STRIP_W,
                          _FLAT_COLORS, _LUT, _blit_mono, _dashed, _gradient, _hatch, _lum)


def _hits_circle(box: pygame.Rect, cx: float, cy: float, r: float) -> bool:
    """Whether a label's box overlaps a node's circle (its ring included)."""
    nx = min(max(cx, box.left), box.right)
    ny = min(max(cy, box.top), box.bottom)
    return (nx - cx) ** 2 + (ny - cy) ** 2 < (r + 2) ** 2


class TreeDrawing:
    """TreeView's part: drawing (a mixin over the view's state)."""

    def _header(self, surf: pygame.Surface, snap: TreeSnapshot | None, layout: str) -> None:
        w = surf.get_width()
        pygame.draw.rect(surf, self.color, (PAD, 4, 10, 10))
        x = PAD + 14
        title = fonts.text(self.title or f"Agent {self.agent}", 12, palette.TEXT, bold=True)
        surf.blit(title, (x, 1))
        x += title.get_width() + 8
        self._crumb_rects = []
        if len(self._crumbs) > 1:
            x = self._draw_crumbs(surf, x, w - PAD) + 8
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

    def _draw_crumbs(self, surf: pygame.Surface, x: int, right: int) -> int:
        """Breadcrumbs from `x`, each a way back up (a click; Backspace: one
        up). Where they do not all fit, the first (the search's root) and
        the last ones (where the view is now) stay and "…" stands for the
        middle; the current one is cut only when it alone does not fit.
        (Cut from the end, the view's own place was the one lost.)
        Returns the x after them."""
        names = self._crumb_names
        n = len(names)
        sep = fonts.text("›", 11, palette.TEXT_DIM)
        dots = fonts.text("…", 11, palette.TEXT_DIM)
        sep_w = sep.get_width() + 8

        def lab(i: int, room: int = 90) -> pygame.Surface:
            last = i == n - 1
            return fonts.text(fonts.elide(names[i], 11, room), 11,
                              palette.TEXT if last else palette.ACCENT, bold=last)

        labs = {i: lab(i) for i in range(n)}

        def gaps(shown: list[int]) -> int:    # places where "…" stands for crumbs
            return sum(1 for k, i in enumerate(shown) if i != (shown[k - 1] + 1 if k else 0))

        def width(shown: list[int]) -> int:
            return (sum(labs[i].get_width() + 2 for i in shown) + sep_w * (len(shown) - 1)
                    + gaps(shown) * (dots.get_width() + sep_w))

        shown = list(range(n))
        while len(shown) > 2 and x + width(shown) > right:
            shown.pop(1)                      # the oldest crumb after the root
        if x + width(shown) > right:
            shown = [n - 1]
        if x + width(shown) > right:          # the current crumb alone, cut to fit
            labs[n - 1] = lab(n - 1, max(10, right - x - 4 - dots.get_width() - sep_w))
        self._crumb_rects = []
        for k, i in enumerate(shown):
            if i != (shown[k - 1] + 1 if k else 0):   # crumbs left out here
                surf.blit(dots, (x, 3))
                x += dots.get_width() + 2
                surf.blit(sep, (x + 2, 3))
                x += sep_w - 2
            surf.blit(labs[i], (x, 3))
            self._crumb_rects.append((i, pygame.Rect(x - 2, 0, labs[i].get_width() + 4,
                                                     HEADER_H)))
            x += labs[i].get_width() + 2
            if i != n - 1:
                surf.blit(sep, (x + 2, 3))
                x += sep_w - 2
        return x

    def _footer(self, surf: pygame.Surface, snap: TreeSnapshot) -> None:
        w, h = surf.get_size()
        y = h - FOOTER_H + 2
        # the legend's own band: a deep graph that scrolls must not show through it
        surf.fill(palette.PANEL, (0, h - FOOTER_H, w, FOOTER_H))
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
            note = ("◆ shared · dashed: other parents" if self._layout_now == "nodelink"
                    else "◆ shared: shown once, under its 1st parent (no DAG here)")
            lab = fonts.text(fonts.elide(note, 10, max(0, w - PAD - x)), 10, SHARED)
            surf.blit(lab, (x, y))
            x += lab.get_width() + 10
        self._legend_rects = []
        for fill, name in ((PASS_FILL, "pass"), (DOOMED_FILL, "doomed"), (HIDDEN_FILL, "hidden")):
            lab = fonts.text(name, 10, palette.TEXT_DIM)
            if x + 12 + lab.get_width() > w - PAD:
                break
            # hovered, the term's meaning (tree_interact.legend_tip)
            self._legend_rects.append((name, pygame.Rect(x, y, 12 + lab.get_width(), 13)))
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
        # nodes, edges and labels stay between the header and the legend (a
        # deep graph scrolls: its lower levels lie below the panel)
        clip = surf.get_clip()
        surf.set_clip(pygame.Rect(0, HEADER_H, w, h - HEADER_H - FOOTER_H).clip(clip))
        try:
            self._nodelink_body(surf, snap, area, gutter)
        finally:
            surf.set_clip(clip)

    def _nodelink_body(self, surf: pygame.Surface, snap: TreeSnapshot, area: pygame.Rect,
                       gutter: int) -> None:
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
                if F[i] & FLAG_PASS:   # its grey striped circle says it: a dead
                    continue           # agent's chain of "pass" labels sat on the circles
                name = self.row_name(snap, i, kind)
                lab = fonts.text(name, fs, palette.TEXT if B[i] else palette.TEXT_DIM)
                room = G[i] * 0.72 - 4      # labels sit 72% of the way to the child
                if lab.get_width() > room:
                    lab = fonts.text(name[0], fs, palette.TEXT_DIM)
                    if lab.get_width() > room:
                        continue
                p = P[i]
                box = pygame.Rect(0, 0, lab.get_width(), lab.get_height())
                # 72% of the way to the child; else halfway, on the edge or
                # beside it; never over a circle (the child's or the parent's)
                for t, dx in ((0.72, 0.0), (0.5, 0.0), (0.5, box.w / 2 + 5)):
                    box.center = (int(X[p] + (X[i] - X[p]) * t + dx),
                                  int(Y[p] + (Y[i] - Y[p]) * t))
                    if not any(_hits_circle(box, X[k], Y[k], R[k]) for k in (i, p)):
                        surf.blit(lab, box)
                        break
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

    def _edge(self, surface, a: int, b: int, color, width: int) -> None:
        if self._g["kind"] == "nodelink":
            pygame.draw.line(surface, color, self._center(a), self._center(b), width)

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
        elif info.puct_c is not None and info.parent_visits is not None:
            lines.append((f"decoupled PUCT at c_puct={info.puct_c:.2f} (priors): "
                          "Q + c·P·√N / (1 + n), no UCB1", D))
        elif info.sampled and info.parent_visits is not None:
            lines.append((f"{info.sampled}: moves sampled from its strategy (no UCB)", D))
        for name, prob in info.policy_probs.items():
            lines.append((f"{name} prob {prob * 100:.1f}%", D))
        if info.prior is not None:
            whose = "the joint action's prior" if info.kind == "joint" else "prior"
            lines.append((f"{whose} ({info.prior_source}) {info.prior * 100:.1f}%", T))
        if info.net_value is not None:
            lines.append((f"net's value here {info.net_value:+.3f}", T))
        if info.flags:
            lines.append(("flags: " + ", ".join(info.flags), D))
        if info.shared or len(info.parents) > 1:
            lines.append((f"shared graph node: {len(info.parents)} parent(s) in view", SHARED))
            for pp in info.parents[:6]:
                lines.append(("  from " + (pp if len(pp) <= 60 else "… " + pp[-58:]), SHARED))
            if len(info.parents) > 6:
                lines.append((f"  +{len(info.parents) - 6} more", SHARED))
        return lines

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

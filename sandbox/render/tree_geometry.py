"""Where the tree view's rows are on screen: the icicle's band height and unit layout,
the zoomed area, a row's box or centre in the last render, the player gutter."""
from __future__ import annotations

import math
import os

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..native.snapshot import TreeSnapshot
from .tree_layout import icicle_layout
from .tree_common import GUTTER, GUTTER_MIN_W, MIN_BAND, PAD, STRIP_W


class TreeGeometry:
    """TreeView's part: where rows are on screen (a mixin over the view's state)."""

    def _band(self) -> float:
        g = self._g
        return float(g["band"]) if g is not None and g["kind"] == "icicle" else float(MIN_BAND)

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

    def _bounds(self, snap: TreeSnapshot) -> tuple[float, float]:
        """The range the means are shaded by: the search's score bounds, or
        (range_from_rows, when it has none) the visited rows' own range."""
        lo, hi = snap.norm_min, snap.norm_max
        if self.range_from_rows and not hi > lo and len(snap.rows):
            seen = snap.mean[snap.visits > 0]
            if len(seen):
                lo, hi = float(seen.min()), float(seen.max())
        return lo, hi

    # -- icicle ----------------------------------------------------------------
    def _gutter(self, snap: TreeSnapshot, w: int) -> int:
        """Width kept at the left for the player of each depth row (SUCT)."""
        if self._kind(snap) != "sequential":
            return 0
        return GUTTER if w >= GUTTER_MIN_W else STRIP_W + 2

    def _unit_layout(self, snap: TreeSnapshot) -> tuple[np.ndarray, np.ndarray]:
        """icicle_layout of the snapshot, once per snapshot (zoom and pan
        frames re-render from it)."""
        if self._unit is None or self._unit[0] is not snap:
            self._unit = (snap, *icicle_layout(snap))
        return self._unit[1], self._unit[2]

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

    def _center(self, row: int) -> tuple[float, float]:
        g = self._g
        if g["kind"] == "icicle":
            return self._row_box(row, self._rect.topleft).center
        return self._rect.x + g["cx"][row], self._rect.y + g["cy"][row]

    def _rows_by_id(self) -> dict[int, int]:
        if self._id_to_row is None:
            snap = self.snapshot
            ids = [] if snap is None else snap.node.tolist()
            self._id_to_row = dict(zip(ids, range(len(ids))))
        return self._id_to_row

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

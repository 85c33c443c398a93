"""What the tree view's parts share: the colours and sizes of the drawing, the value
colour table, NodeInfo (one node as the tooltip and the inspector show it) and a few
drawing primitives pygame lacks (dashed lines, hatching, glyph-cached numbers)."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..native.snapshot import (FLAG_DIED, FLAG_DOOMED, FLAG_PASS, FLAG_SHARED, FLAG_SURVIVED,
                               FLAG_TRUNCATED, MOVE_NONE)
from . import fonts, palette  # noqa: E402


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
    # The search's prior of the node's move (FLAG_PRIOR rows; joint-action
    # rows: the joint action's), and where it came from (heuristic, net).
    prior: float | None = None
    prior_source: str = ""
    puct_c: float | None = None  # the search chooses by decoupled PUCT (priors): its c_puct
    # The value net's value, for the tree's agent, of the state the node's
    # joint actions reach from the root (TreeView.net_value): None where the
    # view has no such reader or the node is not one state.
    net_value: float | None = None
    graph: bool = False          # an MCGS graph: PUCT selection, no UCB1 to show


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

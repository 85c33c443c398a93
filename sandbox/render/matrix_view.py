"""MatrixView: the root of a two-player search as a joint-action heat map.

    view = MatrixView(colors, names, move_names)        # per panel, once
    view.update(matrix, nodes=..., hits=...)            # a RootMatrix (sandbox.native)
    view.draw(surface, rect)                            # cached; re-rendered on new data
    info = view.hover(pos); view.draw_tooltip(surface, pos, info)

What it shows (MCGS's outcome pairs, or joint-action MCTS's children with two
agents; Search.root_matrix):

  +-----------------------------------------------------------+
  | MCGS root · 2,000 playouts · 812 nodes · 340 transp. hits  |  header
  | V  Red 3.21  Blue 2.80        shade = visits               |
  |          left  right  stay   ...  (player 1's moves)       |
  |  up    [####][##  ][    ]  ▇▇▇▇▇ 43%  Q 3.2                |  player 0's
  |  down  [#   ][    ][  ##]  ▇▇ 12%  Q 2.9                   |  marginal policy
  |          ▇      ▇▇    ▇                                    |  player 1's
  |         12%    60%   28%                                   |  marginal policy
  +-----------------------------------------------------------+

Rows are player 0's moves, columns player 1's (named with the game's move
names); a cell's shade is its share of the most visited cell's visits, with
the count where it fits; the bars on the margins are each player's marginal
visit shares, i.e. the final policy (RootMatrix.policies), with the marginal
value Q beside them where there is room. Hovering a cell gives its visits and
both players' Q; hovering a bar gives that move's policy, Q and prior. Before
the first playout (no matrix, or a 0 x 0 one) it says so.

Drawing goes into a cached Surface of the rect's size (re-rendered when the
matrix object or the size changes), so nothing is ever drawn outside the rect.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import fonts, palette  # noqa: E402
from .tree_layout import compact_count  # noqa: E402

CELL_LO = (44, 48, 62)        # a visited cell's darkest shade
CELL_HI = (255, 214, 110)     # the most visited cell
UNVISITED = (30, 32, 40)
BEST = (245, 247, 252)        # outline of the most visited cell
HOVER = (255, 236, 130)
DARK_TEXT = (18, 20, 26)
MAX_CELL = 46
EMPTY_TEXT = "before the first playout: no root matrix yet"


def cell_color(visits: int, max_visits: int) -> tuple[int, int, int]:
    """A cell's fill: unvisited, or from CELL_LO to CELL_HI by its share of
    the most visited cell's visits (never darker with more visits)."""
    if visits <= 0 or max_visits <= 0:
        return UNVISITED
    return palette.lerp(CELL_LO, CELL_HI, visits / max_visits)


def _lum(c: Sequence[float]) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _fit_count(v: int, size: int, room: int) -> tuple[str, int] | None:
    """A count's label and font size that fit `room` pixels: the compact
    count ("4.9k") at `size` or smaller (down to 7 px), then without its
    decimal ("5k"). None where nothing fits. A cell was drawn solid with
    no number when "4.9k" was a few pixels too wide at the first size."""
    s = compact_count(v)
    shorter = s if "." not in s else f"{round(float(s[:-1])):d}{s[-1]}"
    for t in dict.fromkeys((s, shorter)):
        for fs in range(size, 6, -1):
            if fonts.font(fs, mono=True).size(t)[0] <= room:
                return t, fs
    return None


def _q(v: float) -> str:
    return "—" if v != v else f"{v:.3g}"


@dataclass(frozen=True)
class MatrixInfo:
    """What the tooltip shows: a cell (kind 'cell', row i and column j), a
    row's or a column's marginal (kind 'row' / 'col')."""
    kind: str
    i: int = -1
    j: int = -1
    moves: tuple[int, int] = (-1, -1)     # player 0's / player 1's move (-1: n/a)
    visits: int = 0
    share: float = 0.0                     # of the root's visits
    values: tuple[float, float] = (math.nan, math.nan)   # cell: each player's Q
    value: float = math.nan                # marginal: that player's Q
    policy: float = 0.0                    # marginal: the final policy
    prior: float = math.nan
    root_visits: int = 0


class MatrixView:
    def __init__(self, colors: Sequence[tuple[int, int, int]], names: Sequence[str],
                 move_names: Sequence[Callable[[int], str]], title: str = "root") -> None:
        self.colors = [tuple(c) for c in colors[:2]]
        self.names = list(names[:2])
        self.move_names = list(move_names[:2])
        self.title = title
        self.matrix = None
        self.nodes = 0
        self.hits: int | None = None
        self.render_count = 0
        self._surf: pygame.Surface | None = None
        self._rendered: tuple | None = None
        self._rect = pygame.Rect(0, 0, 0, 0)
        self._g: dict | None = None
        self._hover: MatrixInfo | None = None
        self._hover_pos: tuple[int, int] | None = None
        self._rendered_matrix = None

    # -- data in ---------------------------------------------------------------
    def update(self, matrix, nodes: int = 0, hits: int | None = None,
               title: str | None = None) -> None:
        """A new RootMatrix (or None: no search data yet). `hits`: MCGS's
        transposition hits (None: the search has none to count)."""
        self.matrix = matrix
        self.nodes = int(nodes)
        self.hits = hits
        if title is not None:
            self.title = title

    @property
    def empty(self) -> bool:
        m = self.matrix
        return m is None or 0 in m.shape or m.root_visits <= 0

    def move_label(self, player: int, move: int) -> str:
        if move < 0 or move == 255:
            return "none"
        if player < len(self.move_names):
            return self.move_names[player](int(move))
        return str(move)

    def name(self, player: int) -> str:
        return self.names[player] if player < len(self.names) else f"P{player}"

    def color(self, player: int) -> tuple[int, int, int]:
        return self.colors[player] if player < len(self.colors) else palette.agent_color(player)

    # -- rendering -------------------------------------------------------------
    def _key(self, size) -> tuple:
        # the matrix itself, compared by identity below (an id() could be
        # reused by a new matrix once the old one is freed)
        return (size, self.nodes, self.hits, self.title)

    def prepare(self, rect) -> bool:
        rect = pygame.Rect(rect)
        self._rect = rect
        size = (max(rect.w, 1), max(rect.h, 1))
        key = self._key(size)
        if self._rendered == key and self._rendered_matrix is self.matrix \
                and self._surf is not None:
            return False
        if self._surf is None or self._surf.get_size() != size:
            self._surf = pygame.Surface(size)
        surf = self._surf
        surf.fill(palette.PANEL)
        self._g = None
        self._render(surf)
        self._rendered = key
        self._rendered_matrix = self.matrix
        if self._hover_pos is not None:   # the numbers under a resting mouse move on
            self._hover = self.at(self._hover_pos)
        self.render_count += 1
        return True

    def draw(self, surface: pygame.Surface, rect) -> None:
        rect = pygame.Rect(rect)
        self.prepare(rect)
        surface.blit(self._surf, rect.topleft)
        if self._hover is not None and self._g is not None:
            box = self._info_box(self._hover)
            if box is not None:
                clip = surface.get_clip()
                surface.set_clip(rect.clip(clip) if clip else rect)
                pygame.draw.rect(surface, HOVER, box.move(rect.topleft), 2)
                surface.set_clip(clip)

    def _render(self, surf: pygame.Surface) -> None:
        w, h = surf.get_size()
        m = self.matrix
        head = self._header(surf, w, h)
        if self.empty:
            lab = fonts.text(fonts.elide(EMPTY_TEXT, 11, w - 8), 11, palette.TEXT_DIM)
            surf.blit(lab, ((w - lab.get_width()) // 2, max(head, (h - lab.get_height()) // 2)))
            return
        n1, n2 = m.shape
        visits = m.visits
        vmax = int(visits.max())
        pol = m.policies()
        fs = 10
        f = fonts.font(fs)
        # room for the labels and the marginal bars, then the largest square cell
        row_names = [self.move_label(0, mv) for mv in m.moves[0]]
        col_names = [self.move_label(1, mv) for mv in m.moves[1]]
        lw = min(max(f.size(s)[0] for s in row_names) + 6, max(24, w // 5))
        lh = f.get_linesize()
        rb = int(min(130, max(36, w * 0.26)))
        bb = int(min(34, max(14, (h - head) * 0.18)))
        aw, ah = w - lw - rb - 4, h - head - lh - bb - 2
        cs = int(min(MAX_CELL, aw / n2 if n2 else 0, ah / n1 if n1 else 0))
        if cs < 2:
            lab = fonts.text(fonts.elide(f"{n1}x{n2} matrix: too small to draw here", 10, w - 8),
                             10, palette.TEXT_DIM)
            surf.blit(lab, (4, head))
            return
        gx, gy = lw + 2, head + lh
        grid = pygame.Rect(gx, gy, cs * n2, cs * n1)
        gap = 1 if cs >= 6 else 0
        cells: dict[tuple[int, int], pygame.Rect] = {}
        best = np.unravel_index(int(np.argmax(visits)), visits.shape)
        nfs = max(8, min(11, cs // 3 + 2))
        nf = fonts.font(nfs, mono=True)
        for i in range(n1):
            for j in range(n2):
                r = pygame.Rect(gx + j * cs, gy + i * cs, cs - gap, cs - gap)
                cells[(i, j)] = r
                v = int(visits[i, j])
                c = cell_color(v, vmax)
                surf.fill(c, r)
                if v <= 0:
                    if cs >= 8:
                        surf.fill(palette.GRID, (r.centerx - 1, r.centery - 1, 2, 2))
                    continue
                fit = _fit_count(v, nfs, cs - 3) if cs >= 12 else None
                if fit is not None:   # a shaded cell always says its count where it can
                    lab = fonts.text(fit[0], fit[1], DARK_TEXT if _lum(c) > 120 else palette.TEXT,
                                     mono=True)
                    surf.blit(lab, lab.get_rect(center=r.center))
        pygame.draw.rect(surf, BEST, cells[(int(best[0]), int(best[1]))].inflate(2, 2),
                         2 if cs >= 8 else 1)
        # labels: player 0's moves left of the rows, player 1's above the columns
        rfs = fs if cs >= 11 else 8
        rstep = 1 if cs >= 9 else max(1, math.ceil(10 / cs))
        for i, s in enumerate(row_names):
            if cs < 4:
                break
            if i % rstep:
                continue
            lab = fonts.text(fonts.elide(s, rfs, lw - 4), rfs, self.color(0))
            surf.blit(lab, (lw - 2 - lab.get_width(), gy + i * cs + (cs - gap - lab.get_height()) // 2))
        # a name that does not fit its column: its initial (words), or every
        # k-th label in a smaller font (numbers: "1" for "10" would mislead)
        cfs = fs if all(f.size(s)[0] <= cs - 1 for s in col_names) else 8
        widest = max(fonts.font(cfs).size(s)[0] for s in col_names)
        step = 1 if widest <= cs else max(1, math.ceil((widest + 3) / cs))
        for j, s in enumerate(col_names):
            if cs < 5:
                break
            t = s
            if fonts.font(cfs).size(s)[0] > cs - 1 and s[:1].isalpha():
                t, step = s[0], 1
            elif j % step:
                continue
            lab = fonts.text(t, cfs, self.color(1))
            x = gx + j * cs + (cs - gap - lab.get_width()) // 2
            if x + lab.get_width() <= w - 2:
                surf.blit(lab, (max(gx, x), head + (lh - lab.get_height()) // 2))
        # marginal policies: player 0's bars to the right of its rows ...
        row_bars, col_bars = [], []
        bx = grid.right + 4
        blen = rb - 6
        for i in range(n1):
            y = gy + i * cs
            bh = max(1, cs - gap - (2 if cs >= 8 else 0))
            r = pygame.Rect(bx, y + (cs - gap - bh) // 2, max(1, round(pol[0][i] * blen)), bh)
            row_bars.append(pygame.Rect(bx, y, blen, cs - gap))
            surf.fill(palette.PANEL_HI, (bx, r.y, blen, bh))
            if pol[0][i] > 0:
                surf.fill(self.color(0), r)
            if cs >= 11:
                s = f"{pol[0][i] * 100:.0f}%  Q {_q(m.marginal_values[0][i])}"
                if fonts.font(9).size(s)[0] > blen - 4:
                    s = f"{pol[0][i] * 100:.0f}%"
                lab = fonts.text(fonts.elide(s, 9, blen - 2), 9, palette.TEXT)
                shade = pygame.Surface(lab.get_size(), pygame.SRCALPHA)
                shade.fill((0, 0, 0, 110))
                surf.blit(shade, (bx + 2, r.centery - lab.get_height() // 2))
                surf.blit(lab, (bx + 2, r.centery - lab.get_height() // 2))
        # ... player 1's below its columns
        by = grid.bottom + 3
        bl = bb - 3
        for j in range(n2):
            x = gx + j * cs
            bw = max(1, cs - gap - (2 if cs >= 8 else 0))
            col_bars.append(pygame.Rect(x, by, cs - gap, bl))
            surf.fill(palette.PANEL_HI, (x + (cs - gap - bw) // 2, by, bw, bl))
            hgt = round(pol[1][j] * bl)
            if hgt > 0:
                surf.fill(self.color(1), (x + (cs - gap - bw) // 2, by, bw, hgt))
            if cs >= 16 and bl >= 11:
                s = f"{pol[1][j] * 100:.0f}%"
                for pfs in (9, 8, 7):   # "100%" in a narrow column: a smaller font
                    lab = fonts.text(s, pfs, palette.TEXT)
                    if lab.get_width() <= cs - gap:
                        break
                else:
                    continue
                lx = x + (cs - gap - lab.get_width()) // 2
                ly = min(by + bl - lab.get_height(), h - 1 - lab.get_height())
                shade = pygame.Surface(lab.get_size(), pygame.SRCALPHA)
                shade.fill((0, 0, 0, 110))     # readable on the player's bar too
                surf.blit(shade, (lx, ly))
                surf.blit(lab, (lx, ly))
        self._g = {"grid": grid, "cs": cs, "n": (n1, n2), "cells": cells, "row_bars": row_bars,
                   "col_bars": col_bars, "best": (int(best[0]), int(best[1])), "head": head}

    def _header(self, surf: pygame.Surface, w: int, h: int) -> int:
        """The title line (playouts, nodes, transposition hits) and, where
        the height allows, a second line with each player's root value.
        Returns the header's height."""
        m = self.matrix
        y = 1
        s = self.header_text(w - 8)
        surf.blit(fonts.text(fonts.elide(s, 11, w - 8), 11, palette.TEXT), (4, y))
        y += 15
        if self.empty or h < 90:
            return y + 1
        x = 4
        lab = fonts.text("V", 10, palette.TEXT_DIM, bold=True)
        surf.blit(lab, (x, y))
        x += lab.get_width() + 6
        for p in range(2):
            s = f"{self.name(p)} {_q(m.root_values[p])}"
            lab = fonts.text(fonts.elide(s, 10, max(10, w // 3)), 10, self.color(p), bold=True)
            surf.blit(lab, (x, y))
            x += lab.get_width() + 10
        legend = fonts.text("shade = visits · bars = final policy", 10, palette.TEXT_DIM)
        if x + legend.get_width() <= w - 4:
            surf.blit(legend, (w - 4 - legend.get_width(), y))
        return y + 15

    def header_text(self, room: int) -> str:
        """The title line in `room` pixels: the longest form that fits, from
        the full words down to compact counts without the title. The
        transposition hits (MCGS's point) go before the title does; they
        used to be the first part cut in the default panel."""
        m = self.matrix
        playouts = None if self.empty else m.root_visits
        hits = self.hits

        def line(title: bool, compact: bool, hits_word: str) -> str:
            n = compact_count if compact else (lambda v: f"{v:,}")
            parts = [self.title] if title else []
            if playouts is not None:
                parts.append(f"{n(playouts)} playouts")
            parts.append(f"{n(self.nodes)} nodes")
            if hits is not None:
                parts.append(f"{n(hits)} {hits_word}")
            return ("  ·  " if not compact else " · ").join(parts)

        f = fonts.font(11)
        forms = [line(True, False, "transposition hits"), line(True, False, "transp. hits"),
                 line(True, True, "transp. hits"), line(False, True, "transp. hits"),
                 line(False, True, "hits")]
        for s in forms:
            if f.size(s)[0] <= room:
                return s
        return forms[-1]

    # -- geometry (surface coordinates) ------------------------------------------
    def cell_rect(self, i: int, j: int) -> pygame.Rect | None:
        g = self._g
        if g is None or (i, j) not in g["cells"]:
            return None
        return g["cells"][(i, j)].move(self._rect.topleft)

    def _info_box(self, info: MatrixInfo) -> pygame.Rect | None:
        g = self._g
        if info.kind == "cell":
            return g["cells"].get((info.i, info.j))
        if info.kind == "row" and info.i < len(g["row_bars"]):
            return g["row_bars"][info.i]
        if info.kind == "col" and info.j < len(g["col_bars"]):
            return g["col_bars"][info.j]
        return None

    def at(self, pos) -> MatrixInfo | None:
        """The cell or marginal bar under `pos` (surface coordinates)."""
        g = self._g
        if g is None or self.empty or not self._rect.collidepoint(pos):
            return None
        lx, ly = pos[0] - self._rect.x, pos[1] - self._rect.y
        m = self.matrix
        cs = g["cs"]
        grid = g["grid"]
        n1, n2 = g["n"]
        pol = m.policies()
        total = max(m.root_visits, 1)
        if grid.collidepoint(lx, ly):
            i, j = int((ly - grid.y) // cs), int((lx - grid.x) // cs)
            i, j = min(i, n1 - 1), min(j, n2 - 1)
            v = int(m.visits[i, j])
            return MatrixInfo("cell", i, j, (m.moves[0][i], m.moves[1][j]), v, v / total,
                              (float(m.values[0, i, j]), float(m.values[1, i, j])),
                              root_visits=m.root_visits)
        for i, r in enumerate(g["row_bars"]):
            if r.collidepoint(lx, ly):
                v = int(m.marginal_visits[0][i])
                return MatrixInfo("row", i, -1, (m.moves[0][i], -1), v, v / total,
                                  value=float(m.marginal_values[0][i]), policy=float(pol[0][i]),
                                  prior=float(m.priors[0][i]), root_visits=m.root_visits)
        for j, r in enumerate(g["col_bars"]):
            if r.collidepoint(lx, ly):
                v = int(m.marginal_visits[1][j])
                return MatrixInfo("col", -1, j, (-1, m.moves[1][j]), v, v / total,
                                  value=float(m.marginal_values[1][j]), policy=float(pol[1][j]),
                                  prior=float(m.priors[1][j]), root_visits=m.root_visits)
        return None

    def hover(self, pos) -> MatrixInfo | None:
        """Set the position under the mouse (None: elsewhere); returns what
        is there. Kept: a new matrix under a resting mouse updates it."""
        self._hover_pos = None if pos is None else (int(pos[0]), int(pos[1]))
        self._hover = None if pos is None else self.at(pos)
        return self._hover

    @property
    def hovered(self) -> MatrixInfo | None:
        return self._hover

    # -- tooltip ---------------------------------------------------------------
    def tooltip_lines(self, info: MatrixInfo) -> list[tuple[str, tuple[int, int, int]]]:
        T, D = palette.TEXT, palette.TEXT_DIM
        if info.kind == "cell":
            a, b = (self.move_label(0, info.moves[0]), self.move_label(1, info.moves[1]))
            lines = [(f"{self.name(0)} {a}  ×  {self.name(1)} {b}", T),
                     (f"visits {info.visits:,}  ({info.share * 100:.1f}% of the root's "
                      f"{info.root_visits:,})", T)]
            if info.visits:
                for p in range(2):
                    lines.append((f"Q {self.name(p)} {info.values[p]:.4g}", self.color(p)))
            else:
                lines.append(("unvisited: no value yet", D))
            return lines
        p = 0 if info.kind == "row" else 1
        mv = info.moves[p]
        lines = [(f"{self.name(p)} {self.move_label(p, mv)} (marginal)", self.color(p)),
                 (f"policy {info.policy * 100:.1f}%  ({info.visits:,} of "
                  f"{info.root_visits:,} visits)", T),
                 (f"Q {_q(info.value)}" + ("  (first-play urgency: unvisited)"
                                           if not info.visits else ""), T)]
        if info.prior == info.prior:
            lines.append((f"prior {info.prior:.3f}", D))
        return lines

    def draw_tooltip(self, surface: pygame.Surface, pos, info: MatrixInfo | None) -> None:
        if info is None:
            return
        labs = [fonts.text(s, 11, c) for s, c in self.tooltip_lines(info)]
        w = max(lab.get_width() for lab in labs) + 12
        h = sum(lab.get_height() for lab in labs) + 8
        sw, sh = surface.get_size()
        x, y = int(pos[0]) + 14, int(pos[1]) + 14
        if x + w > sw:
            x = max(0, int(pos[0]) - 14 - w)
        if y + h > sh:
            y = max(0, int(pos[1]) - 14 - h)
        box = pygame.Rect(x, y, w, h)
        surface.fill(palette.PANEL_HI, box)
        pygame.draw.rect(surface, palette.BORDER, box, 1)
        ty = y + 4
        for lab in labs:
            surface.blit(lab, (x + 6, ty))
            ty += lab.get_height()

"""The MCGS panel's parts at the arena's default size (1280x800: two
panels, the heat map 314x198 beside the graph): every visited cell says its
count, the 100% column's margin says so, the transposition hits stay in
the header, the graph never draws over its legend.
(The view switch's width: tests/app/test_arena_mcgs.py.)"""
from __future__ import annotations

import numpy as np
import pygame
from render_support import make_snapshot

from sandbox.native import RootMatrix
from sandbox.render import palette
from sandbox.render.fonts import font
from sandbox.render.matrix_view import MatrixView
from sandbox.render.tree_common import BEST_LINE, FOOTER_H
from sandbox.render.tree_view import TreeView

RED, BLUE = (230, 80, 70), (80, 140, 240)
RECT = (314, 198)          # the heat map's rect in the arena at 1280x800 (view: auto)
NAMES = ["up", "down", "left", "right", "stay"]


def matrix(visits) -> RootMatrix:
    """A 4x4 root like the one seen in a real window: two cells of
    thousands (4.9k, 9.8k), which did not fit their cell at the first font."""
    v = np.array(visits, dtype=np.int64)
    n1, n2 = v.shape
    values = np.where(v > 0, 6.0, np.nan)
    values = np.stack([values, values])
    return RootMatrix(moves=(tuple(range(n1)), tuple(range(n2))), visits=v, values=values,
                      marginal_visits=(v.sum(axis=1), v.sum(axis=0)),
                      marginal_values=(np.full(n1, 6.0), np.full(n2, 6.0)),
                      priors=(np.full(n1, 1 / n1), np.full(n2, 1 / n2)),
                      root_visits=int(v.sum()), root_values=(8.8, 7.4))


REAL = [[2, 17, 18, 5], [0, 3, 1, 7], [0, 4, 18, 37], [21, 4900, 69, 9800]]


def view(m: RootMatrix, hits=927, nodes=2963) -> MatrixView:
    mv = MatrixView([RED, BLUE], ["Red", "Blue"], [lambda k: NAMES[k]] * 2, title="MCGS root")
    mv.update(m, nodes=nodes, hits=hits)
    return mv


def render(mv: MatrixView, size=RECT) -> pygame.Surface:
    surf = pygame.Surface(size)
    mv.draw(surf, surf.get_rect())
    return surf


def colours(surf: pygame.Surface, r: pygame.Rect) -> set:
    return {tuple(surf.get_at((x, y)))[:3] for x in range(r.x, r.right)
            for y in range(r.y, r.bottom)}


def test_every_visited_cell_shows_its_count():
    mv = view(matrix(REAL))
    surf = render(mv)
    v = np.array(REAL)
    for i in range(4):
        for j in range(4):
            r = mv.cell_rect(i, j)
            inner = r.inflate(-4, -4)
            if v[i, j] > 0:   # a fill and a number: more than one colour inside
                assert len(colours(surf, inner)) > 1, (
                    f"cell {NAMES[i]}x{NAMES[j]} ({v[i, j]} visits) is a solid square")


def test_the_margin_row_labels_a_full_column_and_stays_inside():
    # the maze's five moves: narrower columns than four
    m = matrix([[3, 15000, 4, 4, 3], [0, 4, 0, 0, 0], [0, 3, 0, 0, 1], [0, 3, 0, 0, 1],
                [0, 21, 0, 0, 0]])
    mv = view(m)
    surf = render(mv)
    bar = mv._g["col_bars"][1]                 # the column with 100% of player 1's policy
    assert bar.bottom <= RECT[1]
    inside = colours(surf, bar)
    assert inside - {BLUE, palette.PANEL_HI, palette.PANEL}, "the 100% column has no label"


def test_the_transposition_hits_stay_in_the_header_at_the_default_size():
    m = matrix(REAL)
    with_hits, without = render(view(m, hits=927)), render(view(m, hits=None))
    head = pygame.Rect(0, 0, RECT[0], 16)
    # the header line differs where the hit count is written
    assert any(with_hits.get_at((x, y)) != without.get_at((x, y))
               for x in range(head.w) for y in range(head.h))
    line = view(m).header_text(RECT[0] - 8)
    assert "927" in line and font(11).size(line)[0] <= RECT[0] - 8


def deep_chain(levels: int) -> list[tuple]:
    """A chain `levels` deep with a side leaf per level: the principal
    variation runs straight down past the panel's bottom."""
    nodes = [(-1, 1000, 0.5, 255, 0)]
    for d in range(levels):
        parent = 0 if d == 0 else len(nodes) - 2
        nodes.append((parent, 900 - d, 0.6, 0, 0))
        nodes.append((parent, 5, 0.4, 1, 0))
    return nodes


def test_a_deep_graph_is_not_drawn_over_its_legend():
    tv = TreeView(0, RED, lambda m: NAMES[m], mode="nodelink")
    tv.update(make_snapshot(deep_chain(30)))
    size = (300, 198)
    surf = pygame.Surface(size)
    tv.draw(surf, surf.get_rect())
    band = pygame.Rect(0, size[1] - FOOTER_H, size[0], FOOTER_H)
    assert BEST_LINE not in colours(surf, band), "the principal variation runs over the legend"

"""Line charts (replay scene and `replay plot`): structural checks only."""
from __future__ import annotations

import numpy as np
import pygame

from sandbox.render.charts import draw_line_chart

COLORS = {"Cautious": (230, 80, 70), "Curious": (90, 200, 90),
          "Reckless": (80, 140, 240), "Patient": (235, 190, 60)}


def legend_colors(surface: pygame.Surface, rect: pygame.Rect, plot: pygame.Rect) -> set:
    """Colours drawn between the chart's top and its plot area (title and legend)."""
    px = pygame.surfarray.array3d(surface)[rect.x:rect.right, rect.y:plot.y]
    return {tuple(int(v) for v in c) for c in np.unique(px.reshape(-1, 3), axis=0)}


def test_every_series_is_named_even_when_the_legend_cannot_share_the_title_row():
    series = {k: [float(i + j) for j in range(20)] for i, k in enumerate(COLORS)}
    for width in (1000, 360):    # wide: legend beside the title; narrow: its own row
        surf = pygame.Surface((width, 260))
        rect = surf.get_rect()
        plot = draw_line_chart(surf, rect, series, colors=COLORS,
                               title="Root visit entropy", y_label="bits; 0 = one move")
        seen = legend_colors(surf, rect, plot)
        assert all(c in seen for c in COLORS.values()), (width, COLORS.values() - seen)
        assert plot.height > 100


def _has(surface: pygame.Surface, color) -> bool:
    px = pygame.surfarray.array3d(surface).reshape(-1, 3)
    return bool((px == np.array(color)).all(axis=1).any())


def test_x_range_widens_the_axis_to_a_marker_and_cursor_past_the_last_value():
    # a replay's last decision is at turn k; an agent it killed is out at
    # k+1 and the scene's cursor reaches the state after the final step
    from sandbox.render.charts import CURSOR, MARKER_COLORS
    series = {"Cautious": [float(j % 3) for j in range(10)]}       # turns 0..9
    for x_range, drawn in ((None, False), ((0, 10), True)):
        surf = pygame.Surface((500, 260))
        draw_line_chart(surf, surf.get_rect(), series, colors=COLORS, title="t",
                        markers=[(10, "elimination")], cursor=10, x_range=x_range)
        assert _has(surf, MARKER_COLORS["elimination"]) is drawn
        assert _has(surf, CURSOR) is drawn

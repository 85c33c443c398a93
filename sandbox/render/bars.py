"""Vertical bar groups for the labs: a strategy (probabilities), root means
per action. Pure drawing onto any Surface (the app and the labs' PNGs).

    draw_bars(surface, rect, ["rock", "paper", "scissors"], [0.2, 0.5, 0.3],
              title="Agent's strategy", hi=1.0, fmt="{:.0%}")
"""
from __future__ import annotations

import math
import os
from typing import Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import palette as pal  # noqa: E402
from .fonts import text  # noqa: E402

Color = tuple[int, int, int]


def draw_bars(surface: pygame.Surface, rect: pygame.Rect | Sequence[int],
              labels: Sequence[str], values: Sequence[float],
              colors: Sequence[Color] | Color = pal.ACCENT, title: str = "",
              lo: float | None = None, hi: float | None = None, fmt: str = "{:.3g}",
              highlight: int | None = None, size: int = 13) -> pygame.Rect:
    """One bar per value between lo and hi (default: 0 and the values'
    range), baseline at 0 when the range spans it; `highlight` outlines one
    bar. NaN values draw no bar and read "—". Returns the plot area."""
    rect = pygame.Rect(rect)
    pygame.draw.rect(surface, pal.PANEL, rect, border_radius=4)
    y = rect.y + 6
    if title:
        t = text(title, size + 1, pal.TEXT, bold=True)
        surface.blit(t, (rect.x + 8, y))
        y += t.get_height() + 4
    n = len(values)
    if n == 0 or rect.w < 30:
        return rect
    finite = [v for v in values if math.isfinite(v)]
    lo = min(0.0, *finite) if lo is None else lo
    hi = max(0.0, *finite) if hi is None else hi
    if hi <= lo:
        hi = lo + 1.0
    lab_h = text("Ag", size, pal.TEXT).get_height()
    plot = pygame.Rect(rect.x + 8, y + lab_h + 2, rect.w - 16, rect.bottom - y - 2 * lab_h - 10)
    if plot.h < 8:
        return plot

    def py(v: float) -> int:
        return round(plot.bottom - (min(max(v, lo), hi) - lo) / (hi - lo) * plot.h)

    base = py(0.0 if lo <= 0.0 <= hi else lo)
    pygame.draw.line(surface, pal.BORDER, (plot.x, base), (plot.right, base))
    slot = plot.w / n
    bw = max(4, int(slot * 0.6))
    for i, (label, v) in enumerate(zip(labels, values)):
        cx = round(plot.x + slot * (i + 0.5))
        c = colors[i % len(colors)] if colors and isinstance(colors[0], tuple) else colors
        if math.isfinite(v):
            top = py(v)
            bar = pygame.Rect(cx - bw // 2, min(top, base), bw, max(1, abs(base - top)))
            pygame.draw.rect(surface, c, bar)
            if highlight == i:
                pygame.draw.rect(surface, pal.TEXT, bar.inflate(4, 4), 2)
            val = text(fmt.format(v), size, pal.TEXT, mono=True)
            vy = (bar.top if v >= 0 else base) - val.get_height() - 1
            surface.blit(val, val.get_rect(midtop=(cx, max(rect.y + 2, vy))))
        else:
            dash = text("—", size, pal.TEXT_DIM)
            surface.blit(dash, dash.get_rect(midbottom=(cx, base)))
        lab = text(label, size, pal.TEXT if highlight == i else pal.TEXT_DIM, bold=highlight == i)
        surface.blit(lab, lab.get_rect(midtop=(cx, plot.bottom + 4)))
    return plot

"""PNG charts of tournaments and sweeps, drawn on a plain pygame Surface
with no display (as `replay plot` and the labs): the ratings with their
intervals, and a sweep's heat map over two parameters. Also drawn into the
app's Tournament scene (draw_ratings)."""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..native import SandboxError

if TYPE_CHECKING:
    import pygame

    from .ratings import Ratings

SIZE = (1000, 600)


class ChartError(SandboxError):
    """A chart that cannot be written."""


def check_png(path: str | os.PathLike) -> Path:
    out = Path(path)
    if out.suffix.lower() != ".png":
        raise ChartError(f"{out}: the chart is written as PNG; name the file *.png")
    return out


def _save(surface: "pygame.Surface", path: str | os.PathLike) -> Path:
    import pygame
    out = check_png(path)
    try:
        pygame.image.save(surface, str(out))
    except (pygame.error, OSError) as exc:
        raise ChartError(f"{out}: cannot write the PNG: {exc}") from None
    return out


def draw_ratings(surface: "pygame.Surface", rect, ratings: "Ratings",
                 scores: Sequence[float] | None = None) -> None:
    """One row per agent, best first: a dot at its Elo and a bar across its
    95% interval, on a shared axis with 0 (the field's mean) marked."""
    import pygame

    from ..render import palette as pal
    from ..render.fonts import elide, text
    rect = pygame.Rect(rect)
    order = ratings.order()
    ivs = [ratings.interval(k) for k in order]
    ends = [x for iv in ivs for x in iv if math.isfinite(x)]   # NaN: an agent without games
    lo, hi = min(ends + [-1.0]), max(ends + [1.0])
    pad = 0.05 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    label_w = min(220, rect.w // 3)
    ax = pygame.Rect(rect.x + label_w, rect.y + 4, rect.w - label_w - 12, rect.h - 30)

    def x_of(v: float) -> int:
        return int(ax.x + (v - lo) / (hi - lo) * ax.w)

    pygame.draw.rect(surface, pal.PANEL, ax)
    # ticks every 50/100/200... Elo, about six across
    span = hi - lo
    step = 10 ** math.floor(math.log10(span / 6))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= 8:
            step *= m
            break
    t = math.ceil(lo / step) * step
    while t <= hi:
        x = x_of(t)
        pygame.draw.line(surface, pal.GRID, (x, ax.y), (x, ax.bottom))
        lab = text(f"{t:+.0f}" if t else "0", 12, pal.TEXT_DIM)
        surface.blit(lab, (x - lab.get_width() // 2, ax.bottom + 4))
        t += step
    pygame.draw.line(surface, pal.TEXT_DIM, (x_of(0), ax.y), (x_of(0), ax.bottom), 2)
    row_h = max(10, min(40, ax.h // max(1, len(order))))
    for r, k in enumerate(order):
        y = ax.y + r * row_h + row_h // 2
        color = pal.AGENT_COLORS[k % len(pal.AGENT_COLORS)]
        a, b = ivs[r]
        if math.isfinite(a) and math.isfinite(b):
            pygame.draw.line(surface, color, (x_of(a), y), (x_of(b), y), max(2, row_h // 6))
        pygame.draw.circle(surface, pal.TEXT, (x_of(ratings.elo(k)), y), max(3, row_h // 5))
        extra = f"  {scores[k]:.3f}" if scores is not None else ""
        name = elide(f"{ratings.names[k]}", 14, label_w - 70)
        lab = text(f"{name} {ratings.elo(k):+.0f}{extra}", 14, pal.TEXT)
        surface.blit(lab, (rect.x + 4, y - lab.get_height() // 2))


def ratings_png(ratings: "Ratings", title: str, path: str | os.PathLike,
                scores: Sequence[float] | None = None) -> Path:
    import pygame

    from ..render import palette as pal
    from ..render.fonts import text
    check_png(path)
    h = max(SIZE[1] // 2, 80 + 40 * len(ratings.names))
    surface = pygame.Surface((SIZE[0], h))
    surface.fill(pal.BG)
    t = text(title, 18, pal.TEXT, bold=True)
    surface.blit(t, (12, 8))
    sub = text("Elo (Bradley–Terry), dot = rating, bar = 95% interval; 0 = the field's mean; "
               "mean score after the rating", 13, pal.TEXT_DIM)
    surface.blit(sub, (12, 12 + t.get_height()))
    top = 24 + t.get_height() + sub.get_height()
    draw_ratings(surface, (0, top, SIZE[0], h - top - 8), ratings, scores)
    return _save(surface, path)


def heatmap_png(xs: Sequence, ys: Sequence, values: Sequence[Sequence[float]], x_name: str,
                y_name: str, title: str, path: str | os.PathLike) -> Path:
    """values[iy][ix]: mean score at (xs[ix], ys[iy]), NaN where not played;
    colour by score (0 red, 0.5 slate, 1 green), the value written in."""
    import pygame

    from ..render import palette as pal
    from ..render.fonts import text
    check_png(path)
    surface = pygame.Surface(SIZE)
    surface.fill(pal.BG)
    t = text(title, 18, pal.TEXT, bold=True)
    surface.blit(t, (12, 8))
    grid = pygame.Rect(110, 50, SIZE[0] - 140, SIZE[1] - 110)
    cw, ch = grid.w / len(xs), grid.h / len(ys)
    finite = [v for row in values for v in row if v == v]
    best = max(finite) if finite else None
    for iy, y in enumerate(ys):
        for ix, x in enumerate(xs):
            v = values[iy][ix]
            cell = pygame.Rect(int(grid.x + ix * cw), int(grid.bottom - (iy + 1) * ch),
                               int(cw) - 2, int(ch) - 2)
            pygame.draw.rect(surface, pal.value_color(v) if v == v else pal.PANEL, cell)
            if v == best:
                pygame.draw.rect(surface, pal.TEXT, cell, 3)
            if v == v:
                lab = text(f"{v:.3f}", 14, pal.TEXT, bold=True)
                surface.blit(lab, lab.get_rect(center=cell.center))
    for ix, x in enumerate(xs):
        lab = text(_fmt(x), 13, pal.TEXT_DIM)
        surface.blit(lab, (int(grid.x + (ix + 0.5) * cw) - lab.get_width() // 2,
                           grid.bottom + 6))
    for iy, y in enumerate(ys):
        lab = text(_fmt(y), 13, pal.TEXT_DIM)
        surface.blit(lab, (grid.x - 8 - lab.get_width(),
                           int(grid.bottom - (iy + 0.5) * ch) - lab.get_height() // 2))
    xl = text(x_name, 15, pal.TEXT)
    surface.blit(xl, (grid.centerx - xl.get_width() // 2, SIZE[1] - 30))
    yl = pygame.transform.rotate(text(y_name, 15, pal.TEXT), 90)
    surface.blit(yl, (12, grid.centery - yl.get_height() // 2))
    return _save(surface, path)


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)

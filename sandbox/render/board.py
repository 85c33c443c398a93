"""The snakes board: grid, food, snakes coloured per agent with their heads
pointing where they go, dead snakes fading out.

draw() interpolates between the previous and the current turn (alpha in
[0, 1]): every segment slides from where it was to where it is, so motion is
smooth while the simulation itself advances in whole turns. It only reads
the two decoded views it is given.
"""
from __future__ import annotations

import pygame

from ..games.snakes import MOVE_DELTAS, SnakesView
from . import palette as pal
from .fonts import elide, text

FADE_TURNS = 6  # a dead snake fades out over this many turns


def board_geometry(rect: pygame.Rect, width: int, height: int) -> tuple[int, int, int]:
    """(cell size, x0, y0) of the largest square-celled board fitting rect."""
    cell = max(4, min(rect.w // width, rect.h // height))
    x0 = rect.x + (rect.w - cell * width) // 2
    y0 = rect.y + (rect.h - cell * height) // 2
    return cell, x0, y0


def cell_center(x: float, y: float, cell: int, x0: int, y0: int, height: int) -> tuple[float, float]:
    """Board (0,0) is bottom-left, screen y grows downward."""
    return x0 + (x + 0.5) * cell, y0 + (height - 1 - y + 0.5) * cell


class SnakesBoardRenderer:
    def __init__(self, colors: list[tuple[int, int, int]], names: list[str]) -> None:
        self.colors = colors
        self.names = names
        self._grid_cache: tuple[tuple, pygame.Surface] | None = None

    def cell_at(self, rect: pygame.Rect, view: SnakesView, pos) -> tuple[int, int] | None:
        cell, x0, y0 = board_geometry(rect, view.width, view.height)
        gx = (pos[0] - x0) // cell
        gy = view.height - 1 - (pos[1] - y0) // cell
        if 0 <= gx < view.width and 0 <= gy < view.height:
            return int(gx), int(gy)
        return None

    def _grid(self, rect: pygame.Rect, view: SnakesView) -> pygame.Surface:
        key = (rect.size, view.width, view.height)
        if self._grid_cache is None or self._grid_cache[0] != key:
            surf = pygame.Surface(rect.size)
            surf.fill(pal.BG)
            cell, x0, y0 = board_geometry(pygame.Rect((0, 0), rect.size), view.width, view.height)
            for gx in range(view.width):
                for gy in range(view.height):
                    shade = (30, 33, 41) if (gx + gy) % 2 else (35, 38, 47)
                    pygame.draw.rect(surf, shade, (x0 + gx * cell, y0 + gy * cell, cell, cell))
            pygame.draw.rect(surf, pal.BORDER, (x0 - 1, y0 - 1, cell * view.width + 2,
                                                cell * view.height + 2), 1)
            self._grid_cache = (key, surf)
        return self._grid_cache[1]

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: SnakesView,
             prev: SnakesView | None = None, alpha: float = 1.0,
             highlight_agent: int | None = None) -> None:
        clip = surface.get_clip()
        # a snake that died off the board has its head out there: keep it in
        surface.set_clip(rect.clip(clip) if clip else rect)
        try:
            self._draw(surface, rect, view, prev, alpha, highlight_agent)
        finally:
            surface.set_clip(clip)

    def _draw(self, surface, rect, view, prev, alpha, highlight_agent) -> None:
        surface.blit(self._grid(rect, view), rect.topleft)
        cell, x0, y0 = board_geometry(rect, view.width, view.height)
        h = view.height
        alpha = 1.0 if prev is None else min(1.0, max(0.0, alpha))

        for fx, fy in view.food:
            cx, cy = cell_center(fx, fy, cell, x0, y0, h)
            if prev is not None and (fx, fy) not in prev.food:
                r = max(2, int(cell * 0.28 * alpha))  # new food grows in
            else:
                r = max(2, int(cell * 0.28))
            pygame.draw.circle(surface, (240, 90, 120), (int(cx), int(cy)), r)
            pygame.draw.circle(surface, (255, 170, 190), (int(cx - r / 3), int(cy - r / 3)), max(1, r // 3))

        # dead snakes first (underneath), then live ones
        order = sorted(range(len(view.snakes)), key=lambda i: view.snakes[i].alive)
        for i in order:
            s = view.snakes[i]
            fade = 1.0
            if not s.alive:
                age = view.turn - s.death_turn + (alpha if prev is not None else 1.0) - 1.0
                fade = max(0.0, 1.0 - age / FADE_TURNS)
                if fade <= 0.0:
                    continue
            body = self._interpolated_body(s, prev.snakes[i] if prev else None, alpha)
            color = self.colors[i % len(self.colors)]
            self._draw_snake(surface, body, s, color, fade, cell, x0, y0, h,
                             highlight=(i == highlight_agent))

    @staticmethod
    def _interpolated_body(s, ps, alpha: float) -> list[tuple[float, float]]:
        if ps is None or alpha >= 1.0 or not ps.body:
            return [(float(x), float(y)) for x, y in s.body]
        out = []
        for k, (x, y) in enumerate(s.body):
            # the k-th segment slides from where the k-th segment was (a grown
            # tail from the old last segment), so the body follows the head
            src = ps.body[min(k, len(ps.body) - 1)]
            out.append((src[0] + (x - src[0]) * alpha, src[1] + (y - src[1]) * alpha))
        return out

    def _draw_snake(self, surface, body, s, color, fade, cell, x0, y0, h, highlight) -> None:
        base = pal.lerp(pal.BG, color, 0.35 + 0.65 * fade) if fade < 1 else color
        if not s.alive:
            base = pal.lerp(pal.BG, pal.lerp(color, (110, 110, 110), 0.6), fade)
        pts = [cell_center(x, y, cell, x0, y0, h) for x, y in body]
        width = max(3, int(cell * 0.62))
        if len(pts) > 1:
            for a, b in zip(pts, pts[1:]):
                pygame.draw.line(surface, base, a, b, width)
            for i, p in enumerate(pts[1:], 1):
                shade = pal.lerp(base, pal.BG, 0.25 * i / len(pts))
                pygame.draw.circle(surface, shade, (int(p[0]), int(p[1])), width // 2)
        hx, hy = pts[0]
        head_r = max(3, int(cell * 0.42))
        if highlight:
            pygame.draw.circle(surface, pal.TEXT, (int(hx), int(hy)), head_r + 3, 2)
        pygame.draw.circle(surface, base, (int(hx), int(hy)), head_r)
        d = s.direction
        if d is not None and s.alive:
            dx, dy = MOVE_DELTAS[d]
            # eyes look the way the snake moves (screen y is flipped)
            ex, ey = dx * head_r * 0.35, -dy * head_r * 0.35
            px, py = -ey, ex
            for sgn in (-1, 1):
                cx, cy = hx + ex + sgn * px, hy + ey + sgn * py
                pygame.draw.circle(surface, (250, 250, 250), (int(cx), int(cy)), max(2, head_r // 3))
                pygame.draw.circle(surface, (20, 20, 20), (int(cx + ex * 0.3), int(cy + ey * 0.3)),
                                   max(1, head_r // 6))
        elif not s.alive:
            r = head_r // 2
            c = pal.lerp(pal.BG, pal.TEXT, fade)
            pygame.draw.line(surface, c, (hx - r, hy - r), (hx + r, hy + r), 2)
            pygame.draw.line(surface, c, (hx - r, hy + r), (hx + r, hy - r), 2)


def draw_scoreboard(surface: pygame.Surface, rect: pygame.Rect, view: SnakesView,
                    colors, names, scores=None, ranking=None) -> None:
    """One row per snake: colour chip, name, length, health bar, status."""
    n = len(view.snakes)
    row_h = max(18, min(26, rect.h // max(1, n)))
    for i, s in enumerate(view.snakes):
        y = rect.y + i * row_h
        color = colors[i % len(colors)]
        pygame.draw.rect(surface, color if s.alive else pal.lerp(color, pal.BG, 0.6),
                         (rect.x, y + 4, 10, row_h - 8), border_radius=2)
        name = names[i] if i < len(names) else f"P{i}"
        surface.blit(text(name, 13, pal.TEXT if s.alive else pal.TEXT_DIM, bold=True),
                     (rect.x + 16, y + 3))
        surface.blit(text(f"len {s.length}", 12, pal.TEXT_DIM, mono=True), (rect.x + 86, y + 4))
        bar = pygame.Rect(rect.x + 150, y + 7, max(20, rect.w - 260), row_h - 14)
        pygame.draw.rect(surface, pal.GRID, bar, border_radius=3)
        if s.alive:
            frac = max(0.0, min(1.0, s.health / 100.0))
            hc = pal.OK if frac > 0.5 else pal.WARN if frac > 0.2 else pal.ERROR
            pygame.draw.rect(surface, hc, (bar.x, bar.y, int(bar.w * frac), bar.h), border_radius=3)
            surface.blit(text(f"{s.health}", 11, pal.TEXT, mono=True), (bar.right + 6, y + 5))
        sc = (text(f"{scores[i]:+.2f}", 11, pal.TEXT_DIM, mono=True)
              if scores is not None and i < len(scores) else None)
        if not s.alive:   # cut to end before the score, not run into it
            room = rect.right - (sc.get_width() + 8 if sc else 0) - (bar.x + 4)
            label = elide(f"† turn {s.death_turn}: {s.cause}", 11, room)
            surface.blit(text(label, 11, pal.TEXT_DIM), (bar.x + 4, y + 5))
        if sc is not None:
            surface.blit(sc, (rect.right - sc.get_width(), y + 5))

"""The snakes board: grid, hazards (shaded cells, darker with each layer,
the count on stacked ones), food, snakes coloured per agent with their heads
pointing where they go, dead snakes fading out. On a wrapped board a body
that crosses an edge is drawn in pieces, leaving at one edge and coming in
at the other.

draw() interpolates between the previous and the current turn (alpha in
[0, 1]): every segment slides from where it was to where it is, so motion is
smooth while the simulation itself advances in whole turns. It only reads
the two decoded views it is given.
"""
from __future__ import annotations

import pygame

from ...render import palette as pal
from ...render.grid import board_geometry, cell_at, cell_center, clipped
from .view import MOVE_DELTAS, SnakeByteView, SnakesView

FADE_TURNS = 6  # a dead snake fades out over this many turns
HAZARD = (150, 70, 40)   # a hazard cell's shade (blended over the grid by its layers)


class SnakesBoardRenderer:
    def __init__(self, colors: list[tuple[int, int, int]], names: list[str]) -> None:
        self.colors = colors
        self.names = names
        self._grid_cache: tuple[tuple, pygame.Surface] | None = None
        self._byte_renderer = None

    def _byte(self):
        """The snakebyte side view, made on first use (a snakes renderer
        draws either ruleset: it learns which from the view)."""
        if self._byte_renderer is None:
            from .render_byte import SnakeByteRenderer
            self._byte_renderer = SnakeByteRenderer(self.colors, self.names)
        return self._byte_renderer

    def cell_at(self, rect: pygame.Rect, view: SnakesView, pos) -> tuple[int, int] | None:
        if isinstance(view, SnakeByteView):
            return self._byte().cell_at(rect, view, pos)
        return cell_at(rect, view.width, view.height, pos)

    def move_at(self, rect: pygame.Rect, view: SnakesView, pos, agent: int) -> int | None:
        """A click on a cell next to the agent's head steers it there."""
        if isinstance(view, SnakeByteView):
            return self._byte().move_at(rect, view, pos, agent)
        c = self.cell_at(rect, view, pos)
        if c is None or not view.snakes[agent].alive:
            return None
        hx, hy = view.snakes[agent].head
        d = (c[0] - hx, c[1] - hy)
        return MOVE_DELTAS.index(d) if d in MOVE_DELTAS else None

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
             prev: SnakesView | None = None, alpha: float = 1.0, ctx=None) -> None:
        if isinstance(view, SnakeByteView):
            self._byte().draw(surface, rect, view, prev, alpha, ctx)
            return
        # a snake that died off the board has its head out there: keep it in
        with clipped(surface, rect):
            self._draw(surface, rect, view, prev, alpha,
                       ctx.highlight_agent if ctx is not None else None)

    def _draw(self, surface, rect, view, prev, alpha, highlight_agent) -> None:
        surface.blit(self._grid(rect, view), rect.topleft)
        cell, x0, y0 = board_geometry(rect, view.width, view.height)
        h = view.height
        alpha = 1.0 if prev is None else min(1.0, max(0.0, alpha))

        if view.hazards:
            self._draw_hazards(surface, view, cell, x0, y0, h)
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
    def _draw_hazards(surface, view, cell, x0, y0, h) -> None:
        shade = pygame.Surface((cell, cell), pygame.SRCALPHA)
        font = None
        for x, y, layers in view.hazards:
            shade.fill((*HAZARD, min(235, 110 + 35 * (layers - 1))))
            px, py = x0 + x * cell, y0 + (h - 1 - y) * cell
            surface.blit(shade, (px, py))
            if layers > 1 and cell >= 14:
                if font is None:
                    font = pygame.font.Font(None, max(12, cell // 2))
                t = font.render(str(layers), True, (235, 190, 160))
                surface.blit(t, (px + 2, py + 1))

    @staticmethod
    def _interpolated_body(s, ps, alpha: float) -> list[tuple[float, float]]:
        if ps is None or alpha >= 1.0 or not ps.body:
            return [(float(x), float(y)) for x, y in s.body]
        out = []
        for k, (x, y) in enumerate(s.body):
            # the k-th segment slides from where the k-th segment was (a grown
            # tail from the old last segment), so the body follows the head;
            # one that came over an edge (wrapped) is drawn where it is now
            src = ps.body[min(k, len(ps.body) - 1)]
            if abs(x - src[0]) + abs(y - src[1]) > 1:
                out.append((float(x), float(y)))
                continue
            out.append((src[0] + (x - src[0]) * alpha, src[1] + (y - src[1]) * alpha))
        return out

    def _draw_snake(self, surface, body, s, color, fade, cell, x0, y0, h, highlight) -> None:
        base = pal.lerp(pal.BG, color, 0.35 + 0.65 * fade) if fade < 1 else color
        if not s.alive:
            base = pal.lerp(pal.BG, pal.lerp(color, (110, 110, 110), 0.6), fade)
        pts = [cell_center(x, y, cell, x0, y0, h) for x, y in body]
        width = max(3, int(cell * 0.62))
        if len(pts) > 1:
            for (a, b), (ca, cb) in zip(zip(pts, pts[1:]), zip(body, body[1:])):
                if abs(ca[0] - cb[0]) + abs(ca[1] - cb[1]) > 1.01:
                    continue        # across a wrapped edge: no line over the board
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

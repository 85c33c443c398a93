"""The SnakeByte board: a side view (y grows downward), platforms, apples,
snakes in their team's colour with heads and eyes, and the team scoreboard
(total length, losses) above the map.

A turn is drawn in two phases over the interpolation alpha: the move, then,
for a snake that fell (its `fell` rows), the fall, so a drop reads as a
drop. A snake that lost its head this turn flashes red with "-N" over it; a
dead one fades out with a cross for eyes. draw() only reads the views.
"""
from __future__ import annotations

import pygame

from ...render import palette as pal
from ...render.fonts import font
from ...render.grid import clipped
from .view import SNAKEBYTE_DELTAS, SnakeByteView

FADE_TURNS = 4
SKY = (24, 30, 42)
WALL = (92, 78, 64)
WALL_TOP = (140, 120, 92)
APPLE = (225, 60, 60)
LEAF = (90, 180, 80)
FLASH = (255, 70, 50)
BAR_H = 38          # the scoreboard's two lines above the map


def geometry(rect: pygame.Rect, view: SnakeByteView) -> tuple[int, int, int]:
    """(cell, x0, y0): the map's top-left cell at (x0, y0), under the scoreboard
    (a header along the top, as every board's; the bottom margin stays free)."""
    area = pygame.Rect(rect.x, rect.y + BAR_H, rect.w, max(1, rect.h - BAR_H - 4))
    cell = max(4, min(area.w // view.width, area.h // view.height))
    x0 = area.x + (area.w - cell * view.width) // 2
    y0 = area.y + (area.h - cell * view.height) // 2
    return cell, x0, y0


class SnakeByteRenderer:
    def __init__(self, colors: list[tuple[int, int, int]], names: list[str]) -> None:
        self.colors = colors
        self.names = names
        self._map_cache: tuple[tuple, pygame.Surface] | None = None

    # -- clicks ----------------------------------------------------------------
    def cell_at(self, rect: pygame.Rect, view: SnakeByteView, pos) -> tuple[int, int] | None:
        cell, x0, y0 = geometry(rect, view)
        gx, gy = (pos[0] - x0) // cell, (pos[1] - y0) // cell
        if 0 <= gx < view.width and 0 <= gy < view.height:
            return int(gx), int(gy)
        return None

    def move_at(self, rect: pygame.Rect, view: SnakeByteView, pos, agent: int) -> int | None:
        """A click on a cell next to the agent's head steers it there."""
        c = self.cell_at(rect, view, pos)
        s = view.snakes[agent]
        if c is None or not s.alive:
            return None
        d = (c[0] - s.head[0], c[1] - s.head[1])
        return SNAKEBYTE_DELTAS.index(d) if d in SNAKEBYTE_DELTAS else None

    # -- drawing -------------------------------------------------------------------
    def color(self, agent: int, view: SnakeByteView) -> tuple[int, int, int]:
        """The team's colour, each snake of the team a little lighter or darker."""
        base = self.colors[agent % len(self.colors)]
        k = agent % view.per_player
        return pal.lerp(base, (255, 255, 255) if k % 2 else (0, 0, 0), 0.12 * k)

    def _map(self, rect: pygame.Rect, view: SnakeByteView) -> pygame.Surface:
        key = (rect.size, view.width, view.height, view.walls)
        if self._map_cache is None or self._map_cache[0] != key:
            surf = pygame.Surface(rect.size)
            surf.fill(pal.BG)
            cell, x0, y0 = geometry(pygame.Rect((0, 0), rect.size), view)
            pygame.draw.rect(surf, SKY, (x0, y0, cell * view.width, cell * view.height))
            edge = max(1, cell // 6)
            for y, row in enumerate(view.walls):
                for x, wall in enumerate(row):
                    if not wall:
                        continue
                    r = pygame.Rect(x0 + x * cell, y0 + y * cell, cell, cell)
                    pygame.draw.rect(surf, WALL, r)
                    if y == 0 or not view.walls[y - 1][x]:      # a surface to stand on
                        pygame.draw.rect(surf, WALL_TOP, (r.x, r.y, cell, edge))
                    pygame.draw.rect(surf, pal.lerp(WALL, (0, 0, 0), 0.25), r, 1)
            self._map_cache = (key, surf)
        return self._map_cache[1]

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: SnakeByteView,
             prev: SnakeByteView | None = None, alpha: float = 1.0, ctx=None) -> None:
        with clipped(surface, rect):
            surface.blit(self._map(rect, view), rect.topleft)
            cell, x0, y0 = geometry(rect, view)
            alpha = 1.0 if prev is None else min(1.0, max(0.0, alpha))
            self._apples(surface, view, prev, alpha, cell, x0, y0)
            highlight = ctx.highlight_agent if ctx is not None else None
            order = sorted(range(len(view.snakes)), key=lambda i: view.snakes[i].alive)
            for i in order:
                self._snake(surface, view, prev, i, alpha, cell, x0, y0, i == highlight)
            self._scoreboard(surface, rect, view)

    def _apples(self, surface, view, prev, alpha, cell, x0, y0) -> None:
        # an apple eaten this turn shrinks away while the head reaches it
        apples = [(a, 1.0) for a in view.apples]
        if prev is not None and alpha < 1.0:
            apples += [(a, 1.0 - alpha) for a in prev.apples if a not in set(view.apples)]
        for (x, y), size in apples:
            cx, cy = x0 + (x + 0.5) * cell, y0 + (y + 0.55) * cell
            r = max(2, int(cell * 0.32 * size))
            pygame.draw.circle(surface, APPLE, (int(cx), int(cy)), r)
            pygame.draw.circle(surface, (255, 150, 140), (int(cx - r / 3), int(cy - r / 3)),
                               max(1, r // 3))
            pygame.draw.line(surface, LEAF, (cx, cy - r), (cx + r * 0.5, cy - r * 1.4),
                             max(1, cell // 10))

    @staticmethod
    def body_at(s, ps, alpha: float) -> list[tuple[float, float]]:
        """The body at alpha: the move (toward the body before its fall),
        then the fall, each over its share of the turn."""
        if ps is None or alpha >= 1.0 or not ps.body:
            return [(float(x), float(y)) for x, y in s.body]
        before_fall = [(x, y - s.fell) for x, y in s.body]
        move_end = 0.5 if s.fell else 1.0
        t = min(1.0, alpha / move_end)
        out = []
        for k, (x, y) in enumerate(before_fall):
            sx, sy = ps.body[min(k, len(ps.body) - 1)]
            out.append((sx + (x - sx) * t, sy + (y - sy) * t))
        if s.fell and alpha > move_end:
            drop = s.fell * (alpha - move_end) / (1.0 - move_end)
            out = [(x, y + drop) for x, y in out]
        return out

    def _snake(self, surface, view, prev, i, alpha, cell, x0, y0, highlight) -> None:
        s = view.snakes[i]
        ps = prev.snakes[i] if prev is not None else None
        fade = 1.0
        if not s.alive:
            age = view.turn - s.death_turn + (alpha if prev is not None else 1.0) - 1.0
            fade = max(0.0, 1.0 - age / FADE_TURNS)
            if fade <= 0.0 or not s.body:
                return
        color = self.color(i, view)
        base = color if s.alive else pal.lerp(SKY, pal.lerp(color, (120, 120, 120), 0.5), fade)
        body = self.body_at(s, ps, alpha)
        pts = [(x0 + (x + 0.5) * cell, y0 + (y + 0.5) * cell) for x, y in body]
        width = max(3, int(cell * 0.7))
        for a, b in zip(pts, pts[1:]):
            pygame.draw.line(surface, base, a, b, width)
        for k, p in enumerate(pts[1:], 1):
            shade = pal.lerp(base, SKY, 0.3 * k / len(pts))
            pygame.draw.circle(surface, shade, (int(p[0]), int(p[1])), width // 2)
        hx, hy = pts[0]
        head_r = max(3, int(cell * 0.45))
        if highlight:
            pygame.draw.circle(surface, pal.TEXT, (int(hx), int(hy)), head_r + 3, 2)
        pygame.draw.circle(surface, base, (int(hx), int(hy)), head_r)
        d = s.direction
        if s.alive and d is not None:
            dx, dy = SNAKEBYTE_DELTAS[d]
            ex, ey = dx * head_r * 0.35, dy * head_r * 0.35
            px, py = -ey, ex
            for sgn in (-1, 1):
                cx, cy = hx + ex + sgn * px, hy + ey + sgn * py
                pygame.draw.circle(surface, (250, 250, 250), (int(cx), int(cy)),
                                   max(2, head_r // 3))
                pygame.draw.circle(surface, (20, 20, 20), (int(cx + ex * 0.3), int(cy + ey * 0.3)),
                                   max(1, head_r // 6))
        elif not s.alive:
            r = head_r // 2
            c = pal.lerp(SKY, pal.TEXT, fade)
            pygame.draw.line(surface, c, (hx - r, hy - r), (hx + r, hy + r), 2)
            pygame.draw.line(surface, c, (hx - r, hy + r), (hx + r, hy - r), 2)
        if s.lost and (prev is None or alpha > 0.3):
            # beheaded (or killed) this turn: a red flash and the parts lost
            flash = 1.0 if prev is None else 1.0 - 0.5 * alpha
            pygame.draw.circle(surface, pal.lerp(SKY, FLASH, flash), (int(hx), int(hy)),
                               head_r + 4, 3)
            label = font(max(10, cell // 2), bold=True).render(f"-{s.lost}", True, FLASH)
            surface.blit(label, (hx + head_r, hy - head_r - label.get_height() // 2))

    def _scoreboard(self, surface, rect, view: SnakeByteView) -> None:
        f = font(13, bold=True)
        cell, x0, y0 = geometry(rect, view)
        f2 = f.get_linesize()
        x, y = x0, y0 - 2 * f2 - 2
        lead = view.leader()
        parts = []
        for p in (0, 1):
            agent = p * view.per_player
            name = self.names[agent] if agent < len(self.names) else f"player {p}"
            alive = sum(s.alive for a, s in enumerate(view.snakes) if view.player_of(a) == p)
            star = " wins" if view.over and lead == p else ""
            parts.append((f"{name} {view.team_length(p)} (lost {view.losses[p]}, "
                          f"{alive} alive){star}  ", self.colors[agent % len(self.colors)]))
        for text, color in parts:
            img = f.render(text, True, color)
            surface.blit(img, (x, y))
            x += img.get_width()
        tail = (f"apples left {len(view.apples)}   turn {view.turn}/{view.max_turns}"
                + ("   a draw" if view.over and lead is None else ""))
        surface.blit(f.render(tail, True, pal.TEXT), (x0, y + f2))

"""The maze board: walls, mud (brown, with its cost), cheese, explorers with
their "stuck N" counters, and a score line on top. Where a search publishes
its principal variation (BoardContext.plans: MCGS, joint-action MCTS), each
explorer's path along it is drawn in its colour: solid for the explorer's own
search, dashed for what an opponent's search predicts it will do.

Explorers slide between cells with alpha; walls and mud are drawn once per
size into a cached surface (the layout never changes within a game).
"""
from __future__ import annotations

import pygame

from ...render import palette as pal
from ...render.fonts import text
from ...render.grid import board_geometry, cell_at, cell_center, clipped
from .view import MOVE_DELTAS, STAY, MazeView

WALL = (200, 205, 215)
MUD = (120, 84, 48)
CHEESE = (250, 204, 60)


def plan_cells(view: MazeView, agent: int, moves) -> list[tuple[int, int]]:
    """The cells an explorer passes through along `moves` from where it is
    now: a move into a wall (or the edge) is a stay, mud is entered at once
    (its stuck turns are the stays that follow in the line), a move of -1
    (none) ends the path. The first cell is the explorer's own."""
    e = view.explorers[agent]
    x, y = e.x, e.y
    out = [(x, y)]
    for m in moves:
        m = int(m)
        if not 0 <= m < len(MOVE_DELTAS):
            break
        if m != STAY and view.cost(x, y, m) > 0:
            dx, dy = MOVE_DELTAS[m]
            x, y = x + dx, y + dy
        out.append((x, y))
    return out


class MazeRenderer:
    def __init__(self, colors, names, move_names=None) -> None:
        self.colors = list(colors)
        self.names = list(names)
        # agent -> the pixel points of the path last drawn (tests, overlays)
        self.plan_points: dict[int, list[tuple[int, int]]] = {}
        self._cache: tuple[tuple, pygame.Surface] | None = None

    @staticmethod
    def _board(rect: pygame.Rect) -> pygame.Rect:
        head = max(14, min(24, rect.h // 14))
        return pygame.Rect(rect.x, rect.y + head, rect.w, max(1, rect.h - head))

    def move_at(self, rect: pygame.Rect, view: MazeView, pos, agent: int) -> int | None:
        """A click on the explorer's own cell stays; on a neighbour, moves there."""
        c = cell_at(self._board(rect), view.width, view.height, pos)
        if c is None or not 0 <= agent < view.players:
            return None
        e = view.explorers[agent]
        d = (c[0] - e.x, c[1] - e.y)
        if d not in MOVE_DELTAS:
            return None
        return 4 if e.stuck else MOVE_DELTAS.index(d)  # stuck in mud: only stay

    def _layout(self, board: pygame.Rect, view: MazeView) -> pygame.Surface:
        key = (board.size, view.width, view.height, view.right, view.up)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        surf = pygame.Surface(board.size)
        surf.fill(pal.BG)
        cell, x0, y0 = board_geometry(pygame.Rect((0, 0), board.size), view.width, view.height)
        H = view.height
        for gx in range(view.width):
            for gy in range(H):
                shade = (30, 33, 41) if (gx + gy) % 2 else (35, 38, 47)
                sx, sy = x0 + gx * cell, y0 + (H - 1 - gy) * cell
                pygame.draw.rect(surf, shade, (sx, sy, cell, cell))
        lw = max(2, cell // 8)
        f = max(7, cell // 3)
        for gx in range(view.width):
            for gy in range(H):
                sx, sy = x0 + gx * cell, y0 + (H - 1 - gy) * cell
                r = view.right[gy][gx] if gx < view.width - 1 else 0
                u = view.up[gy][gx] if gy < H - 1 else 0
                if gx < view.width - 1:
                    self._passage(surf, r, (sx + cell, sy), (sx + cell, sy + cell), lw,
                                  (sx + cell, sy + cell // 2), f)
                if gy < H - 1:
                    self._passage(surf, u, (sx, sy), (sx + cell, sy), lw,
                                  (sx + cell // 2, sy), f)
        pygame.draw.rect(surf, WALL, (x0 - lw // 2, y0 - lw // 2, cell * view.width + lw,
                                      cell * H + lw), lw)
        self._cache = (key, surf)
        return surf

    @staticmethod
    def _passage(surf, cost, a, b, lw, mid, f) -> None:
        if cost == 0:
            pygame.draw.line(surf, WALL, a, b, lw)
        elif cost > 1:
            # mud: a brown blob across the passage with its cost in turns
            r = max(4, f)
            pygame.draw.circle(surf, MUD, mid, r)
            label = text(str(cost), f, (240, 225, 200), bold=True)
            surf.blit(label, label.get_rect(center=mid))

    def _draw_plans(self, surface, view: MazeView, ctx, cell: int, x0: int, y0: int) -> None:
        """Each explorer's path along a search's principal variation, under
        the explorers: a polyline through cell centres (each explorer a little
        offset, so that two paths along one corridor stay apart), a dot per
        cell; dashed where it is another player's prediction."""
        if ctx is None:
            return
        lines = [(a, m, False) for a, m in ctx.plans.items()] + \
                [(a, m, True) for a, m in ctx.predicted.items()]
        self.plan_points = {}
        H = view.height
        for a, moves, dashed in lines:
            if not 0 <= a < view.players or not moves:
                continue
            cells = plan_cells(view, a, moves)
            off = (a - (view.players - 1) / 2) * cell * 0.12
            pts = [(int(px + off), int(py + off)) for px, py in
                   (cell_center(cx, cy, cell, x0, y0, H) for cx, cy in cells)]
            self.plan_points[a] = pts
            color = self.colors[a % len(self.colors)]
            width = max(2, cell // 10)
            for p, q in zip(pts, pts[1:]):
                if p == q:
                    continue
                if dashed:
                    _dashed(surface, color, p, q, max(1, width - 1))
                else:
                    pygame.draw.line(surface, color, p, q, width)
            r = max(2, cell // 12)
            for p in dict.fromkeys(pts[1:]):     # each cell once, in order
                pygame.draw.circle(surface, color, p, r)

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: MazeView,
             prev: MazeView | None = None, alpha: float = 1.0, ctx=None) -> None:
        with clipped(surface, rect):
            self._draw(surface, rect, view, prev, alpha, ctx)

    def _draw(self, surface, rect, view, prev, alpha, ctx) -> None:
        board = self._board(rect)
        surface.blit(self._layout(board, view), board.topleft)
        cell, x0, y0 = board_geometry(board, view.width, view.height)
        H = view.height
        alpha = 1.0 if prev is None else min(1.0, max(0.0, alpha))
        for (cx, cy) in view.cheese:
            px, py = cell_center(cx, cy, cell, x0, y0, H)
            r = max(2, int(cell * 0.22))
            pts = [(px - r, py + r * 0.8), (px + r, py + r * 0.8), (px + r, py - r * 0.4)]
            pygame.draw.polygon(surface, CHEESE, pts)
            pygame.draw.circle(surface, (200, 150, 30), (int(px + r * 0.3), int(py + r * 0.3)),
                               max(1, r // 4))
        self._draw_plans(surface, view, ctx, cell, x0, y0)
        highlight = ctx.highlight_agent if ctx is not None else None
        same: dict[tuple[int, int], int] = {}
        for i, e in enumerate(view.explorers):
            sx, sy = e.x, e.y
            if prev is not None and i < len(prev.explorers):
                p = prev.explorers[i]
                sx, sy = p.x + (e.x - p.x) * alpha, p.y + (e.y - p.y) * alpha
            k = same.get((e.x, e.y), 0)
            same[(e.x, e.y)] = k + 1
            px, py = cell_center(sx, sy, cell, x0, y0, H)
            off = (k % 2 - 0.5) * cell * 0.25 if k else 0.0
            px, py = px + off, py + (k // 2) * cell * 0.2
            color = self.colors[i % len(self.colors)]
            r = max(3, int(cell * 0.3))
            if i == highlight:
                pygame.draw.circle(surface, pal.TEXT, (int(px), int(py)), r + 3, 2)
            pygame.draw.circle(surface, color, (int(px), int(py)), r)
            if e.stuck:
                label = text(f"stuck {e.stuck}", max(8, cell // 3), (255, 235, 200), bold=True)
                surface.blit(label, label.get_rect(midbottom=(int(px), int(py - r))))
        # score line
        f = max(9, min(16, (board.y - rect.y) - 4))
        x = rect.x + 4
        for i, e in enumerate(view.explorers):
            name = self.names[i] if i < len(self.names) else f"P{i}"
            s = f"{e.score:g}".rstrip("0") if e.score12 % 12 else f"{e.score12 // 12}"
            label = text(f"{name}: {s}", f, self.colors[i % len(self.colors)], bold=True)
            surface.blit(label, (x, rect.y + 2))
            x += label.get_width() + 12
        tail = text(f"turn {view.turn}/{view.max_turns}  cheese left {view.cheese_left}"
                    f"/{view.cheese_total}", f, pal.TEXT)
        surface.blit(tail, (max(x, rect.right - tail.get_width() - 4), rect.y + 2))


def _dashed(surface, color, a, b, width: int, dash: float = 5.0, gap: float = 4.0) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        pygame.draw.line(surface, color, (a[0] + dx * t / length, a[1] + dy * t / length),
                         (a[0] + dx * e / length, a[1] + dy * e / length), width)
        t = e + gap

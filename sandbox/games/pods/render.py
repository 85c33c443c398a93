"""The pods board: the 16000x9000 map scaled into the board area, numbered
checkpoints (each pod's next one marked by a tick in its colour), pods with
their heading, a thrust flame as long as the thrust, the shield bubble, the
boost flash, fading trails, and a line of lap / checkpoint counters and each
player's timeout clock on top.

Trails are the renderer's memory of the positions it has been shown, one
list per pod keyed by turn (cleared when the turn goes backwards, e.g. a
replay seeking back), so drawing stays a read of the view.
"""
from __future__ import annotations

import math

import pygame

from ...render import palette as pal
from ...render.fonts import text
from ...render.grid import clipped
from .view import (BOOST_THRUST, CP_RADIUS, MAP_H, MAP_W, POD_RADIUS, PodsView, find_move,
                   heading_base, move_table)

CP_FILL = (44, 52, 66)
CP_RING = (150, 165, 190)
FLAME = (255, 170, 60)
FLAME_CORE = (255, 240, 170)
SHIELD = (140, 210, 255)
TRAIL_TURNS = 24


def _lerp(a, b, t: float):
    return tuple(int(x + (y - x) * t) for x, y in zip(a, b))


class PodsRenderer:
    def __init__(self, colors, names, move_names=None) -> None:
        self.colors = list(colors)
        self.names = list(names)
        self.trails: dict[int, list[tuple[int, int, int]]] = {}   # agent -> (turn, x, y)
        self._last_turn = -1

    # -- geometry ------------------------------------------------------------------
    @staticmethod
    def _header_rows(rect: pygame.Rect, players: int) -> tuple[int, int, int]:
        """(font size, row height, rows): one item per player plus the turn
        counter, as many to a row as fit (about 250 px each)."""
        f = max(8, min(14, rect.h // 30))
        per_row = max(1, rect.w // 250)
        rows = -(-(players + 1) // per_row)
        return f, f + 5, rows

    def _board(self, rect: pygame.Rect, players: int = 2) -> pygame.Rect:
        _, row_h, rows = self._header_rows(rect, players)
        head = row_h * rows + 2
        return pygame.Rect(rect.x, rect.y + head, rect.w, max(1, rect.h - head))

    @staticmethod
    def _scale(board: pygame.Rect) -> tuple[float, float, float]:
        """Pixels per map unit and the map's top-left corner on screen: the
        whole 16000x9000 map, aspect kept, centred."""
        s = min(board.w / MAP_W, board.h / MAP_H)
        return s, board.x + (board.w - MAP_W * s) / 2, board.y + (board.h - MAP_H * s) / 2

    def to_screen(self, rect: pygame.Rect, x: float, y: float) -> tuple[int, int]:
        s, x0, y0 = self._scale(self._board(rect))
        return int(x0 + x * s), int(y0 + y * s)

    def move_at(self, rect: pygame.Rect, view: PodsView, pos, agent: int) -> int | None:
        """A click is a target point: turn toward it as far as the move set
        allows (the rotation closest to its direction), full thrust."""
        if not 0 <= agent < view.num_pods or view.out_turn[view.player_of(agent)] >= 0:
            return None
        board = self._board(rect, view.players)
        if not board.collidepoint(pos):
            return None
        s, x0, y0 = self._scale(board)
        q = view.pods[agent]
        tx, ty = (pos[0] - x0) / s, (pos[1] - y0) / s
        if (tx - q.x) ** 2 + (ty - q.y) ** 2 < 1.0:
            return None
        want = (math.degrees(math.atan2(ty - q.y, tx - q.x)) - heading_base(view, agent)) % 360.0
        want = want - 360.0 if want > 180.0 else want
        rots = sorted({r for r, t in move_table(view) if isinstance(t, int)})
        rot = min(rots, key=lambda r: abs(r - want))
        return find_move(view, rot, view.max_thrust)

    # -- drawing ---------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: PodsView,
             prev: PodsView | None = None, alpha: float = 1.0, ctx=None) -> None:
        with clipped(surface, rect):
            self._remember(view)
            self._draw(surface, rect, view, ctx)

    def _remember(self, view: PodsView) -> None:
        if view.turn < self._last_turn:
            self.trails.clear()
        self._last_turn = view.turn
        for a, q in enumerate(view.pods):
            trail = self.trails.setdefault(a, [])
            if not trail or trail[-1][0] != view.turn:
                trail.append((view.turn, q.x, q.y))
            del trail[:-TRAIL_TURNS]

    def _draw(self, surface, rect, view: PodsView, ctx) -> None:
        board = self._board(rect, view.players)
        surface.fill(pal.BG, rect)
        s, x0, y0 = self._scale(board)
        pygame.draw.rect(surface, pal.PANEL, (int(x0), int(y0), int(MAP_W * s) + 1,
                                              int(MAP_H * s) + 1))

        def P(x: float, y: float) -> tuple[int, int]:
            return int(x0 + x * s), int(y0 + y * s)

        # checkpoints, numbered; 0 is the start and finish
        rc = max(3, int(CP_RADIUS * s))
        fsize = max(8, min(22, int(rc * 0.9)))
        for i, (cx, cy) in enumerate(view.checkpoints):
            c = P(cx, cy)
            pygame.draw.circle(surface, CP_FILL, c, rc)
            pygame.draw.circle(surface, CP_RING, c, rc, max(1, rc // 10))
            label = text(str(i), fsize, pal.TEXT, bold=True)
            surface.blit(label, label.get_rect(center=c))
        # each pod's next checkpoint: a tick on the ring in its colour
        for a, q in enumerate(view.pods):
            if view.out_turn[view.player_of(a)] >= 0 or q.passed >= view.total_cps:
                continue
            cx, cy = P(*view.checkpoints[q.next_cp])
            ang = math.radians(-90 + a * 360.0 / max(1, view.num_pods))
            r0, r1 = rc + 1, rc + max(4, rc // 2)
            pygame.draw.line(surface, self._color(a, view.per_player),
                             (cx + r0 * math.cos(ang), cy + r0 * math.sin(ang)),
                             (cx + r1 * math.cos(ang), cy + r1 * math.sin(ang)), max(2, rc // 6))
        # fading trails
        for a, trail in self.trails.items():
            if a >= view.num_pods or len(trail) < 2:
                continue
            col = self._color(a, view.per_player)
            n = len(trail)
            for k in range(1, n):
                fade = k / n
                pygame.draw.line(surface, _lerp(pal.PANEL, col, fade * 0.8),
                                 P(trail[k - 1][1], trail[k - 1][2]),
                                 P(trail[k][1], trail[k][2]), max(1, int(3 * fade)))
        # pods
        rp = max(2, int(POD_RADIUS * s))
        highlight = ctx.highlight_agent if ctx is not None else None
        for a, q in enumerate(view.pods):
            self._pod(surface, P(q.x, q.y), rp, q, a, view, a == highlight)
        self._header(surface, rect, board, view, ctx.note if ctx is not None else "")

    def _color(self, a: int, per_player: int = 1):
        col = self.colors[a % len(self.colors)] if self.colors else pal.ACCENT
        # a team's second pod: a lighter shade of the team's colour
        return _lerp(col, (255, 255, 255), 0.4) if a % per_player == 1 else col

    def _pod(self, surface, c, rp: int, q, a: int, view: PodsView, highlight: bool) -> None:
        col = self._color(a, view.per_player)
        out = view.out_turn[view.player_of(a)] >= 0
        if out:
            col = _lerp(col, pal.PANEL, 0.6)
        hx, hy = math.cos(math.radians(q.angle)), math.sin(math.radians(q.angle))
        # thrust flame behind the pod, as long as the thrust (boost the longest)
        if q.last_thrust > 0:
            length = rp * (0.6 + 2.2 * q.last_thrust / BOOST_THRUST)
            bx, by = c[0] - hx * rp * 0.8, c[1] - hy * rp * 0.8
            tip = (bx - hx * length, by - hy * length)
            w = rp * 0.55
            side = (-hy * w, hx * w)
            pygame.draw.polygon(surface, FLAME, [(bx + side[0], by + side[1]), tip,
                                                 (bx - side[0], by - side[1])])
            pygame.draw.line(surface, FLAME_CORE, (bx, by),
                             (bx - hx * length * 0.5, by - hy * length * 0.5), max(1, rp // 4))
        if q.boosted:
            pygame.draw.circle(surface, FLAME_CORE, c, int(rp * 1.9), max(1, rp // 3))
        if highlight:
            pygame.draw.circle(surface, pal.TEXT, c, rp + 3, 2)
        pygame.draw.circle(surface, col, c, rp)
        # heading: a nose line from the centre past the rim
        pygame.draw.line(surface, (20, 20, 24), c,
                         (c[0] + hx * rp * 1.5, c[1] + hy * rp * 1.5), max(2, rp // 3))
        pygame.draw.line(surface, pal.TEXT, c,
                         (c[0] + hx * rp * 1.5, c[1] + hy * rp * 1.5), max(1, rp // 5))
        if q.shielded:
            pygame.draw.circle(surface, SHIELD, c, int(rp * 1.45), max(2, rp // 4))
        elif q.shield:
            pygame.draw.circle(surface, _lerp(pal.PANEL, SHIELD, 0.45), c, int(rp * 1.3), 1)

    def _header(self, surface, rect, board, view: PodsView, note: str = "") -> None:
        f, row_h, rows = self._header_rows(rect, view.players)
        per_row = -(-(view.players + 1) // rows)
        slot = rect.w / per_row
        n_cp = len(view.checkpoints)
        items = []
        for p in range(view.players):
            pods = range(p * view.per_player, (p + 1) * view.per_player)
            best = max(pods, key=lambda a: view.pods[a].passed)
            q = view.pods[best]
            name = self.names[best] if best < len(self.names) else f"P{p}"
            lap = min(view.laps, q.passed // n_cp + 1)
            if view.winner == p:
                state = "WON"
            elif view.out_turn[p] >= 0:
                state = "timed out"
            else:
                state = f"clock {view.clock[p]}"
            items.append(text(f"{name} lap {lap}/{view.laps} cp {q.passed}/{view.total_cps} "
                              f"{state}", f, self._color(p * view.per_player), bold=True))
        items.append(text(f"turn {view.turn}/{view.max_turns}", f, pal.TEXT))
        if note:   # the pymunk world's divergence from the C model
            items.append(text(note, f, pal.TEXT_DIM))
        for i, label in enumerate(items):
            r, c = divmod(i, per_row)
            surface.blit(label, (int(rect.x + 4 + c * slot), rect.y + 2 + r * row_h))

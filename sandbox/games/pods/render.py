"""The pods board: the 16000x9000 map scaled into the board area, numbered
checkpoints (each pod's next one marked by a tick in its colour), pods with
their heading, a thrust flame as long as the thrust, the shield bubble, the
boost flash, fading trails, and a line of lap / checkpoint counters and each
player's timeout clock on top.

Between two turns the pods glide: draw() gets the previous turn's view and
alpha (0..1 of the turn's display time), and each pod is drawn on the
straight line from where it was to where it is (within a turn a pod does
move in a straight line, friction acts at the turn's end), its heading
turned along the shorter arc.

Where a search publishes its tree's best line for a pod (BoardContext.plans:
each Smitsimax tree's most visited path), the pod's planned path is drawn as
a dotted line: the lines are stepped forward in the C game (a clone of
BoardContext.game; pods without a line of their own play the game's
heuristic bot meanwhile), so the dots are where the C model says the pod
will be, against its trail (where it really went).

Trails are the renderer's memory of the positions it has been shown, one
list per pod keyed by turn (cleared when the turn goes backwards, e.g. a
replay seeking back), so drawing stays a read of the view.
"""
from __future__ import annotations

import math

import pygame

from ...native import FreeMove
from ...render import palette as pal
from ...render.fonts import text
from ...render.grid import clipped
from .view import (BOOST_THRUST, CP_RADIUS, MAP_H, MAP_W, POD_RADIUS, PodsView, decode_pods,
                   find_move, heading_base, move_table)

CP_FILL = (44, 52, 66)
CP_RING = (150, 165, 190)
FLAME = (255, 170, 60)
FLAME_CORE = (255, 240, 170)
SHIELD = (140, 210, 255)
TRAIL_TURNS = 24
PLAN_STEPS = 8          # turns of a planned path drawn (Smitsimax lines are ~depth long)


def _lerp(a, b, t: float):
    return tuple(int(x + (y - x) * t) for x, y in zip(a, b))


def lerp_angle(a: float, b: float, t: float) -> float:
    """The heading t of the way from a to b (degrees) along the shorter arc."""
    d = (b - a + 180.0) % 360.0 - 180.0
    return (a + d * t) % 360.0


def pod_poses(view: PodsView, prev: PodsView | None,
              alpha: float) -> list[tuple[float, float, float]]:
    """(x, y, heading) of each pod alpha of the way from the previous turn's
    view to this one (map units, degrees). Without the turn just before
    (none yet, a seek in a replay, another race) the pods stand where they
    are. A pod's heading before its first turn is the way it will face
    (its next checkpoint, heading_base)."""
    a = min(1.0, max(0.0, alpha))
    if prev is None or a >= 1.0 or prev.turn != view.turn - 1 \
            or prev.num_pods != view.num_pods or prev.checkpoints != view.checkpoints:
        return [(float(q.x), float(q.y), q.angle) for q in view.pods]
    out = []
    for i, (p, q) in enumerate(zip(prev.pods, view.pods)):
        out.append((p.x + (q.x - p.x) * a, p.y + (q.y - p.y) * a,
                    lerp_angle(heading_base(prev, i), q.angle, a)))
    return out


def plan_positions(game, view: PodsView, plans, steps: int) -> dict[int, list[tuple[int, int]]]:
    """Each planned pod's positions along its line, stepped in a clone of the
    C game (`game`, at `view`'s state): the pod's own line's moves, the
    other pods' lines where they have one, the game's heuristic bot for a
    pod without (or past the end of) a line. The first point is where the
    pod is now; a pod's points stop where its line does (or the race)."""
    n = view.num_pods
    out = {a: [(view.pods[a].x, view.pods[a].y)] for a in plans if 0 <= a < n}
    if not out:
        return out
    # few C calls per step (a step and an export): each call gives up the
    # GIL, and taking it back from a busy search thread can cost a frame
    n_moves = len(move_table(view))
    # each pod's line up to its first move that is none (-1) or unknown
    own = {a: next((i for i, m in enumerate(plans[a]) if not 0 <= int(m) < n_moves),
                   len(plans[a])) for a in out}
    steps = min(steps, max(own.values()))
    g = game.clone()
    now = view
    try:
        for d in range(steps):
            if now.over:
                break
            joint: list[int | None] = []
            for a in range(n):
                if now.out_turn[now.player_of(a)] >= 0:     # pods.c's is_alive
                    joint.append(None)
                    continue
                line = plans.get(a)
                m = int(line[d]) if line is not None and d < len(line) else -1
                joint.append(m if 0 <= m < n_moves else g.bot_move(a))
            g.step(joint)
            now = decode_pods(g.export())
            for a, pts in out.items():
                if d < own[a]:     # along its own line only
                    pts.append((now.pods[a].x, now.pods[a].y))
    finally:
        g.close()
    return out


class PodsRenderer:
    def __init__(self, colors, names, move_names=None) -> None:
        self.colors = list(colors)
        self.names = list(names)
        self.trails: dict[int, list[tuple[int, int, int]]] = {}   # agent -> (turn, x, y)
        self._last_turn = -1
        # what the last frame drew, for tests and overlays: each pod's centre
        # (pixels) and each planned pod's dotted line (map units, pixels)
        self.pod_points: dict[int, tuple[float, float]] = {}
        self.plan_map: dict[int, list[tuple[int, int]]] = {}
        self.plan_points: dict[int, list[tuple[int, int]]] = {}
        self._plan_key: tuple | None = None
        self._layer: tuple[tuple, pygame.Surface] | None = None   # map + checkpoints

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

    # a right click's thrust: full from this far from the pod, less nearer
    FULL_THRUST_AT = 2000.0

    def free_move_at(self, rect: pygame.Rect, view: PodsView, pos, agent: int):
        """A right click is a free move: steer toward exactly that point (up
        to 18° a turn, as a contest bot steers), the thrust by how far it is
        from the pod: max_thrust at FULL_THRUST_AT or more, in proportion
        nearer (a click on the pod itself coasts)."""
        if not 0 <= agent < view.num_pods or view.out_turn[view.player_of(agent)] >= 0:
            return None
        board = self._board(rect, view.players)
        if not board.collidepoint(pos):
            return None
        s, x0, y0 = self._scale(board)
        q = view.pods[agent]
        tx, ty = round((pos[0] - x0) / s), round((pos[1] - y0) / s)
        share = min(1.0, math.hypot(tx - q.x, ty - q.y) / self.FULL_THRUST_AT)
        return FreeMove(tx, ty, int(round(view.max_thrust * share)))

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
            self._draw(surface, rect, view, prev, alpha, ctx)

    def _remember(self, view: PodsView) -> None:
        if view.turn < self._last_turn:
            self.trails.clear()
        self._last_turn = view.turn
        for a, q in enumerate(view.pods):
            trail = self.trails.setdefault(a, [])
            if not trail or trail[-1][0] != view.turn:
                trail.append((view.turn, q.x, q.y))
            del trail[:-TRAIL_TURNS]

    def _static_layer(self, rect: pygame.Rect, board: pygame.Rect, view: PodsView):
        """The background, the map and the numbered checkpoints: drawn once
        per board size and map (they never change within a race), blitted
        each frame — the text and antialiased circles are most of a frame."""
        key = (rect.size, board.topleft[0] - rect.x, board.topleft[1] - rect.y, board.size,
               view.checkpoints)
        if self._layer is not None and self._layer[0] == key:
            return self._layer[1]
        surf = pygame.Surface(rect.size)
        surf.fill(pal.BG)
        local = board.move(-rect.x, -rect.y)
        s, x0, y0 = self._scale(local)
        pygame.draw.rect(surf, pal.PANEL, (int(x0), int(y0), int(MAP_W * s) + 1,
                                           int(MAP_H * s) + 1))
        rc = max(3, int(CP_RADIUS * s))
        fsize = max(8, min(22, int(rc * 0.9)))
        for i, (cx, cy) in enumerate(view.checkpoints):   # 0 is the start and finish
            c = (int(x0 + cx * s), int(y0 + cy * s))
            pygame.draw.circle(surf, CP_FILL, c, rc)
            pygame.draw.circle(surf, CP_RING, c, rc, max(1, rc // 10))
            label = text(str(i), fsize, pal.TEXT, bold=True)
            surf.blit(label, label.get_rect(center=c))
        self._layer = (key, surf)
        return surf

    def _draw(self, surface, rect, view: PodsView, prev, alpha, ctx) -> None:
        board = self._board(rect, view.players)
        surface.blit(self._static_layer(rect, board, view), rect.topleft)
        s, x0, y0 = self._scale(board)

        def P(x: float, y: float) -> tuple[int, int]:
            return int(x0 + x * s), int(y0 + y * s)

        rc = max(3, int(CP_RADIUS * s))
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
        poses = pod_poses(view, prev, alpha)
        # fading trails, up to where each pod is drawn now
        for a, trail in self.trails.items():
            if a >= view.num_pods:
                continue
            pts = [(x, y) for t, x, y in trail if t < view.turn] + [poses[a][:2]]
            if len(pts) < 2:
                continue
            col = self._color(a, view.per_player)
            n = len(pts)
            for k in range(1, n):
                fade = k / n
                pygame.draw.line(surface, _lerp(pal.PANEL, col, fade * 0.8),
                                 P(*pts[k - 1]), P(*pts[k]), max(1, int(3 * fade)))
        self._draw_plans(surface, view, ctx, P, s)
        # a person's free move of this turn (a right click): a cross on its target
        for a, move in (ctx.chosen.items() if ctx is not None else ()):
            if isinstance(move, FreeMove) and 0 <= a < view.num_pods:
                tx, ty = P(move.x, move.y)
                col, k = self._color(a, view.per_player), 6
                pygame.draw.line(surface, col, (tx - k, ty - k), (tx + k, ty + k), 2)
                pygame.draw.line(surface, col, (tx - k, ty + k), (tx + k, ty - k), 2)
        # pods
        rp = max(2, int(POD_RADIUS * s))
        highlight = ctx.highlight_agent if ctx is not None else None
        self.pod_points = {}
        for a, q in enumerate(view.pods):
            x, y, heading = poses[a]
            self.pod_points[a] = (x0 + x * s, y0 + y * s)
            self._pod(surface, P(x, y), rp, q, heading, a, view, a == highlight)
        self._header(surface, rect, board, view, ctx.note if ctx is not None else "")

    def _draw_plans(self, surface, view: PodsView, ctx, P, s: float) -> None:
        """Each planned pod's path as a dotted line in its colour: a dot per
        planned turn, joined by a thin line. Stepped in C once per turn and
        set of lines (cached), not per frame."""
        plans = dict(ctx.plans) if ctx is not None and ctx.game is not None else {}
        plans = {a: tuple(m) for a, m in plans.items() if m}
        key = (view.turn, view.pods, view.checkpoints, tuple(sorted(plans.items())))
        if key != self._plan_key:
            self._plan_key = key
            self.plan_map = (plan_positions(ctx.game, view, plans, PLAN_STEPS) if plans
                             else {})
        self.plan_points = {}
        r = max(2, int(POD_RADIUS * s * 0.22))
        for a, pts in self.plan_map.items():
            col = _lerp(self._color(a, view.per_player), (255, 255, 255), 0.25)
            px = [P(x, y) for x, y in pts]
            self.plan_points[a] = px
            for p, q in zip(px, px[1:]):
                _dotted(surface, col, p, q, max(2, r // 2))
            for p in px[1:]:
                pygame.draw.circle(surface, col, p, r)
                pygame.draw.circle(surface, (20, 20, 24), p, r, 1)

    def _color(self, a: int, per_player: int = 1):
        col = self.colors[a % len(self.colors)] if self.colors else pal.ACCENT
        # a team's second pod: a lighter shade of the team's colour
        return _lerp(col, (255, 255, 255), 0.4) if a % per_player == 1 else col

    def _pod(self, surface, c, rp: int, q, heading: float, a: int, view: PodsView,
             highlight: bool) -> None:
        col = self._color(a, view.per_player)
        out = view.out_turn[view.player_of(a)] >= 0
        if out:
            col = _lerp(col, pal.PANEL, 0.6)
        hx, hy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
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


def _dotted(surface, color, a, b, r: int, gap: float = 7.0) -> None:
    """Dots every `gap` pixels from a to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = int((dx * dx + dy * dy) ** 0.5 / gap)
    for k in range(1, n):
        pygame.draw.circle(surface, color, (int(a[0] + dx * k / n), int(a[1] + dy * k / n)),
                           max(1, r // 2))

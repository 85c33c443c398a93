"""Timeline: a scrubber over whole turns with markers (replays).

Click or drag anywhere on the bar to move the cursor; Left/Right (Shift: 10)
and Home/End when focused; the wheel steps one turn. Every change posts a
UI change event with the new turn, like the other widgets. Markers are
(turn, kind, label) with kind "elimination" or "settings"; hovering one
shows, one per line, the labels of every marker at that turn (several
players' changes, or an elimination and a change, share one spot).
"""
from __future__ import annotations

from typing import Sequence

import pygame

from ..render import palette as pal
from ..render.fonts import text
from .events import post_change
from .widgets import Widget

MARKER_COLORS = pal.MARKER_COLORS


class Timeline(Widget):
    def __init__(self, wid: str, rect, first: int, last: int, value: int,
                 markers: Sequence[tuple[int, str, str]] = (), tooltip: str = "",
                 limit: int | None = None) -> None:
        super().__init__(wid, rect, "", tooltip)
        self.first, self.last = int(first), max(int(first), int(last))
        # turns past `limit` are on the bar but cannot be reached (a gap in
        # a damaged file): drawn hatched, the cursor stops at the limit
        self.limit = self.last if limit is None else max(self.first, min(int(limit), self.last))
        self.value = self._clamp(value)
        self.markers = [(int(t), str(k), str(lab)) for t, k, lab in markers]
        self.dragging = False
        self._base_tooltip = tooltip

    @property
    def bar(self) -> pygame.Rect:
        return pygame.Rect(self.rect.x + 8, self.rect.y + 14, self.rect.w - 16, 12)

    def x_of(self, turn: float) -> int:
        b = self.bar
        span = max(1, self.last - self.first)
        return int(round(b.x + (turn - self.first) / span * b.w))

    def turn_at(self, x: int) -> int:
        b = self.bar
        span = max(1, self.last - self.first)
        return self._clamp(self.first + round((x - b.x) / max(1, b.w) * span))

    def _clamp(self, turn: int) -> int:
        return max(self.first, min(self.limit, int(turn)))

    def set(self, turn: int, notify: bool = False) -> None:
        t = self._clamp(turn)
        if t != self.value:
            self.value = t
            if notify:
                post_change(self.id, t)

    def marker_at(self, pos) -> tuple[int, str, str] | None:
        if not self.rect.collidepoint(pos):
            return None
        best = None
        for m in self.markers:
            d = abs(self.x_of(m[0]) - pos[0])
            if d <= 4 and (best is None or d < best[0]):
                best = (d, m)
        return best[1] if best else None

    def markers_at(self, pos) -> list[tuple[int, str, str]]:
        """Every marker at the turn of the one under `pos` (file order)."""
        m = self.marker_at(pos)
        return [x for x in self.markers if x[0] == m[0]] if m else []

    def tip_at(self, pos) -> str:
        """The tooltip for `pos`: all markers at that turn, else the base tip."""
        ms = self.markers_at(pos)
        if not ms:
            return self._base_tooltip
        if len(ms) == 1:
            return f"turn {ms[0][0]}: {ms[0][2]}"
        return "\n".join([f"turn {ms[0][0]}:"] + [lab for _, _, lab in ms])

    def _event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.tooltip = self.tip_at(event.pos)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self.rect.collidepoint(event.pos):
            self.dragging = True
            self.set(self.turn_at(event.pos[0]), True)
            return True
        if event.type == pygame.MOUSEMOTION and self.dragging:
            self.set(self.turn_at(event.pos[0]), True)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return True
        if event.type == pygame.MOUSEWHEEL and self.hovered:
            self.set(self.value - event.y, True)
            return True
        if event.type == pygame.KEYDOWN and self.focused:
            step = 10 if event.mod & pygame.KMOD_SHIFT else 1
            if event.key == pygame.K_LEFT:
                self.set(self.value - step, True)
            elif event.key == pygame.K_RIGHT:
                self.set(self.value + step, True)
            elif event.key == pygame.K_HOME:
                self.set(self.first, True)
            elif event.key == pygame.K_END:
                self.set(self.limit, True)
            else:
                return False
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        b = self.bar
        pygame.draw.rect(surface, pal.PANEL_HI, b, border_radius=4)
        if self.limit < self.last:  # unreachable tail (missing turns)
            x = self.x_of(self.limit)
            tail = pygame.Rect(x, b.y, b.right - x, b.h)
            for xx in range(tail.x, tail.right, 6):
                pygame.draw.line(surface, pal.BORDER, (xx, b.bottom - 1), (xx + 5, b.y), 1)
        filled = pygame.Rect(b.x, b.y, max(0, self.x_of(self.value) - b.x), b.h)
        pygame.draw.rect(surface, pal.ACCENT, filled, border_radius=4)
        border = pal.ACCENT if self.focused else pal.BORDER
        pygame.draw.rect(surface, border, b, 1, border_radius=4)
        for t, kind, _ in self.markers:
            x = self.x_of(t)
            c = MARKER_COLORS.get(kind, pal.TEXT)
            if kind == "elimination":
                pygame.draw.polygon(surface, c, [(x - 4, b.y - 9), (x + 4, b.y - 9), (x, b.y - 2)])
            else:
                pygame.draw.rect(surface, c, (x - 3, b.bottom + 2, 6, 6))
            pygame.draw.line(surface, c, (x, b.y), (x, b.bottom - 1), 1)
        x = self.x_of(self.value)
        pygame.draw.circle(surface, pal.TEXT, (x, b.centery), 7)
        pygame.draw.circle(surface, pal.ACCENT, (x, b.centery), 7, 2)
        for t in (self.first, self.last):
            lab = text(str(t), 11, pal.TEXT_DIM)
            xx = b.x if t == self.first else b.right - lab.get_width()
            surface.blit(lab, (xx, b.bottom + 9))

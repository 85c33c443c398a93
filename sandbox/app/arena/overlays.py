"""What is drawn over the scene: the result box, tooltips, the toast (flash) and the
settings-change log lines it appends, the keyboard help."""
from __future__ import annotations

import time

import pygame

from ...render import palette as pal
from ...render.fonts import text
from ...render.tooltip import draw_tooltip
from .constants import HELP


class Overlays:
    """ArenaScene's part: overlays and toasts (a mixin over the scene's state)."""

    def flash(self, msg: str, seconds: float = 3.0) -> None:
        self.message = msg
        self.message_until = time.perf_counter() + seconds

    def _log(self, line: str) -> None:
        self.change_log.append(line)
        del self.change_log[:-8]

    def _draw_result(self, surface, board: pygame.Rect) -> None:
        res = self.live.result
        if res is None:
            return
        line = (f"{res.names[res.winner]} wins" if res.winner is not None else "no single winner")
        box = pygame.Rect(0, 0, 300, 70)
        box.center = board.center
        pygame.draw.rect(surface, pal.PANEL_HI, box, border_radius=6)
        pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=6)
        t1 = text(line, 18, pal.TEXT, bold=True)
        t2 = text(f"after {res.turns} turns — R for a new match", 12, pal.TEXT_DIM)
        surface.blit(t1, t1.get_rect(center=(box.centerx, box.y + 24)))
        surface.blit(t2, t2.get_rect(center=(box.centerx, box.y + 50)))

    def _tooltip(self, surface, tip: str) -> None:
        draw_tooltip(surface, self.hover_pos, tip, max_width=420)   # long tips wrap

    def _draw_message(self, surface) -> None:
        t = text(self.message, 13, pal.TEXT)
        r = pygame.Rect(0, 0, t.get_width() + 20, t.get_height() + 10)
        r.midbottom = (surface.get_width() // 2, self.layout["trees"].y - 8)
        pygame.draw.rect(surface, pal.PANEL_HI, r, border_radius=4)
        surface.blit(t, (r.x + 10, r.y + 5))

    def _draw_help(self, surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, (0, 0))
        keys = [text(k, 13, pal.ACCENT, mono=True) for k, _ in HELP]
        whats = [text(what, 13, pal.TEXT) for _, what in HELP]
        # the box is as wide as its longest line (within the window)
        key_w = max(114, max(t.get_width() for t in keys) + 16)
        width = min(surface.get_width() - 20, 32 + key_w + max(t.get_width() for t in whats))
        box = pygame.Rect(0, 0, width, 40 + 22 * len(HELP))
        box.center = surface.get_rect().center
        self.help_rect = box
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=8)
        pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=8)
        surface.blit(text("Keyboard", 16, pal.TEXT, bold=True), (box.x + 16, box.y + 10))
        for i, (k, what) in enumerate(zip(keys, whats)):
            y = box.y + 38 + 22 * i
            surface.blit(k, (box.x + 16, y))
            surface.blit(what, (box.x + 16 + key_w, y))

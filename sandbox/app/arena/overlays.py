"""What is drawn over the scene, as plain functions of what they show: the result box, the
toast (ArenaScene.flash sets its text), the keyboard help."""
from __future__ import annotations

import pygame

from ...render import palette as pal
from ...render.fonts import text
from .constants import HELP


def draw_result(surface, board: pygame.Rect, res) -> None:
    """The match's result (a MatchResult) in a box over the board's centre."""
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


def draw_message(surface, message: str, bottom: int) -> None:
    """The toast: one line centred, its bottom at `bottom` (above the tree panels)."""
    t = text(message, 13, pal.TEXT)
    r = pygame.Rect(0, 0, t.get_width() + 20, t.get_height() + 10)
    r.midbottom = (surface.get_width() // 2, bottom)
    pygame.draw.rect(surface, pal.PANEL_HI, r, border_radius=4)
    surface.blit(t, (r.x + 10, r.y + 5))


def draw_help(surface) -> pygame.Rect:
    """The keyboard help over a shaded window; returns its box (a click outside closes it)."""
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
    pygame.draw.rect(surface, pal.PANEL, box, border_radius=8)
    pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=8)
    surface.blit(text("Keyboard", 16, pal.TEXT, bold=True), (box.x + 16, box.y + 10))
    for i, (k, what) in enumerate(zip(keys, whats)):
        y = box.y + 38 + 22 * i
        surface.blit(k, (box.x + 16, y))
        surface.blit(what, (box.x + 16 + key_w, y))
    return box

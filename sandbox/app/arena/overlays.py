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
    """The keyboard help over a shaded window; returns its box (a click
    outside closes it). Rows that do not fit the window's height go to a
    second column (in a smaller type, each column with its own key width),
    so no key is ever drawn off-screen."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    surface.blit(shade, (0, 0))
    fits = max(1, (surface.get_height() - 20 - 40) // 22)
    cols = 1 if len(HELP) <= fits else 2
    size = 13 if cols == 1 else 12
    per_col = -(-len(HELP) // cols)
    columns = []
    for c in range(cols):
        part = HELP[c * per_col:(c + 1) * per_col]
        keys = [text(k, size, pal.ACCENT, mono=True) for k, _ in part]
        whats = [text(what, size, pal.TEXT) for _, what in part]
        key_w = max(60, max(t.get_width() for t in keys) + 14)
        columns.append((keys, whats, key_w, key_w + max(t.get_width() for t in whats)))
    width = min(surface.get_width() - 20, 32 + sum(c[3] for c in columns) + 20 * (cols - 1))
    box = pygame.Rect(0, 0, width, 40 + 22 * per_col)
    box.center = surface.get_rect().center
    pygame.draw.rect(surface, pal.PANEL, box, border_radius=8)
    pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=8)
    surface.blit(text("Keyboard", 16, pal.TEXT, bold=True), (box.x + 16, box.y + 10))
    x = box.x + 16
    clip = surface.get_clip()
    for keys, whats, key_w, col_w in columns:
        for r, (k, what) in enumerate(zip(keys, whats)):
            y = box.y + 38 + 22 * r
            surface.blit(k, (x, y))
            # a window too narrow for the text cuts it at the box, never beyond
            surface.set_clip(pygame.Rect(x + key_w, y, box.right - 8 - x - key_w, 22))
            surface.blit(what, (x + key_w, y))
            surface.set_clip(clip)
        x += col_w + 20
    return box
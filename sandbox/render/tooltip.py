"""Tooltips and text fitting shared by the scenes: a tip of one or more
lines, each wrapped to the window, and lists of items fitted into a box with
"+N more" where they do not all fit (never a silent cut)."""
from __future__ import annotations

import pygame

from . import palette as pal
from .fonts import elide, font, text


def wrap(s: str, size: int, width: int) -> list[str]:
    """`s` broken at spaces into lines of at most `width` pixels (a word
    longer than that is elided)."""
    f = font(size)
    out: list[str] = []
    cur = ""
    for word in s.split(" "):
        cand = f"{cur} {word}" if cur else word
        if cur and f.size(cand)[0] > width:
            out.append(cur)
            cand = word
        cur = cand
    out.append(cur)
    return [elide(x, size, width) for x in out]


def fit_lines(items: list[str], size: int, width: int, max_lines: int,
               more_hint: str = "") -> list[str]:
    """`items` wrapped to `width`, at most `max_lines` lines; where items are
    left out the last line says "+N more" (N items), never a silent cut."""
    if max_lines <= 0:
        return []
    wrapped = [wrap(it, size, width) for it in items]
    if sum(len(w) for w in wrapped) <= max_lines:
        return [x for w in wrapped for x in w]
    out: list[str] = []
    for i, w in enumerate(wrapped):
        if len(out) + len(w) > max_lines - 1:
            return out + [elide(f"+{len(items) - i} more{more_hint}", size, width)]
        out.extend(w)
    return out


def draw_tooltip(surface, pos, tip: str, max_width: int = 560) -> None:
    """A tip of one or more lines (newlines), each wrapped to the window;
    lines that do not fit its height end in "+N more"."""
    area = surface.get_rect()
    width = max(80, min(max_width, area.w - 30))
    line_h = font(12).get_linesize()
    lines = fit_lines(tip.split("\n"), 12, width, max(1, (area.h - 10) // line_h))
    imgs = [text(x, 12, pal.TEXT) for x in lines]
    r = pygame.Rect(pos[0] + 14, pos[1] + 14, max(t.get_width() for t in imgs) + 10,
                    line_h * len(imgs) + 6)
    r.clamp_ip(area)
    pygame.draw.rect(surface, pal.PANEL_HI, r, border_radius=3)
    pygame.draw.rect(surface, pal.BORDER, r, 1, border_radius=3)
    for i, t in enumerate(imgs):
        surface.blit(t, (r.x + 5, r.y + 3 + i * line_h))


def draw_help_box(surface, rows, title: str) -> None:
    """A titled list of (key, what) rows over a shaded window (the replay's help)."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    surface.blit(shade, (0, 0))
    box = pygame.Rect(0, 0, 560, 40 + 22 * len(rows))
    box.center = surface.get_rect().center
    pygame.draw.rect(surface, pal.PANEL, box, border_radius=8)
    pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=8)
    surface.blit(text(title, 16, pal.TEXT, bold=True), (box.x + 16, box.y + 10))
    for i, (k, what) in enumerate(rows):
        y = box.y + 38 + 22 * i
        surface.blit(text(k, 13, pal.ACCENT, mono=True), (box.x + 16, y))
        surface.blit(text(what, 13, pal.TEXT), (box.x + 150, y))

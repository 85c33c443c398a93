"""A public belief state: each seat's range as bars over its possible hands.

    draw_ranges(surface, rect, ranges, label, colors, names)

A public-state search (pubcfr) holds, at its root, a probability for every
private state each seat may be in (in goofspiel with hidden bids: every hand
the seat may still hold given the public record). One column per seat, its
most likely hands first, as many as fit; the rest are summed on a last line.
The searching seat knows its own hand: on a fresh search its column is that
one hand; once it re-solves, its column is the range the play so far gives it
in the opponent's eyes, which safe re-solving needs. Pure drawing: reads the
ranges, keeps no state.
"""
from __future__ import annotations

import os
from typing import Callable, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import fonts, palette  # noqa: E402

ROW_H = 16


def ordered(rng: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """One row per private state, most likely first (ties by the id, so the
    order is stable), as shares of the whole. A search that re-solves keeps
    one entry per way of reaching a hand (the bids since its first root) and
    carries reach weights that need not sum to 1; a hand's row sums its
    entries, and the rows are normalised."""
    total: dict[int, float] = {}
    for state, p in rng:
        total[state] = total.get(state, 0.0) + p
    whole = sum(total.values())
    if whole > 0:
        total = {k: v / whole for k, v in total.items()}
    return sorted(total.items(), key=lambda r: (-r[1], r[0]))


def draw_ranges(surface: pygame.Surface, rect: pygame.Rect,
                ranges: Sequence[Sequence[tuple[int, float]]],
                label: Callable[[int], str], colors: Sequence[tuple[int, int, int]],
                names: Sequence[str], what: str = "range") -> None:
    rect = pygame.Rect(rect)
    if not ranges:
        lab = fonts.text("no ranges yet", 12, palette.TEXT_DIM)
        surface.blit(lab, lab.get_rect(center=rect.center))
        return
    n = len(ranges)
    col_w = (rect.w - 8 * (n - 1)) // n
    for seat, rng in enumerate(ranges):
        col = pygame.Rect(rect.x + seat * (col_w + 8), rect.y, col_w, rect.h)
        rows = ordered(rng)
        _column(surface, col, rows, label, colors[seat % len(colors)],
                f"{names[seat]}'s {what} ({len(rows)} hand{'s' if len(rows) != 1 else ''})")


def _column(surface, col: pygame.Rect, rows: list[tuple[int, float]],
            label: Callable[[int], str], color, title: str) -> None:
    surface.blit(fonts.text(fonts.elide(title, 12, col.w, bold=True), 12, color, bold=True),
                 (col.x, col.y))
    fit = max(1, (col.h - ROW_H - 2) // ROW_H)
    shown = rows if len(rows) <= fit else rows[:fit - 1]
    label_w = min(col.w // 3, 90)
    bar_x, bar_w = col.x + label_w + 4, col.w - label_w - 4 - 48
    y = col.y + ROW_H + 2
    for state, p in shown:
        surface.blit(fonts.text(fonts.elide(label(state), 11, label_w), 11, palette.TEXT),
                     (col.x, y + 1))
        pygame.draw.rect(surface, palette.PANEL_HI, (bar_x, y + 2, max(bar_w, 1), ROW_H - 5))
        pygame.draw.rect(surface, color, (bar_x, y + 2, max(0, round(bar_w * p)), ROW_H - 5))
        surface.blit(fonts.text(f"{100 * p:.1f}%", 11, palette.TEXT),
                     (bar_x + max(bar_w, 1) + 4, y + 1))
        y += ROW_H
    if len(shown) < len(rows):
        rest = sum(p for _, p in rows[len(shown):])
        surface.blit(fonts.text(f"{len(rows) - len(shown)} more hands: {100 * rest:.1f}%", 11,
                                palette.TEXT_DIM), (col.x, y + 1))

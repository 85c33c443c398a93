"""The public belief states of a public-state search, walked node by node.

    hits = draw_beliefs(surface, rect, beliefs, selected, event_label, private_label,
                        colors, names)

A public-state search (pubcfr) keeps a tree of public states: in goofspiel
with hidden bids, what both seats see after each round (who won which prize,
or a tie). At each one, every seat may hold several private states (hands);
the view shows, for the public state picked, each seat's posterior over them
given the public record, both seats playing the search's average strategies
(Search.node_ranges), as bars (render/range_bars.py). Above the bars: the way
from the root to the picked state (each step clickable: back up to it), then
the picked state's children, each with how likely it is (clickable: go down).
Pure drawing: returns the clickable rectangles with the node each one picks,
and keeps no state; the arena remembers the pick.
"""
from __future__ import annotations

import os
from typing import Callable, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import fonts, palette  # noqa: E402
from .range_bars import draw_ranges  # noqa: E402

LINE_H = 18


def path_to(beliefs: Sequence, index: int) -> list:
    """The nodes from the root down to `index` (just the root if it is not
    among them)."""
    by = {b.index: b for b in beliefs}
    out = []
    b = by.get(index)
    while b is not None:
        out.append(b)
        b = by.get(b.parent)
    return out[::-1] if out and out[-1].parent < 0 else [beliefs[0]]


def children_of(beliefs: Sequence, index: int) -> list:
    """The node's children among the beliefs, likeliest first."""
    return sorted((b for b in beliefs if b.parent == index), key=lambda b: (-b.reach, b.index))


def draw_beliefs(surface: pygame.Surface, rect: pygame.Rect, beliefs: Sequence,
                 selected: int, event_label: Callable[[object], str],
                 private_label: Callable[[int], str],
                 colors: Sequence[tuple[int, int, int]],
                 names: Sequence[str]) -> list[tuple[pygame.Rect, int]]:
    """Draw the picked public state's beliefs (the root if `selected` is not
    among them); return [(clickable rect, node index)]."""
    rect = pygame.Rect(rect)
    if not beliefs:
        lab = fonts.text("no public tree yet", 12, palette.TEXT_DIM)
        surface.blit(lab, lab.get_rect(center=rect.center))
        return []
    hits: list[tuple[pygame.Rect, int]] = []
    path = path_to(beliefs, selected)
    node = path[-1]
    # the way down: "public state: now > Ann won the 13 > tie on the 12"
    x, y = rect.x, rect.y
    head = fonts.text("public state:", 12, palette.TEXT_DIM)
    surface.blit(head, (x, y + 2))
    x += head.get_width() + 6
    for i, b in enumerate(path):
        word = "now" if b.parent < 0 else event_label(b)   # the search's root: this turn
        last = i == len(path) - 1
        lab = fonts.text(fonts.elide(word, 12, max(rect.right - x - 4, 8), bold=last), 12,
                         palette.TEXT if last else palette.ACCENT, bold=last)
        box = lab.get_rect(topleft=(x, y + 2))
        surface.blit(lab, box)
        if not last:
            hits.append((box.inflate(4, 4), b.index))
            x = box.right + 4
            sep = fonts.text(">", 12, palette.TEXT_DIM)
            surface.blit(sep, (x, y + 2))
            x += sep.get_width() + 4
        if x >= rect.right - 20:
            break
    # what may come next, each with its probability
    y += LINE_H
    kids = children_of(beliefs, node.index)
    x = rect.x
    if kids:
        for b in kids:
            word = f"{event_label(b)} {100 * b.reach / node.reach:.0f}%" if node.reach > 0 \
                else event_label(b)
            lab = fonts.text(word, 11, palette.TEXT)
            box = pygame.Rect(x, y + 1, lab.get_width() + 10, LINE_H - 3)
            if box.right > rect.right:
                more = fonts.text("...", 11, palette.TEXT_DIM)
                surface.blit(more, (x, y + 2))
                break
            pygame.draw.rect(surface, palette.PANEL_HI, box, border_radius=3)
            surface.blit(lab, lab.get_rect(center=box.center))
            hits.append((box, b.index))
            x = box.right + 6
    else:
        why = ("the frontier: valued by the game's evaluation" if not node.expanded
               else "every joint move here ends the game" if node.children == 0
               else f"{node.children} public states below: deeper than the view walks")
        surface.blit(fonts.text(fonts.elide(why, 11, rect.w), 11, palette.TEXT_DIM), (x, y + 2))
    y += LINE_H + 2
    area = pygame.Rect(rect.x, y, rect.w, max(rect.bottom - y, LINE_H))
    draw_ranges(surface, area, node.ranges, private_label, colors, names, what="belief")
    return hits

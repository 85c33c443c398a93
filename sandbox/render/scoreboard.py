"""The scoreboard: one row per agent, from the game plugin's facts.

    draw_scoreboard(surface, rect, plugin, view, colors, names, scores)

A row: colour chip, name, the plugin's summary (e.g. "len 5", "31 pts"), its
bar (health, share of points ...) with a label, the score of the last
evaluation at the right; an agent that is out is dimmed and says since when
and why, cut to fit before the score.
"""
from __future__ import annotations

import pygame

from . import palette as pal
from .fonts import elide, text


def draw_scoreboard(surface: pygame.Surface, rect: pygame.Rect, plugin, view, colors, names,
                    scores=None) -> None:
    n = plugin.num_agents(view)
    row_h = max(18, min(26, rect.h // max(1, n)))
    # the name column as wide as the longest name (66..120 px): "Smitsimax"
    # ran into its summary at a fixed 66
    labels = [names[i] if i < len(names) else f"P{i}" for i in range(n)]
    name_w = min(120, max([66] + [text(s, 13, pal.TEXT, bold=True).get_width() for s in labels]))
    sx = rect.x + 16 + name_w + 6          # the summary column
    bx = sx + 64                           # the bar
    for i in range(n):
        st = plugin.status(view, i)
        facts = plugin.facts(view, i)
        y = rect.y + i * row_h
        color = colors[i % len(colors)]
        pygame.draw.rect(surface, color if st.alive else pal.lerp(color, pal.BG, 0.6),
                         (rect.x, y + 4, 10, row_h - 8), border_radius=2)
        surface.blit(text(elide(labels[i], 13, name_w, bold=True), 13,
                          pal.TEXT if st.alive else pal.TEXT_DIM, bold=True), (rect.x + 16, y + 3))
        surface.blit(text(elide(facts.summary, 12, 60, mono=True), 12, pal.TEXT_DIM, mono=True),
                     (sx, y + 4))
        bar = pygame.Rect(bx, y + 7, max(20, rect.right - 110 - bx), row_h - 14)
        sc = (text(f"{scores[i]:+.2f}", 11, pal.TEXT_DIM, mono=True)
              if scores is not None and i < len(scores) else None)
        if facts.bar is not None or not st.alive:
            pygame.draw.rect(surface, pal.GRID, bar, border_radius=3)
        if st.alive and facts.bar is not None:
            frac = max(0.0, min(1.0, facts.bar))
            # a gauge (a snake's health) by its level; progress (cheese,
            # checkpoints, points) in the player's colour: a red bar on
            # Blue's row read as trouble
            hc = ((pal.OK if frac > 0.5 else pal.WARN if frac > 0.2 else pal.ERROR)
                  if facts.gauge else color)
            pygame.draw.rect(surface, hc, (bar.x, bar.y, int(bar.w * frac), bar.h), border_radius=3)
            if facts.bar_label:
                surface.blit(text(facts.bar_label, 11, pal.TEXT, mono=True), (bar.right + 6, y + 5))
        note = ""
        if not st.alive:
            note = (f"† turn {st.out_turn}: {st.cause}" if st.out_turn is not None
                    else f"† {st.cause or 'out'}")
        elif facts.detail:
            note = facts.detail
        if note:   # cut to end before the score, not run into it
            room = rect.right - (sc.get_width() + 8 if sc else 0) - (bar.x + 4)
            surface.blit(text(elide(note, 11, room), 11, pal.TEXT_DIM if not st.alive else pal.TEXT),
                         (bar.x + 4, y + 5))
        if sc is not None:
            surface.blit(sc, (rect.right - sc.get_width(), y + 5))

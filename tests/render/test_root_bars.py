"""Root visit bars: drawn, chosen move emphasised, empty input handled."""
from __future__ import annotations

import numpy as np
import pygame
from render_support import move_name

from sandbox.native import MoveStat
from sandbox.render import palette
from sandbox.render.root_bars import draw_root_bars

COLOR = palette.agent_color(2)


def count(surf, color) -> int:
    return int(np.all(pygame.surfarray.array3d(surf) == np.array(color), axis=-1).sum())


def test_bars_drawn_with_the_chosen_move_in_full_colour(real_search):
    stats = real_search.root_stats(0)
    best = real_search.best_moves()[0]
    surf = pygame.Surface((320, 150))
    draw_root_bars(surf, surf.get_rect(), stats, move_name, COLOR, chosen_move=best,
                   title="Agent 0", norm=(-1.0, 3.0))
    top = max(stats, key=lambda s: s.visits)
    assert top.move == best
    bar_px = count(surf, COLOR)
    assert bar_px > 0.5 * 150 * (top.visits / sum(s.visits for s in stats)) * 10
    assert count(surf, palette.PANEL) < 320 * 150


def test_bar_length_follows_visit_share():
    stats = [MoveStat(0, 30, 0.1, 0.3, 0.3), MoveStat(1, 70, 0.5, 0.7, 0.7)]
    a = pygame.Surface((300, 80))
    draw_root_bars(a, a.get_rect(), stats, move_name, COLOR, chosen_move=0)
    b = pygame.Surface((300, 80))
    draw_root_bars(b, b.get_rect(), stats, move_name, COLOR, chosen_move=1)
    # The chosen bar is drawn in full colour: 70 % of the track vs 30 %.
    assert count(b, COLOR) > 2 * count(a, COLOR)


def test_empty_zero_and_pass_stats_draw():
    for stats in ([], [MoveStat(-1, 0, 0.0, 0.0, 0.0)], [MoveStat(-1, 12, 0.3, 1.0, 1.0)]):
        surf = pygame.Surface((200, 60))
        surf.fill((0, 0, 0))
        draw_root_bars(surf, (0, 0, 200, 60), stats, move_name, COLOR, title="Agent 2")
        assert count(surf, palette.PANEL) < 200 * 60       # text was drawn
    tiny = pygame.Surface((30, 10))
    draw_root_bars(tiny, tiny.get_rect(), [MoveStat(0, 1, 0.0, 1.0, 1.0)], move_name, COLOR)
    # A policy whose probability differs from the visit share shows it.
    surf = pygame.Surface((320, 60))
    draw_root_bars(surf, surf.get_rect(), [MoveStat(0, 50, 0.0, 0.2, 0.2), MoveStat(1, 50, 0.0, 0.8, 0.8)],
                   move_name, COLOR)
    assert count(surf, palette.ACCENT) > 0


def test_a_strategy_without_visits_draws_no_visit_share():
    """A search that counts no visits (breadth-first CFR over public
    states) shows its average strategy alone: no visit-share line under the
    bars and no "visit share" swatch in the legend, where a policy with
    visits has both."""
    from sandbox.render.root_bars import VISIT_LINE
    strategy = [MoveStat(0, 0, 0.1, 0.0, 0.25), MoveStat(1, 0, -0.2, 0.0, 0.75)]
    bare = pygame.Surface((420, 90))
    draw_root_bars(bare, bare.get_rect(), strategy, move_name, COLOR, policy_name="CFR+",
                   title="Agent 0")
    assert count(bare, VISIT_LINE) == 0
    visited = [MoveStat(0, 10, 0.1, 0.5, 0.25), MoveStat(1, 10, -0.2, 0.5, 0.75)]
    both = pygame.Surface((420, 90))
    draw_root_bars(both, both.get_rect(), visited, move_name, COLOR, policy_name="CFR+",
                   title="Agent 0")
    assert count(both, VISIT_LINE) > 0

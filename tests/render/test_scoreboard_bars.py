"""The scoreboard's bars: a level (a snake's health, `gauge`) is coloured by
how full it is; progress (a pod's checkpoints, cheese, points) in the
agent's own colour, so a short bar on Blue's row is blue, not alarm red."""
from __future__ import annotations

import pygame

from sandbox.games.base import AgentFacts
from sandbox.render import palette as pal
from sandbox.render.scoreboard import draw_scoreboard

RED, BLUE = (230, 80, 70), (80, 140, 240)


class _Status:
    alive, out_turn, cause = True, None, ""


class _Plugin:
    """Two agents whose bars are 10% full (a pod at its first checkpoint)."""

    def __init__(self, gauge: bool) -> None:
        self.gauge = gauge

    def num_agents(self, view) -> int:
        return 2

    def status(self, view, i):
        return _Status()

    def facts(self, view, i):
        return AgentFacts(summary="cp 1", bar=0.1, gauge=self.gauge)


def bar_colour(gauge: bool, agent: int):
    pygame.font.init()
    surf = pygame.Surface((460, 52))
    surf.fill(pal.BG)
    rect = surf.get_rect()
    draw_scoreboard(surf, rect, _Plugin(gauge), None, [RED, BLUE], ["Red", "Blue"])
    # the bar's first pixels: the bar starts after name and summary columns;
    # scan the row's middle for the first pixel of a bar colour
    y = agent * 26 + 13
    found = [tuple(surf.get_at((x, y)))[:3] for x in range(150, 300)]
    return found


def test_progress_bars_take_the_agents_colour():
    assert BLUE in bar_colour(False, 1) and tuple(pal.ERROR) not in bar_colour(False, 1)
    assert RED in bar_colour(False, 0)


def test_a_gauge_is_coloured_by_its_level():
    assert tuple(pal.ERROR) in bar_colour(True, 1) and BLUE not in bar_colour(True, 1)

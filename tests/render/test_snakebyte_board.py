"""The SnakeByte board: a side view (y down) drawing what the state holds:
walls where the map has them, snakes in their team's colour, a fall drawn
after the move over the turn's second half, a red flash on a snake that
lost parts, and a click next to a head steering it there."""
from __future__ import annotations

import pygame
import pytest

from sandbox.games import plugin
from sandbox.games.snakes.render_byte import FLASH, WALL, SnakeByteRenderer, geometry
from sandbox.native import Game

P = plugin("snakes")
RECT = pygame.Rect(0, 0, 720, 480)
RED, BLUE = (230, 80, 70), (80, 140, 240)


def board():
    return SnakeByteRenderer([RED, RED, BLUE, BLUE], ["Red", "Red", "Blue", "Blue"])


def game() -> Game:
    return Game("snakes", P.c_params({"map": "ledges"}), seed=1)


def test_walls_and_snakes_are_where_the_state_says():
    with game() as g:
        v = P.decode(g.export())
        surf = pygame.Surface(RECT.size)
        board().draw(surf, RECT, v)
        cell, x0, y0 = geometry(RECT, v)
        y = v.height - 1                                  # the floor: wall everywhere
        assert surf.get_at((x0 + cell // 2, y0 + y * cell + cell // 2))[:3] == WALL
        hx, hy = v.snakes[0].body[1]                      # a body cell (not the eyes)
        c = surf.get_at((x0 + hx * cell + cell // 2, y0 + hy * cell + cell // 2))[:3]
        assert c[0] > 150 and c[0] > c[1] + 60 and c[0] > c[2] + 60      # red's
        hx, hy = v.snakes[2].body[1]
        c = surf.get_at((x0 + hx * cell + cell // 2, y0 + hy * cell + cell // 2))[:3]
        assert c[2] > 150 and c[2] > c[0] + 60                            # blue's
        # y grows downward: the head is drawn above its body
        assert v.snakes[0].body[0][1] < v.snakes[0].body[1][1]


def test_a_fall_is_drawn_after_the_move():
    with game() as g:
        prev = P.decode(g.export())
        g.step([0, 0, 0, 0])                              # up: too high, each falls back
        v = P.decode(g.export())
        s = v.snakes[0]
        assert s.fell == 1
        r = SnakeByteRenderer.body_at
        # at the half turn the move is done and the fall not begun: a row up
        assert r(s, prev.snakes[0], 0.5)[0] == (s.body[0][0], s.body[0][1] - 1)
        assert r(s, prev.snakes[0], 0.75)[0] == pytest.approx((s.body[0][0], s.body[0][1] - 0.5))
        assert r(s, prev.snakes[0], 1.0)[0] == s.body[0]


def test_a_beheaded_snake_flashes():
    rows = ["#.*.....", "a.b..A.B", "........", "........", "........", "########"]
    params = {"ruleset": "snakebyte", "width": 8, "height": 6,
              **{f"row{y}": r for y, r in enumerate(rows)}}
    with Game("snakes", params, seed=1) as g:
        surf = pygame.Surface(RECT.size)
        board().draw(surf, RECT, P.decode(g.export()))
        flash = lambda: any(surf.get_at((x, y))[:3] == FLASH          # noqa: E731
                            for x in range(0, RECT.w) for y in range(0, RECT.h, 2))
        assert not flash()
        g.step([0, 0, 0, 0])              # snake a's head goes into the ceiling: dies
        v = P.decode(g.export())
        assert v.snakes[0].lost == 3 and not v.snakes[0].alive
        board().draw(surf, RECT, v)
        assert flash()


def test_a_click_next_to_the_head_steers_there():
    with game() as g:
        v = P.decode(g.export())
        cell, x0, y0 = geometry(RECT, v)
        hx, hy = v.snakes[0].head
        above = (x0 + hx * cell + cell // 2, y0 + (hy - 1) * cell + cell // 2)
        left = (x0 + (hx - 1) * cell + cell // 2, y0 + hy * cell + cell // 2)
        assert board().move_at(RECT, v, above, 0) == 0
        assert board().move_at(RECT, v, left, 0) == 2
        assert P.renderer([RED] * 4, ["a"] * 4).move_at(RECT, v, above, 0) == 0

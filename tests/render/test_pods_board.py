"""The pods board and a person's input: a click steers toward the point
(the rotation C then applies turns the pod that way), the keys give the
moves their names say (names from C), the move table mirrors pods.c's, and
the board draws what the state holds (a flame only while thrusting, the
shield bubble, trails forgotten when the turn goes back)."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pygame
import pytest

from sandbox.games import plugin
from sandbox.games.pods.render import FLAME, SHIELD, PodsRenderer, lerp_angle, pod_poses
from sandbox.games.pods.view import decode_pods, encode_pods, move_table
from sandbox.native import Game

P = plugin("pods")
RECT = pygame.Rect(0, 0, 800, 500)


def duel(**params) -> Game:
    return Game("pods", {"map": "oval", "players": 2, "pods_per_player": 1, **params}, seed=0)


def set_pod(g: Game, agent: int, turn: int = 1, **changes):
    v = replace(decode_pods(g.export()), turn=turn).with_pod(agent, **changes)
    g.import_state(encode_pods(v))
    return decode_pods(g.export())


@pytest.mark.parametrize("params", [{}, {"rotations": 1}, {"thrusts": 2, "boost": 0},
                                    {"thrusts": 1, "shield": 0, "max_thrust": 150}])
def test_the_move_table_mirrors_c(params):
    with Game("pods", params, seed=0) as g:
        table = move_table(decode_pods(g.export()))
        assert len(table) == len(g.legal_moves(0))
        for m, (rot, thrust) in enumerate(table):
            name = g.move_name(0, m)
            if isinstance(thrust, str):
                assert name == thrust
            else:
                side = {-18.0: "L18", 0.0: "S", 18.0: "R18"}[rot]
                assert name == f"{side} {thrust}"


def test_keys_give_the_named_moves_or_a_reason():
    with duel() as g:
        v = decode_pods(g.export())
        names = {k: g.move_name(0, P.key_move(v, 0, k).move) for k in P.keys}
        assert names == {"left": "L18 200", "right": "R18 200", "up": "S 200", "down": "S 0",
                         "1": "S 0", "2": "S 100", "3": "S 200", "b": "boost", "s": "shield"}
    with duel(rotations=1, boost=0) as g:
        v = decode_pods(g.export())
        assert P.key_move(v, 0, "left").move is None and P.key_move(v, 0, "left").refused
        assert P.key_move(v, 0, "b").move is None
        assert g.move_name(0, P.key_move(v, 0, "up").move) == "S 200"


def test_a_click_steers_toward_the_point():
    r = PodsRenderer([(230, 80, 70), (80, 140, 240)], ["A", "B"])
    with duel() as g:
        v = set_pod(g, 0, x=5000, y=4500, vx=0, vy=0, angle=0.0)
        for (tx, ty), want in (((9000, 4500), "S 200"), ((5000, 1000), "L18 200"),
                               ((5000, 8000), "R18 200"), ((1000, 4600), "R18 200")):
            m = r.move_at(RECT, v, r.to_screen(RECT, tx, ty), 0)
            assert g.move_name(0, m) == want, (tx, ty)
        # C turns the pod the way the click asked: toward the clicked side
        m = r.move_at(RECT, v, r.to_screen(RECT, 5000, 1000), 0)
        g.step([m, 3])
        assert decode_pods(g.export()).pods[0].angle == 342.0      # 18° to the left (north)


def _count(surf, color) -> int:
    px = pygame.surfarray.array3d(surf).reshape(-1, 3)
    return int(np.all(px == np.array(color), axis=1).sum())


def test_flame_and_shield_are_drawn_from_the_state():
    r = PodsRenderer([(230, 80, 70), (80, 140, 240)], ["A", "B"])
    with duel() as g:
        set_pod(g, 0, x=5000, y=4500, vx=0, vy=0, angle=0.0)
        set_pod(g, 1, x=11000, y=8000, vx=0, vy=0, angle=0.0)
        g.step([3, 3])                                  # both coast: no flame, no shield
        surf = pygame.Surface(RECT.size)
        r.draw(surf, RECT, decode_pods(g.export()))
        assert _count(surf, FLAME) == 0 and _count(surf, SHIELD) == 0
        g.step([5, 10])                                 # A thrusts, B raises its shield
        r.draw(surf, RECT, decode_pods(g.export()))
        assert _count(surf, FLAME) > 0 and _count(surf, SHIELD) > 0


def test_trails_follow_the_turns_and_reset_when_time_goes_back():
    r = PodsRenderer([(230, 80, 70), (80, 140, 240)], ["A", "B"])
    surf = pygame.Surface((300, 200))
    with duel() as g:
        views = [decode_pods(g.export())]
        for _ in range(5):
            g.step([5, 5])
            views.append(decode_pods(g.export()))
        for v in views:
            r.draw(surf, surf.get_rect(), v)
            r.draw(surf, surf.get_rect(), v)            # a second frame adds nothing
        assert [t for t, _, _ in r.trails[0]] == [0, 1, 2, 3, 4, 5]
        assert [(x, y) for _, x, y in r.trails[0]] == [(q.pods[0].x, q.pods[0].y) for q in views]
        r.draw(surf, surf.get_rect(), views[2])         # a replay seeking back
        assert [t for t, _, _ in r.trails[0]] == [2]


def test_between_turns_a_pod_glides_half_way_at_half_time_and_turns_the_short_way():
    colors = [(230, 80, 70), (80, 140, 240)]
    r = PodsRenderer(colors, ["A", "B"])
    surf = pygame.Surface(RECT.size)
    with duel() as g:
        set_pod(g, 0, x=5000, y=4500, vx=0, vy=0, angle=350.0)
        set_pod(g, 1, x=11000, y=8000, vx=0, vy=0, angle=0.0)
        prev = decode_pods(g.export())
        g.step([find(g, "R18 200"), find(g, "S 0")])   # 350° + 18° = 8°, thrust 200
        now = decode_pods(g.export())
        # by hand: heading 8°, 200 along it, position rounded
        assert now.pods[0].angle == 8.0
        end = (5000 + round(200 * math.cos(math.radians(8))),
               4500 + round(200 * math.sin(math.radians(8))))
        assert (now.pods[0].x, now.pods[0].y) == end
        # drawn a pixel-exact half-way (the renderer's own scale: s px per unit)
        r.draw(surf, RECT, now, prev, 0.5)
        s = min(RECT.w / 16000, (RECT.h - r._board(RECT).y) / 9000)
        bx, by = r.pod_points[0]
        sx0, sy0 = r.to_screen(RECT, 5000, 4500)
        assert abs(bx - (sx0 + (end[0] - 5000) / 2 * s)) < 1.0
        assert abs(by - (sy0 + (end[1] - 4500) / 2 * s)) < 1.0
        # pod A's disc (radius 20 px) is there: 17 px behind its drawn centre is
        # its colour, a point 22 px from where it ends the turn (5 px ahead)
        rp = int(400 * s)
        assert rp == 20
        assert tuple(surf.get_at((round(bx) - 17, round(by))))[:3] == colors[0]
        assert tuple(surf.get_at((round(bx), round(by) - 15)))[:3] == colors[0]
        # the heading half-way along the short arc (350° -> 8° passes 359°, not 180°)
        assert pod_poses(now, prev, 0.5)[0] == ((5000 + end[0]) / 2, (4500 + end[1]) / 2,
                                                359.0)
        assert lerp_angle(10.0, 350.0, 0.25) == 5.0 and lerp_angle(90.0, 270.0, 1.0) == 270.0
        # at the turn's start the old place, at its end the new one; no prev: the new one
        assert pod_poses(now, prev, 0.0)[0][:2] == (5000.0, 4500.0)
        assert pod_poses(now, prev, 1.0)[0][:2] == end
        assert pod_poses(now, None, 0.5)[0][:2] == end
        # a prev that is not the turn before (a replay seek): no glide
        assert pod_poses(now, replace(prev, turn=now.turn - 2), 0.5)[0][:2] == end


def find(g: Game, name: str) -> int:
    return next(m for m in g.legal_moves(0) if g.move_name(0, m) == name)


def test_a_persons_free_move_is_drawn_as_a_cross_on_its_target():
    from sandbox.games.base import BoardContext
    from sandbox.native import FreeMove
    r = PodsRenderer([(230, 80, 70), (80, 140, 240)], ["A", "B"])
    with duel() as g:
        v = set_pod(g, 0, x=5000, y=4500, vx=0, vy=0, angle=0.0)
        col = r._color(0, v.per_player)
        surf = pygame.Surface(RECT.size)
        tx, ty = r.to_screen(RECT, 12000, 8000)
        r.draw(surf, RECT, v)
        plain = surf.get_at((tx + 3, ty + 3))
        r.draw(surf, RECT, v, ctx=BoardContext(chosen={0: FreeMove(12000, 8000, 100)}))
        assert surf.get_at((tx + 3, ty + 3))[:3] == col[:3] != plain[:3]

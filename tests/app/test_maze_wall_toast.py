"""A person who walks into a maze wall: the key is refused with a toast
saying why (the rules would make it a silent stay), the turn waits for
another key, and a key along an open passage still moves."""
from __future__ import annotations

import pygame
from test_arena import app  # noqa: F401
from test_every_game import feed, wait_until

from sandbox.app.arena import ArenaScene
from sandbox.config import Budget, load_scenario

KEYS = {0: "up", 1: "down", 2: "left", 3: "right"}


def test_a_key_into_a_wall_says_why_and_an_open_way_moves(app):  # noqa: F811
    arena = ArenaScene(app, load_scenario("maze_you_vs_mcgs"), seed=2,
                       budget=Budget(iterations=100, ms=0), recorder_factory=lambda: None)
    app.push(arena)
    live = arena.live
    wait_until(arena.match.turn_ready, what="decisions")
    v = live.view
    e = v.explorers[0]
    # the walls around the person's explorer, read from the maze's passages
    # (up[y][x]: to y+1; right[y][x]: to x+1; 0 = a wall)
    walls = {0: e.y == v.height - 1 or v.up[e.y][e.x] == 0,
             1: e.y == 0 or v.up[e.y - 1][e.x] == 0,
             2: e.x == 0 or v.right[e.y][e.x - 1] == 0,
             3: e.x == v.width - 1 or v.right[e.y][e.x] == 0}
    blocked = [m for m, w in walls.items() if w]
    open_ = [m for m, w in walls.items() if not w]
    assert blocked and open_, "the start needs a wall and a way out for this test"
    m = blocked[0]
    feed(arena, pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(KEYS[m]),
                                   unicode="", mod=0))
    assert "blocks" in arena.message and KEYS[m] in arena.message
    assert 0 not in live.fresh_human and arena.match.turn == 0    # still waiting
    for _ in range(5):
        arena.update(500.0)
    assert arena.match.turn == 0
    m = open_[0]
    feed(arena, pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(KEYS[m]),
                                   unicode="", mod=0))
    wait_until(lambda: arena.match.turn == 1, arena, "turn 1")
    assert live.last_record.joint[0] == m

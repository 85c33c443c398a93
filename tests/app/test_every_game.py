"""The app shows every registered game: the arena plays it (board, scoreboard,
root bars and trees drawn), a person plays it with its keys and clicks, and
the replay scene opens its recording. Parametrised over the registry."""
from __future__ import annotations

import time

import pygame
import pytest

from sandbox.app.arena import ArenaScene
from sandbox.app.replay_scene import ReplayScene
from sandbox.app.shell import App
from sandbox.config import load_scenario, scenario_from_dict
from sandbox.games import plugin, plugins
from sandbox.replay import Recorder, read_replay
from sandbox.sim.match import Match
from sandbox.ui import UI_EVENT

HANG_GUARD_S = 30.0
KINDS = [p.kind for p in plugins()]


def scenario_for(kind: str, human: bool = False):
    p = plugin(kind)
    params = dict(p.examples[0])
    from sandbox.native import Game
    with Game(kind, p.c_params(params), seed=0) as g:
        n = g.num_agents
    players = [{"name": f"P{a}", "search": {"max_depth": 4}} for a in range(n)]
    if human:
        players[0] = {"name": "You", "controller": "human"}
    return scenario_from_dict({"name": f"every game: {kind}", "game": kind, "game_params": params,
                               "seed": 2, "budget": {"ms": 0, "iterations": 200},
                               "players": players})


def feed(scene, *events) -> None:
    for e in events:
        scene.handle_event(e)
        for ui in pygame.event.get(UI_EVENT):
            scene.handle_event(ui)


def wait_until(cond, scene=None, what: str = "") -> None:
    deadline = time.monotonic() + HANG_GUARD_S
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what or cond}"
        if scene is not None:
            scene.update(16.0)
        time.sleep(0.001)


def not_blank(surface: pygame.Surface, rect: pygame.Rect) -> int:
    px = pygame.surfarray.array3d(surface)[rect.x:rect.right, rect.y:rect.bottom]
    return len({tuple(c) for c in px.reshape(-1, 3)[::97]})


@pytest.mark.parametrize("kind", KINDS)
def test_arena_plays_and_draws_every_game(app, kind):
    arena = ArenaScene(app, scenario_for(kind), seed=3, recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    for _ in range(3):
        k = arena.match.turn
        if arena.live.over:
            break
        feed(arena, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, unicode="n", mod=0))
        wait_until(lambda: arena.match.turn == k + 1, arena, f"turn {k + 1}")
    app.run(max_frames=app.frame + 3)
    L = arena.layout
    assert not_blank(app.screen, L["board"]) >= 4
    assert not_blank(app.screen, L["right"]) >= 3          # scoreboard and meters
    assert all(tv.snapshot is not None for tv in arena.trees)
    assert arena.state()["turn"] == arena.match.turn


@pytest.mark.parametrize("kind", KINDS)
def test_a_person_plays_every_game(app, kind):
    """The scenario's human player: each turn waits for a key; the plugin's
    first key that gives a legal move plays it (clicks too, where the board
    takes them)."""
    p = plugin(kind)
    arena = ArenaScene(app, scenario_for(kind, human=True), seed=3,
                       recorder_factory=lambda: None)
    app.push(arena)
    live = arena.live
    assert live.human_agents == {0}
    wait_until(arena.match.turn_ready, what="decisions")
    for _ in range(10):
        arena.update(500.0)
    assert arena.match.turn == 0 and live.waiting_for_human()
    legal = arena.match.world.game.legal_moves(0)
    press = None
    for name in p.keys:
        res = p.key_move(live.view, 0, name)
        if res is not None and res.move is not None:
            press = (name, res.move)
            break
    assert press is not None and press[1] in legal
    keycode = pygame.key.key_code(press[0])
    feed(arena, pygame.event.Event(pygame.KEYDOWN, key=keycode, unicode=press[0], mod=0))
    wait_until(lambda: arena.match.turn == 1, arena, "turn 1")
    assert live.last_record.joint[0] == press[1]
    # a click on the board where the renderer says a legal move is
    if arena.live.over:
        return
    wait_until(arena.match.turn_ready, what="decisions of turn 1")
    board = arena.layout["board"]
    legal = arena.match.world.game.legal_moves(0)
    spot = None
    for x in range(board.x + 3, board.right, 7):
        for y in range(board.y + 3, board.bottom, 7):
            m = arena.board.move_at(board, live.view, (x, y), 0)
            if m is not None:
                spot = ((x, y), m)
                break
        if spot:
            break
    if spot is None:
        return          # this board takes no clicks now (e.g. a snake's head at a corner)
    assert spot[1] in legal
    feed(arena, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot[0], button=1))
    wait_until(lambda: arena.match.turn == 2, arena, "turn 2")
    assert live.last_record.joint[0] == spot[1]


@pytest.mark.parametrize("kind", KINDS)
def test_replay_scene_shows_every_game(app, kind, tmp_path):
    rec = Recorder(tmp_path, name_hint=kind, record_trees=50)
    with Match(scenario_for(kind), seed=5, recorder=rec, max_turns=6) as m:
        m.play()
        last = m.world.view()
    rec.close()
    scene = ReplayScene(app, read_replay(rec.path))
    app.push(scene)
    app.run(max_frames=app.frame + 2)
    assert not_blank(app.screen, scene.layout["board"]) >= 4
    assert all(tv.snapshot is not None for tv in scene.trees)     # turn 0's recorded trees
    scene.seek(scene.last)
    app.run(max_frames=app.frame + 2)
    assert scene.view == last
    assert scene.state()["turn"] == scene.last


def test_every_bundled_scenario_loads():
    from sandbox.config import list_scenarios
    games = set()
    for path in list_scenarios():
        sc = load_scenario(path)
        games.add(sc.game)
    assert games >= set(KINDS), f"no scenario for {set(KINDS) - games}"

"""The pymunk world in the app: the arena's and the replay scene's board say
how far the last step's world was from the C model (the divergence the turn
recorded), and the pods board draws that line; a csb race says nothing."""
from __future__ import annotations

import time

import pygame
import pytest

from sandbox.app.arena import ArenaScene
from sandbox.app.replay_scene import ReplayScene
from sandbox.app.shell import App
from sandbox.config import Budget, load_scenario
from sandbox.games import BoardContext
from sandbox.games.pods.render import PodsRenderer
from sandbox.replay import Recorder, read_replay
from sandbox.sim.match import Match
from sandbox.sim.world import divergence_note

from sandbox.ui import UI_EVENT

BUDGET = Budget(ms=0, iterations=60)


def feed(scene, *events) -> None:
    for e in events:
        scene.handle_event(e)
        for ui in pygame.event.get(UI_EVENT):
            scene.handle_event(ui)


def wait_until(cond, scene, what: str) -> None:
    deadline = time.monotonic() + 30.0
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        scene.update(16.0)
        time.sleep(0.001)


def _step(arena) -> None:
    k = arena.match.turn
    feed(arena, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, unicode="n", mod=0))
    wait_until(lambda: arena.match.turn == k + 1, arena, f"turn {k + 1}")


def test_the_arena_board_shows_the_last_turns_divergence(app):
    arena = ArenaScene(app, load_scenario("pods_race_2v2_pymunk"), seed=1, budget=BUDGET,
                       recorder_factory=lambda: None, paused=True)
    app.push(arena)
    assert arena._board_context(None).note == ""          # no turn played yet
    for _ in range(2):
        _step(arena)
    last = arena.match.history[-1]
    note = arena._board_context(None).note
    assert note == f"world: {max(last.divergence):.0f} off the C model"
    csb = ArenaScene(app, load_scenario("pods_race_2v2"), seed=1, budget=BUDGET,
                     recorder_factory=lambda: None, paused=True)
    app.push(csb)
    _step(csb)
    assert csb._board_context(None).note == ""


def test_the_pods_board_draws_the_note():
    pygame.init()
    surf = pygame.Surface((800, 500))
    r = PodsRenderer([(230, 80, 70), (80, 140, 240)] * 2, ["A", "A", "B", "B"])
    with Match(load_scenario("pods_race_2v2_pymunk"), budget=BUDGET, max_turns=1) as m:
        view = m.world.view()
    rect = pygame.Rect(0, 0, 800, 500)
    r.draw(surf, rect, view, ctx=BoardContext())
    plain = pygame.surfarray.array3d(surf).copy()
    r.draw(surf, rect, view, ctx=BoardContext(note=divergence_note([0.0, 31.0, 2.0, 0.0])))
    noted = pygame.surfarray.array3d(surf)
    assert (plain != noted).any()


def test_the_replay_scene_shows_the_recorded_divergence(app, tmp_path):
    rec = Recorder(tmp_path, name_hint="pymunk")
    with Match(load_scenario("pods_race_2v2_pymunk"), budget=BUDGET, max_turns=6,
               recorder=rec) as m:
        m.play()
        history = list(m.history)
    rec.close()
    scene = ReplayScene(app, read_replay(rec.path), turn=5)
    app.push(scene)
    assert scene.turn == 5
    assert scene._board_context().note == divergence_note(history[4].divergence)
    assert scene.view == m.world.plugin.decode(history[4].state)

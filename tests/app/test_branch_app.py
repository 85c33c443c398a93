"""Play on from a replay's turn in the app: the replay scene's "Play on"
button and B key open the arena on a live match from the shown turn, with
the settings in force there; its replay records where it branched from and
verifies; Esc comes back to the replay."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pygame
import pytest

from sandbox.app.arena import ArenaScene
from sandbox.app.replay_scene import ReplayScene
from sandbox.config import Budget, load_scenario
from sandbox.replay import Recorder, read_replay, verify
from sandbox.sim.match import Match

SEED, ITERATIONS, TURNS, K = 3, 40, 12, 6


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    rec = Recorder(tmp_path_factory.mktemp("branch_app"), name_hint="src")
    with Match(load_scenario(), seed=SEED, budget=Budget(iterations=ITERATIONS, ms=0),
               max_turns=TURNS, recorder=rec) as m:
        while not m.over:
            if m.turn == 2:
                m.controllers[0].update_settings({"c": 1.9}, turn=m.turn)
            m.play_turn()
    rec.close()
    return rec.path


def _key(app, key: int, unicode: str = "") -> None:
    app.scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=0))


def _frames(app, n: int = 2) -> None:
    app.run(max_frames=app.frame + n)


def test_b_plays_on_from_the_shown_turn_and_records_the_branch(app, source, tmp_path):
    made = []

    def factory(scenario, stem=None):
        def make():
            rec = Recorder(tmp_path, name_hint=stem)
            made.append(rec)
            return rec
        return make
    app.recorder_factory = factory
    scene = ReplayScene(app, read_replay(source), turn=K)
    app.push(scene)
    _frames(app)
    _key(app, pygame.K_b, "b")
    arena = app.scene
    assert isinstance(arena, ArenaScene)
    m = arena.live.match
    assert m.turn == K and arena.live.paused
    with read_replay(source) as r:
        assert f"{m.world.game.state_hash() & (2**64 - 1):016x}" == r.hash_at(K)
    assert m.controllers[0].settings.c == 1.9          # the change made at turn 2
    assert m.budget_for(1).iterations == ITERATIONS
    assert arena.state()["branched_from"]["turn"] == K
    # play two turns, then back to the replay (the arena's match ends, its file closes)
    arena.live.step()
    arena.live.step()
    # frames are not paced here: wait on the clock, not a frame count (400
    # unpaced frames could pass before the search thread got the GIL back)
    deadline = time.monotonic() + 20.0
    while m.turn < K + 2 and time.monotonic() < deadline:
        _frames(app, 1)
        time.sleep(0.002)
    assert m.turn == K + 2
    _key(app, pygame.K_ESCAPE)
    assert app.scene is scene
    path = made[0].path
    assert path is not None and "branch-t6" in path.name
    h = json.loads(path.read_text().splitlines()[0])
    assert h["branched_from"]["file"] == str(source) and h["branched_from"]["turn"] == K
    rep = verify(read_replay(path))
    assert rep.ok and rep.turns_checked == 2, rep.message


def test_play_on_button_and_a_finished_turn(app, source):
    scene = ReplayScene(app, read_replay(source))
    app.push(scene)
    _frames(app)
    scene.seek(scene.last)                     # max_turns reached: nothing to play on
    btn = scene.widgets.get("branch")
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=btn.rect.center, button=1))
    _frames(app, 3)
    assert app.scene is scene
    assert "cannot play on from turn" in scene.message and "nothing to play on" in scene.message
    scene.seek(3)
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=btn.rect.center, button=1))
    _frames(app, 3)
    assert isinstance(app.scene, ArenaScene) and app.scene.live.match.turn == 3

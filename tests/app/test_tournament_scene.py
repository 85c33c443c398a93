"""The Tournament scene: opened from the menu, it plays a small
round robin on a background thread; the table fills in as games end, and a
click on a game's row opens its replay in the replay scene. Driven headless
with synthesized events."""
from __future__ import annotations

import json
import time

import pygame

from sandbox.app.menu import MenuScene
from sandbox.app.replay_scene import ReplayScene
from sandbox.app.tournament_scene import TournamentScene


def _frames(app, n=2):
    app.run(max_frames=app.frame + n)


def _click(pos):
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=pos, button=1))


def _until(app, cond, seconds=60):
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "timed out"
        _frames(app, 1)
        time.sleep(0.01)


def test_menu_opens_a_live_tournament_and_a_game_replays(app, tmp_path):
    app.replay_dir = str(tmp_path)
    menu = MenuScene(app)
    app.push(menu)
    _frames(app)
    menu.chosen = [e[0] for e in menu.entries].index("goofspiel_13_duel")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, unicode="t", mod=0))
    _frames(app)
    scene = app.scene
    assert isinstance(scene, TournamentScene) and scene.stem == "goofspiel_13_duel"
    assert len(scene.jobs) == 6                     # 3 agents, 2 games a pairing
    # the table fills in game by game (at least one frame saw a partial table)
    seen = set()
    _until(app, lambda: (seen.add(len(scene.results)), scene.finished)[1])
    assert len(scene.results) == 6 and scene.summary.games == 6
    assert any(0 < k < 6 for k in seen)
    assert sum(s.wins + s.draws + s.losses for s in scene.summary.standings) == 12
    assert scene.state()["finished"] and scene.state()["games"] == 6
    # the log on disk holds the same games
    log = scene.folder / "results.jsonl"
    assert len(log.read_text().splitlines()) == 7
    # one row per game; clicking the third opens that game's replay
    rows = [w for w in scene.widgets.widgets if w.id.startswith("game:")]
    assert len(rows) == 6
    _click(rows[2].rect.center)
    _frames(app)
    assert isinstance(app.scene, ReplayScene)
    shown = app.scene.state()
    assert json.dumps(shown)          # a plain state, like every scene's
    assert str(scene.results[2]["replay"]).endswith(".jsonl")
    assert app.scene.replay.path.name == scene.results[2]["replay"].rsplit("/", 1)[-1]
    # Esc: back to the tournament, then to the menu
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="",
                                         mod=0))
    _frames(app)
    assert app.scene is scene
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="",
                                         mod=0))
    _frames(app)
    assert app.scene is menu


def test_a_menu_scenario_with_four_players_falls_back_to_a_duel(app, tmp_path):
    scene = TournamentScene(app, "snakes_standard_4p", out_dir=tmp_path)
    assert len(scene.spec.scenario.players) == 2


def test_leaving_mid_tournament_stops_the_games(app, tmp_path):
    scene = TournamentScene(app, "maze_medium_duel", games=20, out_dir=tmp_path)
    app.push(scene)
    _until(app, lambda: len(scene.results) >= 1)
    app.pop()                       # exit(): the thread stops after its game
    assert not scene._thread.is_alive()
    assert len(scene.results) < len(scene.jobs)

"""A process player in the app: the arena plays it and draws its panels
(its debug message, latency, failures, stderr log; its visits and values as
root bars), closing the arena kills its bot, and the replay scene says what
the bot did on a recorded turn (its message, or its failure)."""
from __future__ import annotations

import sys
from pathlib import Path

import pygame

from sandbox.app.arena import ArenaScene
from sandbox.app.arena.bot_panel import debug_stats, latency_text
from sandbox.app.replay_scene import ReplayScene
from sandbox.config import scenario_from_dict
from sandbox.replay import Recorder, read_replay
from sandbox.sim.match import Match

from test_every_game import feed, not_blank, wait_until

BOTS = Path(__file__).resolve().parents[1] / "data" / "bots"


def scenario(bot: str, cards: int = 5):
    return scenario_from_dict({
        "game": "goofspiel", "game_params": {"num_cards": cards}, "seed": 4,
        "players": [{"name": "Bot", "controller": "process", "timeout_ms": 300,
                     "first_turn_ms": 5000, "command": [sys.executable, str(BOTS / f"{bot}.py")]},
                    {"name": "Rand", "controller": "random"}]})


def step(arena, turns: int) -> None:
    for _ in range(turns):
        k = arena.match.turn
        feed(arena, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, unicode="n", mod=0))
        wait_until(lambda: arena.match.turn == k + 1, arena, f"turn {k + 1}")


def test_the_arena_shows_a_bots_debug(app):
    arena = ArenaScene(app, scenario("by_name"), seed=3, recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    step(arena, 2)
    ctl = arena.match.controllers[0]
    app.run(max_frames=app.frame + 3)
    # the last answer (turn 2: it answers as soon as the turn starts) is what the panels show
    wait_until(lambda: ctl.done, arena, "the bot's answer")
    assert ctl.last_info.debug["message"].startswith("turn ")
    bars = debug_stats(ctl, 0)
    assert bars and abs(sum(b.prob for b in bars) - 1) < 1e-9
    assert all(b.mean == 0.5 for b in bars)
    assert latency_text(ctl).startswith("latency ")
    L = arena.layout
    assert not_blank(app.screen, L["controls"]) >= 3
    bot = ctl.bot
    app.close()
    assert bot.returncode is not None          # closing the app killed the bot


def test_the_arena_shows_failures(app):
    arena = ArenaScene(app, scenario("garbage"), seed=3, recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    step(arena, 3)
    ctl = arena.match.controllers[0]
    app.run(max_frames=app.frame + 2)
    assert ctl.stats.failures == 1
    assert [(t, f.kind) for t, f in ctl.stats.recent_failures] == [(1, "garbage")]


def test_the_replay_scene_says_what_the_bot_did(app, tmp_path):
    rec = Recorder(tmp_path, name_hint="bots")
    with Match(scenario("garbage"), seed=5, recorder=rec) as m:
        m.play()
    rec.close()
    scene = ReplayScene(app, read_replay(rec.path))
    app.push(scene)
    app.run(max_frames=app.frame + 2)
    assert "bot failed: garbage; default move" in scene.decision_title(0, 1)
    assert "bot failed" not in scene.decision_title(0, 0)


def test_saving_a_process_player_keeps_its_program(app, tmp_path):
    from sandbox.tournament.agents import load_entrant
    arena = ArenaScene(app, scenario("by_name"), seed=3, recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    arena.agent_dir = tmp_path
    path = arena.save_agent(0)
    e = load_entrant(str(path))
    assert e.player["controller"] == "process"
    assert e.player["command"] == [sys.executable, str(BOTS / "by_name.py")]
    assert e.player["timeout_ms"] == 300

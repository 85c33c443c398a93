"""The arena's evaluation-weight sliders (E, or the Wts button by the player
tabs): the chosen search player's own weights, applied from the next turn,
recorded, and written by Save agent; a scenario takes them back."""
from __future__ import annotations

import tomllib

import pygame

from sandbox.app.arena import HELP, ArenaScene
from sandbox.config import Budget, load_scenario, scenario_from_dict
from sandbox.games import plugin

from test_arena import app, click, feed, key, on_track, step_turn, wait_decided  # noqa: F401

E = key(pygame.K_e, "e")
A = key(pygame.K_a, "a")


def _arena(app, scenario="pods_race_2v2") -> ArenaScene:
    scene = ArenaScene(app, load_scenario(scenario), seed=3,
                       budget=Budget(iterations=60, ms=0), recorder_factory=lambda: None,
                       paused=True)
    app.push(scene)
    return scene


def test_e_shows_a_slider_per_weight_and_a_change_applies_from_the_next_turn(app, tmp_path):
    arena = _arena(app)
    names = plugin("pods").weight_names()
    assert set(names) == {"w_opponent", "w_block", "w_angle", "w_heading", "w_speed"}
    feed(arena, E)
    assert arena.show_weights and arena.widgets.get("weights").toggled
    ids = {w.id for w in arena.widgets.widgets}
    assert {f"weight.{n}" for n in names} <= ids and "c" not in ids   # the knobs make way
    s = arena.widgets.get("weight.w_heading")
    assert s.value == 80.0 and s.lo == 0.0 and s.hi == 320.0          # 4x the default
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    click(arena, on_track(s, 1 / 4))                                   # 80 → 80 (a quarter)
    click(arena, on_track(s, 1 / 8))                                   # 40
    assert ctl.weights_asked == {"w_heading": 40.0}
    assert ctl.weights == {}                                           # not this turn
    step_turn(arena)
    assert ctl.weights == {"w_heading": 40.0}
    assert arena.match.controllers[1].weights == {}                    # only the chosen one
    rec = arena.match.history[-1]
    [change] = [ch for p in rec.players for ch in p.changes if p.player == 0]
    assert change.changes == {"weights.w_heading": (80.0, 40.0)}
    # Save agent writes them; a scenario's player takes them back
    arena.agent_dir = tmp_path / "agents"
    feed(arena, A)
    [path] = sorted(arena.agent_dir.glob("*.toml"))
    data = tomllib.loads(path.read_text())
    assert data["weights"] == {"w_heading": 40.0}
    base = load_scenario("pods_race_2v2").model_dump()
    base["players"][1] = {"agent": str(path), "agents": base["players"][1]["agents"]}
    scn = scenario_from_dict(base)
    assert scn.players[1].weights == {"w_heading": 40.0}
    # E again: the search knobs are back
    feed(arena, E)
    assert "c" in {w.id for w in arena.widgets.widgets}
    assert any(k == "E" for k, _ in HELP)


def test_a_game_without_weights_says_so(app):
    arena = _arena(app, "matrix_rps_duel")
    feed(arena, E)
    assert plugin("matrix").weight_names() == ()
    assert arena.widgets.get("no_weights").label == "this game has no evaluation weights"


def test_a_restart_keeps_the_weights_set(app):
    arena = _arena(app)
    feed(arena, E)
    wait_decided(arena)
    arena._set_weight("w_speed", 5.0)
    arena.restart()
    assert arena.match.controllers[0].weights == {"w_speed": 5.0}
    assert arena.match.scenario.players[0].weights == {"w_speed": 5.0}


def test_snakebyte_shows_its_own_weights_with_the_rulesets_defaults(app):
    """The snakes model holds both rulesets' weights; a SnakeByte match
    shows only its own, and w_length (unset: the ruleset's default, 1)
    gets a slider at 1 — it crashed on the model's None before."""
    arena = _arena(app, "snakebyte_2v2")
    feed(arena, E)
    ids = {w.id for w in arena.widgets.widgets}
    assert {"weight.w_loss", "weight.w_apple", "weight.w_win", "weight.w_length"} <= ids
    assert "weight.w_space" not in ids and "weight.w_health" not in ids
    assert arena.widgets.get("weight.w_length").value == 1.0

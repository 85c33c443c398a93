"""The arena's "Save agent" (A, or the Save button by the player tabs): the
chosen player's settings in force — after live changes — written to an agent
file that a scenario's player then takes with `agent = "..."`."""
from __future__ import annotations

import tomllib

import pygame

from sandbox.app.arena import HELP, ArenaScene
from sandbox.config import load_scenario
from sandbox.native import SearchParams
from sandbox.ui import post_change

from test_arena import (SEED, app, arena, click, drag, feed, key,  # noqa: F401
                         on_track, wait_decided)

A = key(pygame.K_a, "a")

FOUR_SNAKES = """\
game = "snakes"
game_params = {{ width = 11, height = 11, snakes = 4 }}
[[players]]
[[players]]
agent = "{ref}"
[[players]]
[[players]]
"""


def saved_files(arena: ArenaScene) -> list:
    return sorted(arena.agent_dir.glob("*.toml"))


def test_save_after_a_hot_swap_gives_back_the_settings_in_force(arena, tmp_path):
    arena.agent_dir = tmp_path / "agents"
    wait_decided(arena)
    feed(arena, key(pygame.K_2, "2"))                   # Green, the second player
    assert arena.selected == 1
    ctl = arena.match.controllers[1]
    drag(arena, on_track(arena.widgets.get("c"), 1 / 3), on_track(arena.widgets.get("c"), 1 / 2))
    post_change("policy", "exp3")                       # what the policy picker sends
    feed(arena)
    for ui in pygame.event.get():
        arena.handle_event(ui)
    click(arena, on_track(arena.widgets.get("budget_ms"), 1 / 3))   # 10 ms a turn
    assert (ctl.settings.c, ctl.settings.policy) == (1.5, "exp3")   # the swap took
    assert arena.match.budget_for(1).ms == 10.0

    feed(arena, A)
    [path] = saved_files(arena)
    assert str(path) in arena.message and arena.match.turn == 0
    assert path.name.startswith("green-")
    text = tomllib.loads(path.read_text())
    # the hand-known values: C from the drag, the policy picked, the budget set
    assert text["search"]["c"] == 1.5 and text["search"]["policy"] == "exp3"
    assert text["budget"]["ms"] == 10.0 and text["budget"]["iterations"] == 0
    assert (text["name"], text["color"], text["controller"]) == ("Green", [90, 200, 90],
                                                                  "smitsimax")

    scn_path = tmp_path / "s.toml"
    scn_path.write_text(FOUR_SNAKES.format(ref=path.as_posix()))
    p = load_scenario(scn_path).players[1]
    assert p.search == ctl.settings                      # every knob, as in force
    assert p.search == SearchParams(c=1.5, policy="exp3", max_depth=10, gamma=0.97)
    assert p.budget == arena.match.budget_for(1)
    assert (p.name, p.color, p.controller) == ("Green", (90, 200, 90), "smitsimax")
    # and a match built from it plays with those settings
    scene = ArenaScene(arena.app, load_scenario(scn_path), seed=SEED,
                       recorder_factory=lambda: None, paused=True)
    try:
        assert scene.match.controllers[1].settings == ctl.settings
        assert scene.match.budget_for(1) == arena.match.budget_for(1)
    finally:
        scene.live.close()


def test_the_save_button_saves_the_chosen_player_and_says_where(arena, tmp_path):
    arena.agent_dir = tmp_path / "agents"
    assert any(k == "A" and "agent" in what for k, what in HELP)
    click(arena, arena.widgets.get("save_agent").rect.center)
    [path] = saved_files(arena)
    assert tomllib.loads(path.read_text())["name"] == "Red"
    for other in arena.widgets.widgets:           # the button does not cover a tab
        if other.id.startswith("tab"):
            assert not other.rect.colliderect(arena.widgets.get("save_agent").rect)
    feed(arena, A)
    assert len(saved_files(arena)) == 2           # a second save never overwrites the first


def test_a_folder_that_cannot_be_written_is_a_message_not_a_crash(arena, tmp_path):
    blocker = tmp_path / "agents"
    blocker.write_text("a file where the folder should be")
    arena.agent_dir = blocker
    feed(arena, A)
    assert arena.message.startswith(f"cannot save the agent in {blocker}/")
    assert blocker.read_text() == "a file where the folder should be"

"""SnakeByte in the app: a person steers one snake of their team with the
arrow keys and Tab hands the keys to the team's other snake (the one let
go is played by the team's controller); the arena draws the side view and the trees of
both searching snakes; the replay scene opens a SnakeByte recording."""
from __future__ import annotations

import pygame

from sandbox.app.arena import ArenaScene
from sandbox.app.replay_scene import ReplayScene
from sandbox.config import Budget, load_scenario
from sandbox.replay import Recorder, read_replay
from sandbox.sim.match import Match

from test_every_game import feed, not_blank, wait_until


def key(name: str) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name), unicode="", mod=0)


def test_a_person_steers_a_team_and_tab_switches_snakes(app):
    sc = load_scenario("snakebyte_you")
    arena = ArenaScene(app, sc, seed=1, budget=Budget(iterations=200, ms=0),
                       recorder_factory=lambda: None)
    app.push(arena)
    live = arena.live
    wait_until(arena.match.turn_ready, what="decisions")
    for _ in range(5):
        arena.update(500.0)
    assert arena.match.turn == 0 and live.waiting_for_human()
    driven = min(live.human_agents)
    assert driven == 0
    feed(arena, key("left"))
    wait_until(lambda: arena.match.turn == 1, arena, "turn 1")
    assert live.last_record.joint[0] == 2                       # left
    # the team mate nobody steered: SnakeByte has no bot, a greedy search moved it
    [mine] = [p for p in live.last_record.players if p.player == 0]
    assert mine.chosen_by == {0: "person", 1: "search"}
    wait_until(arena.match.turn_ready, what="decisions of turn 1")
    feed(arena, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, unicode="\t", mod=0))
    assert 1 in live.human_agents and 0 not in live.human_agents
    # the player is called You: the message says whose agent plainly
    assert arena.message.startswith("you now drive your agent 1; your agent 0 is played by")
    assert "You's" not in arena.message
    # a way that is not into snake 1's own neck (where it went depends on the search)
    for name, move in (("right", 3), ("left", 2), ("up", 0)):
        feed(arena, key(name))
        if 1 in live._human_fresh:
            break
    wait_until(lambda: arena.match.turn == 2, arena, "turn 2")
    assert live.last_record.joint[1] == move                    # for snake 1
    assert 0 not in live.human_agents                            # snake 0 let go
    app.run(max_frames=app.frame + 3)
    assert not_blank(app.screen, arena.layout["board"]) >= 4


def test_the_replay_scene_shows_a_snakebyte_match(app, tmp_path):
    sc = load_scenario("snakebyte_2v2")
    rec = Recorder(tmp_path, name_hint="snakebyte", record_trees=50)
    with Match(sc, seed=5, recorder=rec, max_turns=5, budget=Budget(iterations=200, ms=0)) as m:
        m.play()
    rec.close()
    scene = ReplayScene(app, read_replay(rec.path))
    app.push(scene)
    app.run(max_frames=app.frame + 2)
    assert not_blank(app.screen, scene.layout["board"]) >= 4
    scene.seek(scene.last)
    app.run(max_frames=app.frame + 2)
    assert not_blank(app.screen, scene.layout["board"]) >= 4


def test_the_step_by_step_view_and_turns_on_a_snakebyte_match(app):
    """J walks one traced iteration phase by phase over the four snakes'
    trees; N plays a turn after it; the board keeps drawing."""
    from sandbox.render.step_view import PHASES
    arena = ArenaScene(app, load_scenario("snakebyte_2v2"), seed=1,
                       budget=Budget(iterations=300, ms=0), recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    wait_until(arena.match.turn_ready, what="decisions")
    j = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_j, unicode="j", mod=0)
    feed(arena, j)
    anim = arena.animation
    assert anim is not None and len(anim.trace.paths) == 4      # a tree per snake, all four
    for _ in range(len(PHASES)):
        arena.update(16)
        feed(arena, j)
    app.run(max_frames=app.frame + 2)
    for k in range(2):
        feed(arena, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, unicode="n", mod=0))
        wait_until(lambda: arena.match.turn == k + 1, arena, f"turn {k + 1}")
    app.run(max_frames=app.frame + 2)
    assert not_blank(app.screen, arena.layout["board"]) >= 4
    assert all(tv.snapshot is not None for tv in arena.trees) and len(arena.trees) == 4

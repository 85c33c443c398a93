"""Pods in the arena: each Smitsimax tree's best line stepped
forward in the C game and drawn as the pod's planned path (L hides it), and
a person driving either pod of their team against the heuristic bot (Tab
switches the pod; the bot plays the other and the record says who chose
each move)."""
from __future__ import annotations

import pygame
from test_arena import app, click, feed, key, wait_decided, wait_until  # noqa: F401

from sandbox.app.arena import ArenaScene
from sandbox.config import Budget, load_scenario
from sandbox.games.pods.view import decode_pods, find_move
from sandbox.render.tree_layout import line_moves, principal_variation

TAB = key(pygame.K_TAB, "\t")
L = key(pygame.K_l, "l")


def test_each_pods_tree_line_is_stepped_in_c_and_drawn_as_its_planned_path(app):  # noqa: F811
    arena = ArenaScene(app, load_scenario("pods_race_2v2"), seed=1,
                       budget=Budget(ms=0, iterations=400), recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    wait_decided(arena)
    wait_until(lambda: all(c.latest.trees for c in arena.match.controllers), arena,
               what="trees")
    ctx = arena._board_context(None)
    # every pod's own tree: its most visited path, its own moves
    for c in arena.match.controllers:
        for a in c.agents:
            tree = c.latest.trees[a]
            assert ctx.plans[a] == tuple(line_moves(tree, principal_variation(tree), a))[:30]
            assert len(ctx.plans[a]) >= 2
    app.run(max_frames=app.frame + 2)
    board = arena.board
    # the oracle: step a fresh copy of the game with the four lines' moves
    g = arena.match.world.game.clone()
    steps = min(min(len(m) for m in ctx.plans.values()), 8)
    want = {a: [(q.x, q.y)] for a, q in enumerate(decode_pods(g.export()).pods)}
    for d in range(steps):
        g.step([ctx.plans[a][d] for a in range(4)])
        for a, q in enumerate(decode_pods(g.export()).pods):
            want[a].append((q.x, q.y))
    g.close()
    for a in range(4):
        assert board.plan_map[a][:steps + 1] == want[a]
        assert len(board.plan_points[a]) == len(board.plan_map[a])
    assert any(len(set(pts)) > 2 for pts in want.values())      # the pods do move
    # L hides the plans (and shows them again)
    feed(arena, L)
    assert arena._board_context(None).plans == {}
    app.run(max_frames=app.frame + 2)
    assert board.plan_points == {}
    feed(arena, L)
    app.run(max_frames=app.frame + 2)
    assert board.plan_points


def test_a_person_drives_either_pod_and_the_bot_plays_the_other(app):  # noqa: F811
    arena = ArenaScene(app, load_scenario("pods_you_vs_bots"), seed=1,
                       recorder_factory=lambda: None)
    app.push(arena)
    assert arena.live.human_agents == {0}          # one pod at a time
    game = arena.match.world.game
    # turn 0: a click far to the right of pod 0 -> its move; pod 1 plays the bot's move
    wait_until(arena.match.turn_ready, what="decisions")
    view = decode_pods(game.export())
    bot1 = game.bot_move(1)
    q = view.pods[0]
    target = arena.board.to_screen(arena.layout["board"], min(15500, q.x + 3000), q.y)
    want0 = arena.board.move_at(arena.layout["board"], view, target, 0)
    assert want0 is not None
    click(arena, target)
    wait_until(lambda: arena.match.turn == 1, arena, what="turn 1")
    rec = arena.live.last_record
    assert rec.joint[0] == want0 and rec.joint[1] == bot1
    assert rec.players[0].chosen_by == {0: "person", 1: "bot"}
    assert rec.players[1].chosen_by == {2: "bot", 3: "bot"}
    # Tab: now the person drives pod 1 (b: boost) and the bot plays pod 0
    feed(arena, TAB)
    assert arena.live.human_agents == {1}
    wait_until(arena.match.turn_ready, what="decisions")
    bot0 = game.bot_move(0)
    feed(arena, key(pygame.K_b, "b"))
    wait_until(lambda: arena.match.turn == 2, arena, what="turn 2")
    rec = arena.live.last_record
    view = decode_pods(game.export())
    assert rec.joint[1] == find_move(view, 0.0, "boost") and rec.joint[0] == bot0
    assert rec.players[0].chosen_by == {0: "bot", 1: "person"}
    assert view.pods[1].boost_used and not view.pods[0].boost_used
    # Tab again: back to pod 0
    feed(arena, TAB)
    assert arena.live.human_agents == {0}


def test_taking_over_a_search_team_tab_switches_the_pod_and_h_lets_go(app):  # noqa: F811
    arena = ArenaScene(app, load_scenario("pods_race_2v2"), seed=1,
                       budget=Budget(ms=0, iterations=200), recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    H = key(pygame.K_h, "h")
    feed(arena, H)
    assert arena.live.human_agents == {0}
    feed(arena, TAB)
    assert arena.live.human_agents == {1}
    wait_decided(arena)
    feed(arena, key(pygame.K_s, "s"))                 # pod 1 shields; pod 0 searches
    feed(arena, key(pygame.K_n, "n"))
    wait_until(lambda: arena.match.turn == 1, arena, what="turn 1")
    rec = arena.live.last_record
    assert rec.players[0].chosen_by == {0: "search", 1: "person"}
    assert decode_pods(arena.match.world.game.export()).pods[1].shielded
    feed(arena, H)                                    # lets go of pod 1, not a second take-over
    assert arena.live.human_agents == set()


def test_a_right_click_steers_a_pod_to_that_exact_point_and_the_replay_verifies(app, tmp_path):  # noqa: F811
    from sandbox.native import FreeMove
    from sandbox.replay import Recorder, read_replay, verify
    recs = []

    def recorder():
        recs.append(Recorder(tmp_path, name_hint="free"))
        return recs[-1]

    arena = ArenaScene(app, load_scenario("pods_you_vs_bots"), seed=1, recorder_factory=recorder)
    app.push(arena)
    game = arena.match.world.game
    wait_until(arena.match.turn_ready, what="decisions")
    q = decode_pods(game.export()).pods[0]
    board = arena.layout["board"]
    # 1000 from the pod: half the distance of full thrust, so half thrust
    target = arena.board.to_screen(board, q.x, q.y + 1000)
    want = arena.board.free_move_at(board, arena.live.view, target, 0)
    assert isinstance(want, FreeMove) and abs(want.y - (q.y + 1000)) < 30
    assert abs(want.thrust - 100) <= 3
    feed(arena, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=target, button=3),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=target, button=3))
    wait_until(lambda: arena.match.turn == 1, arena, what="turn 1")
    rec = arena.live.last_record
    assert rec.joint[0] == want and rec.players[0].chosen_by[0] == "person"
    app.pop()
    arena.match.close()
    replay = read_replay(recs[0].path)
    assert replay.turns[0].free.moves[0].move() == want and replay.turns[0].joint[0] is None
    assert verify(replay).ok

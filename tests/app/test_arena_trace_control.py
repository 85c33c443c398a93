"""Trace control in the arena: J steps one traced iteration phase by phase,
K runs several traced iterations in a row. C runs each iteration whole
(Search.step_traced); the scene only reveals its parts, and shows the
traced player's trees with their pre-iteration numbers until backprop."""
from __future__ import annotations

import pygame
from test_arena import HELP, app, feed, key, make_arena, step_turn, wait_decided  # noqa: F401

from sandbox.render.step_view import PHASES

J = key(pygame.K_j, "j")
K = key(pygame.K_k, "k")
SHIFT_K = key(pygame.K_k, "K", pygame.KMOD_LSHIFT)


def root_visits(scene, agent: int) -> int:
    """The root visits of the tree the scene hands agent's view (the views
    take them one per frame, rate-limited, outside a traced step)."""
    return int(scene._tree_snapshot(agent).visits[0])


def shown_visits(scene, agent: int) -> int:
    """The root visits of the tree agent's view holds right now."""
    return int(scene.trees[agent].snapshot.visits[0])


def settle(scene) -> None:
    """A few frames: the views take the snapshots the scene hands them."""
    for _ in range(4):
        scene.update(16)


def test_j_reveals_the_four_phases_in_order_and_stats_change_only_at_backprop(app):  # noqa: F811
    scene = make_arena(app)
    wait_decided(scene)
    settle(scene)
    feed(scene, J)
    anim = scene.animation
    assert anim is not None and anim.held
    settle(scene)
    before = [root_visits(scene, a) for a in range(len(scene.trees))]
    seen = []
    for _ in range(len(PHASES)):
        seen.append(anim.phase)
        for _ in range(200):               # far longer than a phase: it holds
            scene.update(16)
        assert anim.phase == seen[-1]
        now = [root_visits(scene, a) for a in range(len(scene.trees))]
        assert now == [shown_visits(scene, a) for a in range(len(scene.trees))]
        if anim.phase == "backprop":
            # every agent's tree of the traced player got this one iteration
            assert now == [v + 1 for v in before]
            changes = anim.node_changes(0)
            assert changes and changes[0][:4] == (0, anim.trace.paths[0][0], before[0],
                                                  before[0] + 1)
            assert all(va == vb + 1 for _, _, vb, va, _, _ in changes)
        else:
            assert now == before           # C already ran it; the view shows the old numbers
        feed(scene, J)
    assert seen == list(PHASES)
    assert scene.animation is None         # J after backprop ends the iteration
    settle(scene)
    assert [root_visits(scene, a) for a in range(len(scene.trees))] == [v + 1 for v in before]


def test_k_runs_ten_and_shift_k_a_hundred_traced_iterations(app):  # noqa: F811
    scene = make_arena(app)
    wait_decided(scene)
    scene._set_tree_source(scene.selected)     # the views show the player that K steps
    settle(scene)
    first = [root_visits(scene, a) for a in range(len(scene.trees))]
    feed(scene, K)
    assert scene.animation is not None and not scene.animation.held
    scene.animation.finish()
    settle(scene)
    assert [root_visits(scene, a) for a in range(len(scene.trees))] == [v + 10 for v in first]
    assert "10 traced iterations" in scene.message
    feed(scene, SHIFT_K)
    scene.animation.finish()
    settle(scene)
    assert root_visits(scene, 0) == first[0] + 110


def test_the_help_names_the_trace_keys():
    keys = dict(HELP)
    assert "phase by phase" in keys["J"]
    assert "10 / 100 traced iterations" in keys["K / Shift+K"]


def test_playing_a_turn_ends_a_held_step(app):  # noqa: F811
    scene = make_arena(app)
    wait_decided(scene)
    feed(scene, J)
    assert scene.animation is not None and scene._step_before is not None
    step_turn(scene)
    assert scene.animation is None
    ctl = scene.match.controllers[scene.selected]
    # the views are handed the new turn's trees, not the held pre-iteration ones
    assert scene._tree_snapshot(0) is ctl.latest.trees.get(0)

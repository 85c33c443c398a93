"""The arena's step view for a GT-CFR player (J): its regret-update phase
first, drawn inside the tree panels without overlap, then the expansion
simulation; with c = 4 the first traced step after a decision that ends on
a sweep shows none, saying why."""
from __future__ import annotations

import pygame
from test_arena import app, feed, key, wait_decided  # noqa: F401

from sandbox.app.arena import ArenaScene
from sandbox.config import Budget, load_scenario
from sandbox.render.step_view import GT_PHASES

J = key(pygame.K_j, "j")


def gt_arena(app, c: float) -> ArenaScene:  # noqa: F811
    sc = load_scenario("goofspiel_13_duel").with_settings(
        ["players.0.search.algorithm=gtcfr", f"players.0.search.expansions_per_update={c}",
         "players.1.search.algorithm=gtcfr"])
    scene = ArenaScene(app, sc, seed=3, budget=Budget(ms=0, iterations=200),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    scene.selected = 0
    return scene


def test_j_shows_the_regret_update_then_the_expansion(app):  # noqa: F811
    scene = gt_arena(app, 1.0)
    wait_decided(scene)
    feed(scene, J)
    anim = scene.animation
    assert anim is not None and anim.phases == GT_PHASES and anim.phase == "update"
    u = anim.trace.update
    assert u.sweeps == 1 and u.nodes > 0
    assert anim.status_text().startswith(f"regret update: 1 sweep over {u.nodes} nodes")
    scene.draw(app.screen)
    panels = scene.layout["panels"]
    area = panels[0].unionall(panels[1:])
    assert len(anim.update_boxes) == 2
    for box in anim.update_boxes:
        assert area.contains(box) and not box.colliderect(anim.update_header)
    assert not anim.update_boxes[0].colliderect(anim.update_boxes[1])
    seen = [anim.phase]
    for _ in range(len(GT_PHASES) - 1):
        feed(scene, J)
        seen.append(anim.phase)
        scene.draw(app.screen)
    assert seen == list(GT_PHASES)


def test_a_step_without_a_sweep_says_why(app):  # noqa: F811
    scene = gt_arena(app, 4.0)
    wait_decided(scene)
    # 200 iterations a turn, c = 4: the credit is back at zero, so the next
    # three traced steps run no sweep
    feed(scene, J)
    anim = scene.animation
    assert anim.trace.update.sweeps == 0 and anim.trace.update.nodes == 0
    assert anim.status_text().startswith(
        "no sweep this step (c = 4: one sweep every 4 expansions)")
    scene.draw(app.screen)

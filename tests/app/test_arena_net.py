"""A search with a value net in the arena (scenarios/goofspiel_5_net.toml):
the root bars show the net's value of the position and its prior for each
move, read with the net's own forward pass (Net.evaluate, the oracle), and a
switch takes the net out of the running search and puts it back."""
from __future__ import annotations

import numpy as np
import pygame
import pytest
from test_arena import app, click, feed, step_turn, wait_decided  # noqa: F401

from sandbox.app.arena import ArenaScene
from sandbox.config import Budget, load_scenario
from sandbox.native import Net
from sandbox.render.root_bars import NET_TICK

SCENARIO = "goofspiel_5_net"


@pytest.fixture
def arena(app):  # noqa: F811
    scene = ArenaScene(app, load_scenario(SCENARIO), seed=3, budget=Budget(ms=0, iterations=300),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    return scene


def _ticks(scene: ArenaScene, agent: int) -> int:
    """Pixels of the net-prior tick's colour in the agent's root bars."""
    scene.draw(scene.app.screen)
    r = scene._bar_rects[agent]
    px = pygame.surfarray.array3d(scene.app.screen)[r.x:r.right, r.y:r.bottom]
    return int(np.all(px == np.array(NET_TICK), axis=2).sum())


def test_the_root_bars_show_the_nets_value_and_priors(arena):
    wait_decided(arena)
    step_turn(arena)
    wait_decided(arena)
    red = arena.match.controllers[0]
    game = arena.match.world.game
    values, logits = Net(red.settings.value_net).evaluate([game])
    moves = [int(m) for m in game.legal_moves(0)]
    z = logits[0, 0, moves]
    want = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    out = arena._net_readout(red, "smitsimax", 0)
    assert out.value == pytest.approx(float(values[0, 0, 0]), abs=1e-6)
    assert [out.priors[m] for m in moves] == pytest.approx(list(want), abs=1e-6)
    assert _ticks(arena, 0) > 0
    from sandbox.settings.glossary import TERMS
    assert TERMS["net"] in arena.panel_term_tip(arena._bar_rects[0].center)
    assert TERMS["net"] not in arena.panel_term_tip(arena._bar_rects[1].center)
    # Blue searches without a net: no reading, no ticks
    assert arena._net_readout(arena.match.controllers[1], "smitsimax", 1) is None
    assert _ticks(arena, 1) == 0


def test_the_switch_takes_the_net_out_and_puts_it_back(arena):
    wait_decided(arena)
    red = arena.match.controllers[0]
    path = red.settings.value_net
    assert path.endswith("goofspiel5.sbxnet")
    toggle = arena.widgets.get("net_on")
    assert toggle.value
    click(arena, toggle.rect.center)
    assert red.settings.value_net == ""
    assert red.c_confirmed.value_net == ""   # as C holds it
    assert _ticks(arena, 0) == 0
    step_turn(arena)             # the search plays on without it
    wait_decided(arena)
    toggle = arena.widgets.get("net_on")
    assert not toggle.value
    click(arena, toggle.rect.center)
    assert red.settings.value_net == path
    assert _ticks(arena, 0) > 0
    # Blue's settings named no net: no switch
    arena._select_player(1)
    assert "net_on" not in {w.id for w in arena.widgets.widgets}

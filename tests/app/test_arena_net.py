"""A search with a value net in the arena (scenarios/goofspiel_5_net.toml):
the root bars show the net's value of the position and its prior for each
move, read with the net's own forward pass (Net.evaluate, the oracle), and a
switch takes the net out of the running search and puts it back."""
from __future__ import annotations

from types import SimpleNamespace

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


def _joint_arena(app, *settings: str) -> ArenaScene:  # noqa: F811
    """The scenario with Red's search made joint-action MCTS (UCB1, its
    most visited move) on the same net, a turn decided."""
    sc = load_scenario(SCENARIO).with_settings([
        "players.0.search.algorithm=joint", "players.0.search.policy=ucb1",
        "players.0.search.final_move=argmax", *settings])
    scene = ArenaScene(app, sc, seed=3, budget=Budget(ms=0, iterations=300),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    wait_decided(scene)
    return scene


def test_a_nodes_tooltip_shows_its_prior_and_the_nets_value_there(app):  # noqa: F811
    """Joint-action MCTS with the net's priors: hovering a node of Red's tree
    gives the joint action's prior (the product of the policy heads' softmax
    at the root) and the net's value of the state after that joint action,
    both read with the net's own forward pass."""
    scene = _joint_arena(app, "players.0.search.priors=net", "players.0.search.max_depth=5")
    red = scene.match.controllers[0]
    game = scene.match.world.game
    net = Net(red.settings.value_net)
    _, logits = net.evaluate([game])
    prior = []
    for a in range(2):
        moves = [int(m) for m in game.legal_moves(a)]
        z = logits[0, a, moves]
        prior.append(dict(zip(moves, np.exp(z - z.max()) / np.exp(z - z.max()).sum())))
    scene._feed_trees()   # the views get their first trees, and the turn they grew from
    tv = scene.trees[0]
    rows = tv.snapshot.rows
    row = int(np.flatnonzero(rows["parent"] == 0)[0])
    j = [int(m) for m in rows["joint"][row][:2]]
    info = tv.info(row)
    assert info.prior == pytest.approx(prior[0][j[0]] * prior[1][j[1]], rel=1e-4)
    after = game.clone()
    after.step(j)
    values, _ = net.evaluate([after])
    assert info.net_value == pytest.approx(float(values[0, 0, 0]), abs=1e-6)
    lines = " ".join(s for s, _ in tv.tooltip_lines(info))
    assert "the joint action's prior (net)" in lines and "net's value here" in lines
    assert "decoupled PUCT at c_puct=1.50" in lines and "UCB at" not in lines
    # Blue searches without a net or priors: neither line
    blue, ctl = scene.trees[1], scene.match.controllers[1]
    blue.update(ctl.latest.trees[1], ctl.settings)
    binfo = blue.info(1)
    assert binfo.prior is None and binfo.net_value is None
    # a tree of an older turn's search is not read on this turn's state
    scene._tree_turns[0] = scene.match.turn - 1
    assert tv.info(row).net_value is None


def test_a_seats_priors_picker_offers_the_net_while_it_is_on(app):  # noqa: F811
    """Joint-action MCTS with a net: the seat's controls pick its priors,
    `net` among them, and a pick reaches the search; Smitsimax with regret
    matching (Blue here, and Red in the shipped scenario) takes no priors and
    gets no picker."""
    scene = _joint_arena(app)
    picker = scene.widgets.get("priors")
    assert [v for v, _ in picker.options] == ["uniform", "heuristic", "net"]
    ids = lambda: {w.id for w in scene.widgets.widgets}   # noqa: E731
    assert "c" in ids() and "c_puct" not in ids()
    scene._on_ui(SimpleNamespace(id="priors", value="net", kind="change"))
    red = scene.match.controllers[0]
    assert red.settings.priors == "net"
    # PUCT's constant in place of UCB1's C, which it no longer reads
    assert "c_puct" in ids() and "c" not in ids()
    # the net switched off (priors back to uniform): the picker no longer offers it,
    # and switched on again it does
    scene._on_ui(SimpleNamespace(id="priors", value="uniform", kind="change"))
    scene._on_ui(SimpleNamespace(id="net_on", value=False, kind="change"))
    assert red.settings.value_net == ""
    assert [v for v, _ in scene.widgets.get("priors").options] == ["uniform", "heuristic"]
    scene._on_ui(SimpleNamespace(id="net_on", value=True, kind="change"))
    assert "net" in [v for v, _ in scene.widgets.get("priors").options]
    scene._select_player(1)
    assert "priors" not in {w.id for w in scene.widgets.widgets}

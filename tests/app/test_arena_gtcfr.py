"""GT-CFR in the arena: its own knobs (and none of UCB's), the hot swap to it
on a two-player game, and its root bars (the average strategy) drawn."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pygame
from test_arena import app, step_turn, wait_decided  # noqa: F401

from sandbox.app.arena import ArenaScene
from sandbox.app.whatif import knobs
from sandbox.config import Budget, load_scenario
from sandbox.native import SearchParams
import pytest

from sandbox.render.root_bars import VISIT_LINE
from sandbox.ui import UI_EVENT

GTCFR_KNOBS = {"expansions_per_update", "c_puct", "expand_children", "final_move",
               "leaf_rollouts", "expand_after",
               "alternating", "tree_reuse"}
UCB_KNOBS = {"c", "gamma", "random_threshold", "reuse_decay", "elimination"}


def duel(app) -> ArenaScene:  # noqa: F811
    sc = load_scenario("goofspiel_4_exploit").with_settings(
        ["players.0.search.algorithm=gtcfr"])
    scene = ArenaScene(app, sc, seed=1, budget=Budget(ms=0, iterations=300),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    return scene


def ids(scene: ArenaScene) -> set[str]:
    return {w.id for w in scene.widgets.widgets}


def test_gtcfr_shows_its_own_knobs_plays_and_draws(app):  # noqa: F811
    arena = duel(app)
    ctl = arena.match.controllers[0]
    assert ctl.settings.algorithm == "gtcfr" and ctl.settings.final_move == "sample"
    assert GTCFR_KNOBS <= ids(arena) and not (UCB_KNOBS & ids(arena))
    wait_decided(arena)
    snap = ctl.latest
    assert snap.algorithm == "gtcfr"
    for a in range(2):      # the root policy is a distribution over the legal moves
        assert abs(sum(m.policy for m in snap.root_stats[a]) - 1.0) < 1e-9
    step_turn(arena)
    wait_decided(arena)
    for _ in range(3):
        arena.update(16.0)
        app.run(max_frames=app.frame + 1)
    arena.draw(app.screen)
    assert pygame.surfarray.array3d(app.screen).any()
    # the root bars are the average strategy, with the visit shares as a line
    panel = arena.layout["panels"][0]
    bars = pygame.Rect(panel.x + 8, panel.y + 22, panel.w - 16, 64)
    px = pygame.surfarray.array3d(app.screen)[bars.x:bars.right, bars.y:bars.bottom]
    assert np.all(px == np.array(VISIT_LINE), axis=-1).sum() > 0
    # Blue (Smitsimax) switched to GT-CFR takes it from the next turn
    arena._select_player(1)
    arena.set_param("algorithm", "gtcfr")
    arena._build_widgets()
    assert GTCFR_KNOBS <= ids(arena)


def test_whatif_offers_what_gtcfr_reads():
    k = set(knobs(SearchParams(algorithm="gtcfr")))
    assert GTCFR_KNOBS <= k and not (UCB_KNOBS & k)


def pubcfr_arena(app, iterations: int) -> ArenaScene:
    """A paused arena on hidden-bid goofspiel-4 with seat 0 playing pubcfr."""
    sc = load_scenario("goofspiel_4_imp_info").with_settings(
        ["players.0.search.algorithm=pubcfr"])
    arena = ArenaScene(app, sc, seed=1, budget=Budget(ms=0, iterations=iterations),
                       recorder_factory=lambda: None, paused=True)
    app.push(arena)
    return arena


def test_pubcfr_plays_hidden_bids_in_the_arena_and_draws(app, texts):  # noqa: F811
    """pubcfr on hidden-bid goofspiel-4: the arena runs it for a seat (its
    root policy a distribution over that seat's cards) and draws it."""
    arena = pubcfr_arena(app, iterations=200)
    ctl = arena.match.controllers[0]
    # its own knobs (depth, the move played, the gadget), none of UCB's
    assert {"max_depth", "final_move", "tree_reuse"} <= ids(arena)
    assert not (UCB_KNOBS & ids(arena)) and not (GTCFR_KNOBS - {"final_move", "tree_reuse"}
                                                 ) & ids(arena)
    assert set(knobs(ctl.settings)) - {"algorithm"} <= ids(arena)
    wait_decided(arena)
    snap = ctl.latest
    assert snap.algorithm == "pubcfr"
    assert abs(sum(m.policy for m in snap.root_stats[0]) - 1.0) < 1e-9
    for _ in range(2):
        step_turn(arena)
        wait_decided(arena)
    for _ in range(3):
        arena.update(16.0)
        app.run(max_frames=app.frame + 1)
    # the public belief state: each seat's belief over its hands at the
    # root, in the snapshot and drawn in the panel where a tree would be
    snap = ctl.latest
    assert len(snap.beliefs[0].ranges) == 2
    for rng in snap.beliefs[0].ranges:
        assert rng and all(p >= 0 for _, p in rng) and sum(p for _, p in rng) > 0
    texts.clear()
    arena.draw(app.screen)
    drawn = texts
    assert pygame.surfarray.array3d(app.screen).any()
    assert arena.match.turn == 2
    names = [t for t in drawn if t.endswith(" hands)") or t.endswith(" hand)")]
    assert len(names) == 2 and names[0].startswith("Red's belief"), drawn
    held = arena.match.world.view().hands[0]            # two cards left: one of the rows
    assert " ".join(str(c) for c in held) in drawn


def test_pubcfr_belief_view_walks_public_states_by_click(app, texts):  # noqa: F811
    """The belief view below the root: a click on a child picks that public
    state (its label joins the way down, its posteriors are drawn), a click
    on the way down goes back up, and a new turn starts at its root."""
    arena = pubcfr_arena(app, iterations=300)
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    for _ in range(3):
        arena.update(16.0)
        app.run(max_frames=app.frame + 1)
    snap = ctl.latest
    assert snap.beliefs and snap.beliefs[0].parent == -1
    first = [b for b in snap.beliefs if b.parent == 0]
    assert len(first) == 3 and sum(b.reach for b in first) == pytest.approx(1.0)
    drawn = texts
    arena.draw(app.screen)
    down = [h for h in arena._belief_hits if h[3] != ()]
    assert len(down) == 3 and all(len(h[3]) == 1 for h in down)
    rect, _, _, way = down[-1]
    label = way[0]
    pick = next(b for b in first if arena.plugin.public_event(
        arena.plugin.decode(b.state), ["Red", "Blue"]) == label)
    assert label.endswith("the 4")
    arena.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    assert arena.belief_pick[0] == (snap.turn, (label,))
    drawn.clear()
    arena.draw(app.screen)
    assert label in drawn and "now" in drawn
    # its children are offered: the view is at the picked state
    assert {h[3] for h in arena._belief_hits if len(h[3]) == 2} == {
        (label, arena.plugin.public_event(arena.plugin.decode(b.state), ["Red", "Blue"]))
        for b in snap.beliefs if b.parent == pick.index}
    # a tree whose nodes come in another order (rebuilt, grown otherwise)
    # finds the same public state by its way down, not by an index
    rest = [b.index for b in snap.beliefs[1:]]
    renumber = {0: 0, -1: -1, **dict(zip(rest, reversed(rest)))}
    assert renumber[pick.index] != pick.index
    ctl._latest = replace(snap, beliefs=tuple(
        replace(b, index=renumber[b.index], parent=renumber[b.parent])
        for b in snap.beliefs))
    drawn.clear()
    arena.draw(app.screen)
    assert label in drawn
    ctl._latest = snap
    back = next(h for h in arena._belief_hits if h[3] == ())
    arena.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                          pos=back[0].center))
    assert arena.belief_pick[0] == (snap.turn, ())
    arena.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))
    step_turn(arena)
    wait_decided(arena)
    for _ in range(3):
        arena.update(16.0)
        app.run(max_frames=app.frame + 1)
    drawn.clear()
    arena.draw(app.screen)
    assert label not in drawn          # the new turn's tree, at its root


def test_gtcfr_leaf_sliders_take_effect_from_the_next_turn(app):  # noqa: F811
    """The two leaf knobs have sliders (log scale, whole numbers) and, like
    every knob, are in force from the next turn."""
    arena = duel(app)
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    arena._select_player(0)
    arena._build_widgets()
    slider = arena.widgets.get("expand_after")
    assert slider.integer and slider.log and slider.value == 1
    arena.set_param("leaf_rollouts", 4)
    arena.set_param("expand_after", 8)
    step_turn(arena)
    wait_decided(arena)
    assert (ctl.settings.leaf_rollouts, ctl.settings.expand_after) == (4, 8)
    assert ctl.search.c_params().expand_after == 8


def test_pubcfr_growing_tree_toggle_shows_its_knobs(app):  # noqa: F811
    """The growing-tree toggle of a pubcfr player: on, the panel offers
    GT-CFR's expansions per update and c_puct (read by the growing tree
    only), the what-if panel too, and the search grows from the next turn."""
    arena = pubcfr_arena(app, iterations=50)
    ctl = arena.match.controllers[0]
    assert "grow_tree" in ids(arena)
    assert not {"expansions_per_update", "c_puct"} & ids(arena)
    wait_decided(arena)
    arena.handle_event(pygame.event.Event(UI_EVENT, id="grow_tree", kind="change", value=True))
    assert {"expansions_per_update", "c_puct"} <= ids(arena)
    assert {"grow_tree", "expansions_per_update", "c_puct"} <= set(knobs(ctl.settings))
    step_turn(arena)
    wait_decided(arena)
    assert ctl.settings.grow_tree and ctl.search.c_params().grow_tree
    # the root bars now carry the simulations per move, and draw
    assert sum(m.visits for m in ctl.latest.root_stats[0]) > 0
    arena.draw(app.screen)
    assert pygame.surfarray.array3d(app.screen).any()

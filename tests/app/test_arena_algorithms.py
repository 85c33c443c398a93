"""The arena's algorithm and policy pickers and its views of every search.

Pickers go through the same hot-swap path as the sliders (ArenaScene.
set_param -> LiveMatch -> SearchController -> C); the panel says what C runs
now and what waits for the next turn. Every algorithm the core builds must
render its panels (one tree per agent, one shared tree, or none); the ones it
refuses ("not built") skip here and are offered as such in the picker.
"""
from __future__ import annotations

import numpy as np
import pygame
import pytest
from test_arena import app, click, feed, make_arena, step_turn, wait_decided, wait_until  # noqa: F401

from sandbox.app.arena import ArenaScene
from sandbox.config import Budget
from sandbox.native import Game, InvalidArgument, Search
from sandbox.render import palette as pal
from sandbox.render.root_bars import VISIT_LINE
from sandbox.settings.algorithms import ALGORITHMS, POLICIES

SAMPLING = ("exp3", "rm", "rm_plus")


def built(name: str) -> bool:
    with Game("snakes", None, seed=0) as g:
        try:
            Search(g, {"algorithm": name}).close()
            return True
        except InvalidArgument as exc:
            # MCGS, GT-CFR and pubcfr are built but refuse this 4-snake game
            # (two players only); their arena views are tested on two-player
            # games
            assert "not built" in str(exc) or (name in ("mcgs", "gtcfr", "pubcfr")
                                               and "two-player" in str(exc))
            return False


BUILT = {a: built(a) for a in ALGORITHMS}


@pytest.fixture
def arena(app):  # noqa: F811
    return make_arena(app)


def pick(scene: ArenaScene, wid: str, value) -> None:
    """Open the picker with a click and click the option (as a person does)."""
    w = scene.widgets.get(wid)
    click(scene, w.box.center)
    i = [v for v, _ in w.options].index(value)
    click(scene, w.option_rect(i).center)


def non_panel_fraction(surface, rect: pygame.Rect) -> float:
    px = pygame.surfarray.array3d(surface)[rect.x:rect.right, rect.y:rect.bottom]
    return float(np.any(px != np.array(pal.PANEL), axis=2).mean())


# ------------------------------------------------------------------ pickers
def test_the_pickers_offer_every_algorithm_and_policy(arena):
    algo = arena.widgets.get("algorithm")
    assert [v for v, _ in algo.options] == list(ALGORITHMS)
    for v, label in algo.options:   # the core's own answer, marked in the list
        assert ("(n/a)" in label) == (not BUILT[v]), label
    assert [v for v, _ in arena.widgets.get("policy").options] == list(POLICIES)
    assert algo.value == "smitsimax" and arena.widgets.get("policy").value == "ucb1"
    # UCB: C applies; Exp3/RM's knobs do not show
    ids = {w.id for w in arena.widgets.widgets}
    assert {"c", "random_threshold"} <= ids and not {"exploration", "final_move", "avg_weight"} & ids


def test_a_policy_pick_is_hot_swapped_and_waits_for_the_next_turn(arena):
    ctl = arena.match.controllers[0]
    wait_decided(arena)                        # turn 0 searched: a change waits
    assert arena._algorithm_status(ctl) == ("now: Smitsimax · UCB1", "")
    pick(arena, "policy", "rm")
    assert ctl.settings.policy == "rm"
    assert ctl.search.c_params().policy == "rm"           # C has the request ...
    assert ctl.latest.policy == "ucb1"                    # ... and runs UCB1 this turn
    assert arena._algorithm_status(ctl) == ("now: Smitsimax · UCB1", "→ RM next turn")
    # the panel now shows the knobs RM reads
    ids = {w.id for w in arena.widgets.widgets}
    assert {"exploration", "final_move", "avg_weight"} <= ids
    assert not {"c", "random_threshold"} & ids   # the UCB family's knobs
    for other in arena.match.controllers[1:]:
        assert other.settings.policy == "ucb1"
    step_turn(arena)
    wait_decided(arena)
    assert ctl.latest.policy == "rm" and ctl.search.stats().policy == "rm"
    assert arena._algorithm_status(ctl) == ("now: Smitsimax · RM", "")
    assert any("policy ucb1→rm" in line for line in arena.change_log)


def test_exploration_and_move_played_reach_c(arena):
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    pick(arena, "policy", "exp3")
    s = arena.widgets.get("exploration")
    click(arena, (s.track.x + s.track.w // 2, s.track.centery))
    assert ctl.search.c_params().exploration == pytest.approx(0.5)
    pick(arena, "final_move", "sample")
    assert ctl.settings.final_move == "sample" and ctl.search.c_params().final_move == "sample"
    pick(arena, "avg_weight", "linear")
    assert ctl.settings.avg_weight == "linear" and ctl.search.c_params().avg_weight == "linear"
    # Exp3 runs serially and has no counterfactual: the row says "serial
    # only", with neither a mode picker nor a thread count
    ids = {w.id for w in arena.widgets.widgets}
    assert "counterfactual" not in ids and "parallel" not in ids and "threads" not in ids
    assert "one thread" in arena.widgets.get("parallel_note").tooltip
    pick(arena, "policy", "rm_plus")
    ids = {w.id for w in arena.widgets.widgets}
    assert "counterfactual" in ids and "threads" not in ids   # RM runs serially
    assert "parallel" not in ids and "parallel_note" in ids
    pick(arena, "counterfactual", "off")
    assert ctl.settings.counterfactual == "off" and ctl.search.c_params().counterfactual == "off"
    # UCB1-Tuned: root parallelism only (the shared trees keep UCB1's mean)
    pick(arena, "policy", "ucb1_tuned")
    assert [k for k, _ in arena.widgets.get("parallel").options] == ["serial", "root"]


def test_suct_offers_its_first_mover_and_a_pick_reaches_c(arena):
    """Sequential UCT's picker slot holds the first mover (own seat, or any
    agent by name); the pick is C's `lead` and starts a fresh tree."""
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    pick(arena, "algorithm", "suct")
    assert "policy" not in {w.id for w in arena.widgets.widgets}
    lead = arena.widgets.get("lead")
    assert [v for v, _ in lead.options] == [-1] + list(range(len(arena.match.names)))
    assert [label for _, label in lead.options][1:] == list(arena.match.names)
    step_turn(arena)
    wait_decided(arena)
    assert ctl.latest.algorithm == "suct"
    pick(arena, "lead", 1)
    assert ctl.settings.lead == 1 and ctl.search.c_params().lead == 1
    step_turn(arena)
    wait_decided(arena)
    snap = ctl.search.snapshot(0, 50)
    assert snap.mover[1] == 1            # the root's children are agent 1's moves now


def test_uct_offers_only_what_it_reads_and_its_seat_moves_first(arena):
    """The textbook yardstick reads C (2 unless set) and the first mover:
    its panel offers those and none of the project's knobs (depth,
    discount, random phase, reuse, rollouts, elimination)."""
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    pick(arena, "algorithm", "uct")
    assert ctl.settings.algorithm == "uct" and ctl.settings.c == 2.0   # C followed it
    ids = {w.id for w in arena.widgets.widgets}
    assert {"c", "lead", "budget_ms"} <= ids
    assert not {"policy", "max_depth", "gamma", "random_threshold", "reuse_decay", "rollout",
                "tree_reuse", "elimination", "bounds", "depth_normalize", "parallel"} & ids
    assert arena.widgets.get("c").value == 2.0
    step_turn(arena)
    wait_decided(arena)
    assert ctl.latest.algorithm == "uct" and ctl.latest.num_trees == 1
    snap = ctl.search.snapshot(0, 50)
    assert snap.mover[1] == 0            # own seat: the root's children are its moves


def test_an_algorithm_refused_for_this_game_is_marked_and_refused_with_cs_reason(app):  # noqa: F811
    """Joint-action MCTS on 8 snakes (4^8 joint actions a node): marked n/a
    in the list, and picking it says why and keeps the search as it was."""
    from sandbox.config import load_scenario, scenario_from_dict
    data = load_scenario("snakes_standard_4p").model_dump(exclude_unset=True)
    data["game_params"].update(snakes=8, width=15, height=15)
    data["players"] = [dict(data["players"][i % 4], name=f"S{i}", agents=[i]) for i in range(8)]
    sc = scenario_from_dict(data)
    scene = ArenaScene(app, sc, seed=1, budget=Budget(iterations=200, ms=0),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    labels = dict(scene.widgets.get("algorithm").options)
    assert "(n/a)" in labels["joint"] and "(n/a)" not in labels["suct"]
    ctl = scene.match.controllers[0]
    pick(scene, "algorithm", "joint")
    assert ctl.settings.algorithm == "smitsimax"
    assert "joint" in scene.message
    assert scene.widgets.get("algorithm").value == "smitsimax"


# ------------------------------------------------------------------ every algorithm renders
# MCGS and GT-CFR are two-player only and pubcfr needs a hidden-information
# game: this test's default game has four snakes, so MCGS's panels are tested
# on the maze in tests/app/test_arena_mcgs.py, GT-CFR's on goofspiel in
# tests/app/test_arena_gtcfr.py and pubcfr's on hidden-bid goofspiel there too.
CASES = [(a, "ucb1") for a in ALGORITHMS if a not in ("mcgs", "gtcfr", "pubcfr")] + \
    [("smitsimax", p) for p in POLICIES if p != "ucb1"]


@pytest.mark.parametrize("algorithm,policy", CASES)
def test_every_search_renders_its_panels(app, algorithm, policy):  # noqa: F811
    if not BUILT[algorithm]:
        pytest.skip(f"{algorithm} is not built into this C core")
    scene = make_arena(app, Budget(ms=0, iterations=400))
    ctl = scene.match.controllers[0]
    wait_decided(scene)
    scene.set_param("algorithm", algorithm, player=0)
    scene.set_param("policy", policy, player=0)
    step_turn(scene)                           # the change is in force from this turn
    wait_decided(scene)
    assert (ctl.latest.algorithm, ctl.latest.policy) == (algorithm, policy)
    for source in (None, 0):                   # its own tree, then its whole search
        scene._set_tree_source(source)
        scene.update(16)                       # the layout follows ...
        scene.update(16)                       # ... and the views take their trees
        scene.draw(app.screen)
        kept = ctl.latest.num_trees
        groups = scene.layout["groups"]
        if source == 0 and kept == 1:
            assert groups == [(0, 1, 2, 3)]    # one tree: one panel
        else:
            assert len(groups) == 4
        panel = scene.layout["panels"][0]
        assert non_panel_fraction(app.screen, scene._tree_area(panel)) > 0.02
        if policy in SAMPLING:                 # the average strategy, visits as a line
            bars = pygame.Rect(panel.x + 8, panel.y + 22, panel.w - 16, 64)
            px = pygame.surfarray.array3d(app.screen)[bars.x:bars.right, bars.y:bars.bottom]
            assert np.all(px == np.array(VISIT_LINE), axis=-1).sum() > 0


# ------------------------------------------------------------------ layout without the baselines
def test_a_search_with_one_tree_gets_one_panel(app, arena, monkeypatch):  # noqa: F811
    """The panel logic, driven by what the controller says it keeps (here
    faked to 1 for player 0, as SUCT / joint say)."""
    wait_until(lambda: all(tv.snapshot is not None for tv in arena.trees), arena,
               what="tree snapshots")
    monkeypatch.setattr(ArenaScene, "_kept",
                        lambda self, ctl: 1 if ctl.player == 0 else 4)
    monkeypatch.setattr(ArenaScene, "_in_force",
                        lambda self, ctl: ("suct", "ucb1") if ctl.player == 0 else
                        ("smitsimax", "ucb1"))
    arena.update(16)                           # the layout follows at the next frame
    assert arena.layout["groups"] == [(0,), (1,), (2,), (3,)]   # each player one agent
    arena._set_tree_source(0)
    arena.update(16)
    assert arena.layout["groups"] == [(0, 1, 2, 3)]
    (panel,) = arena.layout["panels"]
    assert panel == arena.layout["trees"]
    arena.update(16)
    arena.draw(app.screen)
    assert arena.trees[0].title == "Sequential UCT tree"
    assert non_panel_fraction(app.screen, arena._tree_area(panel)) > 0.1
    # hovering the one panel answers from its view: the root at its top
    feed(arena, pygame.event.Event(pygame.MOUSEMOTION, pos=arena.trees[0].node_center(0),
                                   rel=(0, 0), buttons=(0, 0, 0)))
    assert arena.hover_info is not None
    assert (arena.hover_info.agent, arena.hover_info.row) == (0, 0)
    arena._set_tree_source(None)
    arena.update(16)
    assert len(arena.layout["panels"]) == 4


def test_a_search_without_a_tree_shows_a_placeholder_and_its_bars(app, arena, monkeypatch):  # noqa: F811
    wait_until(lambda: all(tv.snapshot is not None for tv in arena.trees), arena,
               what="tree snapshots")
    monkeypatch.setattr(ArenaScene, "_kept", lambda self, ctl: 0 if ctl.player == 1 else 4)
    monkeypatch.setattr(ArenaScene, "_in_force",
                        lambda self, ctl: ("greedy", "ucb1") if ctl.player == 1 else
                        ("smitsimax", "ucb1"))
    arena.update(16)
    rendered = arena.trees[1].render_count
    arena.draw(app.screen)
    assert arena.trees[1].render_count == rendered       # no tree drawn for it
    panel = arena.layout["panels"][1]
    assert arena._group_title((1,))[0].endswith("greedy 1-ply: no tree")
    # the bars take the tree's room: rows drawn below the usual 64 px ...
    low = pygame.Rect(panel.x + 8, panel.y + 22 + 70, panel.w - 16, 40)
    assert non_panel_fraction(app.screen, low) > 0.02
    # ... and the note says why there is no tree
    note = pygame.Rect(panel.x, panel.bottom - 24, panel.w, 20)
    assert non_panel_fraction(app.screen, note) > 0.02


def test_the_step_view_is_for_smitsimax_and_gtcfr_only(arena, monkeypatch):
    wait_decided(arena)
    monkeypatch.setattr(ArenaScene, "_in_force", lambda self, ctl: ("joint", "ucb1"))
    arena.traced_step()
    assert arena.animation is None
    assert "step view: Smitsimax and GT-CFR only" in arena.message


def test_a_scenarios_policy_is_in_force_from_the_first_turn(app):  # noqa: F811
    from sandbox.config import load_scenario
    scenario = load_scenario("snakes_standard_4p").with_settings(
        ["players.0.search.policy=rm", "players.0.search.final_move=sample"])
    scene = ArenaScene(app, scenario, seed=5, budget=Budget(ms=0, iterations=200),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    wait_decided(scene)
    ctl = scene.match.controllers[0]
    assert (ctl.latest.algorithm, ctl.latest.policy) == ("smitsimax", "rm")
    assert scene._algorithm_status(ctl) == ("now: Smitsimax · RM", "")
    assert scene.widgets.get("policy").value == "rm"
    assert scene.widgets.get("final_move").value == "sample"


def test_parallel_mode_and_threads_set_the_search(app):  # noqa: F811
    """Smitsimax's row: the mode picker and the threads slider reach the
    search (from its next slice); a mode the settings cannot run is
    refused with the reason and the search keeps its mode."""
    from sandbox.native import cores
    arena = make_arena(app, budget=Budget(ms=0, iterations=300))
    ctl = arena.match.controllers[0]
    assert ctl.settings.algorithm == "smitsimax"
    ids = {w.id for w in arena.widgets.widgets}
    assert "parallel" in ids and ("threads" in ids) == (cores() > 1)
    pick(arena, "parallel", "wu_uct")          # as a person does: open, click
    assert ctl.settings.parallel == "wu_uct"
    if cores() > 1:
        arena.set_param("threads", 2)
        assert ctl.settings.threads == 2
    pick(arena, "parallel", "leaf")            # rollouts are off in this scenario
    assert ctl.settings.parallel == "wu_uct"
    assert "rollout" in arena.message
    if cores() > 1:   # the next slice runs on two threads, and the meter says so
        arena.live.toggle_pause()
        wait_until(lambda: len(getattr(ctl.latest, "thread_iterations", ())) == 2, arena,
                   what="a two-thread slice")
        snap = ctl.latest
        assert all(v >= 0 for v in snap.thread_iterations) and 0.0 <= snap.wait_share <= 1.0
    for _ in range(3):
        arena.update(16.0)
        app.run(max_frames=app.frame + 1)

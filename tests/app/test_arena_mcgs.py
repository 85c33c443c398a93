"""MCGS in the arena: its sliders, the published root matrix and
the heat map beside the graph, the principal variation on the maze, and a
person playing against it with the arrow keys."""
from __future__ import annotations

import numpy as np
import pygame
from test_arena import (app, click, drag, feed, key, motion, on_track,  # noqa: F401
                        step_turn, wait_decided, wait_until)

from sandbox.app.arena import ArenaScene
from sandbox.config import Budget, load_scenario
from sandbox.render.tree_layout import line_moves, principal_variation

BUDGET = Budget(ms=0, iterations=400)
MCGS_KNOBS = {"c_puct", "fpu_offset", "rollout_steps", "transpositions", "priors"}
UCB_KNOBS = {"c", "gamma", "random_threshold", "reuse_decay", "elimination"}


def duel(app, budget=BUDGET) -> ArenaScene:  # noqa: F811
    scene = ArenaScene(app, load_scenario("maze_medium_duel"), seed=1, budget=budget,
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    return scene


def ids(scene: ArenaScene) -> set[str]:
    return {w.id for w in scene.widgets.widgets}


def test_mcgs_sliders_show_for_mcgs_only_and_set_the_search(app):  # noqa: F811
    arena = duel(app)
    assert arena.match.controllers[0].settings.algorithm == "mcgs"
    assert MCGS_KNOBS <= ids(arena) and not (UCB_KNOBS & ids(arena))
    arena._select_player(1)                    # Blue: Smitsimax
    # its UCB1 takes priors too (decoupled PUCT), so that picker stays
    assert not ((MCGS_KNOBS - {"priors"}) & ids(arena)) and {"c", "gamma"} <= ids(arena)
    arena._select_player(0)
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    s = arena.widgets.get("c_puct")
    assert ctl.settings.c_puct == 1.0 == ctl.c_confirmed.c_puct
    drag(arena, on_track(s, 0.2), on_track(s, 0.5))     # 0..5: c_puct 2.5
    assert ctl.settings.c_puct == 2.5 and ctl.c_confirmed.c_puct == 2.5
    f = arena.widgets.get("fpu_offset")
    drag(arena, on_track(f, 0.1), on_track(f, 0.25))    # 0..2: 0.5
    assert ctl.c_confirmed.fpu_offset == 0.5
    # switching Smitsimax to MCGS brings the knobs in
    arena._select_player(1)
    arena.set_param("algorithm", "mcgs")
    arena._build_widgets()
    assert MCGS_KNOBS <= ids(arena)


def test_the_published_matrix_agrees_with_the_root_stats_and_shows_as_a_heat_map(app):  # noqa: F811
    arena = duel(app)
    wait_decided(arena)
    for _ in range(3):
        arena.update(16.0)
        app.run(max_frames=app.frame + 1)
    snap = arena.match.controllers[0].latest
    m = snap.root_matrix
    assert m is not None and m.root_visits == snap.iterations == BUDGET.iterations
    assert snap.transposition_hits >= 0
    for p in range(2):   # taken in the same slice as the root stats
        stats = {st.move: st.visits for st in snap.root_stats[p]}
        for i, mv in enumerate(m.moves[p]):
            assert stats[mv] == int(m.visits.sum(axis=1 - p)[i])
    # Blue (Smitsimax) publishes none
    assert arena.match.controllers[1].latest.root_matrix is None
    # the panel: heat map and graph side by side (auto, wide panel)
    g, panel = arena.layout["groups"][0], arena.layout["panels"][0]
    area, marea = arena._panel_areas(g, panel)
    assert area is not None and marea is not None and not area.colliderect(marea)
    mv = arena.matrices[0]
    assert mv.matrix is m and mv._g is not None
    # hovering its most visited cell gives that cell's numbers
    i, j = mv._g["best"]
    feed(arena, motion(mv.cell_rect(i, j).center))
    assert arena.matrix_hover is not None
    info = arena.matrix_hover[1]
    assert info.visits == m.visits.max() == m.visits[i, j]
    # M: both -> heat map only -> graph only; the panel of Blue has no switch
    feed(arena, key(pygame.K_m, "m"))
    assert arena.matrix_mode == "both"
    feed(arena, key(pygame.K_m, "m"))
    assert arena._panel_areas(g, panel)[0] is None
    feed(arena, key(pygame.K_m, "m"))
    assert arena._panel_areas(g, panel)[1] is None
    assert "mview0" in ids(arena) and "mview1" not in ids(arena)


def test_the_board_gets_the_mcgs_principal_variation(app):  # noqa: F811
    arena = duel(app)
    wait_decided(arena)
    wait_until(lambda: arena.match.controllers[0].latest.trees, arena, what="trees")
    ctx = arena._board_context(None)
    snap = arena.match.controllers[0].latest
    tree = snap.trees[0]
    rows = principal_variation(tree)
    assert len(rows) >= 2
    assert ctx.plans[0] == tuple(line_moves(tree, rows, 0))[:30]
    # Blue searches with Smitsimax: its own tree's most visited line (its own
    # search's plan) rather than Red's prediction of it
    assert tuple(line_moves(tree, rows, 1))      # Red does predict Blue
    wait_until(lambda: arena.match.controllers[1].latest.trees, arena, what="Blue's tree")
    ctx = arena._board_context(None)
    blue = arena.match.controllers[1].latest.trees[1]
    assert ctx.plans[1] == tuple(line_moves(blue, principal_variation(blue), 1))[:30]
    assert 1 not in ctx.predicted
    # the maze draws it
    app.run(max_frames=app.frame + 2)
    assert arena.board.plan_points.get(0)


def test_a_person_plays_against_mcgs_with_the_arrow_keys(app):  # noqa: F811
    arena = ArenaScene(app, load_scenario("maze_you_vs_mcgs"), seed=2,
                       budget=Budget(ms=0, iterations=300), recorder_factory=lambda: None)
    app.push(arena)
    assert arena.live.human_agents == {0}
    for turn in range(2):
        wait_until(arena.match.turn_ready, what="decisions")
        legal = arena.match.world.game.legal_moves(0)
        arrows = {0: pygame.K_UP, 1: pygame.K_DOWN, 2: pygame.K_LEFT, 3: pygame.K_RIGHT}
        # a way with no wall (a key into a wall is refused: test_maze_wall_toast.py)
        move = next(m for m in legal if m in arrows and arena.plugin.key_move(
            arena.live.view, 0, pygame.key.name(arrows[m])).move is not None)
        name = pygame.key.name(arrows[move])
        feed(arena, key(arrows[move], name))
        wait_until(lambda: arena.match.turn == turn + 1, arena, what=f"turn {turn + 1}")
        assert arena.live.last_record.joint[0] == move
    # Blue (MCGS) drew its plan and predicted the person's
    wait_decided(arena)
    wait_until(lambda: arena.match.controllers[1].latest.trees, arena, what="trees")
    ctx = arena._board_context(0)
    assert 1 in ctx.plans and 0 in ctx.predicted
    assert np.isfinite(arena.match.controllers[1].latest.root_matrix.root_values).all()


def pick(scene: ArenaScene, wid: str, value) -> None:
    """Open the picker with a click and click the option (as a person does)."""
    w = scene.widgets.get(wid)
    click(scene, w.box.center)
    click(scene, w.option_rect([v for v, _ in w.options].index(value)).center)


def test_priors_picker_and_temperature_slider_reach_the_search(app):  # noqa: F811
    arena = duel(app)
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    assert arena.widgets.get("priors").value == "uniform"
    assert "prior_temperature" not in ids(arena)   # read by heuristic priors only
    pick(arena, "priors", "heuristic")
    assert ctl.settings.priors == "heuristic" and ctl.c_confirmed.priors == "heuristic"
    t = arena.widgets.get("prior_temperature")      # the panel was rebuilt with it
    assert t.value == 1.0 and t.rect.bottom <= arena.layout["controls"].bottom
    drag(arena, on_track(t, 0.5), on_track(t, 0.0))  # the log track's low end
    assert ctl.c_confirmed.prior_temperature == 0.05
    # the next turn's search publishes the heuristic priors: not uniform
    step_turn(arena)
    wait_decided(arena)
    wait_until(lambda: ctl.latest.turn == 1 and not ctl.latest.thinking, arena)
    m = ctl.latest.root_matrix
    assert ctl.latest.params.priors == "heuristic"
    assert m is not None and any(abs(x - 1 / len(m.priors[0])) > 0.05 for x in m.priors[0])


def test_heuristic_priors_refused_on_a_game_without_move_scores_and_the_picker_goes_back(app):  # noqa: F811
    from sandbox.config import scenario_from_dict
    sc = scenario_from_dict({
        "name": "goofspiel mcgs", "game": "goofspiel", "game_params": {"num_cards": 4},
        "budget": {"ms": 0, "iterations": 200},
        "players": [{"name": "Red", "search": {"algorithm": "mcgs"}}, {"name": "Blue"}]})
    arena = ArenaScene(app, sc, seed=1, recorder_factory=lambda: None, paused=True)
    app.push(arena)
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    pick(arena, "priors", "heuristic")
    assert ctl.settings.priors == "uniform" == ctl.c_confirmed.priors
    assert arena.widgets.get("priors").value == "uniform"      # rebuilt from the settings
    assert "move scores" in arena.message


def test_mcgs_has_its_parallel_modes_and_threads(app):  # noqa: F811
    """The parallel row applies to MCGS with its own modes (serial, WU-UCT,
    tree: no root sets or leaf rollouts on one shared graph); a pick reaches
    the search and the next slice runs on the chosen threads."""
    from sandbox.native import cores
    arena = duel(app)
    ctl = arena.match.controllers[0]
    assert ctl.settings.algorithm == "mcgs"
    w = arena.widgets.get("parallel")
    assert [v for v, _ in w.options] == ["serial", "wu_uct", "tree"]
    assert ("threads" in ids(arena)) == (cores() > 1)
    click(arena, w.box.center)
    click(arena, w.option_rect(2).center)
    assert ctl.settings.parallel == "tree"
    if cores() > 1:
        arena.set_param("threads", 2)
        assert ctl.settings.threads == 2
        arena.live.toggle_pause()
        wait_until(lambda: len(getattr(ctl.latest, "thread_iterations", ())) == 2, arena,
                   what="a two-thread MCGS slice")


def test_the_view_switch_holds_its_label_in_every_mode(app):  # noqa: F811
    from sandbox.app.arena.constants import MATRIX_MODE_LABELS, MATRIX_MODES
    from sandbox.render.fonts import font
    arena = duel(app)
    for mode in MATRIX_MODES:
        arena._set_matrix_mode(mode)
        b = arena.widgets.get("mview0")
        assert b.label == "view: " + MATRIX_MODE_LABELS[mode]
        assert font(13).size(b.label)[0] + 8 <= b.rect.w, f"{b.label!r} overflows its button"
        assert b.rect.right <= arena.layout["panels"][0].right

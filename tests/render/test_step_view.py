"""StepAnimation: phase order under explicit time, tree highlights, and an
overlay that says what the trace says."""
from __future__ import annotations

import numpy as np
import pygame
import pytest
from render_support import move_name

from sandbox.native import Trace
from sandbox.render import palette
from sandbox.render.step_view import (BACKPROP_COLOR, DEATH, MERGE_COLOR, PHASES, StepAnimation,
                                      _gaps)
from sandbox.render.tree_view import TreeView

COLORS = [palette.agent_color(a) for a in range(4)]


def hand_trace(terminal=True) -> Trace:
    """Two agents, 3 turns: agent 1 dies on turn 2 and passes after."""
    return Trace(
        stop_reason="none", depth=3, terminal=terminal, sim_seed=7,
        paths=((0, 1, 5, 9), (0, 2, 6, 11)),
        moves=np.array([[0, 3, 1], [1, 2, -1]], dtype=np.int32),
        picks=(("ucb", "random", "ucb"), ("ucb", "ucb", "pass")),
        expanded=np.array([[False, False, True], [False, True, False]]),
        alive_after=np.array([[True, True, True], [True, False, False]]),
        scores=np.array([1.5, -1.0]), norm_min=np.array([-1.0, -1.0]),
        norm_max=np.array([2.0, 2.0]))


def phases_seen(anim: StepAnimation, dt: float) -> list[str]:
    seen = []
    for _ in range(10_000):
        if not seen or seen[-1] != anim.phase:
            seen.append(anim.phase)
        if anim.done:
            break
        anim.update(dt)
    return seen


def test_four_phases_in_order_then_done():
    anim = StepAnimation(hand_trace(), 2, COLORS, move_name)
    assert anim.phase == "select" and anim.progress == 0.0 and not anim.done
    assert phases_seen(anim, 16.0) == [*PHASES, "done"]
    assert anim.done and anim.progress == 1.0
    anim.update(100)                         # stays done
    assert anim.phase == "done"
    anim.restart()
    assert anim.phase == "select"
    anim.skip_phase()
    assert anim.phase == "joint" and anim.progress == 0.0


def test_progress_within_a_phase_and_zero_length_phases():
    anim = StepAnimation(hand_trace(), 2, COLORS, move_name, phase_ms=(100, 0, 100, 100))
    anim.update(50)
    assert anim.phase == "select" and anim.progress == pytest.approx(0.5)
    anim.update(50)
    assert anim.phase == "simulate"          # the empty joint phase is skipped
    assert phases_seen(StepAnimation(hand_trace(), 2, COLORS, move_name, (100, 0, 100, 100)),
                       10) == ["select", "simulate", "backprop", "done"]
    with pytest.raises(ValueError):
        StepAnimation(hand_trace(), 2, COLORS, move_name, phase_ms=(1, 2, 3))


def test_facts_come_from_the_trace():
    anim = StepAnimation(hand_trace(), 2, COLORS, move_name, gamma=0.5)
    assert anim.deaths() == [(1, 1)]
    anim.update(anim.phase_ms[0] * 0.5)
    assert anim.turns_revealed() == 2
    anim.skip_phase()
    anim.skip_phase()
    anim.update(anim.phase_ms[2] * 0.99)
    assert anim.sim_turn() == 3
    text = anim.status_text()
    assert "turn 3 of 3" in text and "terminal" in text and "A1 died turn 2" in text
    anim.skip_phase()
    assert anim.backed_value(0) == (3, pytest.approx(1.5))        # at the leaf: full score
    anim.finish()
    assert anim.backed_value(0) == (0, pytest.approx(1.5 * 0.5 ** 3))
    anim = StepAnimation(hand_trace(terminal=False), 2, COLORS, move_name)
    anim.skip_phase(), anim.skip_phase()
    anim.update(anim.phase_ms[2])
    anim.elapsed -= 1
    assert "depth limit" in anim.status_text()


def test_apply_sets_each_agents_highlight(small_snapshot):
    views = [TreeView(a, COLORS[a], move_name) for a in range(2)]
    for v in views:
        v.update(small_snapshot)
    anim = StepAnimation(hand_trace(), 2, COLORS, move_name)
    anim.apply(views)
    assert views[0].highlight[1] == "select" and views[0].highlight[0] == (0, 1, 5, 9)
    assert views[1].highlight[0] == (0, 2, 6, 11)
    anim.update(anim.phase_ms[0] / 3 - 1)          # one turn revealed: root + 1 node
    anim.apply(views)
    assert views[0].highlight[2] == pytest.approx(2 / 4)
    anim.skip_phase()
    anim.skip_phase()
    anim.skip_phase()
    anim.update(anim.phase_ms[3] / 2)
    anim.apply({0: views[0], 1: views[1]})
    assert views[0].highlight == ((0, 1, 5, 9), "backprop", pytest.approx(0.5))
    anim.finish()
    anim.apply(views)
    assert views[0].highlight is None and views[1].highlight is None


def count(surf, color) -> int:
    a = pygame.surfarray.array3d(surf)
    return int(np.all(a == np.array(color), axis=-1).sum())


def test_overlay_draws_every_phase_with_a_real_trace(real_search):
    s = real_search
    n = s.num_agents
    trace = s.step_traced()
    views = [TreeView(a, COLORS[a], move_name) for a in range(n)]
    for a, v in enumerate(views):
        v.update(s.snapshot(a, 2000), s.params)
    rects = [pygame.Rect(10 + a * 250, 10, 240, 380) for a in range(n)]
    anim = StepAnimation(trace, n, COLORS, move_name, gamma=s.params.gamma)
    seen_colors = {}
    while True:
        surf = pygame.Surface((1020, 400))
        for v, r in zip(views, rects):
            v.draw(surf, r)
        anim.apply(views)
        strip = anim.draw_overlay(surf, rects)
        assert strip.h == anim.strip_height
        seen_colors.setdefault(anim.phase, (count(surf, MERGE_COLOR), count(surf, BACKPROP_COLOR)))
        if anim.done:
            break
        anim.update(anim.phase_ms[anim.phase_index] / 2 + 1)
    assert seen_colors["select"][0] == 0          # no merge before the joint phase
    assert seen_colors["simulate"][0] > 0         # merge lines tie the joint actions
    assert seen_colors["backprop"][1] > 0         # score boxes and the flash


def test_deaths_are_crossed_out_and_depth_zero_draws():
    anim = StepAnimation(hand_trace(), 2, COLORS, move_name)
    rects = [pygame.Rect(0, 0, 300, 300), pygame.Rect(310, 0, 300, 300)]
    anim.skip_phase(), anim.skip_phase()
    anim.update(anim.phase_ms[2] * 0.99)
    surf = pygame.Surface((620, 300))
    anim.draw_overlay(surf, rects, strip_rect=(120, 200, 380, anim.strip_height))
    assert count(surf, DEATH) > 0
    empty = Trace(stop_reason="node_cap", depth=0, terminal=False, sim_seed=0,
                  paths=((0,), (0,)), moves=np.zeros((2, 0), dtype=np.int32),
                  picks=((), ()), expanded=np.zeros((2, 0), bool),
                  alive_after=np.zeros((2, 0), bool), scores=np.zeros(2),
                  norm_min=np.zeros(2), norm_max=np.zeros(2))
    anim = StepAnimation(empty, 2, COLORS, move_name)
    for _ in range(5):
        anim.draw_overlay(surf, rects)
        anim.skip_phase()
    assert "node_cap" in StepAnimation(empty, 2, COLORS, move_name).status_text()


def test_walls_only_between_neighbours():
    row = [pygame.Rect(x, 0, 100, 100) for x in (0, 110, 220, 330)]
    assert _gaps(row) == [105, 215, 325]
    grid = [pygame.Rect(0, 0, 100, 100), pygame.Rect(110, 0, 100, 100),
            pygame.Rect(0, 110, 100, 100), pygame.Rect(110, 110, 100, 100)]
    assert _gaps(grid) == [105]


# -- phase by phase (trace control) ------------------------------------------------
def short_trace() -> Trace:
    """Two agents, 2 turns; agent 0's path ends at node 3, which this
    iteration expanded (absent from the before snapshot)."""
    return Trace(
        stop_reason="none", depth=2, terminal=False, sim_seed=3,
        paths=((0, 1, 3), (0, 2)),
        moves=np.array([[0, 1], [1, 0]], dtype=np.int32),
        picks=(("ucb", "ucb"), ("ucb", "rollout")),
        expanded=np.array([[False, True], [False, False]]),
        alive_after=np.ones((2, 2), bool),
        scores=np.array([1.5, 0.0]), norm_min=np.zeros(2), norm_max=np.full(2, 2.0))


def test_held_phases_play_out_and_wait_for_skip():
    anim = StepAnimation(short_trace(), 2, COLORS, move_name, held=True)
    seen = []
    for _ in range(len(PHASES)):
        anim.update(1e6)                       # far past the phase: it holds
        seen.append(anim.phase)
        assert not anim.done and anim.progress == pytest.approx(1.0)
        assert anim.shows_updated_stats == (anim.phase == "backprop")
        assert "J: next phase" in anim.status_text()
        if anim.phase == "select":
            assert anim.turns_revealed() == 2      # the whole path, played out
        if anim.phase == "simulate":
            assert anim.sim_turn() == 2 and "leaf score A0 1.5 A1 0" in anim.status_text()
        anim.skip_phase()
    assert seen == list(PHASES) and anim.done
    free = StepAnimation(short_trace(), 2, COLORS, move_name)
    free.update(1e6)                             # not held: one update runs it all
    assert free.done


def test_node_changes_read_before_and_after_by_node_id():
    from render_support import make_snapshot
    before = make_snapshot([(-1, 10, 0.5, 255, 0), (0, 6, 0.4, 0, 0), (0, 4, 0.6, 1, 0)])
    # hand-computed: each node on the path gets one visit and the 1.5 score
    after = make_snapshot([(-1, 11, (0.5 * 10 + 1.5) / 11, 255, 0),
                           (0, 7, (0.4 * 6 + 1.5) / 7, 0, 0), (0, 4, 0.6, 1, 0),
                           (1, 1, 1.5, 1, 0)])
    anim = StepAnimation(short_trace(), 2, COLORS, move_name, before={0: before},
                         after={0: after})
    ch = anim.node_changes(0)
    assert [c[:4] for c in ch] == [(0, 0, 10, 11), (1, 1, 6, 7), (2, 3, 0, 1)]
    assert ch[0][4:] == pytest.approx((0.5, 6.5 / 11))
    assert ch[1][4:] == pytest.approx((0.4, 3.9 / 7))
    assert ch[2][4] is None and ch[2][5] == pytest.approx(1.5)       # expanded: new
    assert anim.node_changes(1) == []                                 # no snapshot given
    # the backprop box lists them: it is taller than without snapshots
    rects = [pygame.Rect(0, 0, 300, 300), pygame.Rect(310, 0, 300, 300)]
    boxes = []
    for a in (anim, StepAnimation(short_trace(), 2, COLORS, move_name)):
        a.skip_phase(), a.skip_phase(), a.skip_phase()
        surf = pygame.Surface((620, 300))
        a.draw_overlay(surf, rects, strip_rect=(120, 200, 380, a.strip_height))
        boxes.append(count(surf, BACKPROP_COLOR))
    assert boxes[0] > boxes[1]


def test_one_real_iteration_adds_a_visit_and_its_score_to_each_path_node():
    from sandbox.native import Game, Search
    s = Search(Game("snakes", seed=2), {"max_depth": 6, "gamma": 1.0}, seed=4)
    s.run(iterations=300)
    n = s.num_agents
    before = {a: s.snapshot(a, 100_000) for a in range(n)}
    trace = s.step_traced()
    after = {a: s.snapshot(a, 100_000) for a in range(n)}
    anim = StepAnimation(trace, n, COLORS, move_name, before=before, after=after)
    for a in range(n):
        ch = anim.node_changes(a)
        assert len(ch) == len(trace.paths[a]) and ch[0][2] == 300
        for _depth, _node, vb, va, mb, ma in ch:
            assert va == vb + 1
            # gamma 1: the total of every node on the path grows by the leaf score
            assert ma * va - (mb or 0.0) * vb == pytest.approx(trace.scores[a], abs=1e-3 * va)


def four_agent_trace(n: int = 4) -> Trace:
    """`n` agents, 3 turns, everyone alive: one path per agent (node ids 0, 1, 2, 3)."""
    return Trace(
        stop_reason="none", depth=3, terminal=False, sim_seed=7,
        paths=tuple((0, 1, 2, 3) for _ in range(n)),
        moves=np.zeros((n, 3), dtype=np.int32),
        picks=tuple(("ucb", "ucb", "ucb") for _ in range(n)),
        expanded=np.zeros((n, 3), dtype=bool), alive_after=np.ones((n, 3), dtype=bool),
        scores=np.linspace(-1, 1, n), norm_min=np.full(n, -1.0), norm_max=np.full(n, 1.0))


def chain(means) -> list[tuple]:
    return [(-1 if k == 0 else k - 1, 100 - k, m, 255 if k == 0 else 0, 0)
            for k, m in enumerate(means)]


def test_backprop_means_show_the_change_the_step_made():
    from render_support import make_snapshot
    from sandbox.render.step_view import mean_change
    assert mean_change(0.48131, 0.48138) == ("0.4813", "0.4814")   # by hand
    assert mean_change(0.4813, 0.4817) == ("0.481", "0.482")
    assert mean_change(0.5, 0.5) == ("0.5", "0.5")
    before = make_snapshot(chain([0.48131, 0.2, 0.7, 0.1]))
    after = make_snapshot([(p, v + 1, m, mv, f) for p, v, m, mv, f in
                           chain([0.48138, 0.2004, 0.70001, 0.1])])
    anim = StepAnimation(four_agent_trace(1), 1, COLORS, move_name,
                         before={0: before}, after={0: after})
    lines = [x for x in anim.score_lines(0) if x.startswith("d")]
    assert len(lines) == 4
    for line in lines[:3]:   # each node whose mean moved shows two different numbers
        was, now = line.split("mean ")[1].split("→")
        assert was != now, line
    assert lines[3].endswith("mean 0.1→0.1")       # an unchanged mean stays short


@pytest.mark.parametrize("n,width", [(4, 320), (8, 160)])
def test_backprop_boxes_stay_in_their_panels_and_off_the_strip(n, width):
    from render_support import make_snapshot
    before = make_snapshot(chain([0.48131, 0.2, 0.7, 0.1]))
    after = make_snapshot([(p, v + 1, m + 0.001, mv, f) for p, v, m, mv, f in
                           chain([0.48131, 0.2, 0.7, 0.1])])
    colors = [palette.agent_color(a) for a in range(n)]
    anim = StepAnimation(four_agent_trace(n), n, colors, move_name,
                         before={a: before for a in range(n)}, after={a: after for a in range(n)})
    for _ in range(3):
        anim.skip_phase()
    assert anim.phase == "backprop"
    # the arena's tree areas at 1280x800: one row of panels 198 px high
    rects = [pygame.Rect(6 + k * width, 592, width - 12, 198) for k in range(n)]
    surf = pygame.Surface((1280, 800))
    strip = anim.draw_overlay(surf, rects)
    boxes = anim.score_boxes
    # every panel the strip leaves room in has its box (with 8 agents the
    # strip is as tall as the panels and covers the two middle ones)
    covered = [r for r in rects if r.w - 10 < 60 or (r.colliderect(strip) and
               strip.left - r.x < 68 and r.right - strip.right < 68 and strip.top - r.y < 54)]
    assert len(boxes) == n - len(covered) and len(covered) == (0 if n == 4 else 2)
    for a, box in enumerate(boxes):
        assert any(r.contains(box) for r in rects), (a, box)
        assert not box.colliderect(strip), (a, box, strip)
        for b in boxes[a + 1:]:
            assert not box.colliderect(b)

"""Tree views and root bars of every algorithm, on hand-built snapshots and
stats (the C baselines need not exist): a Sequential-UCT tree's rows by
player and nodes in the mover's colour, a joint-action tree's joint labels,
Exp3/RM root bars as the average strategy with the visit share beside it.
Expected numbers are worked out by hand in each test, not read back from
the code under test."""
from __future__ import annotations

import numpy as np
import pygame
import pytest
from render_support import JOINT, SMALL, SUCT, make_snapshot, move_name

from sandbox.native import MoveStat, SearchParams
from sandbox.render import palette
from sandbox.render.root_bars import VISIT_LINE, draw_root_bars
from sandbox.render.tree_layout import joint_label, level_movers, mover_shades, tree_kind
from sandbox.render.tree_view import TreeView

RECT = pygame.Rect(10, 20, 600, 400)
RED, GREEN = (220, 60, 60), (60, 200, 90)
NAMES = ["Alice", "Bob"]


def view_of(nodes, mode="icicle", sampling="") -> TreeView:
    v = TreeView(0, RED, move_name, mode=mode, agent_colors=[RED, GREEN], agent_names=NAMES,
                 move_names=[move_name, move_name])
    v.update(make_snapshot(nodes), SearchParams())
    v.sampling_policy = sampling
    return v


def drawn(view: TreeView) -> pygame.Surface:
    surf = pygame.Surface((640, 440))
    surf.fill((0, 0, 0))
    view.draw(surf, RECT)
    return surf


def count(surf, color, rect=None) -> int:
    px = pygame.surfarray.array3d(surf)
    if rect is not None:
        px = px[rect.left:rect.right, rect.top:rect.bottom]
    return int(np.all(px == np.array(color), axis=-1).sum())


def modal_color(surf, box: pygame.Rect) -> tuple[int, int, int]:
    """The commonest colour inside a node's box (labels and its separator
    column are a minority of its pixels)."""
    px = pygame.surfarray.array3d(surf)[box.left + 2:box.right - 1, box.top + 1:box.bottom - 1]
    flat = px.reshape(-1, 3)
    vals, counts = np.unique(flat, axis=0, return_counts=True)
    return tuple(int(c) for c in vals[np.argmax(counts)])


# -- pure helpers ------------------------------------------------------------------

def test_tree_kind_and_level_movers_by_hand():
    assert tree_kind(make_snapshot(SMALL)) == "agent"
    assert tree_kind(make_snapshot(SUCT)) == "sequential"
    assert tree_kind(make_snapshot(JOINT)) == "joint"
    assert tree_kind(make_snapshot(SMALL[:1])) == "agent"
    # SUCT rows: root, Alice (0), Bob (1), Alice again
    assert level_movers(make_snapshot(SUCT)) == [-1, 0, 1, 0]
    assert level_movers(make_snapshot(JOINT)) == [-1, -1, -1]


def test_joint_label_names_each_agents_move_in_order():
    names = [move_name, move_name]
    assert joint_label((0, 2, 255, 255), names) == "up/left"
    assert joint_label((3, 255), names) == "right"        # agent 1 has no move
    assert joint_label((255, 255), names) == "pass"
    shout = [lambda m: move_name(m).upper(), move_name]   # each agent its own names
    assert joint_label((1, 1), shout) == "DOWN/down"


def test_mover_shades_by_hand():
    mover = np.array([-1, 0, 1, 1])
    norm = np.array([0.5, 1.0, 0.0, 0.5])
    out = mover_shades(mover, norm, [(200, 0, 0), (0, 100, 0)], root_rgb=(9, 9, 9),
                       dark=(0, 0, 0), lo=0.2)
    # t = lo + (1 - lo) * norm: 1.0, 0.2, 0.6 of the way from dark
    assert out == pytest.approx(np.array([[9, 9, 9], [200, 0, 0], [0, 20, 0], [0, 60, 0]]))


# -- Sequential UCT: one tree, rows alternate between players ------------------------

@pytest.mark.parametrize("mode", ["icicle", "nodelink"])
def test_suct_rows_are_labelled_with_their_player(mode):
    v = view_of(SUCT, mode)
    surf = drawn(v)
    # The gutter left of the tree: a strip in each row's player's colour.
    gutter = pygame.Rect(RECT.x, RECT.y, 12, RECT.h)
    assert count(surf, RED, gutter) > 0 and count(surf, GREEN, gutter) > 0
    # Alice's rows (depth 1 and 3) and Bob's (depth 2) in that order, top down.
    ys = {}
    for x, y in ((x, y) for y in range(RECT.y, RECT.bottom) for x in range(RECT.x, RECT.x + 12)):
        c = tuple(surf.get_at((x, y)))[:3]
        if c in (RED, GREEN):
            ys.setdefault(c, []).append(y)
    assert min(ys[RED]) < min(ys[GREEN]) < max(ys[RED])
    # The tree itself starts right of the gutter.
    assert v.node_rect(0).x >= RECT.x + 12


def test_suct_nodes_take_their_movers_colour_shaded_by_mean():
    v = view_of(SUCT)
    surf = drawn(v)
    dark = np.array((24, 26, 32))
    for row, col in ((1, RED), (3, GREEN), (5, GREEN), (6, RED)):
        mean = SUCT[row][2]                            # norm bounds (0, 1): norm = mean
        want = dark + (np.array(col) - dark) * (0.3 + 0.7 * mean)
        got = np.array(modal_color(surf, v.node_rect(row)))
        assert np.abs(got - want).max() <= 1.5, (row, got, want)


def test_suct_tooltip_and_path_name_each_movers_moves():
    v = view_of(SUCT)
    drawn(v)
    info = v.node_at(v.node_center(6))                 # Alice up, Bob left, Alice up
    assert info.path == ["up", "left", "up"]
    assert info.mover == 0 and info.kind == "sequential"
    head = v.tooltip_lines(v.info(3))[0]
    assert head[0].startswith("Bob's move") and head[1] == GREEN


def test_a_one_agent_tree_draws_no_gutter():
    v = view_of(SMALL)
    surf = drawn(v)
    assert v.node_rect(0).x == RECT.x + 4              # PAD only
    assert count(surf, GREEN) == 0


# -- joint-action MCTS: children are joint actions --------------------------------

@pytest.mark.parametrize("mode", ["icicle", "nodelink"])
def test_joint_children_are_labelled_by_the_joint_action(mode):
    v = view_of(JOINT, mode)
    surf = drawn(v)
    assert v.row_name(v.snapshot, 1) == "up/left"
    assert v.row_name(v.snapshot, 4) == "up/up"
    assert v.row_name(v.snapshot, 5) == "right"
    info = v.node_at(v.node_center(4))
    assert info.path == ["up/left", "up/up"] and info.kind == "joint"
    assert v.tooltip_lines(info)[0][0].startswith("joint action")
    assert count(surf, palette.PANEL) < RECT.w * RECT.h     # something was drawn


def test_a_sampling_policys_tooltip_shows_no_ucb():
    v = view_of(SMALL, sampling="Exp3")
    drawn(v)
    info = v.info(1)
    assert info.ucb is None and info.parent_visits == 100
    assert any("Exp3" in s for s, _ in v.tooltip_lines(info))
    assert not any(s.startswith("UCB") for s, _ in v.tooltip_lines(info))
    plain = view_of(SMALL)
    drawn(plain)
    assert plain.info(1).ucb is not None


# -- root bars: the average strategy for Exp3/RM ------------------------------------

STATS = [MoveStat(0, 50, 0.1, 0.5, 0.9), MoveStat(1, 50, 0.2, 0.5, 0.1)]


def filled_share(surf, col) -> float:
    """In the pixel row where the chosen (full-colour) bar is widest: its
    fill over its track (fill + the GRID-coloured rest)."""
    px = pygame.surfarray.array3d(surf)
    fill = np.all(px == np.array(col), axis=-1)
    y = int(np.argmax(fill.sum(axis=0)))
    track = fill[:, y] | np.all(px[:, y] == np.array(palette.GRID), axis=-1)
    return fill[:, y].sum() / track.sum()


def test_policy_bars_follow_the_average_strategy_not_the_visits():
    w, h = 400, 80
    col = palette.agent_color(1)
    a = pygame.Surface((w, h))
    draw_root_bars(a, a.get_rect(), STATS, move_name, col, chosen_move=0, policy_name="RM")
    b = pygame.Surface((w, h))
    draw_root_bars(b, b.get_rect(), STATS, move_name, col, chosen_move=1, policy_name="RM")
    # The chosen move's bar in full colour: 90 % of its track, then 10 %.
    assert filled_share(a, col) == pytest.approx(0.9, abs=0.01)
    assert filled_share(b, col) == pytest.approx(0.1, abs=0.01)
    # Without policy_name the same stats show the visits: 50 % each.
    c = pygame.Surface((w, h))
    draw_root_bars(c, c.get_rect(), STATS, move_name, col, chosen_move=0)
    assert filled_share(c, col) == pytest.approx(0.5, abs=0.01)


def test_policy_bars_keep_the_visit_share_as_a_line_and_say_which_is_which():
    w, h = 400, 80
    col = palette.agent_color(1)
    even = pygame.Surface((w, h))
    draw_root_bars(even, even.get_rect(), STATS, move_name, col, policy_name="Exp3")
    skew = [MoveStat(0, 90, 0.1, 0.9, 0.5), MoveStat(1, 10, 0.2, 0.1, 0.5)]
    uneven = pygame.Surface((w, h))
    draw_root_bars(uneven, uneven.get_rect(), skew, move_name, col, policy_name="Exp3")
    # the light line: legend swatch + per bar share x width (+ the end tick)
    legend = 9 * 2
    e, u = count(even, VISIT_LINE) - legend, count(uneven, VISIT_LINE) - legend
    assert e > 0 and u > 0
    # 50 % + 50 % of the track against 90 % + 10 %: the same total length,
    # but split differently; the first row alone tells them apart
    top = pygame.Rect(0, 13, w, 24)
    assert count(uneven, VISIT_LINE, top) > 1.5 * count(even, VISIT_LINE, top)
    # no line, no legend without a policy name
    plain = pygame.Surface((w, h))
    draw_root_bars(plain, plain.get_rect(), STATS, move_name, col)
    assert count(plain, VISIT_LINE) == 0

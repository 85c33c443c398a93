"""TreeView: structural checks (what is drawn where, what picking returns,
when it re-renders), never pixel-exact goldens."""
from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
from render_support import SMALL, make_snapshot, move_name

from sandbox.native import SearchParams
from sandbox.native.snapshot import (FLAG_DOOMED, FLAG_PASS, FLAG_SURVIVED, FLAG_TRUNCATED,
                                     MOVE_NONE)
from sandbox.render import palette
from sandbox.render.tree_view import (BACKPROP, SELECT_PATH, NodeInfo, TreeView,
                                      NODELINK_MAX_ROWS)

RECT = pygame.Rect(10, 20, 600, 400)


def view_of(snap, mode="auto", params=None) -> TreeView:
    v = TreeView(0, palette.agent_color(0), move_name, mode=mode)
    v.update(snap, params or SearchParams())
    return v


def drawn(view: TreeView, size=(640, 440), rect=RECT) -> pygame.Surface:
    surf = pygame.Surface(size)
    surf.fill((0, 0, 0))
    view.draw(surf, rect)
    return surf


def pixels(surf: pygame.Surface, rect=RECT) -> np.ndarray:
    return pygame.surfarray.array3d(surf)[rect.left:rect.right, rect.top:rect.bottom]


def count_color(surf, color, rect=RECT) -> int:
    return int(np.all(pixels(surf, rect) == np.array(color), axis=-1).sum())


def distinct_colors(surf, rect=RECT) -> int:
    p = pixels(surf, rect).reshape(-1, 3)
    return len(np.unique(p[:, 0].astype(np.int64) << 16 | p[:, 1].astype(np.int64) << 8 | p[:, 2]))


# -- icicle ---------------------------------------------------------------------

def test_real_icicle_draws_value_colours_where_big_nodes_are(real_snapshot):
    v = view_of(real_snapshot, mode="icicle")
    surf = drawn(v)
    assert v.layout == "icicle"
    assert distinct_colors(surf) > 30
    norm = real_snapshot.normalized_mean()
    # The widest non-root nodes: an interior pixel right of the label shows
    # the node's value colour.
    checked = 0
    for row in np.argsort(-real_snapshot.visits)[1:]:
        if real_snapshot.flags[row] & (FLAG_PASS | FLAG_DOOMED):
            continue
        r = v.node_rect(int(row))
        if r is None or r.w < 120:
            continue
        px = surf.get_at((r.x + int(r.w * 0.88), r.centery))[:3]
        want = palette.value_color(float(norm[row]))
        assert max(abs(a - b) for a, b in zip(px, want)) <= 3, (row, px, want)
        checked += 1
        if checked == 4:
            break
    assert checked >= 2


def test_icicle_node_rects_are_proportional_to_visits(small_snapshot):
    v = view_of(small_snapshot, mode="icicle")
    drawn(v)
    widths = {row: v.node_rect(row).w for row in range(len(small_snapshot))}
    root = widths[0]
    for row, share in ((1, 0.5), (2, 0.3), (3, 0.2), (4, 0.25)):
        assert widths[row] == pytest.approx(root * share, abs=1.5)
    # Depth goes down the rows.
    assert v.node_rect(4).y > v.node_rect(1).y > v.node_rect(0).y


def test_node_at_centre_returns_the_node_with_its_ucb(small_snapshot):
    params = SearchParams(c=0.9, random_threshold=10)
    v = view_of(small_snapshot, mode="icicle", params=params)
    drawn(v)
    for row in range(len(small_snapshot)):
        info = v.node_at(v.node_center(row))
        assert isinstance(info, NodeInfo)
        assert info.row == row and info.node_id == row
        assert info.visits == small_snapshot.visits[row]
    info = v.node_at(v.node_center(5))          # up -> down: 25 visits under 50
    assert info.path == ["up", "down"]
    assert info.depth == 2 and info.parent_visits == 50
    mean = float(small_snapshot.mean[5])
    # the value the next pick computes: the parent counted as visited first
    assert info.ucb == pytest.approx((mean - 0.0) / 1.0 + 0.9 * math.sqrt(math.log(51)) / 5.0)
    assert info.exploit + info.explore == pytest.approx(info.ucb)
    assert info.prob == pytest.approx(0.5)
    assert not info.random_phase
    assert v.node_at(v.node_center(0)).ucb is None
    assert v.node_at((RECT.x - 5, RECT.y - 5)) is None


def test_node_at_real_tree_matches_formula(real_snapshot, real_search):
    p = real_search.params
    v = view_of(real_snapshot, mode="icicle", params=p)
    drawn(v)
    snap = real_snapshot
    row = snap.best_line()[3]
    info = v.node_at(v.node_center(row))
    assert info.row == row
    pv = int(snap.visits[snap.parent[row]])
    lo, hi = snap.norm_min, snap.norm_max
    want = (float(snap.mean[row]) - lo) / (hi - lo) + p.c * math.sqrt(math.log(pv)) / math.sqrt(
        int(snap.visits[row]))
    assert info.ucb == pytest.approx(want)


def test_random_phase_and_unvisited_children():
    snap = make_snapshot([(-1, 6, 0.5, 255, 0), (0, 6, 0.5, 0, 0), (0, 0, 0.0, 1, 0)])
    v = view_of(snap, params=SearchParams(random_threshold=10))
    drawn(v)
    info = v.info(1)
    assert info.random_phase and info.parent_visits == 6
    assert v.info(2).ucb == math.inf
    lines = " ".join(s for s, _ in v.tooltip_lines(info))
    assert "random phase" in lines


def test_death_penalty_is_part_of_the_ucb():
    snap = make_snapshot([(-1, 40, 0.5, 255, 0), (0, 20, 0.6, 0, FLAG_SURVIVED),
                          (0, 20, 0.2, 1, FLAG_DOOMED)])
    p = SearchParams(death_penalty=True, death_penalty_value=1.0)
    v = view_of(snap, params=p)
    base = view_of(snap).info(2).ucb
    assert v.info(2).ucb == pytest.approx(base - 1.0)
    assert v.info(1).ucb == pytest.approx(view_of(snap).info(1).ucb)


def test_best_line_is_outlined(real_snapshot):
    from sandbox.render.tree_view import BEST_LINE
    v = view_of(real_snapshot, mode="icicle")
    surf = drawn(v)
    r = v.node_rect(real_snapshot.best_line()[1])
    assert surf.get_at(r.topleft)[:3] == BEST_LINE or surf.get_at((r.x + 1, r.y))[:3] == BEST_LINE


# -- layouts and odd inputs ----------------------------------------------------------

def test_auto_mode_picks_nodelink_for_small_trees(small_snapshot, real_snapshot):
    assert len(real_snapshot) > NODELINK_MAX_ROWS
    v = view_of(small_snapshot)
    drawn(v)
    assert v.layout == "nodelink"
    v2 = view_of(real_snapshot)
    assert v2.layout == "icicle"
    v3 = view_of(small_snapshot, mode="icicle")
    assert v3.layout == "icicle"
    with pytest.raises(ValueError):
        TreeView(0, mode="radial")


def test_nodelink_picking_and_radius(small_snapshot):
    v = view_of(small_snapshot, mode="nodelink")
    surf = drawn(v)
    assert distinct_colors(surf) > 10
    for row in range(len(small_snapshot)):
        assert v.node_at(v.node_center(row)).row == row
    # Radius grows with visits.
    assert v.node_rect(0).w > v.node_rect(1).w > v.node_rect(3).w


@pytest.mark.parametrize("mode", ["icicle", "nodelink"])
def test_degenerate_snapshots_draw(mode):
    cases = [
        None,
        make_snapshot([]),
        make_snapshot([(-1, 1, 0.5, 255, 0)]),
        make_snapshot([(-1, 0, 0.0, 255, 0)], norm=(0.0, 0.0)),          # nothing searched
        make_snapshot([(-1, 30, 0.5, 255, FLAG_TRUNCATED),               # pass / doomed / hidden
                       (0, 10, 0.2, MOVE_NONE, FLAG_PASS),
                       (0, 12, 0.0, 1, FLAG_DOOMED | 2),
                       (1, 10, 0.2, MOVE_NONE, FLAG_PASS | FLAG_TRUNCATED),
                       (2, 12, 0.0, 0, FLAG_DOOMED)],
                      hidden={0: 8, 3: 5}, tree_nodes=40),
    ]
    for snap in cases:
        v = view_of(snap, mode=mode)
        surf = drawn(v)
        assert distinct_colors(surf) > 2            # panel, text at least
        v.hover(RECT.center)
        v.click(RECT.center)
        v.set_highlight([0, 1, 3, 99], "backprop", 0.5)
        v.draw(surf, RECT)
        if v.hovered is not None:
            v.draw_tooltip(surf, RECT.center, v.hovered)


def test_pass_and_doomed_are_marked(real_search):
    snap = make_snapshot([(-1, 100, 0.5, 255, 0), (0, 50, 0.5, MOVE_NONE, FLAG_PASS),
                          (0, 50, 0.0, 1, FLAG_DOOMED)])
    v = view_of(snap, mode="icicle")
    surf = drawn(v)
    from sandbox.render.tree_view import DOOMED_STRIPE, PASS_FILL, PASS_STRIPE
    assert count_color(surf, PASS_FILL, v.node_rect(1)) > 0
    assert count_color(surf, PASS_STRIPE, v.node_rect(1)) > 0
    assert count_color(surf, DOOMED_STRIPE, v.node_rect(2)) > 20
    assert v.info(1).path == ["pass"] and "pass" in v.info(1).flags
    assert "doomed" in v.info(2).flags


def test_depth_cut_when_too_deep_for_the_panel():
    nodes = [(-1, 100, 0.5, 255, 0)] + [(i, 100, 0.5, 0, 0) for i in range(60)]
    v = view_of(make_snapshot(nodes), mode="icicle")
    surf = pygame.Surface((300, 120))
    v.draw(surf, surf.get_rect())
    assert v.node_rect(60) is None and v.node_rect(0) is not None
    v.set_highlight(list(range(61)), "select", 1.0)
    v.draw(surf, surf.get_rect())      # "+k" beside the deepest drawn node


# -- caching and interaction ---------------------------------------------------------

def test_cached_drawing_only_rerenders_on_change(real_snapshot, real_search):
    v = view_of(real_snapshot, mode="icicle")
    surf = pygame.Surface((640, 440))
    v.draw(surf, RECT)
    assert v.render_count == 1
    v.draw(surf, RECT)
    v.hover(RECT.center)
    v.draw(surf, RECT)
    v.set_highlight(real_snapshot.node[real_snapshot.best_line()].tolist(), "select", 0.5)
    v.draw(surf, RECT)
    v.draw(surf, RECT.move(5, 5))                 # moved, same size: a blit elsewhere
    v.update(real_snapshot, real_search.params)   # same object: nothing new
    v.draw(surf, RECT)
    assert v.render_count == 1
    assert not v.prepare(RECT)
    v.update(real_search.snapshot(0, 4000))      # a new snapshot object
    v.draw(surf, RECT)
    assert v.render_count == 2
    v.draw(surf, RECT.inflate(-20, -20))
    assert v.render_count == 3
    v.mode = "nodelink"
    v.draw(surf, RECT.inflate(-20, -20))
    assert v.render_count == 4


def test_hover_click_pin(small_snapshot):
    v = view_of(small_snapshot, mode="icicle")
    surf = drawn(v)
    c = v.node_center(4)
    assert v.hover(c).row == 4 and v.hovered.row == 4
    assert v.click(c).row == 4 and v.selected.row == 4
    v.draw(surf, RECT)
    assert count_color(surf, palette.ACCENT) > 0
    assert v.click(c) is None and v.selected is None      # second click unpins
    v.click(c)
    # The tree re-rooted: the same node id now sits at another path -> unpinned.
    moved = make_snapshot([SMALL[0], SMALL[2], SMALL[1], SMALL[3], (1, 30, 0.4, 2, 4),
                           (2, 25, 0.95, 0, 4), (2, 25, 0.85, 1, 4)])
    v.update(moved)
    v.draw(surf, RECT)
    assert v.selected is None
    assert v.hover(None) is None


def test_tooltip_draws_inside_the_surface(small_snapshot):
    v = view_of(small_snapshot, mode="icicle")
    surf = drawn(v)
    info = v.node_at(v.node_center(5))
    info = NodeInfo(**{**info.__dict__, "policy_probs": {"Exp3": 0.31}})
    lines = [s for s, _ in v.tooltip_lines(info)]
    assert any("UCB at C=0.70" in s for s in lines)
    assert any("Exp3 prob 31.0%" in s for s in lines)
    assert any("up › down" in s for s in lines)
    before = pygame.surfarray.array3d(surf).copy()
    v.draw_tooltip(surf, (635, 435), info)               # near the corner: flips inside
    after = pygame.surfarray.array3d(surf)
    assert (before != after).any()
    assert count_color(surf, palette.PANEL_HI, pygame.Rect(0, 0, 640, 440)) > 100


# -- step highlight ------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["icicle", "nodelink"])
def test_select_and_backprop_highlight(small_snapshot, mode):
    v = view_of(small_snapshot, mode=mode)
    surf = drawn(v)
    assert count_color(surf, SELECT_PATH) == 0
    v.set_highlight([0, 1, 5], "select", 1.0)
    surf = drawn(v)
    assert count_color(surf, SELECT_PATH) > 20
    v.set_highlight([0, 1, 5, 1234, 1235], "backprop", 0.0)    # tail beyond the snapshot
    surf = drawn(v)
    assert count_color(surf, BACKPROP) > 0
    v.set_highlight([0, 1, 5], "backprop", 1.0)
    drawn(v)
    v.set_highlight(None)
    assert v.highlight is None
    with pytest.raises(ValueError):
        v.set_highlight([0], "expand")
    assert v.render_count == 1


def test_hovered_ucb_follows_a_new_c(small_snapshot):
    v = view_of(small_snapshot, mode="icicle", params=SearchParams(c=0.5))
    drawn(v)
    c = v.node_center(4)
    u1 = v.hover(c).ucb
    v.update(small_snapshot, SearchParams(c=1.5))
    assert v.hovered.c == 1.5 and v.hovered.ucb > u1
    assert v.render_count == 1


def test_hidden_share_is_dotted_under_a_truncated_node():
    from sandbox.render.tree_view import HIDDEN_DOT
    snap = make_snapshot([(-1, 100, 0.5, 255, FLAG_TRUNCATED), (0, 60, 0.5, 0, 0)],
                         hidden={0: 40})
    v = view_of(snap, mode="icicle")
    surf = drawn(v)
    root, kid = v.node_rect(0), v.node_rect(1)
    gap = pygame.Rect(kid.right + 1, kid.y, root.right - kid.right - 2, kid.h)
    assert gap.w == pytest.approx(root.w * 0.4, abs=3)
    assert count_color(surf, HIDDEN_DOT, gap) > 20
    assert count_color(surf, HIDDEN_DOT, kid.inflate(-4, -4)) == 0


def test_a_dead_agents_pass_chain_has_no_labels_over_its_circles():
    """An agent that died at depth 2: its chain of pass nodes below. The
    node-link view's edge labels must not sit on any circle."""
    from sandbox.native.snapshot import FLAG_PASS
    from sandbox.render import palette as pal
    nodes = [(-1, 100, 0.5, 255, 0), (0, 60, 0.6, 0, 0), (0, 40, 0.4, 1, 0), (1, 60, 0.6, 2, 0)]
    for k in range(6):                                  # the pass chain under node 3
        nodes.append((3 + k, 60, 0.1, 255, FLAG_PASS))
    def render(namer):
        tv = TreeView(0, (230, 80, 70), namer, mode="nodelink")
        tv.update(make_snapshot(nodes))
        surf = pygame.Surface((260, 260))
        tv.draw(surf, surf.get_rect())
        return tv, surf
    tv, surf = render(move_name)
    _, bare = render(lambda m: "")           # the same tree without any label
    g = tv._g
    for i in range(g["n"]):
        cx, cy, r = float(g["cx"][i]), float(g["cy"][i]), float(g["r"][i]) + 2
        for x in range(int(cx - r), int(cx + r) + 1):
            for y in range(int(cy - r), int(cy + r) + 1):
                if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                    assert surf.get_at((x, y)) == bare.get_at((x, y)), f"a label on node {i}"
    # the moves are still named: "up" and "left" are drawn somewhere
    assert any(surf.get_at((x, y)) != bare.get_at((x, y)) for x in range(260) for y in range(260))

"""The root heat map (sandbox/render/matrix_view.py) and the graph parts of
the tree view (shared nodes, other-parent links, the principal variation).

The heat map is checked against the C search's own RootMatrix (a real MCGS
search): the hovered cell's numbers are the matrix's, the shades order as
the visits do (read back from pixels), the margin bars are as long as each
player's marginal share computed here from the cell visits (not from the
view's policies()). Graph links are counted in the layout's data on a
hand-built snapshot whose links are written out by hand.
"""
from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
from render_support import make_snapshot, move_name

from sandbox.games import move_namer, move_names
from sandbox.native import Game, RootMatrix, Search, SearchParams
from sandbox.native.snapshot import FLAG_SHARED, TreeSnapshot
from sandbox.render import palette
from sandbox.render.matrix_view import EMPTY_TEXT, MatrixView, cell_color
from sandbox.render.tree_layout import graph_children, line_moves, principal_variation
from sandbox.render.tree_view import LINK, SHARED, TreeView

RED, BLUE = (230, 80, 70), (80, 140, 240)
SENTINEL = (1, 254, 3)


def mcgs_matrix(kind="maze", params="size=tiny maze_seed=3", iterations=2000, seed=2):
    g = Game(kind, params, seed=1)
    with Search(g, SearchParams(algorithm="mcgs", fpu_offset=0.2), seed=seed) as s:
        s.run(iterations=iterations)
        return g, s.root_matrix(), s.stats()


def view_for(game) -> MatrixView:
    names = move_names(game)
    return MatrixView([RED, BLUE], ["Red", "Blue"], [move_namer(names, a) for a in range(2)])


def synthetic(n1: int, n2: int, seed: int = 0) -> RootMatrix:
    """A matrix of any shape (13 x 13 is goofspiel's): random visits, some
    cells unvisited, values NaN there."""
    rng = np.random.default_rng(seed)
    visits = rng.integers(0, 400, size=(n1, n2)) * (rng.random((n1, n2)) > 0.3)
    visits[0, 0] = 999
    values = np.where(visits > 0, rng.normal(size=(2, n1, n2)), np.nan)
    mv = (visits.sum(axis=1), visits.sum(axis=0))
    return RootMatrix(moves=(tuple(range(n1)), tuple(range(n2))), visits=visits, values=values,
                      marginal_visits=mv,
                      marginal_values=(rng.normal(size=n1), rng.normal(size=n2)),
                      priors=(np.full(n1, 1 / n1), np.full(n2, 1 / n2)),
                      root_visits=int(visits.sum()), root_values=(0.5, -0.5))


def lum(c) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


# -- agreement with C -----------------------------------------------------------

def test_hovered_cells_and_bars_report_the_c_root_matrix():
    game, m, st = mcgs_matrix()
    n1, n2 = m.shape
    assert n1 > 1 and n2 > 1
    v = view_for(game)
    v.update(m, nodes=st.nodes[0], hits=st.transposition_hits)
    surf = pygame.Surface((700, 300))
    rect = pygame.Rect(20, 10, 620, 260)
    v.draw(surf, rect)
    for i in range(n1):
        for j in range(n2):
            info = v.hover(v.cell_rect(i, j).center)
            assert info.kind == "cell" and (info.i, info.j) == (i, j)
            assert info.moves == (m.moves[0][i], m.moves[1][j])
            assert info.visits == m.visits[i, j]
            for p in range(2):
                want = m.values[p, i, j]
                assert (math.isnan(info.values[p]) and math.isnan(want)) or \
                    info.values[p] == want
            lines = " ".join(s for s, _ in v.tooltip_lines(info))
            assert f"visits {int(m.visits[i, j]):,}" in lines
            if m.visits[i, j]:
                assert f"Q Red {m.values[0, i, j]:.4g}" in lines
    # the marginal bars: hovering one gives that player's marginal
    g = v._g
    for i, box in enumerate(g["row_bars"]):
        info = v.hover(box.move(rect.topleft).center)
        assert info.kind == "row" and info.visits == int(m.visits[i].sum())
        assert info.value == pytest.approx(m.marginal_values[0][i])
    for j, box in enumerate(g["col_bars"]):
        info = v.hover(box.move(rect.topleft).center)
        assert info.kind == "col" and info.visits == int(m.visits[:, j].sum())


def test_shades_order_as_the_visits_and_the_brightest_cell_is_the_most_visited():
    game, m, _ = mcgs_matrix(iterations=3000)
    v = view_for(game)
    v.update(m)
    surf = pygame.Surface((700, 300))
    v.draw(surf, pygame.Rect(0, 0, 640, 280))
    shade = {}
    for (i, j) in np.ndindex(*m.shape):
        r = v.cell_rect(i, j)
        shade[(i, j)] = lum(surf.get_at((r.x + 2, r.y + 2))[:3])   # a corner: no label there
    brightest = max(shade, key=shade.get)
    assert m.visits[brightest] == m.visits.max()
    cells = sorted(shade, key=lambda c: m.visits[c])
    for a, b in zip(cells, cells[1:]):
        assert shade[b] >= shade[a], (a, b)             # never darker with more visits
        if m.visits[b] - m.visits[a] >= 0.02 * m.visits.max():
            assert shade[b] > shade[a], (a, b)          # and visibly brighter
        if m.visits[b] == m.visits[a]:
            assert shade[b] == shade[a]
    # cell_color itself: brighter with more visits
    assert lum(cell_color(2, 10)) < lum(cell_color(3, 10)) < lum(cell_color(10, 10))


def test_margin_bars_are_each_players_share_of_the_root_visits():
    game, m, _ = mcgs_matrix(iterations=3000)
    v = view_for(game)
    v.update(m)
    surf = pygame.Surface((700, 300))
    rect = pygame.Rect(0, 0, 640, 280)
    surf.fill((0, 0, 0))
    v.draw(surf, rect)
    g = v._g
    total = m.visits.sum()
    px = pygame.surfarray.array3d(surf)
    for i, box in enumerate(g["row_bars"]):
        # player 0's colour along the bar's last pixel row (its label sits
        # in the middle, on a dark backing)
        y = box.bottom - 2
        run = np.all(px[box.x:box.right, y] == RED, axis=-1).sum()
        want = m.visits[i].sum() / total * (box.w)
        assert abs(run - want) <= 2, (i, run, want)
    for j, box in enumerate(g["col_bars"]):
        run = np.all(px[box.x + 2, box.y:box.bottom] == BLUE, axis=-1).sum()  # beside its label
        want = m.visits[:, j].sum() / total * box.h
        assert abs(run - want) <= 2, (j, run, want)


def test_header_counts_nodes_and_transposition_hits_from_the_stats():
    game, m, st = mcgs_matrix()
    assert st.transposition_hits > 0     # the tiny maze has transpositions
    v = view_for(game)
    v.update(m, nodes=st.nodes[0], hits=st.transposition_hits)
    v.draw(pygame.Surface((900, 300)), pygame.Rect(0, 0, 900, 300))
    # what the header says is built from exactly these numbers
    assert v.nodes == st.nodes[0] and v.hits == st.transposition_hits


# -- never outside its rect, any shape, any size ----------------------------------

@pytest.mark.parametrize("shape", [(3, 3), (5, 5), (13, 13), (4, 2)])
@pytest.mark.parametrize("size", [(620, 200), (280, 180), (150, 90)])
def test_nothing_drawn_outside_the_rect(shape, size):
    m = synthetic(*shape)
    v = MatrixView([RED, BLUE], ["Red", "Blue"], [str, str])
    v.update(m, nodes=123, hits=45)
    surf = pygame.Surface((size[0] + 80, size[1] + 80))
    surf.fill(SENTINEL)
    rect = pygame.Rect(40, 40, *size)
    v.draw(surf, rect)
    if v._g is not None:     # hover every cell: its outline stays inside too
        for (i, j) in np.ndindex(*shape):
            v.hover(v.cell_rect(i, j).center)
            v.draw(surf, rect)
    px = pygame.surfarray.array3d(surf)
    outside = np.ones(px.shape[:2], dtype=bool)
    outside[rect.x:rect.right, rect.y:rect.bottom] = False
    assert np.all(px[outside] == SENTINEL)
    inside = px[rect.x:rect.right, rect.y:rect.bottom]
    assert not np.any(np.all(inside == SENTINEL, axis=-1))   # the whole rect is painted
    if size[1] >= 180:   # every cell drawn, inside the rect
        assert v._g is not None
        for (i, j) in np.ndindex(*shape):
            assert rect.contains(v.cell_rect(i, j))


def test_before_the_first_playout_it_says_so():
    g = Game("matrix", "preset=rps", seed=1)
    with Search(g, SearchParams(algorithm="mcgs"), seed=1) as s:
        empty = s.root_matrix()
    for m in (None, empty):
        v = view_for(g)
        v.update(m)
        assert v.empty
        surf = pygame.Surface((400, 200))
        surf.fill(SENTINEL)
        v.draw(surf, pygame.Rect(0, 0, 400, 200))
        assert v._g is None and v.at((200, 100)) is None
        assert EMPTY_TEXT.startswith("before the first playout")
        # the message is on it: text-coloured pixels in the middle band
        px = pygame.surfarray.array3d(surf)[:, 80:120]
        assert np.any(np.all(px == palette.TEXT_DIM, axis=-1))


# -- the graph in the tree view -----------------------------------------------------

# A tiny graph by hand: root -> a (row 1), b (row 2); a -> c (row 3); c is
# also reached from b (the link (2, 3)); d (row 4) under b. c is SHARED.
#   rows: (parent, visits, mean, move, flags, mover, joint)
GRAPH = [
    (-1, 60, 0.5, 255, 0, -1, ()),
    (0, 35, 0.6, 0, 0, -1, (0, 1)),
    (0, 25, 0.4, 1, 0, -1, (1, 0)),
    (1, 30, 0.7, 1, FLAG_SHARED, -1, (1, 0)),
    (2, 4, 0.2, 0, 0, -1, (0, 0)),
]


def graph_snapshot(links=((2, 3),)) -> TreeSnapshot:
    s = make_snapshot(GRAPH)
    return TreeSnapshot(agent=0, rows=s.rows, norm_min=0.0, norm_max=1.0, tree_nodes=5,
                        links=np.array(links, dtype=np.int32).reshape(-1, 2))


def graph_view(snap: TreeSnapshot, mode="nodelink") -> tuple[TreeView, pygame.Surface]:
    v = TreeView(0, RED, move_name, mode=mode, agent_colors=[RED, BLUE],
                 move_names=[move_name, move_name])
    v.update(snap, SearchParams())
    surf = pygame.Surface((640, 440))
    v.draw(surf, pygame.Rect(10, 20, 600, 400))
    return v, surf


def count(surf, color) -> int:
    px = pygame.surfarray.array3d(surf)
    return int(np.all(px == np.array(color), axis=-1).sum())


def test_node_link_draws_each_link_as_an_extra_edge_and_rings_shared_nodes():
    v, surf = graph_view(graph_snapshot())
    assert v._g["links"] == [(2, 3)]
    assert count(surf, LINK) > 20          # a dashed line from b down to c
    assert count(surf, SHARED) > 10        # c's ring
    # the tooltip lists both parents, the row's own first
    info = v.info(3)
    assert info.shared and info.parents == ["up/down", "down/up"]
    lines = " ".join(s for s, _ in v.tooltip_lines(info))
    assert "2 parent(s)" in lines and "from down/up" in lines
    # two links: both drawn
    v2, _ = graph_view(graph_snapshot(links=((2, 3), (4, 3))))
    assert v2._g["links"] == [(2, 3), (4, 3)]


def test_a_tree_draws_no_links_and_no_shared_marks():
    tree = make_snapshot([r[:5] for r in GRAPH[:3]] + [(1, 30, 0.7, 1, 0), (2, 4, 0.2, 0, 0)])
    v, surf = graph_view(tree)
    assert v._g["links"] == []
    assert count(surf, LINK) == 0 and count(surf, SHARED) == 0
    assert v.info(3).parents == [] and not v.info(3).shared


def test_icicle_marks_shared_nodes_and_says_it_cannot_draw_the_dag():
    v, surf = graph_view(graph_snapshot(), mode="icicle")
    box = v.node_rect(3)
    px = pygame.surfarray.array3d(surf)[box.x:box.x + 8, box.y:box.y + 8]
    assert np.any(np.all(px == SHARED, axis=-1))   # the corner mark
    other = v.node_rect(4)
    px = pygame.surfarray.array3d(surf)[other.x:other.x + 8, other.y:other.y + 8]
    assert not np.any(np.all(px == SHARED, axis=-1))
    # the footer's note in the same colour (the last FOOTER_H rows of the view)
    foot = pygame.surfarray.array3d(surf)[10:610, 420 - 14:420]
    assert np.any(np.all(foot == SHARED, axis=-1))
    _, tree_surf = graph_view(make_snapshot([r[:4] + (0,) for r in GRAPH]), mode="icicle")
    foot = pygame.surfarray.array3d(tree_surf)[10:610, 420 - 14:420]
    assert not np.any(np.all(foot == SHARED, axis=-1))


def test_principal_variation_follows_links_to_the_most_visited_child():
    snap = graph_snapshot()
    assert graph_children(snap) == [[1, 2], [3], [4, 3], [], []]
    assert principal_variation(snap) == [0, 1, 3]
    # from b, the link child c (30 visits) beats b's tree child d (4): a walk
    # along the first-parent tree alone would take d
    sub = graph_snapshot()
    rows = sub.rows.copy()
    rows["visits"][1], rows["visits"][2] = 20, 40
    sub = TreeSnapshot(0, rows, 0.0, 1.0, 5, links=np.array([[2, 3]], dtype=np.int32),
                       link_joints=np.array([[0, 1]], dtype=np.uint8))
    assert sub.best_line() == [0, 2, 4]
    assert principal_variation(sub) == [0, 2, 3]
    # each player's moves along it: row 2's joint (1, 0) from the root, then
    # the LINK's joint (0, 1) from b into c, not c's row joint (1, 0), which
    # is the action on its first parent a's edge
    assert line_moves(sub, [0, 2, 3], 0) == [1, 0] and line_moves(sub, [0, 2, 3], 1) == [0, 1]
    assert line_moves(sub, [0, 1, 3], 0) == [0, 1]      # through a: c's own joint
    # a link whose joint is unknown gives no move (-1), never a wrong one
    bare = TreeSnapshot(0, rows, 0.0, 1.0, 5, links=np.array([[2, 3]], dtype=np.int32))
    assert line_moves(bare, [0, 2, 3], 0) == [1, -1]


def test_the_shared_flag_is_the_c_headers():
    from sandbox.native._lib import lib
    assert FLAG_SHARED == lib.SBX_NODE_SHARED


def test_a_new_matrix_re_renders_and_the_resting_mouse_reads_it():
    a, b = synthetic(3, 3, seed=1), synthetic(3, 3, seed=2)
    v = MatrixView([RED, BLUE], ["Red", "Blue"], [str, str])
    surf = pygame.Surface((400, 240))
    rect = pygame.Rect(0, 0, 400, 240)
    v.update(a)
    v.draw(surf, rect)
    pos = v.cell_rect(1, 2).center
    assert v.hover(pos).visits == a.visits[1, 2]
    n = v.render_count
    v.update(b)              # the next slice's matrix; the mouse has not moved
    v.draw(surf, rect)
    assert v.render_count == n + 1
    assert v.hovered.visits == b.visits[1, 2] != a.visits[1, 2]
    del a                    # even when a new matrix reuses a freed one's id()
    c = synthetic(3, 3, seed=3)
    v.update(c)
    v.draw(surf, rect)
    assert v.render_count == n + 2 and v.hovered.visits == c.visits[1, 2]

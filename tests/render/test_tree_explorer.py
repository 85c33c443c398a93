"""The tree explorer: synthesised mouse wheel, drag, click
and key events through ExplorerInput over a TreeView, headless (dummy
driver). Expected numbers come from the hand-built snapshots (SMALL: root
100 -> up 50 (-> up 25, down 25), down 30 (-> left 30), left 20) or are
recomputed from the snapshot's own rows, never read back from the view."""
from __future__ import annotations

import json
import re

import numpy as np
import pygame
import pytest
from render_support import SMALL, make_snapshot, move_name

from sandbox.native import SearchParams
from sandbox.render import palette
from sandbox.render.tree_explore import ExplorerInput, descendants, place_box, subtree
from sandbox.render.tree_view import TreeView

RECT = pygame.Rect(10, 20, 600, 400)


def view_of(snap, mode="icicle") -> TreeView:
    v = TreeView(0, palette.agent_color(0), move_name, mode=mode)
    v.update(snap, SearchParams())
    return v


def frame(v: TreeView, size=(640, 440)) -> pygame.Surface:
    surf = pygame.Surface(size)
    v.draw(surf, RECT)
    return surf


def ev(kind, **kw) -> pygame.event.Event:
    return pygame.event.Event(kind, **kw)


def send(inp: ExplorerInput, v: TreeView, *events) -> list[str]:
    """Each event to the explorer (the panel redrawn after each, as a scene
    does every frame); the status lines it gave."""
    out = []
    for e in events:
        _, msg = inp.handle(e, [(v, RECT)])
        if msg:
            out.append(msg)
        frame(v)
    return out


def click(pos, button=1):
    return (ev(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
            ev(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def key(k, uni=""):
    return ev(pygame.KEYDOWN, key=k, unicode=uni, mod=0, scancode=0)


def typed(text):
    return [key(pygame.K_SLASH, "/")] + [key(0, ch) for ch in text] + [key(pygame.K_RETURN, "\r")]


def wheel(y):
    return ev(pygame.MOUSEWHEEL, x=0, y=y, precise_x=0.0, precise_y=float(y), flipped=False)


def at_unit(v: TreeView, ux: float, level: int) -> tuple[int, int]:
    """The panel point of icicle unit x `ux` on depth row `level`."""
    g = v._g
    return (round(RECT.x + g["ax"] + ux * g["aw"]),
            RECT.y + g["ay"] + level * g["band"] + g["band"] // 2)


def test_wheel_zooms_about_the_cursor(small_snapshot):
    v = view_of(small_snapshot)
    frame(v)
    inp = ExplorerInput()
    before = v.node_rect(1)                    # "up": units 0 .. 0.5
    pos = at_unit(v, 0.3, 1)
    send(inp, v, ev(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)), wheel(1))
    assert v.zoom == pytest.approx(1.25) and v.focus_depth == 0
    g = v._g
    f = (pos[0] - RECT.x - g["ax"]) / g["aw"]
    assert v.view_x + f / v.zoom == pytest.approx((pos[0] - RECT.x - g["ax"]) / g["aw"], abs=2e-3)
    g = v._g                                   # its whole width (its left part is off-panel)
    assert g["x1"][1] - g["x0"][1] == pytest.approx(before.w * 1.25, abs=2)
    assert g["x0"][1] < 0 and v.node_rect(1).x == RECT.x + g["ax"]
    assert v.row_at(pos) == 1                  # the cursor is still on "up"
    send(inp, v, wheel(-3))
    assert v.zoom == 1.0 and v.view_x == 0.0   # never below the whole tree


def test_zooming_into_one_child_makes_it_the_root_and_out_goes_back(small_snapshot):
    """Level of detail: once the panel shows part of one child only, that
    child is the view's root (a crumb; a live search then sends that
    subtree), the cursor's point kept; zooming out past it comes back."""
    v = view_of(small_snapshot)
    frame(v)
    inp = ExplorerInput()
    pos = at_unit(v, 0.1, 1)
    send(inp, v, ev(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)), wheel(4))
    # window 1/1.25^4 = 0.41 wide about 0.1: inside "up" (0 .. 0.5)
    assert v.crumbs == ["root", "up"] and v.snapshot.node.tolist() == [1, 4, 5]
    g = v._g
    f = (pos[0] - RECT.x - g["ax"]) / g["aw"]
    assert v.view_x + f / v.zoom == pytest.approx(0.1 / 0.5, abs=2e-3)   # same point, up's units
    assert v.zoom == pytest.approx(1.25 ** 4 * 0.5)
    send(inp, v, wheel(-4))
    assert v.crumbs == ["root"] and v.zoom == 1.0 and v.snapshot is small_snapshot


def test_a_deep_zoom_into_a_real_tree_follows_the_cursor_down(real_snapshot):
    v = view_of(real_snapshot)
    frame(v)
    inp = ExplorerInput()
    line = real_snapshot.best_line()
    target = line[5]
    pos = v.node_center(target)
    send(inp, v, ev(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(30):
        send(inp, v, wheel(1))
    assert v.focus_depth >= 2
    # every crumb is an ancestor of the cursor's point: the path so far is
    # a prefix of the aimed node's own move path
    want = tuple(int(real_snapshot.move[r]) for r in real_snapshot.path_to(target)[1:])
    got = v.focus_path
    assert want[:len(got)] == got[:len(want)]
    for _ in range(30):
        send(inp, v, wheel(-1))
    assert v.focus_depth == 0 and v.zoom == 1.0


def test_drag_pans_and_a_drag_is_not_a_click(real_snapshot):
    v = view_of(real_snapshot)
    frame(v)
    v.zoom = 8.0
    frame(v)
    inp = ExplorerInput()
    aw = v._g["aw"]
    start = (RECT.centerx, RECT.centery)
    end = (start[0] - 120, start[1])
    send(inp, v, ev(pygame.MOUSEBUTTONDOWN, pos=start, button=1),
         ev(pygame.MOUSEMOTION, pos=end, rel=(-120, 0), buttons=(1, 0, 0)),
         ev(pygame.MOUSEBUTTONUP, pos=end, button=1))
    assert v.view_x == pytest.approx(120 / (aw * 8.0))
    assert v.focus_depth == 0                   # the drag did not re-root


def test_click_reroots_and_crumbs_and_backspace_go_back(small_snapshot):
    v = view_of(small_snapshot)
    frame(v)
    inp = ExplorerInput()
    msgs = send(inp, v, *click(v.node_center(1)))          # "up": 50 visits
    assert v.focus_depth == 1 and v.crumbs == ["root", "up"]
    assert v.snapshot.node.tolist() == [1, 4, 5]          # up and its two children
    assert v.snapshot.parent.tolist() == [-1, 0, 0]
    assert v.snapshot.visits.tolist() == [50, 25, 25]
    assert "subtree" in msgs[0]
    # the view's root fills the panel: its children are half each
    assert v.node_rect(1).w == pytest.approx(v.node_rect(0).w / 2, abs=1.5)
    send(inp, v, *click(v.node_center(2)))                 # up › down: a leaf
    assert v.crumbs == ["root", "up", "down"] and v.snapshot.node.tolist() == [5]
    # a crumb click goes back to it
    (i, r), = [c for c in v._crumb_rects if c[0] == 1]
    send(inp, v, *click((RECT.x + r.centerx, RECT.y + r.centery)))
    assert v.crumbs == ["root", "up"] and len(v.snapshot) == 3
    send(inp, v, key(pygame.K_BACKSPACE, "\b"))
    assert v.focus_depth == 0 and v.snapshot is small_snapshot
    # Backspace at the root is not the explorer's (the scene may use it)
    consumed, _ = inp.handle(key(pygame.K_BACKSPACE, "\b"), [(v, RECT)])
    assert not consumed


def test_deep_levels_are_reached_by_scrolling():
    # a chain 60 deep: a 120 px panel shows only the top levels
    nodes = [(-1, 100, 0.5, 255, 0)] + [(i, 100, 0.5, 0, 0) for i in range(60)]
    v = view_of(make_snapshot(nodes))
    surf = pygame.Surface((300, 120))
    rect = surf.get_rect()
    v.draw(surf, rect)
    assert v.node_rect(60) is None and v.node_rect(0) is not None
    inp = ExplorerInput()
    start = (150, 100)
    for _ in range(6):   # drag the tree up, past its bottom
        inp.handle(ev(pygame.MOUSEBUTTONDOWN, pos=start, button=1), [(v, rect)])
        inp.handle(ev(pygame.MOUSEMOTION, pos=(150, 10), rel=(0, -90), buttons=(1, 0, 0)),
                   [(v, rect)])
        inp.handle(ev(pygame.MOUSEBUTTONUP, pos=(150, 10), button=1), [(v, rect)])
        v.draw(surf, rect)
    assert v.node_rect(60) is not None and v.node_rect(0) is None
    assert v.row_at(v.node_rect(60).center) == 60


@pytest.mark.parametrize("text", ["U,D", "up down", "u › d"])
def test_find_by_move_path_selects_that_node(small_snapshot, text):
    v = view_of(small_snapshot)
    frame(v)
    inp = ExplorerInput()
    msgs = send(inp, v, *typed(text))
    assert v.selected is not None and v.selected.node_id == 5     # up › down
    assert v.selected.path == ["up", "down"]
    assert msgs[-1].startswith("found up › down")


def test_find_reports_a_path_that_is_not_there(small_snapshot):
    v = view_of(small_snapshot)
    frame(v)
    msgs = send(ExplorerInput(), v, *typed("D,R"))
    assert v.selected is None
    assert "step 2" in msgs[-1] and "left" in msgs[-1]     # down's only child is left


def test_find_in_a_real_tree_zooms_to_the_node(real_snapshot):
    v = view_of(real_snapshot)
    frame(v)
    # a deep, narrow node on the best line: its path in initials
    line = real_snapshot.best_line()
    row = line[min(6, len(line) - 1)]
    names = [move_name(int(real_snapshot.move[r]))[0].upper()
             for r in real_snapshot.path_to(row)[1:]]
    send(ExplorerInput(), v, *typed(",".join(names)))
    assert v.selected is not None and v.selected.node_id == int(real_snapshot.node[row])
    r = v.node_rect(row)
    assert r is not None and r.w >= 8 and RECT.colliderect(r)


def test_export_writes_the_subtree_under_the_view(tmp_path, real_snapshot):
    v = view_of(real_snapshot)
    frame(v)
    kids = real_snapshot.children(0)
    top = int(kids[np.argmax(real_snapshot.visits[kids])])
    assert v.reroot(top)
    frame(v)
    inp = ExplorerInput(export_dir=tmp_path)
    msgs = send(inp, v, ev(pygame.MOUSEMOTION, pos=RECT.center, rel=(0, 0), buttons=(0, 0, 0)),
                key(pygame.K_x, "x"))
    jp, = tmp_path.glob("*.json")
    dp, = tmp_path.glob("*.dot")
    assert str(jp) in msgs[-1]
    data = json.loads(jp.read_text())
    # the subtree, recomputed from the full snapshot's rows
    want = descendants(real_snapshot, top)
    assert data["rows"] == len(data["nodes"]) == len(want) == len(v.snapshot)
    assert sorted(n["id"] for n in data["nodes"]) == sorted(real_snapshot.node[want].tolist())
    assert sum(n["visits"] for n in data["nodes"]) == int(real_snapshot.visits[want].sum())
    assert data["visits"] == int(real_snapshot.visits[top])
    assert data["focus"] == v.crumbs
    dot = dp.read_text()
    node_lines = re.findall(r"^\s*n(\d+) \[label=", dot, flags=re.M)
    assert sorted(map(int, node_lines)) == list(range(len(want)))    # one line per node
    assert len(re.findall(r"^\s*n\d+ -> n\d+;", dot, flags=re.M)) == len(want) - 1
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")


def test_pinned_facts_never_cover_their_node_and_dismiss(small_snapshot, real_snapshot):
    for snap, mode in ((small_snapshot, "nodelink"), (small_snapshot, "icicle"),
                       (real_snapshot, "icicle")):
        v = view_of(snap, mode)
        frame(v)
        inp = ExplorerInput()
        rows = [0] + snap.best_line()[1:4] + [int(r) for r in snap.children(0)]
        checked = 0
        for row in rows:
            c = v.node_center(row)
            if c is None or v.row_at(c) != row:   # dust: the pixel picks another node
                continue
            send(inp, v, *click(c, button=3))
            assert v.selected is not None and v.selected.row == row
            box = v.pinned_box(RECT)
            assert not box.colliderect(v.node_rect(row)), (mode, row, box, v.node_rect(row))
            assert RECT.contains(box)
            send(inp, v, key(pygame.K_ESCAPE, "\x1b"))
            assert v.selected is None
            checked += 1
        assert checked >= 3, mode
        # a click elsewhere (outside every panel) dismisses too
        send(inp, v, *click(v.node_center(0), button=3))
        assert v.selected is not None
        send(inp, v, *click((RECT.right + 20, RECT.bottom + 10)))
        assert v.selected is None


def test_place_box_keeps_off_the_node():
    bounds = pygame.Rect(0, 0, 400, 300)
    for node in (pygame.Rect(0, 0, 400, 30), pygame.Rect(0, 0, 30, 300),
                 pygame.Rect(150, 100, 50, 50), pygame.Rect(300, 250, 100, 50)):
        box = place_box((120, 60), node, bounds)
        assert bounds.contains(box) and not box.colliderect(node), node


def test_subtree_keeps_rows_and_renumbers_parents(small_snapshot):
    sub = subtree(small_snapshot, 1)
    assert sub.node.tolist() == [1, 4, 5] and sub.parent.tolist() == [-1, 0, 0]
    assert sub.prob[0] == 1.0 and sub.top_path == (0,)        # the move "up"
    assert sub.prob.tolist()[1:] == pytest.approx([0.5, 0.5])


def test_a_c_subtree_snapshot_is_shown_as_it_is(real_search):
    """The live arena asks C for the subtree at the view's focus: a snapshot
    whose top_path is the focus is shown directly (with its own max_nodes of
    detail), not cut again."""
    real_snapshot = real_search.snapshot(0, 300)
    v = view_of(real_snapshot)
    frame(v)
    row = real_snapshot.best_line()[2]
    v.reroot(row)
    sub = real_search.snapshot(0, 4000, top=list(v.focus_path))
    assert sub.top_path == v.focus_path and sub.node[0] == real_snapshot.node[row]
    v.update(sub)
    assert v.snapshot is sub
    assert len(sub) > len(descendants(real_snapshot, row))   # deeper than the cut
    frame(v)
    v.update(real_snapshot)                   # a root snapshot again: cut from it
    assert v.snapshot.node[0] == real_snapshot.node[row] and v.focus_depth == 1


@pytest.mark.parametrize("table, text, row, crumb", [
    ("SUCT", "U,R", 4, "up"),            # agent 0 up, then agent 1's reply right
    ("JOINT", "U/L, U/U", 4, "up/left"),  # joint actions, by initials
    ("JOINT", "up/left uu", 4, "up/left"),
])
def test_every_kind_of_tree_reroots_and_finds(table, text, row, crumb):
    """Sequential (SUCT) and joint-action (joint, MCGS) trees: the moves as
    the view names them."""
    import render_support
    snap = make_snapshot(getattr(render_support, table))
    v = view_of(snap)
    frame(v)
    inp = ExplorerInput()
    send(inp, v, *typed(text))
    assert v.selected is not None and v.selected.node_id == row
    send(inp, v, key(pygame.K_ESCAPE, "\x1b"), *click(v.node_center(1)))
    assert v.crumbs == ["root", crumb] and v.snapshot.node[0] == 1
    want = descendants(snap, 1)
    assert v.snapshot.node.tolist() == snap.node[want].tolist()


def test_a_graphs_links_stay_only_inside_the_subtree():
    import dataclasses

    import render_support
    snap = make_snapshot(render_support.JOINT)
    # an MCGS-like graph: row 4 (up/left › up/up) is reached from up/right too,
    # and row 5 from up/left (its own parent) once more by another edge
    snap = dataclasses.replace(snap, links=np.array([[2, 4], [1, 5]], dtype=np.int32),
                               link_joints=np.array([[0, 0], [3, 3]], dtype=np.uint8))
    sub = subtree(snap, 1)
    assert sub.node.tolist() == [1, 4, 5]
    assert sub.links.tolist() == [[0, 2]] and sub.link_joints.tolist() == [[3, 3]]


def test_deep_crumbs_in_a_narrow_panel_keep_the_root_and_where_the_view_is():
    """Re-rooted seven levels down in a panel 220 px wide: the crumbs that
    do not fit are the middle ones ("…"), never the current one."""
    from render_support import make_snapshot
    nodes = [(-1, 1000, 0.5, 255, 0)]
    for d in range(9):   # a chain "left", "right", "left", ... with a side leaf each
        parent = 0 if d == 0 else len(nodes) - 2
        nodes += [(parent, 900 - d, 0.6, 2 + d % 2, 0), (parent, 5, 0.4, 0, 0)]
    v = TreeView(0, (230, 80, 70), move_name)
    v.update(make_snapshot(nodes))
    rect = pygame.Rect(0, 0, 220, 200)
    surf = pygame.Surface(rect.size)
    v.draw(surf, rect)
    for _ in range(7):
        assert v.reroot(1)             # the first child: down the chain
        v.draw(surf, rect)
    n = len(v.crumbs)
    assert n == 8
    shown = [i for i, _ in v._crumb_rects]
    assert shown[-1] == n - 1 and shown[0] == 0, shown      # the root and the current one
    assert all(r.right <= rect.w for _, r in v._crumb_rects)

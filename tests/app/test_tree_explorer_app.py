"""The tree explorer inside the scenes: synthesised events
through ArenaScene/ReplayScene.handle_event, headless (dummy driver). The
arena asks its searches for the re-rooted view's subtree (TreeRequest.tops
-> Search.snapshot(top=path)); the replay cuts it from the recorded tree."""
from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from test_arena import down, feed, key, make_arena, motion, up, wait_until
from test_replay_scene import _open, _play

from sandbox.native.snapshot import TreeSnapshot
from sandbox.render.tree_explore import descendants


def _aim(tv, area) -> int:
    """A drawn child of the view's root with children of its own."""
    snap = tv.snapshot
    for row in snap.children(0).tolist():
        c = tv.node_center(row)
        if c is not None and area.collidepoint(c) and tv.row_at(c) == row \
                and len(snap.children(row)):
            return row
    raise AssertionError("no child of the root to click")


@pytest.fixture
def arena_with_trees(app):
    arena = make_arena(app)
    wait_until(lambda: all(tv.snapshot is not None for tv in arena.trees), arena,
               what="tree snapshots")
    arena.update(0.0)
    arena.draw(app.screen)
    return arena


def test_arena_click_reroots_and_asks_the_search_for_that_subtree(app, arena_with_trees):
    arena = arena_with_trees
    tv, area = arena.trees[0], arena._tree_area(arena.layout["panels"][0])
    before: TreeSnapshot = tv.snapshot
    row = _aim(tv, area)
    pos = tv.node_center(row)
    node = int(before.node[row])
    feed(arena, motion(pos), down(pos), up(pos))
    assert tv.focus_depth == 1 and tv.snapshot.node[0] == node
    ctl = arena.match.controllers[0]
    assert dict(ctl.tree_request.tops) == {0: tv.focus_path}
    # what the controller publishes for that request: C's subtree at the path
    snaps = ctl._snapshots((0,), 4, ctl.tree_request)
    sub = snaps[0]
    assert sub.top_path == tv.focus_path and int(sub.node[0]) == node
    assert int(sub.visits[0]) == int(before.visits[row])
    # the idle search has published it already: the next frames show it
    wait_until(lambda: tv.source is not None and tv.source.top_path == tv.focus_path, arena,
               what="the subtree from C")
    assert tv.snapshot is tv.source and int(tv.source.node[0]) == node
    assert tv.source.rows.tobytes() == sub.rows.tobytes()
    # Backspace: back to the root; the request no longer asks for a subtree
    feed(arena, key(pygame.K_BACKSPACE, "\b"))
    assert tv.focus_depth == 0 and ctl.tree_request.tops == ()
    assert app.scene is arena


def test_arena_pin_esc_find_and_export(app, arena_with_trees, tmp_path):
    arena = arena_with_trees
    arena.explorer.export_dir = tmp_path
    tv, area = arena.trees[0], arena._tree_area(arena.layout["panels"][0])
    row = _aim(tv, area)
    pos = tv.node_center(row)
    feed(arena, motion(pos), down(pos, 3), up(pos, 3))
    assert tv.selected is not None and tv.selected.row == row
    feed(arena, key(pygame.K_ESCAPE, "\x1b"))       # dismisses; the arena stays
    assert tv.selected is None and app.scene is arena
    # find the same node by its move's name
    name = tv.row_name(tv.snapshot, row)
    feed(arena, key(pygame.K_SLASH, "/"), *[key(0, ch) for ch in name],
         key(pygame.K_RETURN, "\r"))
    assert tv.selected is not None and tv.selected.node_id == int(tv.snapshot.node[row])
    assert arena.message.startswith("found")
    feed(arena, key(pygame.K_x, "x"))
    jp, = tmp_path.glob("*.json")
    assert str(jp) in arena.message
    data = json.loads(jp.read_text())
    assert data["rows"] == len(tv.snapshot) and data["visits"] == int(tv.snapshot.visits[0])


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory) -> Path:
    return _play(tmp_path_factory.mktemp("explorer_replay"), record_trees=200)


def test_replay_click_reroots_on_the_recorded_tree_and_a_crumb_goes_back(app, replay_file):
    scene = _open(app, replay_file, turn=3)
    app.run(max_frames=app.frame + 2)
    tv = scene.trees[0]
    from sandbox.app.replay_scene import _tree_area
    area = _tree_area(scene.layout["panels"][0])
    full = tv.snapshot
    row = _aim(tv, area)
    pos = tv.node_center(row)
    for e in (motion(pos), down(pos), up(pos)):
        scene.handle_event(e)
    assert tv.focus_depth == 1
    assert sorted(tv.snapshot.node.tolist()) == sorted(full.node[descendants(full, row)].tolist())
    scene.draw(app.screen)
    (i, r), = [c for c in tv._crumb_rects if c[0] == 0]
    crumb = (area.x + r.centerx, area.y + r.centery)
    for e in (down(crumb), up(crumb)):
        scene.handle_event(e)
    assert tv.focus_depth == 0 and tv.snapshot is full
    # the wheel zooms the replay's tree too
    for e in (motion(area.center),
              pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, precise_x=0.0, precise_y=1.0,
                                 flipped=False)):
        scene.handle_event(e)
    assert tv.zoom > 1.0 or tv.focus_depth == 1


def test_find_leaves_no_stale_hover_box(app, arena_with_trees, monkeypatch):
    """The mouse rests on a node with its hover box; '/' and a find move the
    view: the box of the node that was under the mouse must go (it no longer
    is), and the found node's pinned facts show instead."""
    arena = arena_with_trees
    tv, area = arena.trees[0], arena._tree_area(arena.layout["panels"][0])
    row = _aim(tv, area)
    pos = tv.node_center(row)
    feed(arena, motion(pos))
    assert arena.hover_info is not None and arena.hover_info.row == row
    other = next(r for r in tv.snapshot.children(row).tolist())
    path = tv.row_name(tv.snapshot, row) + "," + tv.row_name(tv.snapshot, other)
    feed(arena, key(pygame.K_SLASH, "/"))
    assert arena.hover_info is None              # the find box opened: no hover box
    feed(arena, *[key(0, ch) for ch in path], key(pygame.K_RETURN, "\r"))
    assert arena.message.startswith("found")
    assert arena.hover_info is None and tv.hovered is None
    drawn = []
    monkeypatch.setattr(tv, "draw_tooltip", lambda *a, **k: drawn.append(a))
    arena.draw(app.screen)
    assert drawn == []
    feed(arena, motion(pos))                     # a mouse move brings hover back
    assert arena.hover_info is not None

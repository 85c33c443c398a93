"""`python -m sandbox bench --explorer`: the tree explorer's frame times on a
1,000,000-node tree (target: p95 <= 16.7 ms, one frame at 60 Hz, with the dummy
driver).

One Smitsimax search on the primary bench case's explorer settings
(BenchCase.explorer_*: snakes, 2 players on 19x19, depth 40; seed 1, an
iteration budget run in chunks of 20,000) grows agent 0's tree past
1,000,000 nodes. The explorer never draws
the whole tree: what a panel shows is a snapshot of the visible part, the
arena's TREE_NODES (4,000) most-visited nodes under the view's root
(sbx_search_snapshot_at). Zooming in until the panel shows part of one
child of that root makes the child the root (TreeView._descend: level of
detail), and the view is given C's snapshot of that subtree; zooming out
past the root goes back up. Each frame rasterises only the levels on the
panel, with the nodes off it culled before any drawing (dust merges into
its pixel column). A timed frame is what the arena's UI thread does per
frame: a new snapshot handed to the view if one came, the wheel event
through ExplorerInput (a new root is cut from the snapshots the view has
in numpy), then TreeView.draw into a panel-sized surface (a re-render,
since the zoom changed), paced at 60 frames a second as the app's loop
is -- zooming in about a point of the best line 40
wheel clicks (x1.25 each, ~x7,500 in all), then out again. Between frames,
as the arena's controller does on its own thread when the view's root has
changed (TreeRequest.tops), C takes the top of the new root's subtree
(timed apart); the next frame hands it to the view. Re-rooting by a click
(a C snapshot of the clicked node's subtree, then its render, in one go)
is timed apart too, as one-off frames.
"""
from __future__ import annotations

import os
import statistics
import time
from typing import Any, Callable

TREE_TARGET = 1_000_000
VISIBLE_ROWS = 4_000         # the snapshot of the visible part: arena.TREE_NODES
PANEL = (948, 301)           # the tree area of a two-player arena at 1920x1080 (its widest)
WHEEL_CLICKS = 40
FRAME_TARGET_MS = 1000.0 / 60.0


def _p(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))]


def measure(quick: bool = False, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from .figures import primary
    from ..games import move_namer, move_names
    from ..native import Game, InvalidArgument, Search, SearchParams
    from ..render.tree_explore import ExplorerInput
    from ..render.tree_view import TreeView

    pygame.display.init()
    pygame.font.init()
    target = TREE_TARGET // 10 if quick else TREE_TARGET
    plugin, case = primary()
    if case.explorer_game_params is None or case.explorer_search is None:
        raise InvalidArgument(f"bench --explorer: {plugin.kind}'s primary bench case names no "
                              "explorer settings (BenchCase.explorer_*)")
    game = Game(plugin.kind, case.explorer_game_params, seed=1)
    search = Search(game, SearchParams(**case.explorer_search), seed=1)
    t0 = time.perf_counter()
    while search.stats().nodes[0] < target:
        if search.run(iterations=20_000).stop_reason == "node_cap":
            break
        if progress:
            progress(f"growing the tree: {search.stats().nodes[0]:,} nodes")
    grow_s = time.perf_counter() - t0
    nodes = search.stats().nodes[0]

    t0 = time.perf_counter()
    snap = search.snapshot(0, VISIBLE_ROWS)
    snapshot_ms = (time.perf_counter() - t0) * 1000.0
    view = TreeView(0, move_name=move_namer(move_names(game), 0), mode="icicle")
    view.update(snap)
    surf = pygame.Surface(PANEL)
    rect = surf.get_rect()
    view.draw(surf, rect)
    inp = ExplorerInput()
    panes = [(view, rect)]
    # aim at a node a few levels down the best line: zooming keeps it under
    # the cursor, so deeper and deeper levels of its subtree fill the panel
    line = snap.best_line()
    aim = view.node_center(line[min(4, len(line) - 1)]) or rect.center
    inp.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=aim, rel=(0, 0), buttons=(0, 0, 0)),
               panes)
    frames: list[float] = []
    cpu: list[float] = []        # the same frames in this process's CPU time
    renders = view.render_count
    fetch_ms: list[float] = []
    deepest, pending = 0, None
    for dy in [1] * WHEEL_CLICKS + [-1] * WHEEL_CLICKS:
        ev = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, precise_x=0.0,
                                precise_y=float(dy), flipped=False)
        t0, c0 = time.perf_counter(), time.process_time()
        if pending is not None:       # the controller's new snapshot arrives
            view.update(pending)
            pending = None
        inp.handle(ev, panes)
        view.draw(surf, rect)
        spent = time.perf_counter() - t0
        frames.append(spent * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
        deepest = max(deepest, len(view.focus_path))
        # Between frames, as the arena's controller does on its own thread
        # (TreeRequest.tops): the top of the view's new root's subtree, in C.
        if view.focus_path != view.source.top_path:
            f0 = time.perf_counter()
            pending = search.snapshot(0, VISIBLE_ROWS, top=list(view.focus_path))
            fetch_ms.append((time.perf_counter() - f0) * 1000.0)
        # paced as the app's main loop paces its frames (clock.tick(60)):
        # a frame starts every 1/60 s, the rest of the slot is idle
        time.sleep(max(0.0, FRAME_TARGET_MS / 1000.0 - (time.perf_counter() - t0)))
    renders = view.render_count - renders
    # re-root on the aimed node: C's snapshot of its subtree, then a frame
    reroots = []
    for depth in (2, 4, 6):
        row = line[min(depth, len(line) - 1)]
        view.go_up_to(0)
        view.update(snap)
        view.draw(surf, rect)
        t0 = time.perf_counter()
        view.reroot(row)
        sub = search.snapshot(0, VISIBLE_ROWS, top=list(view.focus_path))
        view.update(sub)
        view.draw(surf, rect)
        reroots.append((time.perf_counter() - t0) * 1000.0)
    search.close()
    game.close()
    kind = plugin.kind
    p95 = _p(frames, 0.95)
    return {
        "game": kind, "tree_nodes": int(nodes), "grow_seconds": round(grow_s, 1),
        "visible_rows": len(snap), "snapshot_ms": round(snapshot_ms, 2),
        "panel": list(PANEL), "zoom_frames": len(frames), "renders": renders,
        "subtree_fetches": len(fetch_ms), "deepest_root": deepest,
        "subtree_snapshot_ms_max": round(max(fetch_ms, default=0.0), 2),
        "max_zoom": round(1.25 ** WHEEL_CLICKS),
        "frame_ms_p50": round(statistics.median(frames), 2),
        "frame_ms_p95": round(p95, 2), "frame_ms_max": round(max(frames), 2),
        "target_ms": round(FRAME_TARGET_MS, 1), "met": p95 <= FRAME_TARGET_MS,
        "frame_cpu_ms_p50": round(statistics.median(cpu), 2),
        "frame_cpu_ms_p95": round(_p(cpu, 0.95), 2),
        "load_average": round(os.getloadavg()[0], 2), "cpus": os.cpu_count(),
        "reroot_frame_ms": [round(x, 1) for x in reroots],
        "video_driver": os.environ.get("SDL_VIDEODRIVER", ""),
    }


def print_figures(r: dict[str, Any], quick: bool) -> None:
    mark = "not judged (quick)" if quick else "met" if r["met"] else "NOT MET"
    print(f"  tree explorer ({r['game']}): agent 0's tree {r['tree_nodes']:,} nodes (grown in "
          f"{r['grow_seconds']} s); the view's snapshot {r['visible_rows']:,} rows "
          f"({r['snapshot_ms']} ms in C); panel {r['panel'][0]}x{r['panel'][1]}, "
          f"driver {r['video_driver'] or 'default'}")
    print(f"    zooming ({r['zoom_frames']} frames to x{r['max_zoom']:,} and back, "
          f"{r['renders']} re-renders, {r['subtree_fetches']} C subtree snapshots, roots down "
          f"to depth {r['deepest_root']}): frame p50 {r['frame_ms_p50']} ms, "
          f"p95 {r['frame_ms_p95']} ms, max {r['frame_ms_max']} ms   "
          f"target p95 <= {r['target_ms']} ms  {mark}")
    print(f"    C subtree snapshots between frames (the arena's controller thread): "
          f"{r['subtree_fetches']}, at most {r['subtree_snapshot_ms_max']} ms each")
    print(f"    the same frames in CPU time: p50 {r['frame_cpu_ms_p50']} ms, p95 "
          f"{r['frame_cpu_ms_p95']} ms (load average {r['load_average']} on {r['cpus']} CPUs: "
          f"wall time includes waiting for a core)")
    print(f"    re-root frames (C subtree snapshot + render): "
          f"{', '.join(f'{x} ms' for x in r['reroot_frame_ms'])}")

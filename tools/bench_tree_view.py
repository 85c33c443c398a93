"""Time the tree views and (optionally) save screenshots. Not a test.

    python tools/bench_tree_view.py                  # timings
    python tools/bench_tree_view.py --png /tmp/treeviews

Prints the re-render time of a ~4,000-row icicle from a real snakes search,
the cost of a frame with nothing new (blit + overlays), node_at latency and
the node-link render time. Figures are min / median over repeats: the
machine may be shared, so the minimum is the cleaner number.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

from sandbox.games.snakes import MOVE_NAMES  # noqa: E402
from sandbox.native import Game, Search  # noqa: E402
from sandbox.render import palette  # noqa: E402
from sandbox.render.root_bars import draw_root_bars  # noqa: E402
from sandbox.render.step_view import StepAnimation  # noqa: E402
from sandbox.render.tree_view import TreeView  # noqa: E402


def name(m: int) -> str:
    return MOVE_NAMES[m] if 0 <= m < 4 else "pass"


def timed(fn, n: int) -> tuple[float, float]:
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1e3)
    ts.sort()
    return ts[0], ts[n // 2]


def search(iterations: int, seed: int = 1, **params) -> Search:
    g = Game("snakes", seed=seed)
    s = Search(g, {"max_depth": 10, **params}, seed=seed)
    s.run(iterations=iterations)
    return s


def bench(size: tuple[int, int], repeats: int) -> None:
    s = search(300_000, seed=3)         # agent 2's tree fills the 4,000-row cap
    snap = s.snapshot(2, 4000)
    view = TreeView(2, palette.agent_color(2), name, mode="icicle")
    view.update(snap, s.params)
    rect = pygame.Rect((0, 0), size)
    surf = pygame.Surface(size)

    def rerender():
        view._rendered = None          # force: what a new snapshot costs
        view.prepare(rect)

    lo, med = timed(rerender, repeats)
    print(f"icicle re-render, {len(snap):,} rows of {snap.tree_nodes:,}, {size[0]}x{size[1]}: "
          f"min {lo:.2f} ms, median {med:.2f} ms")
    view.hover((size[0] // 2, size[1] // 2))
    before = view.render_count
    view.set_highlight(snap.node[snap.best_line()].tolist(), "select", 1.0)
    lo, med = timed(lambda: view.draw(surf, rect), repeats * 5)
    print(f"frame with nothing new (blit + hover + highlight): min {lo:.3f} ms, median {med:.3f} ms"
          f"  (re-renders during it: {view.render_count - before})")
    pts = [(x, y) for x in range(5, size[0], 37) for y in range(20, size[1] - 20, 23)]
    lo, med = timed(lambda: [view.node_at(p) for p in pts], repeats)
    print(f"node_at: {lo * 1e3 / len(pts):.1f} us per call (min), {med * 1e3 / len(pts):.1f} us "
          f"(median), {len(pts)} points")
    small = search(110, seed=2)     # near the 300-row node-link limit
    sn = small.snapshot(0, 4000)
    nl = TreeView(0, palette.agent_color(0), name)
    nl.update(sn, small.params)

    def rerender_nl():
        nl._rendered = None
        nl.prepare(rect)

    lo, med = timed(rerender_nl, repeats)
    print(f"node-link re-render, {len(sn)} rows ({nl.layout}): "
          f"min {lo:.2f} ms, median {med:.2f} ms")


def screenshots(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    size = (640, 420)
    rect = pygame.Rect((0, 0), size)

    s = search(20_000)
    for agent in (0, 1):
        snap = s.snapshot(agent, 4000)
        v = TreeView(agent, palette.agent_color(agent), name)
        v.update(snap, s.params)
        surf = pygame.Surface(size)
        v.draw(surf, rect)
        pos = (size[0] // 3, 90)
        info = v.hover(pos)
        v.draw(surf, rect)
        v.draw_tooltip(surf, pos, info)
        pygame.image.save(surf, str(out / f"icicle_agent{agent}.png"))

    big = search(300_000, seed=3)
    v = TreeView(2, palette.agent_color(2), name)
    v.update(big.snapshot(2, 4000), big.params)
    surf = pygame.Surface((900, 520))
    v.draw(surf, surf.get_rect())
    pygame.image.save(surf, str(out / "icicle_big.png"))

    dp = search(20_000, seed=5, death_penalty=True, max_depth=14)
    v = TreeView(1, palette.agent_color(1), name)
    v.update(dp.snapshot(1, 4000), dp.params)
    surf = pygame.Surface(size)
    v.draw(surf, rect)
    pygame.image.save(surf, str(out / "icicle_deep_doomed.png"))

    small = search(60, seed=2)
    v = TreeView(0, palette.agent_color(0), name)
    v.update(small.snapshot(0, 4000), small.params)
    surf = pygame.Surface(size)
    v.draw(surf, rect)
    pos = v._center(v.snapshot.best_line()[2])
    info = v.hover(pos)
    v.draw(surf, rect)
    v.draw_tooltip(surf, pos, info)
    pygame.image.save(surf, str(out / "nodelink_small.png"))

    surf = pygame.Surface((320, 150))
    draw_root_bars(surf, surf.get_rect(), s.root_stats(0), name, palette.agent_color(0),
                   chosen_move=s.best_moves()[0], title="Agent 0",
                   norm=(s.stats().norm_min[0], s.stats().norm_max[0]))
    pygame.image.save(surf, str(out / "root_bars.png"))

    # Step mode: two agents side by side, one frame per phase.
    st = search(3_000, seed=4)
    trace = st.step_traced()
    views = [TreeView(a, palette.agent_color(a), name) for a in range(2)]
    for a, vw in enumerate(views):
        vw.update(st.snapshot(a, 4000), st.params)
    rects = [pygame.Rect(0, 0, 470, 440), pygame.Rect(490, 0, 470, 440)]
    anim = StepAnimation(trace, 2, [palette.agent_color(a) for a in range(2)], name,
                         gamma=st.params.gamma)
    for phase, at in (("select", 0.7), ("joint", 0.5), ("simulate", 0.8), ("backprop", 0.4)):
        anim.restart()
        while anim.phase != phase:
            anim.update(10)
        anim.update(anim.phase_ms[anim.phase_index] * at)
        anim.apply(views)
        surf = pygame.Surface((960, 440))
        surf.fill(palette.BG)
        for vw, r in zip(views, rects):
            vw.draw(surf, r)
        anim.draw_overlay(surf, rects)
        pygame.image.save(surf, str(out / f"step_{anim.phase_index + 1}_{phase}.png"))
    print(f"screenshots in {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--png", type=Path, help="also save screenshots to this folder")
    ap.add_argument("--size", default="640x420", help="view size, WxH")
    ap.add_argument("--repeats", type=int, default=50)
    args = ap.parse_args()
    pygame.display.init()
    pygame.font.init()
    w, h = (int(v) for v in args.size.split("x"))
    bench((w, h), args.repeats)
    if args.png:
        screenshots(args.png)


if __name__ == "__main__":
    main()

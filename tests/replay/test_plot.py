"""Charts drawn without a display: `replay plot` writes a real, non-blank PNG."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pygame

from sandbox.render.charts import (MARKER_COLORS, draw_line_chart, draw_replay_charts,
                                   nice_ticks)
from sandbox.replay import compute_stats, read_replay

ROOT = Path(__file__).resolve().parents[2]


def _colors(surface: pygame.Surface) -> set[tuple[int, int, int]]:
    px = pygame.surfarray.array3d(surface).reshape(-1, 3)
    return {tuple(int(c) for c in row) for row in np.unique(px, axis=0)}


def test_plot_cli_headless(recorded, tmp_path):
    out = tmp_path / "charts.png"
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY",
                                                            "WAYLAND_DISPLAY")}
    proc = subprocess.run([sys.executable, "-m", "sandbox", "replay", "plot",
                           str(recorded.path), "--png", str(out), "--size", "900x700"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and proc.stdout.startswith("wrote ")
    img = pygame.image.load(str(out))
    assert img.get_size() == (900, 700)
    colors = _colors(img)
    assert len(colors) > 20
    for c in [(230, 80, 70), (90, 200, 90), (80, 140, 240)]:   # the players' lines
        assert c in colors


def test_plot_errors(recorded, tmp_path, capsys):
    from sandbox.cli import main
    assert main(["replay", "plot", str(recorded.path), "--png", str(tmp_path / "a.png"),
                 "--size", "big"]) == 2
    assert main(["replay", "plot", str(recorded.path), "--png", str(tmp_path / "a.png"),
                 "--size", "10x10"]) == 1
    assert main(["replay", "plot", str(recorded.path), "--png", str(tmp_path / "a.jpg")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(x.startswith("error: ") for x in err)


def test_replay_charts_on_a_surface(recorded):
    st = compute_stats(read_replay(recorded.path))
    surf = pygame.Surface((800, 600))
    rects = draw_replay_charts(surf, st, cursor=40)
    assert len(rects) == 3 and all(r.height > 150 for r in rects)
    colors = _colors(surf)
    assert MARKER_COLORS["elimination"] in colors and MARKER_COLORS["settings"] in colors
    assert (250, 250, 250) in colors                  # the cursor


def test_line_chart_edge_cases():
    surf = pygame.Surface((400, 200))
    nan = float("nan")
    # gaps, a lone point, a flat line, an all-NaN series, no series at all
    draw_line_chart(surf, (0, 0, 400, 200), {"a": [1, nan, 2, nan, nan, 3, 3],
                                             "b": [nan] * 7, "c": [5] * 7},
                    title="t", markers=[(2, "elimination"), (99, "settings")])
    assert len(_colors(surf)) > 5
    surf.fill((0, 0, 0))
    draw_line_chart(surf, pygame.Rect(10, 10, 200, 100), {}, title="empty")
    draw_line_chart(surf, (0, 0, 50, 30), {"x": [1.0]})
    assert surf.get_at((300, 150))[:3] == (0, 0, 0)      # stays inside its rect


def test_nice_ticks():
    assert nice_ticks(0, 10, 5) == [0, 2, 4, 6, 8, 10]
    assert nice_ticks(-0.93, 1.6, 5) == [-0.5, 0.0, 0.5, 1.0, 1.5]
    assert nice_ticks(3, 3) and nice_ticks(float("nan"), 1) == []


def test_replay_charts_reach_the_final_turn(recorded):
    """The step that ends the match eliminates someone: its marker sits at the
    match's last turn (one past the last decision) and is drawn, as is a
    cursor there (the replay scene at its last state)."""
    import dataclasses
    st = compute_stats(read_replay(recorded.path))
    assert st.turns == st.turn_numbers[-1] + 1
    final = tuple(m for m in st.markers if m.turn == st.turns)
    assert final and all(m.kind == "elimination" for m in final)
    surf = pygame.Surface((800, 600))
    draw_replay_charts(surf, dataclasses.replace(st, markers=final), cursor=st.turns)
    colors = _colors(surf)
    assert MARKER_COLORS["elimination"] in colors and (250, 250, 250) in colors

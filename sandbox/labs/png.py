"""The labs' PNGs, drawn on a plain Surface with no display (as
`replay plot`): the same drawing functions the Labs scene uses."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from .common import LabError

if TYPE_CHECKING:
    import pygame

    from .depth import DepthReport
    from .race import RaceReport
    from .rps import RpsReport

SIZE = (1200, 800)
NASHCONV_FLOOR = 1e-6     # the NashConv chart's bottom (log axis)


def check_png_path(path: str | os.PathLike) -> Path:
    """Checked before a lab runs: a wrong name fails at once, not after it."""
    out = Path(path)
    if out.suffix.lower() != ".png":
        raise LabError(f"{out}: the picture is written as PNG; name the file *.png")
    if not out.parent.is_dir():
        raise LabError(f"{out}: no such folder {out.parent}")
    return out


def _save(surface: "pygame.Surface", path: str | os.PathLike) -> Path:
    import pygame
    out = check_png_path(path)
    try:
        pygame.image.save(surface, str(out))
    except (pygame.error, OSError) as exc:
        raise LabError(f"{out}: cannot write the PNG: {exc}") from None
    return out


def _canvas(title: str) -> tuple["pygame.Surface", "pygame.Rect"]:
    import pygame

    from ..render import palette as pal
    from ..render.fonts import text
    surface = pygame.Surface(SIZE)
    surface.fill(pal.BG)
    t = text(title, 18, pal.TEXT, bold=True)
    surface.blit(t, (12, 8))
    return surface, pygame.Rect(0, 16 + t.get_height(), SIZE[0], SIZE[1] - 16 - t.get_height())


# ---------------------------------------------------------------------- RPS
def draw_rps(surface: "pygame.Surface", rect, names, strategy, frequencies, series,
             xs) -> None:
    """Strategy bars (the agent's, your smoothed frequencies) left, the
    running score right. `strategy` None: no round played yet."""
    import pygame

    from ..render import palette as pal
    from ..render.bars import draw_bars
    from ..render.charts import draw_line_chart
    from ..render.fonts import text
    rect = pygame.Rect(rect)
    left_w = rect.w * 2 // 5
    half = (rect.h - 8) // 2
    top = pygame.Rect(rect.x + 8, rect.y, left_w - 16, half)
    bottom = pygame.Rect(rect.x + 8, rect.y + half + 8, left_w - 16, half)
    if strategy is None:   # before the first round: nothing measured, so no bars
        # (uniform 33/33/33 bars read as a strategy and a history that are not there)
        for r, title in ((top, "Agent's strategy (root policy)"),
                         (bottom, "Your moves (frequency)")):
            draw_bars(surface, r, [], [], title=title)
            lab = text("no moves yet", 14, pal.TEXT_DIM)
            surface.blit(lab, lab.get_rect(center=r.center))
    else:
        draw_bars(surface, top, names, strategy,
                  pal.AGENT_COLORS[2], "Agent's strategy (root policy)", 0.0, 1.0, "{:.0%}",
                  highlight=int(max(range(len(strategy)), key=lambda i: strategy[i])))
        draw_bars(surface, bottom, names, frequencies,
                  pal.AGENT_COLORS[0], "Your moves (frequency)", 0.0, 1.0, "{:.0%}")
    draw_line_chart(surface, (rect.x + left_w, rect.y, rect.w - left_w - 8, rect.h), series,
                    {"you": pal.AGENT_COLORS[0], "ties": pal.TEXT_DIM,
                     "agent": pal.AGENT_COLORS[2]},
                    title="Running score", x_label="round", x_values=xs, y_label="wins so far")


def rps_png(report: "RpsReport", path: str | os.PathLike) -> Path:
    import numpy as np
    rounds = report.rounds
    surface, rect = _canvas(
        f"RPS playground: {report.policy}, {report.iterations:,} iterations/round, opponent "
        f"{report.opponent}{', models your history' if report.model_history else ''} | "
        f"you {report.rows[-1].you_wins}, ties {report.rows[-1].ties}, "
        f"agent {report.rows[-1].agent_wins}")
    series = {"you": np.cumsum([r.outcome < 0 for r in rounds]).tolist(),
              "ties": np.cumsum([r.outcome == 0 for r in rounds]).tolist(),
              "agent": np.cumsum([r.outcome > 0 for r in rounds]).tolist()}
    counts = np.bincount([r.you for r in rounds], minlength=len(report.names))
    draw_rps(surface, rect, report.names, rounds[-1].strategy, counts / counts.sum(), series,
             [r.round for r in rounds])
    return _save(surface, path)


# --------------------------------------------------------------------- race
def draw_race(surface: "pygame.Surface", rect, xs, nashconv, top, normalised: bool,
              colors=None, x_max: float | None = None) -> None:
    """NashConv (log y) above, the most-played share below, both against
    iterations on a log axis; one line per policy."""
    import pygame

    from ..render.charts import draw_line_chart
    rect = pygame.Rect(rect)
    h = (rect.h - 8) // 2
    xr = (min(xs[0], 100) if xs else 100, x_max) if x_max else None
    # an exact 0 (RPS visits split evenly) has no log: drawn at the floor
    nashconv = {k: [max(v, NASHCONV_FLOOR) for v in vals] for k, vals in nashconv.items()}
    draw_line_chart(surface, (rect.x, rect.y, rect.w, h), nashconv, colors,
                    title="NashConv", x_label="iterations (log)", x_values=xs,
                    y_label="normalised by the payoff range, log; 0 drawn at 1e-6" if normalised
                    else "payoff units, log; 0 drawn at 1e-6", x_log=True, y_log=True, x_range=xr)
    draw_line_chart(surface, (rect.x, rect.y + h + 8, rect.w, h), top, colors,
                    title="Most-played action's share", x_label="iterations (log)",
                    x_values=xs, y_label="row player's visits", x_log=True,
                    y_range=(0.0, 1.0), x_range=xr)


def race_png(report: "RaceReport", path: str | os.PathLike) -> Path:
    surface, rect = _canvas(f"Convergence race on {report.game}: self-play, seed {report.seed}, "
                            f"payoff range {report.payoff_range:g}")
    nc = {p: [pt.nashconv_norm for pt in pts] for p, pts in report.policies.items()}
    top = {p: [pt.top_share for pt in pts] for p, pts in report.policies.items()}
    draw_race(surface, rect.inflate(-16, -8), report.checkpoints, nc, top, True)
    return _save(surface, path)


# -------------------------------------------------------------------- depth
BACKUP_COLORS = {"raw": (230, 80, 70), "discounted": (235, 190, 60),
                 "normalised": (80, 140, 240)}


def draw_depth(surface: "pygame.Surface", rect, names, rows) -> None:
    """One bar group per backup: the root mean per action, the first ranked
    outlined and named."""
    import pygame

    from ..render.bars import draw_bars
    rect = pygame.Rect(rect)
    w = (rect.w - 16) // max(1, len(rows))
    for i, r in enumerate(rows):
        draw_bars(surface, (rect.x + i * (w + 8), rect.y, w, rect.h), names, r.means,
                  BACKUP_COLORS.get(r.backup, (150, 150, 150)),
                  f"{r.backup}: first {r.first}", highlight=names.index(r.first),
                  fmt="{:.3g}")


def depth_png(report: "DepthReport", path: str | os.PathLike) -> Path:
    surface, rect = _canvas(f"Depth-bias lab: {report.checkpoints[-1]:,} iterations per backup, "
                            f"max_depth {report.max_depth}"
                            + (f", siege_max {report.siege_max}"
                               if report.siege_max is not None else ""))
    draw_depth(surface, rect.inflate(-16, -16), report.names, report.rows[-1])
    return _save(surface, path)

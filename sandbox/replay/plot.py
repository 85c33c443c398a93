"""`replay plot`: the replay scene's three charts rendered to a PNG, with no
display (a plain Surface, pygame.font and pygame.image only)."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import ReplayError
from .reader import Replay
from .stats import ReplayStats, compute_stats

MIN_SIZE = (320, 240)
MAX_SIZE = (8000, 8000)


def plot_png(replay: Replay, out_path: str | os.PathLike, size: tuple[int, int] = (1200, 900),
             stats: ReplayStats | None = None) -> Path:
    w, h = int(size[0]), int(size[1])
    if not (MIN_SIZE[0] <= w <= MAX_SIZE[0] and MIN_SIZE[1] <= h <= MAX_SIZE[1]):
        raise ReplayError(f"plot size {w}x{h} out of range "
                          f"({MIN_SIZE[0]}x{MIN_SIZE[1]} .. {MAX_SIZE[0]}x{MAX_SIZE[1]})")
    from ..render.charts import draw_replay_charts, font
    import pygame

    stats = stats or compute_stats(replay)
    surface = pygame.Surface((w, h))
    head = font(20).get_linesize() + 8
    draw_replay_charts(surface, stats, rect=pygame.Rect(0, head, w, h - head))
    from ..render.charts import BACKGROUND, TEXT, _text
    pygame.draw.rect(surface, BACKGROUND, (0, 0, w, head))
    status = (f"winner {stats.winner_name}" if stats.winner_name else
              "no winner" if stats.finished else "unfinished")
    _text(surface, f"{stats.scenario} | seed {stats.seed} | {stats.turns} turns | {status}",
          (8, 4), TEXT, 20)
    out = Path(out_path)
    if out.suffix.lower() != ".png":
        raise ReplayError(f"{out}: the plot is written as PNG; name the file *.png")
    try:
        pygame.image.save(surface, str(out))
    except (pygame.error, OSError) as exc:
        raise ReplayError(f"{out}: cannot write the PNG: {exc}") from None
    return out

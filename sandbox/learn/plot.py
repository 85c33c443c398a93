"""The loss curve of a training run as a PNG (no display needed)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..native import SandboxError

SIZE = (900, 480)


def loss_png(losses: Sequence[tuple[int, float, float]], path: str | Path, title: str) -> Path:
    """Value and policy loss against the training step, a running mean over
    1% of the steps so the curve is readable, log y axis."""
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from ..render import palette as pal
    from ..render.charts import draw_line_chart
    from ..render.fonts import text
    out = Path(path)
    steps = [s for s, _, _ in losses]
    k = max(1, len(losses) // 100)

    def smooth(col: int) -> list[float]:
        vals = [row[col] for row in losses]
        acc, out_ = 0.0, []
        for i, v in enumerate(vals):
            acc += v
            if i >= k:
                acc -= vals[i - k]
            out_.append(acc / min(i + 1, k))
        return out_

    surface = pygame.Surface(SIZE)
    surface.fill(pal.BG)
    head = text(title, 18, pal.TEXT, bold=True)
    surface.blit(head, (12, 8))
    top = 16 + head.get_height()
    series = {"value loss (Huber)": smooth(1), "policy loss (KL)": smooth(2)}
    colors = {n: pal.AGENT_COLORS[i] for i, n in enumerate(series)}
    positive = all(v > 0 for vs in series.values() for v in vs)
    draw_line_chart(surface, (8, top, SIZE[0] - 16, SIZE[1] - top - 8), series, colors,
                    title="training loss", x_label="step", x_values=steps,
                    y_label="log" if positive else "", y_log=positive)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(out))
    except (pygame.error, OSError) as exc:
        raise SandboxError(f"{out}: cannot write the PNG: {exc}") from None
    return out

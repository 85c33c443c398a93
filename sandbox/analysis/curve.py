"""Exact NashConv against the search budget (`python -m sandbox exploit --curve`).

One curve per series: a series is the scenario with its own settings (say
growing-tree CFR, or Smitsimax with regret matching) and, at each budget,
the exact NashConv of that search in self-play (exploit.py: every decision
state enumerated, a fresh search at each). With several seeds a point is
the median over the seeds and the worst seed is kept beside it. What does
not depend on the searches (the tree, the equilibrium) is solved once.

The picture puts both axes on a log scale: CFR's average strategy has
NashConv falling like a power of the iterations, a straight line there.
"""
from __future__ import annotations

import os
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from .exploit import MAX_SEEDS, ExploitError, exploit_scenario

MAX_BUDGETS = 12
NASHCONV_FLOOR = 1e-7      # an exact 0 on the log axis
SIZE = (1200, 700)


@dataclass(frozen=True)
class CurvePoint:
    iterations: int
    nashconv: float        # the median over the seeds (one seed: its figure)
    worst: float           # the largest over the seeds
    seeds: tuple[float, ...]


@dataclass(frozen=True)
class CurveReport:
    scenario: str
    game: str
    game_params: str
    agent: int
    first_seed: int
    series: dict[str, list[CurvePoint]]
    settings: dict[str, list[str]]     # each series' own --set changes
    searches: dict[str, str]           # algorithm/policy/final_move per series
    uniform_nashconv: float
    elapsed_s: float

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["series"] = {k: [asdict(p) for p in v] for k, v in self.series.items()}
        return d

    def text(self) -> str:
        names = list(self.series)
        nseeds = len(next(iter(self.series.values()))[0].seeds)
        lines = [f"Exact NashConv against iterations per search: {self.scenario} "
                 f"({self.game} {self.game_params}), player {self.agent}'s search in self-play, "
                 + (f"seed {self.first_seed}" if nseeds == 1 else
                    f"median of seeds {self.first_seed}..{self.first_seed + nseeds - 1} "
                    "(worst seed in brackets)")]
        for n in names:
            lines.append(f"  {n}: {self.searches[n]}"
                         + (f"  ({', '.join(self.settings[n])})" if self.settings[n] else ""))
        lines.append(f"  uniform random play: {self.uniform_nashconv:.6f}")
        widths = [max(12 if nseeds == 1 else 22, len(n)) for n in names]
        lines.append(f"{'iterations':>10} |" + "".join(f" {n:>{w}}" for n, w in zip(names, widths)))
        budgets = [p.iterations for p in self.series[names[0]]]
        for i, b in enumerate(budgets):
            cells = []
            for n, w in zip(names, widths):
                p = self.series[n][i]
                cell = f"{p.nashconv:.6f}" if nseeds == 1 else f"{p.nashconv:.6f} ({p.worst:.6f})"
                cells.append(f" {cell:>{w}}")
            lines.append(f"{b:>10,} |" + "".join(cells))
        lines.append(f"elapsed {self.elapsed_s:.1f} s")
        return "\n".join(lines)


def budgets_arg(text: str) -> list[int]:
    """--curve 10,100,1000: increasing positive iteration budgets."""
    try:
        out = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ExploitError(f"--curve: expected iteration counts like 10,100,1000, "
                           f"got {text!r}") from None
    if not out or len(out) > MAX_BUDGETS:
        raise ExploitError(f"--curve: give 1..{MAX_BUDGETS} budgets (got {len(out)})")
    if any(b < 1 for b in out) or any(a >= b for a, b in zip(out, out[1:])):
        raise ExploitError(f"--curve: budgets must be >= 1 and increasing, got {text!r}")
    return out


def series_arg(text: str) -> tuple[str, list[str]]:
    """--series NAME:PATH=VALUE[,PATH=VALUE...] (NAME alone: the scenario as
    it is). Values cannot contain commas."""
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not name or not all(c.isalnum() or c in "-_+." for c in name):
        raise ExploitError(f"--series {text!r}: start with a name (letters, digits, - _ + .), "
                           "then :PATH=VALUE,...")
    sets = [t.strip() for t in rest.split(",") if t.strip()] if sep else []
    for s in sets:
        if "=" not in s:
            raise ExploitError(f"--series {name}: {s!r} is not PATH=VALUE")
    return name, sets


def exploit_curve(scenario, budgets: Sequence[int], series: Sequence[tuple[str, list[str]]],
                  agent: int = 0, first_seed: int | None = None, seeds: int = 1,
                  progress: Callable[[str, int, int], None] | None = None,
                  equilibrium: bool = True) -> CurveReport:
    """Exact NashConv of each series at each budget (seeds first_seed ..
    first_seed+seeds-1, default the scenario's seed); `equilibrium` as
    exploit_scenario's."""
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 1 <= seeds <= MAX_SEEDS:
        raise ExploitError(f"--seeds must be in 1..{MAX_SEEDS}, got {seeds!r}")
    names = [n for n, _ in series]
    if len(set(names)) != len(names):
        raise ExploitError(f"--series: a name is used twice ({', '.join(names)})")
    t0 = time.perf_counter()
    first = scenario.seed if first_seed is None else first_seed
    cache: dict = {}
    out: dict[str, list[CurvePoint]] = {}
    searches: dict[str, str] = {}
    uniform = 0.0
    game = params = ""
    done, total = 0, len(series) * len(budgets) * seeds
    for name, sets in series:
        sc = scenario.with_settings(sets) if sets else scenario
        points = []
        for b in budgets:
            figures = []
            for k in range(seeds):
                rep = exploit_scenario(sc.model_copy(update={"seed": first + k}), agent, b,
                                       cache=cache, equilibrium=equilibrium)
                figures.append(rep.nashconv)
                uniform, game, params, searches[name] = (rep.uniform_nashconv, rep.game,
                                                         rep.game_params, rep.search)
                done += 1
                if progress:
                    progress(f"{name} {b:,}", done, total)
            points.append(CurvePoint(b, statistics.median(figures), max(figures),
                                     tuple(figures)))
        out[name] = points
    return CurveReport(scenario.name, game, params, agent, first, out,
                       {n: list(s) for n, s in series}, searches, uniform,
                       time.perf_counter() - t0)


def check_png_path(path: str | os.PathLike) -> Path:
    out = Path(path)
    if out.suffix.lower() != ".png":
        raise ExploitError(f"{out}: the picture is written as PNG; name the file *.png")
    if not out.parent.is_dir():
        raise ExploitError(f"{out}: no such folder {out.parent}")
    return out


def curve_png(report: CurveReport, path: str | os.PathLike) -> Path:
    """Both axes log: NashConv (0 drawn at NASHCONV_FLOOR) against iterations."""
    import pygame

    from ..render import palette as pal
    from ..render.charts import draw_line_chart
    from ..render.fonts import text
    out = check_png_path(path)
    surface = pygame.Surface(SIZE)
    surface.fill(pal.BG)
    nseeds = len(next(iter(report.series.values()))[0].seeds)
    title = text(f"Exact NashConv of self-play: {report.scenario}"
                 + (f", median of {nseeds} seeds" if nseeds > 1 else f", seed {report.first_seed}"),
                 18, pal.TEXT, bold=True)
    surface.blit(title, (12, 8))
    top = 16 + title.get_height()
    xs = [p.iterations for p in next(iter(report.series.values()))]
    series = {n: [max(p.nashconv, NASHCONV_FLOOR) for p in pts]
              for n, pts in report.series.items()}
    series["uniform random"] = [max(report.uniform_nashconv, NASHCONV_FLOOR)] * len(xs)
    colors = {n: pal.AGENT_COLORS[i % len(pal.AGENT_COLORS)] for i, n in enumerate(report.series)}
    colors["uniform random"] = pal.TEXT_DIM
    draw_line_chart(surface, (8, top, SIZE[0] - 16, SIZE[1] - top - 8), series, colors,
                    title="NashConv", x_label="iterations per search (log)", x_values=xs,
                    y_label=f"log; 0 drawn at {NASHCONV_FLOOR:g}", x_log=True, y_log=True)
    try:
        pygame.image.save(surface, str(out))
    except (pygame.error, OSError) as exc:
        raise ExploitError(f"{out}: cannot write the PNG: {exc}") from None
    return out

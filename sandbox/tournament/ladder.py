"""Budget ladders (`python -m sandbox strength --ladder`): does more search
buy strength? Each agent plays itself with four times the budget, at each
rung of a ladder of budgets (1,000 -> 4,000 -> 16,000 -> 64,000 iterations,
5 -> 20 -> 80 ms), paired seeds with the seats exchanged, as every strength
cell. A step's score is the bigger budget's; 0.5 means the extra search
bought nothing, below 0.5 that it made the agent weaker (a search that reads
noise as knowledge does that), and a game with many draws between good
players (goofspiel once both sides play near an equilibrium) settles near
0.5 from above.

The cells are strength cells (strength.Cell with an opponent budget), so a
ladder resumes and extends from its logs like the strength table. Markdown
(--markdown FILE [--section TITLE]) and a chart (--png FILE) of score
against budget, a panel per scenario and kind of budget.
"""
from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from datetime import datetime, timezone
from typing import Any, Sequence

from ..config import Budget, ScenarioError
from ..native import InvalidArgument
from .strength import (LADDER_GAMES, LADDER_ITERATIONS, LADDER_MS, Cell, CellResult,
                       budget_text, check_markdown_args, check_run_args, describe, load_average,
                       machine, play_cells, row_figures, run_lines, table_rows,
                       write_markdown)



def _list(text: str | None, default: Sequence[float], flag: str, kind: type) -> list:
    """"1000,4000,16000" -> [1000, 4000, 16000]; "0" or "" -> [] (none)."""
    if text is None:
        return [kind(v) for v in default]
    words = [w.strip() for w in text.split(",")]
    if words in ([""], ["0"]):
        return []
    try:
        values = [kind(w) for w in words]
    except ValueError:
        raise InvalidArgument(f"{flag}: expected numbers separated by commas, got "
                              f"{text!r}") from None
    if len(values) < 2:
        raise InvalidArgument(f"{flag}: a ladder needs at least two budgets, got {text!r}")
    if any(not (v > 0 and math.isfinite(v)) for v in values) or \
            any(b <= a for a, b in zip(values, values[1:])):
        raise InvalidArgument(f"{flag}: budgets must be positive and rising, got {text!r}")
    return values


def rungs(args: argparse.Namespace) -> list[tuple[Budget, Budget]]:
    """The steps (bigger, smaller): each rung against the one below it."""
    from ..config.scenario import budget_from_flags
    its = _list(args.ladder_iterations, LADDER_ITERATIONS, "--ladder-iterations", int)
    ms = _list(args.ladder_ms, LADDER_MS, "--ladder-ms", float)
    steps = []
    try:
        for lo, hi in zip(its, its[1:]):
            steps.append((budget_from_flags(hi, None), budget_from_flags(lo, None)))
        for lo, hi in zip(ms, ms[1:]):
            steps.append((budget_from_flags(None, hi), budget_from_flags(None, lo)))
    except ScenarioError as e:
        raise InvalidArgument(f"--ladder: {e}") from None
    if not steps:
        raise InvalidArgument("--ladder-iterations 0 and --ladder-ms 0 leave no step to play")
    return steps


def make_ladder_cells(args: argparse.Namespace) -> list[Cell]:
    if getattr(args, "opponent_iterations", None) is not None:
        raise InvalidArgument("--ladder sets both sides' budgets at each step: drop "
                              "--opponent-iterations")
    if args.opponents is not None:
        raise InvalidArgument("--ladder plays each agent against itself: drop --opponents")
    games = args.games if args.games is not None else LADDER_GAMES
    check_run_args(args, games)
    steps = rungs(args)
    cells = []
    for t, sc, rows in table_rows(args):
        for agent in rows:
            for hi, lo in steps:
                cell = Cell(t, sc, agent, agent, hi, games, args.seed, args.turns,
                            opponent_budget=lo)
                try:
                    cell.check()
                except ScenarioError as exc:
                    raise InvalidArgument(f"{t.key}: {agent.name}: {exc}") from None
                cells.append(cell)
    return cells


# ---------------------------------------------------------------- the table
def step_label(c: Cell) -> str:
    return f"{budget_text(c.budget)} vs {budget_text(c.opponent_budget)}"


def lesser_budget(results: list[CellResult]) -> str:
    """What each step's smaller budget is, for the tables' legend: "a
    quarter of it" when every step is the default 4x, else the step's own."""
    def size(b: Budget) -> float:
        return b.iterations or b.ms
    if all(size(r.cell.budget) == 4 * size(r.cell.opponent_budget) for r in results):
        return "a quarter of it"
    return "the smaller budget of its step"


def text_table(results: list[CellResult]) -> str:
    lines = [f"  {'scenario':<24}{'agent':<32}{'step':<22}{'games':>6}{'score':>8}  "
             f"{'95% interval':<16}{'W':>5}{'D':>5}{'L':>5}  it/turn (more/less)"]
    from ..sim.series import format_interval
    for r in results:
        c = r.cell
        w, d, l_ = r.wdl()
        agent = f"{c.agent.name} ({describe(c.agent)})"
        lines.append(f"  {c.table.key[:23]:<24}{agent[:31]:<32}{step_label(c)[:21]:<22}"
                     f"{len(r.games):>6}{r.mean:>8.3f}  {format_interval(*r.interval())}  "
                     f"{w:>5}{d:>5}{l_:>5}  {r.iterations_text()}")
    return "\n".join(lines)


def table_markdown(results: list[CellResult], command: str, when: str, workers: str,
                   load: str = "n/a", seconds: float = 0.0) -> str:
    out = run_lines(command, when, workers, load, seconds) + [
        f"- score: the bigger budget's, against the same agent on {lesser_budget(results)}; "
        "0.5: the extra search bought nothing", ""]
    out.append("| scenario | agent | step | games | score | 95% interval | W / D / L "
               "| iterations per turn (more / less) |")
    out.append("|---|---|---|---:|---:|---|---|---|")
    for r in results:
        c = r.cell
        score, ci, wdl = row_figures(r)
        out.append(f"| {c.table.label or c.table.key} | {c.agent.name} ({describe(c.agent)}) | "
                   f"{step_label(c)} | {len(r.games)} | {score} | {ci} | {wdl} | "
                   f"{r.iterations_text()} |")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the chart
def ladder_png(results: list[CellResult], path: str, title: str) -> None:
    """Score against budget: a panel per (scenario, kind of budget), a line
    per agent through its steps (x: the bigger budget, log scale), the 95%
    interval as a bar, 0.5 marked."""
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from ..render import palette as pal
    from ..render.fonts import text as label_surface
    from .chart import SIZE, _save, check_png

    def text(surf, s: str, pos: tuple[int, int], color, size: int) -> None:
        surf.blit(label_surface(s, size, color), pos)

    check_png(path)
    panels: dict[tuple[str, str], list[CellResult]] = {}
    for r in results:
        kind = "iterations" if r.cell.budget.iterations else "ms"
        panels.setdefault((r.cell.table.label or r.cell.table.key, kind), []).append(r)
    keys = list(panels)
    cols = 2 if len(keys) > 1 else 1
    rows = max(1, math.ceil(len(keys) / cols))
    w, ph = SIZE[0], 260
    surf = pygame.Surface((w, 40 + rows * ph))
    surf.fill(pal.BG)
    text(surf, title, (12, 10), pal.TEXT, 16)
    agents = sorted({r.cell.agent.name for r in results})
    colors = pal.AGENT_COLORS
    color = {a: tuple(colors[i % len(colors)]) for i, a in enumerate(agents)}
    for i, key in enumerate(keys):
        x0, y0 = (i % cols) * (w // cols), 40 + (i // cols) * ph
        rect = pygame.Rect(x0 + 50, y0 + 28, w // cols - 80, ph - 70)
        text(surf, f"{key[0]} ({key[1]})", (x0 + 12, y0 + 6), pal.TEXT, 13)
        pygame.draw.rect(surf, pal.PANEL, rect)
        budgets = sorted({r.cell.budget.iterations or r.cell.budget.ms for r in panels[key]})
        lo_b, hi_b = math.log(budgets[0]), math.log(budgets[-1])

        def x_of(b: float) -> int:
            if hi_b == lo_b:
                return rect.centerx
            return int(rect.x + 20 + (math.log(b) - lo_b) / (hi_b - lo_b) * (rect.w - 40))

        def y_of(v: float) -> int:
            return int(rect.bottom - max(0.0, min(1.0, v)) * rect.h)

        for v in (0.0, 0.25, 0.5, 0.75, 1.0):
            y = y_of(v)
            pygame.draw.line(surf, pal.GRID if v != 0.5 else pal.TEXT_DIM,
                             (rect.x, y), (rect.right, y), 1 if v != 0.5 else 2)
            text(surf, f"{v:.2f}", (x0 + 12, y - 7), pal.TEXT_DIM, 11)
        for b in budgets:
            label = f"{b:,.0f} it" if key[1] == "iterations" else f"{b:g} ms"
            text(surf, label, (x_of(b) - 18, rect.bottom + 4), pal.TEXT_DIM, 11)
        by_agent: dict[str, list[CellResult]] = {}
        for r in panels[key]:
            by_agent.setdefault(r.cell.agent.name, []).append(r)
        for k, (name, rs) in enumerate(sorted(by_agent.items())):
            rs.sort(key=lambda r: r.cell.budget.iterations or r.cell.budget.ms)
            pts = []
            for r in rs:
                if not r.games:
                    continue
                bx = x_of(r.cell.budget.iterations or r.cell.budget.ms) + 3 * k
                lo, hi = r.interval()
                if not math.isnan(lo):
                    pygame.draw.line(surf, color[name], (bx, y_of(lo)), (bx, y_of(hi)), 1)
                pts.append((bx, y_of(r.mean)))
            for p in pts:
                pygame.draw.circle(surf, color[name], p, 4)
            if len(pts) > 1:
                pygame.draw.lines(surf, color[name], False, pts, 2)
        ly = rect.y + 4
        for name in sorted(by_agent):
            text(surf, name, (rect.right - 150, ly), color[name], 11)
            ly += 14
    _save(surf, path)


# ------------------------------------------------------------- command line
def run_ladder(args: argparse.Namespace, argv: Sequence[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    if args.png is not None:
        from .chart import check_png
        check_png(args.png)
    cells = make_ladder_cells(args)
    section = check_markdown_args(args)
    command = "python -m sandbox strength" + (" " + shlex.join(argv) if argv else "")
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = load_average()
    run = play_cells(cells, args, "ladder")
    results, seconds, label = run.results, run.seconds, run.executor
    table = table_markdown(results, command, when, label, load, seconds)
    if args.markdown is not None:
        from .strength import INTRO
        write_markdown(args, section, lambda: INTRO + "\n" + table, table)
    if args.png is not None:
        ladder_png(results, args.png, "budget ladders: the bigger budget's score against "
                                      f"the same agent on {lesser_budget(results)}")
    if args.json:
        data: dict[str, Any] = {
            "machine": machine(), "date": when, "load_average": load, "command": command,
            "executor": label, "seconds": round(seconds, 1), "logs": str(run.folder),
            "games_from_logs": run.reused, "steps": [r.to_dict() for r in results]}
        print(json.dumps(data, allow_nan=False), file=out)
    else:
        print(f"ladder: {len(results)} steps, each agent against itself on a quarter of "
              f"the budget, seats exchanged on paired seeds ({seconds:.1f} s, {label}"
              + (f"; {run.reused} of {run.total} games from the logs in {run.folder}"
                 if run.reused else "") + ")", file=out)
        print(text_table(results), file=out)
        for flag, value in (("markdown", args.markdown), ("png", args.png)):
            if value is not None:
                print(f"  {flag}: {value}", file=out)
    return 0

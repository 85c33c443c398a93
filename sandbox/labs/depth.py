"""Depth-bias lab (tutorial §13): one decision — Sprint, March or Siege,
each ending the episode after a random number of turns and paying points
per turn — searched with three backups side by side:

    raw         gamma 1, depth_normalize off: the longest plan collects most
    discounted  gamma 0.97: later points count less
    normalised  depth_normalize on: the score per turn reached

The game is `depthbias` (one agent; at turn 0 moves 0 sprint, 1 march,
2 siege, then move 3 `go` until the episode ends; parameters
sprint_min/sprint_max/sprint_points, march_*, siege_*). Each search is a
plain C Smitsimax search from the same root; Python reads the root means
between chunks and ranks the actions by mean.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable

import numpy as np

from ..native import Game, Search, SearchParams
from .common import iterations_arg, seed_arg
from .kinds import depthbias_game

MIN_DEPTH = 20           # >= the longest default episode (siege 18 turns)
SIEGE_MAX_LIMIT = 60     # the slider's and --siege-max's upper end (max_depth <= 64)
BACKUPS: dict[str, dict[str, Any]] = {
    "raw": {"gamma": 1.0, "depth_normalize": False},
    "discounted": {"gamma": 0.97, "depth_normalize": False},
    "normalised": {"gamma": 1.0, "depth_normalize": True},
}


def max_depth_for(siege_max: int | None) -> int:
    """The per-iteration depth: at least MIN_DEPTH, and past the longest
    Siege so every iteration reaches the episode's end."""
    return max(MIN_DEPTH, (siege_max or 0) + 2)


@dataclass(frozen=True)
class BackupRow:
    backup: str
    iterations: int
    means: tuple[float, ...]         # per action (root move order)
    visits: tuple[int, ...]
    ranking: tuple[int, ...]         # actions, best mean first
    ranked: tuple[str, ...]          # their names
    first: str                       # name of the action ranked first


class DepthLab:
    """Three searches of one game; `advance_to(n)` runs each to n iterations."""

    def __init__(self, siege_max: int | None = None, seed: int = 1,
                 game_factory: Callable[[str], Game] | None = None) -> None:
        self.seed = seed_arg(seed)
        if siege_max is not None and (isinstance(siege_max, bool) or
                                      not 1 <= siege_max <= SIEGE_MAX_LIMIT):
            from .common import LabError
            raise LabError(f"--siege-max must be 1..{SIEGE_MAX_LIMIT} (got {siege_max})")
        self.siege_max = siege_max
        params = "" if siege_max is None else f"siege_max={int(siege_max)}"
        self.game = (game_factory or depthbias_game)(params)
        self.actions = self.game.legal_moves(0)
        self.names = [self.game.move_name(0, m) for m in self.actions]
        depth = max_depth_for(siege_max)
        self.searches = {
            name: Search(self.game, SearchParams(max_depth=depth, tree_reuse=False, **knobs),
                         seed=self.seed)
            for name, knobs in BACKUPS.items()}
        self.done = 0

    def close(self) -> None:
        for s in self.searches.values():
            s.close()
        self.game.close()

    def __enter__(self) -> "DepthLab":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def advance_to(self, n: int) -> None:
        for s in self.searches.values():
            have = s.stats().iterations
            if n > have:
                s.run(iterations=n - have)
        self.done = max(self.done, int(n))

    def rows(self) -> list[BackupRow]:
        out = []
        for name, s in self.searches.items():
            by_move = {m.move: m for m in s.root_stats(0)}
            means = np.array([by_move[a].mean if a in by_move else np.nan
                              for a in self.actions])
            vis = tuple(int(by_move[a].visits) if a in by_move else 0 for a in self.actions)
            # unvisited actions rank last; ties keep move order (stable sort)
            key = np.where(np.isnan(means), -np.inf, means)
            order = tuple(int(i) for i in np.argsort(-key, kind="stable"))
            out.append(BackupRow(name, int(s.stats().iterations),
                                 tuple(float(m) for m in means), vis,
                                 tuple(self.actions[i] for i in order),
                                 tuple(self.names[i] for i in order), self.names[order[0]]))
        return out


@dataclass
class DepthReport:
    siege_max: int | None
    max_depth: int
    names: list[str]
    checkpoints: list[int]
    rows: list[list[BackupRow]]      # per checkpoint, per backup

    def text(self) -> str:
        final = self.rows[-1]
        lines = [f"Depth-bias lab: {self.checkpoints[-1]:,} iterations per backup, max_depth "
                 f"{self.max_depth}" + (f", siege_max {self.siege_max}"
                                        if self.siege_max is not None else ""),
                 "root mean per action (the backed-up score); first = best mean"]
        w = max(10, *(len(n) for n in self.names))
        lines.append(f"{'iterations':>10} {'backup':<11} "
                     + " ".join(f"{n:>{w}}" for n in self.names) + "  first")
        for cp, rows in zip(self.checkpoints, self.rows):
            for r in rows:
                lines.append(f"{cp:>10,} {r.backup:<11} "
                             + " ".join(f"{m:>{w}.4g}" for m in r.means) + f"  {r.first}")
        lines.append("ranking: " + "; ".join(f"{r.backup}: " + " > ".join(r.ranked)
                                             for r in final))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"lab": "depth", "siege_max": self.siege_max, "max_depth": self.max_depth,
                "actions": self.names, "checkpoints": self.checkpoints,
                "rows": [[asdict(r) for r in rows] for rows in self.rows]}


def run_depth(iterations: int = 20_000, siege_max: int | None = None, seed: int = 1,
              game_factory: Callable[[str], Game] | None = None) -> DepthReport:
    from .common import checkpoints
    iterations = iterations_arg(iterations)
    with DepthLab(siege_max, seed, game_factory) as lab:
        cps = checkpoints(iterations, first=min(1000, iterations))
        rows = []
        for cp in cps:
            lab.advance_to(cp)
            rows.append(lab.rows())
        return DepthReport(siege_max, max_depth_for(siege_max), lab.names, cps, rows)

"""Convergence race (tutorial §10-§11): each selection policy in self-play
on a one-shot matrix game, its NashConv and most-played share against
iterations.

Per policy ONE Smitsimax search holds both agents' trees (depth 1, no tree
reuse); it runs in chunks up to log-spaced checkpoints, and at each one the
two root `policy` vectors (the average strategy for Exp3 / RM, visit shares
for the UCB family) are scored with matrix_nashconv on the game's own
payoff tables. NashConv is given raw (payoff units) and normalised by the
tables' payoff range (max - min over both tables).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

import numpy as np

from ..analysis.nashconv import matrix_nashconv
from ..native import Search
from .common import (GTCFR_ENTRY, checkpoints, entries_arg, iterations_arg, one_shot_params,
                     seed_arg, strategy, visits)
from .kinds import matrix_game, matrix_params, payoff_tables

DEFAULT_POLICIES = "ucb1,ucb1_tuned,exp3,rm,rm_plus,gtcfr"


@dataclass(frozen=True)
class RacePoint:
    iterations: int
    nashconv: float              # raw, payoff units
    nashconv_norm: float         # / payoff range
    top_share: float             # the row player's most-played action's share of visits
    top_move: int
    x: tuple[float, ...]         # row player's root policy
    y: tuple[float, ...]         # column player's


@dataclass
class Runner:
    policy: str                  # the entry's label: a policy, or policy:variant
    search: Search
    base: str                    # the policy itself
    settings: dict[str, Any] = field(default_factory=dict)   # the variant's own
    in_force: str = ""
    points: list[RacePoint] = field(default_factory=list)


class RaceLab:
    """One search per policy; `advance_to(n)` runs every one to n iterations
    (C does the iterations) and records a point."""

    def __init__(self, game: str = "rps", policies: Sequence[str] | str = DEFAULT_POLICIES,
                 seed: int = 1) -> None:
        entries = entries_arg(policies if isinstance(policies, str) else ",".join(policies))
        self.game_spec = game
        self.seed = seed_arg(seed)
        self.game = matrix_game(matrix_params(game))
        self.a, self.b = payoff_tables(self.game)
        self.rows, self.cols = self.a.shape
        self.range = float(max(self.a.max(), self.b.max()) - min(self.a.min(), self.b.min()))
        self.names = ([self.game.move_name(0, m) for m in range(self.rows)],
                      [self.game.move_name(1, m) for m in range(self.cols)])
        # the same seed for every policy: they differ only in the policy
        # random_threshold 10 (the tutorial's): two decoupled UCB1 trees in
        # one search that both start deterministic pick in lockstep on a
        # symmetric table (always the diagonal: every mean 0, so perfect
        # round robin, a fake "uniform"); ten random first picks desync
        # them. Exp3 and RM sample from their own strategy and ignore it.
        # gtcfr: the policy setting is not its own (any valid name will do)
        self.runners = [Runner(label, Search(self.game,
                                             one_shot_params(p if p != GTCFR_ENTRY else "ucb1",
                                                             random_threshold=10, **extra),
                                             seed=self.seed), p, extra)
                        for label, p, extra in entries]
        self.done = 0

    def close(self) -> None:
        for r in self.runners:
            r.search.close()
        self.game.close()

    def __enter__(self) -> "RaceLab":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def point(self, r: Runner) -> RacePoint:
        """The current checkpoint of one policy, from its root stats."""
        s0, s1 = r.search.root_stats(0), r.search.root_stats(1)
        x, y = strategy(s0, self.rows), strategy(s1, self.cols)
        nc = matrix_nashconv(self.a, self.b, x, y)
        v = visits(s0, self.rows)
        top = int(np.argmax(v))
        share = float(v[top] / v.sum()) if v.sum() > 0 else 0.0
        return RacePoint(self.done, nc, nc / self.range if self.range > 0 else nc, share, top,
                         tuple(float(p) for p in x), tuple(float(p) for p in y))

    def advance_to(self, n: int, record: bool = True) -> list[RacePoint]:
        """Run every policy's search up to n iterations in all; a point each
        (kept in the runners' `points` unless record is False)."""
        n = int(n)
        out: list[RacePoint] = []
        for r in self.runners:
            if n > r.search.stats().iterations:
                r.search.run(iterations=n - r.search.stats().iterations)
        self.done = max(self.done, n)
        if not record:
            return out
        for r in self.runners:
            st = r.search.stats()
            r.in_force = st.algorithm if r.base == GTCFR_ENTRY else st.policy
            p = self.point(r)
            r.points.append(p)
            out.append(p)
        return out


@dataclass
class RaceReport:
    game: str
    seed: int
    payoff_range: float
    a: list[list[float]]
    b: list[list[float]]
    names: tuple[list[str], list[str]]
    checkpoints: list[int]
    policies: dict[str, list[RacePoint]]
    in_force: dict[str, str]
    base: dict[str, str] = field(default_factory=dict)   # label -> policy
    variant_settings: dict[str, dict[str, Any]] = field(default_factory=dict)  # label -> extra

    def text(self) -> str:
        lines = [f"Convergence race on {self.game} (self-play, one search per policy, seed "
                 f"{self.seed})",
                 f"NashConv over the payoff range {self.payoff_range:g} (times "
                 f"{self.payoff_range:g}: payoff units)",
                 "top share: the row player's most-played action's share at the end"]
        for pol, alias in self.in_force.items():
            if alias != self.base.get(pol, pol):
                lines.append(f"note: {pol} runs as {alias} in this build (not implemented in C)")
        pols = list(self.policies)
        # one narrow column per policy (the raw figure is the normalised one
        # times the range, and the top share is shown once, at the end: the
        # table with all three per policy ran to 170 columns)
        widths = [max(9, len(p)) for p in pols]
        lines.append(f"{'iterations':>10} |" + "".join(f" {p:>{w}}" for p, w in zip(pols, widths)))
        for i, it in enumerate(self.checkpoints):
            lines.append(f"{it:>10,} |" + "".join(
                f" {self.policies[p][i].nashconv_norm:>{w}.3g}" for p, w in zip(pols, widths)))
        lines.append(f"{'top share':>10} |" + "".join(
            f" {self.policies[p][-1].top_share:>{w}.3f}" for p, w in zip(pols, widths)))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"lab": "race", "game": self.game, "seed": self.seed,
                "payoff_range": self.payoff_range, "a": self.a, "b": self.b,
                "moves": list(self.names), "checkpoints": self.checkpoints,
                "policy_in_force": self.in_force,
                "variant_settings": self.variant_settings,
                "policies": {p: [asdict(pt) for pt in pts] for p, pts in self.policies.items()}}


def run_race(game: str = "rps", iterations: int = 100_000,
             policies: str | Sequence[str] = DEFAULT_POLICIES, seed: int = 1) -> RaceReport:
    iterations = iterations_arg(iterations)
    with RaceLab(game, policies, seed) as lab:
        cps = checkpoints(iterations)
        for cp in cps:
            lab.advance_to(cp)
        return RaceReport(game, lab.seed, lab.range, lab.a.tolist(), lab.b.tolist(), lab.names,
                          cps, {r.policy: list(r.points) for r in lab.runners},
                          {r.policy: r.in_force for r in lab.runners},
                          {r.policy: r.base for r in lab.runners},
                          {r.policy: r.settings for r in lab.runners if r.settings})

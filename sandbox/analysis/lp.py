"""Zero-sum matrix games solved by linear programming.

The row player maximises x.A.y, the column player minimises it. The row
player's maximin strategy is the LP

    maximise v  subject to  (x A)_j >= v for every column j,  sum x = 1,  x >= 0

and the column player's is the same LP on -A^T (von Neumann's minimax
theorem makes the two values equal). scipy's HiGHS solves these exactly up
to rounding for the small games here (a goofspiel node has at most 5x5
actions); the strategies are clipped to >= 0 and renormalised so they are
probability vectors to the last bit.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


class LPError(RuntimeError):
    """The solver did not report an optimum (never expected for a finite game)."""


@dataclass(frozen=True)
class ZeroSumSolution:
    value: float          # the row player's equilibrium payoff
    row: np.ndarray       # an optimal (maximin) strategy of the row player
    col: np.ndarray       # an optimal (minimax) strategy of the column player


def _maximin(a: np.ndarray) -> tuple[float, np.ndarray]:
    """The row player's maximin value and strategy of payoff table a."""
    m, n = a.shape
    # variables: x_0..x_{m-1}, v ; linprog minimises, so minimise -v
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])        # v - (x A)_j <= 0
    b_ub = np.zeros(n)
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if res.status != 0:
        raise LPError(f"linprog: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    x /= x.sum()
    return float(res.x[-1]), x


def solve_zero_sum(a) -> ZeroSumSolution:
    """Value and optimal mixed strategies of the zero-sum game where the row
    player receives a[i, j] and the column player -a[i, j]."""
    a = np.asarray(a, dtype=np.float64)
    if a.ndim != 2 or a.size == 0 or not np.all(np.isfinite(a)):
        raise ValueError(f"a zero-sum game needs a finite, non-empty 2-D table (got shape "
                         f"{a.shape})")
    _, row = _maximin(a)
    _, col = _maximin(-a.T)
    # The value as the pair's payoff: the LP's v up to the solver's
    # tolerance, and consistent with the strategies returned.
    return ZeroSumSolution(float(row @ a @ col), row, col)

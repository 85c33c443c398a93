"""NashConv of a strategy pair in a two-player matrix (bimatrix) game.

NashConv(x, y) = [max_i (A y)_i - x.A.y] + [max_j (x B)_j - x.B.y]: how much
each player would gain by switching to a best response, summed. It is 0
exactly at a Nash equilibrium and needs no equilibrium to compute (a best
response to a fixed strategy is a pure action), so it is exact.
"""
from __future__ import annotations

import numpy as np


class StrategyError(ValueError):
    """A strategy that is not a probability vector of the right length."""


def as_strategy(p, n: int, name: str) -> np.ndarray:
    x = np.asarray(p, dtype=np.float64)
    if x.shape != (n,):
        raise StrategyError(f"{name}: expected {n} probabilities, got shape {x.shape}")
    if not np.all(np.isfinite(x)) or np.any(x < -1e-12) or abs(x.sum() - 1.0) > 1e-6:
        raise StrategyError(f"{name}: not a probability vector: {x.tolist()}")
    x = np.clip(x, 0.0, None)
    return x / x.sum()


def matrix_nashconv(a, b, x, y) -> float:
    """NashConv of (x, y) where the row player gets a[i, j], the column
    player b[i, j]."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != 2 or a.shape != b.shape:
        raise StrategyError(f"payoff tables must be two matrices of one shape ({a.shape}, {b.shape})")
    x = as_strategy(x, a.shape[0], "x")
    y = as_strategy(y, a.shape[1], "y")
    row_gain = float(np.max(a @ y) - x @ a @ y)
    col_gain = float(np.max(x @ b) - x @ b @ y)
    return max(row_gain, 0.0) + max(col_gain, 0.0)

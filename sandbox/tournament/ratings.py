"""Ratings from a results table: Bradley–Terry fitted by Newton's method,
95% intervals from the Fisher information, and an SPRT for two agents.

The model: agent i beats agent j with probability 1 / (1 + exp(-(t_i - t_j))).
A game is one observation with score s in [0, 1] for i (win 1, draw 1/2,
loss 0), log-likelihood s log p + (1 - s) log(1 - p) — a draw counts as half
a win each, as Elo does. Ratings are shown on the Elo scale,
elo = 400 / ln 10 * t (a 100-point gap: the better agent scores 64%).

`prior_draws` adds that many virtual draws between every pair of agents that
met (default 1): without it an agent that won every game has no finite
maximum-likelihood rating. It pulls ratings slightly together; with many
games it is negligible. The fit maximises the penalised likelihood exactly
(Newton on a strictly concave function, ratings centred to mean 0).

Intervals: the observed Fisher information I = sum over games (and virtual
draws) of p(1-p)(e_i - e_j)(e_i - e_j)^T; the covariance of the centred
ratings is its pseudo-inverse (I is singular along the all-ones direction,
which centring removes). An agent's interval is t_i +- 1.96 sd_i (against
the mean of the field); a pair's difference t_i - t_j has variance
(e_i - e_j)^T I^+ (e_i - e_j). Games of one seed played both ways are
treated as independent observations; paired seeds make the real spread
smaller, so the intervals are, if anything, conservative.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..sim.series import Z95

ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Ratings:
    names: list[str]
    theta: np.ndarray         # natural units, mean 0
    cov: np.ndarray           # covariance of theta (pseudo-inverse of the information)

    def elo(self, i: int) -> float:
        return float(self.theta[i] * ELO_PER_NAT)

    def interval(self, i: int) -> tuple[float, float]:
        """95% interval of agent i's Elo against the field's mean (NaN for
        an agent without games)."""
        if self.cov[i, i] <= 0:
            return (math.nan, math.nan)
        sd = math.sqrt(max(float(self.cov[i, i]), 0.0)) * ELO_PER_NAT
        return (self.elo(i) - Z95 * sd, self.elo(i) + Z95 * sd)

    def diff(self, i: int, j: int) -> tuple[float, float, float]:
        """Elo of i minus Elo of j, with its 95% interval."""
        d = self.elo(i) - self.elo(j)
        var = float(self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j])
        sd = math.sqrt(max(var, 0.0)) * ELO_PER_NAT
        return (d, d - Z95 * sd, d + Z95 * sd)

    def order(self) -> list[int]:
        """Agents best first."""
        return sorted(range(len(self.names)), key=lambda i: -self.theta[i])


def fit_bradley_terry(names: Sequence[str], games: Sequence[tuple[int, int, float]],
                      prior_draws: float = 1.0, iterations: int = 100) -> Ratings:
    """`games`: (i, j, score of i) per game. Newton's method on the
    penalised log-likelihood (see the module text)."""
    n = len(names)
    # sufficient statistics per ordered pair: games and score total, i < j
    count = np.zeros((n, n))
    score = np.zeros((n, n))
    for i, j, s in games:
        if i == j:
            raise ValueError("a game needs two different agents")
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"a score is in [0, 1], got {s}")
        count[i, j] += 1
        count[j, i] += 1
        score[i, j] += s
        score[j, i] += 1.0 - s
    met = count > 0
    count = count + prior_draws * met
    score = score + 0.5 * prior_draws * met
    theta = np.zeros(n)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (score - count * p).sum(axis=1)
        w = count * p * (1.0 - p)
        info = np.diag(w.sum(axis=1)) - w
        # the all-ones direction is free (ratings are relative): the
        # pseudo-inverse takes the step without it (and without any other
        # free direction: agents that have not met anyone yet, mid-tournament)
        step = np.linalg.pinv(info, hermitian=True) @ grad
        theta = theta + step
        theta -= theta.mean()
        if np.max(np.abs(step)) < 1e-12:
            break
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    w = count * p * (1.0 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.pinv(info, hermitian=True)
    return Ratings(list(names), theta, cov)


# ---------------------------------------------------------------- SPRT
@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float              # accept H0 (elo <= elo0) at or below
    upper: float              # accept H1 (elo >= elo1) at or above
    units: int                # pairs of games (one seed, both seat orders)

    @property
    def decision(self) -> str | None:
        if self.units < SPRT_MIN_UNITS:
            return None
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


# The normal approximation needs a variance: a few pairs that all ended alike
# show none, so the test waits for this many pairs and floors the variance at
# VAR_FLOOR (a pair-mean spread of 0.1) rather than deciding on 2 games.
SPRT_MIN_UNITS = 4
VAR_FLOOR = 0.01


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def sprt(pair_scores: Sequence[float], elo0: float, elo1: float, alpha: float = 0.05,
         beta: float = 0.05) -> SprtResult:
    """Sequential probability ratio test of H0: the first agent is elo0
    stronger vs H1: elo1 stronger, over the mean scores of game pairs (a seed
    played both ways is one unit, so the seat and the deal cancel).

    The log-likelihood ratio is the normal approximation of the generalised
    SPRT (as chess engine testing uses): with the units' mean m and variance
    v, LLR = N (s1 - s0)(2m - s0 - s1) / (2v), s = the expected score of an
    Elo gap. Wald's bounds: ln(beta/(1-alpha)) and ln((1-beta)/alpha); no
    decision before SPRT_MIN_UNITS pairs, v at least VAR_FLOOR."""
    lower = math.log(beta / (1.0 - alpha))
    upper = math.log((1.0 - beta) / alpha)
    n = len(pair_scores)
    if n < 2:
        return SprtResult(0.0, lower, upper, n)
    m = sum(pair_scores) / n
    v = sum((x - m) ** 2 for x in pair_scores) / n
    v = max(v, VAR_FLOOR)
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    llr = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)
    return SprtResult(llr, lower, upper, n)

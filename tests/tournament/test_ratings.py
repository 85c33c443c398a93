"""Bradley–Terry fit, its intervals and the SPRT against hand-computed
values (not against a second copy of the same code)."""
import math

import numpy as np
import pytest

from sandbox.tournament.ratings import ELO_PER_NAT, Z95, elo_to_score, fit_bradley_terry, sprt


def games(i, j, wins, losses, draws=0):
    return [(i, j, 1.0)] * wins + [(i, j, 0.0)] * losses + [(i, j, 0.5)] * draws


def test_two_agents_mle_is_the_log_odds_and_fisher_variance():
    # A beats B 3 times in 4: p = 3/4, so t_A - t_B = ln 3; the information
    # of the difference is n p (1-p) = 4 * 3/16 = 3/4, its variance 4/3
    r = fit_bradley_terry(["A", "B"], games(0, 1, 3, 1), prior_draws=0)
    assert r.theta[0] - r.theta[1] == pytest.approx(math.log(3), abs=1e-9)
    assert r.theta.sum() == pytest.approx(0, abs=1e-12)
    d, lo, hi = r.diff(0, 1)
    sd = math.sqrt(4 / 3) * 400 / math.log(10)
    assert d == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert (lo, hi) == pytest.approx((d - 1.959964 * sd, d + 1.959964 * sd), abs=1e-3)


def test_prior_is_one_virtual_draw_per_pair():
    # 3 wins, 1 loss plus one virtual draw: 3.5 of 5, t_A - t_B = ln(3.5/1.5)
    r = fit_bradley_terry(["A", "B"], games(0, 1, 3, 1))
    assert r.theta[0] - r.theta[1] == pytest.approx(math.log(3.5 / 1.5), abs=1e-9)
    # all wins has a finite rating only thanks to the prior: 4.5 of 5
    r = fit_bradley_terry(["A", "B"], games(0, 1, 4, 0))
    assert r.theta[0] - r.theta[1] == pytest.approx(math.log(4.5 / 0.5), abs=1e-9)


def test_three_agents_tiny_table():
    # A-B 2:1, B-C 2:1, A-C 4:1. Strengths 4, 2, 1 (ratios 2, 2, 4) make every
    # pair's expected score equal its observed one, so they solve the
    # likelihood equations: t = ln(4, 2, 1) centred = (ln 2, 0, -ln 2).
    table = games(0, 1, 2, 1) + games(1, 2, 2, 1) + games(0, 2, 4, 1)
    r = fit_bradley_terry(["A", "B", "C"], table, prior_draws=0)
    assert r.theta == pytest.approx([math.log(2), 0.0, -math.log(2)], abs=1e-9)
    assert r.elo(0) == pytest.approx(400 * math.log10(2), abs=1e-6)
    assert r.order() == [0, 1, 2]
    # the information matrix by hand: w_AB = 3*(2/3)(1/3) = 2/3,
    # w_BC = 2/3, w_AC = 5*(4/5)(1/5) = 4/5
    w = {(0, 1): 2 / 3, (1, 2): 2 / 3, (0, 2): 4 / 5}
    info = np.zeros((3, 3))
    for (i, j), v in w.items():
        info[i, i] += v
        info[j, j] += v
        info[i, j] -= v
        info[j, i] -= v
    cov = np.linalg.pinv(info)
    assert r.cov == pytest.approx(cov, abs=1e-9)
    lo, hi = r.interval(1)
    assert hi - lo == pytest.approx(2 * Z95 * math.sqrt(cov[1, 1]) * ELO_PER_NAT, rel=1e-9)


def test_draws_count_half():
    r = fit_bradley_terry(["A", "B"], games(0, 1, 1, 0, draws=2), prior_draws=0)
    # 2 of 3: ln 2
    assert r.theta[0] - r.theta[1] == pytest.approx(math.log(2), abs=1e-9)


def test_bad_games_are_refused():
    with pytest.raises(ValueError):
        fit_bradley_terry(["A", "B"], [(0, 0, 1.0)])
    with pytest.raises(ValueError):
        fit_bradley_terry(["A", "B"], [(0, 1, 1.5)])


def test_sprt_llr_by_hand():
    # pairs' mean scores 1, 0.5, 1, 0.5: m = 0.75, v = 0.0625 (population)
    s0, s1 = elo_to_score(0), elo_to_score(100)
    assert s0 == 0.5 and s1 == pytest.approx(1 / (1 + 10 ** -0.25))
    t = sprt([1.0, 0.5, 1.0, 0.5], 0, 100)
    assert t.llr == pytest.approx(4 * (s1 - s0) * (1.5 - s0 - s1) / (2 * 0.0625))
    assert t.lower == pytest.approx(math.log(0.05 / 0.95))
    assert t.upper == pytest.approx(math.log(0.95 / 0.05))
    assert t.llr == pytest.approx(1.613, abs=1e-3) and t.decision is None   # inside the bounds
    assert sprt([1.0, 0.5] * 6, 0, 100).llr == pytest.approx(3 * t.llr)   # grows with N
    assert sprt([1.0, 0.5] * 6, 0, 100).decision == "H1"                  # 4.84 > 2.94
    assert sprt([0.5, 0.0] * 6, 0, 100).decision == "H0"

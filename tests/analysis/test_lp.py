"""Zero-sum LP: values and strategies solved by hand."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.analysis.lp import solve_zero_sum
from sandbox.analysis.nashconv import matrix_nashconv

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
# the matrix game's biased_rps preset (native/src/games/matrix.c, the tutorial's §9
# table): paper beats rock for 25, rock beats scissors for 50, scissors beats paper for 5
BIASED_RPS = [[0, -25, 50], [25, 0, -5], [-50, 5, 0]]


def test_matching_pennies_is_worth_zero_with_a_coin_flip():
    sol = solve_zero_sum([[1, -1], [-1, 1]])
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [0.5, 0.5], atol=1e-12)
    np.testing.assert_allclose(sol.col, [0.5, 0.5], atol=1e-12)


def test_rps_is_uniform():
    sol = solve_zero_sum(RPS)
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [1 / 3] * 3, atol=1e-12)
    np.testing.assert_allclose(sol.col, [1 / 3] * 3, atol=1e-12)


def test_biased_rps_equilibrium_by_hand():
    # Against y = (r, p, s) each of rock, paper, scissors must earn the same:
    #   rock -25p + 50s = paper 25r - 5s = scissors -50r + 5p, and the game is
    # symmetric, so the value is 0: -25p + 50s = 0 -> p = 2s;  25r = 5s -> s = 5r;
    # so (r, p, s) = (1, 10, 5) / 16 for both players.
    sol = solve_zero_sum(BIASED_RPS)
    want = np.array([1, 10, 5]) / 16
    np.testing.assert_allclose(sol.row, want, atol=1e-9)
    np.testing.assert_allclose(sol.col, want, atol=1e-9)
    assert sol.value == pytest.approx(0.0, abs=1e-9)
    a = np.array(BIASED_RPS, float)
    assert matrix_nashconv(a, -a, sol.row, sol.col) == pytest.approx(0.0, abs=1e-9)


def test_a_pure_saddle_point():
    # row minima (1, 2): maximin 2 on row 1; column maxima (4, 2): minimax 2 on
    # column 1; they meet at (1, 1), a saddle worth 2.
    sol = solve_zero_sum([[3, 1], [4, 2]])
    assert sol.value == pytest.approx(2.0, abs=1e-12)
    np.testing.assert_allclose(sol.row, [0, 1], atol=1e-12)
    np.testing.assert_allclose(sol.col, [0, 1], atol=1e-12)


def test_a_2x3_game_solved_on_paper():
    # A = [[2, -1, 0], [-1, 1, 3]]. The row player mixing (p, 1-p) earns
    #   3p - 1 against column 0, 1 - 2p against column 1, 3 - 3p against column 2;
    # the lower envelope peaks where 3p - 1 = 1 - 2p: p = 2/5, value 1/5 (column 2
    # gives 9/5 there, so the column player never plays it). The column player's
    # (q, 1-q, 0) makes the rows equal: 2q - (1-q) = -q + (1-q), q = 2/5.
    sol = solve_zero_sum([[2, -1, 0], [-1, 1, 3]])
    assert sol.value == pytest.approx(0.2, abs=1e-12)
    np.testing.assert_allclose(sol.row, [0.4, 0.6], atol=1e-9)
    np.testing.assert_allclose(sol.col, [0.4, 0.6, 0.0], atol=1e-9)


def test_random_games_equilibria_have_zero_nashconv():
    rng = np.random.default_rng(7)
    for _ in range(30):
        a = rng.integers(-5, 6, size=tuple(rng.integers(1, 6, size=2))).astype(float)
        sol = solve_zero_sum(a)
        assert matrix_nashconv(a, -a, sol.row, sol.col) == pytest.approx(0.0, abs=1e-9)
        # the value lies between the pure maximin and minimax
        assert a.min(axis=1).max() - 1e-9 <= sol.value <= a.max(axis=0).min() + 1e-9


@pytest.mark.parametrize("bad", [[], [1, 2], [[1, float("nan")]]])
def test_bad_tables_are_refused(bad):
    with pytest.raises(ValueError):
        solve_zero_sum(bad)

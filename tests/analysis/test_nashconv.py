"""matrix_nashconv against values computed by hand."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.analysis.nashconv import StrategyError, matrix_nashconv

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)


def test_rps_rock_against_rock_is_worth_two():
    # each side would switch to paper and win 1 instead of tying 0
    assert matrix_nashconv(RPS, -RPS, [1, 0, 0], [1, 0, 0]) == pytest.approx(2.0)


def test_rps_rock_against_paper():
    # the row loses 1 and would win 1 with scissors: gain 2; the column already
    # earns the most it can (1): gain 0
    assert matrix_nashconv(RPS, -RPS, [1, 0, 0], [0, 1, 0]) == pytest.approx(2.0)
    assert matrix_nashconv(RPS, -RPS, [1, 0, 0], [0.5, 0.5, 0]) == pytest.approx(1.5)


def test_rps_uniform_is_an_equilibrium():
    assert matrix_nashconv(RPS, -RPS, [1 / 3] * 3, [1 / 3] * 3) == pytest.approx(0.0, abs=1e-15)


def test_general_sum_by_hand():
    # prisoner's dilemma: both cooperating (3, 3), each would defect for 5: 2 + 2
    a = np.array([[3, 0], [5, 1]], float)
    b = np.array([[3, 5], [0, 1]], float)
    assert matrix_nashconv(a, b, [1, 0], [1, 0]) == pytest.approx(4.0)
    assert matrix_nashconv(a, b, [0, 1], [0, 1]) == pytest.approx(0.0)
    # battle of the sexes at (1/2, 1/2) each: x.A.y = (3 + 2) / 4 = 1.25; the row's
    # best is max(1.5, 1) = 1.5; the column's x.B = (1, 1.5): best 1.5; 0.25 + 0.25
    a = np.array([[3, 0], [0, 2]], float)
    b = np.array([[2, 0], [0, 3]], float)
    assert matrix_nashconv(a, b, [0.5, 0.5], [0.5, 0.5]) == pytest.approx(0.5)
    # its mixed equilibrium: row (3/5, 2/5), column (2/5, 3/5)
    assert matrix_nashconv(a, b, [0.6, 0.4], [0.4, 0.6]) == pytest.approx(0.0, abs=1e-12)


def test_not_a_strategy_is_refused():
    with pytest.raises(StrategyError):
        matrix_nashconv(RPS, -RPS, [0.5, 0.5], [1, 0, 0])
    with pytest.raises(StrategyError):
        matrix_nashconv(RPS, -RPS, [0.5, 0.6, -0.1], [1, 0, 0])

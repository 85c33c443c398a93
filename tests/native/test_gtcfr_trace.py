"""GT-CFR's traced iteration carries its regret-update phase (sbx_trace's
update fields, Trace.update), checked against an independent
recomputation: alternating CFR+ with linear averaging on a one-shot matrix
game written out below in numpy (the root's children are all terminal, so
one sweep is exactly one such update of the payoff table), the root stats
read after the step, and SoG(s, c)'s sweep schedule. Every other
algorithm's trace has no update phase (all its fields zero)."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.native import Game, Search, SearchParams
from sandbox.native._lib import ffi, lib

BIASED = np.array([[0, -25, 50], [25, 0, -5], [-50, 5, 0]], dtype=float)


def rm_plus(regret: np.ndarray) -> np.ndarray:
    tot = regret.sum()
    return regret / tot if tot > 0 else np.full(len(regret), 1.0 / len(regret))


def average(sums: np.ndarray) -> np.ndarray:
    tot = sums.sum()
    return sums / tot if tot > 0 else np.full(len(sums), 1.0 / len(sums))


class MatrixCfrPlus:
    """Alternating CFR+ on payoff table A (player 0's gain, player 1's
    loss): player 0's regrets against player 1's current strategy, then
    player 1's against player 0's updated one; the strategy of update t
    enters the average with weight t."""

    def __init__(self, a: np.ndarray) -> None:
        self.a = a
        self.g = [np.zeros(a.shape[0]), np.zeros(a.shape[1])]
        self.m = [np.zeros(a.shape[0]), np.zeros(a.shape[1])]
        self.t = 0

    def current(self, p: int) -> np.ndarray:
        return rm_plus(self.g[p])

    def avg(self, p: int) -> np.ndarray:
        return average(self.m[p])

    def sweep(self) -> None:
        self.t += 1
        x, y = self.current(0), self.current(1)
        q0 = self.a @ y
        self.g[0] = np.maximum(self.g[0] + q0 - x @ q0, 0.0)
        self.m[0] += self.t * x
        x = self.current(0)                       # player 0's updated strategy
        q1 = -(x @ self.a)
        self.g[1] = np.maximum(self.g[1] + q1 - y @ q1, 0.0)
        self.m[1] += self.t * y


def test_one_sweep_by_hand():
    """Biased RPS, c = 1, the first step: player 0's regrets against the
    uniform column are A @ (1/3) - 0 = (25/3, 20/3, -15) -> RM+ (5/9, 4/9, 0);
    player 1's against (5/9, 4/9, 0): -(x A) + x A (1/3) = (-95, 580, -485)/27
    -> (0, 1, 0). Averages: one uniform strategy each."""
    with Game("matrix", "preset=biased_rps") as g, \
            Search(g, SearchParams(algorithm="gtcfr"), seed=1) as s:
        u = s.step_traced().update
    assert u is not None and u.sweeps == 1
    assert u.moves == ((0, 1, 2), (0, 1, 2))
    np.testing.assert_allclose(u.current_before, np.full((2, 3), 1 / 3))
    np.testing.assert_allclose(u.current_after[0], [5 / 9, 4 / 9, 0], atol=1e-12)
    np.testing.assert_allclose(u.current_after[1], [0, 1, 0], atol=1e-12)
    np.testing.assert_allclose(u.average_before, np.full((2, 3), 1 / 3))
    np.testing.assert_allclose(u.average_after, np.full((2, 3), 1 / 3))
    # one interior node (the root), visited once per alternating pass
    assert u.nodes == 2


@pytest.mark.parametrize("preset,table", [("preset=biased_rps", BIASED)])
def test_update_fields_follow_an_independent_cfr_plus(preset, table):
    oracle = MatrixCfrPlus(table)
    with Game("matrix", preset) as g, \
            Search(g, SearchParams(algorithm="gtcfr"), seed=2) as s:
        for step in range(12):
            u = s.step_traced().update
            before = [(oracle.current(p), oracle.avg(p)) for p in range(2)]
            oracle.sweep()
            assert u.sweeps == 1, step
            for p in range(2):
                np.testing.assert_allclose(u.current_before[p], before[p][0], atol=1e-9)
                np.testing.assert_allclose(u.average_before[p], before[p][1], atol=1e-9)
                np.testing.assert_allclose(u.current_after[p], oracle.current(p), atol=1e-9)
                np.testing.assert_allclose(u.average_after[p], oracle.avg(p), atol=1e-9)
                assert sum(u.current_after[p]) == pytest.approx(1.0)
                assert sum(u.average_after[p]) == pytest.approx(1.0)
                # what the search reports after the step: its average strategy
                stats = s.root_stats(p)
                assert [m.move for m in stats] == list(u.moves[p])
                np.testing.assert_allclose([m.policy for m in stats], u.average_after[p],
                                           atol=1e-12)


def test_c4_sweeps_once_in_four_steps_and_counts_its_nodes():
    """c = 4: steps 4 and 8 sweep (the 1/4 credit reaches one), the others
    do not and change no strategy; a sweep's nodes are what the search's
    update_nodes counter gained in it."""
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=4), seed=1) as s:
        sweeps, prev_nodes = [], s.stats().update_nodes
        for _ in range(8):
            u = s.step_traced().update
            nodes = s.stats().update_nodes
            assert u.nodes == nodes - prev_nodes
            prev_nodes = nodes
            sweeps.append(u.sweeps)
            if u.sweeps == 0:
                assert u.nodes == 0
                assert u.current_after == u.current_before
                assert u.average_after == u.average_before
            else:
                assert u.nodes >= 2      # the root at least, in each alternating pass
    assert sweeps == [0, 0, 0, 1, 0, 0, 0, 1]


def test_c_below_one_sweeps_several_times_a_step():
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=0.25), seed=1) as s:
        assert [s.step_traced().update.sweeps for _ in range(3)] == [4, 4, 4]


@pytest.mark.parametrize("algorithm", ["smitsimax", "suct", "uct", "joint", "mcgs", "greedy", "random"])
def test_other_algorithms_have_no_update_phase(algorithm):
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm=algorithm), seed=1) as s:
        assert s.step_traced().update is None
        t = ffi.new("sbx_trace *")
        assert lib.sbx_search_step_traced(s._h.get(), t) == 0
        assert t.has_update == 0 and t.update_sweeps == 0 and t.update_nodes == 0
        assert list(t.update_k) == [0, 0]
        raw = ffi.buffer(ffi.addressof(t, "update_moves"),
                         ffi.offsetof("sbx_trace", "average_after") -
                         ffi.offsetof("sbx_trace", "update_moves") +
                         ffi.sizeof(t.average_after))
        assert not any(bytes(raw))

"""Growing-tree CFR (gtcfr.c) against independent oracles.

  * one and two CFR+ updates of a two-level tree (biased RPS repeated
    twice), regrets and average sums derived by hand in closed form below,
    for alternating and simultaneous updates;
  * the root average strategy of one-shot matrix games against the LP
    equilibrium (sandbox/analysis/lp.py) and matrix NashConv
    (sandbox/analysis/nashconv.py) after 10,000 regret updates;
  * the exact NashConv of goofspiel-4 self-play by backward induction
    (sandbox/analysis/exploit.py) at 10,000 expansions per decision;
  * chance: a joint action's outcomes against the plugin's enumeration of
    the states chance can draw, their draw-weighted value, and a
    two-outcome goofspiel-3 case whose payoff tables are derived by hand;
  * SoG(s, c)'s bookkeeping (updates per expansion, fractional c), k = 1
    expansion, tree reuse warm and reset, the kept subtree checked against
    the real state under chance, sampled final moves, refusals.

Mutations of gtcfr.c that these tests were run against (edited, rebuilt,
this file run; the tests that failed):
  plain RM instead of RM+ (regrets not floored)   the hand-computed updates,
                                                  biased RPS, simultaneous
  average weight 1 instead of t                   the second update, biased
                                                  RPS, simultaneous
  regrets weighted by the player's own reach      one update (alternating)
  simultaneous updates where alternating is set   one update (alternating),
                                                  biased RPS, custom table
  player 1's values not negated                   hand-computed, matrix
                                                  games, goofspiel-4 (3 seeds)
  no expansion past L0                            goofspiel-4, L0, k = 1,
                                                  reuse, node_cap, the
                                                  hand-computed updates
  no state-hash check when a subtree is kept      the kept subtree (random
                                                  prizes)
  virtual losses never taken back                 the batch's virtual losses
  a chance slot valued by its first outcome only  both chance tests
  every draw a new outcome (no hash match)        both chance tests
  the tree of one draw of chance (before chance   both chance tests, the kept
  nodes)                                          subtree (random prizes)
"""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.analysis.exploit import exploit_scenario
from sandbox.analysis.lp import solve_zero_sum
from sandbox.analysis.nashconv import matrix_nashconv
from sandbox.config import load_scenario
from sandbox.games import plugin as game_plugin
from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.native._lib import ffi, lib

BIASED = np.array([[0, -25, 50], [25, 0, -5], [-50, 5, 0]], dtype=float)
# a zero-sum 3x4 table with a mixed equilibrium that is not uniform
CUSTOM = np.array([[3, -1, 0, 2], [-2, 4, 1, -1], [0, 1, -3, 2]], dtype=float)


def node(s: Search, i: int):
    d = ffi.new("sbx_gtcfr_debug_node *")
    assert lib.sbx_search_debug_gtcfr_node(s._h.get(), i, d) == 0
    return d


def vec(arr, k: int) -> np.ndarray:
    return np.array([arr[i] for i in range(k)], dtype=float)


def rm_plus(r: np.ndarray) -> np.ndarray:
    pos = np.maximum(r, 0.0)
    return pos / pos.sum() if pos.sum() > 0 else np.full(len(r), 1 / len(r))


def table(a: np.ndarray) -> str:
    rows = " ".join(f"a{i}=" + "/".join(f"{v:g}" for v in row) for i, row in enumerate(a))
    return f"rows={a.shape[0]} cols={a.shape[1]} {rows}"


def root_policy(s: Search, agent: int) -> np.ndarray:
    return np.array([m.policy for m in s.root_stats(agent)])


# ------------------------------------------------------------ hand-computed


def _full_tree_search(alternating: bool) -> Search:
    """Biased RPS played twice: the root, 9 children, 81 terminal
    grandchildren (slots, not nodes). c = 100: the first update runs at the
    100th iteration, after 99 expansions that fill the tree."""
    g = Game("matrix", "preset=biased_rps repeats=2")
    s = Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=100,
                               alternating=alternating), seed=7)
    s.run(iterations=99)
    assert s.stats().nodes[0] == 10
    assert node(s, 0).updates == 0
    return s


def _children(s: Search) -> dict[tuple[int, int], object]:
    """The root's 9 children by joint action (indices = move ids here)."""
    root = node(s, 0)
    out = {}
    for a in range(3):
        for b in range(3):
            c = root.child[a * 3 + b]
            assert c > 0
            out[a, b] = node(s, c)
    return out


@pytest.mark.parametrize("alternating", [True, False])
def test_one_update_matches_the_hand_computation(alternating):
    A = BIASED
    s = _full_tree_search(alternating)
    s.run(iterations=1)   # the 100th: one regret update on the full tree
    root = node(s, 0)
    assert root.updates == 1
    # By hand. Every strategy starts uniform; a child (a, b) is the stage
    # game again with A[a, b] already won (evaluate() = totals so far), so
    # under uniform play its value is A[a, b] + mean(A) and the row player's
    # value of row i there is A[a, b] + rowmean(A)[i].
    rowmean, colmean, mean = A.mean(axis=1), A.mean(axis=0), A.mean()
    # Root: reach 1 for both. Row's regret of i: q(i) - v with
    # q(i) = rowmean[i] + mean (the child's uniform value), v = 2 mean.
    r0_root = np.maximum(rowmean - mean, 0.0)
    # A child: the opponent's reach is 1/3 (its uniform root pick).
    r0_child = np.maximum((rowmean - mean) / 3.0, 0.0)
    if alternating:
        # Player 1's pass follows player 0's and plays against player 0's
        # NEW strategy s0 = RM+(r0), the same at the root and in every child
        # (the child's regrets are the root's divided by 3). Column j's value
        # in child (a, b): -(A[a, b] + (s0 A)[j]); against the uniform column
        # the mean of that; player 0 reaches (a, b) with s0[a]. At the root
        # every child is worth A[a, b] + a constant, so the root's column
        # regrets are those of the stage game against s0, reach 1.
        s0 = rm_plus(r0_root)
        assert np.allclose(s0, rm_plus(r0_child))
        col = s0 @ A
        r1_root = np.maximum(-(col - col.mean()), 0.0)
        r1_child = {(a, b): np.maximum(s0[a] * -(col - col.mean()), 0.0)
                    for a in range(3) for b in range(3)}
    else:
        r1_root = np.maximum(-(colmean - mean), 0.0)
        r1_child = {(a, b): np.maximum(-(colmean - mean) / 3.0, 0.0)
                    for a in range(3) for b in range(3)}
    np.testing.assert_allclose(vec(root.regret[0], 3), r0_root, atol=1e-9)
    np.testing.assert_allclose(vec(root.regret[1], 3), r1_root, atol=1e-9)
    # average sums: weight t = 1 times the player's own reach times sigma
    np.testing.assert_allclose(vec(root.avg_sum[0], 3), np.full(3, 1 / 3), atol=1e-12)
    np.testing.assert_allclose(vec(root.avg_sum[1], 3), np.full(3, 1 / 3), atol=1e-12)
    for (a, b), ch in _children(s).items():
        np.testing.assert_allclose(vec(ch.regret[0], 3), r0_child, atol=1e-9)
        np.testing.assert_allclose(vec(ch.regret[1], 3), r1_child[a, b], atol=1e-9)
        np.testing.assert_allclose(vec(ch.avg_sum[0], 3), np.full(3, 1 / 9), atol=1e-12)
        # player 1 reaches (a, b) with its own uniform 1/3, in both modes
        np.testing.assert_allclose(vec(ch.avg_sum[1], 3), np.full(3, 1 / 9), atol=1e-12)


@pytest.mark.parametrize("alternating", [True, False])
def test_the_second_update_weighs_its_strategy_twice(alternating):
    A = BIASED
    s = _full_tree_search(alternating)
    s.run(iterations=101)   # the 100th and the 200th run an update each
    root = node(s, 0)
    assert root.updates == 2
    # Update 2 plays sigma^2 = RM+(regrets after update 1); at the root the
    # row's regrets after update 1 were max(rowmean - mean, 0) (above), so
    # by hand: avg_sum = 1 * uniform + 2 * sigma^2 (root reach 1).
    s2 = rm_plus(A.mean(axis=1) - A.mean())
    np.testing.assert_allclose(vec(root.avg_sum[0], 3), 1 / 3 + 2 * s2, atol=1e-12)
    # RM+: no regret below 0, ever (update 1's flooring is checked exactly
    # above: the third row's rowmean - mean is -15)
    assert all(root.regret[p][i] >= 0.0 for p in range(2) for i in range(3))
    assert root_policy(s, 0) == pytest.approx((1 / 3 + 2 * s2) / 3)


# ------------------------------------------------------------ matrix games

MATRIX_CASES = [
    # (game params, row payoffs, column payoffs)
    ("preset=biased_rps", BIASED, -BIASED),
    (table(CUSTOM), CUSTOM, -CUSTOM),
    # rps and shapley: uniform is their equilibrium AND GT-CFR's starting
    # strategy, so these only show nothing pushes the search off it; the
    # two above carry the convergence. Shapley is general-sum (b = a^T):
    # GT-CFR solves its zero-sum part (a - b) / 2, RPS at half scale, whose
    # equilibrium is Shapley's unique one.
    ("preset=rps", np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float), None),
    ("preset=shapley", np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]], float), None),
]


@pytest.mark.parametrize("params,a,b", MATRIX_CASES, ids=["biased_rps", "custom", "rps", "shapley"])
def test_matrix_root_average_reaches_the_lp_equilibrium(params, a, b):
    if b is None:
        b = -a if params == "preset=rps" else a.T
    with Game("matrix", params) as g, \
            Search(g, SearchParams(algorithm="gtcfr"), seed=3) as s:
        s.run(iterations=10_000)       # c = 1: 10,000 regret updates
        assert node(s, 0).updates == 10_000
        x, y = root_policy(s, 0), root_policy(s, 1)
    nc = matrix_nashconv(a, b, x, y)
    assert nc <= 0.005, nc
    if np.allclose(b, -a):
        lp = solve_zero_sum(a)
        if params != "preset=rps":
            assert lp.row.min() < 0.3 or lp.row.max() > 0.4  # not the uniform start
        assert x @ a @ y == pytest.approx(lp.value, abs=0.005)
        if params == "preset=biased_rps":     # its equilibrium is unique
            np.testing.assert_allclose(x, lp.row, atol=0.01)
            np.testing.assert_allclose(y, lp.col, atol=0.01)


def test_matrix_simultaneous_updates_converge_more_slowly():
    """The paper's simultaneous updates converge too, but measured slower
    (the `alternating` setting's doc): NashConv of biased RPS at 10,000."""
    out = {}
    for alternating in (True, False):
        with Game("matrix", "preset=biased_rps") as g, \
                Search(g, SearchParams(algorithm="gtcfr", alternating=alternating),
                       seed=3) as s:
            s.run(iterations=10_000)
            out[alternating] = matrix_nashconv(BIASED, -BIASED, root_policy(s, 0),
                                               root_policy(s, 1))
    assert out[True] <= 0.005 and out[False] <= 0.1
    assert out[True] < out[False] / 5


# ------------------------------------------------------------ goofspiel-4


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_goofspiel4_exact_nashconv(seed):
    sc = load_scenario("goofspiel_4_exploit").with_settings(
        ["players.0.search.algorithm=gtcfr", f"seed={seed}"])
    rep = exploit_scenario(sc, agent=0, iterations=10_000)
    assert rep.search.startswith("gtcfr/") and rep.search.endswith("/sample")
    assert rep.uniform_nashconv > 1.0           # the scale: uniform play
    assert rep.nashconv <= 0.05, rep.nashconv


# ------------------------------------------------------------ bookkeeping


@pytest.mark.parametrize("c,iterations,updates", [
    (1.0, 10, 10), (4.0, 10, 2), (2.5, 10, 4), (0.1, 10, 100), (0.25, 3, 12)])
def test_expansions_per_update_is_sogs_c(c, iterations, updates):
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=c), seed=1) as s:
        s.run(iterations=iterations)
        assert node(s, 0).updates == updates


def test_a_batch_carries_virtual_losses_until_the_next_update():
    """c = 4: the simulations between two updates leave a virtual loss on
    every move they took (as many as the visits they added), and the update
    takes them all back; c = 1 (one simulation a batch) leaves none."""
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=4), seed=2) as s:
        s.run(iterations=3)                    # three simulations, no update yet
        root = node(s, 0)
        assert root.updates == 0
        for p in range(2):
            vl, n = vec(root.virtual_loss[p], 5), vec(root.move_visits[p], 5)
            assert vl.sum() == 3 and np.array_equal(vl, n)
        s.run(iterations=1)                    # the update, then the 4th simulation
        root = node(s, 0)
        assert root.updates == 1
        for p in range(2):
            assert vec(root.virtual_loss[p], 5).sum() == 1
            assert vec(root.move_visits[p], 5).sum() == 4
        for i in range(1, s.stats().nodes[0]):   # nowhere more than this batch's
            d = node(s, i)
            if d.kind == 1:
                assert sum(d.virtual_loss[0][j] for j in range(d.k[0])) <= 1
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=1), seed=2) as s:
        s.run(iterations=20)
        assert not vec(node(s, 0).virtual_loss[0], 5).any()


def test_initial_tree_is_the_root_and_all_its_children():
    with Game("goofspiel", "num_cards=4") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=100), seed=1) as s:
        s.run(iterations=1)
        root = node(s, 0)
        assert (root.k[0], root.k[1]) == (4, 4)
        # L0 (16 children) plus the first expansion's (a child's 9)
        assert s.stats().nodes[0] == 1 + 16 + 9


def test_expand_one_adds_the_top_prior_joint_action_only():
    with Game("goofspiel", "num_cards=4") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expand_children="one"), seed=1) as s:
        s.run(iterations=1)
        assert s.stats().nodes[0] == 1 + 16 + 1       # L0 is whole; then k = 1
        grown = [node(s, c) for c in list(node(s, 0).child)[:16]]
        inner = [d for d in grown if d.kind == 1]
        assert len(inner) == 1
        kids = list(inner[0].child)[:9]
        assert sum(c > 0 for c in kids) == 1 and kids.count(-2) == 8
        assert kids[0] > 0         # uniform priors: the first joint action


@pytest.mark.parametrize("reuse", [True, False])
def test_tree_reuse_keeps_the_subtree_warm_or_reset(reuse):
    with Game("goofspiel", "num_cards=4") as g, \
            Search(g, SearchParams(algorithm="gtcfr", tree_reuse=reuse), seed=1) as s:
        s.run(iterations=300)
        root = node(s, 0)
        joint = [root.moves[0][1], root.moves[1][2]]
        child = node(s, root.child[1 * root.k[1] + 2])
        before = (vec(child.regret[0], child.k[0]), vec(child.avg_sum[1], child.k[1]))
        size = s.stats().nodes[0]
        g.step(joint)
        s.advance(joint, g)
        new = node(s, 0)
        assert 1 < s.stats().nodes[0] < size
        if reuse:
            np.testing.assert_array_equal(vec(new.regret[0], new.k[0]), before[0])
            np.testing.assert_array_equal(vec(new.avg_sum[1], new.k[1]), before[1])
            assert new.updates == 300
        else:
            assert not vec(new.regret[0], new.k[0]).any()
            assert not vec(new.avg_sum[1], new.k[1]).any()
            assert new.updates == 0
        s.run(iterations=50)     # and it goes on from there


def test_final_move_samples_the_average_strategy_deterministically():
    """A draw per (seed, iteration count): the same however often asked, and
    over many seeds spread like the root's average strategy."""
    counts = np.zeros(3)
    policies = set()
    for seed in range(400):
        with Game("matrix", "preset=biased_rps") as g, \
                Search(g, SearchParams(algorithm="gtcfr"), seed=seed) as s:
            s.run(iterations=300)
            m = s.best_moves()
            assert s.best_moves() == m
            counts[m[0]] += 1
            pol = root_policy(s, 0)
            policies.add(tuple(np.round(pol, 12)))
    # a one-shot game's tree and updates use no randomness: every seed has
    # the same average strategy, and the seeds' draws spread like it (0.1:
    # 4 standard deviations of a share near 5/8 over 400 draws)
    assert len(policies) == 1
    assert counts / counts.sum() == pytest.approx(pol, abs=0.1)
    with Game("matrix", "preset=biased_rps") as g, \
            Search(g, SearchParams(algorithm="gtcfr", final_move="argmax"), seed=1) as s:
        s.run(iterations=300)
        assert s.best_moves()[0] == int(np.argmax(root_policy(s, 0)))


@pytest.mark.parametrize("temperature", [0.5, 0.01])
def test_temperature_samples_the_sharpened_average(temperature):
    """final_move=sample with temperature T draws from avg^(1/T), renormalised.
    Oracle: the power computed here from the reported average strategy. On
    biased RPS (average near 1/16, 5/8, 5/16) T = 0.5 gives about 0.01 /
    0.79 / 0.20, far enough from the average itself (0.17 on the middle move)
    that ignoring T fails; T = 0.01 always plays the argmax."""
    counts = np.zeros(3)
    for seed in range(400):
        with Game("matrix", "preset=biased_rps") as g, \
                Search(g, SearchParams(algorithm="gtcfr", temperature=temperature),
                       seed=seed) as s:
            s.run(iterations=300)
            counts[s.best_moves()[0]] += 1
            pol = root_policy(s, 0)
    sharp = pol ** (1 / temperature) / (pol ** (1 / temperature)).sum()
    assert abs(sharp[1] - pol[1]) > 0.15 or temperature < 0.1
    assert counts / counts.sum() == pytest.approx(sharp, abs=0.1)
    if temperature < 0.1:
        assert counts[int(np.argmax(pol))] == 400


def test_same_seed_same_search():
    def run(seed):
        with Game("goofspiel", "num_cards=6") as g, \
                Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=3,
                                       rollout=True), seed=seed) as s:
            s.run(iterations=400)
            return s.best_moves(), [m.policy for m in s.root_stats(0)], s.stats().nodes[0]
    assert run(5) == run(5)


def test_refuses_games_without_two_players_with_a_message():
    with Game("goofspiel", "players=3") as g:
        with pytest.raises(InvalidArgument, match="gtcfr solves two-player games"):
            Search(g, SearchParams(algorithm="gtcfr"))


def test_a_full_arena_stops_the_run():
    with Game("goofspiel", "num_cards=8") as g, \
            Search(g, SearchParams(algorithm="gtcfr", node_cap=1024), seed=1) as s:
        r = s.run(iterations=10_000)
        assert r.stop_reason == "node_cap" and r.iterations < 10_000
        assert s.stats().nodes[0] <= 1024
        assert sum(m.policy for m in s.root_stats(0)) == pytest.approx(1.0)


@pytest.mark.parametrize("order", ["descending", "random"])
def test_the_kept_subtree_is_the_state_the_game_reached(order):
    """At an advance the kept child must be the real state (hash).
    Descending prizes: always kept. Random prizes: a joint action keeps
    every prize its simulations drew, so the subtree is kept whenever the
    revealed prize was drawn once in 200 simulations: nearly always (a
    tree grown from one draw of chance kept it only when that draw was
    the real one: 24 of these 50 turns)."""
    kept = dropped = 0
    for seed in range(10):
        with Game("goofspiel", f"num_cards=6 points_order={order}", seed=seed) as g, \
                Search(g, SearchParams(algorithm="gtcfr"), seed=seed + 100) as s:
            while True:
                s.run(iterations=200)
                m = s.best_moves()
                g.step(m)
                s.advance(m, g)
                if g.is_terminal:
                    break
                # a warm kept tree keeps its update count; a fresh one has 0
                if node(s, 0).updates > 0:
                    kept += 1
                else:
                    dropped += 1
    if order == "descending":
        assert dropped == 0 and kept == 50      # 5 advances to a live state a game
    else:
        assert kept >= 45 and kept + dropped == 50, (kept, dropped)


def test_root_matrix_is_the_roots_joint_action_values():
    """The matrix the arena's heat map shows, read against the debug node:
    cell values, the players' Q and visits, and the cell visits of the
    children (their sum is the matrix's visits)."""
    with Game("goofspiel", "num_cards=4") as g, \
            Search(g, SearchParams(algorithm="gtcfr"), seed=4) as s:
        s.run(iterations=200)
        m = s.root_matrix()
        root = node(s, 0)
        k0, k1 = root.k[0], root.k[1]
        assert m.values.shape == (2, k0, k1)
        slots = np.array([root.slot_value[i] for i in range(k0 * k1)]).reshape(k0, k1)
        np.testing.assert_allclose(m.values[0], slots, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(m.values[1], -slots, rtol=1e-6, atol=1e-6)
        kids = [root.child[i] for i in range(k0 * k1)]
        want = np.array([node(s, c).visits if c > 0 else 0 for c in kids]).reshape(k0, k1)
        np.testing.assert_array_equal(m.visits, want)
        assert m.visits.sum() > 0
        for p in range(2):
            np.testing.assert_array_equal(m.marginal_visits[p], vec(root.move_visits[p], root.k[p]))
            # Q by hand: the move's value against the other's current strategy
            other = vec(root.current[1 - p], root.k[1 - p])
            q = slots @ other if p == 0 else -(other @ slots)
            np.testing.assert_allclose(vec(root.q[p], root.k[p]), q, atol=1e-9)
            np.testing.assert_allclose(m.marginal_values[p], q, atol=1e-9)


# ------------------------------------------------------------ chance


def _outcomes(s: Search, first: int) -> list:
    """A joint action's chance outcomes: the chain from its slot."""
    out = []
    while first >= 0:
        n = node(s, first)
        out.append(n)
        first = n.next
    return out


def test_chance_outcomes_are_the_states_the_game_can_draw():
    """Random prize order: every root joint action of goofspiel-4 leads to
    3 states (the next prize drawn from 3 face-down cards). The tree keeps
    one node per state drawn, keyed by its hash; after 20,000 simulations
    every root joint action has met all 3, and they are exactly the states
    the plugin's own enumeration (chance_outcomes, built by import) lists.
    The joint action's value is the draw-weighted average of its outcomes'
    values, and each outcome's share of the draws is near 1/3 (a binomial
    bound of 5 standard deviations)."""
    pl = game_plugin("goofspiel")
    with Game("goofspiel", "num_cards=4 points_order=random returns_type=point_difference",
              seed=3) as g, Search(g, SearchParams(algorithm="gtcfr"), seed=5) as s:
        s.run(iterations=20_000)
        root = node(s, 0)
        k0, k1 = root.k[0], root.k[1]
        checked = 0
        for i in range(k0 * k1):
            outs = _outcomes(s, root.child[i])
            with g.clone() as h:
                h.step([root.moves[0][i // k1], root.moves[1][i % k1]])
                want = {st.state_hash() for _, st in pl.chance_outcomes(h)}
            assert {o.hash for o in outs} == want
            assert all(o.parent == 0 for o in outs)
            met = np.array([o.met for o in outs], dtype=float)
            vals = np.array([o.value for o in outs])
            # the value is the last update's; the expansion after it may
            # have drawn once more (one draw moves the average by at most
            # the outcomes' range over the draws)
            slack = (vals.max() - vals.min()) / met.sum() + 1e-12
            assert root.slot_value[i] == pytest.approx(met @ vals / met.sum(), abs=slack)
            if met.sum() >= 1000:
                sd = np.sqrt(met.sum() * (1 / 3) * (2 / 3))
                assert np.all(np.abs(met - met.sum() / 3) <= 5 * sd), met
                checked += 1
        assert checked >= 4


def test_a_chance_slot_averages_two_outcomes_by_their_draws():
    """Goofspiel-3, random order, point_difference (player 0's value is
    (p0 - p1) / 2). Player 0 bids 3 and player 1 bids 1 for the first prize
    P: player 0 takes it and keeps {1, 2} against {2, 3}; the other two
    prizes X, Y are face down, and chance puts either on the table (two
    outcomes). By hand, in the outcome with X on the table (rows: player
    0 bids 1, 2; columns: player 1 bids 2, 3; the last bid is forced):
        1 v 2: X to 1, then 2 v 3: Y to 1      P - X - Y
        1 v 3: X to 1, then 2 v 2: tie         P - X
        2 v 2: tie, then 1 v 3: Y to 1         P - Y
        2 v 3: X to 1, then 1 v 2: Y to 1      P - X - Y
    halved. Each outcome node holds that table, the two outcomes are the
    two orders of X and Y, and the joint action's value is the average of
    the outcomes' values weighted by their draws: (m1 v1 + m2 v2) / (m1 + m2)
    (the values are the last update's: the expansion after it may have
    drawn once more)."""
    with Game("goofspiel", "num_cards=3 points_order=random returns_type=point_difference",
              seed=1) as g, Search(g, SearchParams(algorithm="gtcfr"), seed=2) as s:
        prize = int(g.export()[6])
        s.run(iterations=3_000)
        root = node(s, 0)
        k1 = root.k[1]
        i = 2 * k1 + 0                              # cards 3 and 1 (moves 2, 0)
        assert (root.moves[0][2], root.moves[1][0]) == (2, 0)
        outs = _outcomes(s, root.child[i])
        assert len(outs) == 2
        faces = set()
        for o in outs:
            x = [c for c in range(1, 4) if c != prize]
            # the table prize of this outcome: the slot values name it
            table = np.array([[o.slot_value[0], o.slot_value[1]],
                              [o.slot_value[2], o.slot_value[3]]])
            assert (o.k[0], o.k[1]) == (2, 2)
            matched = []
            for xx, yy in ((x[0], x[1]), (x[1], x[0])):
                want = 0.5 * np.array([[prize - xx - yy, prize - xx],
                                       [prize - yy, prize - xx - yy]])
                if np.allclose(table, want, atol=1e-9):
                    matched.append(xx)
            assert len(matched) == 1, (table, prize)
            faces.add(matched[0])
        assert faces == set(x)                      # both orders, one node each
        (m1, v1), (m2, v2) = [(o.met, o.value) for o in outs]
        slack = abs(v1 - v2) / (m1 + m2) + 1e-12     # a draw after the last update
        assert root.slot_value[i] == pytest.approx((m1 * v1 + m2 * v2) / (m1 + m2),
                                                   abs=slack)
        assert min(m1, m2) > 0.3 * (m1 + m2)        # both drawn about half the time


@pytest.mark.parametrize("alternating,passes", [(True, 2), (False, 1)])
def test_the_update_descends_only_into_interior_nodes(alternating, passes):
    """The regret update skips leaves (their values are fixed and already in
    their slots): on L0 (the root and its 16 leaf children) the first update
    visits the root once per pass; later each update visits at most every
    interior node once per pass, and the values are still exact (the
    hand-computed and goofspiel-4 tests above run through the same code)."""
    with Game("goofspiel", "num_cards=4") as g, \
            Search(g, SearchParams(algorithm="gtcfr", alternating=alternating), seed=1) as s:
        s.run(iterations=1)
        assert s.stats().update_nodes == passes
        s.run(iterations=49)
        before = s.stats().update_nodes
        interior = sum(1 for i in range(s.stats().nodes[0]) if node(s, i).kind == 1)
        s.run(iterations=1)
        assert 0 < s.stats().update_nodes - before <= passes * interior

"""Whole-tree best responses and equilibrium values against independent
oracles: goofspiel solved by hand (2 cards) and by brute force over reduced
pure strategies with a pure-Python rules twin (3 cards), never through the
backward induction under test."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from sandbox.analysis.lp import solve_zero_sum
from sandbox.analysis.nashconv import matrix_nashconv
from sandbox.analysis.tree import build_tree, evaluate_profile, solve_equilibrium, uniform_profile
from sandbox.games import plugin
from sandbox.native import Game

GOOF = "goofspiel"


def goof(n: int, order: str = "descending", returns: str = "win_loss", seed: int = 0) -> Game:
    return Game(GOOF, {"num_cards": n, "points_order": order, "returns_type": returns},
                seed=seed)


# -------------------------------------------------- a pure-Python rules twin
def returns(points: tuple[int, int], kind: str) -> tuple[float, float]:
    """OpenSpiel's returns for two players (goofspiel.c's PARAMS_DOC)."""
    p0, p1 = points
    if kind == "total_points":
        return float(p0), float(p1)
    if kind == "point_difference":
        return (p0 - p1) / 2, (p1 - p0) / 2
    return (0.0, 0.0) if p0 == p1 else ((1.0, -1.0) if p0 > p1 else (-1.0, 1.0))


def play(prizes, bids0, bids1, kind="win_loss", points=(0, 0)):
    """The returns when the prizes come in this order and the seats bid so,
    from these points."""
    pts = list(points)
    for v, c0, c1 in zip(prizes, bids0, bids1):
        if c0 > c1:
            pts[0] += v
        elif c1 > c0:
            pts[1] += v
    return returns(tuple(pts), kind)


def reduced_strategies(n: int, hand=None, other=None):
    """Every reduced pure strategy of a seat holding `hand` (default 1..n)
    against a seat holding `other` with a fixed prize order, as a table
    (own bids so far, the other's bids so far) -> card, over the histories
    consistent with the seat's own earlier choices."""
    hand = tuple(hand or range(1, n + 1))
    other = tuple(other or range(1, n + 1))

    def expand(mine, theirs):
        # the seat's choices from the history (mine, theirs) on
        if len(mine) == len(hand):
            yield {}
            return
        for c in (x for x in hand if x not in mine):
            subs = [list(expand(mine + (c,), theirs + (o,)))
                    for o in other if o not in theirs]
            for choice in itertools.product(*subs):
                table = {(mine, theirs): c}
                for sub in choice:
                    table.update(sub)
                yield table

    return list(expand((), ()))


def play_tables(t0, t1, n, prizes, kind="win_loss", points=(0, 0)):
    b0, b1 = (), ()
    for _ in range(n):
        c0, c1 = t0[(b0, b1)], t1[(b1, b0)]
        b0, b1 = b0 + (c0,), b1 + (c1,)
    return play(prizes, b0, b1, kind, points)


# ------------------------------------------------------------------ by hand
def test_goofspiel_2_by_hand():
    # Prizes 2 then 1, cards {1, 2}; the second bid is forced. Seat 0's
    # payoffs (rows: bid 1, bid 2; columns likewise): (1,1) then (2,2): all
    # tied, 0; (1,2): seat 1 takes 2, seat 0 takes 1: -1; (2,1): +1; (2,2): 0.
    # A = [[0, -1], [1, 0]]: bidding 2 dominates, value 0 at (2, 2).
    # Uniform play: value 0; bidding 2 against it earns (1 + 0)/2 = 1/2 per seat.
    tree = build_tree(goof(2))
    assert tree.zero_sum
    eq = solve_equilibrium(tree)
    assert eq.value == pytest.approx(0.0, abs=1e-12)
    root = tree.nodes[tree.root[0][1]]
    x, y = eq.strategies[root.key]
    assert root.moves == ((0, 1), (0, 1))          # move id = card - 1
    np.testing.assert_allclose(x, [0, 1], atol=1e-9)
    np.testing.assert_allclose(y, [0, 1], atol=1e-9)
    u = evaluate_profile(tree, uniform_profile)
    np.testing.assert_allclose(u.value, [0, 0], atol=1e-12)
    np.testing.assert_allclose(u.best_response, [0.5, 0.5], atol=1e-12)
    assert u.nashconv == pytest.approx(1.0)


# ------------------------------------------------ brute force, 3 cards
@pytest.fixture(scope="module")
def strategies3():
    s = reduced_strategies(3)
    assert len(s) == 3 * 2 ** 3   # first bid, then one of 2 cards after each of 3 replies
    return s


@pytest.mark.parametrize("kind", ["win_loss", "point_difference"])
def test_goofspiel_3_value_by_the_normal_form(strategies3, kind):
    """The 24x24 normal form of reduced pure strategies, solved by one LP,
    against backward induction with an LP per node."""
    prizes = (3, 2, 1)
    a = np.array([[play_tables(t0, t1, 3, prizes, kind)[0] for t1 in strategies3]
                  for t0 in strategies3])
    nf = solve_zero_sum(a)
    eq = solve_equilibrium(build_tree(goof(3, returns=kind)))
    assert eq.value == pytest.approx(nf.value, abs=1e-9)


@pytest.mark.parametrize("kind", ["win_loss", "point_difference"])
def test_an_uneven_position_by_the_normal_form(kind):
    """4 cards; after a first round where seat 0 bid 1 and seat 1 bid 2 (seat 1
    took the 4): hands {2,3,4} and {1,3,4}, prizes 3, 2, 1 to come. Not
    symmetric, so the value is not 0 by symmetry."""
    s0, s1 = reduced_strategies(3, (2, 3, 4), (1, 3, 4)), reduced_strategies(3, (1, 3, 4),
                                                                            (2, 3, 4))
    a = np.array([[play_tables(t0, t1, 3, (3, 2, 1), kind, (0, 4))[0] for t1 in s1]
                  for t0 in s0])
    nf = solve_zero_sum(a)
    g = goof(4, returns=kind)
    g.step([0, 1])
    eq = solve_equilibrium(build_tree(g))
    # the tree counts the rewards from its root on: point_difference paid the
    # first round's -2 already; win_loss pays everything at the end
    past = returns((0, 4), kind)[0] if kind == "point_difference" else 0.0
    assert eq.value == pytest.approx(nf.value - past, abs=1e-9)
    assert abs(eq.value) > 0.1


def uniform_value_and_br(strategies, n, prizes, kind):
    """Against a uniformly random seat (whose bids are a uniformly random
    order of its cards, whatever happened), by enumeration: the profile's
    value and the best pure strategy's value, for seat 0 (symmetric game)."""
    orders = list(itertools.permutations(range(1, n + 1)))
    profile = np.mean([play(prizes, o0, o1, kind) for o0 in orders for o1 in orders], axis=0)
    best = max(np.mean([_vs_fixed(t0, o1, n, prizes, kind) for o1 in orders])
               for t0 in strategies)
    return profile, best


def _vs_fixed(t0, o1, n, prizes, kind):
    b0, b1 = (), ()
    for k in range(n):
        b0, b1 = b0 + (t0[(b0, b1)],), b1 + (o1[k],)
    return play(prizes, b0, b1, kind)[0]


@pytest.mark.parametrize("kind", ["win_loss", "point_difference", "total_points"])
def test_goofspiel_3_uniform_nashconv_by_enumeration(strategies3, kind):
    prizes = (3, 2, 1)
    profile, best = uniform_value_and_br(strategies3, 3, prizes, kind)
    want = 2 * (best - profile[0])          # both seats gain the same (symmetry)
    tree = build_tree(goof(3, returns=kind))
    assert tree.zero_sum == (kind != "total_points")
    u = evaluate_profile(tree, uniform_profile)
    np.testing.assert_allclose(u.value, profile, atol=1e-12)
    np.testing.assert_allclose(u.best_response, [best, best], atol=1e-12)
    assert u.nashconv == pytest.approx(want, abs=1e-12)
    assert want > 0.1


def test_ascending_order_is_another_game(strategies3):
    prizes = (1, 2, 3)
    profile, best = uniform_value_and_br(strategies3, 3, prizes, "point_difference")
    u = evaluate_profile(build_tree(goof(3, order="ascending", returns="point_difference")),
                         uniform_profile)
    np.testing.assert_allclose(u.best_response, [best, best], atol=1e-12)


def test_best_response_to_a_fixed_asymmetric_profile(strategies3):
    """Seat 1 always bids its highest card, seat 0 its lowest: the value of the
    profile and each seat's best response, by playing every reduced strategy."""
    prizes = (3, 2, 1)
    high = next(t for t in strategies3 if all(c == max(set((1, 2, 3)) - set(m))
                                              for (m, _), c in t.items()))
    low = next(t for t in strategies3 if all(c == min(set((1, 2, 3)) - set(m))
                                             for (m, _), c in t.items()))
    v = play_tables(low, high, 3, prizes)
    br0 = max(play_tables(t, high, 3, prizes)[0] for t in strategies3)
    br1 = max(play_tables(low, t, 3, prizes)[1] for t in strategies3)
    tree = build_tree(goof(3))

    def profile(node):
        game = tree.games[node.key]
        h0, h1 = game.legal_moves(0), game.legal_moves(1)
        # moves are ascending: seat 0 bids its lowest card, seat 1 its highest
        return np.eye(len(h0))[0], np.eye(len(h1))[-1]

    got = evaluate_profile(tree, profile)
    np.testing.assert_allclose(got.value, v, atol=1e-12)
    np.testing.assert_allclose(got.best_response, [br0, br1], atol=1e-12)
    assert got.nashconv == pytest.approx((br0 - v[0]) + (br1 - v[1]))
    assert got.nashconv > 0


# ------------------------------------------------------- random prize order
def expectimax_uniform(n, kind):
    """Seat 0's best response to uniform play with prizes drawn at random, by
    an expectimax over the pure-Python rules (hands, points, prizes left)."""
    from functools import lru_cache
    full = frozenset(range(1, n + 1))

    @lru_cache(maxsize=None)
    def after_draw(h0, h1, p0, p1, left):
        if not left:
            return returns((p0, p1), kind)[0]
        return sum(choose(h0, h1, p0, p1, left - {v}, v) for v in left) / len(left)

    @lru_cache(maxsize=None)
    def choose(h0, h1, p0, p1, left, prize):
        best = -1e9
        for c0 in h0:
            tot = 0.0
            for c1 in h1:
                q0, q1 = p0 + (prize if c0 > c1 else 0), p1 + (prize if c1 > c0 else 0)
                tot += after_draw(h0 - {c0}, h1 - {c1}, q0, q1, left)
            best = max(best, tot / len(h1))
        return best

    return after_draw(full, full, 0, 0, full)


@pytest.mark.parametrize("kind", ["win_loss", "point_difference"])
def test_random_prize_order_enumerates_the_draws(kind):
    game = goof(3, order="random", returns=kind, seed=5)
    tree = build_tree(game, plugin(GOOF).chance_outcomes)
    assert len(tree.root) == 3 and sum(p for p, _ in tree.root) == pytest.approx(1.0)
    u = evaluate_profile(tree, uniform_profile)
    want = expectimax_uniform(3, kind)
    np.testing.assert_allclose(u.best_response, [want, want], atol=1e-12)
    np.testing.assert_allclose(u.value, [0, 0], atol=1e-12)
    # 3 first prizes, 9 joint bids, 2 second prizes: 3 + 54 + 3*9*2*4 decision states
    assert len(tree.nodes) == 3 + 3 * 9 * 2 + 3 * 9 * 2 * 4 * 1


def test_the_chance_states_carry_the_drawn_prize():
    game = goof(4, order="random", seed=3)
    outs = plugin(GOOF).chance_outcomes(game)
    prizes = sorted(int(g.export()[6]) for _, g in outs)
    assert prizes == [1, 2, 3, 4]
    assert [p for p, _ in outs] == [0.25] * 4
    fixed = goof(4)
    assert plugin(GOOF).chance_outcomes(fixed) == [(1.0, fixed)]


# ---------------------------------------------------------- properties
def test_equilibrium_profile_has_no_gain_and_nashconv_is_not_negative():
    tree = build_tree(goof(4))
    eq = solve_equilibrium(tree)
    assert evaluate_profile(tree, eq.profile).nashconv == pytest.approx(0.0, abs=1e-9)
    rng = np.random.default_rng(3)

    def random_profile(node):
        return tuple(rng.dirichlet(np.ones(len(m))) for m in node.moves)

    cache = {}
    got = evaluate_profile(tree, lambda n: cache.setdefault(n.key, random_profile(n)))
    assert got.nashconv > 0
    assert np.all(got.best_response >= got.value - 1e-12)
    # the value is between what each seat can guarantee
    assert got.best_response[0] >= eq.value - 1e-9 and -got.best_response[1] <= eq.value + 1e-9


def test_general_sum_has_no_single_value():
    tree = build_tree(goof(3, returns="total_points"))
    with pytest.raises(ValueError, match="zero-sum"):
        solve_equilibrium(tree)


def test_a_one_shot_matrix_tree_agrees_with_matrix_nashconv():
    game = Game("matrix", {"preset": "biased_rps"})
    tree = build_tree(game)
    assert len(tree.nodes) == 1
    a = np.array([[0, -25, 50], [25, 0, -5], [-50, 5, 0]], float)
    x, y = np.array([0.2, 0.5, 0.3]), np.array([0.6, 0.1, 0.3])
    got = evaluate_profile(tree, lambda node: (x, y))
    assert got.nashconv == pytest.approx(matrix_nashconv(a, -a, x, y))
    assert solve_equilibrium(tree).value == pytest.approx(0.0, abs=1e-9)


def test_refuses_more_than_two_seats():
    with pytest.raises(ValueError, match="two-seat"):
        build_tree(Game(GOOF, {"num_cards": 3, "players": 3}))

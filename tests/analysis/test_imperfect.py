"""Exact best responses over information states and tabular CFR+ (imperfect.py),
and `exploit` on hidden-bid goofspiel (exploit_imp.py).

Oracles: the 2-card game solved by hand; OpenSpiel's nash_conv of the
uniform policy (1.3333 with 3 cards, 1.41667 with 4: `nash_conv(
convert_to_turn_based(goofspiel(num_cards=N, imp_info=True)), uniform)`,
recomputed here when pyspiel is installed); the best response that may see
the state (tree.py, perfect information), which must gain strictly more."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.analysis.exploit import exploit_scenario
from sandbox.analysis.imperfect import (build_info_tree, evaluate_strategy, solve_cfr,
                                        uniform_strategy)
from sandbox.analysis.tree import build_tree, evaluate_profile, uniform_profile
from sandbox.config import scenario_from_dict
from sandbox.games import plugin
from sandbox.native import Game

P = plugin("goofspiel")


def tree_of(n: int, imp: int = 1):
    return build_info_tree(Game("goofspiel", f"num_cards={n} imp_info={imp}", seed=1),
                           P.info_key)


def test_two_cards_by_hand():
    # Prizes 2 then 1. Bidding the 2 wins the 2 and loses the 1: a win (+1);
    # equal bids tie both rounds: a draw. Row payoffs (bid 1, bid 2):
    # [[0, -1], [1, 0]]. Against uniform, bidding 2 earns 1/2 and uniform 0:
    # each seat gains 1/2, NashConv 1; the equilibrium bids 2, value 0.
    t = tree_of(2)
    u = evaluate_strategy(t, uniform_strategy(t))
    assert np.allclose(u.value, 0.0) and np.allclose(u.best_response, [0.5, 0.5])
    assert u.nashconv == pytest.approx(1.0)
    eq = solve_cfr(t, 1e-6)
    assert eq.nashconv <= 1e-6 and eq.value[0] == pytest.approx(0.0, abs=1e-6)
    root = t.nodes[t.root[0][1]]
    for seat in (0, 1):
        x = eq.strategy(seat, root.infos[seat])
        assert x[list(t.moves_at[seat][root.infos[seat]]).index(1)] > 0.999   # move 1 = card 2


@pytest.mark.parametrize("n, expect", [(3, 4 / 3), (4, 1.4166666666666665)])
def test_uniform_nashconv_matches_openspiel(n, expect):
    t = tree_of(n)
    assert evaluate_strategy(t, uniform_strategy(t)).nashconv == pytest.approx(expect, abs=1e-12)


def test_uniform_nashconv_recomputed_by_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability
    g = pyspiel.convert_to_turn_based(pyspiel.load_game(
        "goofspiel(num_cards=3,imp_info=True,points_order=descending,returns_type=win_loss)"))
    theirs = exploitability.nash_conv(g, policy.UniformRandomPolicy(g))
    t = tree_of(3)
    assert evaluate_strategy(t, uniform_strategy(t)).nashconv == pytest.approx(theirs, abs=1e-9)


def test_best_response_cannot_see_the_state():
    # Seeing the opponent's past bids (perfect information) tells its hand:
    # that best response gains strictly more against uniform than one that
    # may only use the information set.
    # (With 3 cards the two agree: the last bid is forced, and one seen bid
    # does not change the best reply. With 4 they differ: 1.5 vs 17/12.)
    g = Game("goofspiel", "num_cards=4", seed=1)
    full = evaluate_profile(build_tree(g), uniform_profile)
    t = tree_of(4)
    hidden = evaluate_strategy(t, uniform_strategy(t))
    assert full.nashconv == pytest.approx(1.5)
    assert full.nashconv > hidden.nashconv + 0.05


def test_cfr_equilibrium_against_the_exact_best_response():
    t = tree_of(3)
    eq = solve_cfr(t, 1e-4)
    assert eq.nashconv <= 1e-4
    ev = evaluate_strategy(t, eq.strategy)
    v0 = float(ev.value[0])
    # neither seat can do better than the game value against the other
    assert ev.best_response[0] == pytest.approx(v0, abs=1e-4)
    assert ev.best_response[1] == pytest.approx(-v0, abs=1e-4)
    # symmetric game: value 0
    assert v0 == pytest.approx(0.0, abs=1e-3)


def test_information_sets_hold_states_of_one_depth_and_one_move_set():
    t = tree_of(4)
    for seat in (0, 1):
        for keys in t.infosets[seat].values():
            assert len({t.nodes[k].depth for k in keys}) == 1
    assert max(len(v) for v in t.infosets[0].values()) > 1


def hidden_three_cards():
    """Goofspiel-3 with hidden bids, both seats determinized RM, 300 iterations."""
    search = {"max_depth": 3, "policy": "rm", "final_move": "sample", "gamma": 1.0}
    return scenario_from_dict({"name": "t", "game": "goofspiel",
                               "game_params": {"num_cards": 3, "imp_info": 1}, "seed": 4,
                               "budget": {"ms": 0, "iterations": 300},
                               "players": [{"name": "A", "search": search},
                                           {"name": "B", "search": search}]})


def test_exploit_accepts_hidden_bids():
    sc = hidden_three_cards()
    r = exploit_scenario(sc)
    t = tree_of(3)
    assert r.uniform_nashconv == pytest.approx(4 / 3)
    assert r.decision_states == sum(len(t.decision_infosets(s)) for s in (0, 1))
    assert r.searches == r.decision_states
    assert 0.0 <= r.nashconv < r.uniform_nashconv
    assert r.game_value == pytest.approx(0.0, abs=1e-3) and r.equilibrium_nashconv <= 1e-4
    again = exploit_scenario(sc)
    assert again.nashconv == r.nashconv                     # reproducible


def test_no_equilibrium_skips_the_reference_and_keeps_every_nashconv(capsys):
    """--no-equilibrium leaves out the game value (a pure-Python CFR+ solve,
    most of a goofspiel-5 run), not the figures: the same NashConv, the
    same uniform one, no value and a note saying why."""
    from sandbox.cli import main
    sc = hidden_three_cards()
    full = exploit_scenario(sc)
    bare = exploit_scenario(sc, equilibrium=False)
    assert bare.nashconv == full.nashconv and bare.policy_nashconv == full.policy_nashconv
    assert bare.uniform_nashconv == full.uniform_nashconv
    assert full.game_value is not None
    assert bare.game_value is None and bare.equilibrium_nashconv is None
    assert "--no-equilibrium" in bare.value_note
    assert "not solved (--no-equilibrium)" in bare.text()
    assert main(["exploit", "goofspiel_4_imp_info", "--set", "game_params.num_cards=3",
                 "--iterations", "50", "--seeds", "2", "--no-equilibrium"]) == 0
    out = capsys.readouterr().out
    assert "game value (CFR+): n/a (not solved (--no-equilibrium))" in out

"""Convergence race: checkpoints, and each checkpoint's NashConv recomputed
independently from the searches' root stats with the preset's table typed
in by hand."""
from __future__ import annotations

import json

import pytest

from sandbox.labs.common import checkpoints
from sandbox.labs.kinds import matrix_game, matrix_params, payoff_tables
from sandbox.labs.race import RaceLab, run_race
from sandbox.native import InvalidArgument

# biased RPS as native/src/games/matrix.c's comment gives it (zero-sum)
BIASED = [[0, -25, 50], [25, 0, -5], [-50, 5, 0]]


def nashconv_by_hand(a, x, y) -> float:
    """Zero-sum: b = -a. Plain loops, no numpy, no matrix_nashconv."""
    n, m = len(a), len(a[0])
    v = sum(x[i] * a[i][j] * y[j] for i in range(n) for j in range(m))
    best_row = max(sum(a[i][j] * y[j] for j in range(m)) for i in range(n))
    best_col = max(sum(-a[i][j] * x[i] for i in range(n)) for j in range(m))
    return (best_row - v) + (best_col + v)


def test_checkpoints_are_log_spaced_up_to_the_total():
    assert checkpoints(100_000) == [100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000,
                                    100_000]
    assert checkpoints(3000) == [100, 200, 500, 1000, 2000, 3000]
    assert checkpoints(40) == [40]


def test_a_checkpoints_nashconv_recomputed_from_the_root_stats():
    with RaceLab("biased_rps", ["ucb1"], seed=3) as lab:
        for cp in (100, 700):
            pt = lab.advance_to(cp)[0]
            s = lab.runners[0].search
            rows = [sorted(s.root_stats(a), key=lambda m: m.move) for a in (0, 1)]
            x = [m.policy for m in rows[0]]
            y = [m.policy for m in rows[1]]
            x, y = [p / sum(x) for p in x], [p / sum(y) for p in y]
            want = nashconv_by_hand(BIASED, x, y)
            assert pt.iterations == cp == s.stats().iterations
            assert pt.nashconv == pytest.approx(want, rel=1e-9, abs=1e-12)
            assert pt.nashconv_norm == pytest.approx(want / 100.0, rel=1e-9, abs=1e-12)
            v = [m.visits for m in rows[0]]
            assert pt.top_share == pytest.approx(max(v) / sum(v))
            assert pt.top_move == v.index(max(v))


def test_nashconv_by_hand_knows_pure_and_equilibrium_strategies():
    # the oracle itself: rock vs rock in biased RPS, each gains 25 by paper
    assert nashconv_by_hand(BIASED, [1, 0, 0], [1, 0, 0]) == 50
    eq = [1 / 16, 5 / 8, 5 / 16]
    assert nashconv_by_hand(BIASED, eq, eq) == pytest.approx(0.0, abs=1e-12)


def test_payoff_tables_of_a_custom_general_sum_table():
    a, b = payoff_tables(matrix_game(matrix_params("3,0;5,1|3,5;0,1.5")))
    assert a.tolist() == [[3, 0], [5, 1]] and b.tolist() == [[3, 5], [0, 1.5]]
    a, b = payoff_tables(matrix_game(matrix_params("biased_rps")))
    assert a.tolist() == BIASED and (b == -a).all()


def test_the_report_table_and_json():
    rep = run_race("rps", 1000, "ucb1,rm", seed=2)
    assert rep.checkpoints == [100, 200, 500, 1000]
    assert list(rep.policies) == ["ucb1", "rm"] and rep.payoff_range == 2.0
    lines = rep.text().splitlines()
    assert sum(1 for ln in lines if ln.lstrip().startswith(("100 ", "200 ", "500 ", "1,000 "))) \
        == 4
    assert max(len(ln) for ln in lines) <= 100          # a terminal's width, not 170
    d = json.loads(json.dumps(rep.to_dict(), allow_nan=False))
    assert len(d["policies"]["rm"]) == 4 and d["policies"]["rm"][-1]["iterations"] == 1000


def test_same_seed_same_curve():
    a = run_race("biased_rps", 2000, "ucb1", seed=5).policies["ucb1"]
    b = run_race("biased_rps", 2000, "ucb1", seed=5).policies["ucb1"]
    assert a == b


@pytest.mark.parametrize("kwargs, match", [
    ({"game": "1,2;3"}, "same number of columns"), ({"game": "nope"}, "unknown game"),
    ({"game": "1,x"}, "values ','-separated"), ({"game": "1,nan"}, "finite number"),
    ({"iterations": 0}, "--iterations"), ({"policies": "ucb1,ucb3"}, "unknown policy"),
    ({"policies": "rm,rm"}, "twice"), ({"policies": ","}, "at least one"),
    ({"policies": "exp3:sampled"}, "applies to rm and rm_plus only"),
    ({"policies": "rm:exact"}, "unknown variant"), ({"policies": "rm:sampled,rm:sampled"}, "twice")])
def test_bad_settings_are_refused(kwargs, match):
    with pytest.raises(InvalidArgument, match=match):   # LabError is one
        run_race(**{"iterations": 100, **kwargs})


def test_a_sampled_entry_is_the_policy_with_counterfactual_off():
    """rm:sampled races RM with counterfactual = off: its curve is a search
    made with that setting (the same seed gives the same curve), and it is
    not RM's default curve."""
    from sandbox.native import Search, SearchParams
    rep = run_race("biased_rps", 5000, "rm,rm:sampled", seed=3)
    assert list(rep.policies) == ["rm", "rm:sampled"]
    assert "runs as" not in rep.text()           # rm:sampled runs as rm: no note
    last = rep.policies["rm:sampled"][-1]
    g = matrix_game(matrix_params("biased_rps"))
    with Search(g, SearchParams(max_depth=1, tree_reuse=False, policy="rm", random_threshold=10,
                                counterfactual="off"), seed=3) as s:
        s.run(iterations=5000)
        x = tuple(m.policy for m in s.root_stats(0))
    g.close()
    assert last.x == pytest.approx(x, abs=1e-12)
    assert rep.policies["rm"][-1].x != pytest.approx(x, abs=1e-3)



def test_a_gtcfr_entry_is_growing_tree_cfr_and_converges_fastest():
    """gtcfr races growing-tree CFR (an iteration is an expansion): its curve
    is that search's root average strategy, scored by hand like the others,
    and on biased RPS its NashConv ends far below regret matching's."""
    from sandbox.native import Search, SearchParams
    rep = run_race("biased_rps", 2000, "rm,gtcfr", seed=3)
    assert rep.in_force["gtcfr"] == "gtcfr" and "runs as" not in rep.text()
    last = rep.policies["gtcfr"][-1]
    g = matrix_game(matrix_params("biased_rps"))
    with Search(g, SearchParams(algorithm="gtcfr", max_depth=1, tree_reuse=False,
                                random_threshold=10), seed=3) as s:
        s.run(iterations=2000)
        x = [m.policy for m in sorted(s.root_stats(0), key=lambda m: m.move)]
        y = [m.policy for m in sorted(s.root_stats(1), key=lambda m: m.move)]
    g.close()
    assert last.x == pytest.approx(x, abs=1e-12) and last.y == pytest.approx(y, abs=1e-12)
    assert last.nashconv == pytest.approx(nashconv_by_hand(BIASED, x, y), abs=1e-9)
    assert last.nashconv < rep.policies["rm"][-1].nashconv / 10

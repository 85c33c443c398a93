"""Query solving with hidden information (`train --targets solve` with
pubcfr players): each turn the players' public belief states, and states
of their frontiers, are solved afresh by pubcfr with both ranges fixed;
the targets are a value per private-state slot and the range-mixed
average strategy. The oracle is the hand-solved goofspiel-3 subgame of
tests/native/test_pubcfr_query.py."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.cli import main
from sandbox.config import load_scenario
from sandbox.learn.buffer import KIND_MAIN, KIND_QUERY, payload_dtype
from sandbox.learn.selfplay import SelfPlayJob, game_dims, play_selfplay
from sandbox.learn.solve import solve_belief, solver_params
from sandbox.learn.train import TrainConfig
from sandbox.native import Game, PublicBelief, _lib

NO_JAX = pytest.mark.skipif(_lib.SANITIZED, reason="JAX does not load under ASan")
PUBCFR = ["players.0.search.algorithm=pubcfr", "players.1.search.algorithm=pubcfr"]


def test_a_solved_belief_gives_each_slot_its_hand_solved_value():
    # after round 1 of goofspiel-3 (seat 0 bid 3 and won): seat 0 holds
    # {1, 2}; seat 1 {2, 3} (weight 0.3) or {1, 3} (0.7)
    g = Game("goofspiel", "num_cards=3 imp_info=1 points_order=descending "
             "returns_type=win_loss", seed=1)
    g.step([2, 0])
    ids = (np.array([0b011], np.uint32), np.array([0b110, 0b101], np.uint32))
    b = PublicBelief(ids=ids, weights=(np.array([1.0]), np.array([0.3, 0.7])),
                     pairs=np.array([[0, 0], [0, 1]], np.uint32))
    slots = g.features_layout().slots
    got = solve_belief(g, b, {"algorithm": "pubcfr", "max_depth": 5}, 3000, seed=2, slots=slots)
    s12, s23, s13 = (g.private_slot(h) for h in (0b011, 0b110, 0b101))
    assert got.mask[0].tolist() == [1.0 if k == s12 else 0.0 for k in range(slots)]
    assert got.values[0, s12] == pytest.approx(0.3 / 2 + 0.7, abs=0.01)
    assert got.values[1, [s23, s13]] == pytest.approx([-0.5, -1.0], abs=0.01)
    assert got.ranges[1, [s23, s13]] == pytest.approx([0.3, 0.7])
    # seat 1's policy: each type's strategy mixed by its weight; its moves
    # are its hands' cards - 1, so legal are cards 1, 2 and 3
    assert sum(got.policies[1].values()) == pytest.approx(1.0)
    assert got.legal[1, :3].all() and not got.legal[1, 3:].any()
    assert got.legal[0, :2].all() and not got.legal[0, 2:].any()


def hidden_job(seed: int, queries: int = 2, recursive: float = 0.0, ranges: str = "current"):
    sc = load_scenario("goofspiel_4_imp_info").with_settings(
        PUBCFR + ["players.0.search.max_depth=2", "players.1.search.max_depth=2",
                  "budget.iterations=100"])
    solver = solver_params(sc.players[0].search.model_dump(mode="json"))
    solver["max_depth"] = 4
    job = SelfPlayJob("k", sc.model_dump(mode="json"), seed, None, "solve", solver, 400,
                      queries, "tree", recursive, ranges)
    with Game(sc.game, sc.game_param_string(), 1) as g:
        return job, game_dims(g)


def test_hidden_records_hold_beliefs_and_per_slot_targets_in_view_order():
    job, dims = hidden_job(3)
    assert job.solver["algorithm"] == "pubcfr"
    recs = np.frombuffer(play_selfplay(job)["records"], dtype=payload_dtype(dims))
    assert (recs["kind"] == KIND_MAIN).sum() > 0 and (recs["kind"] == KIND_QUERY).sum() > 0
    assert np.all(np.isnan(recs["outcome"]))
    for a, b in zip(recs[0::2], recs[1::2]):      # a position's two views
        assert (a["view"], b["view"]) == (0, 1)
        assert np.allclose(a["ranges"].sum(axis=1), 1.0, atol=1e-5)
        assert np.allclose(a["ranges"][::-1], b["ranges"])
        assert np.allclose(a["value"][::-1], b["value"]) and np.allclose(a["policy"][::-1],
                                                                         b["policy"])
        assert np.all(np.abs(a["value"]) <= 1.0 + 1e-6)
        # a value where the slot is possible; none where it is not. (A
        # query under current ranges can leave a possible hand of one seat
        # with no weight of the other on any hand it pairs with: no value.)
        if a["kind"] == KIND_MAIN:
            assert np.all(a["value_mask"][a["ranges"] > 0] == 1.0)
        assert np.all(a["value"][a["value_mask"] == 0] == 0.0)
        assert np.allclose(a["policy"].sum(axis=1), 1.0)
        assert np.all(a["policy"][a["legal"] == 0] == 0)
    # the opening: one hand each, goofspiel's symmetric value 0
    first = recs[(recs["turn"] == 0) & (recs["kind"] == KIND_MAIN)][0]
    assert first["value"][first["value_mask"] == 1] == pytest.approx([0.0, 0.0], abs=0.05)
    # later positions hold ranges over several hands (the beliefs)
    assert ((recs["ranges"] > 0).sum(axis=2) > 1).any()


def test_the_same_hidden_job_gives_the_same_records():
    job, _ = hidden_job(5, recursive=0.5)
    assert play_selfplay(job)["records"] == play_selfplay(job)["records"]


def test_current_range_queries_are_other_belief_states_than_average_ones():
    """The main positions are the same either way (the players' own
    searches); the queries carry other ranges (the C export is pinned in
    tests/native/test_pubcfr_query.py), and the two are other buffers."""
    recs = {}
    for ranges in ("current", "average"):
        job, dims = hidden_job(3, queries=3, ranges=ranges)
        recs[ranges] = np.frombuffer(play_selfplay(job)["records"], dtype=payload_dtype(dims))
    main = {k: r[r["kind"] == KIND_MAIN] for k, r in recs.items()}
    assert main["current"].tobytes() == main["average"].tobytes()
    q = {k: r[r["kind"] == KIND_QUERY] for k, r in recs.items()}
    assert len(q["current"]) > 0 and len(q["average"]) > 0
    assert not np.array_equal(q["current"]["ranges"], q["average"]["ranges"])
    sc = load_scenario("goofspiel_4_imp_info").with_settings(PUBCFR).model_dump(mode="json")
    base = dict(scenario=sc, scenario_name="x", out="x", work="x")
    assert (TrainConfig(**base).selfplay_key()
            != TrainConfig(**base, query_ranges="average").selfplay_key())
    assert "query_ranges" not in TrainConfig(**base, query_ranges="average").selfplay_key()


def test_the_solver_is_pubcfr_at_the_solve_depth():
    sc = load_scenario("goofspiel_4_imp_info").with_settings(PUBCFR).model_dump(mode="json")
    base = dict(scenario=sc, scenario_name="x", out="x", work="x")
    cfg = TrainConfig(**base, solve_depth=3)
    assert cfg.solver()["algorithm"] == "pubcfr" and cfg.solver()["max_depth"] == 3
    assert cfg.selfplay_key() != TrainConfig(**base).selfplay_key()


@NO_JAX
def test_walk_queries_are_refused_with_hidden_information(tmp_path, capsys):
    argv = ["train", "goofspiel_4_imp_info", "--queries-from", "walk", "--workers", "0",
            "--quiet", "--out", str(tmp_path / "x.sbxnet")]
    for s in PUBCFR:
        argv += ["--set", s]
    assert main(argv) != 0
    err = capsys.readouterr().err.strip()
    assert "--queries-from tree" in err and "\n" not in err, err


@NO_JAX
def test_a_hidden_information_net_trains_end_to_end_and_pubcfr_reads_it(tmp_path, capsys):
    import json
    from sandbox.native import Search
    out = tmp_path / "h.sbxnet"
    argv = ["train", "goofspiel_4_imp_info", "--iterations", "50", "--games", "2",
            "--steps", "5", "--solve-iterations", "100", "--queries", "1", "--size", "tiny",
            "--workers", "0", "--quiet", "--json", "--out", str(out),
            "--set", "players.0.search.max_depth=2", "--set", "players.1.search.max_depth=2"]
    for s in PUBCFR:
        argv += ["--set", s]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["positions"] > 0
    g = Game("goofspiel", "num_cards=4 imp_info=1", seed=1)
    with Search(g, {"algorithm": "pubcfr", "max_depth": 1, "value_net": str(out)}, seed=1) as s:
        s.run(iterations=20)
        assert s.best_moves()[0] in g.legal_moves(0)

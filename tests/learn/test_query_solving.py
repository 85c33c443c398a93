"""Query solving (`train --targets solve`): a solved position's targets are
the equilibrium values, on GT-CFR's side and scale, in each view's seat
order; checked against a matrix game's LP value and the exact values of
every goofspiel-4 subgame."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.analysis.lp import solve_zero_sum
from sandbox.analysis.tree import build_tree
from sandbox.config import load_scenario
from sandbox.learn.buffer import KIND_QUERY, payload_dtype
from sandbox.learn.selfplay import SelfPlayJob, game_dims, play_selfplay
from sandbox.learn.solve import solve_position, solver_params
from sandbox.cli import main
from sandbox.learn.train import TrainConfig, with_net
from sandbox.native import Game, _lib

# training imports JAX, whose C++ exceptions trip the ASan runtime
NO_JAX = pytest.mark.skipif(_lib.SANITIZED, reason="JAX does not load under ASan")

GTCFR = {"algorithm": "gtcfr", "rollout": False}


def test_a_solved_matrix_game_gives_the_lp_value_to_each_side():
    # row payoffs [[3, -1], [-2, 1]], zero-sum: value 1/7, row (3/7, 4/7), column (2/7, 5/7)
    with Game("matrix", "rows=2 cols=2 a0=3/-1 a1=-2/1", seed=1) as g:
        got = solve_position(g, GTCFR, 4000, seed=5)
    assert got.values[0] == pytest.approx(1 / 7, abs=2e-3)
    assert got.values[1] == pytest.approx(-1 / 7, abs=2e-3)
    assert [got.policies[0][m] for m in (0, 1)] == pytest.approx([3 / 7, 4 / 7], abs=0.02)
    assert [got.policies[1][m] for m in (0, 1)] == pytest.approx([2 / 7, 5 / 7], abs=0.02)


def exact_by_features(params: str) -> dict[bytes, float]:
    """Seat 0's equilibrium value of every goofspiel state, keyed by its
    features from view 0 (backward induction with an LP per state)."""
    with Game("goofspiel", params, seed=1) as g:
        tree = build_tree(g)
    memo: dict[int, float] = {}

    def value(key: int) -> float:
        if key not in memo:
            node = tree.nodes[key]
            a = np.array([[sum(p * (r[0] + (0.0 if c is None else value(c))) for p, r, c in cell)
                           for cell in row] for row in node.outcomes])
            memo[key] = solve_zero_sum(a).value
        return memo[key]

    return {tree.games[k].features(view=0).tobytes(): value(k) for k in tree.nodes}


def test_solved_records_hold_the_exact_values_in_each_views_seat_order():
    sc = load_scenario("goofspiel_4_exploit").with_settings(
        ["players.0.search.algorithm=gtcfr", "players.1.search.algorithm=gtcfr",
         "budget.iterations=50"])
    exact = exact_by_features(sc.game_param_string())
    job = SelfPlayJob("k", sc.model_dump(mode="json"), 3, None, "solve",
                      solver_params(sc.players[0].search.model_dump(mode="json")), 3000, 3)
    res = play_selfplay(job)
    with Game(sc.game, sc.game_param_string(), 1) as g:
        dims = game_dims(g)
    recs = np.frombuffer(res["records"], dtype=payload_dtype(dims))
    assert (recs["kind"] == KIND_QUERY).sum() > 0 and np.all(np.isnan(recs["outcome"]))
    nonzero = 0
    for a, b in zip(recs[0::2], recs[1::2]):      # a position's two views
        assert (a["view"], b["view"]) == (0, 1)
        v = exact[a["features"].tobytes()]
        nonzero += abs(v) > 0.1
        # view 0: seat 0 then seat 1; view 1: seat 1 first
        assert a["value"][:, 0] == pytest.approx([v, -v], abs=0.02)
        assert b["value"][:, 0] == pytest.approx([-v, v], abs=0.02)
        assert np.allclose(a["policy"][::-1], b["policy"])
        assert np.allclose(a["policy"].sum(axis=1), 1) and np.all(a["policy"][a["legal"] == 0] == 0)
    assert nonzero >= 3            # the check is not all draws


def test_the_same_job_gives_the_same_records():
    sc = load_scenario("goofspiel_4_exploit").with_settings(["budget.iterations=50"])
    job = SelfPlayJob("k", sc.model_dump(mode="json"), 4, None, "solve",
                      solver_params(sc.players[0].search.model_dump(mode="json")), 500, 2)
    assert play_selfplay(job)["records"] == play_selfplay(job)["records"]


def test_the_buffer_key_holds_the_solve_settings():
    sc = load_scenario("goofspiel_4_exploit").model_dump(mode="json")
    base = dict(scenario=sc, scenario_name="x", out="x", work="x", query_source="walk")
    solve = TrainConfig(**base).selfplay_key()
    assert solve != TrainConfig(**base, solve_iterations=999).selfplay_key()
    assert solve != TrainConfig(**base, queries=0).selfplay_key()
    assert solve["solver"]["algorithm"] == "gtcfr"
    # tree queries are another buffer; walk buffers keep the keys they were written with
    tree = {**base, "query_source": "tree"}
    assert TrainConfig(**tree).selfplay_key() != solve
    assert TrainConfig(**tree).selfplay_key() != TrainConfig(**tree, recursive=0.2).selfplay_key()
    assert "query_source" not in solve
    # the root-value targets keep the key their buffers were written with
    assert set(TrainConfig(**base, targets="search").selfplay_key()) == {"scenario", "max_turns",
                                                                           "seed"}


def test_with_net_gives_the_net_to_the_searches_that_read_one():
    sc = load_scenario("goofspiel_4_exploit").with_settings(
        ["players.0.search.algorithm=gtcfr"]).model_dump(mode="json")
    out = with_net(sc, "n.sbxnet")
    assert out["players"][0]["search"]["value_net"] == "n.sbxnet"
    assert out["players"][1]["search"]["value_net"] == ""          # smitsimax reads none
    cfg = TrainConfig(scenario=sc, scenario_name="x", out="x", work="x", net="n.sbxnet",
                      net_hash="abc")
    assert cfg.solver()["value_net"] == "n.sbxnet" and cfg.selfplay_key()["net"] == "abc"


@NO_JAX
def test_generations_train_in_turn_and_resume(tmp_path, capsys):
    import json
    argv = ["train", "goofspiel_4_exploit", "--set", "players.0.search.algorithm=gtcfr",
            "--iterations", "50", "--games", "2", "--steps", "5", "--generations", "2",
            "--solve-iterations", "200", "--queries", "1", "--size", "tiny", "--workers", "0",
            "--quiet", "--json", "--out", str(tmp_path / "n.sbxnet")]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["generations"] == 2 and first["games_played"] == 4
    work = tmp_path / "n.sbxnet.work"
    assert (work / "gen-1" / "net.sbxnet").exists() and (work / "gen-2" / "buffer.sbxbuf").exists()
    # generation 2 played other games than generation 1 (seeds 3 and 4 after 1 and 2)
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["games_played"] == 0 and again["games_in_buffer"] == 4
    # one generation more, from a moved work folder: another command (the
    # nets' meta text holds it) and other paths, the same weights, so the
    # first two generations resume and only the third plays
    moved = tmp_path / "moved.work"
    work.rename(moved)
    more = [a if a != "2" or argv[i - 1] != "--generations" else "3"
            for i, a in enumerate(argv)] + ["--work", str(moved)]
    assert main(more) == 0
    third = json.loads(capsys.readouterr().out)
    assert third["generations"] == 3 and third["games_played"] == 2
    assert third["games_in_buffer"] == 6


@NO_JAX
def test_query_solving_refuses_hidden_information_without_pubcfr_players_in_one_line(
        tmp_path, capsys):
    # goofspiel_4_imp_info's players are determinized Smitsimax: no beliefs to solve
    assert main(["train", "goofspiel_4_imp_info", "--out", str(tmp_path / "x.sbxnet"),
                 "--workers", "0", "--quiet"]) != 0
    err = capsys.readouterr().err.strip()
    assert "pubcfr" in err and "--targets search" in err and "\n" not in err, err


def test_training_positions_do_not_depend_on_the_order_games_finished(tmp_path):
    from sandbox.learn.buffer import ReplayBuffer
    from sandbox.learn.train import training_positions
    sc = load_scenario("goofspiel_4_exploit").with_settings(["budget.iterations=20"])
    games = {s: play_selfplay(SelfPlayJob("k", sc.model_dump(mode="json"), s, None, "search"))
             for s in (1, 2, 3)}
    with Game(sc.game, sc.game_param_string(), 1) as g:
        dims = game_dims(g)
    got = []
    for name, order in (("a", (1, 2, 3)), ("b", (3, 1, 2))):
        buf = ReplayBuffer(tmp_path / name, {"game": "goofspiel"}, dims)
        for s in order:
            buf.append_game(np.frombuffer(games[s]["records"], dtype=payload_dtype(dims)))
        got.append(training_positions([buf], 20))
    assert len(got[0]) == 20 and got[0].tobytes() == got[1].tobytes()


def test_a_solvers_frontier_is_every_leaf_of_its_tree():
    """Goofspiel-3 searched out: the tree's leaves are the 36 histories of
    two rounds (the third bid is forced), enumerated here from the rules."""
    from sandbox.learn.solve import frontier_paths
    from sandbox.native import Search
    params = "num_cards=3,points_order=descending,returns_type=win_loss"
    want = set()
    with Game("goofspiel", params, seed=1) as g:
        for j1 in [(a, b) for a in g.legal_moves(0) for b in g.legal_moves(1)]:
            h = g.clone()
            h.step(list(j1))
            want |= {(j1, (a, b)) for a in h.legal_moves(0) for b in h.legal_moves(1)}
            h.close()
        with Search(g, {"algorithm": "gtcfr", "max_depth": 3, "rollout": False}, seed=1) as s:
            s.run(iterations=3000)
            got = frontier_paths(s)
    assert len(want) == 36 and len(got) == 36 and set(got) == want


def _tree_job(seed: int, recursive: float, cards: int = 4) -> tuple[np.ndarray, int]:
    sc = load_scenario("goofspiel_4_exploit").with_settings(
        ["budget.iterations=50", f"game_params.num_cards={cards}"])
    solver = solver_params({**sc.players[0].search.model_dump(mode="json"), "max_depth": 1,
                            "rollout": False})
    job = SelfPlayJob("k", sc.model_dump(mode="json"), seed, None, "solve", solver,
                      1500 if cards == 4 else 200, 3, "tree", recursive)
    with Game(sc.game, sc.game_param_string(), 1) as g:
        dims = game_dims(g)
    res = play_selfplay(job)
    assert res["records"] == play_selfplay(job)["records"]      # the same job, the same records
    return np.frombuffer(res["records"], dtype=payload_dtype(dims)), res["turns"]


def test_tree_queries_are_the_solvers_frontier_states_solved_exactly():
    """--queries-from tree: a turn's queries are states of the main solve's
    frontier (deeper than the position played), at most --queries of them
    without recursion, each solved to its exact value."""
    from sandbox.learn.buffer import KIND_MAIN
    recs, turns = _tree_job(5, 0.0)
    exact = exact_by_features(load_scenario("goofspiel_4_exploit").game_param_string())
    views = recs[recs["view"] == 0]
    for turn in range(turns):
        main = views[(views["turn"] == turn) & (views["kind"] == KIND_MAIN)]
        queries = views[(views["turn"] == turn) & (views["kind"] == KIND_QUERY)]
        assert len(main) == 1 and len(queries) <= 3
        # rounds played: the first feature
        assert (queries["features"][:, 0] > main[0]["features"][0]).all()
    assert (views["kind"] == KIND_QUERY).sum() > 0
    for r in views:
        v = exact[r["features"].tobytes()]
        assert r["value"][:, 0] == pytest.approx([v, -v], abs=0.03)
    # turn 0's queries are states of the opening's solve (its seed: the turn's first draw)
    sc = load_scenario("goofspiel_4_exploit")
    solver = solver_params({**sc.players[0].search.model_dump(mode="json"), "max_depth": 1,
                            "rollout": False})
    seed = int(np.random.default_rng([5, 0]).integers(1, 2**62))
    frontier = set()
    with Game(sc.game, sc.game_param_string(), 1) as g:
        for path in solve_position(g, solver, 1500, seed, leaves=True).leaves:
            h = g.clone()
            for joint in path:
                h.step(list(joint))
            frontier.add(h.features(view=0).tobytes())
            h.close()
    first = views[(views["turn"] == 0) & (views["kind"] == KIND_QUERY)]
    assert len(first) and all(q["features"].tobytes() in frontier for q in first)


def test_recursive_queries_add_states_from_the_queries_own_frontiers():
    """With --recursive, a query's own frontier adds queries: more than
    --queries in a turn (without, at most --queries), under the per-turn
    bound; every one is a state further on than the position played."""
    from sandbox.learn.buffer import KIND_MAIN
    base, turns0 = _tree_job(5, 0.0, cards=5)
    recs, turns = _tree_job(5, 0.9, cards=5)
    assert turns == turns0
    counts = []
    for r, t in ((base, 0), (recs, 0)):
        views = r[r["view"] == 0]
        main = views[(views["turn"] == t) & (views["kind"] == KIND_MAIN)][0]
        q = views[(views["turn"] == t) & (views["kind"] == KIND_QUERY)]
        assert (q["features"][:, 0] > main["features"][0]).all()
        counts.append(len(q))
    assert counts[0] <= 3 < counts[1] <= 63


def test_recursive_out_of_range_is_refused_in_one_line(capsys):
    assert main(["train", "goofspiel_4_exploit", "--out", "x.sbxnet", "--recursive", "1.5",
                 "--workers", "0", "--quiet"]) != 0
    err = capsys.readouterr().err.strip()
    assert "--recursive" in err and "\n" not in err, err

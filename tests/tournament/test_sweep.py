"""`python -m sandbox sweep`: parameter specs, the grid, random points, the
heat map, the best agent file (which a tournament accepts), bad values."""
import json
import tomllib

import pytest

from sandbox.cli import main
from sandbox.native import InvalidArgument
from sandbox.tournament.sweep import parse_param, points


def test_param_specs():
    p = parse_param("c=0.3:1.5:7")
    assert p.path == ("search", "c")
    assert p.values == pytest.approx((0.3, 0.5, 0.7, 0.9, 1.1, 1.3, 1.5))
    d = parse_param("depth=6,10,14")
    assert d.path == ("search", "max_depth") and d.values == (6, 10, 14)
    # integers from a range are rounded and never repeated
    assert parse_param("max_depth=1:3:5").values == (1, 2, 3)
    assert parse_param("policy=ucb1,exp3").values == ("ucb1", "exp3")
    assert parse_param("c=1:1:3").values == (1.0,)   # floats too: each value once
    assert parse_param("budget.iterations=100,200").path == ("budget", "iterations")
    grid = points([p, d], None, 1)
    assert len(grid) == 21
    assert {(g[("search", "c")], g[("search", "max_depth")]) for g in grid} == \
        {(c, k) for c in p.values for k in d.values}


def test_random_points_stay_in_range_and_repeat_with_the_seed():
    p, d = parse_param("c=0.3:1.5:7"), parse_param("max_depth=2:9:3")
    a = points([p, d], 50, seed=7)
    assert a == points([p, d], 50, seed=7) and a != points([p, d], 50, seed=8)
    for pt in a:
        assert 0.3 <= pt[("search", "c")] <= 1.5
        assert pt[("search", "max_depth")] in range(2, 10)
    # draws from a choice repeat: each candidate once, in first-drawn order
    q = points([parse_param("policy=ucb1,rm")], 5, seed=1)
    assert len(q) == 2 and {pt[("search", "policy")] for pt in q} == {"ucb1", "rm"}


@pytest.mark.parametrize("text, message", [
    ("c=0.3:15:3", "less than or equal to 10"),
    ("c=1\n[x],2", "control character"),   # TOML would drop what follows the newline
    ("c", "NAME=LO:HI:N"),
    ("c=1:2", "LO:HI:N"),
    ("c=2:1:3", "LO <= HI"),
    ("nosuch=1,2", "not a search setting"),
    ("policy=ucb1,bogus", "policy"),
    ("max_depth=0,3", "max_depth"),
    ("budget.nosuch=1", "Budget has no field"),
    ("budget.iterations=-5", "iterations"),
    ("algorithm=[]", "not one value"),          # a list: was a TypeError (the fuzz suite)
    ("c=1,{a=1}", "not one value"),
])
def test_bad_params_are_refused(text, message):
    with pytest.raises(InvalidArgument, match=message):
        parse_param(text)


def test_sweep_end_to_end(tmp_path, capsys):
    out = tmp_path / "s"
    code = main(["sweep", "goofspiel_13_duel", "--param", "c=0.3:1.5:2", "--param",
                 "depth=1,4", "--vs", "greedy", "random", "--games", "2", "--iterations", "100",
                 "--workers", "0", "--out", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["games"] == data["expected_games"] == 4 * 2 * 2
    cands = data["candidates"]
    assert len(cands) == 4 and all(c["games"] == 4 for c in cands)
    assert (out / "heatmap.png").stat().st_size > 1000
    best = max(cands, key=lambda c: c["score"])
    agent = tomllib.loads((out / "best.toml").read_text())
    assert agent["search"]["c"] == best["settings"]["c"]
    assert agent["search"]["max_depth"] == best["settings"]["max_depth"]
    # a scenario's player takes the written agent ...
    from sandbox.config import load_scenario
    (out / "s.toml").write_text('game = "goofspiel"\n[[players]]\n[[players]]\n'
                                'agent = "best.toml"\n')
    sc = load_scenario(out / "s.toml")
    assert sc.players[1].search.c == best["settings"]["c"]
    assert sc.players[1].search.max_depth == best["settings"]["max_depth"]
    # ... and it plays in a tournament
    code = main(["tournament", "goofspiel_13_duel", "--agents", str(out / "best.toml"),
                 "greedy", "--games", "2", "--iterations", "50", "--workers", "0",
                 "--out", str(tmp_path / "t"), "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["agents"][0]["name"] == "swept"


def test_sweep_bad_input_is_one_line(capsys):
    code = main(["sweep", "goofspiel_13_duel", "--param", "gamma=0:1:3", "--vs", "greedy"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "gamma" in err
    code = main(["sweep", "goofspiel_13_duel", "--vs", "greedy"])
    err = capsys.readouterr().err
    assert code != 0 and "at least one --param" in err
    code = main(["sweep", "goofspiel_13_duel", "--param", "c=1,2", "--vs", "greedy",
                 "--agent", "random"])
    err = capsys.readouterr().err
    assert code != 0 and "tunes a search agent" in err


def test_sweeping_iterations_gives_an_iteration_only_budget():
    from sandbox.tournament.agents import builtin_entrant
    from sandbox.tournament.sweep import candidate
    c = candidate(builtin_entrant("smitsimax"), {("budget", "iterations"): 300}, "x")
    assert c.player["budget"] == {"iterations": 300, "ms": 0}


def test_vary_gives_each_seed_its_own_layout_and_both_seat_orders_the_same(capsys):
    """--vary game_params.maze_seed: round r plays maze seed S + r in both seat
    orders (so a sweep or tournament on the maze does not tune to one maze);
    without it every game keeps the scenario's maze."""
    from sandbox.config import load_scenario
    from sandbox.tournament.agents import builtin_entrant
    from sandbox.tournament.sweep import make_sweep
    from sandbox.tournament.tournament import make_spec
    sc = load_scenario("maze_medium_duel")
    pool = [builtin_entrant("random"), builtin_entrant("uct")]
    sweep = make_sweep(sc, builtin_entrant("smitsimax"), [parse_param("c=1,2")], pool,
                       games=6, seed=40, vary="game_params.maze_seed")
    tour = make_spec(sc, pool, games=6, seed=40, vary="game_params.maze_seed")
    for jobs in (sweep.jobs(), tour.jobs()):
        mazes = {(j.seed, j.scenario["game_params"]["maze_seed"]) for j in jobs}
        assert mazes == {(40, 40), (41, 41), (42, 42)}
    plain = make_sweep(sc, builtin_entrant("smitsimax"), [parse_param("c=1,2")], pool,
                       games=6, seed=40)
    assert {j.scenario["game_params"]["maze_seed"] for j in plain.jobs()} == {1}
    # the log of a varied run is not resumed by a plain one, nor the other way
    assert plain.config() != sweep.config() and "vary" not in plain.config()
    # bad names are one line, before any game
    for bad, words in (("players.0.search.c", "game_params.NAME"),
                       ("game_params.bogus", "bogus"),
                       ("game_params.size", "size")):
        code = main(["sweep", "maze_medium_duel", "--param", "c=1", "--vs", "random",
                     "--games", "2", "--vary", bad, "--workers", "0"])
        err = capsys.readouterr().err
        assert code != 0 and err.count("\n") == 1 and words in err, err
        code = main(["tournament", "maze_medium_duel", "--agents", "random", "uct",
                     "--games", "2", "--vary", bad, "--workers", "0"])
        err = capsys.readouterr().err
        assert code != 0 and err.count("\n") == 1 and words in err, err


def test_vary_refuses_a_parameter_the_layout_does_not_come_from(capsys):
    """Pods on a hand-made map take map_seed but do not use it: a varied run
    there would be one map logged as many."""
    code = main(["tournament", "pods_custom_map", "--agents", "random", "uct", "--games", "4",
                 "--vary", "game_params.map_seed", "--workers", "0"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "same state" in err, err

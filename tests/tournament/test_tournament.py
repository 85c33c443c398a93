"""`python -m sandbox tournament`: schedule, standings, ratings targets,
SPRT, kept replays and every bad input as one line."""
import json
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.config import load_scenario
from sandbox.tournament.agents import builtin_entrant, load_entrant
from sandbox.tournament.tournament import make_spec


def agent(tmp_path, name, **search):
    body = "".join(f"{k} = {json.dumps(v)}\n" for k, v in search.items())
    p = tmp_path / f"{name}.toml"
    p.write_text(f'name = "{name}"\n[search]\n{body}')
    return str(p)


def run(capsys, *argv):
    code = main(["tournament", *argv, "--json", "--workers", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_schedule_pairs_seeds_and_swaps_seats():
    spec = make_spec(load_scenario("goofspiel_13_duel"),
                     [builtin_entrant(n) for n in ("random", "greedy", "smitsimax")], games=4)
    jobs = spec.jobs()
    assert len(jobs) == 3 * 4
    assert len({j.key for j in jobs}) == len(jobs)
    by_round = {}
    for j in jobs:
        pairing, r, _ = j.key.split("/")
        by_round.setdefault((pairing, r), []).append(j)
    for (pairing, r), pair in by_round.items():
        a, b = pair
        assert a.seed == b.seed == 1 + int(r)                  # the same deal ...
        assert a.entrants == tuple(reversed(b.entrants))       # ... both ways round
        # the seated scenario gives each seat its entrant's controller
        for job in pair:
            names = [spec.entrants[k].name for k in job.entrants]
            assert [p["name"] for p in job.scenario["players"]] == names


def test_self_play_difference_contains_zero(tmp_path, capsys):
    a = agent(tmp_path, "same", c=0.9, max_depth=6)
    data = run(capsys, "goofspiel_13_duel", "--agents", a, a, "--games", "10",
               "--iterations", "200", "--out", str(tmp_path / "t"))
    assert data["games"] == 10
    names = [x["name"] for x in data["agents"]]
    assert names == ["same", "same#2"]
    lo, hi = data["elo_diff"]["ci95"]
    assert lo < 0 < hi
    # with iteration budgets a game is a function of its seed and seating, so
    # the two games of a seed are mirror images: the copy on seat 0 in the
    # first game scores what the other copy scores in the second (this pins
    # the pairing: without the seat swap a seed's two games are one game twice)
    rows = [json.loads(x) for x in (tmp_path / "t" / "results.jsonl").read_text().splitlines()[1:]]
    by_seed = {}
    for r in rows:
        by_seed.setdefault(r["seed"], {})[tuple(r["entrants"])] = r["scores"]
    assert len(by_seed) == 5
    for games in by_seed.values():
        assert games[(0, 1)] == games[(1, 0)]
    assert data["elo_diff"]["value"] == 0
    assert sum(x["wins"] for x in data["agents"]) == sum(x["losses"] for x in data["agents"])
    assert (tmp_path / "t" / "ratings.png").stat().st_size > 1000


def test_depth_one_is_ranked_last(tmp_path, capsys):
    deep = agent(tmp_path, "deep", max_depth=10)
    mid = agent(tmp_path, "mid", max_depth=4)
    shallow = agent(tmp_path, "shallow", max_depth=1)
    data = run(capsys, "maze_medium_duel", "--agents", shallow, deep, mid, "--games", "2",
               "--iterations", "80", "--out", str(tmp_path / "t"))
    assert data["games"] == 6
    assert data["ranking"][-1] == "shallow"
    shallow_row = next(x for x in data["agents"] if x["name"] == "shallow")
    assert shallow_row["elo"] < 0 and shallow_row["score"] < 0.5


def test_standings_are_counted_from_the_log(tmp_path, capsys):
    data = run(capsys, "goofspiel_13_duel", "--agents", "greedy", "random", "--games", "6",
               "--iterations", "50", "--out", str(tmp_path / "t"))
    rows = [json.loads(x) for x in (tmp_path / "t" / "results.jsonl").read_text().splitlines()]
    assert rows[0]["type"] == "header" and len(rows) == 7
    wins = {0: 0, 1: 0}
    for r in rows[1:]:
        for k, s in zip(r["entrants"], r["scores"]):
            wins[k] += s == 1.0
    assert [x["wins"] for x in data["agents"]] == [wins[0], wins[1]]
    assert data["played_now"] == 6


def test_sprt_stops_early(tmp_path, capsys):
    data = run(capsys, "maze_medium_duel", "--agents", "smitsimax", "random", "--games", "200",
               "--iterations", "60", "--sprt", "0,100", "--out", str(tmp_path / "t"))
    assert data["sprt"]["decision"] == "H1"
    assert data["games"] < 40                    # far fewer than the 200 asked for
    assert data["sprt"]["pairs"] >= 4


def test_kept_replays_verify(tmp_path, capsys):
    from sandbox.replay import read_replay, verify
    run(capsys, "goofspiel_13_duel", "--agents", "greedy", "smitsimax", "--games", "2",
        "--iterations", "50", "--out", str(tmp_path / "t"), "--keep-replays")
    files = sorted((tmp_path / "t" / "replays").glob("*.jsonl"))
    assert len(files) == 2
    rows = [json.loads(x) for x in (tmp_path / "t" / "results.jsonl").read_text().splitlines()[1:]]
    assert sorted(Path(r["replay"]).name for r in rows) == [f.name for f in files]
    for f in files:
        rep = read_replay(f)
        try:
            assert verify(rep).ok
        finally:
            rep.close()


def test_resume_refuses_another_tournament_in_the_folder(tmp_path, capsys):
    run(capsys, "goofspiel_13_duel", "--agents", "greedy", "random", "--games", "2",
        "--iterations", "50", "--out", str(tmp_path / "t"))
    code = main(["tournament", "goofspiel_13_duel", "--agents", "greedy", "smitsimax",
                 "--games", "2", "--iterations", "50", "--out", str(tmp_path / "t"),
                 "--workers", "0"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "holds another tournament" in err


@pytest.mark.parametrize("argv, message", [
    (["snakes_standard_4p", "--agents", "random", "greedy"], "two-player scenarios"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "--games", "3"], "even number"),
    (["goofspiel_13_duel", "--agents", "random"], "at least two agents"),
    (["goofspiel_13_duel", "--agents", "random", "nosuch"], "not an agent file"),
    (["goofspiel_13_duel", "--agents", "random", "nofile.toml"], "not found"),
    (["goofspiel_13_duel", "--agents", "random", "bot"], "has no bot"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "smitsimax", "--sprt", "0,10"],
     "exactly two"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "--sprt", "10,0"], "ELO0 < ELO1"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "--sprt", "x"], "ELO0,ELO1"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "--workers", "-1"], "--workers"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "--iterations", "0"],
     "--iterations"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "--ms", "inf"], "600,000"),
    (["goofspiel_13_duel", "--agents", "random", "greedy", "--out", "/proc/x"], "/proc/x"),
])
def test_bad_input_is_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = main(["tournament", *argv])
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("error:") and message in err, err


def test_bad_agent_file_names_its_field(tmp_path, capsys):
    bad = agent(tmp_path, "bad", c=50)
    code = main(["tournament", "goofspiel_13_duel", "--agents", "random", bad])
    err = capsys.readouterr().err
    assert code != 0 and "search.c" in err and err.count("\n") == 1


@pytest.mark.parametrize("kw", [{"games": "4"}, {"games": 4.0}, {"seed": "1"}, {"seed": -1},
                                {"max_turns": -1}, {"max_turns": "x"}, {"sprt": (10.0, 0.0)}])
def test_spec_arguments_of_the_wrong_type(kw):
    from sandbox.native import InvalidArgument
    entrants = [builtin_entrant("greedy"), builtin_entrant("random")]
    with pytest.raises(InvalidArgument):
        make_spec(load_scenario("goofspiel_13_duel"), entrants, **{"games": 4, **kw})


def test_a_human_agent_file_is_refused(tmp_path):
    from sandbox.config.scenario import ScenarioError
    p = tmp_path / "me.toml"
    p.write_text('controller = "human"\n')
    with pytest.raises(ScenarioError, match="without people"):
        load_entrant(str(p))


def test_load_entrant_rejects_wrong_types():
    from sandbox.config.scenario import ScenarioError
    for bad in (None, 3, ""):
        with pytest.raises(ScenarioError):
            load_entrant(bad)


def test_the_table_and_the_progress_bar(tmp_path, capsys):
    code = main(["tournament", "goofspiel_13_duel", "--agents", "greedy", "random", "--games",
                 "2", "--iterations", "50", "--workers", "0", "--out", str(tmp_path / "t")])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert "elo" in lines[1] and "95% interval" in lines[1]
    assert {lines[2].split()[1], lines[3].split()[1]} == {"greedy", "random"}
    assert "greedy - random:" in out and "2 of 2 games" in out
    from sandbox.tournament.commands import Progress
    bar = Progress(10, 2, True, "tournament")      # resumed at 2 of 10
    bar.update("LLR 0.50")
    bar.close()
    err = capsys.readouterr().err
    assert "3/10" in err and "LLR 0.50" in err


def test_uct_is_a_built_in_agent_with_its_own_default_c(capsys, tmp_path):
    """The textbook yardstick by name: its search is uct with C 2 (no c
    named), and it beats the uniform random bidder of goofspiel 4."""
    from sandbox.config.scenario import scenario_from_dict
    from sandbox.tournament.agents import BUILTIN, seat_scenario
    assert "uct" in BUILTIN
    e = load_entrant("uct")
    assert e.player == {"controller": "smitsimax", "search": {"algorithm": "uct"}}
    sc = scenario_from_dict(seat_scenario(load_scenario("goofspiel_4_exploit"),
                                          [e, builtin_entrant("random")]))
    assert sc.players[0].search.algorithm == "uct" and sc.players[0].search.c == 2.0
    out = run(capsys, "goofspiel_4_exploit", "--agents", "uct", "random", "--games", "6",
              "--iterations", "300", "--out", str(tmp_path / "t"))
    assert out["ranking"] == ["uct", "random"]
    assert out["pairs"]["uct vs random"]["score"] > 0.5


def test_one_start_for_every_game_is_said():
    """A maze fixed by the scenario is the same board in every game: the
    note names --vary; varying it, or a game whose match seed already moves
    the start (snakes' spawns), or one with no layout seed (goofspiel's
    fixed prize order), has no note."""
    from sandbox.sim.series import one_start_note
    maze = load_scenario("maze_medium_duel")
    note = one_start_note(maze, None, range(1, 11))
    assert note is not None and "--vary game_params.maze_seed" in note
    assert one_start_note(maze, "game_params.maze_seed", range(1, 11)) is None
    assert one_start_note(load_scenario("snakes_duel_trees"), None, range(1, 11)) is None
    assert one_start_note(load_scenario("goofspiel_13_duel"), None, range(1, 11)) is None


def test_a_tournament_on_one_maze_ends_with_the_note(tmp_path, capsys):
    argv = ["tournament", "maze_tiny_mcgs_selfplay", "--agents", "random", "greedy",
            "--games", "2", "--iterations", "20", "--quiet", "--workers", "1"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    assert "note: every game starts from the same position" in capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path / "b"), "--json"]) == 0
    assert "--vary game_params.maze_seed" in json.loads(capsys.readouterr().out)["note"]

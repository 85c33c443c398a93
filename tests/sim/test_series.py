"""`python -m sandbox series`: seats rotated over paired seeds, scores and
their interval computed by hand on small cases."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.config import Budget, load_scenario
from sandbox.native import InvalidArgument
from sandbox.sim.series import PlayerScore, game_scores, play_series, seated

ROOT = Path(__file__).resolve().parents[2]


def test_game_scores_by_hand():
    one_each = [[0], [1]]
    assert game_scores((0, 1), one_each) == [1.0, 0.0]
    assert game_scores((0, 0), one_each) == [0.5, 0.5]
    # three players: the share of the others beaten, a tie counting half
    assert game_scores((0, 1, 1), [[0], [1], [2]]) == [1.0, 0.25, 0.25]
    # a player with two agents ranks by its best one
    assert game_scores((2, 0, 1), [[0, 1], [2]]) == [1.0, 0.0]


def test_seats_rotate_and_every_agent_stays_owned():
    sc = load_scenario("goofspiel_13_duel")
    assert [seated(sc, 0).player_agents(i) for i in (0, 1)] == [[0], [1]]
    assert [seated(sc, 1).player_agents(i) for i in (0, 1)] == [[1], [0]]
    assert seated(sc, 1).players[0].name == sc.players[0].name   # the player moves seat


def test_interval_is_over_group_means():
    p = PlayerScore(0, "x", group_means=[1.0, 0.5, 0.0, 0.5])
    m, sd = 0.5, math.sqrt((0.25 + 0 + 0.25 + 0) / 3)
    lo, hi = p.interval()
    assert lo == pytest.approx(m - 1.96 * sd / 2) and hi == pytest.approx(m + 1.96 * sd / 2)
    assert all(math.isnan(x) for x in PlayerScore(0, "y", group_means=[1.0]).interval())


def test_a_series_plays_both_seats_of_each_seed():
    sc = load_scenario("goofspiel_13_duel").with_settings(
        ["game_params.num_cards=5", "players.1.controller=random"])
    res = play_series(sc, 6, seed=3, budget=Budget(iterations=300, ms=0))
    assert res.games == 6 and res.turns == [5] * 6
    for p in res.players:
        assert p.wins + p.draws + p.losses == 6 and len(p.group_means) == 3
    a, b = res.players
    assert a.mean + b.mean == pytest.approx(1.0)      # two players: the scores add up
    assert a.wins == b.losses and a.draws == b.draws
    again = play_series(sc, 6, seed=3, budget=Budget(iterations=300, ms=0))
    assert [p.scores for p in again.players] == [p.scores for p in res.players]


@pytest.mark.parametrize("games", [0, 3, -2])
def test_games_must_fill_whole_rotations(games):
    with pytest.raises(InvalidArgument, match="multiple of the 2 players"):
        play_series(load_scenario("matrix_rps_duel"), games)


def test_people_cannot_play_a_series():
    with pytest.raises(InvalidArgument, match="human"):
        play_series(load_scenario("goofspiel_you"), 2)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sandbox", "series", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_cli_json_and_one_line_errors():
    p = run("matrix_rps_duel", "--games", "4", "--iterations", "200", "--json",
            "--set", "game_params.repeats=2")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    out = json.loads(p.stdout)
    assert out["games"] == 4 and [x["games"] for x in out["players"]] == [4, 4]
    for bad, words in ((["--set", "players.7.name=x"], "no item '7'"),
                       (["--games", "3"], "multiple of the 2 players"),
                       (["--set", "players.0.search.c=99"], "players.0.search.c")):
        p = run("matrix_rps_duel", *bad)
        assert p.returncode != 0 and p.stderr.count("\n") == 1 and words in p.stderr, p.stderr


def test_vary_gives_each_group_its_own_setting_and_pairs_the_seats():
    # oracle: the varied series is the concatenation of fixed-maze series,
    # one per group, each played at that group's match seed
    sc = load_scenario("maze_medium_smitsimax_duel").with_settings(
        ["game_params.size=tiny", "players.1.controller=random"])
    budget = Budget(iterations=60, ms=0)
    varied = play_series(sc, 6, seed=5, budget=budget, max_turns=25, vary="game_params.maze_seed")
    parts = [play_series(sc.with_settings([f"game_params.maze_seed={5 + g}"]), 2, seed=5 + g,
                         budget=budget, max_turns=25) for g in range(3)]
    assert varied.turns == [t for r in parts for t in r.turns]
    for i in range(2):
        assert varied.players[i].scores == [s for r in parts for s in r.players[i].scores]
    # and the mazes really differ: a fixed maze_seed gives another series (played
    # to the end: the search beats the random explorer on every maze, so only
    # how long it takes tells the mazes apart)
    long_varied = play_series(sc, 6, seed=5, budget=budget, vary="game_params.maze_seed")
    fixed = play_series(sc, 6, seed=5, budget=budget)
    assert len(set(long_varied.turns)) > 1
    assert [p.scores for p in fixed.players] != [p.scores for p in long_varied.players] or \
        fixed.turns != long_varied.turns


def test_vary_refuses_a_bad_path_in_one_line():
    with pytest.raises(Exception, match="no item '9'"):
        play_series(load_scenario("matrix_rps_duel"), 2, vary="players.9.name")
    p = run("matrix_rps_duel", "--games", "2", "--iterations", "10", "--vary", "players.9.name")
    assert p.returncode != 0 and p.stderr.count("\n") == 1 and "no item '9'" in p.stderr, p.stderr

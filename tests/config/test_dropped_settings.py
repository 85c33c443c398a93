"""Settings that were silently dropped or half-checked: an agent file's
[weights] in tournaments and sweeps, a quoted number, a layout file beside
generator keys, and where a scenario's layout file is looked up."""
from __future__ import annotations

import pytest

from sandbox.cli import main
from sandbox.config.scenario import ScenarioError, load_scenario, scenario_from_dict
from sandbox.games.maze import save_maze_file
from sandbox.native import Game, SearchParams
from sandbox.tournament.agents import load_entrant, seat_scenario


def _agent(tmp_path, weights: str):
    f = tmp_path / "w.toml"
    f.write_text(f'name = "weighted"\n[search]\nc = 1.0\n[weights]\n{weights}\n')
    return f


def test_agent_file_weights_reach_the_seat(tmp_path):
    e = load_entrant(str(_agent(tmp_path, "w_expected = 0.5")))
    sc = load_scenario("maze_medium_duel")
    data = seat_scenario(sc, [e, load_entrant("random")])
    assert data["players"][0]["weights"] == {"w_expected": 0.5}
    seated = scenario_from_dict(data)
    assert "w_expected=0.5" in seated.player_param_string(0)


@pytest.mark.parametrize("weights, words", [("w_expected = nan", "not NaN"),
                                            ("w_bogus = 1.0", "not an evaluation weight")])
def test_bad_agent_file_weights_stop_a_tournament(tmp_path, capsys, weights, words):
    f = _agent(tmp_path, weights)
    rc = main(["tournament", "maze_medium_duel", "--agents", str(f), "random", "--games", "2",
               "--iterations", "10", "--workers", "0", "--quiet", "--out", str(tmp_path / "o")])
    assert rc != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


def test_a_quoted_number_is_refused_like_true():
    for bad in ("0.7", True):
        with pytest.raises(ValueError, match="expected a number"):
            SearchParams(c=bad)


def _maze_scenario(folder, extra: str = "") -> str:
    return (f'name = "m"\ngame = "maze"\n[game_params]\nmaze_file = "my.maze"\n{extra}'
            '[[players]]\nname = "a"\n[[players]]\nname = "b"\n')


def test_maze_file_beside_the_scenario_and_no_generator_keys(tmp_path, monkeypatch):
    folder = tmp_path / "scen"
    folder.mkdir()
    with Game("maze", {"size": "tiny"}, seed=1) as g:
        save_maze_file(folder / "my.maze", g.export())
    (folder / "s.toml").write_text(_maze_scenario(folder))
    monkeypatch.chdir(tmp_path)                     # not the scenario's folder
    sc = load_scenario(str(folder / "s.toml"))
    assert sc.game_params["maze_file"] == str(folder / "my.maze")
    (folder / "t.toml").write_text(_maze_scenario(folder, 'size = "large"\n'))
    with pytest.raises(ScenarioError, match="size: a generator setting, but maze_file"):
        load_scenario(str(folder / "t.toml"))


def test_snakebyte_map_and_map_seed_clash(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text('name = "s"\ngame = "snakes"\n[game_params]\nruleset = "snakebyte"\n'
                 'map = "caves"\nmap_seed = 5\n[[players]]\nname = "a"\n[[players]]\nname = "b"\n')
    with pytest.raises(ScenarioError, match="map_seed: the map gives the grid"):
        load_scenario(str(f))

"""Agent files (sandbox.config.agent): a player's settings written as TOML and
taken back by a scenario's `agent = "..."`, the player's own keys on top; a
bad file is one ScenarioError line naming the file and the field."""
from __future__ import annotations

import tomllib
import typing
from pathlib import Path

import pytest

from sandbox.config import Budget, ScenarioError, load_scenario
from sandbox.config.agent import agent_dict, agent_toml, save_agent
from sandbox.native import SearchParams

# Every knob but algorithm/policy/backup/parallel at a value that is not its default,
# written by hand (the oracle: what must come back). Awkward floats on
# purpose: the TOML text must give back the very same double.
KNOBS = {
    "c": 1.2345678901234567, "gamma": 0.912, "death_penalty_value": 2.5,
    "reuse_decay": 0.3, "max_depth": 23, "random_threshold": 77, "depth_normalize": True,
    "bounds": "depth", "elimination": "freeze", "death_penalty": True, "death_min_visits": 9,
    "rollout": True, "tree_reuse": False, "node_cap": 4096, "time_check_interval": 5,
    "exploration": 0.1 + 0.2, "power_p": 3.75, "final_move": "sample", "avg_weight": "linear", "counterfactual": "last_step",
    "lead": 1,
    "c_puct": 2.25, "fpu_offset": 0.0, "temperature": 0.5, "rollout_steps": 4,
    "short_circuit": True, "transpositions": False,
    "prior_temperature": 7.5, "threads": 2, "virtual_loss": 0.75,
    "expansions_per_update": 0.1 * 3, "expand_children": "one", "alternating": False, "leaf_rollouts": 8, "expand_after": 5,
    "grow_tree": True,
    "info_seat": 1, "exploration_decay": 0.7 + 0.1, "safe_moves": False,
    "resolve_mix": 0.25, "value_net": "nets/ann.sbxnet", "relative_scores": True,
}
ALGORITHMS = typing.get_args(SearchParams.model_fields["algorithm"].annotation)
POLICIES = typing.get_args(SearchParams.model_fields["policy"].annotation)
# (policy, backup, priors): every policy with the mean and uniform priors; the
# power mean and Smitsimax's priors (decoupled PUCT) work with ucb1 only
SELECTIONS = ([(p, "mean", "uniform") for p in POLICIES] + [("ucb1", "power", "uniform")]
              + [("ucb1", b, pr) for b in ("mean", "power") for pr in ("heuristic", "net")])

SCENARIO = """\
game = "snakes"
game_params = {{ width = 7, height = 7, snakes = 2 }}
[[players]]
agent = "{ref}"
{extra}
[[players]]
name = "B"
"""


def test_the_knob_table_covers_every_search_setting():
    """A new SearchParams field must be added here (and so be round-tripped)."""
    fields = set(SearchParams.model_fields)
    assert set(KNOBS) == fields - {"algorithm", "policy", "backup", "parallel", "priors"}
    defaults = SearchParams()
    for k, v in KNOBS.items():
        assert getattr(defaults, k) != v, k


def write_scenario(tmp_path: Path, ref: str, extra: str = "") -> Path:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(ref=ref, extra=extra))
    return path


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithms_knobs_round_trip(algorithm, tmp_path):
    budget = Budget(ms=12.5, iterations=345, slice_ms=1.5, slice_iterations=77)
    for policy, backup, priors in SELECTIONS:
        params = SearchParams(**KNOBS, algorithm=algorithm, policy=policy, backup=backup,
                              priors=priors)
        path = save_agent(agent_dict("smitsimax", "Ann", (10, 20, 30), params, budget),
                          tmp_path / "agents", stem="Ann")
        scn = load_scenario(write_scenario(tmp_path, f"agents/{path.name}"))
        p = scn.players[0]
        got = p.search.model_dump()
        assert got == {**KNOBS, "algorithm": algorithm, "policy": policy, "backup": backup,
                       "parallel": "serial", "priors": priors}
        assert p.budget == budget and (p.budget.ms, p.budget.iterations) == (12.5, 345)
        assert (p.name, p.color, p.controller) == ("Ann", (10, 20, 30), "smitsimax")
        assert scn.players[1].search == SearchParams()    # the other player untouched


@pytest.mark.parametrize("parallel", ["wu_uct", "tree", "root", "leaf"])
def test_the_parallel_mode_round_trips(parallel, tmp_path):
    """parallel is kept apart from KNOBS: it restricts the policy and backup
    (and leaf needs rollout, which KNOBS has on). KNOBS' value_net goes with
    every mode (each thread asks on its own evaluator)."""
    params = SearchParams(**KNOBS, parallel=parallel)
    path = save_agent(agent_dict("smitsimax", "Ann", None, params, Budget(ms=20)),
                      tmp_path / "agents", stem="Ann")
    got = load_scenario(write_scenario(tmp_path, f"agents/{path.name}")).players[0].search
    assert got.model_dump() == {**params.model_dump(), "parallel": parallel}
    assert (got.threads, got.virtual_loss) == (2, 0.75)


def test_the_file_is_plain_toml_with_the_documented_tables(tmp_path):
    params = SearchParams(c=1.5, policy="exp3")
    path = save_agent(agent_dict("smitsimax", 'Q "x"', None, params, Budget(ms=20),
                                 description="a\nb"), tmp_path, stem='Q "x"')
    assert path.parent == tmp_path and path.suffix == ".toml" and path.name.startswith("q-x-")
    data = tomllib.loads(path.read_text())
    assert data["format"] == 1 and data["name"] == 'Q "x"' and data["description"] == "a\nb"
    assert data["controller"] == "smitsimax" and "color" not in data
    assert data["search"]["c"] == 1.5 and data["search"]["policy"] == "exp3"
    assert data["budget"] == {"ms": 20.0, "iterations": 0, "slice_ms": 5.0,
                              "slice_iterations": 2000}
    assert [p.name for p in tmp_path.iterdir()] == [path.name]     # no temp file left


def test_two_saves_in_one_second_get_two_files(tmp_path):
    data = agent_dict("random", "R", (1, 2, 3), None, None)
    a = save_agent(data, tmp_path, stem="R")
    b = save_agent(data, tmp_path, stem="R")
    assert a != b and a.read_text() == b.read_text() == agent_toml(data)
    assert "search" not in tomllib.loads(a.read_text())     # a random player has no search


def test_the_players_own_keys_override_the_file(tmp_path):
    params = SearchParams(c=2.0, max_depth=5, policy="rm")
    path = save_agent(agent_dict("smitsimax", "Ann", (1, 2, 3), params, Budget(iterations=99,
                                                                               ms=0)), tmp_path)
    extra = 'name = "Mine"\n[players.search]\nc = 0.25\n[players.budget]\nms = 40.0\n'
    p = load_scenario(write_scenario(tmp_path, str(path), extra)).players[0]
    assert p.name == "Mine" and p.color == (1, 2, 3)
    # search and budget merged key by key: the player's c, the file's others
    assert (p.search.c, p.search.max_depth, p.search.policy) == (0.25, 5, "rm")
    assert (p.budget.ms, p.budget.iterations) == (40.0, 99)


def test_a_relative_path_is_found_beside_the_scenario_then_in_the_cwd(tmp_path, monkeypatch):
    there = tmp_path / "scn"
    there.mkdir()
    a = save_agent(agent_dict("smitsimax", "Beside", None, SearchParams(c=1.0), None),
                   there / "agents", stem="beside")
    here = tmp_path / "cwd"
    b = save_agent(agent_dict("smitsimax", "Cwd", None, SearchParams(c=2.0), None),
                   here / "agents", stem="cwd")
    monkeypatch.chdir(here)
    scn = write_scenario(there, f"agents/{a.name}")
    assert load_scenario(scn).players[0].name == "Beside"
    scn = write_scenario(there, f"agents/{b.name}")
    assert load_scenario(scn).players[0].search.c == 2.0


@pytest.mark.parametrize("text, fragments", [
    ("[search]\nc = 50\n", ["search.c: Input should be less than or equal to 10", "(got 50)"]),
    ("[search]\nc = 'high'\n", ["search.c: expected a number, not a string", "'high'"]),
    ("[search]\nmax_depth = true\n", ["search.max_depth: expected a number, not true"]),
    ("search = 3\n", ["search: Input should be a valid dictionary"]),
    ("seed = 3\n", ["seed: Extra inputs are not permitted"]),
    ("agents = [0]\n", ["agents: Extra inputs are not permitted"]),
    ("[budget]\nspeed = 1\n", ["budget.speed: Extra inputs are not permitted"]),
    ("color = [1, 2, 300]\n", ["color"]),
    ("controller = 'robot'\n", ["controller: Input should be"]),
    ("name = \n", ["TOML syntax error"]),
    ("[search]\npolicy = 'exp3'\nbackup = 'power'\n", ["search: backup: power works with "
                                                       "policy ucb1 only"]),
])
def test_a_bad_agent_file_is_one_line_naming_file_and_field(text, fragments, tmp_path):
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(ScenarioError) as e:
        load_scenario(write_scenario(tmp_path, "bad.toml"))
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith("s.toml: players.0.agent: bad.toml: "), msg
    for f in fragments:
        assert f in msg, (f, msg)


def test_a_missing_agent_file_names_it_and_where_it_was_looked_for(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScenarioError, match=r"players\.0\.agent: agent file agents/nope\.toml "
                                            r"not found \(looked in "):
        load_scenario(write_scenario(tmp_path, "agents/nope.toml"))


def test_a_series_set_gives_a_player_an_agent_file(tmp_path):
    """`series ... --set players.1.agent=FILE` (Scenario.with_settings): the
    file's settings, except the keys the scenario itself sets for that player."""
    params = SearchParams(c=2.5, policy="rm_plus", max_depth=4)
    path = save_agent(agent_dict("smitsimax", "Filed", None, params, Budget(iterations=64, ms=0)),
                      tmp_path, stem="filed")
    base = load_scenario(write_scenario(tmp_path, str(path)))
    scn = base.with_settings([f"players.1.agent={path.as_posix()}", "players.1.search.c=0.5"])
    p = scn.players[1]
    assert p.name == "B"                                    # the scenario's own key wins
    assert (p.search.c, p.search.policy, p.search.max_depth) == (0.5, "rm_plus", 4)
    assert (p.budget.iterations, p.budget.ms) == (64, 0.0)
    assert "agent" not in scn.model_dump()["players"][1]     # resolved, not kept

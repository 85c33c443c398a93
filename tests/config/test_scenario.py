"""Scenario files: the shipped ones load and play; every mistake is a
ScenarioError with one line that names the field."""
from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path

import pytest

from sandbox.config import (Budget, Scenario, ScenarioError, find_scenario, list_scenarios,
                            load_scenario, scenario_from_dict)
from sandbox.native import Game, Search, SearchParams
from sandbox.sim.match import Match

SHIPPED = list_scenarios()
BASE = {
    "name": "t",
    "game": "snakes",
    "game_params": {"width": 7, "height": 7, "snakes": 2},
    "budget": {"ms": 0, "iterations": 50},
    "players": [{"name": "A"}, {"name": "B"}],
}


def with_change(path: str, value) -> dict:
    """BASE with one nested value set, e.g. with_change("players.0.search.c", 50)."""
    data = copy.deepcopy(BASE)
    keys = path.split(".")
    node = data
    for k in keys[:-1]:
        k = int(k) if k.isdigit() else k
        if isinstance(node, dict):
            node = node.setdefault(k, {})
        else:
            node = node[k]
    last = keys[-1]
    node[int(last) if last.isdigit() else last] = value
    return data


def one_line_error(data: dict) -> str:
    with pytest.raises(ScenarioError) as exc:
        scenario_from_dict(data, source="case.toml")
    msg = str(exc.value)
    assert "\n" not in msg, msg
    assert msg.startswith("case.toml: ")
    assert "Traceback" not in msg and "pydantic" not in msg
    return msg


def test_there_are_shipped_scenarios():
    assert len(SHIPPED) >= 1
    assert "snakes_standard_4p" in [p.stem for p in SHIPPED]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_scenario_loads_and_plays(path):
    sc = load_scenario(path.stem)
    assert isinstance(sc, Scenario)
    assert load_scenario(path) == sc                       # by path too
    raw = tomllib.loads(path.read_text())
    # a process player's program and folder, and a search's value net, are looked up
    # beside the file
    from sandbox.config.process import resolve_net_path, resolve_process_paths
    raw["players"] = [resolve_net_path(resolve_process_paths(p, path.parent), path.parent)
                      for p in raw.get("players", [])]
    assert sc == scenario_from_dict(raw)
    with Game(sc.game, sc.game_param_string(), seed=sc.seed) as g:
        agents = sorted(a for i in range(len(sc.players)) for a in sc.player_agents(i))
        assert agents == list(range(g.num_agents))
    for p in sc.players:
        assert isinstance(p.search, SearchParams)
    with Match(sc, budget=Budget(ms=0, iterations=50), max_turns=2) as m:
        assert m.play().turns == 2


def test_default_scenario_is_the_standard_one():
    assert find_scenario(None).stem == "snakes_standard_4p"
    sc = load_scenario()
    assert sc.game == "snakes" and len(sc.players) == 4
    assert sc.game_params["width"] == 11


def test_a_valid_dict():
    sc = scenario_from_dict(BASE)
    assert sc.player_agents(1) == [1]
    assert sc.player_budget(0) == Budget(ms=0, iterations=50)
    assert sc.player_seed(0, 5) != sc.player_seed(1, 5)
    assert sc.player_seed(0, 5) == sc.player_seed(0, 5)
    over = sc.with_overrides(seed=9, max_turns=3)
    assert over.seed == 9 and over.max_turns == 3 and over.players == sc.players


@pytest.mark.parametrize("path, value, words", [
    ("players.0.search.c", 50, ["players.0.search.c", "10", "50"]),
    ("players.1.search.gamma", 1.5, ["players.1.search.gamma", "1.5"]),
    ("players.0.search.max_depth", 0, ["players.0.search.max_depth"]),
    ("players.0.search.elimination", "x", ["players.0.search.elimination", "'x'"]),
    ("players.0.search.bogus", 1, ["players.0.search.bogus"]),
    ("game_params.width", 99, ["game_params.width", "25", "99"]),
    ("game_params.ruleset", "standard width=7 max_turns=3", ["game_params.ruleset", "standard"]),
    ("game_params.snakes", 0, ["game_params.snakes"]),
    ("game_params.bogus", 1, ["game_params", "bogus"]),
    ("colour", "red", ["colour"]),
    ("players.0.colour", "red", ["players.0.colour"]),
    ("budget.ms", -1, ["budget.ms"]),
    ("budget.extra", 1, ["budget.extra"]),
    ("seed", -5, ["seed", "-5"]),
    ("max_turns", -1, ["max_turns"]),
    ("game", "chess", ["game", "chess"]),
    ("players.0.controller", "alien", ["players.0.controller"]),
    ("players.0.color", [300, 0, 0], ["color", "255"]),
    # a bool is no number (pydantic would read true as 1)
    ("seed", True, ["seed", "expected a number, not true"]),
    ("max_turns", False, ["max_turns", "not false"]),
    ("budget.iterations", True, ["budget.iterations", "not true"]),
    ("players.0.search.max_depth", True, ["players.0.search.max_depth", "not true"]),
    ("players.0.agents", [True], ["players.0.agents.0", "not true"]),
    ("record.tree_nodes", True, ["record.tree_nodes", "not true"]),
    ("physics", "box2d", ["physics", "'csb' or 'pymunk'"]),
    ("physics", 1, ["physics"]),
    ("physics", "pymunk", ["physics: the game 'snakes' has no world 'pymunk'", "(it has: csb)"]),
])
def test_field_errors_name_the_field(path, value, words):
    msg = one_line_error(with_change(path, value))
    for w in words:
        assert w in msg, msg


def test_budget_needs_ms_or_iterations():
    msg = one_line_error(with_change("budget", {"ms": 0, "iterations": 0}))
    assert "budget" in msg and "ms" in msg and "iterations" in msg
    msg = one_line_error(with_change("players.1.budget", {"ms": 0}))
    assert "players.1.budget" in msg


@pytest.mark.parametrize("players, words", [
    ([{"name": "A"}], ["2 agents", "[0]"]),
    ([{"agents": [0]}, {"agents": [0]}], ["exactly once", "[0, 0]"]),
    ([{"agents": [0, 1]}, {"agents": [1]}], ["exactly once"]),
    ([{"agents": [0, 5]}, {}], ["players.0.agents", "5"]),
    ([], ["players"]),
])
def test_players_must_cover_the_agents(players, words):
    msg = one_line_error({**BASE, "players": players})
    for w in words:
        assert w in msg, msg


def test_several_errors_still_one_line():
    data = with_change("players.0.search.c", 50)
    data["players"][1]["search"] = {"gamma": 7, "max_depth": 0}
    data["seed"] = -1
    msg = one_line_error(data)
    assert "players.0.search.c" in msg and "seed" in msg


def write(tmp_path: Path, text: str, name: str = "case.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_toml_syntax_error(tmp_path):
    p = write(tmp_path, 'name = "x"\n[game_params\nwidth = 7\n')
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    msg = str(exc.value)
    assert "\n" not in msg
    assert "case.toml" in msg and "TOML" in msg and "line 2" in msg


def test_file_errors_name_the_file_and_field(tmp_path):
    p = write(tmp_path, 'game = "snakes"\n[game_params]\nwidth = 7\nheight = 7\nsnakes = 2\n'
                        '[[players]]\n[players.search]\nc = -1\n[[players]]\n')
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith("case.toml:") and "players.0.search.c" in msg


def test_a_good_file_from_anywhere(tmp_path):
    text = ('name = "tiny"\nmax_turns = 4\n[game_params]\nwidth = 7\nheight = 7\nsnakes = 2\n'
            '[budget]\nms = 0\niterations = 30\n[[players]]\n[[players]]\ncontroller = "random"\n')
    # a scenario says which game it plays
    with pytest.raises(ScenarioError, match="game: Field required"):
        load_scenario(write(tmp_path, text))
    sc = load_scenario(write(tmp_path, 'game = "snakes"\n' + text))
    assert sc.name == "tiny" and sc.players[1].controller == "random"
    with Match(sc) as m:
        result = m.play()
        assert result.turns == 4 or result.terminal


def test_unknown_scenario_name():
    with pytest.raises(ScenarioError) as exc:
        load_scenario("no_such_scenario")
    msg = str(exc.value)
    assert "no_such_scenario" in msg and "snakes_standard_4p" in msg and "\n" not in msg


def test_unreadable_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_bytes(b"name = \"\xff\xfe\"\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("nested", [
    "x = " + "[" * 500 + "]" * 500,                         # arrays
    "x = " + "{a = " * 500 + "1" + "}" * 500,              # inline tables
    "x = " + "[" * 100_000,                                 # unbalanced, very deep
], ids=["arrays", "inline-tables", "unbalanced"])
def test_deeply_nested_toml_is_one_line(tmp_path, nested):
    """tomllib recurses per level: 500 levels raised RecursionError and a
    3,000-line traceback."""
    p = write(tmp_path, 'game = "snakes"\n' + nested + "\n")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith("case.toml: ") and "nested too deeply" in msg


def test_deeply_nested_set_value_is_one_line():
    sc = load_scenario()
    with pytest.raises(ScenarioError) as exc:
        sc.with_settings(["players.0.search.c=" + "[" * 600 + "]" * 600])
    msg = str(exc.value)
    assert "\n" not in msg and "--set players.0.search.c" in msg and "nested" in msg


@pytest.mark.parametrize("item", [
    "players.0.search.c=1\n[x]",           # TOML would read v = 1 and drop the table
    "players.0.search.c=1\nplayers = []",  # or another key
    "players.0.name=Red\nX",               # a bare word with a newline
    "players.0.name=Red\rX",
])
def test_a_set_value_is_one_line(item):
    """Nothing after a newline may ride along with a --set value."""
    with pytest.raises(ScenarioError) as exc:
        load_scenario().with_settings([item])
    assert "\n" not in str(exc.value) and "control character" in str(exc.value)


@pytest.mark.parametrize("item", ['players.0.name="A\\nB"', 'name="X\\tY"'])
def test_names_are_one_line(item, tmp_path):
    """A name shows in tables and on the one result line: a TOML escape
    cannot put a newline in it, from --set or from a file."""
    with pytest.raises(ScenarioError, match="must be one line"):
        load_scenario().with_settings([item])
    path, value = item.split("=", 1)
    f = tmp_path / "n.toml"
    f.write_text(f'game = "matrix"\nname = {value}\n' if path == "name" else
                 f'game = "matrix"\n[[players]]\nname = {value}\n[[players]]\n')
    with pytest.raises(ScenarioError, match="must be one line"):
        load_scenario(f)


def test_a_directory_and_a_huge_file(tmp_path):
    d = tmp_path / "dir.toml"
    d.mkdir()
    with pytest.raises(ScenarioError, match="is a directory"):
        load_scenario(d)
    big = write(tmp_path, "# " + "x" * (1 << 20) + "\n", name="big.toml")
    with pytest.raises(ScenarioError, match=r"big.toml: larger than 1,048,576 bytes: cannot be"):
        load_scenario(big)


@pytest.mark.parametrize("where", ["scenario", "agent", "maze"])
def test_a_device_or_a_fifo_is_refused_without_reading(where, tmp_path):
    """/dev/zero has no end and a FIFO blocks until a writer comes: a
    stat() size says nothing for either, so they were read for ever."""
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    # (a scenario is looked up by name unless it ends in .toml: /dev/zero is
    # "not found" there, also without reading)
    for path in (fifo,) if where == "scenario" else (fifo, Path("/dev/zero")):
        with pytest.raises(ScenarioError, match="not a regular file") as exc:
            if where == "scenario":
                load_scenario(path)
            elif where == "agent":
                load_scenario().with_settings([f"players.0.agent={str(path)!r}"])
            else:
                load_scenario("maze_medium_smitsimax_duel").with_settings(
                    [f"game_params.maze_file={str(path)!r}"])
        assert "\n" not in str(exc.value)


def test_long_values_are_cut_in_messages():
    msg = one_line_error(with_change("players.0.search.c", "x" * 5000))
    assert len(msg) < 300 and "..." in msg


# ------------------------------------------------------------ memory budget
def _big(caps: dict[int, int], **top) -> dict:
    data = copy.deepcopy(BASE)
    for i, cap in caps.items():
        data["players"][i]["search"] = {"node_cap": cap}
    data.update(top)
    return data


def test_node_bytes_come_from_c():
    from sandbox.config.scenario import _node_bytes
    with Game("snakes", {"width": 7, "height": 7, "snakes": 2}) as g, Search(g) as s:
        assert _node_bytes("snakes") == s.stats().node_bytes == 32


def test_trees_over_the_memory_budget_are_refused_at_load():
    """2 search players x 2 agent trees x 2^26 nodes x 32 bytes = 8 GiB."""
    msg = one_line_error(_big({0: 1 << 26, 1: 1 << 26}, memory_budget_mb=8 * 1024 - 1))
    for w in ("memory: the search trees may take 8.0 GiB", "2 search players x 2 agent trees",
              "x 32 bytes", "0 A (node_cap 67,108,864), 1 B (node_cap 67,108,864)",
              "over the budget of", "(memory_budget_mb)", "lower players.N.search.node_cap"):
        assert w in msg, msg
    assert scenario_from_dict(_big({0: 1 << 26, 1: 1 << 26}, memory_budget_mb=8 * 1024))
    # the default trees: 2 x 2 x 2^21 x 32 = 256 MiB
    msg = one_line_error(_big({}, memory_budget_mb=255))
    assert "may take 256.0 MiB" in msg and "budget of 255.0 MiB (memory_budget_mb)" in msg
    assert scenario_from_dict(_big({}, memory_budget_mb=256))


def test_only_search_players_count():
    data = _big({0: 1 << 26, 1: 1 << 26}, memory_budget_mb=4 * 1024)
    one_line_error(data)
    data["players"][1]["controller"] = "random"
    assert scenario_from_dict(data)          # one search player: 4 GiB fits 4 GiB


@pytest.mark.parametrize("value, words", [
    (0, ["memory_budget_mb", "greater than or equal to 1"]),
    (-5, ["memory_budget_mb"]),
    (1.5, ["memory_budget_mb", "integer"]),
    ("lots", ["memory_budget_mb", "'lots'"]),
    (1 << 30, ["memory_budget_mb", "less than or equal"]),
])
def test_memory_budget_field_is_validated(value, words):
    msg = one_line_error({**BASE, "memory_budget_mb": value})
    for w in words:
        assert w in msg, msg


def test_default_memory_budget_is_half_the_machine_at_most_8_gib(monkeypatch):
    from sandbox.config import scenario as mod
    pages = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": (4 << 30) // 4096}   # a 4 GiB machine
    monkeypatch.setattr(mod.os, "sysconf", lambda name: pages[name])
    assert mod.default_memory_budget() == 2 << 30
    # four default search players on 11x11 with four snakes: 4 x 4 x 2^21 x 32 = 1 GiB fits
    assert load_scenario("snakes_standard_4p")
    msg = one_line_error(_big({0: 1 << 25, 1: 1 << 25}))                 # 4 GiB
    assert "may take 4.0 GiB" in msg and "set memory_budget_mb" in msg
    assert "over the budget of 2.0 GiB (half the machine's memory" in msg
    pages["SC_PHYS_PAGES"] = (64 << 30) // 4096                         # a 64 GiB machine
    assert mod.default_memory_budget() == 8 << 30

    def unknown(name):
        raise ValueError(name)
    monkeypatch.setattr(mod.os, "sysconf", unknown)
    assert mod.default_memory_budget() == 8 << 30


def test_a_mistyped_name_suggests_the_close_ones():
    """A typo gets "did you mean" with the nearest bundled names (before the
    whole list, which is long)."""
    name = SHIPPED[0].stem
    typo = name[:-2] + name[-1] + name[-2]           # the last two letters swapped
    with pytest.raises(ScenarioError) as exc:
        find_scenario(typo)
    msg = str(exc.value)
    assert f"did you mean {name}" in msg and "\n" not in msg
    with pytest.raises(ScenarioError) as exc:
        find_scenario("qqqqqqqqqqqq")
    assert "did you mean" not in str(exc.value) and "known: " in str(exc.value)


@pytest.mark.parametrize("ref", ["my_scenario.toml", "some/folder/my_scenario"])
def test_a_missing_file_is_said_as_such(ref):
    """A path the user typed is a missing file, not an unknown scenario name
    followed by every bundled name."""
    with pytest.raises(ScenarioError, match=r"^" + ref + r": no such scenario file$"):
        load_scenario(ref)

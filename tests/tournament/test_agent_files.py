"""The bundled agent files (agents/*.toml): each one loads, plays on the
scenario its name is for (on either seat), and says where its setting came
from: the command that chose or measured it, as the strength table's rows
quote them."""
from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.config import load_scenario
from sandbox.tournament.agents import check_entrants, load_entrant

AGENTS = sorted((Path(__file__).resolve().parents[2] / "agents").glob("*.toml"))
SCENARIO = {"goofspiel13_imp": "goofspiel_13_imp_info_duel",
            "goofspiel13_pubcfr": "goofspiel_13_imp_info_duel",
            "goofspiel13": "goofspiel_13_duel",
            "goofspiel_equilibrium": "goofspiel_6_vs_equilibrium",
            "goofspiel_openspiel": "goofspiel_13_duel",
            "snakes_duel": "snakes_duel_trees",
            "maze_duel": "maze_medium_duel",
            "snakebyte_2v2": "snakebyte_2v2",
            "pods_2v2": "pods_race_2v2"}


def scenario_for(path: Path) -> str:
    return next(v for k, v in SCENARIO.items() if path.stem.startswith(k))


def test_there_are_agent_files():
    assert len(AGENTS) >= 10


@pytest.mark.parametrize("path", AGENTS, ids=lambda p: p.stem)
def test_each_agent_file_plays_its_scenario_and_names_its_command(path):
    entrant = load_entrant(str(path))
    # a search agent carries its settings; the outside yardsticks (a policy
    # controller such as the equilibrium table or OpenSpiel's bot) have none
    # to carry, but must name a controller the games know
    if entrant.player.get("controller") in ("equilibrium", "openspiel"):
        assert "search" not in entrant.player, path
    else:
        assert entrant.player["search"], path
    check_entrants(load_scenario(scenario_for(path)), [entrant])
    comment = "\n".join(line for line in path.read_text().splitlines()
                        if line.startswith("#"))
    assert "python -m sandbox" in comment, f"{path.name}: no command says where it came from"


DEFAULTS = [p for p in AGENTS if p.stem.endswith("_default")]


@pytest.mark.parametrize("path", DEFAULTS, ids=lambda p: p.stem)
def test_a_default_agent_file_is_its_scenarios_seat_0(path):
    """agents/*_default.toml stand for a scenario's own player in sweeps and
    matches: when the scenario's settings change, the file must follow, or a
    "against the default" figure measures something else."""
    from sandbox.native import SearchParams
    scenario = load_scenario(scenario_for(path))
    mine = SearchParams.coerce(load_entrant(str(path)).player["search"])
    assert mine == SearchParams.coerce(scenario.players[0].search), path.name


def test_there_are_default_agent_files():
    assert len(DEFAULTS) >= 4, [p.name for p in DEFAULTS]

"""Tournament entrants: agent files (sandbox.config.agent) or built-in
names, and how an entrant takes a seat of a scenario.

A built-in name is a player with default settings:
  random                 uniform random legal moves
  bot                    the game's own heuristic (games that have one: pods)
  smitsimax, suct, joint, mcgs, greedy, uct, gtcfr
                         that search algorithm with default knobs (the
                         scenario's budget, or --iterations / --ms); uct
                         is the untuned textbook yardstick (C 2); gtcfr
                         is growing-tree CFR (two-player games)

An agent file with controller "battlesnake" (and its url, timeout_ms) is
a user's snake server; it takes seats of snakes scenarios only.

An entrant replaces the whole player of a seat: its controller, search and
budget (an agent file's missing keys take their defaults, not the
scenario player's, so one agent plays the same on every seat and scenario);
the seat keeps the agents it moves and its seed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config.agent import read_agent_file, resolve_agent_file
from ..config.process import PROCESS_KEYS
from ..config.scenario import Scenario, ScenarioError, scenario_from_dict
from ..native import InvalidArgument
from ..sim.series import vary_scenario

BUILTIN = ("random", "bot", "smitsimax", "suct", "joint", "mcgs", "greedy", "uct",
           "gtcfr")


@dataclass(frozen=True)
class Entrant:
    """Plain data (picklable, JSON-able): a name and a player's keys."""
    name: str
    player: dict[str, Any]      # controller, search, budget (each optional)
    source: str                 # the file or built-in name it came from

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "player": self.player, "source": self.source}


def builtin_entrant(name: str) -> Entrant:
    if name in ("random", "bot"):
        return Entrant(name, {"controller": name}, name)
    return Entrant(name, {"controller": "smitsimax", "search": {"algorithm": name}}, name)


def load_entrant(ref: str, name: str | None = None) -> Entrant:
    """An agent file's path, or a built-in name (BUILTIN). Errors are one
    ScenarioError line naming the file and field."""
    if not isinstance(ref, str) or not ref.strip():
        raise ScenarioError(f"agent: expected a file or one of {', '.join(BUILTIN)}, got {ref!r}")
    if ref in BUILTIN and not Path(ref).is_file():
        e = builtin_entrant(ref)
        return Entrant(name or e.name, e.player, e.source) if name else e
    if not ref.endswith(".toml"):
        raise ScenarioError(f"agent {ref!r}: not an agent file (*.toml) nor a built-in "
                            f"agent ({', '.join(BUILTIN)})")
    path = resolve_agent_file(ref, "agent", None)
    data = read_agent_file(path, "agent", ref)
    # the weights too: an agent saved from the arena with its own evaluation
    # weights plays with them here as in a scenario (they were dropped)
    keys = {k: data[k] for k in ("controller", "search", "budget", "weights", "url",
                                 *PROCESS_KEYS)
            if data.get(k) is not None}
    keys.setdefault("controller", "smitsimax")
    if keys["controller"] == "human":
        raise ScenarioError(f"agent {ref}: controller = \"human\": tournaments and sweeps "
                            "play without people")
    return Entrant(name or data.get("name") or Path(ref).stem, keys, ref)


def unique_names(entrants: list[Entrant]) -> list[Entrant]:
    """Two entrants of one name get #2, #3 ... (a table needs them apart)."""
    seen: dict[str, int] = {}
    out = []
    for e in entrants:
        k = seen.get(e.name, 0) + 1
        seen[e.name] = k
        out.append(e if k == 1 else Entrant(f"{e.name}#{k}", e.player, e.source))
    return out


def seat_scenario(scenario: Scenario, seats: list[Entrant]) -> dict[str, Any]:
    """The scenario as a plain dict with seat i played by seats[i] (only
    settings cross to a worker process: this dict, never live objects)."""
    data = scenario.model_dump(mode="json")
    players = []
    for i, (p, e) in enumerate(zip(data["players"], seats)):
        q = {"name": e.name[:40], "agents": scenario.player_agents(i)}
        if p.get("seed") is not None:
            q["seed"] = p["seed"]
        if p.get("color") is not None:
            q["color"] = p["color"]
        q.update(e.player)
        players.append(q)
    data["players"] = players
    data["record"] = {**data["record"], "enabled": False}
    return data


def check_vary(scenario: Scenario, vary: str | None, seeds: range) -> None:
    """--vary names one game parameter that takes every seed of the run."""
    if vary is None:
        return
    if not isinstance(vary, str) or not re.fullmatch(r"game_params\.\w+", vary):
        raise InvalidArgument(f"--vary takes a game parameter, game_params.NAME (e.g. "
                              f"game_params.maze_seed), got {vary!r}")
    for seed in (seeds[0], seeds[-1]):
        try:
            vary_scenario(scenario, vary, seed)
        except ScenarioError as e:
            raise InvalidArgument(f"--vary {vary}: {str(e).removeprefix('--set: ')}") from None
    # a parameter the scenario takes but does not use (pods' map_seed on a
    # fixed or hand-made map) would log a varied run that is not one
    if len(seeds) < 2:
        return
    from ..native import Game
    starts = set()
    for value in (seeds[0], seeds[1]):
        sc = vary_scenario(scenario, vary, value)
        with Game(sc.game, sc.game_param_string(), seed=seeds[0]) as g:
            starts.add(g.state_hash())
    if len(starts) == 1:
        raise InvalidArgument(f"--vary {vary}: {scenario.name} starts in the same state whatever "
                              f"its value (this scenario does not draw its layout from it)")


def check_entrants(scenario: Scenario, entrants: list[Entrant]) -> None:
    """Every entrant on every seat makes a valid scenario (a bot on a game
    without one, MCGS with three players ... fail here, before any game)."""
    n = len(scenario.players)
    for e in entrants:
        for seat in range(n):
            seats = [e if k == seat else entrants[0] for k in range(n)]
            try:
                scenario_from_dict(seat_scenario(scenario, seats), source=f"agent {e.source}")
            except ScenarioError as exc:
                raise ScenarioError(str(exc).replace(f"players.{seat}.", "")) from None

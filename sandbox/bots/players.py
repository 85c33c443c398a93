"""A scenario's outside players made into controllers: a program of the
user's over a pipe (`controller = "process"`, controller.py) and a program
elsewhere over the network (adapters.REMOTE_PLAYERS: a Battlesnake server,
battlesnake/client.py). The match (sandbox.sim.match) asks here for every
player it does not run itself, so nothing in the sim layer knows a pipe, a
socket or a wire format."""
from __future__ import annotations

from typing import Any

from ..native import InvalidArgument
from ..seeds import public_match_id
from .adapters import REMOTE_PLAYERS
from .battlesnake.client import BattlesnakeController
from .controller import ProcessController
from .external import ExternalController

# each remote kind's controller: (player, agents, name, url, timeout_ms,
# game_params, match id, every agent's player name)
REMOTE_CONTROLLER_CLASSES: dict[str, type[ExternalController]] = {
    "battlesnake": BattlesnakeController,
}
OUTSIDE_CONTROLLERS = ("process", *REMOTE_PLAYERS)


def make_outside_controller(scenario: Any, i: int, match_seed: int) -> ExternalController:
    """Player i of `scenario` (a validated sandbox.config.Scenario), whose
    controller is one of OUTSIDE_CONTROLLERS, in a match of `match_seed`."""
    p = scenario.players[i]
    agents = scenario.player_agents(i)
    name = p.name or f"P{i}"
    if p.controller == "process":
        return ProcessController(i, agents, scenario.game, scenario.game_params,
                                 scenario.player_seed(i, match_seed),
                                 command=p.command or [], cwd=p.cwd, env=p.env,
                                 timeout_ms=p.timeout_ms, first_turn_ms=p.first_turn_ms,
                                 on_failure=p.on_failure, memory_mb=p.memory_mb,
                                 cpu_s=p.cpu_s, protocol=p.protocol, name=name)
    remote = REMOTE_PLAYERS.get(p.controller)
    cls = REMOTE_CONTROLLER_CLASSES.get(p.controller)
    if remote is None or cls is None or scenario.game not in remote.games:
        raise InvalidArgument(f"controller {p.controller}: not an outside player of "
                              f"{scenario.game}")
    from ..games import plugin
    why = remote.setup_problem(plugin(scenario.game).params(scenario.game_params))
    if why:
        raise InvalidArgument(f"controller {p.controller}: {why}")
    owner = {a: k for k in range(len(scenario.players)) for a in scenario.player_agents(k)}
    names = [scenario.players[owner[a]].name or f"P{owner[a]}" for a in sorted(owner)]
    return cls(i, agents, name, p.url, p.timeout_ms, scenario.game_params,
               f"sandbox-{public_match_id(match_seed)}", names)

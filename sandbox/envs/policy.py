"""A search agent as a policy inside a SandboxParallelEnv: each call searches
from the env's current state (a fresh C search on a clone of its game) and
returns the agent's best move. Deterministic: the search is seeded from the
policy's seed and the state's hash."""
from __future__ import annotations

from typing import Any, Mapping

from ..native import InvalidArgument, Search, SearchParams
from ..native.search import params_arg


class SearchPolicy:
    def __init__(self, params: SearchParams | Mapping[str, Any] | None = None,
                 iterations: int = 1000, seed: int = 0) -> None:
        self.params = params_arg(params)
        if type(iterations) is not int or iterations < 1:
            raise InvalidArgument(f"iterations: a whole number >= 1, got {iterations!r}")
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise InvalidArgument(f"seed: a whole number in 0..2^63-1, got {seed!r}")
        self.iterations = iterations
        self.seed = seed

    def __call__(self, env, agent: str) -> int:
        i = env.agent_index.get(agent) if hasattr(env, "agent_index") else None
        if i is None:
            raise InvalidArgument(f"agent {agent!r} is not an agent of this env")
        if agent not in env.agents:
            raise InvalidArgument(f"agent {agent!r} is out of the episode (terminated or "
                                  "truncated, or reset() not called)")
        game = env.game.clone()
        try:
            seed = (self.seed * 1_000_003 + game.state_hash()) % 2**63
            with Search(game, self.params, seed=seed) as s:
                s.run(iterations=self.iterations)
                move = s.best_moves()[i]
        finally:
            game.close()
        legal = env.game.legal_moves(i)
        return int(move) if move is not None and move in legal else int(legal[0])

    def actions(self, env) -> dict[str, int]:
        """Every live agent's move (one search per agent)."""
        return {a: self(env, a) for a in env.agents}

"""An agent's behaviour at a state: what its search plays there.

A fresh Search on the state with the agent's parameters and iteration budget
(so the answer does not depend on the order states are visited in), seeded
from the scenario's seed and the state's hash (so it is reproducible). One
search gives both seats (it grows a tree per agent): the self-play profile.

Per seat, two strategies are read from the root:
  behaviour  what the agent actually plays: with final_move=sample the root
             policy vector (the average strategy it samples from), otherwise
             the move best_moves() returns, as a pure strategy;
  policy     the root policy vector (what the search "believes").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..native import Search, SearchParams

MASK64 = (1 << 64) - 1


def state_seed(seed: int, state_hash: int) -> int:
    """A search seed from the scenario's seed and a state hash (splitmix64's
    finaliser over their mix: nearby hashes give unrelated seeds)."""
    z = (seed * 0x9E3779B97F4A7C15 + state_hash) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


@dataclass(frozen=True)
class RootStrategies:
    behaviour: tuple[np.ndarray, np.ndarray]
    policy: tuple[np.ndarray, np.ndarray]


class SearchOracle:
    """Queries a search at states; results cached by state hash."""

    def __init__(self, params: SearchParams, iterations: int, seed: int) -> None:
        if iterations < 1:
            raise ValueError("the search budget must be >= 1 iteration")
        self.params = params
        self.iterations = iterations
        self.seed = seed
        self.searches = 0
        self._cache: dict[int, RootStrategies] = {}

    @property
    def samples(self) -> bool:
        return self.params.final_move == "sample"

    def strategies(self, game, moves: tuple[tuple[int, ...], ...]) -> RootStrategies:
        """Both seats' strategies at `game`'s state over `moves` (each seat's
        legal moves, in the order the strategies are indexed)."""
        key = game.state_hash()
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        with Search(game, self.params, seed=state_seed(self.seed, key)) as s:
            s.run(iterations=self.iterations)
            best = s.best_moves()
            policy = tuple(self._policy(s.root_stats(a), moves[a], a) for a in range(2))
        self.searches += 1
        if self.samples:
            behaviour = policy
        else:
            behaviour = tuple(self._pure(best[a], moves[a], a) for a in range(2))
        out = RootStrategies(behaviour, policy)   # type: ignore[arg-type]
        self._cache[key] = out
        return out

    @staticmethod
    def _policy(stats, moves: tuple[int, ...], seat: int) -> np.ndarray:
        index = {m: k for k, m in enumerate(moves)}
        p = np.zeros(len(moves))
        for st in stats:
            if st.move not in index:
                raise ValueError(f"seat {seat}: the search's root has move {st.move}, "
                                 f"which is not legal here {moves}")
            p[index[st.move]] += st.policy
        total = p.sum()
        if not total > 0:
            raise ValueError(f"seat {seat}: the search's root policy is empty")
        return p / total

    @staticmethod
    def _pure(move: int | None, moves: tuple[int, ...], seat: int) -> np.ndarray:
        if move not in moves:
            raise ValueError(f"seat {seat}: the search's best move {move} is not legal "
                             f"here {moves}")
        p = np.zeros(len(moves))
        p[moves.index(move)] = 1.0
        return p

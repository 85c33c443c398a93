"""Exact values over the whole tree of a small two-seat simultaneous-move game.

The tree is enumerated by stepping clones of the C game through every joint
action from the initial state; chance events (the next goofspiel prize with
a random order) are resolved by the game's plugin (`chance_outcomes`). Every
decision state is public (each seat sees the other's past moves), so a best
response may condition on the state itself, and backward induction gives it
exactly:

    Q(s, i, j)  = sum over the outcomes (p, reward r, child s') of p (r + V(s'))
    V(s)        = x(s) . Q(s) . y(s)                    the profile's value
    BR_0(s)     = max_i sum_j y_j (r_0 + BR_0(s'))       seat 0's best response to y
    BR_1(s)     = max_j sum_i x_i (r_1 + BR_1(s'))
    NashConv    = [BR_0 - V_0] + [BR_1 - V_1]  at the root

and, in a zero-sum game (every step's rewards sum to 0), the equilibrium
value by solving each node's matrix of continuation values as a zero-sum
matrix game (lp.solve_zero_sum).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .lp import solve_zero_sum

ZERO_SUM_TOL = 1e-9

Outcome = tuple[float, np.ndarray, "int | None"]      # probability, rewards, child key


@dataclass
class Node:
    """A decision state: the legal moves of each seat and, per joint action,
    where it leads."""
    key: int                                   # the state hash
    depth: int
    moves: tuple[tuple[int, ...], tuple[int, ...]]
    outcomes: list[list[list[Outcome]]] = field(default_factory=list)   # [i][j] -> outcomes

    @property
    def forced(self) -> bool:
        """Nobody has a choice here (no search is needed)."""
        return len(self.moves[0]) == 1 and len(self.moves[1]) == 1


@dataclass
class GameTree:
    root: list[tuple[float, int]]              # the initial chance event: (p, node key)
    nodes: dict[int, Node]
    games: dict[int, object]                   # node key -> its Game (to search from)
    zero_sum: bool

    def decision_nodes(self) -> list[Node]:
        return [n for n in self.nodes.values() if not n.forced]


Chance = Callable[[object], list[tuple[float, object]]]


def build_tree(game, chance: Chance | None = None, max_nodes: int = 1_000_000,
               on_node: Callable[[int], None] | None = None) -> GameTree:
    """Every state reachable from `game` (a two-seat sandbox.native.Game,
    left unchanged). `chance(game)` lists the states a chance event just
    drawn could have produced (default: none)."""
    if game.num_agents != 2:
        raise ValueError(f"exact values need a two-seat game (this one has {game.num_agents})")
    resolve = chance or (lambda g: [(1.0, g)])
    nodes: dict[int, Node] = {}
    games: dict[int, object] = {}
    zero_sum = True

    def visit(g, depth: int) -> int:
        nonlocal zero_sum
        key = g.state_hash()
        if key in nodes:      # a 64-bit hash of the whole export (history included)
            raise ValueError(f"two states with the hash {key:#x}: the tree is not a tree")
        if len(nodes) >= max_nodes:
            raise ValueError(f"more than {max_nodes:,} decision states")
        node = Node(key, depth, (tuple(g.legal_moves(0)), tuple(g.legal_moves(1))))
        nodes[key] = node
        games[key] = g
        if on_node is not None:
            on_node(len(nodes))
        for mi in node.moves[0]:
            row = []
            for mj in node.moves[1]:
                after = g.clone()
                rewards = after.step([mi, mj])
                if abs(rewards[0] + rewards[1]) > ZERO_SUM_TOL:
                    zero_sum = False
                outs: list[Outcome] = []
                for p, s in ([(1.0, after)] if after.is_terminal else resolve(after)):
                    outs.append((p, rewards, None if s.is_terminal else visit(s, depth + 1)))
                row.append(outs)
            node.outcomes.append(row)
        return key

    root = [(p, visit(s, 0)) for p, s in resolve(game.clone())]
    return GameTree(root, nodes, games, zero_sum)


# A profile: node key -> (seat 0's strategy over node.moves[0], seat 1's over moves[1])
Profile = Callable[[Node], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class ProfileValues:
    value: np.ndarray          # both seats' expected returns under the profile
    best_response: np.ndarray  # each seat's best-response value against the other's strategy

    @property
    def gains(self) -> np.ndarray:
        """What each seat gains by switching to a best response (>= 0)."""
        return np.maximum(self.best_response - self.value, 0.0)

    @property
    def nashconv(self) -> float:
        return float(self.gains.sum())


def evaluate_profile(tree: GameTree, profile: Profile) -> ProfileValues:
    """The profile's value and each seat's best-response value (exact)."""
    memo: dict[int, tuple[np.ndarray, float, float]] = {}

    def solve(key: int) -> tuple[np.ndarray, float, float]:
        if key in memo:
            return memo[key]
        node = tree.nodes[key]
        x, y = profile(node)
        ni, nj = len(node.moves[0]), len(node.moves[1])
        q = np.zeros((ni, nj, 2))
        q0 = np.zeros((ni, nj))     # seat 0 best-responding below
        q1 = np.zeros((ni, nj))     # seat 1 best-responding below
        for i in range(ni):
            for j in range(nj):
                for p, r, child in node.outcomes[i][j]:
                    if child is None:
                        v, b0, b1 = np.zeros(2), 0.0, 0.0
                    else:
                        v, b0, b1 = solve(child)
                    q[i, j] += p * (r + v)
                    q0[i, j] += p * (r[0] + b0)
                    q1[i, j] += p * (r[1] + b1)
        value = np.einsum("i,ijk,j->k", x, q, y)
        out = (value, float(np.max(q0 @ y)), float(np.max(x @ q1)))
        memo[key] = out
        return out

    value, br = np.zeros(2), np.zeros(2)
    for p, key in tree.root:
        v, b0, b1 = solve(key)
        value += p * v
        br += p * np.array([b0, b1])
    return ProfileValues(value, br)


@dataclass(frozen=True)
class Equilibrium:
    value: float                                        # seat 0's equilibrium return
    strategies: dict[int, tuple[np.ndarray, np.ndarray]]

    def profile(self, node: Node) -> tuple[np.ndarray, np.ndarray]:
        return self.strategies[node.key]


def solve_equilibrium(tree: GameTree) -> Equilibrium:
    """Backward induction with an LP at every simultaneous node (zero-sum
    games only: a general-sum game has no single value)."""
    if not tree.zero_sum:
        raise ValueError("the game is not zero-sum: it has no single equilibrium value")
    memo: dict[int, float] = {}
    strategies: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def solve(key: int) -> float:
        if key in memo:
            return memo[key]
        node = tree.nodes[key]
        ni, nj = len(node.moves[0]), len(node.moves[1])
        a = np.zeros((ni, nj))
        for i in range(ni):
            for j in range(nj):
                for p, r, child in node.outcomes[i][j]:
                    a[i, j] += p * (r[0] + (0.0 if child is None else solve(child)))
        sol = solve_zero_sum(a)
        strategies[key] = (sol.row, sol.col)
        memo[key] = sol.value
        return sol.value

    value = sum(p * solve(key) for p, key in tree.root)
    return Equilibrium(float(value), strategies)


def uniform_profile(node: Node) -> tuple[np.ndarray, np.ndarray]:
    """Every legal move equally likely, for both seats."""
    return (np.full(len(node.moves[0]), 1.0 / len(node.moves[0])),
            np.full(len(node.moves[1]), 1.0 / len(node.moves[1])))

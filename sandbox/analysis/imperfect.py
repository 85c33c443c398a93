"""Exact best responses and NashConv over information states (hidden-information
games such as goofspiel with imp_info=1), and tabular CFR+ as an independent
equilibrium solver.

The history tree is tree.py's (stepping clones of the C game through every
joint action, chance resolved by the plugin); every decision state also
records, per seat, the key of the seat's information set (plugin.info_key). A strategy is a function of (seat, information set); a
best response may condition on the information set only, not on the state:

    reach_-i(h)        chance and the other seat's probabilities on the way to h
    v_i(I, a)          sum over h in I of reach_-i(h) * Q_i(h, a), where
    Q_i(h, a)          = sum_b sigma_j(b | I_j(h)) sum_outcomes p (r_i + BR_i(h'))
    BR_i(h)            = Q_i(h, a*(I)),  a*(I) = argmax_a v_i(I, a)

solved from the deepest information sets up (a seat's information set holds
states of one depth: every state records the turn). NashConv is the sum of
both seats' best-response gains. Perfect recall holds (a seat's information
set includes its own earlier moves), which makes this per-set argmax the
best response.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .tree import Outcome, build_tree


@dataclass
class INode:
    key: int                                   # state hash
    depth: int
    moves: tuple[tuple[int, ...], tuple[int, ...]]
    infos: tuple[Any, Any]                     # each seat's information set key
    outcomes: list[list[list[Outcome]]] = field(default_factory=list)


@dataclass
class InfoTree:
    root: list[tuple[float, int]]
    nodes: dict[int, INode]
    games: dict[int, object]
    infosets: list[dict[Any, list[int]]]       # per seat: key -> node keys (sorted)
    moves_at: list[dict[Any, tuple[int, ...]]]  # per seat: key -> its legal moves
    zero_sum: bool

    def decision_infosets(self, seat: int) -> list[Any]:
        return [k for k, m in self.moves_at[seat].items() if len(m) > 1]


def build_info_tree(game, info_key: Callable[[object, int], Any],
                    chance: Callable[[object], list] | None = None,
                    max_nodes: int = 1_000_000) -> InfoTree:
    """tree.py's history tree (the same walk, chance and zero-sum check),
    each decision state labelled with both seats' information set keys."""
    tree = build_tree(game, chance, max_nodes)
    nodes = {key: INode(key, n.depth, n.moves, (info_key(tree.games[key], 0),
                                                info_key(tree.games[key], 1)), n.outcomes)
             for key, n in tree.nodes.items()}
    infosets: list[dict[Any, list[int]]] = [{}, {}]
    moves_at: list[dict[Any, tuple[int, ...]]] = [{}, {}]
    for node in nodes.values():
        for seat in (0, 1):
            infosets[seat].setdefault(node.infos[seat], []).append(node.key)
            have = moves_at[seat].setdefault(node.infos[seat], node.moves[seat])
            if have != node.moves[seat]:
                raise ValueError(f"seat {seat}: two states of one information set have "
                                 f"different legal moves {have} and {node.moves[seat]}")
    for seat in (0, 1):
        for keys in infosets[seat].values():
            keys.sort()
    return InfoTree(tree.root, nodes, tree.games, infosets, moves_at, tree.zero_sum)


# A strategy: (seat, information set key) -> probabilities over moves_at[seat][key]
Strategy = Callable[[int, Any], np.ndarray]


@dataclass(frozen=True)
class InfoValues:
    value: np.ndarray
    best_response: np.ndarray

    @property
    def gains(self) -> np.ndarray:
        return np.maximum(self.best_response - self.value, 0.0)

    @property
    def nashconv(self) -> float:
        return float(self.gains.sum())


def _strategy_table(tree: InfoTree, strategy: Strategy) -> list[dict[Any, np.ndarray]]:
    out: list[dict[Any, np.ndarray]] = [{}, {}]
    for seat in (0, 1):
        for key, moves in tree.moves_at[seat].items():
            x = np.asarray(strategy(seat, key), dtype=np.float64)
            if x.shape != (len(moves),) or abs(x.sum() - 1.0) > 1e-6 or np.any(x < -1e-12):
                raise ValueError(f"seat {seat}: not a strategy over {moves}: {x}")
            out[seat][key] = x
    return out


def profile_value(tree: InfoTree, table: list[dict[Any, np.ndarray]]) -> np.ndarray:
    memo: dict[int, np.ndarray] = {}

    def val(key: int) -> np.ndarray:
        if key in memo:
            return memo[key]
        node = tree.nodes[key]
        x, y = table[0][node.infos[0]], table[1][node.infos[1]]
        v = np.zeros(2)
        for i, xi in enumerate(x):
            for j, yj in enumerate(y):
                if xi * yj == 0.0:
                    continue
                for p, r, child in node.outcomes[i][j]:
                    v += xi * yj * p * (r + (0.0 if child is None else val(child)))
        memo[key] = v
        return v

    return sum((p * val(k) for p, k in tree.root), np.zeros(2))


def best_response_value(tree: InfoTree, table: list[dict[Any, np.ndarray]], seat: int) -> float:
    """Seat's best-response value against the other seat's strategies in
    `table`, choosing per information set (module docstring)."""
    other = 1 - seat
    reach: dict[int, float] = {}
    for p, k in tree.root:
        reach[k] = reach.get(k, 0.0) + p
    for key in sorted(tree.nodes, key=lambda k: tree.nodes[k].depth):   # top-down
        node = tree.nodes[key]
        r0 = reach.get(key, 0.0)
        y = table[other][node.infos[other]]
        for i in range(len(node.moves[0])):
            for j in range(len(node.moves[1])):
                q = y[j] if seat == 0 else y[i]
                for p, _, child in node.outcomes[i][j]:
                    if child is not None:
                        reach[child] = reach.get(child, 0.0) + r0 * q * p
    br: dict[int, float] = {}
    depth_of = {k: tree.nodes[tree.infosets[seat][k][0]].depth for k in tree.infosets[seat]}
    for info in sorted(tree.infosets[seat], key=lambda k: -depth_of[k]):        # bottom-up
        members = tree.infosets[seat][info]
        na = len(tree.moves_at[seat][info])
        qs = np.zeros((len(members), na))
        for m, key in enumerate(members):
            node = tree.nodes[key]
            y = table[other][node.infos[other]]
            for a in range(na):
                total = 0.0
                for b, yb in enumerate(y):
                    i, j = (a, b) if seat == 0 else (b, a)
                    for p, r, child in node.outcomes[i][j]:
                        total += yb * p * (r[seat] + (0.0 if child is None else br[child]))
                qs[m, a] = total
        weights = np.array([reach.get(k, 0.0) for k in members])
        best = int(np.argmax(weights @ qs)) if weights.sum() > 0 else int(np.argmax(qs.sum(0)))
        for m, key in enumerate(members):
            br[key] = float(qs[m, best])
    return float(sum(p * br[k] for p, k in tree.root))


def evaluate_strategy(tree: InfoTree, strategy: Strategy) -> InfoValues:
    table = _strategy_table(tree, strategy)
    value = profile_value(tree, table)
    br = np.array([best_response_value(tree, table, 0), best_response_value(tree, table, 1)])
    return InfoValues(value, br)


def uniform_strategy(tree: InfoTree) -> Strategy:
    return lambda seat, key: np.full(len(tree.moves_at[seat][key]),
                                     1.0 / len(tree.moves_at[seat][key]))


# ---------------------------------------------------------------- CFR+
@dataclass
class CFRResult:
    average: list[dict[Any, np.ndarray]]
    iterations: int
    nashconv: float
    value: np.ndarray          # the average profile's value

    def strategy(self, seat: int, key: Any) -> np.ndarray:
        return self.average[seat][key]


def solve_cfr(tree: InfoTree, target: float = 1e-4, max_iterations: int = 20_000,
              check_every: int = 50) -> CFRResult:
    """Tabular CFR+ (regret matching+, alternating updates, linearly weighted
    average) over the whole tree, until the average profile's NashConv is
    at most `target` (exact, by evaluate_strategy) or max_iterations."""
    if not tree.zero_sum:
        raise ValueError("CFR's game value needs a zero-sum game")
    regrets = [{k: np.zeros(len(m)) for k, m in tree.moves_at[s].items()} for s in (0, 1)]
    avg = [{k: np.zeros(len(m)) for k, m in tree.moves_at[s].items()} for s in (0, 1)]
    order = sorted(tree.nodes, key=lambda k: tree.nodes[k].depth)

    def current(seat: int, key: Any) -> np.ndarray:
        r = np.maximum(regrets[seat][key], 0.0)
        t = r.sum()
        return r / t if t > 0 else np.full(len(r), 1.0 / len(r))

    def average(seat: int, key: Any) -> np.ndarray:
        a = avg[seat][key]
        t = a.sum()
        return a / t if t > 0 else np.full(len(a), 1.0 / len(a))

    nc, it = float("inf"), 0
    while it < max_iterations:
        it += 1
        for seat in (0, 1):
            other = 1 - seat
            sigma = [{k: current(s, k) for k in tree.moves_at[s]} for s in (0, 1)]
            # reach of the other seat and chance (top-down), own reach for the average
            reach_o: dict[int, float] = {}
            reach_s: dict[int, float] = {}
            for p, k in tree.root:
                reach_o[k] = reach_o.get(k, 0.0) + p
                reach_s[k] = 1.0
            for key in order:
                node = tree.nodes[key]
                x, y = sigma[0][node.infos[0]], sigma[1][node.infos[1]]
                for i in range(len(x)):
                    for j in range(len(y)):
                        for p, _, child in node.outcomes[i][j]:
                            if child is None:
                                continue
                            po, ps = (y[j], x[i]) if seat == 0 else (x[i], y[j])
                            reach_o[child] = reach_o.get(child, 0.0) + reach_o[key] * po * p
                            reach_s[child] = reach_s[key] * ps    # own line: one parent
            value: dict[int, float] = {}
            for key in reversed(order):                             # bottom-up
                node = tree.nodes[key]
                x, y = sigma[0][node.infos[0]], sigma[1][node.infos[1]]
                own = x if seat == 0 else y
                qa = np.zeros(len(own))
                for a in range(len(own)):
                    opp = y if seat == 0 else x
                    for b, pb in enumerate(opp):
                        i, j = (a, b) if seat == 0 else (b, a)
                        for p, r, child in node.outcomes[i][j]:
                            qa[a] += pb * p * (r[seat] + (0.0 if child is None else value[child]))
                v = float(own @ qa)
                value[key] = v
                info = node.infos[seat]
                regrets[seat][info] += reach_o[key] * (qa - v)
                avg[seat][info] += it * reach_s[key] * own
            for k in regrets[seat]:
                np.maximum(regrets[seat][k], 0.0, out=regrets[seat][k])
        if it % check_every == 0 or it == max_iterations:
            ev = evaluate_strategy(tree, average)
            nc = ev.nashconv
            if nc <= target:
                break
    final = [{k: average(s, k) for k in tree.moves_at[s]} for s in (0, 1)]
    ev = evaluate_strategy(tree, lambda s, k: final[s][k])
    return CFRResult(final, it, ev.nashconv, ev.value)

"""Query solving (Student of Games' sound self-play targets): a position's
value and policy targets are what GT-CFR finds when it solves that position
afresh at a larger budget, not the noisy root mean of the search that
happened to play through it.

The solve is an ordinary native search (all per-node work in C); this
module only reads its root. The value is the root's value under both
players' *average* strategies (the part of CFR that converges to an
equilibrium) against the joint actions' values from the last regret update:
x' M y with x, y the average strategies and M player 0's zero-sum values
(v0 - v1) / 2, the same side and scale GT-CFR asks a value net for at its
frontier. Player 1's target is its negation. The policy targets are the two
average strategies."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

SOLVERS = ("gtcfr", "pubcfr")


@dataclass(frozen=True)
class Solved:
    values: np.ndarray                 # [2]: each player's value, its own side
    policies: tuple[dict[int, float], dict[int, float]]   # move -> average probability
    # the solver's tree's leaves (its frontier: where it asked the net or the
    # evaluation), each as its path of joint actions from the solved
    # position; empty unless asked for
    leaves: tuple[tuple[tuple[int, int], ...], ...] = ()


def frontier_paths(search) -> list[tuple[tuple[int, int], ...]]:
    """Every leaf of a GT-CFR search's tree (a node without children: an
    unexpanded frontier state or a terminal one) as its path of joint
    actions from the root, in the snapshot's (breadth-first) order, each
    path once. In a game with chance (goofspiel's random prize order,
    snakes' food) the tree keeps a node per chance outcome under a joint
    action; those leaves share one path, which stands for all of them (a
    query replays it and draws the chance events afresh)."""
    snap = search.snapshot(0, max(search.stats().nodes[0], 1), 0)
    rows = snap.rows
    parent = rows["parent"]
    has_child = np.zeros(len(rows), dtype=bool)
    has_child[parent[parent >= 0]] = True
    out = []
    for i in np.flatnonzero(~has_child):
        path = []
        j = int(i)
        while parent[j] >= 0:
            path.append((int(rows["joint"][j][0]), int(rows["joint"][j][1])))
            j = int(parent[j])
        if path:
            out.append(tuple(reversed(path)))
    return list(dict.fromkeys(out))


def solver_params(search: Mapping[str, Any], value_net: str | None = None) -> dict[str, Any]:
    """A player's search settings turned into the solver's: the same
    settings (depth, rollouts, priors, the value net) under GT-CFR, or
    under public-state CFR for a pubcfr player (hidden information: the
    solve is over public belief states), one thread, a sampled final move
    ignored (only the averages are read)."""
    p = dict(search)
    p["algorithm"] = "pubcfr" if search.get("algorithm") == "pubcfr" else "gtcfr"
    p["threads"] = 1
    if value_net is not None:
        p["value_net"] = value_net
    return p


def solve_position(game, params: Mapping[str, Any], iterations: int, seed: int,
                   leaves: bool = False) -> Solved | None:
    """Solves `game` (a two-seat perfect-information sandbox.native.Game,
    left unchanged) with `iterations` GT-CFR iterations from a search seeded
    `seed`; None for a terminal state or one where nobody has a move.
    `leaves`: also the solver's frontier (Solved.leaves), the states it
    asked about, from which Student of Games draws its recursive queries."""
    from ..native import Search
    if game.is_terminal:
        return None
    with Search(game, params, seed=seed) as s:
        s.run(iterations=iterations)
        rm = s.root_matrix()
        if rm.shape[0] == 0 or rm.shape[1] == 0:
            return None
        strat = []
        for agent in range(2):
            got = {m.move: max(float(m.policy), 0.0) for m in s.root_stats(agent)}
            x = np.array([got.get(m, 0.0) for m in rm.moves[agent]], dtype=np.float64)
            x = x / x.sum() if x.sum() > 0 else np.full(len(x), 1.0 / len(x))
            strat.append(x)
        frontier = tuple(frontier_paths(s)) if leaves else ()
    v0 = float(strat[0] @ rm.values[0] @ strat[1])
    policies = tuple({int(m): float(p) for m, p in zip(rm.moves[a], strat[a]) if m >= 0}
                     for a in range(2))
    return Solved(values=np.array([v0, -v0]), policies=policies,  # type: ignore[arg-type]
                  leaves=frontier)


@dataclass(frozen=True)
class SolvedBelief:
    """A public belief state solved afresh (Student of Games' query
    solving with hidden information), per seat and private-state slot of
    the value net: the seat's range (its input), its value holding that
    private state (the target) and which slots have one, its average
    strategy mixed over its range (the policy target: one policy head
    serves all of a seat's private states) and the moves legal in some
    private state of its range. `frontier`: the solver's public nodes with
    no children (where it asked the net or the evaluation), each a query
    (PublicBelief, Game) of its own; empty unless asked for."""
    ranges: np.ndarray        # [2, slots]
    values: np.ndarray        # [2, slots]
    mask: np.ndarray          # [2, slots]
    policies: tuple[dict[int, float], dict[int, float]]
    legal: np.ndarray         # [2, moves] bool
    frontier: tuple = ()


def per_slot(game, rv, slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A seat's RootValues gathered per slot: its range (weights summed),
    its value (the information states' values weighted by weight times
    opponent mass, or by the mass alone where the seat's weights there are
    all 0: a private state it would not hold still has a value), and 1
    where the opponent reaches some history of the slot (else no value)."""
    rng, num, den, num0, den0 = (np.zeros(slots) for _ in range(5))
    for ident, w, m, v in zip(rv.ids.tolist(), rv.weights, rv.opponent_mass, rv.values):
        k = game.private_slot(int(ident))
        rng[k] += w
        num[k] += w * m * v
        den[k] += w * m
        num0[k] += m * v
        den0[k] += m
    value = np.where(den > 0, num / np.where(den > 0, den, 1.0),
                     num0 / np.where(den0 > 0, den0, 1.0))
    return rng, value, (den0 > 0).astype(np.float64)


def frontier_nodes(search) -> list[int]:
    """A pubcfr search's frontier: its public nodes below the root that are
    not expanded and hold some history (where it asks the net or the
    evaluation)."""
    return [n.index for n in search.public_nodes()
            if n.depth > 0 and not n.expanded and n.histories > 0]


def solve_belief(game, belief, params: Mapping[str, Any], iterations: int, seed: int,
                 slots: int, frontier: bool = False) -> SolvedBelief | None:
    """Solves the public belief state `belief` (a PublicBelief) at `game`'s
    public state with `iterations` pubcfr iterations from a search seeded
    `seed`, both ranges held fixed (Search.set_beliefs); None for a terminal
    state. `frontier`: also the solver's frontier as queries."""
    from ..native import Search
    if game.is_terminal:
        return None
    with Search(game, params, seed=seed) as s:
        s.set_beliefs(belief)
        s.run(iterations=iterations)
        ranges, values, mask = (np.zeros((2, slots)) for _ in range(3))
        policies, legal = [], []
        for seat in range(2):
            rv = s.root_values(seat)
            ranges[seat], values[seat], mask[seat] = per_slot(game, rv, slots)
            mixed = rv.weights @ rv.policy
            policies.append({int(m): float(p) for m, p in enumerate(mixed) if p > 0})
            legal.append(rv.legal[rv.weights > 0].any(axis=0) if (rv.weights > 0).any()
                         else rv.legal.any(axis=0))
        queries = ()
        if frontier:
            queries = tuple((s.node_belief(n), s.public_state(n)) for n in frontier_nodes(s))
    return SolvedBelief(ranges=ranges, values=values, mask=mask,
                        policies=(policies[0], policies[1]),
                        legal=np.array(legal, dtype=bool), frontier=queries)

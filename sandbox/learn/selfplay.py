"""Self-play positions: one match of a scenario's searches, played in a
worker (a local process or a Dask worker: only a SelfPlayJob and its
result's bytes cross), turned into replay-buffer records.

Per turn, before the joint move is played and from every player's view:
the public features, the ranges of the view's player's search (a
public-state search; zeros for the others), and each searching player's
targets from its own search's root: its value (the root moves' values
weighted by its policy) at its private state's slot, and its policy (the
average strategy of the CFR and regret-matching searches, the visit shares
of the UCB ones). At the end, the game's evaluation of the last state (its
returns, for a finished game) is every record's outcome.

With hidden information a player's search values and plays its own
information state under its own beliefs, so a record from a player's view
holds that player's targets alone; with perfect information every searching
player's targets are in every view's record."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .buffer import Dims, new_records


@dataclass(frozen=True)
class SelfPlayJob:
    key: str
    scenario: dict[str, Any]       # Scenario.model_dump(mode="json")
    seed: int                      # the match seed; also the game's id in the buffer
    max_turns: int | None = None
    targets: str = "search"        # "search": the players' own roots; "solve": query solving
    solver: dict[str, Any] | None = None   # the solver's search settings (targets = "solve")
    solve_iterations: int = 0
    queries: int = 0               # extra positions solved per turn (one random joint action on)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def game_dims(game) -> Dims:
    lay = game.features_layout()
    return Dims(features=lay.size, players=lay.players, slots=lay.slots, moves=lay.moves)


def _ranges(controller, dims: Dims, game) -> np.ndarray | None:
    """Both seats' ranges at the root of a public-state search (slots),
    or None for a search that has none."""
    search = getattr(controller, "search", None)
    if search is None or dims.slots == 0:
        return None
    from ..native import InvalidState
    out = np.zeros((dims.players, dims.slots), dtype=np.float32)
    try:
        for seat in range(dims.players):
            for ident, prob in search.node_ranges(0, seat, belief=False):
                out[seat, game.private_slot(ident)] += prob
    except InvalidState:
        return None
    return out


def _targets(stats) -> tuple[float, np.ndarray] | None:
    """(value, policy over its moves) from a root's move statistics."""
    moves = [m for m in stats if m.move >= 0]
    if not moves:
        return None
    pol = np.array([max(m.policy, 0.0) for m in moves], dtype=np.float64)
    if pol.sum() <= 0:
        pol = np.array([m.visits for m in moves], dtype=np.float64)
    if pol.sum() <= 0:
        return None
    pol /= pol.sum()
    value = float(sum(p * m.mean for p, m in zip(pol, moves)))
    return value, dict(zip((m.move for m in moves), pol))


def play_selfplay(job: SelfPlayJob) -> dict[str, Any]:
    """Plays the match; returns {"key", "seed", "turns", "records" (the
    payloads' bytes), "seconds"}. Runs in a worker."""
    if job.targets == "solve":
        return _play_solved(job)
    from ..config.scenario import scenario_from_dict
    from ..sim.match import Match

    t0 = time.perf_counter()
    scenario = scenario_from_dict(job.scenario, source="self-play game")
    with Match(scenario, seed=job.seed, max_turns=job.max_turns) as m:
        game = m.world.game
        dims = game_dims(game)
        n, hidden = dims.players, dims.slots > 0
        owner = {a: c for c in m.controllers for a in c.agents}
        turns = []
        while not m.over:
            m.start_turn()
            for c in m.controllers:
                c.wait()
            feats = [game.features(view=a).copy() for a in range(n)]
            legal = np.zeros((n, dims.moves), dtype=np.float32)
            for a in range(n):
                legal[a, game.legal_moves(a)] = 1.0
            ranges = [_ranges(owner[a], dims, game) for a in range(n)]
            slot = [game.private_slot(game.private_state(a)) if hidden else 0 for a in range(n)]
            record = m.complete_turn()
            targets: dict[int, tuple[float, dict[int, float]]] = {}
            for pt in record.players:
                for a, stats in pt.root_stats.items():
                    t = _targets(stats)
                    if t is not None:
                        targets[a] = t
            turns.append((record.turn, feats, legal, ranges, slot, targets))
        outcome = np.asarray(game.evaluate(), dtype=np.float32)
    recs = new_records(dims, len(turns) * n)
    i = 0
    for turn, feats, legal, ranges, slot, targets in turns:
        for view in range(n):
            order = [(view + k) % n for k in range(n)]
            r = recs[i]
            i += 1
            r["kind"], r["view"], r["turn"], r["game"] = 0, view, turn, job.seed
            r["features"] = feats[view]
            if ranges[view] is not None:
                r["ranges"] = ranges[view][order]
            r["outcome"] = outcome[order]
            r["legal"] = legal[order]
            for k, a in enumerate(order):
                if a not in targets or (hidden and k != 0):
                    continue
                value, policy = targets[a]
                r["value"][k, slot[a]] = value
                r["value_mask"][k, slot[a]] = 1.0
                for move, p in policy.items():
                    r["policy"][k, move] = p
                r["policy_mask"][k] = 1.0
    return {"key": job.key, "seed": job.seed, "turns": len(turns), "records": recs.tobytes(),
            "seconds": round(time.perf_counter() - t0, 3)}


def _solved_records(dims: Dims, game, solved, kind: int, turn: int, seed: int) -> np.ndarray:
    """One record per view of a solved position (sandbox/learn/solve.py):
    every player's value and policy in view order, no outcome."""
    n = dims.players
    recs = new_records(dims, n)
    legal = np.zeros((n, dims.moves), dtype=np.float32)
    for a in range(n):
        legal[a, game.legal_moves(a)] = 1.0
    for view in range(n):
        order = [(view + k) % n for k in range(n)]
        r = recs[view]
        r["kind"], r["view"], r["turn"], r["game"] = kind, view, turn, seed
        r["features"] = game.features(view=view)
        r["legal"] = legal[order]
        for k, a in enumerate(order):
            r["value"][k, 0] = solved.values[a]
            r["value_mask"][k, 0] = 1.0
            for move, p in solved.policies[a].items():
                r["policy"][k, move] = p
            r["policy_mask"][k] = 1.0
    return recs


# A query position is 1..QUERY_STEPS uniformly random joint actions from
# the position played: one step gives the states a search from there values
# at its first frontier; more cover the deeper, off-line states that
# searches from other positions ask about (self-play alone visits few).
QUERY_STEPS = 3


def _play_solved(job: SelfPlayJob) -> dict[str, Any]:
    """Sound self-play: the match is played by the scenario's searches as
    usual, and each position it reaches, with `queries` more per turn (each
    a short random walk from it, QUERY_STEPS), is solved afresh by GT-CFR at
    `solve_iterations`; the solves' values and average strategies are the
    targets. The solver's seed and the queries' joint actions come from
    (the match seed, the turn, the query), so a game's records are the same
    on any worker."""
    from ..config.scenario import scenario_from_dict
    from ..sim.match import Match
    from .solve import solve_position

    t0 = time.perf_counter()
    scenario = scenario_from_dict(job.scenario, source="self-play game")
    parts: list[np.ndarray] = []
    turns = 0
    with Match(scenario, seed=job.seed, max_turns=job.max_turns) as m:
        game = m.world.game
        dims = game_dims(game)
        while not m.over:
            turn = turns
            rng = np.random.default_rng([job.seed, turn])
            seeds = rng.integers(1, 2**62, size=job.queries + 1)
            positions = [(0, game.clone())]
            for q in range(job.queries):
                child = game.clone()
                for _ in range(int(rng.integers(1, QUERY_STEPS + 1))):
                    if child.is_terminal:
                        break
                    child.step([int(rng.choice(child.legal_moves(a)))
                                for a in range(dims.players)])
                if not child.is_terminal:
                    positions.append((1, child))
            for (kind, pos), sseed in zip(positions, seeds):
                solved = solve_position(pos, job.solver or {}, job.solve_iterations, int(sseed))
                if solved is not None:
                    parts.append(_solved_records(dims, pos, solved, kind, turn, job.seed))
                pos.close()
            m.start_turn()
            for c in m.controllers:
                c.wait()
            m.complete_turn()
            turns += 1
    recs = np.concatenate(parts) if parts else new_records(dims, 0)
    return {"key": job.key, "seed": job.seed, "turns": turns, "records": recs.tobytes(),
            "seconds": round(time.perf_counter() - t0, 3)}

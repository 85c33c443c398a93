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

from ..native import SandboxError
from .buffer import KIND_MAIN, KIND_QUERY, Dims, new_records


@dataclass(frozen=True)
class SelfPlayJob:
    key: str
    scenario: dict[str, Any]       # Scenario.model_dump(mode="json")
    seed: int                      # the match seed; also the game's id in the buffer
    max_turns: int | None = None
    targets: str = "search"        # "search": the players' own roots; "solve": query solving
    solver: dict[str, Any] | None = None   # the solver's search settings (targets = "solve")
    solve_iterations: int = 0
    queries: int = 0               # extra positions solved per turn
    # where the queries come from: "walk", 1..QUERY_STEPS random joint actions
    # from the position played; "tree", the solver's own frontier there
    # (Student of Games), each query's frontier giving recursive queries
    # with probability `recursive`
    query_source: str = "walk"
    recursive: float = 0.0
    # hidden information: the ranges a frontier query carries. "current":
    # those of the strategies a player's search plays at an iteration drawn
    # uniformly from its budget (the ranges it asks a net with, Student of
    # Games); "average": those of its average strategies after the search
    query_ranges: str = "current"

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
        # a pubcfr solver solves public belief states (solve.solver_params)
        over_beliefs = (job.solver or {}).get("algorithm") == "pubcfr"
        return _play_solved_hidden(job) if over_beliefs else _play_solved(job)
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


# A walk query is 1..QUERY_STEPS uniformly random joint actions from the
# position played: one step gives the states a search from there values at
# its first frontier; more cover the deeper, off-line states that searches
# from other positions ask about (self-play alone visits few).
QUERY_STEPS = 3
# Tree queries: at most this many positions solved per turn in all
# (recursive ones included), whatever the draws: a bound on a turn's time.
MAX_SOLVES_PER_TURN = 64


def _walk_queries(game, n: int, rng, players: int) -> list:
    out = []
    for _ in range(n):
        child = game.clone()
        for _ in range(int(rng.integers(1, QUERY_STEPS + 1))):
            if child.is_terminal:
                break
            child.step([int(rng.choice(child.legal_moves(a))) for a in range(players)])
        if child.is_terminal:
            child.close()
        else:
            out.append(child)
    return out


def _frontier_queries(game, leaves, n: int, rng) -> list:
    """Up to n of a solve's frontier states, drawn uniformly without
    replacement from its leaves that are not terminal: the states its
    search asked a value for. A leaf is reached by playing its joint
    actions from `game` (a chance event on the way is drawn by the game)."""
    out = []
    for i in rng.permutation(len(leaves)):
        if len(out) == n:
            break
        child = game.clone()
        for joint in leaves[int(i)]:
            if child.is_terminal:
                break
            child.step(list(joint))
        if child.is_terminal:
            child.close()
        else:
            out.append(child)
    return out


def _belief_records(dims: Dims, game, solved, kind: int, turn: int, seed: int) -> np.ndarray:
    """One record per view of a solved public belief state (solve.py's
    SolvedBelief): every seat's range, values per slot with their mask and
    policy, in view order; no outcome. The features are public, so any
    state of the public one gives them."""
    n = dims.players
    recs = new_records(dims, n)
    for view in range(n):
        order = [(view + k) % n for k in range(n)]
        r = recs[view]
        r["kind"], r["view"], r["turn"], r["game"] = kind, view, turn, seed
        r["features"] = game.features(view=view)
        r["ranges"] = solved.ranges[order]
        r["legal"] = solved.legal[order][:, :dims.moves]
        for k, a in enumerate(order):
            r["value"][k] = solved.values[a]
            r["value_mask"][k] = solved.mask[a]
            for move, p in solved.policies[a].items():
                r["policy"][k, move] = p
            r["policy_mask"][k] = 1.0
    return recs


def _solved_match(job: SelfPlayJob, play_turn) -> dict[str, Any]:
    """Plays a solving job's match: play_turn(m, dims, turn, rng) plays
    one turn (its solves and the move) and returns the turn's records; rng
    is drawn from (the match seed, the turn), so a game's records are the
    same on any worker."""
    from ..config.scenario import scenario_from_dict
    from ..sim.match import Match

    t0 = time.perf_counter()
    scenario = scenario_from_dict(job.scenario, source="self-play game")
    parts: list[np.ndarray] = []
    turns = 0
    with Match(scenario, seed=job.seed, max_turns=job.max_turns) as m:
        dims = game_dims(m.world.game)
        while not m.over:
            parts += play_turn(m, dims, turns, np.random.default_rng([job.seed, turns]))
            turns += 1
    recs = np.concatenate(parts) if parts else new_records(dims, 0)
    return {"key": job.key, "seed": job.seed, "turns": turns, "records": recs.tobytes(),
            "seconds": round(time.perf_counter() - t0, 3)}


def _current_queries(search, root, n: int, rng) -> list:
    """Up to n queries (KIND_QUERY, PublicBelief, Game) as a player's
    search asks its net: a copy of its search (its settings, its net) on
    its root belief state runs t iterations, t drawn uniformly from 1 to
    the player's budget this turn, and n of its frontier nodes are drawn
    uniformly, each with the ranges of the strategies iteration t + 1
    plays there. Those start near uniform and end concentrated, where the
    average strategies' ranges are smooth: a net trained on the latter
    alone misleads a search that asks it under the former. (The copy holds
    the root's ranges fixed, without the player's re-solving gadget.)"""
    from ..native import Search
    from .solve import frontier_nodes
    budget = max(1, search.stats().iterations)
    t = int(rng.integers(1, budget + 1))
    state = search.public_state(0)
    out = []
    try:
        with Search(state, search.params, seed=int(rng.integers(1, 2**62))) as side:
            side.set_beliefs(root)
            side.run(iterations=t)
            front = frontier_nodes(side)
            for i in rng.permutation(len(front))[:n]:
                node = front[int(i)]
                out.append((KIND_QUERY, side.node_belief(node, current=True),
                            side.public_state(node)))
    finally:
        state.close()
    return out


def _play_solved_hidden(job: SelfPlayJob) -> dict[str, Any]:
    """Sound self-play with hidden information: the match is played by
    the scenario's public-state (pubcfr) searches, and each turn, once they
    have searched, each one's root public belief state (the public state
    with both seats' ranges as that search holds them) is solved afresh by
    pubcfr at `solve_iterations` with both ranges fixed, and `queries` more
    drawn from that search's frontier (the public belief states it asks
    the net about: `query_ranges`, _current_queries); each solve adds up to
    `queries` states of its own frontier, each with probability
    `recursive`, at most MAX_SOLVES_PER_TURN solves a turn. The solves'
    per-private-state values and range-mixed average strategies are the
    targets; nothing private reaches a record but through the ranges.
    Seeds and draws come from (the match seed, the turn), so a game's
    records are the same on any worker."""
    from .solve import frontier_nodes, solve_belief

    def play_turn(m, dims: Dims, turn: int, rng) -> list[np.ndarray]:
        parts = []
        m.start_turn()
        for c in m.controllers:
            c.wait()
        queue = []
        for c in m.controllers:
            search = getattr(c, "search", None)
            if search is None or search.params.algorithm != "pubcfr":
                continue
            try:
                root = search.node_belief(0)
                queue.append((KIND_MAIN, root, search.public_state(0)))
                if job.query_ranges == "current":
                    queue += _current_queries(search, root, job.queries, rng)
                    continue
                # the player's own frontier: the belief states it asks a
                # net about (the solver's, unless --solve-depth differs)
                front = frontier_nodes(search)
            except SandboxError:       # a root it could not split: nothing to solve
                continue
            for i in rng.permutation(len(front))[:job.queries]:
                node = front[int(i)]
                queue.append((KIND_QUERY, search.node_belief(node), search.public_state(node)))
        solves = 0
        while queue:
            kind, belief, pos = queue.pop(0)
            solves += 1
            sseed = int(rng.integers(1, 2**62))
            try:
                solved = solve_belief(pos, belief, job.solver or {}, job.solve_iterations,
                                      sseed, dims.slots, frontier=job.recursive > 0)
            except SandboxError:
                # a belief state beyond what pubcfr holds (more than its
                # documented private states a seat): left out, the game goes on
                solved = None
            if solved is not None:
                parts.append(_belief_records(dims, pos, solved, kind, turn, job.seed))
                # a solve's own frontier by chance (recursive queries)
                take = int((rng.random(job.queries) < job.recursive).sum())
                room = max(0, MAX_SOLVES_PER_TURN - solves - len(queue))
                picked = set(rng.permutation(len(solved.frontier))[:min(take, room)].tolist())
                for i, (b, q) in enumerate(solved.frontier):
                    if i in picked:
                        queue.append((KIND_QUERY, b, q))
                    else:
                        q.close()
            pos.close()
        m.complete_turn()
        return parts

    return _solved_match(job, play_turn)


def _play_solved(job: SelfPlayJob) -> dict[str, Any]:
    """Sound self-play: the match is played by the scenario's searches as
    usual, and each position it reaches is solved afresh by GT-CFR at
    `solve_iterations`, with `queries` more per turn; the solves' values and
    average strategies are the targets. Walk queries are short random walks
    from the position (QUERY_STEPS). Tree queries, as in Student of Games,
    are states of the solver's own frontier at the position (the states a
    search from there asks a value for); each of those solves adds up to
    `queries` states of its own frontier, each with probability `recursive`
    (the paper's recursive queries, kept rare so they do not crowd out the
    main line), and so on, at most MAX_SOLVES_PER_TURN solves a turn. The
    solver's seeds and the queries' draws come from (the match seed, the
    turn), so a game's records are the same on any worker."""
    from .solve import solve_position

    def play_turn(m, dims: Dims, turn: int, rng) -> list[np.ndarray]:
        parts = []
        game = m.world.game
        tree = job.query_source == "tree"
        if tree:
            queue = [(KIND_MAIN, game.clone())]
        else:   # the walks are drawn before any solve, as they always were
            seeds = rng.integers(1, 2**62, size=job.queries + 1)
            queue = [(KIND_MAIN, game.clone())] + [
                (KIND_QUERY, q) for q in _walk_queries(game, job.queries, rng, dims.players)]
        solves = 0
        while queue:
            kind, pos = queue.pop(0)
            if tree:
                sseed = int(rng.integers(1, 2**62))
            else:
                sseed = int(seeds[solves])
            solves += 1
            solved = solve_position(pos, job.solver or {}, job.solve_iterations, sseed,
                                    leaves=tree)
            if solved is not None:
                parts.append(_solved_records(dims, pos, solved, kind, turn, job.seed))
                if tree:
                    # the main line's frontier is queried; a query's own
                    # frontier only by chance (recursive queries)
                    take = job.queries if kind == KIND_MAIN else int(
                        (rng.random(job.queries) < job.recursive).sum())
                    room = MAX_SOLVES_PER_TURN - solves - len(queue)
                    for q in _frontier_queries(pos, solved.leaves, min(take, room), rng):
                        queue.append((KIND_QUERY, q))
            pos.close()
        m.start_turn()
        for c in m.controllers:
            c.wait()
        m.complete_turn()
        return parts

    return _solved_match(job, play_turn)

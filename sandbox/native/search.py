"""Search: a C search (Smitsimax or a baseline, params.algorithm) owned by Python.

Threading: one thread drives a search (run, step_traced, advance, inspect);
`set_params` and `stop` may be called from any other thread meanwhile — the
C core applies new parameters from its next iteration.
"""
from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from pydantic import ValidationError

from ._handle import I32, I64, Handle, int_arg, real_arg, seed_arg, show
from ._lib import check, ffi, lib
from .errors import InvalidArgument, one_line
from .game import MOVE_NONE, Game, game_arg, joint_arg
from .net import Net, load_net
from .params import ALGORITHM_NAMES, POLICY_NAMES, SearchParams
from .snapshot import SNAPSHOT_DTYPE, TreeSnapshot

STOP_REASONS = {
    lib.SBX_STOP_NONE: "none",
    lib.SBX_STOP_ITERATIONS: "iterations",
    lib.SBX_STOP_TIME: "time",
    lib.SBX_STOP_NODE_CAP: "node_cap",
    lib.SBX_STOP_TERMINAL: "terminal",
    lib.SBX_STOP_REQUESTED: "requested",
}
PICKS = {
    lib.SBX_PICK_NONE: "none",
    lib.SBX_PICK_RANDOM: "random",
    lib.SBX_PICK_UCB: "ucb",
    lib.SBX_PICK_PASS: "pass",
    lib.SBX_PICK_ROLLOUT: "rollout",
    lib.SBX_PICK_SAMPLE: "sample",
}


@dataclass(frozen=True)
class RunResult:
    iterations: int
    sim_turns: int
    elapsed_ms: float
    stop_reason: str
    nodes_added: int


@dataclass(frozen=True)
class MoveStat:
    move: int          # -1 for a pass node
    visits: int
    mean: float
    prob: float        # share of visits
    policy: float      # the policy's probability (average strategy for Exp3/RM)


@dataclass(frozen=True)
class SearchStats:
    iterations: int
    sim_turns: int
    iterations_root: int
    node_cap: int
    cap_reached: bool
    node_bytes: int
    algorithm: str      # in force (a requested change waits for the next turn)
    policy: str         # in force
    trees: int          # agents (smitsimax), 1 (suct, joint), 0 (random, greedy)
    nodes: tuple[int, ...]
    root_visits: tuple[int, ...]
    max_depth_reached: tuple[int, ...]
    norm_min: tuple[float, ...]
    norm_max: tuple[float, ...]
    transposition_hits: int = 0  # MCGS: edges linked to an existing node
    edge_bytes: int = 0          # MCGS: edge arrays in use (bytes); GT-CFR: statistics pool
    prior_bytes: int = 0         # MCGS: stored priors in use (0 with uniform priors)
    table_bytes: int = 0         # MCGS: transposition table (bytes)
    # the last run's threads (parallel Smitsimax; 0: it ran serially), the
    # iterations each did (leaf: thread 0's selections, the others'
    # rollouts) and the share of their time spent waiting on each other
    run_threads: int = 0
    thread_iterations: tuple[int, ...] = ()
    wait_share: float = 0.0
    update_nodes: int = 0       # GT-CFR: interior nodes its regret updates visited
    net_states: int = 0         # states the value net valued since creation (every thread's)


@dataclass(frozen=True)
class RootMatrix:
    """The root of a two-player search as a joint-action matrix (sbx.h's
    sbx_root_matrix): MCGS's outcome pairs, joint-action MCTS's children, or
    GT-CFR's joint actions (values from its last regret update).
    Rows are player 0's moves, columns player 1's; values absolute (the scale
    of MoveStat.mean); NaN where a cell (or, for joint, a marginal) is
    unvisited. Empty (0 x 0) before the first iteration."""
    moves: tuple[tuple[int, ...], tuple[int, ...]]   # row/column -> move (-1: none)
    visits: np.ndarray                 # [n1, n2] int
    values: np.ndarray                 # [2, n1, n2] float, per player
    marginal_visits: tuple[np.ndarray, np.ndarray]
    marginal_values: tuple[np.ndarray, np.ndarray]
    priors: tuple[np.ndarray, np.ndarray]
    root_visits: int
    root_values: tuple[float, float]

    @property
    def shape(self) -> tuple[int, int]:
        return self.visits.shape  # type: ignore[return-value]

    def policies(self) -> tuple[np.ndarray, np.ndarray]:
        """Each player's marginal visit distribution (the final policy)."""
        return tuple(v / v.sum() if v.sum() else np.zeros(len(v)) for v in self.marginal_visits)  # type: ignore[return-value]


@dataclass(frozen=True, eq=False)
class PublicBelief:
    """A public belief state of a public-state search (Search.node_belief,
    Search.set_beliefs): per seat its information states' private state ids
    and range weights (each seat's normalised), and the histories as pairs
    of indices into the two seats' lists ([h, 0] into seat 0's)."""
    ids: tuple[np.ndarray, np.ndarray]       # uint32 per seat
    weights: tuple[np.ndarray, np.ndarray]   # float64 per seat
    pairs: np.ndarray                        # uint32 [histories, 2]


@dataclass(frozen=True, eq=False)
class RootValues:
    """A seat's root information states after a public-state search's run
    (Search.root_values), in the order the root holds them: private state
    id, range weight, the opponent's range mass over its histories, its
    value (the seat's expected value holding it, both seats playing their
    average strategies; the seat's side of player 0's zero-sum scale) and
    its average strategy over move ids and its legal moves ([n, moves]
    each)."""
    ids: np.ndarray
    weights: np.ndarray
    opponent_mass: np.ndarray
    values: np.ndarray
    policy: np.ndarray
    legal: np.ndarray


@dataclass(frozen=True)
class PublicNode:
    """One public state of a public-state search's tree (Search.public_nodes).
    reach: its probability under both seats' root ranges and average
    strategies (the root's is 1)."""
    index: int
    parent: int          # -1: the root
    depth: int           # rounds below the root
    histories: int       # pairs of information states held there
    expanded: bool       # its histories have their children
    reach: float


@dataclass(frozen=True)
class SearchSummary:
    """What a controller publishes between slices (one C call)."""
    stats: SearchStats
    best_moves: tuple[int | None, ...]
    root_stats: tuple[tuple[MoveStat, ...], ...]   # per agent


@dataclass(frozen=True)
class Trace:
    """One traced iteration (see sbx_trace in sbx.h)."""
    stop_reason: str
    depth: int
    terminal: bool
    sim_seed: int
    paths: tuple[tuple[int, ...], ...]    # per agent: node ids from the root
    moves: np.ndarray                     # [agents, depth], -1 = no action
    picks: tuple[tuple[str, ...], ...]    # per agent, per depth
    expanded: np.ndarray                  # [agents, depth] bool
    alive_after: np.ndarray               # [agents, depth] bool
    scores: np.ndarray                    # per agent, the backed-up leaf score
    norm_min: np.ndarray
    norm_max: np.ndarray
    # the regret-update phase before the simulation (GT-CFR); None: the
    # algorithm has none
    update: UpdatePhase | None = None
    # the simulation ended refining a frontier leaf (GT-CFR, expand_after > 1)
    refine: LeafRefine | None = None


@dataclass(frozen=True)
class LeafRefine:
    """A GT-CFR simulation that ended on a frontier leaf short of
    expand_after visits (this was visit `visits`): the leaf took one more
    value (`value`, player 0's) instead of expanding; its mean of `samples`
    values is now `mean`, and the simulation that makes it visit
    expand_after expands it."""
    visits: int
    samples: int
    expand_after: int
    value: float
    mean: float


@dataclass(frozen=True)
class UpdatePhase:
    """What a traced iteration's regret-update phase did (sbx_trace's
    update fields): `sweeps` CFR+ passes (0 when the 1/c credit did not
    reach one) visiting `nodes` interior nodes, and per player the root's
    moves and its current (regret matching+) and average strategies just
    before and just after the sweeps."""
    sweeps: int
    nodes: int
    moves: tuple[tuple[int, ...], ...]
    current_before: tuple[tuple[float, ...], ...]
    current_after: tuple[tuple[float, ...], ...]
    average_before: tuple[tuple[float, ...], ...]
    average_after: tuple[tuple[float, ...], ...]


def _update_phase(t: Any) -> UpdatePhase | None:
    if not t.has_update:
        return None
    ks = [int(t.update_k[p]) for p in range(2)]

    def rows(arr: Any) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(float(arr[p][i]) for i in range(ks[p])) for p in range(2))
    return UpdatePhase(
        sweeps=int(t.update_sweeps), nodes=int(t.update_nodes),
        moves=tuple(tuple(int(t.update_moves[p][i]) for i in range(ks[p])) for p in range(2)),
        current_before=rows(t.current_before), current_after=rows(t.current_after),
        average_before=rows(t.average_before), average_after=rows(t.average_after))


def _move_stat(r: Any) -> MoveStat:
    return MoveStat(int(r.move), int(r.visits), float(r.mean), float(r.prob), float(r.policy))


def params_arg(params: Any, base: SearchParams | None = None,
               changes: Mapping[str, Any] | None = None) -> SearchParams:
    """SearchParams from what a caller handed over (SearchParams, a mapping of
    its fields, None for the defaults), or `base` with `changes`. A bad value
    is InvalidArgument naming the field, like every other bad argument here,
    not pydantic's multi-line ValidationError."""
    try:
        if base is not None:
            return base.replace(**dict(changes or {}))
        if params is not None and not isinstance(params, (SearchParams, Mapping)):
            raise InvalidArgument(f"params: expected SearchParams or a mapping of its fields "
                                  f"(got {show(params)})")
        return SearchParams.coerce(params)
    except ValidationError as exc:
        raise InvalidArgument(f"params: {one_line(exc)}") from None


class Search:
    def __init__(self, game: Game, params: SearchParams | Mapping[str, Any] | None = None,
                 seed: int = 0) -> None:
        game_arg("game", game)
        seed = seed_arg("seed", seed)
        self._params = params_arg(params)
        self.num_agents = game.num_agents
        self.kind = game.kind
        self.game_params = game.params
        out = ffi.new("sbx_search **")
        with game._h.lock:
            check(lib.sbx_search_new(game._ptr(), self._params.to_c(), seed, out))
        self._h = Handle(out[0], lib.sbx_search_free, "search")
        # every net this search was given, kept alive while it may use one
        # (C applies a change at its next iteration, on the driving thread)
        self._nets: dict[str, Net] = {}
        self._net: Net | None = None
        try:
            self._attach_net(self._params.value_net)
        except Exception:
            self.close()
            raise
        self._result = ffi.new("sbx_run_result *")
        self._joint = ffi.new("int32_t[]", self.num_agents)
        self._stats = ffi.new("sbx_search_stats *")
        self._moves = ffi.new("sbx_move_stat[]", lib.SBX_MAX_MOVES + 1)
        self._summary = ffi.new("sbx_search_summary *")

    # -- lifetime -------------------------------------------------------------
    def close(self) -> None:
        """Free the trees now. A run in progress on another thread is asked to
        stop and is waited for."""
        self._h.close(stop=lib.sbx_search_stop)

    @property
    def closed(self) -> bool:
        return self._h.closed

    def __enter__(self) -> "Search":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- parameters (any thread) ----------------------------------------------
    @property
    def params(self) -> SearchParams:
        """The parameters most recently set (applied from the next iteration)."""
        return self._params

    def set_params(self, params: SearchParams | Mapping[str, Any]) -> None:
        new = params_arg(params)
        c = new.to_c()
        old_net = self._params.value_net
        if new.value_net != old_net:
            self._attach_net(new.value_net)
        try:
            with self._h.guard:
                check(lib.sbx_search_set_params(self._h.get(), c))
        except Exception:
            if new.value_net != old_net:
                self._attach_net(old_net)
            raise
        self._params = new

    def _attach_net(self, path: str) -> None:
        """The value net of file `path` ("" none) for this search, from its
        next iteration; InvalidArgument when the file cannot be read or was
        trained for another game or other parameters."""
        net = None
        if path:
            net = self._nets.get(path)
            if net is None or net.closed:
                net = load_net(path)
        with self._h.guard, (net._h.lock if net is not None else nullcontext()):
            check(lib.sbx_search_set_net(self._h.get(),
                                         net._h.get() if net is not None else ffi.NULL))
        if net is not None:
            self._nets[path] = net
        self._net = net

    @property
    def net(self) -> Net | None:
        """The value net this search was last given (None: none)."""
        return self._net

    def check_params(self, params: SearchParams | Mapping[str, Any]) -> SearchParams:
        """The checks set_params makes (ranges, and what depends on this
        search's game: node_cap against the algorithm's worst iteration,
        joint-action MCTS's branching, SUCT's lead), without setting
        anything: InvalidArgument naming what C refuses. Any thread."""
        new = params_arg(params)
        c = new.to_c()
        with self._h.guard:
            check(lib.sbx_search_check_params(self._h.get(), c))
        if new.value_net:
            load_net(new.value_net).check_game(self.root_game())
        return new

    def update_params(self, **changes: Any) -> SearchParams:
        new = params_arg(None, base=self._params, changes=changes)
        self.set_params(new)
        return new

    def stop(self) -> None:
        """Ask a run in progress (on another thread) to return soon."""
        with self._h.guard:
            if not self._h.closed:
                lib.sbx_search_stop(self._h.get())

    def c_params(self) -> SearchParams:
        """The parameters as the C core holds them (pending ones applied)."""
        p = ffi.new("sbx_search_params *")
        with self._h.lock:
            check(lib.sbx_search_get_params(self._h.get(), p))
        return SearchParams.from_c(p, value_net=self._params.value_net)

    # -- running --------------------------------------------------------------
    def run(self, iterations: int | None = None, ms: float | None = None) -> RunResult:
        """Search until the iteration and/or time budget is used (at least one
        must be given). Releases the GIL while C runs."""
        it = 0 if iterations is None else int_arg("iterations", iterations, -I64[1], I64[1],
                                                           span="0..2^63-1")
        t = 0.0
        if ms is not None:
            if isinstance(ms, float) and not math.isfinite(ms):
                raise InvalidArgument(f"ms: the budget must be a finite number >= 0 (got {ms})")
            t = real_arg("ms", ms)
        if it < 0 or t < 0:
            raise InvalidArgument(f"budgets must be >= 0 (iterations {it}, ms {t:g})")
        if it == 0 and t == 0.0:
            raise InvalidArgument("give iterations=, ms=, or both")
        r = self._result
        with self._h.lock:
            check(lib.sbx_search_run(self._h.get_unless_closing(), it, t, r))
            return RunResult(int(r.iterations), int(r.sim_turns), float(r.elapsed_ms),
                             STOP_REASONS.get(r.stop_reason, "?"), int(r.nodes_added))

    def step_traced(self) -> Trace:
        t = ffi.new("sbx_trace *")
        with self._h.lock:
            check(lib.sbx_search_step_traced(self._h.get(), t))
        n, d = self.num_agents, t.depth
        moves = np.array([[t.moves[a][k] for k in range(d)] for a in range(n)], dtype=np.int32)
        return Trace(
            stop_reason=STOP_REASONS.get(t.stop_reason, "?"),
            depth=d,
            terminal=bool(t.terminal),
            sim_seed=int(t.sim_seed),
            paths=self._paths(t, n),
            moves=moves.reshape(n, d),
            picks=tuple(tuple(PICKS.get(t.pick[a][k], "?") for k in range(d)) for a in range(n)),
            expanded=np.array([[bool(t.expanded[a][k]) for k in range(d)] for a in range(n)],
                              dtype=bool).reshape(n, d),
            alive_after=np.array([[bool(t.alive_after[a][k]) for k in range(d)]
                                  for a in range(n)], dtype=bool).reshape(n, d),
            scores=np.array([t.score[a] for a in range(n)]),
            norm_min=np.array([t.norm_min[a] for a in range(n)]),
            norm_max=np.array([t.norm_max[a] for a in range(n)]),
            update=_update_phase(t),
            refine=(LeafRefine(int(t.leaf_visits), int(t.leaf_samples), int(t.expand_after), float(t.leaf_value),
                               float(t.leaf_mean)) if t.refined else None),
        )

    @staticmethod
    def _paths(t: Any, n: int) -> tuple[tuple[int, ...], ...]:
        # SUCT's one path has a node per agent per turn: it may run on past
        # path[0] into the next rows (sbx_trace: path_len[0] says how far)
        flat = ffi.cast("int32_t *", t.path)
        row = lib.SBX_MAX_DEPTH + 1
        return tuple(tuple(flat[a * row:a * row + t.path_len[a]]) for a in range(n))

    def _fill_joint(self, joint: Sequence[int | None]) -> None:
        joint_arg(joint, self.num_agents)
        for i, m in enumerate(joint):
            if m is not None:
                m = int_arg(f"agent {i}: move", m, *I32)
            # None or a negative move: the agent had none (it is out)
            self._joint[i] = MOVE_NONE if m is None or m < 0 else m

    def _same_game(self, name: str, game: Any) -> Game:
        game_arg(name, game)
        if game.kind != self.kind:
            raise InvalidArgument(f"{name}: a different game ({game.kind}; this search plays "
                                  f"{self.kind})")
        if game.params != self.game_params:
            raise InvalidArgument(f"{name}: a different game ({game.kind} with other "
                                  f"parameters than this search's)")
        return game

    def advance(self, joint: Sequence[int | None], new_root: Game | None = None) -> None:
        """The real game played `joint`: keep each tree's matching subtree
        (tree reuse) and move the root to `new_root`'s state (or, without it,
        step the old root with the search's own chance seed)."""
        with self._h.lock:
            self._fill_joint(joint)
            if new_root is None:
                check(lib.sbx_search_advance(self._h.get(), self._joint, ffi.NULL))
            else:
                self._same_game("new_root", new_root)
                with new_root._h.lock:
                    check(lib.sbx_search_advance(self._h.get(), self._joint, new_root._ptr()))

    def reset(self, root: Game) -> None:
        game_arg("root", root)
        with self._h.lock, root._h.lock:
            ptr, root_ptr = self._h.get(), root._ptr()   # closed: ClosedError comes first
            self._same_game("root", root)
            check(lib.sbx_search_reset(ptr, root_ptr))

    def set_game(self, like: Game) -> None:
        """Take `like`'s parameters from the next iteration (the same game
        with other evaluation weights; trees kept). C refuses a game whose
        state layout differs, or where the root state would not carry over
        (a maze's layout, a pods map). Between runs only."""
        game_arg("like", like)
        if like.kind != self.kind:
            raise InvalidArgument(f"like: a different game ({like.kind}; this search plays "
                                  f"{self.kind})")
        with self._h.lock, like._h.lock:
            check(lib.sbx_search_set_game(self._h.get(), like._ptr()))
            self.game_params = like.params

    def root_game(self) -> Game:
        """A new Game holding a copy of the search's root state."""
        g = Game(self.kind, self.game_params, seed=0)
        with self._h.lock, g._h.lock:
            check(lib.sbx_search_root_state(self._h.get(), g._ptr()))
        return g

    # -- inspecting -----------------------------------------------------------
    def best_moves(self) -> list[int | None]:
        """Most-visited root move per agent (None for an agent without moves)."""
        out = ffi.new("int32_t[]", self.num_agents)
        with self._h.lock:
            check(lib.sbx_search_best_moves(self._h.get(), out))
        return [None if m == MOVE_NONE else int(m) for m in out]

    def root_stats(self, agent: int) -> list[MoveStat]:
        n = ffi.new("int *")
        ms = self._moves
        with self._h.lock:
            check(lib.sbx_search_root_stats(self._h.get(),
                                            int_arg("agent", agent, 0, self.num_agents - 1), ms,
                                            len(ms), n))
            return [_move_stat(ms[i]) for i in range(n[0])]

    def stats(self) -> SearchStats:
        s = self._stats
        with self._h.lock:
            check(lib.sbx_search_stats_get(self._h.get(), s))
            return self._stats_from(s)

    def _stats_from(self, s: Any) -> SearchStats:
        k = self.num_agents
        return SearchStats(
            iterations=int(s.iterations), sim_turns=int(s.sim_turns),
            iterations_root=int(s.iterations_root), node_cap=int(s.node_cap),
            cap_reached=bool(s.cap_reached), node_bytes=int(s.node_bytes),
            algorithm=ALGORITHM_NAMES.get(int(s.algorithm), "?"),
            policy=POLICY_NAMES.get(int(s.policy), "?"), trees=int(s.trees),
            nodes=tuple(s.nodes[0:k]), root_visits=tuple(s.root_visits[0:k]),
            max_depth_reached=tuple(s.max_depth_reached[0:k]),
            norm_min=tuple(s.norm_min[0:k]), norm_max=tuple(s.norm_max[0:k]),
            transposition_hits=int(s.transposition_hits),
            edge_bytes=int(s.edge_bytes), prior_bytes=int(s.prior_bytes),
            table_bytes=int(s.table_bytes), run_threads=int(s.run_threads),
            thread_iterations=tuple(int(v) for v in s.run_thread_iterations[0:s.run_threads]),
            wait_share=(float(s.run_wait_ms) / float(s.run_busy_ms)
                        if s.run_busy_ms > 0 else 0.0),
            update_nodes=int(s.update_nodes), net_states=int(s.net_states))

    def ranges(self, seat: int) -> tuple[tuple[int, float], ...]:
        """pubcfr: the root's range of `seat` -- each private state the seat
        may hold (the game's id: goofspiel's hand mask, bit c-1 for card c)
        with its probability: on a fresh search the searching seat's own range
        is the hand it holds, and after re-solving between turns it is the
        range its play so far implies (what the opponent may believe); one
        entry per way of reaching a state, so an id may repeat. InvalidState
        for other searches."""
        seat = int_arg("seat", seat, 0, self.num_agents - 1)
        cap = 4096
        ids, probs, n = ffi.new("uint32_t[]", cap), ffi.new("double[]", cap), ffi.new("int *")
        with self._h.lock:
            check(lib.sbx_search_debug_pubcfr_range(self._h.get(), seat, ids, probs, cap, n))
        return tuple((int(ids[i]), float(probs[i])) for i in range(min(n[0], cap)))

    def public_nodes(self) -> tuple[PublicNode, ...]:
        """pubcfr: its public tree's nodes in the order they were made (the
        root first, a parent before its children), each with its probability
        under both seats' ranges and average strategies. InvalidState for
        other searches, or a pubcfr search without a tree."""
        n = ffi.new("int *")
        with self._h.lock:
            cap = 256      # most trees fit; a bigger one is asked again at its size
            while True:
                bufs = [ffi.new("int32_t[]", max(cap, 1)) for _ in range(4)]
                reach = ffi.new("double[]", max(cap, 1))
                check(lib.sbx_search_pubcfr_nodes(self._h.get(), *bufs, reach, cap, n))
                if n[0] <= cap:
                    break
                cap = n[0]
        parent, depth, hists, expanded = bufs
        return tuple(PublicNode(i, int(parent[i]), int(depth[i]), int(hists[i]),
                                bool(expanded[i]), float(reach[i])) for i in range(n[0]))

    def node_ranges(self, node: int, seat: int, belief: bool = True
                    ) -> tuple[tuple[int, float], ...]:
        """pubcfr: what `seat` may hold at public node `node` (an index of
        Search.public_nodes): each private state id (goofspiel: the hand mask)
        with its probability, ids ascending, one entry per id.

        belief=True: the posterior given the public state, both seats playing
        their average strategies from their root ranges: an information state
        weighs the sum over its histories there of both seats' reaches, so the
        public record counts ("seat 0 won the prize" makes its high bids
        likelier). belief=False: the range CFR carries, the seat's own reach
        alone (its root range times its own average probabilities of the
        moves on the way). At the root, with every pair of root information
        states a history, both are Search.ranges(seat) with an id's entries
        summed and normalised."""
        node = int_arg("node", node, 0, 1 << 30)
        seat = int_arg("seat", seat, 0, self.num_agents - 1)
        if not isinstance(belief, (bool, np.bool_)):
            raise InvalidArgument(f"belief: expected True or False (got {belief!r})")
        n = ffi.new("int *")
        with self._h.lock:
            cap = 4096     # goofspiel-13's hands fit (at most 1,716)
            while True:
                ids, probs = ffi.new("uint32_t[]", max(cap, 1)), ffi.new("double[]", max(cap, 1))
                check(lib.sbx_search_pubcfr_node_range(self._h.get(), node, seat, int(belief),
                                                       ids, probs, cap, n))
                if n[0] <= cap:
                    break
                cap = n[0]
        return tuple((int(ids[i]), float(probs[i])) for i in range(n[0]))

    def node_belief(self, node: int, current: bool = False) -> PublicBelief:
        """pubcfr: public node `node`'s belief state under both seats'
        average strategies: each seat's information states there with its
        own reach as weight (normalised; uniform where the strategies never
        reach the node) and the histories that pair them. `current`: under
        the strategies the next iteration plays instead (regret matching of
        the regrets so far): the ranges a value net is asked with inside
        the search at this point. With Search.public_state(node) it is a
        query to solve afresh (set_beliefs)."""
        node = int_arg("node", node, 0, 1 << 30)
        if not isinstance(current, bool):
            raise InvalidArgument(f"current: expected a bool (got {type(current).__name__})")
        n, nh = ffi.new("int[2]"), ffi.new("int *")
        with self._h.lock:
            cap, pcap = 4096, 1 << 16
            while True:
                ids, w = ffi.new("uint32_t[]", cap), ffi.new("double[]", cap)
                pairs = ffi.new("uint32_t[]", 2 * pcap)
                check(lib.sbx_search_pubcfr_node_pbs(self._h.get(), node, int(current), ids, w,
                                                     cap, pairs, pcap, n, nh))
                if n[0] + n[1] <= cap and nh[0] <= pcap:
                    break
                cap, pcap = max(cap, n[0] + n[1]), max(pcap, nh[0])
        n0, n1 = int(n[0]), int(n[1])
        all_ids = np.frombuffer(ffi.buffer(ids, 4 * (n0 + n1)), dtype=np.uint32).copy()
        all_w = np.frombuffer(ffi.buffer(w, 8 * (n0 + n1)), dtype=np.float64).copy()
        pr = np.frombuffer(ffi.buffer(pairs, 8 * nh[0]), dtype=np.uint32).reshape(-1, 2).copy()
        return PublicBelief(ids=(all_ids[:n0], all_ids[n0:]), weights=(all_w[:n0], all_w[n0:]),
                            pairs=pr)

    def set_beliefs(self, belief: PublicBelief) -> None:
        """pubcfr: start afresh on `belief` at the root (its public part is
        the search's root: reset to the query's state first), both ranges
        held fixed and no re-solving gadget, as Student of Games solves a
        query. Settings that rebuild the tree (node_cap, max_depth,
        grow_tree, info_seat) must be set before; an advance or reset
        leaves the beliefs. InvalidArgument for a belief the game cannot
        hold there (the search is then back on its usual root)."""
        if not isinstance(belief, PublicBelief):
            raise InvalidArgument(f"belief: expected a PublicBelief (got {type(belief).__name__})")
        ids = np.concatenate([np.asarray(belief.ids[0], dtype=np.uint32),
                              np.asarray(belief.ids[1], dtype=np.uint32)])
        w = np.concatenate([np.asarray(belief.weights[0], dtype=np.float64),
                            np.asarray(belief.weights[1], dtype=np.float64)])
        pairs = np.ascontiguousarray(np.asarray(belief.pairs, dtype=np.uint32).reshape(-1))
        n0, n1 = len(belief.ids[0]), len(belief.ids[1])
        if len(belief.weights[0]) != n0 or len(belief.weights[1]) != n1:
            raise InvalidArgument("belief: each seat needs one weight per private state")
        if len(ids) == 0 or len(pairs) == 0:
            raise InvalidArgument("belief: no private states or no histories")
        n = ffi.new("int[2]", [n0, n1])
        with self._h.lock:
            check(lib.sbx_search_pubcfr_set_beliefs(
                self._h.get(), ffi.from_buffer("uint32_t[]", ids),
                ffi.from_buffer("double[]", w), n, ffi.from_buffer("uint32_t[]", pairs),
                len(pairs) // 2))

    def root_values(self, seat: int) -> RootValues:
        """pubcfr, after a run: seat's root information states with their
        values under both seats' average strategies and their average
        strategies (RootValues): the per-private-state targets of query
        solving."""
        seat = int_arg("seat", seat, 0, self.num_agents - 1)
        n = ffi.new("int *")
        with self._h.lock:
            cap = 4096
            while True:
                ids, legal = ffi.new("uint32_t[]", cap), ffi.new("uint32_t[]", cap)
                bufs = [ffi.new("double[]", cap) for _ in range(3)]
                pol = ffi.new("double[]", cap * lib.SBX_MAX_MOVES)
                check(lib.sbx_search_pubcfr_root_values(self._h.get(), seat, ids, *bufs, pol,
                                                        legal, cap, n))
                if n[0] <= cap:
                    break
                cap = n[0]
        k = int(n[0])
        arr = [np.frombuffer(ffi.buffer(b, 8 * k), dtype=np.float64).copy() for b in bufs]
        return RootValues(
            ids=np.frombuffer(ffi.buffer(ids, 4 * k), dtype=np.uint32).copy(),
            weights=arr[0], opponent_mass=arr[1], values=arr[2],
            legal=(np.frombuffer(ffi.buffer(legal, 4 * k), dtype=np.uint32)[:, None]
                   >> np.arange(lib.SBX_MAX_MOVES, dtype=np.uint32) & 1).astype(bool),
            policy=np.frombuffer(ffi.buffer(pol, 8 * k * lib.SBX_MAX_MOVES),
                                 dtype=np.float64).reshape(k, lib.SBX_MAX_MOVES).copy())

    def public_state(self, node: int) -> Game:
        """pubcfr: a new Game holding public node `node`'s state. Its public
        part is the node's; its private part (goofspiel: the hands) is one of
        the node's histories, whichever: read only what is public."""
        node = int_arg("node", node, 0, 1 << 30)
        g = Game(self.kind, self.game_params, seed=0)
        with self._h.lock, g._h.lock:
            check(lib.sbx_search_pubcfr_node_state(self._h.get(), node, g._ptr()))
        return g

    def root_matrix(self) -> RootMatrix:
        """The root's joint-action matrix (MCGS, GT-CFR, or joint with two
        agents); InvalidState for the other searches."""
        m = ffi.new("sbx_root_matrix *")
        with self._h.lock:
            check(lib.sbx_search_root_matrix(self._h.get(), m))
        n1, n2 = int(m.n[0]), int(m.n[1])
        cells = n1 * n2
        visits = np.frombuffer(ffi.buffer(m.cell_visits), dtype=np.int32)[:cells].reshape(n1, n2).copy()
        values = np.stack([np.frombuffer(ffi.buffer(m.cell_value[a]), dtype=np.float32)[:cells]
                           .reshape(n1, n2).astype(np.float64) for a in range(2)])
        ns = (n1, n2)
        return RootMatrix(
            moves=tuple(tuple(-1 if m.act[a][i] == MOVE_NONE else int(m.act[a][i])
                              for i in range(ns[a])) for a in range(2)),  # type: ignore[arg-type]
            visits=visits, values=values,
            marginal_visits=tuple(np.array(list(m.marginal_visits[a][0:ns[a]]), dtype=np.int64)
                                  for a in range(2)),  # type: ignore[arg-type]
            marginal_values=tuple(np.array(list(m.marginal_value[a][0:ns[a]]), dtype=np.float64)
                                  for a in range(2)),  # type: ignore[arg-type]
            priors=tuple(np.array(list(m.prior[a][0:ns[a]]), dtype=np.float64)
                         for a in range(2)),  # type: ignore[arg-type]
            root_visits=int(m.visits), root_values=(float(m.value[0]), float(m.value[1])))

    def summary(self) -> SearchSummary:
        """stats(), best_moves() and every agent's root_stats() in one C call
        (one GIL round trip: what a controller publishes every slice)."""
        u = self._summary
        with self._h.lock:
            check(lib.sbx_search_summary_get(self._h.get(), u))
            k = self.num_agents
            return SearchSummary(
                stats=self._stats_from(u.stats),
                best_moves=tuple(None if m == MOVE_NONE else int(m) for m in u.best_moves[0:k]),
                root_stats=tuple(
                    tuple(_move_stat(r) for r in u.root[a][0:u.root_counts[a]])
                    for a in range(k)))

    def snapshot(self, agent: int, max_nodes: int = 4000, min_visits: int = 1,
                 out: np.ndarray | None = None, top: Any = None) -> TreeSnapshot:
        """The top of `agent`'s tree (at most max_nodes most-visited nodes).
        `out` may be a reusable SNAPSHOT_DTYPE array of >= max_nodes rows; the
        returned snapshot then views it. `top`: the top of a subtree instead,
        under a node id (an int from a snapshot row, valid until the next
        advance) or a move path (a list of steps as find_path takes); its
        row 0 is that node (parent -1, prob 1, no move)."""
        agent = int_arg("agent", agent, 0, self.num_agents - 1)
        max_nodes = int_arg("max_nodes", max_nodes, 1, 2**31 - 1)
        min_visits = int_arg("min_visits", min_visits, 0, 2**31 - 1)
        node, path = 0, None
        if isinstance(top, (list, tuple)):
            path = self._path_arg(top)
        elif top is not None:
            node = int_arg("top", top, 0, 2**31 - 1)
        if out is None:
            # never more rows than the tree has (the C core trims to that too)
            max_nodes = max(1, min(max_nodes, self.stats().nodes[agent]))
            out = np.zeros(max_nodes, dtype=SNAPSHOT_DTYPE)
        elif not isinstance(out, np.ndarray) or out.dtype != SNAPSHOT_DTYPE or len(out) < max_nodes or not out.flags.c_contiguous:
            raise InvalidArgument("out must be a contiguous SNAPSHOT_DTYPE array of >= max_nodes rows")
        n = ffi.new("int *")
        s = self._stats
        with self._h.lock:   # a path's node is looked up in the same tree
            if path is not None:
                node = self._find(agent, *path)
            check(lib.sbx_search_snapshot_at(
                self._h.get(), int(agent), int(node), int(max_nodes), int(min_visits),
                ffi.from_buffer("sbx_snapshot_node[]", out, require_writable=True), n))
            check(lib.sbx_search_stats_get(self._h.get(), s))
            rows = out[: n[0]]
            links, link_joints = self._links(rows)
            rows.flags.writeable = False
            return TreeSnapshot(agent=int(agent), rows=rows, norm_min=float(s.norm_min[agent]),
                                norm_max=float(s.norm_max[agent]), tree_nodes=int(s.nodes[agent]),
                                links=links, link_joints=link_joints,
                                top_path=(tuple(tuple(st) if isinstance(st, (list, tuple))
                                                else int(st) for st in top)
                                          if path is not None else () if node == 0 else None))

    def find_path(self, agent: int, path: Sequence[Any]) -> int:
        """The id of the node reached from the root of `agent`'s tree by a
        move path: one move per step (Smitsimax: the agent's; SUCT: the
        mover's at that level; MOVE_NONE = a pass node), or for joint-action
        searches (joint, mcgs) one (move, move, ...) tuple per step, every
        agent's. 0 for an empty path; InvalidArgument naming the first step
        that leads nowhere."""
        agent = int_arg("agent", agent, 0, self.num_agents - 1)
        buf, steps, stride = self._path_arg(path)
        with self._h.lock:
            return self._find(agent, buf, steps, stride)

    @staticmethod
    def _path_arg(path: Any) -> tuple[Any, int, int]:
        """A move path packed for C: (uint8 buffer, steps, bytes per step)."""
        if not isinstance(path, (list, tuple)):
            raise InvalidArgument(f"path: expected a list of moves (got {show(path)})")
        rows = [list(st) if isinstance(st, (list, tuple)) else [st] for st in path]
        stride = max((len(r) for r in rows), default=1)
        if stride == 0:
            raise InvalidArgument("path: a step has no moves")
        flat = []
        for k, r in enumerate(rows):
            flat += [int_arg(f"path step {k + 1}", m, 0, 255) for m in r]
            flat += [MOVE_NONE] * (stride - len(r))
        return ffi.new("uint8_t[]", flat or [0]), len(rows), stride

    def _find(self, agent: int, buf: Any, steps: int, stride: int) -> int:
        node = ffi.new("int32_t *")
        check(lib.sbx_search_find_path(self._h.get(), int(agent), buf, steps, stride, node))
        return int(node[0])

    def _links(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The graph's other parent links among fresh snapshot rows and
        their joint actions (under the lock, so they describe the same
        graph); empty for trees."""
        cap = 8 * len(rows) + 16   # a view's worth; C drops the rest
        pairs = np.zeros((cap, 2), dtype=np.int32)
        joints = np.zeros((cap, 2), dtype=np.uint8)
        n = ffi.new("int *")
        check(lib.sbx_search_snapshot_links(
            self._h.get(), ffi.from_buffer("sbx_snapshot_node[]", rows), len(rows),
            ffi.from_buffer("int32_t[]", pairs, require_writable=True),
            ffi.from_buffer("uint8_t[]", joints, require_writable=True), cap, n))
        return pairs[: n[0]].copy(), joints[: n[0]].copy()

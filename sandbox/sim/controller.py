"""Controllers: who decides each player's moves.

A SearchController owns one C Search and runs it on its own worker thread in
slices (a few ms, or a few thousand iterations, each). Between slices it
  - applies settings changed from any thread (hot-swap at slice boundaries),
  - publishes an immutable ControllerSnapshot (root stats, counters and, when
    a view asked for them, tree snapshots) that UI code reads at frame rate.
The C trees are only ever touched by the worker thread while it thinks, and
by the match thread between turns (finish), never by both at once.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..config import Budget
from ..native import (SNAPSHOT_DTYPE, FreeMove, Game, InvalidArgument, InvalidState, MoveStat,
                      RootMatrix, Search, SearchParams, Trace, TreeSnapshot, has_bot)
from ..native.search import params_arg
from ..settings.algorithms import has_root_matrix
from ..settings.seat import params_for_seat, player_game, weight_value, weighted_params


@dataclass(frozen=True)
class TreeRequest:
    """What a tree view wants published, and how often."""
    max_nodes: int = 4000
    min_visits: int = 1
    every_ms: float = 50.0
    agents: tuple[int, ...] | None = None   # None: every agent's tree
    # The tree explorer's focus: (agent, move path) pairs; that agent's
    # snapshot is then the top of the subtree at the path (Search.snapshot's
    # `top`), the root's again once the path leads nowhere (after a move).
    tops: tuple[tuple[int, tuple], ...] = ()


@dataclass(frozen=True)
class SettingsChange:
    turn: int
    player: int
    changes: dict[str, tuple[Any, Any]]     # field -> (old, new)
    iteration: int                          # iterations into the turn when applied


def coalesce_changes(changes: Sequence[SettingsChange]) -> list[SettingsChange]:
    out: list[SettingsChange] = []
    for ch in changes:
        last = out[-1] if out else None
        if last is None or last.turn != ch.turn:
            out.append(ch)
            continue
        merged = dict(last.changes)
        for k, (old, new) in ch.changes.items():
            merged[k] = (merged[k][0], new) if k in merged else (old, new)
        out[-1] = SettingsChange(last.turn, last.player, merged, last.iteration)
    out = [SettingsChange(c.turn, c.player, {k: v for k, v in c.changes.items() if v[0] != v[1]},
                          c.iteration) for c in out]
    return [c for c in out if c.changes]


@dataclass(frozen=True)
class ControllerSnapshot:
    player: int
    agents: tuple[int, ...]
    turn: int
    thinking: bool
    iterations: int             # this turn
    sim_turns: int              # this turn
    search_ms: float            # time inside C this turn
    wall_ms: float              # wall time since the turn's thinking began
    iterations_per_s: float     # over this turn's search time
    sim_turns_per_s: float
    root_stats: tuple[tuple[MoveStat, ...], ...]   # per agent of the game
    best_moves: tuple[int | None, ...]
    tree_nodes: tuple[int, ...]
    node_cap: int
    cap_reached: bool
    stop_reason: str
    params: SearchParams
    norm_min: tuple[float, ...]
    norm_max: tuple[float, ...]
    trees: Mapping[int, TreeSnapshot] = field(default_factory=dict)
    published_at: float = 0.0   # time.perf_counter()
    # In force in C (SearchStats): a change asked for waits for the next turn,
    # so these may differ from params.algorithm / params.policy.
    algorithm: str = "smitsimax"
    policy: str = "ucb1"
    num_trees: int = -1         # agents (smitsimax), 1 (suct, joint, uct), 0 (random, greedy)
    # The root as a joint-action matrix (MCGS, or joint-action MCTS with two
    # agents), taken in the same slice as root_stats so the two agree; None
    # for the other searches.
    root_matrix: RootMatrix | None = None
    transposition_hits: int = 0  # MCGS: edges linked to an existing node
    # pubcfr: the public belief states at its root and below (belief_nodes)
    beliefs: tuple[BeliefNode, ...] = ()
    # parallel Smitsimax, the last slice: iterations per C thread (empty:
    # serial) and the share of the threads' time spent waiting on each other
    thread_iterations: tuple[int, ...] = ()
    wait_share: float = 0.0


# pubcfr's public belief states in a snapshot: the root and the nodes below
# it, breadth-first, at most this deep and this many (goofspiel-4's tree
# has 121 public states; the view walks the first levels)
BELIEF_DEPTH = 3
BELIEF_NODES = 40
BELIEF_EVERY_S = 1.0    # while thinking, at most this often (a sweep: 50 ms at 1.4M histories)


@dataclass(frozen=True)
class BeliefNode:
    """A public state of a public-state search's tree as the view shows it:
    where it sits, its probability under both seats' average strategies,
    its state's exported words (the plugin reads its public part for a
    label) and each seat's posterior over its private states there
    (Search.node_ranges)."""
    index: int
    parent: int                     # -1: the root
    depth: int
    reach: float
    histories: int
    expanded: bool
    children: int                   # public states below it in the search's tree
    state: tuple[int, ...]
    ranges: tuple[tuple[tuple[int, float], ...], ...]


def belief_nodes(search: Search, num_agents: int) -> tuple[BeliefNode, ...]:
    """The root's public belief state and the ones below it (breadth-first,
    BELIEF_DEPTH levels, BELIEF_NODES at most), read from a pubcfr search."""
    nodes = search.public_nodes()
    keep = sorted((n for n in nodes if n.depth <= BELIEF_DEPTH),
                  key=lambda n: (n.depth, n.index))[:BELIEF_NODES]
    kept = {n.index for n in keep}
    children: dict[int, int] = {}
    for n in nodes:
        children[n.parent] = children.get(n.parent, 0) + 1
    out = []
    for n in keep:
        if n.parent >= 0 and n.parent not in kept:
            continue
        out.append(BeliefNode(
            index=n.index, parent=n.parent, depth=n.depth, reach=n.reach,
            histories=n.histories, expanded=n.expanded, children=children.get(n.index, 0),
            state=tuple(search.public_state(n.index).export()),
            ranges=tuple(search.node_ranges(n.index, a) for a in range(num_agents))))
    return tuple(out)


class Controller:
    """Base: a player that produces moves for its agents each turn."""

    kind = "base"

    def __init__(self, player: int, agents: Sequence[int], name: str = "") -> None:
        self.player = player
        self.agents = tuple(agents)
        self.name = name or f"P{player}"
        self._moves: dict[int, int | None] = {}
        self._done = threading.Event()
        self._done.set()
        self._changes: list[SettingsChange] = []
        self._changes_lock = threading.Lock()

    # turn protocol ----------------------------------------------------------
    def start(self, turn: int, game: Game, budget: Budget) -> None:
        """Begin deciding for `turn`; `game` is the real state (read only)."""
        self._done.clear()
        self._moves = self._decide(turn, game)
        self._done.set()

    def _decide(self, turn: int, game: Game) -> dict[int, int | None]:
        raise NotImplementedError

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def moves(self) -> dict[int, int | None]:
        if not self.done:
            raise InvalidState(f"{self.name} is still thinking")
        return dict(self._moves)

    def finish(self, joint: Sequence[int | None], game: Game) -> None:
        """The turn was played: `joint` moved the world to `game`."""

    def interrupt(self) -> None:
        """Stop thinking early and move with what is known now."""

    # settings -----------------------------------------------------------------
    @property
    def settings(self) -> SearchParams | None:
        return None

    def update_settings(self, params: SearchParams | Mapping[str, Any], turn: int = -1) -> None:
        raise InvalidState(f"{self.kind} players have no search settings")

    def record_change(self, turn: int, changes: dict[str, tuple[Any, Any]],
                      iteration: int = 0) -> None:
        """Log a change made outside the search (e.g. the player's budget)."""
        with self._changes_lock:
            self._changes.append(SettingsChange(turn, self.player, dict(changes), iteration))

    def drain_changes(self) -> list[SettingsChange]:
        """The changes since the last drain, one per turn: a slider dragged
        through ten values in a turn is one change from where it started to
        where it ended (fields that came back to their value drop out)."""
        with self._changes_lock:
            out, self._changes = self._changes, []
        return coalesce_changes(out)

    @property
    def latest(self) -> ControllerSnapshot | None:
        return None

    tree_request: TreeRequest | None = None

    def close(self) -> None:
        pass


class RandomController(Controller):
    """Uniformly random legal moves (seeded): a baseline and a test double."""

    kind = "random"

    def __init__(self, player: int, agents: Sequence[int], seed: int, name: str = "") -> None:
        super().__init__(player, agents, name)
        self._rng = np.random.default_rng(seed)

    def _decide(self, turn: int, game: Game) -> dict[int, int | None]:
        out: dict[int, int | None] = {}
        for a in self.agents:
            legal = game.legal_moves(a)
            out[a] = int(legal[self._rng.integers(len(legal))]) if legal else None
        return out


class PolicyController(Controller):
    """A player of the game's own (GamePlugin.make_policy): an outside
    yardstick such as goofspiel's exact equilibrium. It decides on the match
    thread, from the real state and the turn's budget."""

    def __init__(self, player: int, agents: Sequence[int], policy: Any, kind: str,
                 name: str = "") -> None:
        super().__init__(player, agents, name)
        self.policy = policy
        self.kind = kind
        self._budget: Budget | None = None

    def start(self, turn: int, game: Game, budget: Budget) -> None:
        self._budget = budget
        super().start(turn, game, budget)

    def _decide(self, turn: int, game: Game) -> dict[int, int | None]:
        return self.policy.decide(game, self.agents, self._budget)


class BotController(Controller):
    """The game's own heuristic bot (Game.bot_move, in C): a fixed opponent
    to measure searches against. Deterministic: a function of the state."""

    kind = "bot"

    def _decide(self, turn: int, game: Game) -> dict[int, int | None]:
        return {a: game.bot_move(a) for a in self.agents}


class HumanController(Controller):
    """Moves chosen by a person (arrow keys in the app). Until a key is
    pressed, a snake keeps going the way it went (or `default_move`).

    A person drives one agent at a time (the app overrides its move each
    turn); a team's other agents are played by the game's own heuristic bot
    where the game has one (pods: the driven pod's team mate), else by a
    one-ply greedy search in C (SnakeByte's team mates: repeating the last
    move would walk them into a wall). `chooser(agent)` says which it was."""

    # the unsteered team mates' greedy search: cheap (one ply), fixed seed
    UNSTEERED_ITERATIONS = 300

    kind = "human"

    def __init__(self, player: int, agents: Sequence[int], name: str = "",
                 default_move: int = 0) -> None:
        super().__init__(player, agents, name)
        self._chosen: dict[int, int] = {}
        self._last: dict[int, int] = {a: default_move for a in agents}
        self._by: dict[int, str] = {}
        self._lock = threading.Lock()
        self._greedy: Any = None      # Search, made on the first unsteered turn

    def chooser(self, agent: int) -> str:
        """Who chose `agent`'s move of the last decision (records.CHOOSERS)."""
        with self._lock:
            return self._by.get(agent, "person")

    def choose(self, move: int, agent: int | None = None) -> None:
        with self._lock:
            self._chosen[self.agents[0] if agent is None else agent] = int(move)

    def chosen(self, agent: int | None = None) -> int | None:
        with self._lock:
            a = self.agents[0] if agent is None else agent
            return self._chosen.get(a, self._last.get(a))

    def _decide(self, turn: int, game: Game) -> dict[int, int | None]:
        out: dict[int, int | None] = {}
        with self._lock:
            for a in self.agents:
                legal = game.legal_moves(a)
                if not legal:
                    out[a] = None
                    continue
                if a in self._chosen:
                    move, self._by[a] = self._chosen.pop(a), "person"
                else:
                    move, self._by[a] = self._unsteered(game, a)
                out[a] = move if move in legal else legal[0]
                self._last[a] = out[a]
        return out

    def _unsteered(self, game: Game, agent: int) -> tuple[int | None, str]:
        """An agent nobody steered this turn, and who chose its move: the
        game's bot if it has one; a lone snake keeps its direction; a team
        mate without a bot is played by a greedy search."""
        if has_bot(game.kind):
            return game.bot_move(agent), "bot"
        if len(self.agents) == 1:      # the person's own snake keeps its direction
            return self._last.get(agent, 0), "default"
        from ..native import Search
        if self._greedy is None or self._greedy.game_params != game.params:
            if self._greedy is not None:
                self._greedy.close()
            self._greedy = Search(game, {"algorithm": "greedy"}, seed=1000 + self.player)
        else:
            self._greedy.reset(game)
        self._greedy.run(iterations=self.UNSTEERED_ITERATIONS)
        return self._greedy.best_moves()[agent], "search"

    def close(self) -> None:
        super().close()
        if self._greedy is not None:
            self._greedy.close()
            self._greedy = None


class SearchController(Controller):
    """A searching player (Smitsimax or a baseline: params.algorithm) on its
    own worker thread."""

    kind = "smitsimax"

    def __init__(self, player: int, agents: Sequence[int], game: Game,
                 params: SearchParams | Mapping[str, Any] | None, seed: int,
                 name: str = "", weights: Mapping[str, float] | None = None,
                 base_params: Mapping[str, Any] | None = None) -> None:
        super().__init__(player, agents, name)
        self.num_agents = game.num_agents
        settings = params_arg(params)
        # Evaluation weights of its own (players.N.weights, the arena's
        # sliders): the search roots on a copy of the world's state in a game
        # with those weights (`_own`), re-synced every turn. `base_params`:
        # the scenario's game parameters the weights go on top of.
        self.kind_name = game.kind
        self.base_params = dict(base_params or {})
        self.weights: dict[str, float] = dict(weights or {})
        self._pending_weights: dict[str, float] | None = None
        self._own: Game | None = None
        if self.weights:
            self._own = player_game(game.kind, weighted_params(game.kind, self.base_params,
                                                               self.weights), game.export())
        self._hidden = game.hidden_info
        try:
            self.search = Search(self._own or game, self._for_c(settings), seed=seed)
        except BaseException:
            if self._own is not None:
                self._own.close()
            raise
        self._settings = settings
        self.c_confirmed: SearchParams = self._confirmed()
        self._pending: SearchParams | None = None
        self._pending_turn = -1
        self._cv = threading.Condition()
        self._job: tuple[int, Budget] | None = None
        self._cancel = False
        self._closing = False
        self._latest: ControllerSnapshot | None = None
        self._last_trees: Mapping[int, TreeSnapshot] = {}
        self._last_tree_time = 0.0
        self._last_beliefs: tuple[BeliefNode, ...] = ()
        self._last_belief_time = 0.0
        self._belief_turn = -1
        self.tree_request: TreeRequest | None = None
        self._error: Exception | None = None
        # Niceness added to the worker thread (Linux): the live app sets it so
        # that the UI thread wins the cores when it has a frame to draw.
        self.worker_nice = 0
        self._applied_nice = 0
        self._thread = threading.Thread(target=self._worker, name=f"search-{player}", daemon=True)
        self._thread.start()

    # settings (any thread) -----------------------------------------------------
    def _for_c(self, params: SearchParams) -> SearchParams:
        return params_for_seat(params, self.agents, self._hidden)

    def _confirmed(self) -> SearchParams:
        """The settings as C holds them, in the settings' terms (a lead C
        got from the seat reads back as the -1 that asked for it)."""
        c = self.search.c_params()
        if ((self._settings.lead == -1 or self._settings.info_seat == -1)
                and c == self._for_c(self._settings)):
            return self._settings
        return c

    @property
    def settings(self) -> SearchParams:
        """The newest settings asked for (applied at the next slice)."""
        with self._cv:
            return self._pending or self._settings

    def update_settings(self, params: SearchParams | Mapping[str, Any], turn: int = -1) -> None:
        base = self.settings
        new = params if isinstance(params, SearchParams) else base.replace(**dict(params))
        # what C would refuse for this game (an algorithm not built in,
        # joint-action MCTS on too many agents, node_cap below the
        # algorithm's worst iteration, a lead past the agents) is refused
        # here, in the caller's thread: applied at a slice boundary, C's
        # refusal would end the worker's turn instead
        self.search.check_params(self._for_c(new))
        with self._cv:
            self._pending = new
            self._pending_turn = turn
        if self.done:  # not thinking: apply now so the next search uses them
            # if this turn's search already ran, the change lands after all
            # of its iterations (a replay's re-search applies it there too)
            last = self._latest
            done = last.iterations if last is not None and turn >= 0 and last.turn == turn \
                and not last.thinking else 0
            self._apply_pending(turn if turn >= 0 else -1, done)

    def _apply_pending(self, turn: int, iteration: int) -> None:
        with self._cv:
            new, self._pending = self._pending, None
            asked_turn = self._pending_turn
        if new is None or new == self._settings:
            return
        old = self._settings
        self.search.set_params(self._for_c(new))
        self._settings = new
        self._belief_turn = -1     # pubcfr may have rebuilt its tree: walk it afresh
        # Read back from C: proof the search itself received the change.
        self.c_confirmed = self._confirmed()
        diff = {k: (getattr(old, k), getattr(new, k)) for k in type(new).model_fields
                if getattr(old, k) != getattr(new, k)}
        with self._changes_lock:
            self._changes.append(SettingsChange(turn if turn >= 0 else asked_turn,
                                                self.player, diff, iteration))

    # turn protocol ----------------------------------------------------------------
    def start(self, turn: int, game: Game, budget: Budget) -> None:
        with self._cv:
            if not self._done.is_set():
                raise InvalidState(f"{self.name} is already thinking")
            if self._closing:
                raise InvalidState(f"{self.name} is closed")
            if not any(game.is_alive(a) for a in self.agents):
                # Every agent of this player is out: nothing to decide, and a
                # search would only take CPU from the players still in it.
                self._apply_pending(turn, 0)
                self._moves = {a: None for a in self.agents}
                self._publish(turn, False, 0, 0, 0.0, time.perf_counter(), "eliminated")
                return
            self._done.clear()
            self._cancel = False
            self._job = (turn, budget)
            self._cv.notify_all()

    def interrupt(self) -> None:
        with self._cv:
            self._cancel = True
        self.search.stop()

    def finish(self, joint: Sequence[int | None], game: Game) -> None:
        if not self.done:
            raise InvalidState(f"{self.name} is still thinking")
        with self._cv:
            pending, self._pending_weights = self._pending_weights, None
        if pending is not None:
            # new weights from the next turn: the search takes the new game's
            # parameters (trees kept), between its turns
            params = weighted_params(game.kind, self.base_params, pending)
            new = player_game(game.kind, params, game.export()) if pending else None
            self.search.set_game(new or game)
            old, self._own, self.weights = self._own, new, pending
            if old is not None:
                old.close()
        if self._own is not None:
            self._own.import_state(game.export())
        if any(isinstance(m, FreeMove) for m in joint):
            # a free move (a person's or an outside bot's target point) has
            # no subtree in the table-move trees: start them afresh
            self.search.reset(self._own or game)
            return
        self.search.advance(joint, new_root=self._own or game)

    def update_weights(self, weights: Mapping[str, float], turn: int = -1) -> None:
        """The player's evaluation weights from the next turn (the names
        given replace those in force; the rest stay). Recorded with this
        turn's settings changes as weights.NAME."""
        base = self.weights_asked
        new = {**base, **{k: float(v) for k, v in weights.items()}}
        weighted_params(self.kind_name, self.base_params, new)     # refused here, not later
        diff = {f"weights.{k}": (base.get(k, self._default_weight(k)), v)
                for k, v in new.items() if base.get(k, self._default_weight(k)) != v}
        if not diff:
            return
        with self._cv:
            self._pending_weights = new
        last = self._latest
        done = last.iterations if last is not None and last.turn == turn else 0
        self.record_change(turn, diff, iteration=done)

    @property
    def weights_asked(self) -> dict[str, float]:
        """The weights in force from the next turn (those asked last)."""
        with self._cv:
            return dict(self._pending_weights if self._pending_weights is not None
                        else self.weights)

    def weight(self, name: str) -> float:
        """A weight as the player's search will use it next turn."""
        return self.weights_asked.get(name, self._default_weight(name))

    def _default_weight(self, name: str) -> float:
        return weight_value(self.kind_name, self.base_params, name)

    def reset(self, game: Game) -> None:
        """A new match on the same game: drop the trees, take `game`'s state."""
        if not self.done:
            raise InvalidState(f"{self.name} is still thinking")
        if self._own is not None:
            self._own.import_state(game.export())
        self.search.reset(self._own or game)

    def step_traced(self) -> Trace:
        """One traced iteration between turns (the step-by-step view)."""
        if not self.done:
            raise InvalidState(f"{self.name} is thinking")
        self._apply_pending(-1, 0)
        trace = self.search.step_traced()
        return trace

    def _worker(self) -> None:
        while True:
            with self._cv:
                while self._job is None and not self._closing:
                    self._cv.wait()
                if self._closing:
                    self._done.set()
                    return
                turn, budget = self._job
                self._job = None
            self._renice()
            try:
                self._moves = self._think(turn, budget)
            except Exception as exc:  # surfaced to the match thread
                self._moves = {a: None for a in self.agents}
                self._error = exc
            self._done.set()

    def _renice(self) -> None:
        """Lower this worker thread's priority to worker_nice (only ever
        lowered: raising it back needs privileges). Best effort."""
        want = int(self.worker_nice)
        if want <= self._applied_nice or not hasattr(os, "setpriority"):
            return
        try:
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid)
                           + want - self._applied_nice)
            self._applied_nice = want
        except OSError:
            self._applied_nice = want  # not permitted here: do not retry each turn

    def raise_if_failed(self) -> None:
        if self._error is not None:
            exc, self._error = self._error, None
            raise exc

    def _think(self, turn: int, budget: Budget) -> dict[int, int | None]:
        t0 = time.perf_counter()
        iterations = turns = 0
        search_ms = 0.0
        reason = "none"
        while True:
            self._apply_pending(turn, iterations)
            wall_ms = (time.perf_counter() - t0) * 1000.0
            if self._cancel or self._closing:
                reason = "interrupted"
                break
            it_left = budget.iterations - iterations if budget.iterations else 0
            ms_left = budget.ms - wall_ms if budget.ms else 0.0
            if budget.iterations and it_left <= 0:
                reason = "iterations"
                break
            if budget.ms and ms_left <= 0:
                reason = "time"
                break
            r = self.search.run(
                iterations=min(budget.slice_iterations, it_left) if budget.iterations else None,
                ms=min(budget.slice_ms, ms_left) if budget.ms else None)
            iterations += r.iterations
            turns += r.sim_turns
            search_ms += r.elapsed_ms
            if r.stop_reason in ("node_cap", "terminal"):
                reason = r.stop_reason
                break
            self._publish(turn, True, iterations, turns, search_ms, t0, r.stop_reason)
        self._publish(turn, False, iterations, turns, search_ms, t0, reason)
        best = self.search.best_moves()
        return {a: best[a] for a in self.agents}

    def _publish(self, turn: int, thinking: bool, iterations: int, turns: int,
                 search_ms: float, t0: float, reason: str) -> None:
        now = time.perf_counter()
        summary = self.search.summary()   # one C call (one GIL round trip), not six
        st = summary.stats
        req = self.tree_request
        trees = self._last_trees
        if req is not None and (not thinking or (now - self._last_tree_time) * 1000 >= req.every_ms):
            agents = req.agents if req.agents is not None else range(self.num_agents)
            trees = self._snapshots(tuple(agents), st.trees, req)
            self._last_trees = trees
            self._last_tree_time = now
        secs = search_ms / 1000.0
        matrix = None
        if has_root_matrix(st.algorithm, self.num_agents):
            try:   # one C call, at most 16 x 16 cells
                matrix = self.search.root_matrix()
            except InvalidState:   # C says it has none: the view shows none
                matrix = None
        beliefs: tuple[BeliefNode, ...] = ()
        if st.algorithm == "pubcfr" and req is not None:   # a view asks: walk the tree
            beliefs = self._last_beliefs
            if not thinking or turn != self._belief_turn \
                    or now - self._last_belief_time >= BELIEF_EVERY_S:
                try:
                    beliefs = belief_nodes(self.search, self.num_agents)
                except InvalidState:   # no tree (its root could not be split)
                    beliefs = ()
                self._last_beliefs, self._last_belief_time = beliefs, now
                self._belief_turn = turn
        self._latest = ControllerSnapshot(
            player=self.player, agents=self.agents, turn=turn, thinking=thinking,
            iterations=iterations, sim_turns=turns, search_ms=search_ms,
            wall_ms=(now - t0) * 1000.0,
            iterations_per_s=iterations / secs if secs > 0 else 0.0,
            sim_turns_per_s=turns / secs if secs > 0 else 0.0,
            root_stats=summary.root_stats,
            best_moves=summary.best_moves,
            tree_nodes=st.nodes, node_cap=st.node_cap, cap_reached=st.cap_reached,
            stop_reason=reason, params=self._settings, norm_min=st.norm_min,
            norm_max=st.norm_max, trees=trees, published_at=now,
            algorithm=st.algorithm, policy=st.policy, num_trees=st.trees,
            root_matrix=matrix, transposition_hits=st.transposition_hits, beliefs=beliefs,
            thread_iterations=st.thread_iterations, wait_share=st.wait_share)

    def _snapshots(self, agents: tuple[int, ...], kept: int,
                   req: TreeRequest) -> Mapping[int, TreeSnapshot]:
        """The trees asked for. Random and greedy keep none; SUCT and joint
        keep one, which Search.snapshot returns for any agent: it is taken
        once and every asked agent maps to that same object (the view shows
        one panel for it)."""
        if kept == 0 or not agents:
            return {}
        tops = dict(req.tops)
        if kept == 1:
            # A buffer of the asked size: the one tree's node count need not
            # be filed under this agent.
            out = np.zeros(req.max_nodes, dtype=SNAPSHOT_DTYPE)
            one = self._snapshot(agents[0], req, tops.get(agents[0]), out)
            return {a: one for a in agents}
        return {a: self._snapshot(a, req, tops.get(a)) for a in agents}

    def _snapshot(self, agent: int, req: TreeRequest, top: tuple | None,
                  out: np.ndarray | None = None) -> TreeSnapshot:
        if top:
            try:
                return self.search.snapshot(agent, req.max_nodes, req.min_visits, out=out,
                                            top=list(top))
            except InvalidArgument:   # the tree moved on: the path is gone
                pass
        return self.search.snapshot(agent, req.max_nodes, req.min_visits, out=out)

    @property
    def latest(self) -> ControllerSnapshot | None:
        return self._latest

    def publish_now(self, turn: int) -> ControllerSnapshot | None:
        """Refresh the snapshot between turns (e.g. after a traced step)."""
        if not self.done:
            return self._latest
        self._last_tree_time = 0.0
        prev = self._latest
        if prev is not None and prev.turn == turn:
            # the turn's search figures stay what they were (a traced step
            # is not a search slice): only trees and root stats refresh
            t0 = time.perf_counter() - prev.wall_ms / 1000.0
            self._publish(turn, False, prev.iterations, prev.sim_turns, prev.search_ms, t0,
                          prev.stop_reason)
        else:
            st = self.search.stats()
            self._publish(turn, False, st.iterations_root, 0, 0.0, time.perf_counter(), "none")
        return self._latest

    def close(self) -> None:
        with self._cv:
            self._closing = True
            self._cancel = True
            self._cv.notify_all()
        if not self.search.closed:
            self.search.stop()
        self._thread.join(timeout=10)
        self.search.close()
        if self._own is not None:
            self._own.close()

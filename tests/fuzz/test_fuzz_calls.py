"""Random call orders across Game and Search for every registered game: legal
and illegal joints, imports between games, searches created, run in small
slices, advanced, reset, inspected with random sizes, re-parameterised,
stopped and closed in any order, then used after close.

Each machine plays one parameter set of one game (a plugin example or an edge
of the game's parameter model) and keeps a few games and searches of it, plus
the odd game of another case for the calls that must refuse a foreign game.
A closed object stays in play: every later call on it must raise the
project's ClosedError (or refuse its arguments first)."""
from __future__ import annotations

import math

import numpy as np
from fuzz_support import (ALL_CASES, PARAMS_DOOR, any_seed, attempt, fuzz_settings, ints_wild, must,
                          random_legal_joint, search_params)
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from sandbox.native import (SNAPSHOT_DTYPE, ClosedError, FreeMove, Game, InvalidArgument,
                            InvalidState, Search, SearchParams, TreeSnapshot, has_bot)
from sandbox.native.search import PICKS, STOP_REASONS

MAX_OPEN_GAMES = 5
MAX_OPEN_SEARCHES = 3
# small arenas: the machine is about call orders, not search quality (any
# depth, so an iteration may need more nodes than the arena has: C refuses
# that, or stops the run on node_cap)
FAST = {"node_cap": 1 << 13}

idx = st.integers(0, 63)
# agents: ints in and out of range, and what int() may or may not take
agents = st.one_of(st.integers(-1, 8), ints_wild,
                   st.sampled_from([0.0, 1.5, -0.5, math.nan, math.inf, "1", "x", None]))


def agent_ok(agent, n: int) -> bool:
    """Whether the API takes `agent` for a game of n agents: integers only
    (numpy's too), never a bool or a float, even a whole one (the wrapper's
    rule, sandbox.native._handle.int_arg)."""
    if isinstance(agent, (bool, np.bool_)) or not isinstance(agent, (int, np.integer)):
        return False
    return 0 <= int(agent) < n


def joints(n: int) -> st.SearchStrategy:
    """Joint actions of every shape: right length or not, None entries,
    numbers far past any move id, things that are not numbers."""
    coord = st.floats(-1e9, 1e9, allow_nan=False)
    # free moves (pods takes them; other games refuse): well-formed values
    # whose thrust may be past any game's range
    free = st.one_of(st.builds(FreeMove, coord, coord, st.integers(0, 1000)),
                     st.builds(FreeMove.boost, coord, coord),
                     st.builds(FreeMove.shield, coord, coord))
    entry = st.one_of(st.integers(-2, 17), st.none(), ints_wild, free,
                      st.sampled_from(["x", "1", 1.5, math.nan, math.inf, [], b"\x01"]))
    return st.one_of(st.lists(entry, min_size=n, max_size=n),
                     st.lists(entry, min_size=0, max_size=n + 2))


def closed_ok(obj, exc) -> None:
    """A call on a closed object raised (ClosedError, or an argument error
    found before the object was looked at)."""
    assert exc is not None, f"a call on a closed {type(obj).__name__} returned"


class ApiMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.games: list[Game] = []
        self.searches: list[Search] = []
        self.accepted: dict[int, SearchParams] = {}   # id(search) -> last accepted params
        # searches advanced to a new root that need not follow from the joint
        # (advance_any): their reused trees may hold moves the new root does
        # not allow (reported: smitsimax.c keeps the subtree unchecked; see
        # tests/native/test_fuzz_regressions.py), so best-move legality is
        # only checked on the others
        self.unfollowed: set[int] = set()
        self.rng = np.random.default_rng(0)

    # ------------------------------------------------------------ helpers
    def _game(self, i: int) -> Game:
        return self.games[i % len(self.games)]

    def _search(self, i: int) -> Search:
        return self.searches[i % len(self.searches)]

    def _open(self, items):
        return [x for x in items if not x.closed]

    def _add_game(self, g: Game) -> None:
        self.games.append(g)
        if len(self.games) > 3 * MAX_OPEN_GAMES:      # forget the oldest closed ones
            for old in [x for x in self.games if x.closed][:3]:
                self.games.remove(old)

    def _add_search(self, s: Search, params: SearchParams) -> None:
        self.searches.append(s)
        self.accepted[id(s)] = params

    # ------------------------------------------------------------ setup
    @initialize(case=st.sampled_from(ALL_CASES), seed=st.integers(0, 2**32),
                params=search_params(valid_only=True))
    def start(self, case, seed, params):
        self.case = case
        self.rng = np.random.default_rng(seed)
        g = must(case.new, seed)
        self._add_game(g)
        sp = SearchParams.coerce(params).replace(**FAST)
        s, exc = attempt(Search, g, sp, seed)
        if exc is None:
            self._add_search(s, sp)

    def teardown(self) -> None:
        for s in self.searches:
            s.close()
        for g in self.games:
            g.close()

    # ------------------------------------------------------------ games
    @precondition(lambda self: len(self._open(self.games)) < MAX_OPEN_GAMES)
    @rule(seed=st.integers(0, 2**64 - 1), foreign=st.sampled_from(ALL_CASES),
          own=st.booleans())
    def new_game(self, seed, foreign, own):
        case = self.case if own else foreign
        self._add_game(must(case.new, seed))

    @precondition(lambda self: len(self._open(self.games)) < MAX_OPEN_GAMES)
    @rule(i=idx)
    def clone(self, i):
        g = self._game(i)
        c, exc = attempt(g.clone)
        if g.closed:
            assert isinstance(exc, ClosedError), repr(exc)
            return
        assert np.array_equal(must(c.export), must(g.export))
        assert must(c.state_hash) == must(g.state_hash)
        self._add_game(c)

    @rule(i=idx, j=idx)
    def copy_from(self, i, j):
        dst, src = self._game(i), self._game(j)
        before = None if dst.closed else must(dst.export)
        _, exc = attempt(dst.copy_from, src)
        if dst.closed or src.closed:
            assert isinstance(exc, ClosedError), repr(exc)
        elif exc is None:
            assert np.array_equal(must(dst.export), must(src.export))
        else:
            # only a game of another kind or other parameters is refused
            assert isinstance(exc, InvalidArgument), repr(exc)
            assert (dst.kind, dst.params) != (src.kind, src.params)
            assert np.array_equal(must(dst.export), before)

    @rule(i=idx, which=st.sampled_from(["turn", "legal_moves", "is_alive", "alive",
                                        "is_terminal", "evaluate", "ranking", "state_hash",
                                        "export", "move_name", "repr", "bot_move",
                                        "fatal_moves"]),
          agent=agents, move=st.one_of(st.integers(-1, 16), ints_wild))
    def query(self, i, which, agent, move):
        g = self._game(i)
        calls = {
            "turn": lambda: g.turn, "legal_moves": lambda: g.legal_moves(agent),
            "is_alive": lambda: g.is_alive(agent), "alive": lambda: g.alive,
            "is_terminal": lambda: g.is_terminal, "evaluate": g.evaluate,
            "ranking": g.ranking, "state_hash": g.state_hash, "export": g.export,
            "move_name": lambda: g.move_name(agent, move), "repr": lambda: repr(g),
            "bot_move": lambda: g.bot_move(agent),
            "fatal_moves": lambda: g.fatal_moves(agent),
        }
        out, exc = attempt(calls[which])
        if which == "repr":
            assert exc is None and ("closed" in out) == g.closed
            return
        if g.closed:
            closed_ok(g, exc)
            return
        n = g.num_agents
        if which in ("legal_moves", "is_alive"):
            assert (exc is None) == agent_ok(agent, n), (which, agent, exc)
            if which == "legal_moves" and exc is None:
                assert len(out) == len(set(out)) and all(0 <= m < 16 for m in out)
                assert (len(out) > 0) == must(g.is_alive, agent) or must(lambda: g.is_terminal)
        elif which == "bot_move":
            # a game with a bot (pods) gives a legal move, None when out;
            # the others refuse
            if not agent_ok(agent, n):
                assert isinstance(exc, InvalidArgument), repr(exc)
            elif not has_bot(g.kind):
                assert isinstance(exc, InvalidState) and "no bot" in str(exc), repr(exc)
            else:
                assert exc is None, repr(exc)
                assert (out is None) == (not must(g.is_alive, agent) or must(lambda: g.is_terminal))
                assert out is None or out in must(g.legal_moves, agent)
        elif which == "fatal_moves":
            # a mask over the agent's moves, empty when it is out or the game over
            assert (exc is None) == agent_ok(agent, n), (which, agent, exc)
            if exc is None:
                assert 0 <= out < 1 << 16
                if not must(g.is_alive, agent) or must(lambda: g.is_terminal):
                    assert out == 0
        elif which == "move_name":
            # any agent and move has a name ("?" when there is none)
            assert exc is None or isinstance(exc, InvalidArgument), repr(exc)
            assert exc is not None or (isinstance(out, str) and out)
        else:
            assert exc is None, repr(exc)
            if which == "evaluate":
                assert out.shape == (n,) and np.isfinite(out).all()
            if which == "ranking":
                assert min(out) == 0 and all(0 <= r < n for r in out)

    @rule(i=idx)
    def step_legal(self, i):
        g = self._game(i)
        if g.closed:
            _, exc = attempt(g.step, [0] * g.num_agents)
            assert isinstance(exc, ClosedError), repr(exc)
            return
        if must(lambda: g.is_terminal):
            _, exc = attempt(g.step, [0] * g.num_agents)
            assert isinstance(exc, InvalidState), repr(exc)
            return
        turn = must(lambda: g.turn)
        rewards = must(g.step, random_legal_joint(g, self.rng))
        assert rewards.shape == (g.num_agents,) and np.isfinite(rewards).all()
        assert must(lambda: g.turn) == turn + 1

    @rule(i=idx, data=st.data())
    def step_any(self, i, data):
        g = self._game(i)
        joint = data.draw(joints(g.num_agents), label="joint")
        before = None if g.closed else must(g.export)
        _, exc = attempt(g.step, joint)
        if g.closed:
            closed_ok(g, exc)
        elif exc is not None:
            # refused: nothing moved
            assert isinstance(exc, (InvalidArgument, InvalidState)), repr(exc)
            assert np.array_equal(must(g.export), before)

    @rule(i=idx, seed=any_seed, what=st.sampled_from(["reseed", "playout", "playouts"]),
          steps=st.one_of(st.integers(0, 40), st.sampled_from([-1, 2**63, 2**64])),
          n=st.one_of(st.integers(0, 4), st.sampled_from([-1, 2**64])))
    def chance(self, i, seed, what, steps, n):
        g = self._game(i)
        before = None if g.closed else must(g.export)
        call = {"reseed": lambda: g.reseed(seed),
                "playout": lambda: g.playout(steps, seed),
                "playouts": lambda: g.playouts(n, steps, seed)}[what]
        out, exc = attempt(call)
        if g.closed:
            closed_ok(g, exc)
            return
        if exc is not None:
            assert isinstance(exc, InvalidArgument), repr(exc)
            assert np.array_equal(must(g.export), before)
            return
        if what == "playout":
            assert 0 <= out <= steps
        if what == "playouts":
            # playouts leave the game as it was
            assert np.array_equal(must(g.export), before) and 0 <= out <= n * steps

    @rule(i=idx, j=idx)
    def import_from(self, i, j):
        dst, src = self._game(i), self._game(j)
        if src.closed:
            _, exc = attempt(src.export)
            assert isinstance(exc, ClosedError), repr(exc)
            return
        words = must(src.export)
        before = None if dst.closed else must(dst.export)
        _, exc = attempt(dst.import_state, words)
        if dst.closed:
            assert isinstance(exc, ClosedError), repr(exc)
        elif exc is None:
            assert np.array_equal(must(dst.export), words)
        else:
            assert isinstance(exc, InvalidArgument), repr(exc)
            assert np.array_equal(must(dst.export), before)

    # ------------------------------------------------------------ searches
    @precondition(lambda self: len(self._open(self.searches)) < MAX_OPEN_SEARCHES)
    @rule(i=idx, params=search_params(), seed=any_seed)
    def new_search(self, i, params, seed):
        g = self._game(i)
        if isinstance(params, dict):
            params = {**params, **FAST}
        elif isinstance(params, SearchParams):
            params = params.replace(**FAST)
        s, exc = attempt(Search, g, params, seed, allow=PARAMS_DOOR)
        if g.closed:
            closed_ok(g, exc)
            return
        if exc is None:
            self._add_search(s, must(lambda: s.params))

    @rule(k=idx, iterations=st.one_of(st.integers(1, 40), st.sampled_from(
              [0, -1, 2**63, 2**64, None, 2.5, "x", math.nan, math.inf])),
          ms=st.one_of(st.none(), st.floats(0, 2), st.sampled_from(
              [-1.0, math.nan, math.inf, -math.inf, 0.0, "soon"])))
    def run(self, k, iterations, ms):
        if not self.searches:
            return
        s = self._search(k)
        if iterations is None and isinstance(ms, float) and ms > 0.5:
            ms = 0.5    # a pure time budget: keep it short
        r, exc = attempt(s.run, iterations=iterations, ms=ms)
        if s.closed:
            closed_ok(s, exc)
            return
        if exc is not None:
            assert isinstance(exc, InvalidArgument), repr(exc)
            return
        assert r.stop_reason in STOP_REASONS.values() and r.stop_reason != "?"
        if isinstance(iterations, int) and iterations > 0:
            assert r.iterations <= iterations
        assert r.iterations >= 0 and r.sim_turns >= 0 and r.elapsed_ms >= 0

    @rule(k=idx)
    def step_traced(self, k):
        if not self.searches:
            return
        s = self._search(k)
        t, exc = attempt(s.step_traced)
        if s.closed:
            closed_ok(s, exc)
            return
        assert exc is None, repr(exc)
        p = must(s.c_params)
        # the algorithm that ran the iteration (a requested change may wait)
        algorithm = must(s.stats).algorithm
        # uct rolls out to the game's end, max_depth unread; gtcfr descends
        # its tree, which no max_depth bounds; a trace holds the first 64 turns
        assert 0 <= t.depth <= (64 if algorithm in ("uct", "gtcfr") else p.max_depth)
        assert t.stop_reason in STOP_REASONS.values()
        for a in range(s.num_agents):
            if algorithm in ("suct", "uct") and a == 0:
                # one serialised path: a node per agent per turn, plus the root
                longest = 1 + s.num_agents * t.depth
            elif algorithm in ("suct", "joint", "mcgs", "uct", "gtcfr") and a > 0:
                longest = 0       # one tree: its path is path[0]
            else:
                longest = t.depth + 1
            assert 0 <= len(t.paths[a]) <= longest, (algorithm, a, t.paths)
            assert all(pk in PICKS.values() for pk in t.picks[a])
        assert t.moves.shape == (s.num_agents, t.depth)

    def _root(self, s: Search) -> Game:
        g = must(s.root_game)
        self._add_game(g)
        return g

    @precondition(lambda self: len(self._open(self.games)) < MAX_OPEN_GAMES)
    @rule(k=idx, with_root=st.booleans())
    def advance_played(self, k, with_root):
        """The real game takes a legal joint: advance with it (with the
        resulting state, or letting the search step its own root)."""
        if not self.searches:
            return
        s = self._search(k)
        if s.closed:
            _, exc = attempt(s.advance, [0] * s.num_agents)
            assert isinstance(exc, ClosedError), repr(exc)
            return
        root = self._root(s)
        if must(lambda: root.is_terminal):
            _, exc = attempt(s.advance, [0] * s.num_agents)
            assert isinstance(exc, (InvalidState, InvalidArgument)), repr(exc)
            return
        joint = random_legal_joint(root, self.rng)
        must(root.step, joint)
        must(s.advance, joint, root if with_root else None)
        with must(s.root_game) as now:
            if with_root:
                assert np.array_equal(must(now.export), must(root.export))
            else:
                assert must(lambda: now.turn) == must(lambda: root.turn)

    @rule(k=idx, i=idx, data=st.data(), use_root=st.booleans())
    def advance_any(self, k, i, data, use_root):
        """Any joint, with any game (of any kind, open or closed) as the new
        root: refused with the project's errors, or taken."""
        if not self.searches:
            return
        s = self._search(k)
        joint = data.draw(joints(s.num_agents), label="joint")
        new_root = self._game(i) if use_root else None
        _, exc = attempt(s.advance, joint, new_root)
        if s.closed or (new_root is not None and new_root.closed):
            closed_ok(s, exc)
        elif exc is not None:
            assert isinstance(exc, (InvalidArgument, InvalidState)), repr(exc)
        elif new_root is not None:
            self.unfollowed.add(id(s))

    @rule(k=idx, i=idx)
    def set_game(self, k, i):
        """Any game's parameters for a search (set_game): taken where the
        search's state carries over, else refused with the project's errors
        and the search as it was."""
        if not self.searches:
            return
        s, g = self._search(k), self._game(i)
        before = None if s.closed else s.game_params
        _, exc = attempt(s.set_game, g)
        if s.closed or g.closed:
            closed_ok(s, exc)
        elif exc is None:
            assert (s.kind, s.game_params) == (g.kind, g.params)
        else:
            assert isinstance(exc, (InvalidArgument, InvalidState)), repr(exc)
            assert s.game_params == before

    @rule(k=idx, i=idx)
    def reset(self, k, i):
        if not self.searches:
            return
        s, g = self._search(k), self._game(i)
        _, exc = attempt(s.reset, g)
        if s.closed or g.closed:
            assert isinstance(exc, ClosedError), repr(exc)
        elif exc is None:
            self.unfollowed.discard(id(s))
            st_ = must(s.stats)
            assert st_.iterations_root == 0 and all(x == 1 for x in st_.nodes)
            with must(s.root_game) as r:
                assert np.array_equal(must(r.export), must(g.export))
        else:
            assert isinstance(exc, InvalidArgument), repr(exc)
            assert (g.kind, g.params) != (s.kind, s.game_params)

    @rule(k=idx, which=st.sampled_from(["best_moves", "root_stats", "stats", "summary",
                                        "snapshot", "snapshot_out", "snapshot_top",
                                        "find_path", "c_params", "params", "root_matrix"]),
          agent=agents,
          max_nodes=st.one_of(st.integers(1, 300), st.sampled_from([0, -1, 2**31, 2**40])),
          min_visits=st.one_of(st.integers(0, 5), st.sampled_from([-1, 2**31, 10**6])),
          rows=st.one_of(st.integers(0, 300), st.just(None)),
          dtype_ok=st.booleans(),
          top=st.one_of(st.integers(-2, 400), st.sampled_from([2**31, 1.5, "0", None])),
          path=st.one_of(st.lists(st.integers(-1, 256), max_size=4),
                         st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255)),
                                  max_size=3),
                         st.sampled_from(["UL", [[]], [1.0], None])))
    def inspect(self, k, which, agent, max_nodes, min_visits, rows, dtype_ok, top, path):
        if not self.searches:
            return
        s = self._search(k)
        out_arr = None
        if which == "snapshot_out":
            out_arr = np.zeros(rows if rows is not None else max(1, min(max_nodes, 300)),
                               dtype=SNAPSHOT_DTYPE if dtype_ok else np.int32)
        calls = {
            "best_moves": s.best_moves, "root_stats": lambda: s.root_stats(agent),
            "stats": s.stats, "summary": s.summary, "c_params": s.c_params,
            "params": lambda: s.params, "root_matrix": s.root_matrix,
            "snapshot": lambda: s.snapshot(agent, max_nodes, min_visits),
            "snapshot_out": lambda: s.snapshot(agent, max_nodes, min_visits, out=out_arr),
            # the top of a subtree by node id or by move path
            "snapshot_top": lambda: s.snapshot(agent, max_nodes, min_visits,
                                               top=path if top is None else top),
            "find_path": lambda: s.find_path(agent, path),
        }
        out, exc = attempt(calls[which])
        if s.closed:
            if which != "params":     # the Python-side copy, not a C call
                closed_ok(s, exc)
            return
        n = s.num_agents
        if which == "best_moves":
            self._check_best_moves(s, out)
        elif which == "root_stats":
            assert (exc is None) == agent_ok(agent, n), repr(exc)
            if out:
                assert all(m.visits >= 0 and 0 <= m.prob <= 1 and math.isfinite(m.mean)
                           for m in out)
                assert abs(sum(m.prob for m in out) - 1) < 1e-9 or sum(m.visits for m in out) == 0
        elif which == "root_matrix":
            # two-player MCGS, joint or GT-CFR only; else one refusal, never a crash
            if exc is not None:
                assert isinstance(exc, InvalidState), repr(exc)
                return
            assert n == 2 and out.visits.sum() == out.root_visits >= 0
            assert all(len(out.moves[a]) == out.shape[a] for a in range(2))
        elif which == "summary":
            assert list(out.best_moves) == must(s.best_moves)
            assert out.stats == must(s.stats)
        elif which == "stats":
            assert all(1 <= x for x in out.nodes[:n])
            # parameters set since the last run are pending until C applies
            # them (c_params does): from then on every tree fits its cap
            p = must(s.c_params)
            assert p == self.accepted[id(s)]
            after = must(s.stats)
            assert all(x <= p.node_cap for x in after.nodes[:n]) and after.node_cap == p.node_cap
        elif which in ("snapshot", "snapshot_out", "snapshot_top"):
            if exc is not None:
                assert isinstance(exc, InvalidArgument), repr(exc)
                return
            self._check_snapshot(out, max_nodes)
            assert agent_ok(agent, n)
        elif which == "find_path":
            if exc is not None:
                assert isinstance(exc, InvalidArgument), repr(exc)
                return
            assert agent_ok(agent, n) and 0 <= out < must(s.stats).nodes[agent] + 1
            if path == []:
                assert out == 0

    def _check_best_moves(self, s: Search, best) -> None:
        """The most-visited move is a legal move of the search's root state."""
        assert len(best) == s.num_agents
        if id(s) in self.unfollowed:
            assert all(m is None or 0 <= m < 16 for m in best)
            return
        with must(s.root_game) as root:
            for a, m in enumerate(best):
                legal = must(root.legal_moves, a)
                if not legal:
                    assert m is None, (a, m)
                else:
                    assert m in legal, (f"agent {a}: best move {m} is not legal at the "
                                        f"search's root (legal {legal})")

    @staticmethod
    def _check_snapshot(snap: TreeSnapshot, max_nodes: int) -> None:
        n = len(snap)
        assert 1 <= n <= max_nodes and n <= snap.tree_nodes
        par = snap.parent
        assert par[0] == -1 and (par[1:] < np.arange(1, n)).all() and (par[1:] >= 0).all()
        assert (snap.depth[1:] == snap.depth[par[1:]] + 1).all()
        assert (snap.visits >= 0).all()

    @rule(k=idx, params=search_params(), how=st.sampled_from(["set", "update", "check"]))
    def set_params(self, k, params, how):
        if not self.searches:
            return
        s = self._search(k)
        if how == "check":
            p, exc = attempt(s.c_params)
            if s.closed:
                assert isinstance(exc, ClosedError), repr(exc)
            else:
                assert p == self.accepted[id(s)]
            return
        if isinstance(params, dict):
            params = {**params, **{k_: min(v, FAST[k_]) if isinstance(v, int) and not
                                   isinstance(v, bool) else v
                                   for k_, v in params.items() if k_ in FAST}}
        if how == "set":
            _, exc = attempt(s.set_params, params, allow=PARAMS_DOOR)
        else:
            changes = params.model_dump() if isinstance(params, SearchParams) else (params or {})
            _, exc = attempt(lambda: s.update_params(**{str(x): v for x, v in changes.items()}),
                             allow=PARAMS_DOOR)
        if s.closed:
            closed_ok(s, exc)
        elif exc is None:
            self.accepted[id(s)] = must(lambda: s.params)

    @rule(k=idx, node=st.one_of(st.integers(0, 6), st.sampled_from([-1, 2**31 - 1, 2**40])),
          seat=st.sampled_from([0, 1, -1, 2, 2**40]),
          damage=st.sampled_from(["none", "nan", "negative", "zero", "pair", "repeat", "id"]),
          current=st.booleans())
    def beliefs(self, k, node, seat, damage, current):
        """A public node's belief state out, back in (as it is or damaged)
        and the root's values read: pubcfr answers or refuses with a
        message; every other search refuses (InvalidState)."""
        from sandbox.native import PublicBelief
        if not self.searches:
            return
        s = self._search(k)
        b, exc = attempt(s.node_belief, node, current)
        if s.closed:
            closed_ok(s, exc)
            return
        if exc is not None:
            assert isinstance(exc, (InvalidArgument, InvalidState)), repr(exc)
            return
        ids = [b.ids[0].copy(), b.ids[1].copy()]
        w = [b.weights[0].copy(), b.weights[1].copy()]
        pairs = b.pairs.copy()
        if damage in ("nan", "negative", "zero"):
            w[0][:] = {"nan": math.nan, "negative": -1.0, "zero": 0.0}[damage]
        elif damage == "pair":
            pairs[-1, 1] = len(ids[1]) + 3
        elif damage == "repeat":
            pairs = np.concatenate([pairs, pairs[:1]])
        elif damage == "id":
            ids[1][0] = 0xFFFFFFFF
        _, exc = attempt(s.set_beliefs, PublicBelief(ids=(ids[0], ids[1]),
                                                     weights=(w[0], w[1]), pairs=pairs))
        if damage != "none":
            assert isinstance(exc, (InvalidArgument, InvalidState)), repr(exc)
        elif exc is not None:   # another node's hands do not fit the root's round
            assert isinstance(exc, (InvalidArgument, InvalidState)), repr(exc)
        rv, exc = attempt(s.root_values, seat)
        if exc is not None:
            assert isinstance(exc, (InvalidArgument, InvalidState)), repr(exc)
        else:
            assert np.all(np.isfinite(rv.values)) and np.all(np.abs(rv.policy.sum(axis=1) - 1)
                                                             < 1e-6)

    @rule(k=idx)
    def stop(self, k):
        if self.searches:
            # between runs: harmless, open or closed (a run forgets it)
            _, exc = attempt(self._search(k).stop)
            assert exc is None

    @precondition(lambda self: len(self._open(self.games)) < MAX_OPEN_GAMES)
    @rule(k=idx)
    def root_game(self, k):
        if not self.searches:
            return
        s = self._search(k)
        g, exc = attempt(s.root_game)
        if s.closed:
            assert isinstance(exc, ClosedError), repr(exc)
        else:
            assert g.kind == s.kind and g.params == s.game_params
            self._add_game(g)

    # ------------------------------------------------------------ closing
    @rule(i=idx, twice=st.booleans())
    def close_game(self, i, twice):
        g = self._game(i)
        must(g.close)
        if twice:
            must(g.close)
        assert g.closed

    @rule(k=idx, twice=st.booleans())
    def close_search(self, k, twice):
        if not self.searches:
            return
        s = self._search(k)
        must(s.close)
        if twice:
            must(s.close)
        assert s.closed

    @invariant()
    def searches_outlive_their_games(self):
        """A search owns a copy of its root: closing games never breaks one
        (checked cheaply: a search's own root is always readable)."""
        for s in self.searches[-1:]:
            if not s.closed:
                with must(s.root_game) as g:
                    assert g.num_agents == s.num_agents


ApiMachine.TestCase.settings = fuzz_settings(20, stateful_step_count=40)
TestApiCallOrders = ApiMachine.TestCase

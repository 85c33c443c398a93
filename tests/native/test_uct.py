"""uct (uct.c): textbook sequential UCT, the untuned outside yardstick.

Each test has an oracle of its own, computed here without the C search:
the pure maxmin of a one-shot game's win/loss table (the first mover is
answered by a second mover that sees its pick); UCB1's pick recomputed by a
numpy-free bandit fed only the traced moves and returns; counting
identities of a tree that grows one node per iteration; win/loss returns
recomputed from the final state of a replayed rollout, side against side
(pods and SnakeByte teams, free-for-all snakes).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.native import Game, InvalidArgument, Search, SearchParams


def _table(rows: list[list[float]], b: list[list[float]] | None = None) -> str:
    """matrix.c's custom table: a<i> rows (and b<i>; none: zero-sum)."""
    keys = [f"rows={len(rows)} cols={len(rows[0])}"]
    keys += [f"a{i}=" + "/".join(f"{v:g}" for v in r) for i, r in enumerate(rows)]
    if b is not None:
        keys += [f"b{i}=" + "/".join(f"{v:g}" for v in r) for i, r in enumerate(b)]
    return " ".join(keys)


def _maxmin(a: list[list[float]], b: list[list[float]] | None, mover: int) -> tuple[int, set]:
    """The first mover's pure maxmin of the win/loss table sign(own - other)
    when the other player sees its pick, and the moves that reach it."""
    b = b if b is not None else [[-v for v in r] for r in a]
    rows, cols = len(a), len(a[0])
    if mover == 0:
        worst = [min(np.sign(a[i][j] - b[i][j]) for j in range(cols)) for i in range(rows)]
    else:
        worst = [min(np.sign(b[i][j] - a[i][j]) for i in range(rows)) for j in range(cols)]
    v = max(worst)
    return int(v), {m for m, w in enumerate(worst) if w == v}


def _uct(**kw) -> SearchParams:
    return SearchParams(algorithm="uct", **kw)


# ------------------------------------------------------------------ defaults


def test_uct_takes_c_2_unless_the_settings_name_one():
    assert _uct().c == 2.0
    assert SearchParams().replace(algorithm="uct").c == 2.0
    assert SearchParams(algorithm="uct", c=0.5).c == 0.5
    assert SearchParams(c=3.0).replace(algorithm="uct").c == 3.0     # set apart: kept
    assert _uct().replace(algorithm="suct").c == SearchParams().c
    with Game("matrix", "preset=rps", seed=1) as g, Search(g, _uct(), seed=1) as s:
        assert s.c_params().c == 2.0 and s.c_params().algorithm == "uct"


# ------------------------------------------------------------ maxmin oracle


RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
# row 1 never loses (ties at worst), rows 0 and 2 lose to some column
SAFE_ROW = [[1, -1, 1], [0, 1, 0], [-1, 1, 1]]
# row 2 wins against every column (zero-sum): it dominates, value +1; for
# the column player every column loses to it, value -1
DOMINANT = [[-1, 1, 0, 2], [1, -2, 1, 0], [1, 2, 3, 1]]
# prisoner's dilemma (b = a^T): on win/loss defect (row 1) never loses and
# cooperate loses to defect; win/loss compares with the other player's
# payoff, not the raw payoff a payoff-maximiser would weigh
PD_A, PD_B = [[3, 0], [5, 1]], [[3, 5], [0, 1]]


@pytest.mark.parametrize("name,a,b", [("rps", RPS, None), ("safe_row", SAFE_ROW, None),
                                      ("dominant_row", DOMINANT, None),
                                      ("prisoners_dilemma", PD_A, PD_B)])
@pytest.mark.parametrize("lead", [0, 1])
def test_first_movers_root_value_converges_to_the_pure_maxmin(name, a, b, lead):
    """One shot, the second mover sees the first's pick: the first mover's
    value is max over its moves of min over the replies of the win/loss
    table, and the move it plays reaches that maxmin."""
    value, best = _maxmin(a, b, lead)
    with Game("matrix", _table(a, b), seed=1) as g, \
            Search(g, _uct(lead=lead), seed=7) as s:
        s.run(iterations=20_000)
        rows = s.root_stats(lead)
        top = max(rows, key=lambda r: r.visits)
        assert top.move in best
        assert s.best_moves()[lead] in best
        assert abs(top.mean - value) < 0.05, (rows, value)
        root = s.snapshot(0, 1)
        assert root.visits[0] == 20_000
        # the root's value (every iteration's return) tends to it as well:
        # only the log-many explorations of worse moves pull it away
        assert abs(float(root.rows["mean"][0]) - value) < 0.15, (root.rows[0], value)


def test_a_dominant_row_is_played():
    assert _maxmin(DOMINANT, None, 0) == (1, {2})
    with Game("matrix", _table(DOMINANT), seed=1) as g, Search(g, _uct(), seed=1) as s:
        s.run(iterations=2000)
        assert s.best_moves()[0] == 2


def test_rps_every_first_move_is_lost_to_the_second_movers_reply():
    with Game("matrix", "preset=rps", seed=1) as g, Search(g, _uct(), seed=3) as s:
        s.run(iterations=20_000)
        assert all(r.mean < -0.9 for r in s.root_stats(0))
        assert all(r.mean > 0.9 for r in s.root_stats(1))    # its marginal: it always wins


def test_a_random_table_maxmin_is_found_from_either_seat():
    rng = np.random.default_rng(5)
    for _ in range(4):
        a = rng.integers(-3, 4, size=(4, 3)).astype(float).tolist()
        b = rng.integers(-3, 4, size=(4, 3)).astype(float).tolist()
        for lead in (0, 1):
            value, best = _maxmin(a, b, lead)
            with Game("matrix", _table(a, b), seed=1) as g, \
                    Search(g, _uct(lead=lead), seed=11) as s:
                s.run(iterations=20_000)
                top = max(s.root_stats(lead), key=lambda r: r.visits)
                assert top.move in best, (a, b, lead, s.root_stats(lead))
                assert abs(top.mean - value) < 0.05


# ------------------------------------------------------------- UCB1 oracle


def test_every_pick_is_ucb1_with_one_new_node_per_iteration():
    """A one-shot 3x4 game traced iteration by iteration. The oracle keeps
    its own counts and sums from the traced moves and returns: the root's
    pick is an unvisited child while there is one, else the UCB1 argmax
    (c = 2, ties: the lower move); the second mover's level is in the tree
    only below a row child visited before (one new node per iteration: a
    row picked for the first time is that node, and the column's move
    below it is a random rollout)."""
    a = [[1, -2, 0, 3], [0, 2, -1, 1], [2, 0, 1, -3]]
    c = 2.0
    n0 = [0] * 3
    w0 = [0.0] * 3
    n1 = [[0] * 4 for _ in range(3)]
    w1 = [[0.0] * 4 for _ in range(3)]

    def expect(n: list[int], w: list[float], parent: int) -> set[int]:
        fresh = {i for i, k in enumerate(n) if k == 0}
        if fresh:
            return fresh
        v = [w[i] / n[i] + c * math.sqrt(math.log(parent) / n[i]) for i in range(len(n))]
        return {int(np.argmax(v))}                            # first of the ties

    with Game("matrix", _table(a), seed=1) as g, Search(g, _uct(), seed=4) as s:
        rollouts = 0
        for it in range(3000):
            t = s.step_traced()
            assert t.depth == 1 and t.terminal
            r, col = int(t.moves[0][0]), int(t.moves[1][0])
            assert r in expect(n0, w0, it), it
            score = [float(x) for x in t.scores]
            assert set(score) <= {-1.0, 0.0, 1.0} and score[0] == -score[1]
            assert score[0] == np.sign(a[r][col] - (-a[r][col]))
            if n0[r] == 0:
                assert t.picks[1][0] == "rollout"
                rollouts += 1
            else:
                assert t.picks[1][0] == "ucb"
                assert col in expect(n1[r], w1[r], n0[r]), it
                n1[r][col] += 1
                w1[r][col] += score[1]
            n0[r] += 1
            w0[r] += score[0]
        assert rollouts == 3
        stats = {m.move: m for m in s.root_stats(0)}
        for r in range(3):
            assert stats[r].visits == n0[r]
            assert stats[r].mean == pytest.approx(w0[r] / n0[r])


# ---------------------------------------------------------------- counting


def _whole_tree(s: Search):
    n = s.stats().nodes[0]
    return s.snapshot(0, n, min_visits=0)


def test_counts_add_up_and_every_mean_is_a_win_loss_return():
    """Goofspiel 8 (no chance: descending prizes), 600 iterations: the
    root is visited once per iteration; a node's children share its visits
    but the first (the visit that added it, whose rollout started below
    it); visited nodes are exactly one per iteration; means are in [-1, 1]."""
    it = 600
    with Game("goofspiel", "num_cards=8 points_order=descending returns_type=win_loss",
              seed=1) as g, Search(g, _uct(), seed=2) as s:
        r = s.run(iterations=it)
        assert r.iterations == it
        st = s.stats()
        assert st.root_visits[0] == it and st.trees == 1 and st.node_bytes == 24
        snap = _whole_tree(s)
        assert len(snap) == st.nodes[0]
        visits, parent = snap.visits, snap.parent
        assert visits[0] == it
        means = snap.rows["mean"]
        assert np.all(means >= -1.0) and np.all(means <= 1.0)
        assert int((visits[1:] > 0).sum()) == it            # one new node per iteration
        for row in range(len(snap)):
            kids = np.flatnonzero(parent == row)
            if len(kids) == 0:
                continue
            below = int(visits[kids].sum())
            assert below == (visits[row] if row == 0 else visits[row] - 1), row
        # levels alternate between the two bidders, the lead first
        assert set(snap.mover[snap.depth == 1]) == {0}
        assert set(snap.mover[snap.depth == 2]) == {1}
        assert set(snap.mover[snap.depth == 3]) == {0}
        assert sum(m.visits for m in s.root_stats(0)) == it
        # each root child's first visit added it: the reply level below it
        # holds the rest
        first = s.root_stats(0)
        assert len(first) == 8 and all(m.visits > 0 for m in first)
        assert sum(m.visits for m in s.root_stats(1)) == it - 8


def test_no_tree_is_kept_between_turns_whatever_tree_reuse_says():
    with Game("goofspiel", "num_cards=6", seed=1) as g, \
            Search(g, _uct(tree_reuse=True), seed=2) as s:
        s.run(iterations=500)
        moves = s.best_moves()
        g.step(moves)
        s.advance(moves, new_root=g)
        st = s.stats()
        assert st.root_visits[0] == 0 and st.nodes[0] == 1


def test_rollouts_run_to_the_end_of_the_game_whatever_max_depth_says():
    with Game("goofspiel", "num_cards=10", seed=1) as g, \
            Search(g, _uct(max_depth=1), seed=2) as s:
        for _ in range(20):
            t = s.step_traced()
            assert t.depth == 10 and t.terminal


# ------------------------------------------------------------ determinism


def _first_turn(seed: int, iterations: int = 2000):
    with Game("goofspiel", "num_cards=8", seed=1) as g, Search(g, _uct(), seed=seed) as s:
        s.run(iterations=iterations)
        return s.best_moves(), [(m.move, m.visits, m.mean) for m in s.root_stats(0)]


def test_same_seed_and_iterations_same_search_another_seed_another():
    first = _first_turn(3)
    assert _first_turn(3) == first
    others = [_first_turn(seed) for seed in (4, 5, 6)]
    assert any(o[1] != first[1] for o in others)


def test_a_whole_game_is_the_same_game_for_a_seed():
    def play(seed: int) -> list[list[int]]:
        out = []
        with Game("goofspiel", "num_cards=6", seed=1) as g, \
                Search(g, _uct(), seed=seed) as s:
            while not g.is_terminal:
                s.run(iterations=300)
                m = s.best_moves()
                for a, mv in enumerate(m):
                    assert mv in g.legal_moves(a)
                out.append(m)
                g.step(m)
                s.advance(m, new_root=g)
        return out
    assert play(8) == play(8)


# ----------------------------------------------------------------- sides


def _replayed_returns(s: Search, t, side) -> list[float]:
    """Replays a traced rollout on the root state reseeded with its seed;
    win/loss of each agent's side from the final evaluation."""
    with s.root_game() as sim:
        sim.reseed(t.sim_seed)
        for d in range(t.depth):
            sim.step([int(m) if m >= 0 else None for m in t.moves[:, d]])
        assert sim.is_terminal
        score = sim.evaluate()
        n = len(score)
        out = []
        for a in range(n):
            mine = max(score[b] for b in range(n) if side(b) == side(a))
            opp = [score[b] for b in range(n) if side(b) != side(a)]
            best = max(max(score[b] for b in range(n) if side(b) == side(x)) for x in range(n)
                       if side(x) != side(a)) if opp else None
            out.append(0.0 if best is None else 1.0 if mine > best else
                       -1.0 if mine < best else 0.0)
        return out


@pytest.mark.parametrize("kind,params,side", [
    ("snakes", "ruleset=snakebyte map_seed=1 height=14 snakes_per_player=2 max_turns=30",
     lambda a: a // 2),
    ("pods", "players=2 pods_per_player=2 max_turns=25", lambda a: a // 2),
    ("snakes", "snakes=3 width=7 height=7 max_turns=40", lambda a: a),
])
def test_returns_are_win_loss_of_the_side_from_the_final_scores(kind, params, side):
    with Game(kind, params, seed=3) as g, Search(g, _uct(), seed=5) as s:
        s.run(iterations=50)
        seen = set()
        for _ in range(25):
            t = s.step_traced()
            assert t.terminal
            got = [float(x) for x in t.scores]
            assert got == _replayed_returns(s, t, side), (t.depth, got)
            seen.update(got)
        assert seen <= {-1.0, 0.0, 1.0}
        if side(1) == side(0):           # team mates win and lose together
            assert all(m in g.legal_moves(a) for a, m in enumerate(s.best_moves()))


def test_a_one_side_game_has_nothing_to_win():
    with Game("depthbias", None, seed=1) as g, Search(g, _uct(), seed=1) as s:
        for _ in range(10):
            assert list(s.step_traced().scores) == [0.0]


# ------------------------------------------------------------- bad input


def test_a_lead_past_the_agents_is_refused_with_a_message():
    with Game("matrix", "preset=rps", seed=1) as g:
        with pytest.raises(InvalidArgument, match=r"lead: agent 2 .*UCT"):
            Search(g, _uct(lead=2), seed=1)
        with Search(g, _uct(), seed=1) as s:
            with pytest.raises(InvalidArgument, match="lead"):
                s.set_params(_uct(lead=5))
            assert s.c_params().lead == -1


def test_a_full_arena_stops_the_search_and_keeps_its_moves_legal():
    with Game("goofspiel", "num_cards=13", seed=1) as g, \
            Search(g, _uct(node_cap=1024), seed=2) as s:
        r = s.run(iterations=100_000)
        assert r.stop_reason == "node_cap" and s.stats().cap_reached
        assert s.stats().nodes[0] <= 1024
        for a, m in enumerate(s.best_moves()):
            assert m in g.legal_moves(a)


def test_a_time_budget_and_a_stop_work_as_for_every_algorithm():
    with Game("goofspiel", "num_cards=13", seed=1) as g, Search(g, _uct(), seed=2) as s:
        r = s.run(ms=20)
        assert r.stop_reason == "time" and r.iterations > 0
        assert s.stats().root_visits[0] == r.iterations

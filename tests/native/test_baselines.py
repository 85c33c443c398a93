"""The baselines behind the search API: Sequential UCT (suct.c),
joint-action MCTS (joint.c), uniform random (random.c) and greedy one-ply
(greedy.c), next to Smitsimax.

First a contract over every algorithm x every registered game (whole games
played with the searches' own best moves, reuse, reset, hot-swaps); then one
independent oracle per algorithm: the leak of SUCT on rock-paper-scissors
(the second mover counters each first move), a joint-action root recounted
by hand from the snapshot, greedy's best move computed by hand (row means
against a uniform opponent; the snake that does not hit the wall), random's
frequencies against uniform.
"""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.games import plugins
from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.native.params import ALGORITHM

ALGORITHMS = tuple(ALGORITHM)
BASELINES = ("suct", "joint", "random", "greedy", "uct", "gtcfr")
CASES = [(p.kind, i, p.c_params(ex)) for p in plugins() for i, ex in enumerate(p.examples)]
SMALL = SearchParams(node_cap=1 << 15, max_depth=6)


def _search(game: Game, algorithm: str, seed: int = 5, **kw) -> Search | None:
    """A search of `algorithm`, or None where C refuses it for the game
    (only joint-action MCTS on too many joint actions, MCGS or GT-CFR
    on a game without two players, pubcfr on a game without two players, a
    public/private split or a fixed chance-free course, and every search
    that would see hidden information may be refused). On a hidden-information game the search
    plays for seat 0 (its information), as a controller would set it."""
    if game.hidden_info:
        kw.setdefault("info_seat", 0)
    try:
        return Search(game, SMALL.replace(algorithm=algorithm, **kw), seed=seed)
    except InvalidArgument as exc:
        if algorithm == "pubcfr":
            # two players, a game with a public/private split, no chance
            assert any(w in str(exc) for w in ("two-player", "public and private",
                                               "fixed prize order")), str(exc)
            return None
        if game.hidden_info and algorithm not in ("smitsimax", "random"):
            assert "hidden information" in str(exc), str(exc)
            return None
        if algorithm in ("mcgs", "gtcfr"):
            assert "two-player" in str(exc) and game.num_agents != 2, str(exc)
            return None
        assert algorithm == "joint" and "joint action" in str(exc), str(exc)
        assert game.num_agents >= 4
        return None


def _play(kind: str, params: str, algorithm: str, seed: int, turns: int = 12,
          swap_at: int | None = None, reset_at: int | None = None) -> list[list[int | None]]:
    """A game played with the search's best moves for every agent; checks
    every move is legal and the stats stay consistent. Returns the joints."""
    joints = []
    with Game(kind, params, seed=seed) as g:
        s = _search(g, algorithm, seed)
        if s is None:
            return []
        with s:
            for t in range(turns):
                if g.is_terminal:
                    break
                if t == reset_at:
                    s.reset(g)
                if t == swap_at:
                    if g.hidden_info:     # only the searches that do not peek
                        other = "random" if algorithm != "random" else "smitsimax"
                    else:
                        other = "greedy" if algorithm != "greedy" else "suct"
                    s.run(iterations=3)             # the turn has begun ...
                    s.update_params(algorithm=other)
                    assert s.stats().algorithm == algorithm   # ... so it waits
                s.run(iterations=60)
                trace = s.step_traced()
                assert trace.stop_reason in ("none", "node_cap")
                best = s.best_moves()
                summary = s.summary()
                assert list(summary.best_moves) == best
                for a in range(g.num_agents):
                    legal = g.legal_moves(a)
                    rows = s.root_stats(a)
                    if g.hidden_info and a != 0:
                        # the opponent's tree grew over sampled hands: its root
                        # and best move are cards seat 0 believes it may hold;
                        # the opponent plays its own first legal card here
                        assert rows
                        best[a] = legal[0] if legal else None
                    else:
                        assert (best[a] is None) == (not legal), (t, a, best, legal)
                        assert best[a] is None or best[a] in legal
                        assert all(r.move in legal or (r.move == -1 and not legal)
                                   for r in rows)
                    snap = s.snapshot(a, 40)
                    assert snap.parent[0] == -1 and len(snap) >= 1
                g.step(best)
                joints.append(best)
                s.advance(best, new_root=g)
                if swap_at is not None and t == swap_at:
                    assert s.stats().algorithm == other   # the next turn's
    return joints


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("kind,example,params", CASES)
def test_every_algorithm_plays_every_game_legally_and_deterministically(
        algorithm, kind, example, params):
    first = _play(kind, params, algorithm, seed=11)
    assert first == _play(kind, params, algorithm, seed=11)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("kind,example,params", CASES[::2])
def test_reset_and_a_hot_swap_mid_game_never_break_a_game(algorithm, kind, example, params):
    _play(kind, params, algorithm, seed=3, turns=8, swap_at=2, reset_at=5)


@pytest.mark.parametrize("algorithm", BASELINES)
def test_stats_name_the_algorithm_and_its_trees(algorithm):
    with Game("snakes", "width=7 height=7 snakes=2", seed=2) as g, \
            Search(g, SMALL.replace(algorithm=algorithm), seed=1) as s:
        s.run(iterations=50)
        st = s.stats()
        assert st.algorithm == algorithm
        assert st.trees == {"suct": 1, "joint": 1, "random": 0, "greedy": 0, "uct": 1,
                             "gtcfr": 1}[algorithm]
        if algorithm == "suct":
            assert st.node_bytes == 32    # total + sum of squares (UCB1-Tuned)
        if algorithm == "joint":
            assert st.node_bytes == 24 + 8 * 2     # fixed part + a total per agent
        if algorithm == "uct":
            assert st.node_bytes == 24             # a total, no sum of squares
        if algorithm == "gtcfr":
            assert st.node_bytes == 80             # the statistics live in a pool
            assert st.edge_bytes > 0               # ... reported as edge bytes


def test_joint_action_mcts_refuses_too_many_joint_actions_with_a_message():
    with Game("snakes", "width=25 height=9 snakes=8", seed=1) as g:
        with pytest.raises(InvalidArgument, match="joint action.*4096"):
            Search(g, SearchParams(algorithm="joint"), seed=1)
        with Search(g, SearchParams(), seed=1) as s:
            with pytest.raises(InvalidArgument, match="joint action"):
                s.set_params(SearchParams(algorithm="joint"))
            with pytest.raises(InvalidArgument, match="joint action"):
                s.check_params(SearchParams(algorithm="joint"))
            assert s.c_params().algorithm == "smitsimax"


def test_node_cap_is_judged_by_each_algorithms_own_worst_iteration():
    # 4 snakes, depth 10: SUCT expands a level per agent per turn (10*4*4+1),
    # joint-action MCTS a 4^4 block per turn (10*256+1), Smitsimax 10*5+1
    with Game("snakes", "snakes=4", seed=1) as g, Search(g, SearchParams(), seed=1) as s:
        base = SearchParams(max_depth=10, node_cap=1024)
        s.check_params(base)
        s.check_params(base.replace(algorithm="suct"))
        with pytest.raises(InvalidArgument, match=r"node_cap: 1024 .*joint.*2561"):
            s.check_params(base.replace(algorithm="joint"))
        s.check_params(base.replace(algorithm="joint", rollout=True))   # one block: 257
        with pytest.raises(InvalidArgument, match=r"node_cap: 1024 .*suct.*1025"):
            s.check_params(base.replace(algorithm="suct", max_depth=64))   # 64*4*4+1


@pytest.mark.parametrize("algorithm", ["suct", "joint"])
def test_a_full_arena_stops_the_search_and_keeps_its_moves_legal(algorithm):
    with Game("snakes", "width=7 height=7 snakes=2", seed=4) as g, \
            Search(g, SearchParams(algorithm=algorithm, node_cap=1024, max_depth=8), seed=2) as s:
        r = s.run(iterations=100_000)
        assert r.stop_reason == "node_cap" and s.stats().cap_reached
        assert s.stats().nodes[0] <= 1024
        for a, m in enumerate(s.best_moves()):
            assert m in g.legal_moves(a)


# ----------------------------------------------------------------- SUCT


RPS = "preset=rps"
COUNTER = {0: 1, 1: 2, 2: 0}          # rock <- paper, paper <- scissors, scissors <- rock


@pytest.mark.parametrize("lead", [0, 1])
def test_suct_leaks_the_first_movers_move_to_the_second(lead):
    """Rock-paper-scissors, depth 1, agent `lead` serialised first. Under
    each of the first mover's moves the second mover's most visited reply is
    its counter (tutorial §4: it sees the throw), so its marginal wins (mean
    near +1) while every first move looks lost (mean near -1); a decoupled
    search of the same game has no such split."""
    second = 1 - lead
    with Game("matrix", RPS, seed=1) as g, \
            Search(g, SearchParams(algorithm="suct", lead=lead, max_depth=1, c=0.7),
                   seed=3) as s:
        s.run(iterations=6000)
        snap = s.snapshot(0, 100)
        assert snap.mover[0] == -1
        assert set(snap.mover[snap.depth == 1]) == {lead}
        assert set(snap.mover[snap.depth == 2]) == {second}
        for row in np.flatnonzero(snap.depth == 1):
            kids = np.flatnonzero(snap.parent == row)
            top = kids[np.argmax(snap.visits[kids])]
            assert snap.move[top] == COUNTER[int(snap.move[row])]
            assert snap.visits[top] > 0.8 * snap.visits[kids].sum()
        first = s.root_stats(lead)
        assert len(first) == 3 and all(r.mean < -0.6 for r in first)
        marginal = s.root_stats(second)
        visits = sum(r.visits for r in marginal)
        assert visits == sum(r.visits for r in first)
        wins = sum(r.mean * r.visits for r in marginal) / visits
        assert wins > 0.8
    with Game("matrix", RPS, seed=1) as g, \
            Search(g, SearchParams(max_depth=1), seed=3) as s:   # smitsimax: no peeking
        s.run(iterations=6000)
        for a in (0, 1):
            assert all(abs(r.mean) < 0.5 for r in s.root_stats(a))


def test_suct_marginal_is_a_recount_of_the_second_movers_first_level():
    with Game("matrix", RPS, seed=1) as g, \
            Search(g, SearchParams(algorithm="suct", max_depth=1), seed=9) as s:
        s.run(iterations=500)
        snap = s.snapshot(0, 100, min_visits=0)
        level = snap.depth == 2
        for r in s.root_stats(1):
            mine = level & (snap.move == r.move)
            assert r.visits == snap.visits[mine].sum()
            total = (snap.mean[mine].astype(float) * snap.visits[mine]).sum()
            assert r.mean == pytest.approx(total / r.visits, rel=1e-5, abs=1e-6)


def test_suct_trace_holds_one_path_with_a_node_per_agent_per_turn():
    with Game("goofspiel", "num_cards=6 players=3", seed=1) as g, \
            Search(g, SearchParams(algorithm="suct", lead=2, max_depth=5,
                                   random_threshold=0), seed=2) as s:
        s.run(iterations=3000)
        t = s.step_traced()
        path = t.paths[0]
        assert all(len(p) == 0 for p in t.paths[1:])
        assert len(path) == 1 + 3 * t.depth        # in the tree all the way
        snap = s.snapshot(0, 4000, min_visits=0)
        order = {int(n): i for i, n in enumerate(snap.node)}
        movers = [int(snap.mover[order[n]]) for n in path[1:] if n in order]
        assert movers[:6] == [2, 0, 1, 2, 0, 1]
        for a in range(3):
            assert all(p in ("random", "ucb") for p in t.picks[a])


def test_suct_with_more_levels_than_a_trace_row_reads_its_whole_path():
    # 8 snakes x 10 turns = 80 levels: longer than one sbx_trace path row
    with Game("snakes", "width=25 height=9 snakes=8 food_spawn_chance=0", seed=1) as g, \
            Search(g, SearchParams(algorithm="suct", max_depth=10), seed=2) as s:
        for _ in range(3):
            t = s.step_traced()
            assert len(t.paths[0]) <= 1 + 8 * t.depth
            assert t.paths[0][0] == 0 and len(set(t.paths[0])) == len(t.paths[0])


def test_suct_lead_past_the_agents_is_refused():
    with Game("matrix", RPS, seed=1) as g:
        with pytest.raises(InvalidArgument, match="lead: agent 2"):
            Search(g, SearchParams(algorithm="suct", lead=2), seed=1)
        Search(g, SearchParams(lead=2), seed=1).close()   # smitsimax ignores it


# ----------------------------------------------------------------- joint


TINY = "rows=2 cols=3 a0=3/0/1 a1=5/1/0 b0=3/5/2 b1=0/2/4"


def test_joint_root_has_a_child_per_joint_action_and_marginals_recount_it():
    with Game("matrix", TINY, seed=1) as g, \
            Search(g, SearchParams(algorithm="joint", max_depth=1), seed=4) as s:
        s.run(iterations=700)
        for agent in (0, 1):
            snap = s.snapshot(agent, 100, min_visits=0)
            kids = np.flatnonzero(snap.parent == 0)
            assert len(kids) == 2 * 3
            assert {tuple(snap.joint[k][:2]) for k in kids} == {
                (r, c) for r in range(2) for c in range(3)}
            assert (snap.mover == -1).all()
            assert (snap.move[kids] == snap.joint[kids, agent]).all()
            assert snap.visits[kids].sum() == 700
            rows = s.root_stats(agent)
            assert [r.move for r in rows] == list(range(2 if agent == 0 else 3))
            for r in rows:
                mine = kids[snap.joint[kids, agent] == r.move]
                assert r.visits == snap.visits[mine].sum()
                total = (snap.mean[mine].astype(float) * snap.visits[mine]).sum()
                assert r.mean == pytest.approx(total / r.visits, rel=1e-5)
                assert r.prob == pytest.approx(r.visits / 700)
            best = max(rows, key=lambda r: (r.visits, r.mean))
            assert s.best_moves()[agent] == best.move
        # a leaf's mean is its payoff, exactly: (row 1, col 0) pays a=5, b=0
        snap = s.snapshot(0, 100, min_visits=0)
        k = [i for i in range(len(snap)) if snap.depth[i] == 1 and
             tuple(snap.joint[i][:2]) == (1, 0)][0]
        assert snap.mean[k] == pytest.approx(5.0)
        assert s.snapshot(1, 100, min_visits=0).mean[k] == pytest.approx(0.0)


def test_joint_tree_reuse_keeps_the_joint_child_played():
    with Game("goofspiel", "num_cards=5", seed=1) as g, \
            Search(g, SearchParams(algorithm="joint", max_depth=5), seed=4) as s:
        s.run(iterations=2000)
        snap = s.snapshot(0, 100, min_visits=0)
        played = [2, 4]
        k = [i for i in range(len(snap)) if snap.depth[i] == 1 and
             list(snap.joint[i][:2]) == played][0]
        kept = int(snap.visits[k])
        g.step(played)
        s.advance(played, new_root=g)
        assert s.stats().root_visits[0] == sum(r.visits for r in s.root_stats(0))
        assert 0 < s.stats().root_visits[0] <= kept
        t = s.step_traced()
        assert len(t.paths[0]) >= 2 and t.paths[1] == ()


# ----------------------------------------------------------------- greedy


def test_greedy_plays_the_best_row_against_a_uniform_opponent():
    """Row means against a uniform column: a = (4/3, 2) -> row 1; column
    means against a uniform row: b = (1.5, 3.5, 3) -> column 1."""
    with Game("matrix", TINY, seed=1) as g, \
            Search(g, SearchParams(algorithm="greedy"), seed=7) as s:
        s.run(iterations=3000)
        assert s.best_moves() == [1, 1]
        rows = s.root_stats(0)
        assert [r.mean for r in rows] == pytest.approx([4 / 3, 2.0], abs=0.15)
        assert [r.policy for r in rows] == [0.0, 1.0]
        assert sum(r.visits for r in rows) == 3000
        cols = s.root_stats(1)
        assert [r.mean for r in cols] == pytest.approx([1.5, 3.5, 3.0], abs=0.25)
        assert [r.policy for r in cols] == [0.0, 1.0, 0.0]


def test_greedy_never_steers_a_snake_into_a_wall_when_it_can_live():
    """One snake, random positions: a move's immediate death is found by
    stepping a copy of the game (the rules, not the search)."""
    checked = 0
    with Game("snakes", "width=5 height=5 snakes=1 max_turns=80", seed=3) as g, \
            Search(g, SearchParams(algorithm="greedy"), seed=1) as s:
        while not g.is_terminal:
            s.run(iterations=200)
            move = s.best_moves()[0]
            lives = []
            for m in g.legal_moves(0):
                with g.clone() as c:
                    c.step([m])
                    lives.append(m) if c.is_alive(0) else None
            if lives and len(lives) < 4:
                assert move in lives
                checked += 1
            g.step([move])
            s.advance([move], new_root=g)
    assert checked >= 5


# ----------------------------------------------------------------- random


def test_random_is_uniform_deterministic_and_ignores_how_often_it_is_asked():
    def play(seed, ask):
        counts = np.zeros((2, 3), int)
        seq = []
        with Game("matrix", "preset=rps repeats=600", seed=1) as g, \
                Search(g, SearchParams(algorithm="random"), seed=seed) as s:
            while not g.is_terminal:
                for _ in range(ask):
                    s.run(iterations=3)
                    m = s.best_moves()
                m = s.best_moves()
                rows = s.root_stats(0)
                assert [r.policy for r in rows] == pytest.approx([1 / 3] * 3)
                assert all(r.visits == 0 for r in rows)
                seq.append(tuple(m))
                counts[0, m[0]] += 1
                counts[1, m[1]] += 1
                g.step(m)
                s.advance(m, new_root=g)
        return counts, seq
    counts, seq = play(5, 1)
    # 600 draws over 3 moves: 200 each, sd ~11.5; 5 sd
    assert (abs(counts - 200) < 58).all(), counts
    assert play(5, 3)[1] == seq                     # asked three times a turn
    assert play(6, 1)[1] != seq
    # every joint action turns up
    assert len(set(seq)) == 9


# ----------------------------------------------------------------- chance


STARVING = "width=7 height=7 snakes=3 max_health=5 food_spawn_chance=50 max_turns=60"


@pytest.mark.parametrize("algorithm", ["suct", "joint", "greedy", "smitsimax"])
def test_traced_iterations_replay_through_the_checked_rules(algorithm):
    """Snakes that starve unless chance puts food near them: a stored node's
    moves (or a pass) disagree with many simulated states. Every traced
    iteration is replayed through Game.step, which refuses an illegal move
    or a missing one for a live snake: the search never played one."""
    replayed = 0
    with Game("snakes", STARVING, seed=8) as g, \
            Search(g, SearchParams(algorithm=algorithm, max_depth=8, random_threshold=2),
                   seed=3) as s:
        while not g.is_terminal:
            s.run(iterations=150)
            for _ in range(4):
                t = s.step_traced()
                with s.root_game() as sim:
                    sim.reseed(t.sim_seed)
                    for d in range(t.depth):
                        joint = [int(m) if m >= 0 else None for m in t.moves[:, d]]
                        for a in range(3):
                            assert (joint[a] is None) == (not sim.is_alive(a)), (d, a)
                        sim.step(joint)
                        assert list(t.alive_after[:, d]) == [
                            sim.is_alive(a) for a in range(3)]
                    assert sim.is_terminal == t.terminal
                    replayed += 1
            best = s.best_moves()
            g.step(best)
            s.advance(best, new_root=g)
    assert replayed >= 8


@pytest.mark.parametrize("algorithm", ["suct", "joint"])
def test_a_kept_tree_that_disagrees_with_the_state_is_left_not_followed(algorithm):
    """advance() with a new root the joint does not lead to: the tree is
    kept along [card 1, card 3] but the real column player threw card 4, so
    its hand still holds 3 and lacks 4. Stored levels below that disagree
    with every simulated state; an iteration must leave the tree there (the
    cards stored would be illegal now). Replayed through the checked rules."""
    with Game("goofspiel", "num_cards=5", seed=1) as g, \
            Search(g, SearchParams(algorithm=algorithm, max_depth=5, random_threshold=0),
                   seed=2) as s:
        s.run(iterations=4000)
        g.step([0, 3])
        s.advance([0, 2], new_root=g)
        if algorithm == "joint":
            # a joint root's children hold every agent's moves: the re-root
            # checks them all against the new root and starts afresh
            assert s.stats().root_visits[0] == 0 and s.stats().nodes[0] == 1
            s.run(iterations=100)
            for a, m in enumerate(s.best_moves()):
                assert m in g.legal_moves(a)
            return
        assert s.stats().root_visits[0] > 0           # SUCT kept the lead's level
        left = 0
        for _ in range(200):
            t = s.step_traced()
            with s.root_game() as sim:
                sim.reseed(t.sim_seed)
                for d in range(t.depth):
                    sim.step([int(m) for m in t.moves[:, d]])   # refuses a card not in hand
            left += "rollout" in t.picks[1]
        assert left > 0
        for a, m in enumerate(s.best_moves()):
            assert m in g.legal_moves(a)


def test_suct_ucb1_tuned_picks_recomputed_from_the_trace():
    """SUCT with policy=ucb1_tuned: every UCB pick of both levels of a
    one-shot game predicted by an independent numpy bandit fed only the
    traced moves and scores (counts, sums and sums of squares per node,
    each mover's running bounds), with Auer et al.'s formula; and the run
    differs from plain UCB1's."""
    params = SearchParams(algorithm="suct", policy="ucb1_tuned", max_depth=1, tree_reuse=False,
                          random_threshold=4, c=1.0)
    g = Game("matrix", {"preset": "biased_rps"}, seed=1)
    s = Search(g, params, seed=7)
    n = np.zeros((4, 3))          # row 0: lead's children; row 1 + r: agent 1 under lead move r
    tot, sq = np.zeros((4, 3)), np.zeros((4, 3))
    lo, hi = [np.inf, np.inf], [-np.inf, -np.inf]
    root_visits, checked = 0, 0

    def predict(row: int, parent_visits: int, agent: int) -> int:
        if (n[row] == 0).any():
            return int(np.argmax(n[row] == 0))
        lo_a, scale = lo[agent], hi[agent] - lo[agent]
        if not scale > 0:
            scale, lo_a = 1.0, (lo_a if lo_a <= hi[agent] else 0.0)
        ln_n = np.log(parent_visits)
        mean = tot[row] / n[row]
        var = np.maximum(sq[row] / n[row] - mean * mean, 0.0)
        vb = np.minimum(var / scale**2 + np.sqrt(2 * ln_n / n[row]), 0.25)
        return int(np.argmax((mean - lo_a) / scale + params.c * np.sqrt(ln_n / n[row] * vb)))

    moves_seen = []
    for _ in range(600):
        t = s.step_traced()
        r, c = int(t.moves[0][0]), int(t.moves[1][0])
        moves_seen.append((r, c))
        root_visits += 1
        if t.picks[0][0] == "ucb":
            assert r == predict(0, root_visits, 0)
            checked += 1
        if t.picks[1][0] == "ucb":
            assert c == predict(1 + r, int(n[0, r]) + 1, 1)
            checked += 1
        n[0, r] += 1
        n[1 + r, c] += 1
        for row, col, a in ((0, r, 0), (1 + r, c, 1)):
            v = float(t.scores[a])
            tot[row, col] += v
            sq[row, col] += v * v
        for a in (0, 1):
            lo[a], hi[a] = min(lo[a], float(t.scores[a])), max(hi[a], float(t.scores[a]))
    assert checked > 1000
    s2 = Search(g, params.replace(policy="ucb1"), seed=7)
    plain = []
    for _ in range(600):
        t = s2.step_traced()
        plain.append((int(t.moves[0][0]), int(t.moves[1][0])))
    assert plain != moves_seen

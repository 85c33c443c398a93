"""Joint-action MCTS and Smitsimax with priors: decoupled PUCT, one prior
per agent.

The oracles are independent of the C searches: the net's own forward pass
(Net.evaluate) for priors=net, MCGS's heuristic priors (its own softmax of
the maze's move scores, mcgs_graph.c) for priors=heuristic, and the PUCT
rule recomputed in Python from the root's statistics before each traced
iteration."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from sandbox.native import InvalidArgument
from sandbox.native import Game, Search, SearchParams
from sandbox.native.net import load_net

NET = Path(__file__).resolve().parents[2] / "assets" / "nets" / "goofspiel5.sbxnet"
GOOF5 = "num_cards=5,points_order=descending,returns_type=win_loss"


def softmax(z):
    z = np.asarray(z, dtype=float)
    e = np.exp(z - z.max())
    return e / e.sum()


def test_net_priors_are_the_policy_heads_softmax_over_the_legal_moves():
    """Each agent's root prior is its policy head's softmax over its legal
    moves (the joint children hold products; their sums give it back), not
    uniform, and after a turn the new root's priors are the new state's."""
    game = Game("goofspiel", GOOF5, seed=1)
    net = load_net(NET)
    for turn in range(2):
        _, logits = net.evaluate([game])
        params = SearchParams(algorithm="joint", value_net=str(NET), priors="net", max_depth=2)
        with Search(game, params, seed=3) as s:
            s.run(iterations=50)
            m = s.root_matrix()
        for a in range(2):
            legal = [int(x) for x in game.legal_moves(a)]
            assert list(m.moves[a]) == legal
            want = softmax(logits[0, a, legal])
            assert m.priors[a] == pytest.approx(want, abs=1e-6)
            assert abs(m.priors[a] - 1.0 / len(legal)).max() > 0.01   # not uniform
        game.step([int(game.legal_moves(0)[turn]), int(game.legal_moves(1)[0])])


def test_heuristic_priors_match_mcgs_on_the_maze():
    """The maze's move scores (minus the turns to the nearest cheese) through
    a softmax at the same temperature: MCGS computes them in its own code,
    per outcome. Moves into a wall all stay put, one outcome whose prior is
    the sum of theirs; they score alike, so each outcome's prior is a whole
    number of its representative move's prior under joint, and the numbers
    add up to the moves."""
    game = Game("maze", {"size": "tiny"}, seed=4)
    for temp in (0.5, 2.0):
        rows = {}
        for alg in ("joint", "mcgs"):
            p = SearchParams(algorithm=alg, priors="heuristic", prior_temperature=temp,
                             max_depth=4)
            with Search(game, p, seed=1) as s:
                s.run(iterations=20)
                rows[alg] = s.root_matrix()
        j, g = rows["joint"], rows["mcgs"]
        for a in range(2):
            assert j.priors[a].sum() == pytest.approx(1.0, abs=1e-6)
            assert float(np.ptp(j.priors[a])) > 0.05   # the scores do rank the moves
            counts = []
            for o, move in enumerate(g.moves[a]):
                ratio = g.priors[a][o] / j.priors[a][list(j.moves[a]).index(move)]
                assert ratio == pytest.approx(round(ratio), abs=1e-4) and round(ratio) >= 1
                counts.append(round(ratio))
            assert sum(counts) == len(j.moves[a])


def _puct_pick(visits, means, prior, lo, hi, c_puct, fpu_offset):
    """The decoupled PUCT rule, as docs/algorithms.md states it."""
    scale = hi - lo
    if not scale > 0:
        scale = 1.0
        if not lo <= hi:
            lo = 0.0
    n = int(visits.sum())
    fpu = ((sum(float(m) * int(v) for m, v in zip(means, visits) if v) / n - lo) / scale
           - fpu_offset) if n else 0.0
    u = c_puct * math.sqrt(max(n, 1))
    scores = [((means[i] - lo) / scale if visits[i] else fpu) + u * prior[i] / (1 + visits[i])
              for i in range(len(visits))]
    order = sorted(scores, reverse=True)
    tie = len(order) > 1 and order[0] - order[1] < 1e-9
    return int(np.argmax(scores)), tie


def _net_priors(game):
    _, logits = load_net(NET).evaluate([game])
    out = []
    for a in range(2):
        legal = [int(x) for x in game.legal_moves(a)]
        out.append(dict(zip(legal, softmax(logits[0, a, legal]))))
    return out


def _check_puct_picks(s, priors, iterations, c_puct, fpu, agents=(0, 1)):
    """Replays `iterations` traced iterations of s against the rule: before
    each, every agent's root statistics (moves, visits, means), the score
    bounds of the last trace and `priors` (move -> prior) give its pick.
    Returns the picks compared (near-ties skipped)."""
    compared = 0
    tr = s.step_traced()
    for _ in range(iterations):
        lo, hi = tr.norm_min.copy(), tr.norm_max.copy()
        want = {}
        for a in agents:
            st = s.root_stats(a)
            visits = np.array([m.visits for m in st])
            means = np.array([m.mean for m in st])
            prior = np.array([priors[a][m.move] for m in st])
            pick, tie = _puct_pick(visits, means, prior, lo[a], hi[a], c_puct, fpu)
            want[a] = (st[pick].move, tie)
        tr = s.step_traced()
        for a in agents:
            move, tie = want[a]
            if not tie:
                assert tr.moves[a][0] == move
                compared += 1
    return compared


@pytest.mark.parametrize("algorithm", ["joint", "smitsimax", "suct"])
@pytest.mark.parametrize("c_puct,fpu", [(1.5, 0.1), (0.4, 0.0), (3.0, 0.5)])
def test_each_agent_picks_by_decoupled_puct(algorithm, c_puct, fpu):
    """Before every traced iteration the root's statistics, the net's priors
    (its own forward pass) and the score bounds give each agent's PUCT
    pick; the iteration's first move must be it. SUCT: the first mover's
    (the root's children are its moves; the second mover chooses below
    the first's pick)."""
    game = Game("goofspiel", GOOF5, seed=1)
    # Smitsimax and SUCT skip the random warm-up with priors (a threshold
    # of 50 must change nothing); joint keeps it, so 0 there
    warm = 0 if algorithm == "joint" else 50
    params = SearchParams(algorithm=algorithm, value_net=str(NET), priors="net", max_depth=3,
                          random_threshold=warm, c_puct=c_puct, fpu_offset=fpu)
    agents = (0,) if algorithm == "suct" else (0, 1)
    with Search(game, params, seed=7) as s:
        assert _check_puct_picks(s, _net_priors(game), 300, c_puct, fpu,
                                 agents) >= 250 * len(agents)


def test_smitsimax_priors_move_with_the_tree_it_keeps():
    """Smitsimax's priors live beside its nodes and must follow them when the
    tree is re-rooted on the move played. A kept child's prior came from the
    state the node was expanded in, which the other player's move of that
    iteration decided: so the picks at the new root must follow the net's
    priors at one of the states after (played move, some other move)."""
    game = Game("goofspiel", GOOF5, seed=1)
    params = SearchParams(algorithm="smitsimax", value_net=str(NET), priors="net", max_depth=3,
                          random_threshold=0)
    with Search(game, params, seed=11) as s:
        s.run(iterations=3000)
        joint = [int(m) for m in s.best_moves()]
        game.step(joint)
        s.advance(joint)
        assert s.stats().root_visits[0] > 0          # the subtree was kept
        candidates = []
        for other in Game("goofspiel", GOOF5, seed=1).legal_moves(1):
            g = Game("goofspiel", GOOF5, seed=1)
            g.step([joint[0], int(other)])
            candidates.append(_net_priors(g)[0])
        # replay agent 0's picks against each candidate; one must fit them all
        ok = [True] * len(candidates)
        tr = s.step_traced()
        for _ in range(200):
            lo, hi = tr.norm_min[0], tr.norm_max[0]
            st = s.root_stats(0)
            visits = np.array([m.visits for m in st])
            means = np.array([m.mean for m in st])
            picks = []
            for pri in candidates:
                prior = np.array([pri[m.move] for m in st])
                picks.append(_puct_pick(visits, means, prior, lo, hi, 1.5, 0.1))
            tr = s.step_traced()
            for j, (pick, tie) in enumerate(picks):
                if not tie and tr.moves[0][0] != st[pick].move:
                    ok[j] = False
        assert any(ok)


def test_priors_steer_the_visits_and_uniform_keeps_ucb1():
    """With the net's priors the root's visits follow them at a small
    budget; priors=uniform is the UCB1 search it always was (its visits do
    not depend on c_puct)."""
    game = Game("goofspiel", GOOF5, seed=1)
    net = load_net(NET)
    _, logits = net.evaluate([game])
    legal = [int(x) for x in game.legal_moves(0)]
    top = legal[int(np.argmax(logits[0, 0, legal]))]
    base = SearchParams(algorithm="joint", value_net=str(NET), max_depth=1, rollout=False)
    with Search(game, base.model_copy(update={"priors": "net"}), seed=2) as s:
        s.run(iterations=200)
        m = s.root_matrix()
    share = m.marginal_visits[0][list(m.moves[0]).index(top)] / m.marginal_visits[0].sum()
    assert share > 0.5
    seen = []
    for c_puct in (0.5, 4.0):
        with Search(game, base.model_copy(update={"c_puct": c_puct}), seed=2) as s:
            s.run(iterations=200)
            seen.append(s.root_matrix().marginal_visits[0].tolist())
    assert seen[0] == seen[1]


@pytest.mark.parametrize("algorithm", ["joint", "suct", "smitsimax"])
def test_a_change_of_priors_starts_afresh_and_heuristic_needs_move_scores(algorithm):
    """Priors are set when a node is expanded: a change of them starts the
    tree afresh (the temperature only where heuristic priors read it).
    Heuristic priors need the game's move scores (goofspiel has none)."""
    game = Game("goofspiel", GOOF5, seed=1)
    with pytest.raises(InvalidArgument, match="move scores"):
        Search(game, SearchParams(algorithm=algorithm, priors="heuristic"), seed=1)
    with Search(game, SearchParams(algorithm=algorithm, value_net=str(NET), max_depth=2),
                seed=5) as s:
        s.run(iterations=300)
        s.update_params(priors="net")
        s.run(iterations=100)
        assert s.stats().root_visits[0] == 100
        s.update_params(prior_temperature=3.0)   # read by heuristic priors only: kept
        s.run(iterations=50)
        assert s.stats().root_visits[0] == 150


def test_smitsimax_priors_refusals_memory_and_root_parallelism():
    """Priors make Smitsimax's UCB1 a PUCT: other policies and the shared-
    tree parallel modes are refused in one line, in Python and in C; the
    prior costs the side array's bytes; root parallelism's one thread is
    the serial search."""
    for bad, words in [({"policy": "exp3"}, "policy ucb1 only"),
                       ({"policy": "ucb1_tuned"}, "policy ucb1 only"),
                       ({"parallel": "wu_uct", "threads": 1}, "parallel serial or root")]:
        with pytest.raises(ValueError, match=words):
            SearchParams(algorithm="smitsimax", priors="net", **bad)
    game = Game("goofspiel", GOOF5, seed=1)
    one = SearchParams(algorithm="smitsimax", value_net=str(NET), priors="net", max_depth=3)
    with Search(game, one.model_copy(update={"priors": "uniform"}), seed=4) as s:
        assert s.stats().node_bytes == 32
    runs = []
    for p in (one, one.model_copy(update={"parallel": "root", "threads": 1})):
        with Search(game, p, seed=4) as s:
            s.run(iterations=500)
            assert s.stats().node_bytes == 48   # the prior sits in the side array
            runs.append([(m.move, m.visits) for m in s.root_stats(0)])
    assert runs[0] == runs[1]


def test_suct_refuses_priors_with_ucb1_tuned():
    """SUCT's prior takes UCB1-Tuned's sum of squares' bytes."""
    with pytest.raises(ValueError, match="ucb1_tuned"):
        SearchParams(algorithm="suct", priors="net", policy="ucb1_tuned")

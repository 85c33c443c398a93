"""MCGS's heuristic priors (params priors / prior_temperature, the game hook
move_scores): the priors the C search reports are checked against BFS
distances and softmaxes worked out by hand for a hand-made maze."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.games.maze.mazefile import layout_params, parse_maze_text
from sandbox.native import Game, InvalidArgument, Search

from test_mcgs import all_nodes, mcgs

UP, DOWN, LEFT, RIGHT, STAY = range(5)


def maze(rows_top_first: list[str], max_turns: int = 100) -> Game:
    """tests/games/test_maze_rules.py's layout helper (a maze file's rows,
    top row first, 3 characters a cell: right passage, up passage, cheese)."""
    w = len(rows_top_first[0]) // 3
    text = f"maze 1\nsize {w} {len(rows_top_first)}\nmax_turns {max_turns}\nrows\n" + \
        "\n".join(rows_top_first) + "\n"
    return Game("maze", {**layout_params(parse_maze_text(text)), "players": 2}, seed=0)


# 4x3, open everywhere but the mud (0,0)-(1,0) of cost 3; cheese at (1,1)
# and (2,0). Player 0 starts at (0,0), player 1 at (3,2).
#
#   y=2   .   .   .   P1
#   y=1   .   c   .   .
#   y=0   P0 ~3~  c   .
ROWS = ["10.10.10.00.",
        "11.11c11.01.",
        "31.11.11c01."]

# By hand: travel time to the nearest cheese (mud counted by its cost).
#   (0,1): right to (1,1) = 1      (1,0): up to (1,1) = 1
#   (0,0): up, right = 2 (through the mud: 3 + 1 = 4)
#   (3,1): no cheese next to it, (2,1) is next to both = 2
#   (2,2): likewise = 2            (3,2): its neighbours are at 2 = 3
# A move's score = -(its own turns + that time from where it leads):
#   P0 at (0,0): up -(1+1) = -2; down, left (walls), stay -(1+2) = -3;
#                right (mud 3) -(3+1) = -4
#   P1 at (3,2): down -(1+2) = -3, left -(1+2) = -3; up, right (walls),
#                stay -(1+3) = -4
# Outcomes (walls collapse into stay, first move of the class stands for it):
#   P0: up | down (= left = stay) | right     P1: up (= right = stay) | down | left
P0_MOVES = (UP, DOWN, RIGHT)
P1_MOVES = (UP, DOWN, LEFT)


def hand_priors(t: float) -> tuple[list[float], list[float]]:
    z0 = math.exp(-2 / t) + 3 * math.exp(-3 / t) + math.exp(-4 / t)
    p0 = [math.exp(-2 / t) / z0, 3 * math.exp(-3 / t) / z0, math.exp(-4 / t) / z0]
    z1 = 3 * math.exp(-4 / t) + 2 * math.exp(-3 / t)
    p1 = [3 * math.exp(-4 / t) / z1, math.exp(-3 / t) / z1, math.exp(-3 / t) / z1]
    return p0, p1


def root_priors(params, iterations: int = 1):
    with Search(maze(ROWS), params, seed=1) as s:
        s.run(iterations=iterations)
        m = s.root_matrix()
        return m.moves, [list(m.priors[0]), list(m.priors[1])]


@pytest.mark.parametrize("t", [1.0, 0.5, 2.0])
def test_root_priors_are_the_hand_computed_softmax(t):
    moves, priors = root_priors(mcgs(priors="heuristic", prior_temperature=t))
    assert moves == (P0_MOVES, P1_MOVES)
    want = hand_priors(t)
    for p in range(2):
        assert priors[p] == pytest.approx(want[p], rel=1e-6)


def test_uniform_priors_report_one_over_the_outcomes():
    _, priors = root_priors(mcgs())
    assert priors == [[1 / 3] * 3, [1 / 3] * 3]


def test_temperature_extremes():
    # 0.01: all on the closest move (P0: up; P1: down and left tie)
    _, cold = root_priors(mcgs(priors="heuristic", prior_temperature=0.01))
    assert cold[0] == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)
    assert cold[1] == pytest.approx([0.0, 0.5, 0.5], abs=1e-9)
    # 100: nearly uniform over the 5 moves, so an outcome gets its share
    # of moves (the wall class holds three)
    _, hot = root_priors(mcgs(priors="heuristic", prior_temperature=100.0))
    assert hot[0] == pytest.approx([0.2, 0.6, 0.2], abs=0.01)
    assert hot[1] == pytest.approx([0.6, 0.2, 0.2], abs=0.01)


def test_every_node_stores_priors_that_sum_to_one_and_mud_has_one_outcome():
    with Search(maze(ROWS), mcgs(priors="heuristic"), seed=3) as s:
        s.run(iterations=400)
        nodes = all_nodes(s)
        assert len(nodes) > 50
        stuck_seen = 0
        for d in nodes:
            if d.flags & 2:
                continue   # terminal: no outcomes
            for p, n in enumerate((d.n1, d.n2)):
                pr = [d.prior[p][i] for i in range(n)]
                assert sum(pr) == pytest.approx(1.0, abs=1e-6)
                assert all(x > 0 for x in pr)
                stuck_seen += n == 1 and pr == [1.0]
        assert stuck_seen > 0   # player 0 took the mud somewhere: stay only
        st = s.stats()
        # the priors array holds n1 + n2 floats per non-terminal node
        want = sum(d.n1 + d.n2 for d in nodes if not d.flags & 2)
        assert st.prior_bytes == 4 * want
        assert st.node_bytes == 104   # the node did not grow


def test_heuristic_priors_steer_the_visits():
    """A cold prior puts nearly all of PUCT's exploration on the closest
    move; uniform priors spread it."""
    def p0_share_up(params):
        with Search(maze(ROWS), params, seed=5) as s:
            s.run(iterations=60)
            m = s.root_matrix()
            return m.marginal_visits[0][0] / m.visits.sum()
    cold = p0_share_up(mcgs(priors="heuristic", prior_temperature=0.01, c_puct=20.0))
    flat = p0_share_up(mcgs(c_puct=20.0))
    assert cold > 0.9 and flat < 0.6


def test_a_temperature_change_applies_from_the_next_iteration():
    with Search(maze(ROWS), mcgs(priors="heuristic"), seed=1) as s:
        s.run(iterations=50)
        s.update_params(prior_temperature=0.5)
        s.run(iterations=1)
        m = s.root_matrix()
        assert list(m.priors[0]) == pytest.approx(hand_priors(0.5)[0], rel=1e-6)
        s.update_params(priors="uniform")
        s.run(iterations=1)
        np.testing.assert_allclose(s.root_matrix().priors[0], 1 / 3)


def test_tree_reuse_keeps_the_priors_of_the_kept_nodes():
    with Search(maze(ROWS), mcgs(priors="heuristic"), seed=1) as s:
        s.run(iterations=300)
        s.advance([UP, DOWN])
        s.run(iterations=1)
        m = s.root_matrix()
        # P0 at (0,1): up (0,2) -(1+2); down (0,0) -(1+2); left, stay
        # -(1+1); right onto the cheese (1,1) -(1+0).  P1 at (3,1): up
        # (3,2) -(1+3), down (3,0) -(1+1), left (2,1) -(1+1), right, stay
        # -(1+2).
        e = math.exp
        z0 = 2 * e(-3) + 2 * e(-2) + e(-1)
        want0 = {UP: e(-3) / z0, DOWN: e(-3) / z0, LEFT: 2 * e(-2) / z0, RIGHT: e(-1) / z0}
        z1 = e(-4) + 2 * e(-2) + 2 * e(-3)
        want1 = {UP: e(-4) / z1, DOWN: e(-2) / z1, LEFT: e(-2) / z1, RIGHT: 2 * e(-3) / z1}
        assert dict(zip(m.moves[0], m.priors[0])) == pytest.approx(want0, rel=1e-6)
        assert dict(zip(m.moves[1], m.priors[1])) == pytest.approx(want1, rel=1e-6)


@pytest.mark.parametrize("kind,params", [("goofspiel", "num_cards=4"), ("matrix", "preset=rps")])
def test_heuristic_priors_refused_on_a_game_without_move_scores(kind, params):
    g = Game(kind, params, seed=1)
    with pytest.raises(InvalidArgument, match="priors: heuristic needs a game with move scores"):
        Search(g, mcgs(priors="heuristic"))
    with Search(g, mcgs(), seed=1) as s:
        with pytest.raises(InvalidArgument, match="priors"):
            s.update_params(priors="heuristic")
        s.run(iterations=10)   # still searching, uniform
        assert s.params.priors == "uniform"
    # unused by the textbook UCT: accepted (Smitsimax, SUCT and joint read
    # priors: refused there)
    Search(g, mcgs(priors="heuristic").replace(algorithm="uct")).close()
    for alg in ("smitsimax", "suct", "joint"):
        with pytest.raises(InvalidArgument, match="priors: heuristic needs a game with move"):
            Search(g, mcgs(priors="heuristic").replace(algorithm=alg))


@pytest.mark.parametrize("value", ["softmax", 2, None, 1.5])
def test_bad_priors_values_are_refused(value):
    from pydantic import ValidationError
    with pytest.raises(ValidationError):
        mcgs(priors=value)
    for t in (0.0, 101.0, float("nan")):
        with pytest.raises(ValidationError):
            mcgs(prior_temperature=t)


def test_a_game_to_the_end_with_reuse_keeps_the_priors_array_compact():
    """Re-rooting compacts the priors with the edges: after every advance
    the array holds exactly n1 + n2 floats per kept non-terminal node (a
    recount from the raw nodes), and every kept node's priors still sum
    to 1 (the array grows past its first 4,096 floats on the way)."""
    g = Game("maze", "size=tiny maze_seed=5 max_turns=40", seed=1)
    with Search(g, mcgs(priors="heuristic", max_depth=12), seed=4) as s:
        grown = 0
        for turn in range(40):
            s.run(iterations=1500)
            st = s.stats()
            grown = max(grown, st.prior_bytes // 4)
            if turn % 8 == 0:
                nodes = all_nodes(s)
                live = [d for d in nodes if not d.flags & 2]
                assert st.prior_bytes == 4 * sum(d.n1 + d.n2 for d in live)
                for d in live:
                    for p, n in enumerate((d.n1, d.n2)):
                        assert sum(d.prior[p][i] for i in range(n)) == pytest.approx(1, abs=1e-5)
            joint = s.best_moves()
            g.step(joint)
            if g.is_terminal:
                break
            s.advance(joint, new_root=g)
        assert grown > 4096 and turn > 10

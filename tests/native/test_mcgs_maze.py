"""MCGS on hand-made mazes (its targets): the move it plays equals the
exhaustive solution of the simultaneous game, and moves into walls collapse
into the stay outcome."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.analysis.lp import solve_zero_sum
from sandbox.games.maze.mazefile import layout_params, parse_maze_text
from sandbox.native import Game, Search

from test_mcgs import mcgs, node

UP, DOWN, LEFT, RIGHT, STAY = range(5)


def maze(rows_top_first: list[str], max_turns: int = 100, **params) -> Game:
    """tests/games/test_maze_rules.py's layout helper (rows top first, 3
    characters a cell: right passage, up passage, cheese)."""
    w = len(rows_top_first[0]) // 3
    text = f"maze 1\nsize {w} {len(rows_top_first)}\nmax_turns {max_turns}\nrows\n" + \
        "\n".join(rows_top_first) + "\n"
    return Game("maze", {**layout_params(parse_maze_text(text)), "players": 2, **params}, seed=0)


# ------------------------------------------------------------------ exhaustive
def solve(g: Game, memo: dict) -> float:
    """Backward induction over the joint-action game to its END (no
    evaluation, no horizon): the value for player 0 of the cheese it
    collects from here on minus player 1's, every simultaneous node solved
    as a zero-sum matrix game by LP. Memoised on the state key (turn, cells,
    cheese, stuck counters and scores: a state reached by two move orders is
    solved once). memo[key] = (value, matrix, solution, moves0, moves1)."""
    key = g.state_hash()
    if key in memo:
        return memo[key][0]
    if g.is_terminal:
        memo[key] = (0.0, None, None, None, None)
        return 0.0
    m0, m1 = g.legal_moves(0), g.legal_moves(1)
    a = np.zeros((len(m0), len(m1)))
    for i, x in enumerate(m0):
        for j, y in enumerate(m1):
            with g.clone() as c:
                r = c.step([x, y])
                a[i, j] = r[0] - r[1] + solve(c, memo)
    sol = solve_zero_sum(a)
    memo[key] = (sol.value, a, sol, m0, m1)
    return sol.value


# 3x3, max_turns 5, cheese (1,0) (1,1) (2,1). P0 at (0,0), P1 at (2,2).
#
#   y=2   .   .   P1        (2,2) can only go left; (2,1) is walled from above
#   y=1   .   c | c
#   y=0   P0  c]  .         (1,0) is a dead end (walls right and up)
#
# The greedy move of P0 is right (the nearest cheese, (1,0), one step): it
# is a trap, P1 then takes (1,1) and (2,1) (a majority) while P0 walks back.
# The equilibrium move is up, to contest (1,1) (both arrive at turn 2).
# w_expected = 0: the evaluation is the score alone (the BFS claim race
# alone already prefers up), so MCGS must find it by searching to the end.
TRAP = ["00.10.00.",
        "11.11c00c",
        "11.00c01."]


def test_mcgs_move_equals_the_exhaustive_solution_of_the_simultaneous_game():
    g = maze(TRAP, max_turns=5, w_expected=0)
    memo: dict = {}
    value = solve(g, memo)
    _, a, sol, m0, m1 = memo[g.state_hash()]
    assert len(memo) > 300                      # the whole game, not one ply
    # the oracle's equilibrium is pure for both ...
    i, j = int(sol.row.argmax()), int(sol.col.argmax())
    assert sol.row[i] == pytest.approx(1.0) and sol.col[j] == pytest.approx(1.0)
    assert (m0[i], m1[j], value) == (UP, LEFT, pytest.approx(0.0))
    # ... and unique: every other move of each does strictly worse against
    # the other's equilibrium move (by a whole cheese of difference)
    assert all(a[k, j] <= a[i, j] - 1 for k in range(len(m0)) if k != i)
    assert all(a[i, k] >= a[i, j] + 1 for k in range(len(m1)) if k != j)
    assert a[m0.index(RIGHT), j] == -1          # the greedy move loses a cheese
    # MCGS plays it (each player maximising its own cheese: here the same
    # move). The heuristic prior points at the trap (right is nearest), so
    # this also shows the search overruling its prior. Measured: at 3,000
    # playouts (c_puct 0.25-1.5) it still plays right; with c_puct 2 and
    # 10,000-40,000 playouts, up for 12 seeds of 12, either priors.
    for priors in ("uniform", "heuristic"):
        for seed in (1, 2, 3):
            with Search(g, mcgs(priors=priors, max_depth=10, c_puct=2.0), seed=seed) as s:
                s.run(iterations=20_000)
                assert s.stats().root_visits[0] == 20_000
                assert s.best_moves() == [UP, LEFT], (priors, seed)


# ------------------------------------------------------------------ outcomes
def centre(walls: tuple[int, ...]) -> Game:
    """A 3x3 maze whose centre (1,1) has walls on the given sides (its right
    and up passages are its own characters, its left one is (0,1)'s right,
    its down one (1,0)'s up), player 0 walked there around the walls."""
    r, u, left, down = ("0" if d in walls else "1" for d in (RIGHT, UP, LEFT, DOWN))
    g = maze(["10.10c00.",
              f"{left}1.{r}{u}.01.",
              f"11.1{down}.01."])
    path = ([UP, RIGHT] if LEFT not in walls else [RIGHT, UP] if DOWN not in walls
            else [RIGHT, RIGHT, UP, LEFT])
    for m in path:
        g.step([m, STAY])
    e = g.export()
    assert (e[8], e[9]) == (1, 1)               # player 0's x, y (sbx.h's maze export)
    return g


@pytest.mark.parametrize("walls", [(), (RIGHT,), (RIGHT, UP), (LEFT, DOWN, UP)])
def test_moves_into_walls_collapse_into_the_stay_outcome(walls):
    g = centre(walls)
    with Search(g, mcgs(), seed=1) as s:
        s.run(iterations=50)
        d = node(s, 0)
        acts = [d.act[0][i] for i in range(d.n1)]
        # 5 - k outcomes: the open directions, and one for stay and every
        # wall, stood for by the first of them in move order
        open_moves = [m for m in (UP, DOWN, LEFT, RIGHT) if m not in walls]
        assert d.n1 == 5 - len(walls)
        assert sorted(acts) == sorted(open_moves + [min(walls + (STAY,))])
        # the oracle for "same outcome": each wall move leads to the state
        # stay leads to, each open move to a state of its own
        def after(m):
            with g.clone() as c:
                c.step([m, STAY])
                return c.state_hash()
        assert all(after(m) == after(STAY) for m in walls)
        assert len({after(m) for m in open_moves} | {after(STAY)}) == 5 - len(walls)
        # the root's edges are over outcomes: a wall move has no row of its own
        m = s.root_matrix()
        assert m.moves[0] == tuple(acts) and int(m.visits.sum()) == 50

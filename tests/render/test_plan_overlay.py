"""The principal variation on the maze: the path each explorer would take
along a search's most visited joint line (BoardContext.plans), drawn by the
maze renderer. The oracle steps a real C game through the line's joint
actions and reads the explorers' cells from its export: walls, mud and the
edge are the C rules', not the renderer's reading of them."""
from __future__ import annotations

import numpy as np
import pygame

from sandbox.games import BoardContext
from sandbox.games.maze import decode_maze
from sandbox.games.maze.render import MazeRenderer, plan_cells
from sandbox.native import Game, Search, SearchParams
from sandbox.render.grid import board_geometry, cell_center
from sandbox.render.tree_layout import line_joints, line_moves, principal_variation

RED, BLUE = (230, 80, 70), (80, 140, 240)


def stepped_cells(game: Game, joints) -> list[list[tuple[int, int]]]:
    """Per explorer, its cell after each joint action, by C."""
    g = game.clone()
    out = [[(e.x, e.y)] for e in decode_maze(g.export()).explorers]
    for joint in joints:
        g.step(list(joint))
        for a, e in enumerate(decode_maze(g.export()).explorers):
            out[a].append((e.x, e.y))
    return out


def searched(params: str, iterations: int, seed: int):
    game = Game("maze", params, seed=1)
    with Search(game, SearchParams(algorithm="mcgs", max_depth=12), seed=seed) as s:
        s.run(iterations=iterations)
        return game, s.snapshot(0, 400), s.root_matrix()


def test_plan_cells_follow_the_line_as_c_plays_it():
    checked = 0
    for params, seed in (("size=tiny maze_seed=3", 2), ("size=small maze_seed=2", 5),
                         ("size=tiny maze_seed=9 mud_density=0.6 mud_range=5", 7)):
        game, snap, matrix = searched(params, 3000, seed)
        rows = principal_variation(snap)
        assert len(rows) >= 3
        # the line's first joint action is the root matrix's most visited cell
        i, j = np.unravel_index(int(np.argmax(matrix.visits)), matrix.visits.shape)
        assert tuple(int(x) for x in snap.joint[rows[1]][:2]) == \
            (matrix.moves[0][i], matrix.moves[1][j])
        # each step's joint action: through a link (a state reached from two
        # parents), the link's own, not the shared row's first-parent joint
        joints = [tuple(int(x) for x in j[:2]) for j in line_joints(snap, rows)]
        want = stepped_cells(game, joints)
        view = decode_maze(game.export())
        for a in range(2):
            moves = line_moves(snap, rows, a)
            assert moves == [j[a] for j in joints]
            assert plan_cells(view, a, moves) == want[a]
            checked += 1
    assert checked == 6


def test_the_board_draws_each_plan_through_those_cells():
    game, snap, _ = searched("size=tiny maze_seed=3", 3000, 2)
    rows = principal_variation(snap)
    view = decode_maze(game.export())
    plans = {0: tuple(line_moves(snap, rows, 0))}
    predicted = {1: tuple(line_moves(snap, rows, 1))}
    joints = [tuple(int(x) for x in j[:2]) for j in line_joints(snap, rows)]
    want = stepped_cells(game, joints)
    r = MazeRenderer([RED, BLUE], ["Red", "Blue"])
    surf = pygame.Surface((500, 520))
    rect = pygame.Rect(0, 0, 500, 520)
    r.draw(surf, rect, view, ctx=BoardContext(plans=plans, predicted=predicted))
    board = r._board(rect)
    cell, x0, y0 = board_geometry(board, view.width, view.height)
    px = pygame.surfarray.array3d(surf)
    for a, color in ((0, RED), (1, BLUE)):
        pts = r.plan_points[a]
        off = (a - 0.5) * cell * 0.12
        centres = [cell_center(cx, cy, cell, x0, y0, view.height) for cx, cy in want[a]]
        assert pts == [(int(x + off), int(y + off)) for x, y in centres]
        # a dot of the explorer's colour at every cell the path moves on to
        for p in pts[1:]:
            if p != pts[0]:
                assert tuple(px[p[0], p[1]]) == color, (a, p)
    # without plans nothing of the kind is drawn
    r2 = MazeRenderer([RED, BLUE], ["Red", "Blue"])
    r2.draw(pygame.Surface((500, 520)), rect, view, ctx=BoardContext())
    assert r2.plan_points == {}


def test_a_move_into_a_wall_stays_and_a_missing_move_ends_the_path():
    game = Game("maze", "size=tiny maze_seed=3", seed=1)
    view = decode_maze(game.export())
    e = view.explorers[0]
    walls = [m for m in range(4) if view.cost(e.x, e.y, m) == 0]
    opens = [m for m in range(4) if view.cost(e.x, e.y, m) > 0]
    assert walls and opens
    # C agrees: the wall move leaves the explorer where it is
    assert stepped_cells(game, [(walls[0], 4)])[0] == [(e.x, e.y), (e.x, e.y)]
    assert plan_cells(view, 0, [walls[0]]) == [(e.x, e.y), (e.x, e.y)]
    assert plan_cells(view, 0, [opens[0], -1, opens[0]]) == \
        stepped_cells(game, [(opens[0], 4)])[0]

"""The maze rules (docs/games.md, Maze) pinned by hand-made mazes and an independent
Python recomputation of the Zobrist key; generator properties over seeds."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.games.maze import (MazeFileError, decode_maze, load_maze_file, maze_text,
                                parse_maze_text, save_maze_file)
from sandbox.games.maze.mazefile import layout_params
from sandbox.native import Game, InvalidArgument

UP, DOWN, LEFT, RIGHT, STAY = range(5)
M64 = (1 << 64) - 1


def maze(rows_top_first: list[str], players: int = 2, max_turns: int = 100) -> Game:
    w = len(rows_top_first[0]) // 3
    text = f"maze 1\nsize {w} {len(rows_top_first)}\nmax_turns {max_turns}\nrows\n" + \
        "\n".join(rows_top_first) + "\n"
    p = layout_params(parse_maze_text(text))
    p["players"] = players
    return Game("maze", p, seed=0)


def view(g):
    return decode_maze(g.export())


# 4x2: (0,0) -> (1,0) is mud of cost 3, cheese at (1,0) and (1,1); all else open
MUD = ["10.10c10.00.",
       "31.11c11.01."]


def test_mud_costs_n_turns_arrive_at_once_no_cheese_while_stuck():
    g = maze(MUD)
    r = g.step([RIGHT, STAY])
    v = view(g)
    assert (v.explorers[0].x, v.explorers[0].y, v.explorers[0].stuck) == (1, 0, 2)
    assert list(r) == [0, 0] and (1, 0) in v.cheese          # arrived, not collected
    assert g.legal_moves(0) == [STAY] and g.legal_moves(1) == [0, 1, 2, 3, 4]
    r = g.step([STAY, STAY])
    assert view(g).explorers[0].stuck == 1 and list(r) == [0, 0]
    r = g.step([STAY, STAY])                                  # the 3rd turn: free again
    v = view(g)
    assert v.explorers[0].stuck == 0 and list(r) == [1, 0] and (1, 0) not in v.cheese
    assert g.legal_moves(0) == [0, 1, 2, 3, 4]


def test_walls_and_the_edge_are_a_stay():
    g = maze(["10.10c10.00.",
              "01.11c11.01."])   # (0,0): wall to the right
    for move in (LEFT, DOWN, RIGHT):
        g.step([move, STAY])
        e = view(g).explorers[0]
        assert (e.x, e.y, e.stuck) == (0, 0, 0)
    g.step([UP, STAY])
    assert (view(g).explorers[0].x, view(g).explorers[0].y) == (0, 1)


def test_two_arriving_together_share_half_each():
    g = maze(["10.10.00.",
              "11.11c01."])      # 3x2, cheese at (1,0); p1 starts at (2,1)
    g.step([STAY, DOWN])
    r = g.step([RIGHT, LEFT])
    assert list(r) == [0.5, 0.5]
    assert [e.score12 for e in view(g).explorers] == [6, 6]
    assert g.is_terminal                                     # no cheese left


def test_three_arriving_together_share_a_third_each():
    g = maze(["10.10c00.",
              "11.11c01.",
              "11.11.01."], players=3)   # cheese (1,1) and (1,2)
    g.step([RIGHT, LEFT, LEFT])          # p0 (1,0), p1 (1,2) takes that cheese, p2 (1,0)
    assert [e.score12 for e in view(g).explorers] == [0, 12, 0]
    r = g.step([UP, DOWN, UP])
    assert np.allclose(r, [1 / 3] * 3)
    assert [e.score12 for e in view(g).explorers] == [4, 16, 4]


def test_a_player_freed_from_mud_shares_with_one_arriving_that_turn():
    # p0 enters the mud (cost 3) at turn 1 and can act again at the end of
    # turn 3; p1 walks (3,1) -> (2,1) -> (1,1) (its cheese) -> (1,0) and
    # arrives at turn 3: both able to act on (1,0), half each
    g = maze(MUD)
    assert list(g.step([RIGHT, LEFT])) == [0, 0]
    assert list(g.step([STAY, LEFT])) == [0, 1]
    assert list(g.step([STAY, DOWN])) == [0.5, 0.5]
    assert [e.score12 for e in view(g).explorers] == [6, 18]


def test_a_player_stuck_on_a_cheese_does_not_share_it():
    # p0 enters the mud one turn later: still stuck (1) when p1 arrives,
    # so p1 takes the whole cheese
    g = maze(MUD)
    g.step([STAY, LEFT])
    g.step([RIGHT, LEFT])
    r = g.step([STAY, DOWN])
    v = view(g)
    assert list(r) == [0, 1] and v.explorers[0].stuck == 1
    assert [e.score12 for e in v.explorers] == [0, 24] and g.is_terminal


def test_strict_majority_ends_the_game():
    # a row of 5 cells on top of an open row; cheese (1,0) (2,0) (3,0): p0 takes 2 of 3
    rows = ["10.10.10.10.00.", "11.11c11c11c01."]
    g = maze(rows)
    g.step([RIGHT, STAY])
    assert not g.is_terminal                                  # 1 of 3 is not a majority
    g.step([RIGHT, STAY])
    assert g.is_terminal                                      # 2 of 3 > 1.5
    # 4 cheese: 2 of 4 is exactly half, not more
    g = maze(["10.10c10c10.00.", "11.11c11c11.01."])
    g.step([RIGHT, STAY])
    g.step([RIGHT, STAY])
    assert not g.is_terminal and view(g).explorers[0].score12 == 24


def test_turn_limit_ends_the_game():
    g = maze(MUD, max_turns=3)
    for _ in range(3):
        assert not g.is_terminal
        g.step([STAY, STAY])
    assert g.is_terminal and g.ranking() == [0, 0]


# ------------------------------------------------------------------ Zobrist
SEED, GAMMA = 0x6D617A655A6F6272, 0x9E3779B97F4A7C15
CELLS, NP = 64 * 64, 4


def zkey(i: int) -> int:
    z = (SEED + (i + 1) * GAMMA) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def zobrist_from_export(words) -> int:
    """Independent oracle: the key of RULES §4 (positions, cheese left, mud
    counters, turn, scores) from the export words alone."""
    v = decode_maze(words)
    h = zkey((NP + 1) * CELLS + 64 + v.turn)
    for p, e in enumerate(v.explorers):
        h ^= zkey(p * CELLS + e.y * v.width + e.x)
        if e.stuck:
            h ^= zkey((NP + 1) * CELLS + p * 16 + e.stuck)
        if e.score12:
            h ^= zkey((NP + 1) * CELLS + 64 + 100_001 + p * (12 * CELLS + 1) + e.score12)
    for (x, y) in v.cheese:
        h ^= zkey(NP * CELLS + y * v.width + x)
    return h


def test_hash_matches_the_python_recomputation_along_a_game():
    g = Game("maze", {"size": "small", "mud_density": 0.5, "players": 3}, seed=0)
    rng = np.random.default_rng(4)
    while not g.is_terminal:
        assert g.state_hash() == zobrist_from_export(g.export())
        g.step([int(rng.choice(g.legal_moves(a))) for a in range(3)])
    assert g.state_hash() == zobrist_from_export(g.export())


def test_hash_equal_for_two_move_orders_and_differs_by_turn():
    a, b = maze(MUD), maze(MUD)
    a.step([UP, STAY]); a.step([STAY, LEFT]); a.step([STAY, STAY])
    b.step([STAY, STAY]); b.step([STAY, LEFT]); b.step([UP, STAY])
    assert np.array_equal(a.export(), b.export()) and a.state_hash() == b.state_hash()
    c = maze(MUD)
    c.step([STAY, STAY])
    d = maze(MUD)
    assert view(c).explorers == view(d).explorers and c.state_hash() != d.state_hash()


def test_hash_tells_apart_states_that_differ_only_in_the_split_of_cheese():
    """Every state reachable in 4 turns: equal keys exactly for equal exports.
    Among them are states with the same cells, cheese left and turn but a
    different split of the cheese so far; the end condition and the
    evaluation read the scores, so graph search must keep those apart (it
    merged them when the key left the scores out)."""
    layout = ["10.10c10c00.",
              "11.11.11c01."]
    root = maze(layout)
    frontier, by_hash, score_only = [root], {}, 0
    for _ in range(4):
        nxt = []
        for g in frontier:
            for a in g.legal_moves(0):
                for b in g.legal_moves(1):
                    h = g.clone()
                    h.step([a, b])
                    key, words = h.state_hash(), tuple(h.export())
                    if key in by_hash:
                        assert by_hash[key] == words
                        continue
                    by_hash[key] = words
                    if not h.is_terminal:
                        nxt.append(h)
        frontier = nxt
    seen: dict = {}
    for words in by_hash.values():
        v = decode_maze(list(words))
        where = (v.turn, tuple((e.x, e.y, e.stuck) for e in v.explorers), tuple(sorted(v.cheese)))
        seen.setdefault(where, set()).add(tuple(e.score12 for e in v.explorers))
    score_only = sum(len(s) > 1 for s in seen.values())
    assert score_only > 0


# ------------------------------------------------------------------ generator
def connected(v) -> bool:
    seen, todo = {(0, 0)}, [(0, 0)]
    while todo:
        x, y = todo.pop()
        for m, (dx, dy) in enumerate(((0, 1), (0, -1), (-1, 0), (1, 0))):
            if v.cost(x, y, m) and (x + dx, y + dy) not in seen:
                seen.add((x + dx, y + dy))
                todo.append((x + dx, y + dy))
    return len(seen) == v.width * v.height


PRESETS = {"tiny": (11, 9, 13, 150), "small": (15, 13, 21, 200), "medium": (21, 15, 41, 300),
           "large": (31, 21, 85, 400), "huge": (41, 31, 165, 500)}


@pytest.mark.parametrize("size", list(PRESETS))
def test_generated_mazes_over_many_seeds(size):
    W, H, cheese, turns = PRESETS[size]
    for seed in range(12 if size != "huge" else 4):
        for sym in (1, 0):
            v = view(Game("maze", {"size": size, "maze_seed": seed, "symmetric": sym,
                                   "mud_density": 0.3, "players": 4}, seed=0))
            assert (v.width, v.height, v.cheese_total, v.max_turns) == (W, H, cheese, turns)
            assert len(v.cheese) == cheese and connected(v)
            corners = {(0, 0), (W - 1, H - 1), (W - 1, 0), (0, H - 1)}
            assert not (v.cheese & corners)
            assert [(e.x, e.y) for e in v.explorers] == [(0, 0), (W - 1, H - 1), (W - 1, 0),
                                                          (0, H - 1)]
            # cheese in mirrored pairs (+ the centre: every preset count is odd)
            assert all((W - 1 - x, H - 1 - y) in v.cheese for x, y in v.cheese)
            assert (W // 2, H // 2) in v.cheese
            costs = {c for row in v.right + v.up for c in row}
            assert costs <= {0, 1, 2, 3}
            if sym:
                for y in range(H):
                    for x in range(W):
                        for m in range(4):
                            assert v.cost(x, y, m) == v.cost(W - 1 - x, H - 1 - y, m ^ 1)


def test_generator_is_seeded_and_symmetric_off_breaks_symmetry():
    e1 = Game("maze", {"maze_seed": 5}, seed=0).export()
    assert np.array_equal(e1, Game("maze", {"maze_seed": 5}, seed=99).export())
    assert not np.array_equal(e1, Game("maze", {"maze_seed": 6}, seed=0).export())
    v = view(Game("maze", {"maze_seed": 5, "symmetric": 0}, seed=0))
    W, H = v.width, v.height
    assert any(v.cost(x, y, m) != v.cost(W - 1 - x, H - 1 - y, m ^ 1)
               for y in range(H) for x in range(W) for m in range(4))


# ------------------------------------------------------------------ files, import
def test_file_round_trip(tmp_path):
    g = Game("maze", {"size": "small", "maze_seed": 3, "mud_density": 0.4}, seed=0)
    path = tmp_path / "m.maze"
    save_maze_file(path, g.export())
    p = layout_params(load_maze_file(path))
    g2 = Game("maze", p, seed=0)
    assert np.array_equal(g.export(), g2.export())
    assert maze_text(g2.export()) == path.read_text()


BAD = [
    ("maze 2\n", ":1: the first line must be 'maze 1'"),
    ("maze 1\nsize 3\nrows\n", ":2: size: expected 'size W H'"),
    ("maze 1\nsize 3 2\ncolour red\nrows\n", ":3: unknown field 'colour'"),
    ("maze 1\nsize 3 2\nrows\n10.10c00.\n", ":4: rows: 1 row lines, the size says 2"),
    ("maze 1\nsize 3 2\nrows\n10.10c00.\n11.11c1.\n", ":5: row y=0: 8 characters"),
    ("maze 1\nsize 3 2\nrows\n10.10c00.\n11.1xc01.\n", ":5: row y=0 cell x=1: '1xc'"),
    ("maze 1\nsize 3 2\nrows\n10.10c00.\n11.11c11.\n", ":5: row y=0 cell x=2: a right passage"),
    ("maze 1\nsize 3 2\nrows\n11.10c00.\n11.11c01.\n", ":4: row y=1 cell x=0: an up passage"),
    ("maze 1\nsize 3 2\nrows\n10.10.00.\n11.11.01.\n", "the maze has no cheese"),
    ("maze 1\nsize 3 2\nrows\n10.10c00.\n11.11c01c\n", "cheese on the start corner of player 2"),
    ("maze 1\nsize 3 2\nrows\n00.10c00.\n01.01c01.\n", "the maze is not connected"),
]


@pytest.mark.parametrize("text,msg", BAD)
def test_malformed_maze_files_give_one_line_errors(tmp_path, text, msg):
    path = tmp_path / "bad.maze"
    path.write_text(text)
    with pytest.raises(MazeFileError) as e:
        load_maze_file(path)
    assert msg in str(e.value) and "\n" not in str(e.value) and str(path) in str(e.value)


def test_c_refuses_what_the_file_loader_refuses():
    with pytest.raises(InvalidArgument, match="not connected"):
        Game("maze", "width=3 height=2 row0=01.01c01. row1=00.10c00.", seed=0)
    with pytest.raises(InvalidArgument, match="off the grid"):
        Game("maze", "width=3 height=2 row0=11.11c11. row1=10.10c00.", seed=0)


def test_import_validates_and_leaves_the_state_unchanged():
    g = maze(MUD)
    g.step([RIGHT, STAY])
    good = g.export().copy()
    h = g.state_hash()
    for i, bad in [(4, -1), (8, 9), (10, 9), (11, 5), (7, 0), (len(good) - 1, 0x30)]:
        w = good.copy()
        w[i] = bad
        with pytest.raises(InvalidArgument):
            g.import_state(w)
        assert np.array_equal(g.export(), good) and g.state_hash() == h
    g2 = maze(MUD)
    g2.import_state(good)
    assert g2.state_hash() == h and view(g2).explorers[0].stuck == 2


@pytest.mark.parametrize("params", [{"size": "tiny", "cheese": 0, "max_turns": 40},
                                    {"width": 3, "height": 2, "size": "huge",
                                     "row0": "11.11c01.", "row1": "10.10c00."}])
def test_a_game_rebuilt_from_its_described_params_is_the_same_game(params):
    """Searches compare configs bytewise: the described params must rebuild it."""
    g = Game("maze", params, seed=0)
    g.step([RIGHT, STAY])
    g2 = Game("maze", g.params, seed=0)
    g2.copy_from(g)           # refused if the configs differ
    assert g2.state_hash() == g.state_hash()


# ------------------------------------------------------------------ evaluation
def test_a_claimed_cheese_counts_claim_decay_to_the_distance():
    """By hand: one cheese at (1, 0). Explorer 0 at (0, 0) reaches it in 1
    move (or 3 through mud of cost 3), explorer 1 at (3, 1) in 3 (left,
    left, down): 0.8^1 to explorer 0 alone, or 0.8^3 shared when they tie.
    With claim_decay 1 a claim is worth a whole cheese at any distance."""
    def evaluation(bottom_left: str, decay: float) -> list[float]:
        text = ("maze 1\nsize 4 2\nmax_turns 50\nrows\n10.10.10.00.\n"
                f"{bottom_left}11c11.01.\n")
        p = layout_params(parse_maze_text(text))
        p["claim_decay"] = decay
        return list(Game("maze", p, seed=0).evaluate())
    assert evaluation("11.", 0.8) == pytest.approx([0.8, 0.0])
    assert evaluation("31.", 0.8) == pytest.approx([0.8 ** 3 / 2, 0.8 ** 3 / 2])
    assert evaluation("11.", 1.0) == pytest.approx([1.0, 0.0])
    assert evaluation("31.", 1.0) == pytest.approx([0.5, 0.5])

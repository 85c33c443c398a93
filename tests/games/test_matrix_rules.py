"""docs/games.md, Matrix games: the `matrix` game (two-player normal-form games, one-shot or
K-times repeated).

The expected payoffs below are written out by hand from the textbook
definitions of each game, not read back from the engine, so a wrong sign or
a transposed table in the C presets fails here.
"""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from sandbox.native import Game, InvalidArgument, InvalidState, Search, SearchParams, params_doc

KIND = "matrix"
HEADER = 7   # version, rows, cols, repeats, turn, last row, last col
VERSION = 1

# name: (row actions, column actions, row payoffs A, column payoffs B)
PRESETS = {
    # Rock beats scissors, scissors beats paper, paper beats rock: +1 / -1.
    "rps": (["rock", "paper", "scissors"], ["rock", "paper", "scissors"],
            [[0, -1, 1],
             [1, 0, -1],
             [-1, 1, 0]],
            [[0, 1, -1],
             [-1, 0, 1],
             [1, -1, 0]]),
    # docs/games.md, Matrix games, zero-sum.
    "biased_rps": (["rock", "paper", "scissors"], ["rock", "paper", "scissors"],
                   [[0, -25, 50],
                    [25, 0, -5],
                    [-50, 5, 0]],
                   [[0, 25, -50],
                    [-25, 0, 5],
                    [50, -5, 0]]),
    # The row player (the "matcher") wins a penny when the coins match.
    "matching_pennies": (["heads", "tails"], ["heads", "tails"],
                         [[1, -1], [-1, 1]],
                         [[-1, 1], [1, -1]]),
    # T=5 > R=3 > P=1 > S=0: (C,C)=3,3 (C,D)=0,5 (D,C)=5,0 (D,D)=1,1.
    "prisoners_dilemma": (["cooperate", "defect"], ["cooperate", "defect"],
                          [[3, 0], [5, 1]],
                          [[3, 5], [0, 1]]),
    # Row prefers opera, column football; disagreeing pays nobody.
    "battle_of_sexes": (["opera", "football"], ["opera", "football"],
                        [[3, 0], [0, 2]],
                        [[2, 0], [0, 3]]),
    # (S,S)=4,4 (S,H)=0,3 (H,S)=3,0 (H,H)=3,3.
    "stag_hunt": (["stag", "hare"], ["stag", "hare"],
                  [[4, 0], [3, 3]],
                  [[4, 3], [0, 3]]),
    # (Sw,Sw)=0,0 (Sw,St)=-1,1 (St,Sw)=1,-1 (St,St)=-10,-10.
    "chicken": (["swerve", "straight"], ["swerve", "straight"],
                [[0, -1], [1, -10]],
                [[0, 1], [-1, -10]]),
    # Shapley's game, RPS form: the winner gets 1, ties and losses 0.
    "shapley": (["rock", "paper", "scissors"], ["rock", "paper", "scissors"],
                [[0, 0, 1],
                 [1, 0, 0],
                 [0, 1, 0]],
                [[0, 1, 0],
                 [0, 0, 1],
                 [1, 0, 0]]),
}


def one_round(params: str, r: int, c: int) -> list[float]:
    g = Game(KIND, params)
    return list(g.step([r, c]))


def payoff_tables(params: str) -> tuple[list[list[float]], list[list[float]]]:
    """Both players' payoffs as the engine pays them, one fresh game per cell."""
    g = Game(KIND, params)
    R, C = len(g.legal_moves(0)), len(g.legal_moves(1))
    A = [[0.0] * C for _ in range(R)]
    B = [[0.0] * C for _ in range(R)]
    for r, c in itertools.product(range(R), range(C)):
        A[r][c], B[r][c] = one_round(params, r, c)
    return A, B


def decode(words) -> dict:
    w = [int(x) for x in words]
    R, C = w[1], w[2]
    n = R * C
    return {"version": w[0], "rows": R, "cols": C, "repeats": w[3], "turn": w[4],
            "last": (w[5], w[6]), "counts": w[HEADER:HEADER + n],
            "a": w[HEADER + n:HEADER + 2 * n], "b": w[HEADER + 2 * n:HEADER + 3 * n],
            "len": len(w)}


def milli(x: float) -> int:
    """round(x * 1000) half away from zero (the export's rule)."""
    y = x * 1000.0
    t = int(y)
    frac = y - t
    return t + (1 if frac >= 0.5 else -1 if frac <= -0.5 else 0)


def table_params(A, B=None, **extra) -> str:
    parts = [f"rows={len(A)}", f"cols={len(A[0])}"]
    parts += [f"a{i}=" + "/".join(repr(float(x)) for x in row) for i, row in enumerate(A)]
    if B is not None:
        parts += [f"b{i}=" + "/".join(repr(float(x)) for x in row) for i, row in enumerate(B)]
    parts += [f"{k}={v}" for k, v in extra.items()]
    return " ".join(parts)


# ---------------------------------------------------------------- presets

@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_payoffs_for_every_joint_action(name):
    rows, cols, A, B = PRESETS[name]
    g = Game(KIND, f"preset={name}")
    assert g.num_agents == 2 and g.turn == 0
    assert g.legal_moves(0) == list(range(len(rows)))
    assert g.legal_moves(1) == list(range(len(cols)))
    assert [g.move_name(0, m) for m in range(len(rows))] == rows
    assert [g.move_name(1, m) for m in range(len(cols))] == cols
    assert g.move_name(0, len(rows)) == "?" and g.move_name(1, -1) == "?"
    for r, c in itertools.product(range(len(rows)), range(len(cols))):
        h = Game(KIND, f"preset={name}")
        rewards = h.step([r, c])
        assert list(rewards) == [A[r][c], B[r][c]], (name, rows[r], cols[c])
        assert h.is_terminal and h.turn == 1
        assert list(h.evaluate()) == [A[r][c], B[r][c]]
        assert h.legal_moves(0) == [] and h.legal_moves(1) == []


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_export_tables(name):
    rows, cols, A, B = PRESETS[name]
    d = decode(Game(KIND, f"preset={name}").export())
    assert d["version"] == VERSION and (d["rows"], d["cols"]) == (len(rows), len(cols))
    assert d["a"] == [1000 * x for row in A for x in row]
    assert d["b"] == [1000 * x for row in B for x in row]


def test_default_is_one_shot_rps():
    g = Game(KIND, "")
    assert g.params.startswith("preset=rps repeats=1 ")
    assert payoff_tables("") == (PRESETS["rps"][2], PRESETS["rps"][3])


def mixed_value(A, p, q) -> Fraction:
    return sum(Fraction(A[r][c]) * p[r] * q[c]
               for r in range(len(p)) for c in range(len(q)))


def test_biased_rps_nash_mix_makes_every_pure_row_earn_zero():
    A, B = payoff_tables("preset=biased_rps")   # the rewards the engine pays
    y = [Fraction(1, 16), Fraction(5, 8), Fraction(5, 16)]
    for r in range(3):
        assert sum(Fraction(A[r][c]) * y[c] for c in range(3)) == 0, r
    # zero-sum and symmetric: the column player is indifferent against it too
    for c in range(3):
        assert sum(Fraction(B[r][c]) * y[r] for r in range(3)) == 0, c
    # and a pure row against any other mix is not always 0 (the mix matters)
    assert sum(Fraction(A[0][c]) / 3 for c in range(3)) != 0


@pytest.mark.parametrize("name, p, q, value", [
    # the equilibria stated in matrix.c, checked on the engine's payoffs
    ("rps", (Fraction(1, 3),) * 3, (Fraction(1, 3),) * 3, (0, 0)),
    ("matching_pennies", (Fraction(1, 2),) * 2, (Fraction(1, 2),) * 2, (0, 0)),
    ("battle_of_sexes", (Fraction(3, 5), Fraction(2, 5)), (Fraction(2, 5), Fraction(3, 5)),
     (Fraction(6, 5), Fraction(6, 5))),
    ("stag_hunt", (Fraction(3, 4), Fraction(1, 4)), (Fraction(3, 4), Fraction(1, 4)), (3, 3)),
    ("chicken", (Fraction(9, 10), Fraction(1, 10)), (Fraction(9, 10), Fraction(1, 10)),
     (Fraction(-1, 10), Fraction(-1, 10))),
    ("shapley", (Fraction(1, 3),) * 3, (Fraction(1, 3),) * 3, (Fraction(1, 3), Fraction(1, 3))),
])
def test_stated_mixed_equilibria_are_equilibria(name, p, q, value):
    A, B = payoff_tables(f"preset={name}")
    R, C = len(A), len(A[0])
    # each player is indifferent between its pure actions against the other's mix
    for r in range(R):
        assert sum(Fraction(A[r][c]) * q[c] for c in range(C)) == value[0]
    for c in range(C):
        assert sum(Fraction(B[r][c]) * p[r] for r in range(R)) == value[1]
    assert mixed_value(A, p, q) == value[0] and mixed_value(B, p, q) == value[1]


def test_prisoners_dilemma_defect_dominates():
    A, B = payoff_tables("preset=prisoners_dilemma")
    assert all(A[1][c] > A[0][c] for c in range(2))
    assert all(B[r][1] > B[r][0] for r in range(2))


# ---------------------------------------------------------------- custom tables

def test_custom_table_is_zero_sum_by_default():
    g = Game(KIND, "rows=2 cols=3 a0=1/2/3 a1=-4/0.5/0")
    assert g.legal_moves(0) == [0, 1] and g.legal_moves(1) == [0, 1, 2]
    assert [g.move_name(0, m) for m in range(2)] == ["r0", "r1"]
    assert [g.move_name(1, m) for m in range(3)] == ["c0", "c1", "c2"]
    A = [[1, 2, 3], [-4, 0.5, 0]]
    got = payoff_tables(g.params)
    assert got == (A, [[-x for x in row] for row in A])
    # no negative zero: -0 would print and hash differently from 0
    assert str(one_round(g.params, 1, 2)[1]) == "0.0"
    assert "b0" not in g.params


def test_custom_table_general_sum_with_b_rows():
    p = "rows=2 cols=2 a0=3/0 a1=5/1 b0=3/5 b1=0/1 row_actions=C/D col_actions=c/d"
    assert payoff_tables(p) == ([[3, 0], [5, 1]], [[3, 5], [0, 1]])
    g = Game(KIND, p)
    assert [g.move_name(0, m) for m in range(2)] == ["C", "D"]
    assert [g.move_name(1, m) for m in range(2)] == ["c", "d"]
    assert "b1=0/1" in g.params


def test_preset_custom_may_be_explicit():
    a = Game(KIND, "preset=custom rows=1 cols=2 a0=1/2")
    b = Game(KIND, "rows=1 cols=2 a0=1/2")
    assert a.params == b.params


def test_one_by_n_table():
    g = Game(KIND, "rows=1 cols=5 a0=1/2/3/4/5 col_actions=a/b/c/d/e")
    assert g.legal_moves(0) == [0] and g.legal_moves(1) == [0, 1, 2, 3, 4]
    for c in range(5):
        assert one_round(g.params, 0, c) == [c + 1, -(c + 1)]
    with pytest.raises(InvalidArgument):
        g.step([1, 0])


def big_table(seed: int, scale: float) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.uniform(-scale, scale) for _ in range(16)] for _ in range(16)]


def test_sixteen_by_sixteen_general_sum():
    A, B = big_table(1, 1000.0), big_table(2, 1.0)
    g = Game(KIND, table_params(A, B))
    assert g.legal_moves(0) == list(range(16)) and g.legal_moves(1) == list(range(16))
    for r, c in [(0, 0), (15, 15), (3, 11), (11, 3)]:
        assert one_round(g.params, r, c) == [A[r][c], B[r][c]]
    d = decode(g.export())
    assert d["len"] == HEADER + 3 * 256
    assert d["a"] == [milli(x) for row in A for x in row]
    assert d["b"] == [milli(x) for row in B for x in row]


def test_payoff_bounds_and_milli_rounding():
    g = Game(KIND, "rows=1 cols=6 a0=1e6/-1e6/0.0005/-0.0005/0.0004999/1e-300 "
                   "b0=0.0015/-0.0025/2.5e-4/-7.49e-4/999999.9994/-999999.9996")
    d = decode(g.export())
    assert d["a"] == [10**9, -10**9, 1, -1, 0, 0]
    assert d["b"] == [milli(x) for x in (0.0015, -0.0025, 2.5e-4, -7.49e-4,
                                         999999.9994, -999999.9996)]
    assert d["b"][4:] == [999999999, -1000000000]


# ---------------------------------------------------------------- repeats

def test_repeated_game_totals_rankings_and_end():
    g = Game(KIND, "preset=prisoners_dilemma repeats=3")
    C, D = 0, 1
    assert g.ranking() == [0, 0] and list(g.evaluate()) == [0, 0]
    assert list(g.step([C, D])) == [0, 5]
    assert g.ranking() == [1, 0] and list(g.evaluate()) == [0, 5]
    assert not g.is_terminal
    assert list(g.step([D, D])) == [1, 1]
    assert list(g.step([D, C])) == [5, 0]
    assert g.turn == 3 and g.is_terminal
    assert list(g.evaluate()) == [6, 6] and g.ranking() == [0, 0]
    assert g.is_alive(0) and g.is_alive(1)
    assert g.legal_moves(0) == [] and g.legal_moves(1) == []
    with pytest.raises(InvalidState, match="terminal|over"):
        g.step([C, C])
    assert g.turn == 3


def test_repeated_rps_totals():
    g = Game(KIND, "preset=rps repeats=5")
    R, P, S = 0, 1, 2
    for joint in [(R, S), (R, S), (P, S), (S, S), (P, R)]:
        assert not g.is_terminal
        g.step(list(joint))
    # row: +1 +1 -1 0 +1 = 2, column: -2
    assert g.is_terminal and list(g.evaluate()) == [2, -2] and g.ranking() == [0, 1]
    d = decode(g.export())
    assert d["turn"] == 5 and d["last"] == (P, R)
    counts = [0] * 9
    for r, c in [(R, S), (R, S), (P, S), (S, S), (P, R)]:
        counts[3 * r + c] += 1
    assert d["counts"] == counts


def test_nobody_is_ever_eliminated():
    g = Game(KIND, "preset=chicken repeats=2")
    g.step([1, 1])
    assert g.alive == [True, True]


# ---------------------------------------------------------------- illegal moves

@pytest.mark.parametrize("params, joint", [
    ("preset=rps", [3, 0]),
    ("preset=rps", [0, 3]),
    ("preset=rps", [-1, 0]),
    ("rows=3 cols=2 a0=1/2 a1=3/4 a2=5/6", [0, 2]),
    ("rows=3 cols=2 a0=1/2 a1=3/4 a2=5/6", [3, 0]),
    ("preset=matching_pennies", [0]),
])
def test_illegal_moves_refused(params, joint):
    g = Game(KIND, params)
    before = g.state_hash()
    with pytest.raises(InvalidArgument):
        g.step(joint)
    assert g.turn == 0 and g.state_hash() == before


def test_three_by_two_row_two_is_legal_for_rows_only():
    g = Game(KIND, "rows=3 cols=2 a0=1/2 a1=3/4 a2=5/6")
    assert list(g.step([2, 1])) == [6, -6]


# ---------------------------------------------------------------- bad parameters

@pytest.mark.parametrize("params, words", [
    ("preset=rpss", ["preset", "rpss"]),
    ("preset=custom", ["rows"]),
    ("nosuch=1", ["nosuch"]),
    ("rows=2 cols=2 a0=1/2", ["a1", "missing"]),
    ("rows=2 a0=1/2 a1=3/4", ["cols"]),
    ("rows=2 cols=2 a0=1/2 a1=3/4/5", ["a1", "expected 2 values", "got 3"]),
    ("rows=2 cols=2 a0=1/2 a1=3", ["a1", "expected 2"]),
    ("rows=2 cols=2 a0=1/x a1=3/4", ["a0", "'x'", "not a number"]),
    ("rows=2 cols=2 a0=1/2 a1=3/4 b0=1/2", ["b1", "missing"]),
    ("rows=2 cols=2 a0=1/2 a1=3/4 b0=1/2 b1=1/zz", ["b1", "zz"]),
    ("rows=2 cols=2 a0=1//2 a1=3/4", ["a0", "empty"]),
    ("rows=2 cols=2 a0=1/2/ a1=3/4", ["a0", "empty"]),
    ("rows=1 cols=1 a0=inf", ["a0", "not finite"]),
    ("rows=1 cols=1 a0=nan", ["a0", "not finite"]),
    ("rows=1 cols=1 a0=1e999", ["a0", "not finite"]),
    ("rows=1 cols=1 a0=1000000.5", ["a0", "out of range"]),
    ("rows=1 cols=1 a0=-2e6", ["a0", "out of range"]),
    ("rows=1 cols=1 a0=1 a1=2", ["a1", "no such row", "rows=1"]),
    ("rows=1 cols=1 a0=1 b3=2", ["b3", "no such row"]),
    ("rows=1 cols=1 a0=1 a16=2", ["a16", "out of range"]),
    ("rows=17 cols=2", ["rows", "1..16", "17"]),
    ("rows=0 cols=2", ["rows", "0"]),
    ("rows=2 cols=17", ["cols", "17"]),
    ("preset=rps rows=3 cols=3", ["preset", "rps", "table"]),
    ("preset=rps a0=0/-1/1", ["preset", "rps", "a0"]),
    ("a0=1/2 preset=matching_pennies", ["preset", "matching_pennies", "a0"]),
    ("row_actions=a/b/c!", ["row_actions", "c!"]),
    ("row_actions=a/b/", ["row_actions", "1..15"]),
    ("col_actions=a/abcdefghijklmnop/c", ["col_actions", "1..15"]),
    ("row_actions=a/b/a", ["row_actions", "twice"]),
    ("row_actions=a/b", ["row_actions", "expected 3 names", "got 2"]),
    ("preset=matching_pennies col_actions=x/y/z", ["col_actions", "expected 2"]),
    ("repeats=0", ["repeats", "1..10000"]),
    ("repeats=10001", ["repeats"]),
    ("repeats=two", ["repeats", "two"]),
    ("rows", ["rows", "key=value"]),
])
def test_bad_parameters(params, words):
    with pytest.raises(InvalidArgument) as exc:
        Game(KIND, params)
    msg = str(exc.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, (params, msg)


def test_params_doc_lists_presets_table_syntax_and_evaluation():
    doc = params_doc(KIND)
    for word in ["rps", "biased_rps", "matching_pennies", "prisoners_dilemma",
                 "battle_of_sexes", "stag_hunt", "chicken", "shapley", "rows=", "a0=",
                 "b0=", "row_actions=", "repeats=", "Evaluation"]:
        assert word in doc


# ---------------------------------------------------------------- describe

def behaves_identically(g: Game, h: Game) -> None:
    assert h.params == g.params
    assert list(h.export()) == list(g.export())
    assert h.state_hash() == g.state_hash()
    h.copy_from(g)   # the C configs are bytewise equal
    for a in range(2):
        moves = g.legal_moves(a)
        assert h.legal_moves(a) == moves
        assert [h.move_name(a, m) for m in moves] == [g.move_name(a, m) for m in moves]
    for r, c in itertools.product(g.legal_moves(0), g.legal_moves(1)):
        x, y = g.clone(), h.clone()
        assert list(x.step([r, c])) == list(y.step([r, c]))
        assert list(x.evaluate()) == list(y.evaluate()) and x.ranking() == y.ranking()
        assert x.state_hash() == y.state_hash()


ROUND_TRIP = [f"preset={n} repeats=4" for n in sorted(PRESETS)] + [
    "preset=rps row_actions=R/P/S col_actions=rock2/paper2/scissors2",
    "rows=2 cols=3 a0=0.1/0.2/0.3 a1=1e-300/-0/5e-324",
    "rows=1 cols=1 a0=7 b0=-7",            # explicitly zero-sum
    "rows=2 cols=2 a0=0/1 a1=2/3 b0=0/-1 b1=-2/-3.0000000000000004",
]


@pytest.mark.parametrize("params", ROUND_TRIP)
def test_describe_round_trip(params):
    g = Game(KIND, params)
    behaves_identically(g, Game(KIND, g.params))


def test_describe_writes_shortest_exact_numbers():
    g = Game(KIND, "rows=1 cols=3 a0=0.1/0.30000000000000004/3")
    assert "a0=0.1/0.30000000000000004/3" in g.params
    assert "row_actions=r0 col_actions=c0/c1/c2" in g.params


def test_sixteen_by_sixteen_general_sum_round_trip_longest_description():
    # every payoff needs 17 significant digits and an exponent: the longest
    # description any matrix game can have
    rng = random.Random(5)
    A = [[-rng.uniform(1, 2) * 1e-300 for _ in range(16)] for _ in range(16)]
    B = [[-rng.uniform(1, 2) * 1e-300 for _ in range(16)] for _ in range(16)]
    names = "/".join(f"action_{i:02d}-abcde" for i in range(16))   # 15 chars each
    g = Game(KIND, table_params(A, B, row_actions=names, col_actions=names, repeats=10000))
    assert len(g.params) > 12000
    h = Game(KIND, g.params)
    behaves_identically(g, h)
    assert one_round(h.params, 7, 9) == [A[7][9], B[7][9]]
    # and a played state carries over too
    for _ in range(20):
        joint = [rng.randrange(16), rng.randrange(16)]
        assert list(g.step(joint)) == list(h.step(joint))
    assert list(g.export()) == list(h.export())
    assert list(g.evaluate()) == list(h.evaluate())


def test_sixteen_by_sixteen_random_table_round_trip():
    A, B = big_table(3, 1e6), big_table(4, 1e-3)
    g = Game(KIND, table_params(A, B, repeats=7))
    behaves_identically(g, Game(KIND, g.params))


# ---------------------------------------------------------------- export / import / hash

def played(params: str, joints) -> Game:
    g = Game(KIND, params)
    for j in joints:
        g.step(list(j))
    return g


def test_export_import_export_identical():
    g = played("preset=biased_rps repeats=10", [(0, 1), (2, 2), (0, 1), (1, 0)])
    words = g.export()
    d = decode(words)
    assert d["turn"] == 4 and d["last"] == (1, 0) and d["repeats"] == 10
    assert d["counts"] == [0, 2, 0, 1, 0, 0, 0, 0, 1]
    h = Game(KIND, "preset=biased_rps repeats=10")
    h.import_state(words)
    assert list(h.export()) == list(words)
    assert h.state_hash() == g.state_hash() and h.turn == 4
    assert list(h.evaluate()) == list(g.evaluate()) == [-25 * 2 + 25, 25 * 2 - 25]


def test_import_of_a_finished_game():
    g = played("preset=stag_hunt repeats=2", [(0, 0), (1, 0)])
    h = Game(KIND, "preset=stag_hunt repeats=2")
    h.import_state(g.export())
    assert h.is_terminal and list(h.evaluate()) == [7, 4]


def test_hash_stable_under_clone_and_changed_by_a_step():
    g = Game(KIND, "preset=rps repeats=3")
    h0 = g.state_hash()
    assert g.clone().state_hash() == h0
    assert Game(KIND, "preset=rps repeats=3", seed=99).state_hash() == h0   # no chance
    g.step([0, 1])
    h1 = g.state_hash()
    assert h1 != h0 and g.clone().state_hash() == h1
    g2 = Game(KIND, "preset=rps repeats=3")
    g2.step([1, 0])
    assert g2.state_hash() != h1
    g.step([1, 0])
    g2.step([0, 1])
    # same counts, different last action: different states
    assert g.state_hash() != g2.state_hash()
    assert list(g.evaluate()) == list(g2.evaluate())


def corrupt_cases(words: list[int]):
    """(name, words) of malformed imports derived from a valid 3x3 export at
    turn 3 with last action (0, 1)."""
    R, C = words[1], words[2]
    n = R * C
    def w(**changes):
        out = list(words)
        for i, v in changes.items():
            out[int(i[1:])] = v
        return out
    yield "empty", []
    yield "short header", words[:5]
    yield "version", w(i0=2)
    yield "rows", w(i1=2)
    yield "cols", w(i2=4)
    yield "repeats", w(i3=words[3] + 1)
    yield "turn negative", w(i4=-1)
    yield "turn past repeats", w(i4=words[3] + 1)
    yield "turn vs counts", w(i4=2)
    yield "truncated", words[:-1]
    yield "extra word", words + [0]
    yield "last row out of range", w(i5=3)
    yield "last col negative", w(i6=-1)
    yield "last action never played", w(i5=1, i6=2)
    yield "negative count", w(**{f"i{HEADER}": -1, f"i{HEADER + 1}": 3})
    yield "payoff word of a", w(**{f"i{HEADER + n}": 1})
    yield "payoff word of b", w(**{f"i{HEADER + 3 * n - 1}": 7})
    zero = list(words)
    zero[4] = 0
    zero[HEADER:HEADER + n] = [0] * n
    yield "turn 0 with a last action", zero
    first = list(zero)
    first[5] = first[6] = -1
    first[4] = 1
    first[HEADER] = 1
    yield "turn 1 without a last action", first


def test_malformed_imports_refused_state_unchanged():
    src = played("preset=rps repeats=5", [(0, 1), (2, 2), (0, 1)])
    # valid reference: turn 3, last (0, 1)
    words = [int(x) for x in src.export()]
    g = played("preset=rps repeats=5", [(1, 1)])
    before_words, before_hash = list(g.export()), g.state_hash()
    for name, bad in corrupt_cases(words):
        with pytest.raises(InvalidArgument):
            g.import_state(bad)
            pytest.fail(f"accepted: {name}")
        assert list(g.export()) == before_words, name
        assert g.state_hash() == before_hash, name
    g.import_state(words)          # and the valid one still goes in
    assert list(g.export()) == words


def test_import_into_a_game_with_another_table_refused():
    words = Game(KIND, "preset=rps").export()
    for other in ["preset=shapley", "preset=biased_rps", "preset=rps repeats=2",
                  "rows=3 cols=3 a0=0/-1/1 a1=1/0/-1 a2=-1/1/0.001"]:
        with pytest.raises(InvalidArgument):
            Game(KIND, other).import_state(words)
    # the same table spelled as a custom game is the same game
    Game(KIND, "rows=3 cols=3 a0=0/-1/1 a1=1/0/-1 a2=-1/1/0").import_state(words)


def test_import_fuzz_never_crashes():
    rng = np.random.default_rng(7)
    params = "rows=3 cols=2 a0=1/2 a1=3/4 a2=5/6 repeats=4"
    src = played(params, [(2, 1), (0, 0)])
    words = src.export().astype(np.int64)
    g = Game(KIND, params)
    accepted = 0
    for _ in range(3000):
        kind = rng.integers(4)
        if kind == 0:
            bad = rng.integers(-3, 8, size=rng.integers(0, 30))
        elif kind == 1:
            bad = words.copy()
            k = rng.integers(1, 4)
            idx = rng.integers(0, len(bad), size=k)
            bad[idx] = rng.integers(-2**31, 2**31, size=k)
        elif kind == 2:
            bad = words.copy()
            i = rng.integers(0, len(bad))
            bad[i] += rng.choice([-1, 1])
        else:
            bad = words[: rng.integers(0, len(words) + 1)]
        before = list(g.export())
        try:
            g.import_state(bad)
            accepted += 1
            again = g.export()
            assert list(again) == [int(x) for x in bad]   # accepted => exact
        except InvalidArgument:
            assert list(g.export()) == before
    assert accepted < 3000


# ---------------------------------------------------------------- search

def run_search(params: str, iterations: int = 2000, depth: int = 1, seed: int = 3):
    g = Game(KIND, params)
    with Search(g, SearchParams(max_depth=depth), seed=seed) as s:
        res = s.run(iterations=iterations)
        best = s.best_moves()
        stats = [s.root_stats(a) for a in range(2)]
    return g, res, best, stats


def test_smitsimax_runs_on_rps():
    g, res, best, stats = run_search("preset=rps")
    assert res.iterations == 2000
    assert best[0] in g.legal_moves(0) and best[1] in g.legal_moves(1)
    assert sorted(m.move for m in stats[0]) == [0, 1, 2]
    assert sum(m.visits for m in stats[0]) == 2000


def test_smitsimax_runs_on_a_three_by_two_table():
    params = "rows=3 cols=2 a0=1/0 a1=0/1 a2=2/-1 b0=0/1 b1=1/0 b2=-1/3"
    g, res, best, stats = run_search(params)
    assert best[0] in [0, 1, 2] and best[1] in [0, 1]
    assert sorted(m.move for m in stats[0]) == [0, 1, 2]
    assert sorted(m.move for m in stats[1]) == [0, 1]


def test_smitsimax_finds_a_dominant_row():
    # row 1 pays 2 more whatever the column; the column player is indifferent
    g, res, best, stats = run_search("rows=2 cols=2 a0=0/1 a1=2/3 b0=0/0 b1=0/0",
                                     iterations=3000)
    assert best[0] == 1
    assert stats[0][1].mean > stats[0][0].mean + 1.5


def test_smitsimax_symmetric_games_move_in_lockstep():
    # Documents a property of decoupled UCB1, not of the game: in a symmetric
    # game both trees see the same scores and (UCB being deterministic past
    # random_threshold) pick the same actions, so in the prisoner's dilemma
    # exploring "defect" always meets "defect" and cooperation looks better.
    g, res, best, stats = run_search("preset=prisoners_dilemma", iterations=5000)
    assert [(m.move, m.visits) for m in stats[0]] == [(m.move, m.visits) for m in stats[1]]
    assert best[0] == best[1]


def test_smitsimax_on_a_repeated_game_and_at_the_end():
    g, res, best, _ = run_search("preset=stag_hunt repeats=3", depth=5)
    assert res.iterations == 2000 and best[0] in (0, 1)
    done = played("preset=stag_hunt", [(0, 0)])
    with Search(done, SearchParams(max_depth=1)) as s:
        assert s.run(iterations=10).stop_reason == "terminal"


def test_parameter_fuzz_never_crashes():
    """Valid strings, mutated: each either builds a game that round-trips
    through describe or is refused with a one-line message."""
    rng = random.Random(11)
    seeds = ["preset=rps repeats=3", "preset=chicken row_actions=a/b col_actions=c/d",
             "rows=2 cols=3 a0=1/2/3 a1=4/5/6", "rows=1 cols=2 a0=0.5/-1 b0=2/1e-9",
             "preset=custom rows=3 cols=1 a0=1 a1=2 a2=3 b0=0 b1=0 b2=0 repeats=2"]
    pieces = ["preset=", "rps", "custom", "rows=", "cols=", "a0=", "a1=", "b0=", "b15=",
              "a16=", "row_actions=", "col_actions=", "repeats=", "/", "//", "1", "-0",
              "1e308", "1e-320", "nan", "x", "=", " ", ",", ";", "0x1p3", "16", "17",
              "abcdefghijklmnopq", "_", "-", "\u00e9", "a" * 300, "9" * 40]
    ok = 0
    for _ in range(3000):
        text = rng.choice(seeds)
        for _ in range(rng.randrange(0, 3)):
            k = rng.randrange(len(text) + 1)
            if rng.random() < 0.5:
                text = text[:k] + rng.choice(pieces) + text[k:]
            else:
                text = text[:k] + text[k + rng.randrange(1, 6):]
        try:
            g = Game(KIND, text)
        except InvalidArgument as exc:
            assert str(exc) and "\n" not in str(exc)
            continue
        ok += 1
        behaves_identically(g, Game(KIND, g.params))
    assert 100 < ok < 3000


def test_params_model_knows_every_presets_shape_and_refuses_what_c_refuses():
    """The model's preset shapes are C's (read from the export), and action
    names that C refuses (none, or a count other than the preset's) are
    refused by the model too: the fuzz suite found `col_actions = []` and
    a wrong count passing the model but not C."""
    from pydantic import ValidationError

    from sandbox.games.matrix.params import PRESET_SHAPES, MatrixGameParams
    for name, (rows, cols) in PRESET_SHAPES.items():
        with Game("matrix", f"preset={name}", seed=1) as g:
            w = g.export()
            assert (int(w[1]), int(w[2])) == (rows, cols), name
    for bad in ({"col_actions": []}, {"row_actions": []}, {"col_actions": ["a"]},
                {"preset": "rps", "row_actions": ["x", "y"]},
                {"preset": "matching_pennies", "col_actions": ["a", "b", "c"]}):
        with pytest.raises(ValidationError):
            MatrixGameParams(**bad)
        text = " ".join(f"{k}={'/'.join(v) if isinstance(v, list) else v}" for k, v in bad.items())
        with pytest.raises(InvalidArgument):
            Game("matrix", text, seed=1)
    ok = MatrixGameParams(preset="matching_pennies", col_actions=["h", "t"])
    Game("matrix", ok.c_params(), seed=1).close()

"""One case per rule of docs/games.md, Snakes (snakes, ruleset standard).

Each case builds a position by hand (import_state of words made from a
readable description) and runs on BOTH the C engine and the pure-Python
reference (the `engine` fixture), asserting the rule, not a recorded output.
"""
from __future__ import annotations

import itertools

import pytest

from sandbox.native import Game, InvalidArgument, InvalidState
from sandbox.games.snakes.reference import Snake, SnakesGame, build_export, decode_export
from sandbox.games.snakes.reference import (CAUSE_BODY_COLLISION, CAUSE_HEAD_TO_HEAD,
                                      CAUSE_OUT_OF_BOUNDS, CAUSE_SELF_COLLISION,
                                      CAUSE_STARVED, DOWN, DX, DY, LEFT, RIGHT, UP)

ENGINES = ["c", "reference"]
# No food appears unless a case asks for it.
QUIET = {"food_spawn_chance": 0, "minimum_food": 0, "initial_food": 0}


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


def new_game(engine: str, params: dict, seed: int = 0):
    if engine == "c":
        return Game("snakes", params, seed=seed)
    return SnakesGame(params, seed=seed)


def alive(*body, health=100) -> Snake:
    """A live snake, segments head first: alive((3, 3), (3, 2), (3, 1))."""
    return Snake(list(body), health)


def dead(*body, turn, cause, health=50) -> Snake:
    return Snake(list(body), health, alive=False, death_turn=turn, cause=cause)


def position(engine: str, snakes, food=(), width=7, height=7, turn=0, seed=0, **params):
    """A game of either engine set to a hand-made position."""
    p = {"width": width, "height": height, "snakes": len(snakes), **QUIET, **params}
    g = new_game(engine, p, seed=seed)
    g.import_state(build_export(width, height, snakes, food, turn))
    return g


def state(g):
    return decode_export(list(g.export()))


# ---------------------------------------------------------------- start layout

SQUARE_CONFIGS = [(11, 4), (11, 8), (7, 2), (7, 4), (5, 8), (19, 8), (11, 1)]


@pytest.mark.parametrize("side,n", SQUARE_CONFIGS)
def test_start_cells_follow_the_lo_mid_hi_rule(engine, side, n):
    lo, mid, hi = 1, (side - 1) // 2, side - 2
    corners = {(lo, lo), (lo, hi), (hi, lo), (hi, hi)}
    mids = {(lo, mid), (mid, lo), (mid, hi), (hi, mid)}
    first_groups, first_cells = set(), set()
    for seed in range(60):
        g = new_game(engine, {"width": side, "height": side, "snakes": n}, seed=seed)
        st = state(g)
        assert st.turn == 0
        heads = [s.body[0] for s in st.snakes]
        assert len(set(heads)) == n
        for s in st.snakes:
            assert s.alive and s.health == 100 and s.death_turn == -1 and s.cause == 0
            assert s.body == [s.body[0]] * 3  # length 3, all stacked on the start cell
        group = corners if heads[0] in corners else mids
        other = mids if group is corners else corners
        assert all(h in group for h in heads[:4])   # first four from one group,
        assert all(h in other for h in heads[4:])   # the rest from the other
        first_groups.add(group is corners)
        first_cells.add(heads[0])
    assert first_groups == {True, False}  # the seeded coin picks either group first
    assert len(first_cells) == 8          # each group is shuffled


def test_start_cells_of_a_second_seed_differ_but_a_seed_repeats(engine):
    a = state(new_game(engine, {}, seed=11))
    b = state(new_game(engine, {}, seed=11))
    assert a == b
    layouts = {tuple(s.body[0] for s in state(new_game(engine, {}, seed=k)).snakes)
               for k in range(20)}
    assert len(layouts) > 5


def is_initial_food_for(food, head, centre, w, h) -> bool:
    """RULES.md: diagonal to the head, farther from the centre than the head
    on at least one axis, not a corner, not the centre."""
    (fx, fy), (hx, hy), (cx, cy) = food, head, centre
    diagonal = abs(fx - hx) == 1 and abs(fy - hy) == 1
    away = (fx < hx < cx) or (cx < hx < fx) or (fy < hy < cy) or (cy < hy < fy)
    corner = fx in (0, w - 1) and fy in (0, h - 1)
    return diagonal and away and not corner and food != centre


@pytest.mark.parametrize("w,h,n", [(11, 11, 4), (11, 11, 8), (7, 7, 2), (19, 19, 8), (9, 9, 3)])
def test_initial_food(engine, w, h, n):
    centre = ((w - 1) // 2, (h - 1) // 2)
    offsets = set()
    for seed in range(40):
        st = state(new_game(engine, {"width": w, "height": h, "snakes": n}, seed=seed))
        heads = [s.body[0] for s in st.snakes]
        assert centre in st.food
        others = [f for f in st.food if f != centre]
        assert len(others) == n          # one per snake (no two snakes compete here)
        for head in heads:               # each snake has its food...
            mine = [f for f in others if is_initial_food_for(f, head, centre, w, h)]
            assert mine
            offsets.add((mine[0][0] - head[0], mine[0][1] - head[1]))
        for f in others:                 # ...and every food belongs to a snake
            assert any(is_initial_food_for(f, hd, centre, w, h) for hd in heads)
    assert len(offsets) >= 3  # the seeded pick among candidates varies


def test_no_initial_food_when_switched_off(engine):
    assert state(new_game(engine, {"initial_food": 0, "minimum_food": 0})).food == []


# ---------------------------------------------------------------- health and feeding

def test_eating_on_the_last_health_point_survives(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1), health=1)], food=[(3, 4)])
    rewards = list(g.step([UP]))
    s = state(g).snakes[0]
    assert s.alive and s.health == 100
    assert s.body == [(3, 4), (3, 3), (3, 2), (3, 2)]  # grew by duplicating the tail
    assert state(g).food == []
    assert rewards == [0.0]


def test_eating_restores_max_health(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1), health=40)], food=[(4, 3)],
                 max_health=250)
    g.step([RIGHT])
    assert state(g).snakes[0].health == 250


def test_health_drops_by_one_per_turn_and_starving_kills(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1), health=2)])
    g.step([UP])
    s = state(g).snakes[0]
    assert s.alive and s.health == 1
    rewards = list(g.step([UP]))
    s = state(g).snakes[0]
    assert not s.alive and s.cause == CAUSE_STARVED and s.death_turn == 2 and s.health == 0
    assert rewards == [-1.0]


# ---------------------------------------------------------------- head to head

def duel(engine, a_len, b_len, food):
    a = [(2, 3), (1, 3), (0, 3), (0, 2), (0, 1)][:a_len]
    b = [(4, 3), (5, 3), (6, 3), (6, 2), (6, 1)][:b_len]
    return position(engine, [alive(*a), alive(*b), alive((3, 0), (4, 0), (5, 0))], food=food)


def test_head_on_on_food_both_eat_then_equal_lengths_both_die(engine):
    g = duel(engine, 3, 3, food=[(3, 3)])
    g.step([RIGHT, LEFT, UP])
    a, b, _ = state(g).snakes
    assert state(g).food == []
    for s in (a, b):
        assert not s.alive and s.cause == CAUSE_HEAD_TO_HEAD
        assert s.length == 4 and s.health == 100  # both ate before the head-on


def test_head_on_on_food_longer_survives(engine):
    g = duel(engine, 4, 3, food=[(3, 3)])
    g.step([RIGHT, LEFT, UP])
    a, b, _ = state(g).snakes
    assert a.alive and a.length == 5 and a.health == 100
    assert not b.alive and b.cause == CAUSE_HEAD_TO_HEAD


@pytest.mark.parametrize("a_len,b_len", [(3, 3), (4, 3), (3, 4), (5, 4)])
def test_head_on_away_from_food(engine, a_len, b_len):
    g = duel(engine, a_len, b_len, food=[])
    g.step([RIGHT, LEFT, UP])
    a, b, _ = state(g).snakes
    assert a.alive == (a_len > b_len)
    assert b.alive == (b_len > a_len)
    for s in (a, b):
        if not s.alive:
            assert s.cause == CAUSE_HEAD_TO_HEAD


def test_three_way_head_on_only_the_longest_survives(engine):
    g = position(engine, [alive((2, 3), (1, 3), (0, 3)),
                          alive((4, 3), (5, 3), (6, 3)),
                          alive((3, 2), (3, 1), (3, 0), (2, 0), (1, 0))])
    g.step([RIGHT, LEFT, UP])
    a, b, c = state(g).snakes
    assert (a.alive, b.alive, c.alive) == (False, False, True)


# ---------------------------------------------------------------- tails

def test_chasing_own_tail_is_safe(engine):
    g = position(engine, [alive((1, 1), (1, 2), (2, 2), (2, 1))])
    g.step([RIGHT])  # into the cell the tail leaves this turn
    s = state(g).snakes[0]
    assert s.alive and s.body == [(2, 1), (1, 1), (1, 2), (2, 2)]


@pytest.mark.parametrize("with_food", [True, False])
def test_chasing_a_stacked_tail_right_after_eating_is_not_safe(engine, with_food):
    g = position(engine, [alive((1, 1), (1, 2), (2, 2), (2, 3))],
                 food=[(2, 1)] if with_food else [])
    g.step([RIGHT])   # eats if there is food: the tail (2, 2) is now stacked
    g.step([UP])      # into (2, 2)
    s = state(g).snakes[0]
    if with_food:
        assert not s.alive and s.cause == CAUSE_SELF_COLLISION
    else:
        assert s.alive


def test_following_another_snakes_tail_is_safe(engine):
    g = position(engine, [alive((1, 1), (0, 1), (0, 2)), alive((3, 2), (3, 1), (2, 1))])
    g.step([RIGHT, UP])  # A's head enters the cell B's tail leaves
    a, b = state(g).snakes
    assert a.alive and b.alive and a.body[0] == (2, 1)


def test_following_a_tail_that_just_grew_is_not_safe(engine):
    g = position(engine, [alive((1, 1), (0, 1), (0, 2)), alive((3, 2), (3, 1), (2, 1), (2, 1))])
    g.step([RIGHT, UP])
    a, b = state(g).snakes
    assert not a.alive and a.cause == CAUSE_BODY_COLLISION and b.alive


def test_swapping_cells_kills_both(engine):
    g = position(engine, [alive((2, 3), (1, 3), (0, 3)), alive((3, 3), (4, 3), (5, 3)),
                          alive((3, 0), (4, 0), (5, 0))])
    g.step([RIGHT, LEFT, UP])
    a, b, c = state(g).snakes
    assert a.cause == b.cause == CAUSE_BODY_COLLISION and not a.alive and not b.alive
    assert c.alive


# ---------------------------------------------------------------- walls and bodies

@pytest.mark.parametrize("start,move,off", [
    ([(3, 6), (3, 5), (3, 4)], UP, (3, 7)),
    ([(3, 0), (3, 1), (3, 2)], DOWN, (3, -1)),
    ([(0, 3), (1, 3), (2, 3)], LEFT, (-1, 3)),
    ([(6, 3), (5, 3), (4, 3)], RIGHT, (7, 3)),
])
def test_out_of_bounds_on_each_edge(engine, start, move, off):
    g = position(engine, [alive(*start)])
    assert list(g.step([move])) == [-1.0]
    s = state(g).snakes[0]
    assert not s.alive and s.cause == CAUSE_OUT_OF_BOUNDS
    assert s.body[0] == off  # the export keeps the head where it went
    words = list(g.export())
    g.import_state(words)    # and such a state imports again
    assert list(g.export()) == words


def test_moving_back_into_the_neck_is_legal_and_fatal(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1))])
    assert DOWN in g.legal_moves(0)
    g.step([DOWN])
    s = state(g).snakes[0]
    assert not s.alive and s.cause == CAUSE_SELF_COLLISION


def test_self_collision_deeper_in_the_body(engine):
    g = position(engine, [alive((2, 2), (2, 3), (3, 3), (3, 2), (3, 1), (2, 1))])
    g.step([RIGHT])  # (3, 2) is the fourth segment
    s = state(g).snakes[0]
    assert not s.alive and s.cause == CAUSE_SELF_COLLISION


def test_body_collision(engine):
    g = position(engine, [alive((2, 4), (1, 4), (0, 4)), alive((3, 4), (3, 3), (3, 2))])
    g.step([RIGHT, UP])  # A's head lands on B's neck
    a, b = state(g).snakes
    assert not a.alive and a.cause == CAUSE_BODY_COLLISION
    assert b.alive


def test_dying_snakes_of_the_collision_phase_still_kill(engine):
    """Collisions are judged all at once: A dies head-on with B and is still
    an obstacle for C the same turn."""
    g = position(engine, [alive((2, 3), (2, 4), (2, 5)), alive((4, 3), (5, 3), (6, 3)),
                          alive((1, 4), (0, 4), (0, 5)), alive((6, 0), (5, 0), (4, 0))])
    g.step([RIGHT, LEFT, RIGHT, UP])  # C's head enters (2, 4), a cell of A's body
    a, b, c, d = state(g).snakes
    assert not a.alive and not b.alive and a.cause == b.cause == CAUSE_HEAD_TO_HEAD
    assert not c.alive and c.cause == CAUSE_BODY_COLLISION
    assert d.alive


# ---------------------------------------------------------------- elimination order

@pytest.mark.parametrize("health", [1, 50])
def test_a_starving_snakes_body_is_no_obstacle(engine, health):
    g = position(engine, [alive((3, 4), (3, 3), (3, 2), health=health),
                          alive((2, 3), (1, 3), (0, 3)), alive((6, 0), (5, 0), (4, 0))])
    g.step([UP, RIGHT, UP])  # T's head enters (3, 3): S's body after its move
    s, t, _ = state(g).snakes
    if health == 1:
        assert s.cause == CAUSE_STARVED and t.alive
    else:
        assert s.alive and not t.alive and t.cause == CAUSE_BODY_COLLISION


@pytest.mark.parametrize("s_move,t_survives", [(UP, True), (LEFT, False)])
def test_an_out_of_bounds_snakes_body_is_no_obstacle(engine, s_move, t_survives):
    g = position(engine, [alive((3, 6), (3, 5), (3, 4)), alive((2, 5), (1, 5), (0, 5)),
                          alive((6, 0), (5, 0), (4, 0))])
    g.step([s_move, RIGHT, UP])  # T's head enters (3, 5)
    s, t, _ = state(g).snakes
    assert t.alive == t_survives
    if s_move == UP:
        assert s.cause == CAUSE_OUT_OF_BOUNDS


@pytest.mark.parametrize("health", [1, 50])
def test_a_starving_snake_loses_no_head_on(engine, health):
    g = position(engine, [alive((2, 3), (1, 3), (0, 3), (0, 2), (0, 1), health=health),
                          alive((4, 3), (5, 3), (6, 3)), alive((6, 0), (5, 0), (4, 0))])
    g.step([RIGHT, LEFT, UP])
    s, t, _ = state(g).snakes
    if health == 1:
        assert s.cause == CAUSE_STARVED and t.alive
    else:
        assert s.alive and not t.alive and t.cause == CAUSE_HEAD_TO_HEAD


# ---------------------------------------------------------------- food spawn

def forbidden_for_food(st) -> set:
    """Cells where RULES.md forbids new food: live bodies and heads, and the
    cells next to a live head."""
    cells = set()
    for s in st.snakes:
        if s.alive:
            cells |= set(s.body)
            x, y = s.body[0]
            cells |= {(x + DX[m], y + DY[m]) for m in range(4)}
    return cells


def test_minimum_food_is_refilled(engine):
    g = position(engine, [alive((1, 1), (1, 2), (1, 3)), alive((5, 5), (5, 4), (5, 3))],
                 minimum_food=3, food_spawn_chance=0)
    g.step([RIGHT, LEFT])
    st = state(g)
    assert len(st.food) == 3
    assert not set(st.food) & forbidden_for_food(st)


def test_refill_takes_the_place_of_the_chance_spawn(engine):
    g = position(engine, [alive((1, 1), (1, 2), (1, 3)), alive((5, 5), (5, 4), (5, 3))],
                 minimum_food=2, food_spawn_chance=100)
    g.step([RIGHT, LEFT])
    assert len(state(g).food) == 2       # the two missing, no extra
    g.step([RIGHT, LEFT])
    assert len(state(g).food) == 3       # at the minimum: one more by chance


def test_food_never_spawns_on_or_next_to_a_head(engine):
    params = {"width": 7, "height": 7, "snakes": 4, "food_spawn_chance": 100,
              "minimum_food": 12}
    spawned = 0
    for seed in range(25):
        g = new_game(engine, params, seed=seed)
        moves = itertools.cycle([[UP, RIGHT, DOWN, LEFT], [RIGHT, DOWN, LEFT, UP]])
        while not g.is_terminal:
            before = set(state(g).food)
            g.step(next(moves))
            st = state(g)
            new = set(st.food) - before
            spawned += len(new)
            assert not new & forbidden_for_food(st)
    assert spawned > 100


def test_food_spawn_chance_zero_and_minimum_zero_means_no_food(engine):
    for seed in range(10):
        g = new_game(engine, {**QUIET, "snakes": 2}, seed=seed)
        for k in range(40):
            if g.is_terminal:
                break
            g.step([k % 4, (k + 1) % 4])
            assert state(g).food == []


def test_food_spawn_chance_is_a_probability(engine):
    """A tail-chasing snake on a 2x2 loop never eats (food cannot spawn on
    or next to it), so the food count counts the chance spawns."""
    turns = 300
    g = position(engine, [alive((1, 1), (1, 2), (2, 2), (2, 1), health=1000)], width=11, height=11,
                 food_spawn_chance=30, minimum_food=0, max_health=1000)
    for k in range(turns):
        g.step([(RIGHT, UP, LEFT, DOWN)[k % 4]])
    assert state(g).snakes[0].alive
    assert 0.2 * turns < len(state(g).food) < 0.4 * turns


# A Hamiltonian cycle of the 5x6 board: up column 0, then back and forth.
CYCLE = [(0, y) for y in range(6)] + [
    (x, y) for y in range(5, -1, -1)
    for x in (range(1, 5) if y % 2 else range(4, 0, -1))]


def test_full_board_spawns_nothing(engine):
    assert len(set(CYCLE)) == 30
    body = CYCLE[::-1]  # head (1, 0), tail (0, 0): the head chases the tail
    g = position(engine, [alive(*body)], width=5, height=6, minimum_food=1)
    g.step([LEFT])
    st = state(g)
    assert st.snakes[0].alive and st.food == []


@pytest.mark.parametrize("length", [24, 26])
def test_food_goes_to_the_few_allowed_cells_uniformly(engine, length):
    """With nearly every cell forbidden the random tries mostly fail and the
    exact scan places the food; over seeds every allowed cell is used."""
    body = CYCLE[:length][::-1]
    head, nxt = CYCLE[length - 1], CYCLE[length]
    move = next(m for m in range(4) if (head[0] + DX[m], head[1] + DY[m]) == nxt)
    seen = set()
    for seed in range(40):
        g = position(engine, [alive(*body)], width=5, height=6, minimum_food=1, seed=seed)
        g.reseed(seed)
        g.step([move])
        st = state(g)
        allowed = {(x, y) for x in range(5) for y in range(6)} - forbidden_for_food(st)
        assert len(st.food) == (1 if allowed else 0)
        assert set(st.food) <= allowed
        seen |= set(st.food)
    assert seen == allowed and allowed


# ---------------------------------------------------------------- end of game

def test_game_ends_when_at_most_one_snake_is_alive(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1)), alive((5, 5), (5, 4), (5, 3)),
                          alive((1, 5), (1, 4), (1, 3))])
    assert not g.is_terminal
    g.step([DOWN, UP, UP])  # the first dies
    assert not g.is_terminal
    g.step([None, DOWN, RIGHT])  # the second dies (a dead snake's move is ignored)
    assert g.is_terminal
    with pytest.raises(InvalidState):
        g.step([UP, UP, UP])


def test_solo_game_ends_when_the_snake_dies(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1))])
    g.step([UP])
    assert not g.is_terminal  # one snake alive does not end a solo game
    g.step([DOWN])
    assert g.is_terminal


def test_turn_limit_ends_the_game(engine):
    g = position(engine, [alive((1, 1), (1, 2), (2, 2), (2, 1)), alive((5, 5), (5, 4), (5, 3))],
                 max_turns=3, turn=1)
    g.step([RIGHT, LEFT])
    assert not g.is_terminal
    rewards = list(g.step([DOWN, DOWN]))
    assert g.is_terminal and all(state(g).snakes[i].alive for i in range(2))
    assert rewards == [1.0, 1.0]


def test_ranking_by_turn_of_death_with_ties(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1)),
                          dead((5, 5), (5, 4), (5, 3), turn=5, cause=CAUSE_STARVED),
                          dead((1, 5), (1, 4), (1, 3), turn=5, cause=CAUSE_BODY_COLLISION),
                          dead((5, 1), (5, 2), (4, 2), turn=3, cause=CAUSE_SELF_COLLISION),
                          alive((1, 1), (0, 1), (0, 0))], turn=6)
    assert list(g.ranking()) == [0, 2, 2, 4, 0]


def test_ranking_after_play(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1)), alive((5, 5), (5, 4), (5, 3)),
                          alive((1, 5), (1, 4), (1, 3)), alive((5, 1), (5, 0), (4, 0)),
                          alive((1, 1), (0, 1), (0, 0))])
    g.step([UP, DOWN, UP, UP, UP])       # snake 1 dies on turn 1
    assert list(g.ranking()) == [0, 4, 0, 0, 0]
    g.step([UP, None, DOWN, DOWN, UP])   # snakes 2 and 3 die on turn 2
    assert list(g.ranking()) == [0, 4, 2, 2, 0]


def test_rewards(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1)), alive((5, 5), (5, 4), (5, 3)),
                          alive((1, 5), (1, 4), (1, 3))])
    assert list(g.step([UP, DOWN, UP])) == [0.0, -1.0, 0.0]   # died this turn: -1
    assert list(g.step([UP, None, DOWN])) == [1.0, 0.0, -1.0]  # over: survivor +1


def test_legal_moves(engine):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1)),
                          dead((5, 5), (5, 4), (5, 3), turn=0, cause=CAUSE_STARVED),
                          alive((1, 5), (1, 4), (1, 3))])
    assert list(g.legal_moves(0)) == [UP, DOWN, LEFT, RIGHT]
    assert list(g.legal_moves(1)) == []
    for bad in (4, -1):
        with pytest.raises(InvalidArgument):
            g.step([bad, 0, 0])
    g.step([UP, 99, UP])  # a dead snake's entry is ignored
    assert state(g).turn == 1


def test_evaluation_follows_the_documented_formula(engine):
    w = dict(w_alive=1.5, w_dead=-2.0, w_outlived=0.25, w_length=0.05, w_health=0.2,
             w_food=0.4, w_space=0.8)
    g = position(engine, [alive((1, 1), (1, 2), (1, 3), (1, 4), health=30),
                          dead((5, 5), (5, 4), (5, 3), turn=2, cause=CAUSE_STARVED),
                          dead((4, 1), (4, 2), (4, 3), turn=1, cause=CAUSE_STARVED)],
                 food=[(4, 4), (3, 1)], turn=3, max_health=120, **w)
    # Snake 0 is the only live snake: it owns every free cell but its head.
    space = (49 - 4) / 49
    hunger = 1 - 30 / 120
    nearest = 2  # (3, 1)
    expected0 = (w["w_alive"] + w["w_length"] * 4 + w["w_health"] * 30 / 120
                 + w["w_outlived"] * 2 + w["w_food"] * hunger * (1 - nearest / 14)
                 + w["w_space"] * space)
    values = list(g.evaluate())
    assert values[0] == pytest.approx(expected0, rel=1e-12)
    assert values[1] == pytest.approx(w["w_dead"] + w["w_outlived"] * 1)  # outlived snake 2
    assert values[2] == pytest.approx(w["w_dead"])


def test_territory_is_split_by_distance(engine):
    """Two snakes facing each other on a row: cells nearer to one head are
    its own; with w_space alone the scores compare the two territories."""
    only_space = dict(w_alive=0.0, w_length=0.0, w_health=0.0, w_outlived=0.0,
                      w_food=0.0, w_space=1.0)
    g = position(engine, [alive((1, 3), (0, 3), (0, 2)), alive((4, 3), (5, 3), (6, 3))],
                 **only_space)
    a, b = g.evaluate()
    # Free cells: 49 - 6 occupied. Head (1,3) vs (4,3): a cell is A's if
    # strictly nearer to A; equal distances (x = 2.5: none; ties occur on
    # cells where |dA| == |dB|, counted for nobody).
    free = {(x, y) for x in range(7) for y in range(7)} - {
        (1, 3), (0, 3), (0, 2), (4, 3), (5, 3), (6, 3)}

    def dist(c, h):  # BFS distance avoiding bodies (heads are sources)
        frontier, seen, d = {h}, {h}, 0
        while frontier:
            if c in frontier:
                return d
            d += 1
            frontier = {(x + DX[m], y + DY[m]) for x, y in frontier for m in range(4)
                        if (x + DX[m], y + DY[m]) in free and (x + DX[m], y + DY[m]) not in seen}
            seen |= frontier
        return 99

    mine = sum(1 for c in free if dist(c, (1, 3)) < dist(c, (4, 3)))
    theirs = sum(1 for c in free if dist(c, (4, 3)) < dist(c, (1, 3)))
    assert a == pytest.approx(mine / 49)
    assert b == pytest.approx(theirs / 49)


# --------------------------------------------------------- imported extremes

def test_a_snake_as_long_as_its_body_buffer_eats_without_growing(engine):
    """Play never makes a snake longer than ncells + 2, but an imported body
    may stack many segments on one cell. The engine's body buffer holds 32
    segments on 5x5 (a power of two >= 25 + 4); a snake that reaches it
    keeps eating (health back to 100) without growing, and its head stays
    where it moved."""
    body = [(0, 0)] + [(0, 1)] * 27          # 28 segments: the import limit
    food = [(1, 0), (2, 0), (3, 0), (4, 0), (4, 1)]
    g = position(engine, [alive(*body, health=50)], food=food, width=5, height=5)
    lengths = []
    for move in (RIGHT, RIGHT, RIGHT, RIGHT, UP):
        g.step([move])
        st = state(g).snakes[0]
        assert st.alive, st
        lengths.append(len(st.body))
        assert st.health == 100
    assert lengths == [29, 30, 31, 32, 32]
    assert state(g).snakes[0].body[0] == (4, 1)


def test_import_refuses_more_words_than_an_export_may_hold(engine):
    """Whatever import accepts must export again (SBX_EXPORT_MAX words)."""
    g = new_game(engine, {"width": 7, "height": 7, "snakes": 2, **QUIET})
    words = list(build_export(7, 7, [alive((1, 1)), alive((5, 5))], (), 0))
    with pytest.raises(InvalidArgument, match="more than an export may hold"):
        g.import_state(words + [0] * 16384)
    g.import_state(words)   # the same state at its true size is fine

"""The `snakes` ruleset `snakebyte` (docs/games.md, SnakeByte), one test per clause.

Every position is built by hand (a small map given as rows, the snakes and
apples imported), stepped in C, and checked against the outcome worked out
by hand from the rules: the oracle is the rule text, not the Python twin.
y grows downward; moves: 0 up, 1 down, 2 left, 3 right.
"""
from __future__ import annotations

import pytest

from sandbox.native import Game, InvalidArgument
from sandbox.games.snakes.reference_byte import ByteSnake, SnakeByteGame
from sandbox.games.snakes.view import decode_snakebyte

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
W, H = 12, 9
# heads a, b, A, B each with two free cells below (overridden by imports);
# row 0 holds 12 apples so a snake may be up to 15 long; the rest is air
# above a wall floor, plus the walls a test asks for (rows 4..7)
BASE_TOP = ["*" * W, "a.b.....A.B.", "." * W, "." * W]


def make(walls: set[tuple[int, int]], snakes: list[list[tuple[int, int]]],
         apples: set[tuple[int, int]], alive=(True, True, True, True),
         turn: int = 0, max_turns: int = 200) -> Game:
    rows = list(BASE_TOP)
    for y in range(4, H - 1):
        rows.append("".join("#" if (x, y) in walls else "." for x in range(W)))
    rows.append("#" * W)
    params = {"ruleset": "snakebyte", "width": W, "height": H, "max_turns": max_turns,
              **{f"row{y}": r for y, r in enumerate(rows)}}
    g = Game("snakes", params, seed=1)
    r = SnakeByteGame.from_export(g.export())
    r.snakes = [ByteSnake(list(b), alive=al, death_turn=-1 if al else 0, cause=0 if al else 1)
                for b, al in zip(snakes, alive)]
    r.apples = set(apples)
    r.turn = turn
    g.import_state(r.export())
    return g


def view(g: Game):
    return decode_snakebyte(g.export())


FLOOR = {(x, 7) for x in range(W)}          # row 7 as wall: the floor is two rows thick
# parked snakes: standing on the floor in the corners, out of the way
PARK_A = [(0, 4), (0, 5), (0, 6)]
PARK_B = [(11, 4), (11, 5), (11, 6)]


def test_a_move_into_the_neck_goes_straight_on():
    # facing up (head above neck): "down" is the neck, so it moves up
    g = make(FLOOR, [[(4, 4), (4, 5), (4, 6)], PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A], {(6, 6)})
    g.step([DOWN, UP, LEFT, UP])
    v = view(g)
    # taken literally, "down" would put the head on its own body: a
    # length-3 snake would die. It went up instead (and fell back one row).
    assert v.snakes[0].alive and v.snakes[0].body == ((4, 4), (4, 5), (4, 6))
    assert v.snakes[0].fell == 1
    # facing left: "right" is the neck, so it moves left
    g = make(FLOOR, [[(4, 6), (5, 6), (6, 6)], PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A], {(1, 1)})
    g.step([RIGHT, UP, UP, UP])
    assert view(g).snakes[0].body == ((3, 6), (4, 6), (5, 6))


def test_climbing_a_step_while_the_body_holds_on():
    # a snake lying on the floor goes up the face of a wall column: its
    # tail still rests on the floor, so it stays up
    walls = FLOOR | {(6, 6), (6, 5)}
    g = make(walls, [[(5, 6), (4, 6), (3, 6), (2, 6)], PARK_B, [(9, 6), (10, 6), (10, 5)], PARK_A],
             {(1, 1)})
    g.step([UP, UP, UP, UP])
    v = view(g)
    assert v.snakes[0].body == ((5, 5), (5, 6), (4, 6), (3, 6)) and v.snakes[0].fell == 0
    g.step([UP, UP, UP, UP])
    assert view(g).snakes[0].body == ((5, 4), (5, 5), (5, 6), (4, 6))
    g.step([RIGHT, UP, UP, UP])   # onto the top of the column: held by it
    v = view(g)
    assert v.snakes[0].body == ((6, 4), (5, 4), (5, 5), (5, 6)) and v.snakes[0].fell == 0


def test_a_snake_climbing_too_high_falls_back():
    # vertical, length 3, on the floor: one step up lifts the tail off it
    g = make(FLOOR, [[(4, 4), (4, 5), (4, 6)], PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A], {(1, 1)})
    g.step([UP, UP, LEFT, UP])
    v = view(g)
    assert v.snakes[0].body == ((4, 4), (4, 5), (4, 6)) and v.snakes[0].fell == 1


def test_falling_groups_a_snake_on_a_falling_snake_falls_with_it():
    # snake 0 lies on nothing; snake 2 lies on snake 0: both fall together
    # to the floor (snake 0 lands on row 6, snake 2 on row 5)
    g = make(FLOOR, [[(3, 2), (4, 2), (5, 2)], PARK_B, [(3, 1), (4, 1), (5, 1)], PARK_A], {(1, 1)})
    g.step([LEFT, UP, LEFT, UP])
    v = view(g)
    assert v.snakes[0].body == ((2, 6), (3, 6), (4, 6)) and v.snakes[0].fell == 4
    assert v.snakes[2].body == ((2, 5), (3, 5), (4, 5)) and v.snakes[2].fell == 4


def test_grounding_through_a_grounded_snake_holds():
    # snake 2 rests on snake 0, which rests on the floor: nobody falls
    g = make(FLOOR, [[(3, 6), (4, 6), (5, 6)], PARK_B, [(4, 5), (5, 5), (6, 5)], PARK_A], {(1, 1)})
    g.step([LEFT, UP, LEFT, UP])
    v = view(g)
    assert v.snakes[2].body == ((3, 5), (4, 5), (5, 5)) and v.snakes[2].fell == 0


def test_held_up_by_an_apple():
    # a horizontal snake in the air above an apple: it stays; without the
    # apple the same snake falls
    snakes = [[(3, 3), (4, 3), (5, 3)], PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A]
    g = make(FLOOR, snakes, {(4, 4)})      # after moving left, (4,3) rests on the apple
    g.step([LEFT, UP, UP, UP])
    assert view(g).snakes[0].fell == 0
    g = make(FLOOR, snakes, {(10, 1)})
    g.step([LEFT, UP, UP, UP])
    assert view(g).snakes[0].fell > 0


def test_own_body_does_not_hold_a_snake_up():
    # a U shape in the air: its upper cells are above its own lower cells,
    # but that does not count: it falls to the floor
    body = [(3, 2), (3, 3), (4, 3), (5, 3), (5, 2)]
    g = make(FLOOR, [body, PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A], {(10, 1)})
    g.step([LEFT, UP, UP, UP])
    v = view(g)
    assert v.snakes[0].fell == 3
    assert max(y for _, y in v.snakes[0].body) == 6


def test_head_on_beheads_both():
    # two length-4 heads meet in the same cell: both lose the head
    g = make(FLOOR, [[(3, 6), (2, 6), (1, 6), (0, 6)], PARK_B,
                     [(5, 6), (6, 6), (7, 6), (8, 6)], [(10, 4), (10, 5), (10, 6)]], {(10, 1)})
    g.step([RIGHT, UP, LEFT, UP])
    v = view(g)
    assert v.snakes[0].body == ((3, 6), (2, 6), (1, 6)) and v.snakes[0].lost == 1
    assert v.snakes[2].body == ((5, 6), (6, 6), (7, 6)) and v.snakes[2].lost == 1
    assert v.losses == (1, 1)


def test_beheading_on_a_wall():
    walls = FLOOR | {(5, 6)}
    g = make(walls, [[(4, 6), (3, 6), (2, 6), (1, 6)], PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A],
             {(10, 1)})
    g.step([RIGHT, UP, UP, UP])
    v = view(g)
    assert v.snakes[0].alive and v.snakes[0].body == ((4, 6), (3, 6), (2, 6))
    assert v.losses == (1, 0)


def test_beheading_on_its_own_body():
    body = [(3, 5), (4, 5), (4, 6), (3, 6), (2, 6)]
    g = make(FLOOR, [body, PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A], {(10, 1)})
    g.step([DOWN, UP, UP, UP])            # into (3,6): its own body
    v = view(g)
    assert v.snakes[0].alive and v.snakes[0].length == 4 and v.losses == (1, 0)


def test_a_length_three_snake_dies_when_beheaded():
    walls = FLOOR | {(5, 6)}
    g = make(walls, [[(4, 6), (3, 6), (2, 6)], PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A],
             {(10, 1)})
    g.step([RIGHT, UP, UP, UP])
    v = view(g)
    assert not v.snakes[0].alive and v.snakes[0].cause == "beheaded"
    assert v.losses == (3, 0) and v.snakes[0].lost == 3


def test_death_below_the_grid():
    # off the left side of the grid nothing holds a snake: it falls out
    g = make(FLOOR, [[(0, 6), (1, 6), (2, 6)], PARK_B, [(8, 4), (8, 5), (8, 6)],
                     [(5, 4), (5, 5), (5, 6)]], {(10, 1)})
    g.step([LEFT, UP, UP, UP])
    v = view(g)
    assert v.snakes[0].alive                 # (1,6) and (0,6) still rest on the floor
    g.step([LEFT, UP, UP, UP])
    g.step([LEFT, UP, UP, UP])               # now wholly at x < 0: falls out
    v = view(g)
    assert not v.snakes[0].alive and v.snakes[0].cause == "fell off the map"
    assert min(y for _, y in v.snakes[0].body) >= H
    assert v.losses[0] == 3


def test_two_heads_share_an_apple_and_both_grow():
    g = make(FLOOR, [[(3, 6), (2, 6), (1, 6)], PARK_B, [(5, 6), (6, 6), (7, 6)],
                     [(10, 4), (10, 5), (10, 6)]], {(4, 6), (10, 1)})
    g.step([RIGHT, UP, LEFT, UP])
    v = view(g)
    # both grew to 4, then head-on beheaded both back to 3: alive (had they
    # not grown, a beheaded length-3 snake would have died), apple gone
    assert (4, 6) not in v.apples and len(v.apples) == 1
    assert v.snakes[0].alive and v.snakes[0].length == 3
    assert v.snakes[2].alive and v.snakes[2].length == 3


def test_apples_never_respawn_and_the_game_ends_without_apples():
    g = make(FLOOR, [[(3, 6), (2, 6), (1, 6)], PARK_B, [(8, 4), (8, 5), (8, 6)], PARK_A], {(4, 6)})
    g.step([RIGHT, UP, UP, UP])
    v = view(g)
    assert v.apples == () and v.snakes[0].length == 4 and g.is_terminal
    assert g.ranking() == [0, 0, 2, 2]        # red: 4+3, blue 3+3


def test_the_game_ends_when_a_player_has_no_snakes():
    walls = FLOOR | {(5, 6), (7, 6)}
    g = make(walls, [[(4, 6), (3, 6), (2, 6)], [(6, 4), (6, 5), (6, 6)], [(8, 4), (8, 5), (8, 6)],
                     PARK_A], {(10, 1)}, alive=(True, False, True, True))
    assert not g.is_terminal
    g.step([RIGHT, UP, UP, UP])
    assert g.is_terminal and g.ranking() == [2, 2, 0, 0]


def test_the_200_turn_end():
    g = make(FLOOR, [PARK_A, [(2, 4), (2, 5), (2, 6)], [(8, 4), (8, 5), (8, 6)], PARK_B],
             {(5, 1)}, turn=199)
    assert not g.is_terminal
    g.step([RIGHT, RIGHT, LEFT, LEFT])
    assert g.turn == 200 and g.is_terminal


def test_score_ties_are_broken_by_fewer_losses():
    # equal lengths; red has lost 2 parts, blue 1: blue ranks first
    g = make(FLOOR, [PARK_A, [(2, 4), (2, 5), (2, 6)], [(8, 4), (8, 5), (8, 6)], PARK_B],
             {(5, 1)}, turn=199)
    words = list(g.export())
    v = view(g)
    p = 7 + 2 * H + 2 * len(v.apples)
    words[p], words[p + 1] = 2, 1
    g.import_state(words)
    g.step([UP, UP, UP, UP])
    assert g.is_terminal and g.ranking() == [2, 2, 0, 0]
    e = g.evaluate()     # the end's win term (w_win 10) goes to blue's snakes
    assert e[2] == e[3] > 9 and e[0] == e[1] < -9


def test_the_team_score_is_shared_by_a_players_snakes():
    g = Game("snakes", {"ruleset": "snakebyte", "map_seed": 3, "snakes_per_player": 3}, seed=1)
    e = g.evaluate()
    assert len(e) == 6 and e[0] == e[1] == e[2] and e[3] == e[4] == e[5]
    assert e[0] == pytest.approx(-e[3])


def test_bad_snakebyte_parameters_are_one_line_errors():
    for params, word in (("ruleset=snakebyte height=9", "height"),
                         ("ruleset=snakebyte width=20", "width"),
                         ("ruleset=snakebyte snakes_per_player=5", "snakes_per_player"),
                         ("ruleset=snakebyte max_turns=0", "max_turns"),
                         ("ruleset=snakebyte map_seed=-1", "map_seed"),
                         ("ruleset=snakebyte width=5 height=4 row0=..... row1=.a.A. "
                          "row2=..... row3=#####", "map"),
                         ("ruleset=snakebite", "ruleset")):
        with pytest.raises(InvalidArgument, match=word) as e:
            Game("snakes", params, seed=1)
        assert "\n" not in str(e.value)


def test_import_refuses_bad_states():
    g = Game("snakes", {"ruleset": "snakebyte", "map_seed": 2}, seed=1)
    good = list(g.export())
    for bad in (good[:-1], good + [0], [7] + good[1:], good[:7] + [123] + good[8:]):
        with pytest.raises(InvalidArgument):
            g.import_state(bad)
    assert list(g.export()) == good

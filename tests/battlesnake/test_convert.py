"""The official game state ↔ our snakes state, pinned by hand-written JSON:
the words each case must give were worked out by hand from sbx.h's export
layout, and the coordinates by what C does with a move (up = y + 1, as the
official rules say), not by converting back and forth."""
from __future__ import annotations

import json

import pytest

from sandbox.bots.battlesnake.convert import position, state_json
from sandbox.bots.battlesnake.schema import (MalformedState, Unsupported, move_id,
                                                     parse_body, read_state)
from sandbox.games.snakes.params import SnakesGameParams
from sandbox.games.snakes.view import decode_snakes
from sandbox.native import Game

from .helpers import body, duel, snake, state


def game_of(pos):
    g = Game("snakes", SnakesGameParams.model_validate(pos.game_params).c_params(), seed=0)
    g.import_state(pos.words)
    return g


def test_a_hand_written_state_gives_the_words_worked_out_by_hand():
    pos = position(read_state(duel(turn=7)))
    assert pos.words == (
        1, 11, 11, 2, 7, 1,               # version, W, H, snakes, turn, one food
        5, 5,                             # the food
        1, 80, 3, -1, 0, 2, 3, 2, 2, 2, 1,                  # A: alive, health, length, body
        1, 55, 4, -1, 0, 8, 8, 9, 8, 10, 8, 10, 7)          # B
    assert pos.you == 0 and pos.ids == ("a", "b") and pos.names == ("A", "B")
    assert pos.game_params == {"ruleset": "standard", "map": "standard", "width": 11,
                               "height": 11, "snakes": 2, "food_spawn_chance": 15,
                               "minimum_food": 1, "hazard_damage": 14, "shrink_every": 25,
                               "max_health": 100, "max_turns": 0}


def test_you_is_found_by_id_wherever_it_is_on_the_board():
    a = snake("a", [(2, 3), (2, 2), (2, 1)])
    b = snake("b", [(8, 8), (9, 8), (10, 8)])
    assert position(read_state(state([a, b], you=1))).you == 1


def test_up_is_y_plus_one_and_food_on_the_way_is_eaten():
    # A at (2,3) with food straight above at (2,4): "up" must eat it (length
    # 4, health 100); B moves "left" from (8,8) to (7,8).
    st = duel(food=((2, 4),))
    g = game_of(position(read_state(st)))
    g.step([move_id("up"), move_id("left")])
    v = decode_snakes(g.export())
    assert v.snakes[0].body[0] == (2, 4) and v.snakes[0].length == 4
    assert v.snakes[0].health == 100
    assert v.snakes[1].body[0] == (7, 8) and v.snakes[1].health == 54


def test_down_from_row_zero_leaves_the_board_and_right_is_x_plus_one():
    a = snake("a", [(0, 0), (0, 1), (0, 2)])
    b = snake("b", [(4, 4), (3, 4), (2, 4)])
    g = game_of(position(read_state(state([a, b], food=()))))
    g.step([move_id("down"), move_id("right")])
    v = decode_snakes(g.export())
    assert not v.snakes[0].alive and v.snakes[0].cause == "out of bounds"
    assert v.snakes[1].body[0] == (5, 4)


def test_move_names_are_ours_in_order():
    assert [move_id(n) for n in ("up", "down", "left", "right")] == [0, 1, 2, 3]
    assert move_id("UP") is None and move_id(1) is None and move_id(None) is None


def test_a_stacked_start_body_is_accepted():
    a = snake("a", [(1, 1)] * 3)
    b = snake("b", [(9, 9)] * 3)
    g = game_of(position(read_state(state([a, b], turn=0))))
    assert decode_snakes(g.export()).snakes[0].body == ((1, 1),) * 3


def test_our_state_back_to_the_official_object():
    pos = position(read_state(duel(turn=7)))
    g = game_of(pos)
    v = decode_snakes(g.export())
    out = state_json(v, 1, pos.ids, pos.names, game_id="x", timeout_ms=300,
                     latencies={0: 41.6})
    assert out["turn"] == 7 and out["game"]["timeout"] == 300
    assert out["game"]["ruleset"]["name"] == "standard"
    assert out["board"]["food"] == [{"x": 5, "y": 5}]
    assert out["you"]["id"] == "b" and out["you"]["head"] == {"x": 8, "y": 8}
    assert out["you"]["length"] == 4 and out["you"]["health"] == 55
    assert out["board"]["snakes"][0]["latency"] == "42"
    # and it reads back as the same state
    assert position(read_state(out)).words == pos.words


def test_a_snake_out_of_the_game_is_left_off_the_board():
    a = snake("a", [(0, 0), (0, 1), (0, 2)])
    b = snake("b", [(4, 4), (3, 4), (2, 4)])
    pos = position(read_state(state([a, b], food=())))
    g = game_of(pos)
    g.step([1, 3])                       # a leaves the board
    out = state_json(decode_snakes(g.export()), 1, pos.ids, pos.names, game_id="x",
                     timeout_ms=500)
    assert [s["id"] for s in out["board"]["snakes"]] == ["b"]


@pytest.mark.parametrize("change, words", [
    (lambda s: s["game"]["ruleset"].update(name="speedsnake"), "ruleset 'speedsnake'"),
    (lambda s: s["game"]["ruleset"].update(name="squad", settings={"squad": {
        "allowBodyCollisions": True}}), "ruleset 'squad' with allowBodyCollisions"),
    (lambda s: s["game"].update(map="solo_maze"), "map 'solo_maze'"),
    (lambda s: s["game"].update(map="hz_volcano"), "map 'hz_volcano'"),
    (lambda s: (s["game"].update(map="hz_islands_bridges"), s["board"].update(width=19)),
     "hz_islands_bridges is played on 11x11 only"),
    (lambda s: s["board"].update(hazards=[{"x": 0, "y": 0}]), "never place any"),
    (lambda s: s["game"].update(map="arcade_maze"), "19x21 only"),
    (lambda s: (s["game"].update(map="hz_hazard_pits"), s["board"].update(width=13)),
     "hz_hazard_pits is played on 11x11 only"),
    (lambda s: s["board"].update(width=26), "board 26x11"),
    (lambda s: s["board"].update(height=3), "board 11x3"),
])
def test_what_we_do_not_model_is_refused_in_one_line(change, words):
    st = duel()
    change(st)
    with pytest.raises(Unsupported, match=words) as e:
        position(read_state(st))
    assert "\n" not in str(e.value)


def test_more_snakes_than_we_model_are_refused():
    snakes = [snake(f"s{i}", [(i, 0), (i, 1), (i, 2)]) for i in range(9)]
    with pytest.raises(Unsupported, match="9 snakes"):
        position(read_state(state(snakes, width=11)))


def _drop(path):
    def f(s):
        node = s
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]
    return f


def _set(path, value):
    def f(s):
        node = s
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    return f


@pytest.mark.parametrize("change, words", [
    (_drop(["game"]), "game: missing"),
    (_drop(["game", "timeout"]), "game.timeout: missing"),
    (_drop(["board", "snakes"]), "board.snakes: missing"),
    (_drop(["you"]), "you: missing"),
    (_set(["turn"], "3"), "turn: expected an integer, got a string"),
    (_set(["turn"], True), "turn: expected an integer, got a boolean"),
    (_set(["board", "width"], 11.5), "board.width: expected an integer"),
    (_set(["board", "food"], {"x": 1}), "board.food: expected an array"),
    (_set(["board", "snakes", 0, "body"], []), "body: empty"),
    (_set(["board", "snakes", 0, "health"], None), "health: expected an integer, got null"),
    (_set(["board", "snakes", 0, "length"], 9), "length: 9, but the body has 3"),
    (_set(["board", "snakes", 0, "body", 1], {"x": 5, "y": 5}), "not neighbours"),
    (_set(["you", "id"], "zzz"), "not on board.snakes"),
    (_set(["board", "food", 0], {"x": 11, "y": 0}), "off the 11x11 board"),
    (_set(["game", "timeout"], 0), "game.timeout: 0 ms"),
])
def test_malformed_states_name_the_field(change, words):
    st = duel()
    change(st)
    with pytest.raises(MalformedState, match=words):
        position(read_state(st))


@pytest.mark.parametrize("raw, words", [
    (b"{", "not JSON"), (b"\xff\xfe", "not UTF-8"), (b"[1, 2]", "got an array"),
    (b'{"turn": NaN}', "NaN is not a JSON number"), (b"[" * 100_000, "nested too deeply"),
])
def test_bodies_that_are_not_a_state(raw, words):
    with pytest.raises(MalformedState, match=words):
        read_state(parse_body(raw))


def test_a_body_round_trips_through_bytes():
    assert read_state(parse_body(body(duel()))).you.id == "a"


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def test_every_field_damaged_every_way_is_refused_or_read_never_a_crash():
    """Each field of a valid state replaced by each wrong kind of value (or
    removed): reading and converting it ends in our one-line refusal or a
    state we model, never another exception."""
    import copy
    base = duel()
    bad_values = [None, True, -1, 10**12, 1.5, "", "x" * 2000, [], {}, [{"x": 1}],
                  {"x": "1", "y": 2}, float("inf")]
    seen = 0
    for path in list(_paths(base))[1:]:
        for v in [*bad_values, "DELETE"]:
            st = copy.deepcopy(base)
            node = st
            for k in path[:-1]:
                node = node[k]
            if v == "DELETE":
                if isinstance(node, list):
                    node.pop(path[-1])
                else:
                    del node[path[-1]]
            else:
                node[path[-1]] = v
            try:
                pos = position(read_state(parse_body(json.dumps(st))))
            except (MalformedState, Unsupported) as exc:
                assert "\n" not in str(exc) and str(exc)
            else:      # what we read, C takes
                game_of(pos).close()
            seen += 1
    assert seen > 500

"""Invariants of the C snakes engine under random play, state round trips,
and rejection of malformed imports and parameters (checked against the
reference's validation too)."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.native import Game, InvalidArgument
from sandbox.games.snakes.reference import Snake, SnakesGame, build_export, decode_export
from sandbox.reference import hash_words
from sandbox.games.snakes.reference import CAUSE_OUT_OF_BOUNDS, CAUSE_STARVED, DX, DY

CONFIGS = [
    {},
    {"snakes": 2, "width": 7, "height": 7},
    {"snakes": 8, "width": 13, "height": 13, "minimum_food": 4},
    {"snakes": 3, "width": 9, "height": 6, "max_health": 30, "food_spawn_chance": 40},
    {"snakes": 1, "width": 5, "height": 5, "minimum_food": 2},
]


def play_policy(words, rng: np.random.Generator) -> list[int]:
    """Mostly moves that do not run into a wall or a body, sometimes any."""
    st = decode_export(words)
    occupied = {c for s in st.snakes if s.alive for c in s.body[:-1]}
    joint = []
    for s in st.snakes:
        x, y = s.body[0]
        safe = [m for m in range(4)
                if 0 <= x + DX[m] < st.width and 0 <= y + DY[m] < st.height
                and (x + DX[m], y + DY[m]) not in occupied]
        if s.alive and safe and rng.random() < 0.9:
            joint.append(int(rng.choice(safe)))
        else:
            joint.append(int(rng.integers(0, 4)))
    return joint


def trailing_repeats(body) -> int:
    """How many segments at the end sit on the tail's cell."""
    k = 1
    while k < len(body) and body[-1 - k] == body[-1]:
        k += 1
    return k


def check_snakes(prev, st, max_health, stacked):
    """`stacked[i]`: how many segments snake i should have on its tail cell.
    The start stack of 3 unwinds by one per move, and a meal adds one."""
    live_cells = []
    for i, s in enumerate(st.snakes):
        if not s.alive:
            continue
        assert s.length >= 3
        assert 0 < s.health <= max_health
        if prev is None:
            stacked[i] = 3
        else:
            p = prev.snakes[i]
            assert s.length in (p.length, p.length + 1)  # never shrinks, grows by one
            ate = s.length == p.length + 1
            if ate:
                assert s.health == max_health
            else:
                assert s.health == p.health - 1
            stacked[i] = max(stacked[i] - 1, 1) + int(ate)
        # Segments are distinct but for the stacked tail.
        assert trailing_repeats(s.body) == stacked[i]
        distinct = s.body[:len(s.body) - stacked[i] + 1]
        assert len(set(distinct)) == len(distinct)
        for a, b in zip(s.body, s.body[1:]):
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 1
        live_cells.append(set(s.body))
    for i in range(len(live_cells)):
        for j in range(i + 1, len(live_cells)):
            assert not live_cells[i] & live_cells[j]


def config_id(cfg: dict) -> str:
    return "-".join(f"{k}{v}" for k, v in cfg.items()) or "default"


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_random_play_invariants(cfg):
    rng = np.random.default_rng(len(cfg))
    max_health = cfg.get("max_health", 100)
    turns, seed = 0, 0
    while turns < 700:
        seed += 1
        g = Game("snakes", cfg, seed=seed)
        prev, stacked = None, {}
        while True:
            words = g.export()
            st = decode_export(words)
            check_snakes(prev, st, max_health, stacked)
            assert g.state_hash() == hash_words(words)
            for s in st.snakes:
                if not s.alive:
                    assert 0 < s.death_turn <= st.turn and s.cause > 0
            if g.is_terminal:
                break
            prev = st
            g.step(play_policy(words, rng))
            turns += 1


def test_clone_has_the_same_hash_and_is_independent():
    g = Game("snakes", {}, seed=4)
    g.step([0, 1, 2, 3])
    c = g.clone()
    assert c.state_hash() == g.state_hash()
    np.testing.assert_array_equal(c.export(), g.export())
    before = g.export()
    c.step([0, 0, 0, 0])
    np.testing.assert_array_equal(g.export(), before)
    assert c.state_hash() != g.state_hash()
    assert c.turn == g.turn + 1


def test_equal_exports_give_equal_hashes_and_round_trip():
    for seed in range(15):
        g = Game("snakes", {"snakes": 3}, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(int(rng.integers(0, 30))):
            if g.is_terminal:
                break
            g.step(play_policy(g.export(), rng))
        words = g.export()
        other = Game("snakes", {"snakes": 3}, seed=seed + 100)  # another RNG stream
        other.import_state(words)
        np.testing.assert_array_equal(other.export(), words)
        assert other.state_hash() == g.state_hash()
        assert other.evaluate().tolist() == g.evaluate().tolist()
        ref = SnakesGame({"snakes": 3}, seed=0)
        ref.import_state(words.tolist())
        assert ref.export() == words.tolist() and ref.state_hash() == g.state_hash()


def test_hash_differs_for_different_states():
    hashes = set()
    g = Game("snakes", {"snakes": 2, "width": 7, "height": 7}, seed=1)
    rng = np.random.default_rng(1)
    while not g.is_terminal and g.turn < 60:
        hashes.add(g.state_hash())
        g.step(play_policy(g.export(), rng))
    assert len(hashes) == g.turn


# ---------------------------------------------------------------- malformed imports

W, H = 7, 7
PARAMS = {"width": W, "height": H, "snakes": 2}


def good_words(**changes):
    snakes = [Snake([(2, 2), (2, 1), (2, 0)], 80),
              Snake([(5, 5), (5, 4), (5, 3)], 1, alive=False, death_turn=2, cause=CAUSE_STARVED)]
    kw = dict(width=W, height=H, snakes=snakes, food=[(4, 4), (0, 6)], turn=3)
    kw.update(changes)
    return build_export(**kw)


def with_word(index, value, words=None):
    w = list(good_words() if words is None else words)
    w[index] = value
    return w


# Word offsets in good_words(): header 0..5, food 6..9, snake 0 at 10 (body 15..20),
# snake 1 at 21 (body 26..31).
BAD = {
    "wrong_version": with_word(0, 2),
    "wrong_width": with_word(1, 8),
    "wrong_height": with_word(2, 6),
    "wrong_snake_count": with_word(3, 3),
    "negative_turn": with_word(4, -1),
    "negative_food_count": with_word(5, -1),
    "food_count_over_cells": with_word(5, W * H + 1),
    "empty": [],
    "header_only_part": good_words()[:5],
    "truncated_food": good_words()[:8],
    "truncated_snake": good_words()[:-1],
    "truncated_record": good_words()[:23],
    "trailing_word": good_words() + [0],
    "food_off_board_x": with_word(6, W),
    "food_off_board_y": with_word(7, -1),
    "duplicate_food": good_words(food=[(4, 4), (4, 4)]),
    "alive_flag_2": with_word(10, 2),
    "alive_flag_negative": with_word(10, -1),
    "alive_health_0": with_word(11, 0),
    "health_over_max": with_word(11, 101),
    "dead_health_too_low": with_word(22, -1001),
    "length_0": with_word(12, 0),
    "length_huge": with_word(12, 125),
    "alive_with_death_turn": with_word(13, 2),
    "alive_with_cause": with_word(14, 1),
    "dead_turn_after_turn": with_word(24, 4),
    "dead_turn_negative": with_word(24, -1),
    "dead_cause_0": with_word(25, 0),
    "dead_cause_7": with_word(25, 7),
    "segments_not_adjacent": with_word(17, 4),   # segment 1 at (4, 1), head at (2, 2)
    "segment_off_board": with_word(20, -1),
    "alive_head_off_board": with_word(15, -1),
    "dead_head_off_board_without_oob_cause": with_word(26, W),
    "oob_head_too_far": with_word(26, W + 1, good_words(snakes=[
        Snake([(2, 2), (2, 1), (2, 0)], 80),
        Snake([(6, 5), (5, 5), (4, 5)], 30, alive=False, death_turn=2,
              cause=CAUSE_OUT_OF_BOUNDS)])),
}


def test_bad_cases_are_really_bad_only_in_one_place():
    # Sanity of the table: the unmodified words import fine, on both engines.
    Game("snakes", PARAMS).import_state(good_words())
    SnakesGame(PARAMS).import_state(good_words())
    oob = good_words(snakes=[
        Snake([(2, 2), (2, 1), (2, 0)], 80),
        Snake([(7, 5), (6, 5), (5, 5)], 30, alive=False, death_turn=2, cause=CAUSE_OUT_OF_BOUNDS)])
    Game("snakes", PARAMS).import_state(oob)  # a head just off the board is fine
    SnakesGame(PARAMS).import_state(oob)


@pytest.mark.parametrize("name", sorted(BAD))
def test_malformed_import_is_rejected_and_changes_nothing(name):
    words = BAD[name]
    g = Game("snakes", PARAMS, seed=9)
    g.step([0, 1])
    before, h = g.export(), g.state_hash()
    with pytest.raises(InvalidArgument) as c_err:
        g.import_state(words)
    np.testing.assert_array_equal(g.export(), before)
    assert g.state_hash() == h
    # The reference validates the same way, with the same message.
    r = SnakesGame(PARAMS, seed=9)
    r.step([0, 1])
    r_before = r.export()
    with pytest.raises(InvalidArgument) as r_err:
        r.import_state(words)
    assert r.export() == r_before
    assert str(r_err.value) == str(c_err.value)


@pytest.mark.parametrize("words", [[[1, 7, 7]], [2**31] + good_words()[1:]])
def test_import_rejects_non_flat_or_wide_words(words):
    for g in (Game("snakes", PARAMS), SnakesGame(PARAMS)):
        before = list(g.export())
        with pytest.raises(InvalidArgument):
            g.import_state(words)
        assert list(g.export()) == before


def test_import_keeps_the_rng_stream():
    """The export has no RNG: importing a state keeps the game's own stream,
    so two games with the same seed spawn the same food after importing."""
    spawn = {"food_spawn_chance": 100, "minimum_food": 3, **PARAMS}
    a, b = Game("snakes", spawn, seed=5), Game("snakes", spawn, seed=5)
    c = Game("snakes", spawn, seed=6)
    words = good_words(snakes=[Snake([(2, 2), (2, 1), (2, 0)], 80),
                               Snake([(5, 5), (5, 4), (5, 3)], 80)])
    for g in (a, b, c):
        g.import_state(words)
        g.step([0, 0])
    np.testing.assert_array_equal(a.export(), b.export())
    assert a.state_hash() != c.state_hash()


# ---------------------------------------------------------------- bad parameters

BAD_PARAMS = [
    ({"colour": 3}, "colour"),
    ({"width": 4}, "width"),
    ({"width": 26}, "width"),
    ({"height": 0}, "height"),
    ({"snakes": 0}, "snakes"),
    ({"snakes": 9}, "snakes"),
    ({"food_spawn_chance": 101}, "food_spawn_chance"),
    ({"minimum_food": -1}, "minimum_food"),
    ({"initial_food": 2}, "initial_food"),
    ({"max_turns": 100001}, "max_turns"),
    ({"max_health": 0}, "max_health"),
    ({"w_alive": 1000.5}, "w_alive"),
    ({"w_space": -1001}, "w_space"),
    ({"width": "abc"}, "width"),
    ({"width": 7.5}, "width"),
    ({"w_food": "x"}, "w_food"),
    ({"w_food": "nan"}, "w_food"),
    ({"w_length": "inf"}, "w_length"),
    ({"ruleset": "squad"}, "ruleset"),
    ({"map": "solo_maze"}, "map"),
    ({"map": "arcade_maze"}, "map"),          # a map's board: 19x21 only
    ({"ruleset": "royale", "map": "hz_spiral"}, "map"),
    ({"hazard_damage": 1001}, "hazard_damage"),
    ({"shrink_every": 0}, "shrink_every"),
]


@pytest.mark.parametrize("params,key", BAD_PARAMS, ids=[str(p) for p, _ in BAD_PARAMS])
def test_bad_params_name_the_key(params, key):
    with pytest.raises(InvalidArgument) as c_err:
        Game("snakes", params)
    assert key in str(c_err.value)
    with pytest.raises(InvalidArgument) as r_err:
        SnakesGame(params)
    assert str(r_err.value) == str(c_err.value)


@pytest.mark.parametrize("params", [
    {"width": 5, "height": 25, "snakes": 8}, {"w_alive": "1e2", "w_dead": "-.5"},
    {"initial_food": True}, {"w_space": "0x1.8p1"}, "width=9, height=6; snakes=3",
])
def test_good_params_agree(params):
    assert SnakesGame(params).params == Game("snakes", params).params

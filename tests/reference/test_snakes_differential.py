"""The C snakes engine and the pure-Python reference, turn by turn.

Both play the same random joint moves from the same seed; after every turn
everything observable must be identical: export words, state hash,
evaluation (exact float equality), ranking, terminal and alive flags, legal
moves and the step's rewards. Together the configurations play well over
10,000 turns.
"""
from __future__ import annotations

import os
import platform
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from sandbox.native import Game, simd_paths
from sandbox.games.snakes.reference import SnakesGame, decode_export
from sandbox.games.snakes.reference import DX, DY

# (id, params, turns to play in total over as many games as it takes)
CONFIGS = [
    ("default_4x11", {}, 2200),
    ("duel_7x7", {"snakes": 2, "width": 7, "height": 7}, 1500),
    ("eight_19x19", {"snakes": 8, "width": 19, "height": 19}, 1200),
    ("solo", {"snakes": 1}, 1200),
    ("no_spawn", {"food_spawn_chance": 0, "minimum_food": 0}, 1200),
    ("food_rain", {"food_spawn_chance": 100, "minimum_food": 5, "width": 9, "height": 9}, 1200),
    ("max_turns", {"max_turns": 25, "snakes": 3}, 1000),
    ("hungry_rect", {"width": 13, "height": 8, "snakes": 5, "max_health": 12,
                     "minimum_food": 0, "food_spawn_chance": 5}, 1000),
    ("weights", {"w_space": 0.0, "w_food": 0.0, "w_alive": 2.5, "w_dead": -3.0,
                 "w_outlived": 1.25, "w_length": 0.3, "w_health": -0.7,
                 "snakes": 3, "width": 8, "height": 10}, 800),
    ("crowded_5x5", {"snakes": 8, "width": 5, "height": 5, "minimum_food": 3}, 500),
    # seven live snakes on a board of at most 128 cells: the AVX2
    # territory's four registers, the last one half empty
    ("seven_11x11", {"snakes": 7}, 600),
    # every official ruleset and map (short games each: the C engine and the
    # twin must agree on every stage, every map's draws and the hazards)
    ("solo_ruleset_3", {"ruleset": "solo", "snakes": 3, "width": 9, "height": 9}, 250),
    ("royale", {"ruleset": "royale", "shrink_every": 3, "hazard_damage": 9}, 300),
    ("royale_map_7x7", {"map": "royale", "width": 7, "height": 7, "snakes": 2,
                        "shrink_every": 2, "hazard_damage": 25}, 200),
    ("constrictor", {"ruleset": "constrictor", "snakes": 2, "width": 9, "height": 9}, 200),
    ("wrapped", {"ruleset": "wrapped", "snakes": 4}, 300),
    ("wrapped_13x7", {"ruleset": "wrapped", "snakes": 3, "width": 13, "height": 7}, 200),
    ("wrapped_big", {"ruleset": "wrapped", "snakes": 3, "width": 19, "height": 17}, 150),
    ("wrapped_constrictor", {"ruleset": "wrapped_constrictor", "snakes": 3}, 200),
    ("empty_map", {"map": "empty", "snakes": 2}, 150),
    ("arcade_maze", {"map": "arcade_maze", "width": 19, "height": 21, "snakes": 6,
                     "hazard_damage": 40, "food_spawn_chance": 40}, 200),
    ("healing_pools", {"map": "healing_pools", "snakes": 3, "hazard_damage": -15,
                       "shrink_every": 7}, 200),
    ("sinkholes", {"map": "sinkholes", "snakes": 2, "shrink_every": 3,
                   "hazard_damage": 2}, 150),
    ("hazard_pits", {"map": "hz_hazard_pits", "snakes": 4, "shrink_every": 4,
                     "hazard_damage": 3}, 150),
    ("columns", {"map": "hz_columns", "snakes": 2, "hazard_damage": 5}, 100),
    ("inner_wall", {"map": "hz_inner_wall", "snakes": 3, "hazard_damage": 5}, 100),
    ("rings", {"map": "hz_rings", "snakes": 2, "width": 15, "height": 15,
               "hazard_damage": 3}, 100),
    ("spiral", {"map": "hz_spiral", "snakes": 2, "hazard_damage": 1, "width": 7,
                "height": 7}, 200),
    ("scatter", {"map": "hz_scatter", "snakes": 2, "hazard_damage": 1}, 150),
    ("grow_box", {"map": "hz_grow_box", "snakes": 2, "hazard_damage": 1, "width": 7,
                  "height": 7}, 200),
    ("expand_box", {"map": "hz_expand_box", "snakes": 2, "hazard_damage": 1, "width": 7,
                    "height": 7}, 200),
    ("castle_wall", {"map": "hz_castle_wall", "snakes": 6, "hazard_damage": 4}, 150),
    ("castle_wall_xl", {"map": "hz_castle_wall_xl", "width": 25, "height": 25, "snakes": 3,
                        "hazard_damage": 2}, 100),
    ("rivers_bridges_lg", {"map": "hz_rivers_bridges_lg", "width": 19, "height": 19,
                           "snakes": 5, "hazard_damage": 4}, 150),
    ("islands_bridges", {"map": "hz_islands_bridges", "snakes": 4, "hazard_damage": 3}, 150),
    ("snail_mode", {"map": "snail_mode", "snakes": 3, "hazard_damage": 1}, 200),
    ("snail_wrapped", {"ruleset": "wrapped", "map": "snail_mode", "snakes": 2, "width": 7,
                       "height": 7, "hazard_damage": 2}, 150),
    ("expand_scatter", {"map": "hz_expand_scatter", "snakes": 2, "hazard_damage": 1,
                        "width": 7, "height": 7}, 200),
]



def random_joint(words, rng: np.random.Generator, careful: float) -> list[int]:
    """Random moves; with probability `careful` per snake, uniform among the
    moves that do not obviously kill it (walls, bodies), so games last long
    enough to reach eating, growth, starvation and crowding."""
    st = decode_export(words)
    occupied = set()
    for s in st.snakes:
        if s.alive:
            occupied.update(s.body[:-1])
    joint = []
    for s in st.snakes:
        if not s.alive:
            joint.append(int(rng.integers(0, 4)))  # ignored for a dead snake
            continue
        x, y = s.body[0]
        safe = [m for m in range(4)
                if 0 <= x + DX[m] < st.width and 0 <= y + DY[m] < st.height
                and (x + DX[m], y + DY[m]) not in occupied]
        if safe and rng.random() < careful:
            joint.append(int(safe[rng.integers(0, len(safe))]))
        else:
            joint.append(int(rng.integers(0, 4)))
    return joint


def assert_same(g: Game, r: SnakesGame) -> list[int]:
    words = g.export().tolist()
    assert r.export() == words
    assert r.state_hash() == g.state_hash()
    assert r.evaluate() == g.evaluate().tolist()  # exact, bit for bit
    assert r.ranking() == g.ranking()
    assert r.is_terminal == g.is_terminal
    assert r.alive == g.alive
    assert r.turn == g.turn
    for a in range(g.num_agents):
        assert r.legal_moves(a) == g.legal_moves(a)
    return words


@pytest.mark.parametrize("name,params,turns", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_engine_matches_reference(name, params, turns):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    played, games, deaths = 0, 0, 0
    seed = zlib.crc32(name.encode()) % 10**6
    while played < turns:
        seed += 1
        games += 1
        g, r = Game("snakes", params, seed=seed), SnakesGame(params, seed=seed)
        words = assert_same(g, r)
        careful = float(rng.choice([0.0, 0.7, 0.97]))
        while not g.is_terminal and played < turns:
            joint = random_joint(words, rng, careful)
            rewards_c = g.step(joint)
            rewards_r = r.step(joint)
            assert rewards_r == rewards_c.tolist(), (seed, g.turn, joint)
            words = assert_same(g, r)
            played += 1
            deaths += int((rewards_c < 0).sum())
    assert played == turns
    assert games > 1 and deaths > 0


def test_total_turns_at_least_10000():
    assert sum(c[2] for c in CONFIGS) >= 10_000


def test_clone_and_reseed_match():
    """Reseeding replaces the chance stream the same way in both; clones
    carry the stream along."""
    params = {"food_spawn_chance": 60, "minimum_food": 2}
    g, r = Game("snakes", params, seed=3), SnakesGame(params, seed=3)
    rng = np.random.default_rng(3)
    for k in range(30):
        if g.is_terminal:
            break
        if k % 5 == 0:
            g.reseed(1000 + k)
            r.reseed(1000 + k)
        gc, rc = g.clone(), r.clone()
        joint = random_joint(g.export(), rng, 0.95)
        gc.step(joint)
        rc.step(joint)
        assert rc.export() == gc.export().tolist()
        g.step(joint)
        r.step(joint)
        assert r.export() == g.export().tolist() == gc.export().tolist()


def test_params_string_matches_c():
    for params in ({}, {"width": 9, "w_length": 0.1, "w_space": -2.5e-3, "initial_food": 0}):
        assert SnakesGame(params).params == Game("snakes", params).params


def _forced_scalar() -> bool:
    return os.environ.get("SBX_NO_AVX2", "") not in ("", "0")


def test_the_territory_path_is_the_one_this_machine_allows():
    """The evaluation's territory fill has an AVX2 version, picked once per
    process where the CPU has AVX2 (SBX_NO_AVX2=1 forces the scalar one):
    the tests above ran on the path named here."""
    path = simd_paths().split("; ")[0]      # the snakes part (the net's: tests/learn)
    if _forced_scalar():
        assert path == "snakes territory: scalar (SBX_NO_AVX2)"
        return
    flags: set[str] = set()
    if platform.machine() in ("x86_64", "AMD64") and Path("/proc/cpuinfo").exists():
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
        assert path == ("snakes territory: avx2" if "avx2" in flags
                        else "snakes territory: scalar (no AVX2)")
    else:
        assert path.startswith("snakes territory: scalar")


@pytest.mark.skipif(_forced_scalar(), reason="this process is the scalar run")
def test_the_scalar_fill_matches_the_reference_too():
    """The same differential games in a process forced onto the scalar fill,
    so both versions are held to the reference on a machine with AVX2."""
    env = {**os.environ, "SBX_NO_AVX2": "1"}
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        __file__, "-k", "engine_matches_reference or path_is_the_one"],
                       env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert f"{len(CONFIGS) + 1} passed" in p.stdout, p.stdout[-2000:]

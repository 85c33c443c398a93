"""SnakeByte: C against the pure-Python reference (reference_byte.py), state
by state over more than 10,000 turns on many generated maps and the bundled
ones; the map generator (deterministic, mirrored, in range); map files."""
from __future__ import annotations

import random

import pytest

from sandbox.native import Game
from sandbox.games.snakes.mapfile import (MAP_DIR, MapFileError, load_map_file, map_text,
                                          parse_map_text, resolve_map)
from sandbox.games.snakes.params import SnakesGameParams
from sandbox.games.snakes.reference_byte import DELTAS, SnakeByteGame, Weights
from sandbox.games.snakes.view import decode_snakebyte


def _policy(r: SnakeByteGame, rng: random.Random) -> list[int]:
    """Mostly moves into free cells, often toward an apple, sometimes any
    move: long games that still hit walls, bodies, heads and the sides."""
    occ = {c for s in r.snakes if s.alive for c in s.body}
    out = []
    for s in r.snakes:
        if not s.alive:
            out.append(0)
            continue
        hx, hy = s.body[0]
        safe = [m for m, (dx, dy) in enumerate(DELTAS)
                if (hx + dx, hy + dy) not in r.walls and (hx + dx, hy + dy) not in occ]
        if safe and rng.random() < 0.85:
            if r.apples and rng.random() < 0.6:
                out.append(min(safe, key=lambda m: min(
                    abs(hx + DELTAS[m][0] - x) + abs(hy + DELTAS[m][1] - y) for x, y in r.apples)))
            else:
                out.append(rng.choice(safe))
        else:
            out.append(rng.randrange(4))
    return out


def test_c_and_the_reference_agree_turn_by_turn():
    turns = 0
    seen = {"fell": 0, "lost": 0, "fell_out": 0, "beheaded": 0, "off_grid": 0, "grew": 0}
    games = [f"ruleset=snakebyte map_seed={m} snakes_per_player={2 + m % 3}" for m in range(200)]
    for name in ("ledges", "tower", "caves"):
        games.append(SnakesGameParams(map=name).c_params())
    m = 0
    while turns < 10_000 or m < len(games):
        params = games[m % len(games)]
        with Game("snakes", params, seed=1) as g:
            w = dict(tok.split("=", 1) for tok in g.params.split())
            r = SnakeByteGame.from_export(g.export(), Weights(
                float(w["w_length"]), float(w["w_loss"]), float(w["w_apple"]), float(w["w_win"])))
            rng = random.Random(m)
            while not g.is_terminal:
                joint = _policy(r, rng)
                rew_c = list(g.step(joint))
                rew_p = r.step(joint)
                turns += 1
                assert list(g.export()) == r.export(), (params, g.turn)
                assert rew_c == rew_p
                assert g.is_terminal == r.is_terminal()
                assert list(g.evaluate()) == pytest.approx(r.evaluate(), abs=1e-9)
                for s in r.snakes:
                    seen["fell"] += s.fell > 0
                    seen["lost"] += s.lost > 0
                    seen["fell_out"] += s.cause == 2 and s.death_turn == r.turn
                    seen["beheaded"] += s.cause == 1 and s.death_turn == r.turn
                    seen["off_grid"] += s.alive and any(not r.in_grid(c) for c in s.body)
                    seen["grew"] += s.alive and len(s.body) > 3
            assert g.ranking() == r.ranking()
        m += 1
    assert turns >= 10_000
    # the walk went through every rule, not just walking
    assert all(v > 20 for v in seen.values()), seen


def _map(g: Game):
    return decode_snakebyte(g.export())


@pytest.mark.parametrize("seed", [0, 1, 7, 123, 2**40])
def test_the_generator_is_deterministic_mirrored_and_in_range(seed):
    for height in (0, 10, 17, 24):
        for k in (2, 3, 4):
            p = f"ruleset=snakebyte map_seed={seed} height={height} snakes_per_player={k}"
            with Game("snakes", p, seed=1) as a, Game("snakes", p, seed=99) as b:
                v = _map(a)
                assert list(a.export()) == list(b.export())        # by seed, not match seed
                assert 10 <= v.height <= 24 and (height == 0 or v.height == height)
                assert v.width == -(-18 * v.height // 10) + (-(-18 * v.height // 10) % 2)
                assert all(v.walls[-1])                            # bottom row wall
                W = v.width
                for row in v.walls:
                    assert row == row[::-1]                        # mirrored left-right
                assert {(W - 1 - x, y) for x, y in v.apples} == set(v.apples)
                assert 8 <= len(v.apples) <= 60 and len(v.apples) % 2 == 0
                for i in range(k):
                    s0, s1 = v.snakes[i], v.snakes[k + i]
                    assert [(W - 1 - x, y) for x, y in s0.body] == list(s1.body)
                    hx, hy = s0.body[0]
                    assert s0.body == ((hx, hy), (hx, hy + 1), (hx, hy + 2))
                    assert v.walls[hy + 3][hx]                     # stands on the ground
                # every step of the ground is climbable (at most one row)
                tops = [next(y for y in range(v.height) if all(v.walls[yy][x]
                                                               for yy in range(y, v.height)))
                        for x in range(W)]
                assert all(abs(a - b) <= 1 for a, b in zip(tops, tops[1:]))
    with Game("snakes", f"ruleset=snakebyte map_seed={seed + 1}", seed=1) as c, \
            Game("snakes", f"ruleset=snakebyte map_seed={seed}", seed=1) as d:
        assert list(c.export()) != list(d.export())


def test_a_generated_maps_description_makes_the_same_map():
    with Game("snakes", "ruleset=snakebyte map_seed=5", seed=1) as a, \
            Game("snakes", a.params, seed=1) as b:
        assert list(a.export()) == list(b.export()) and a.params == b.params


def test_bundled_maps_load_and_round_trip():
    names = sorted(p.stem for p in MAP_DIR.glob("*.txt"))
    assert len(names) >= 3
    for name in names:
        layout = load_map_file(resolve_map(name))
        with Game("snakes", SnakesGameParams(map=name).c_params(), seed=1) as g:
            text = map_text(g.export())
            assert parse_map_text(text)["rows"] == layout["rows"]
            with Game("snakes", g.params, seed=1) as again:      # rows in the description
                assert list(again.export()) == list(g.export())


GOOD = "snakebyte 1\nsize 6 6\nrows\n..*...\na.b.BA\n......\n......\n......\n######\n"


@pytest.mark.parametrize("text,line,words", [
    ("snakebite 1\n", 1, "first line"),
    (GOOD.replace("size 6 6", "size 6 x"), 2, "two integers"),
    (GOOD.replace("size 6 6", "size 60 6"), 2, "out of range"),
    (GOOD.replace("..*...", "..*.."), 4, "characters"),
    (GOOD.replace("..*...", "..*.?."), 4, "not one of"),
    (GOOD.replace("######", "###.##"), 9, "bottom row"),
    (GOOD.replace("a.b.BA", "a...BA"), 4, "heads"),
    (GOOD.replace("..*...", "......"), 4, "apples"),
    (GOOD.replace("......\n######", ".....a\n######"), 8, "twice"),
    (GOOD.replace("a.b.BA\n......", "a.b.BA\n#....."), 5, "air"),
    (GOOD + "......\n", 10, "row lines"),
])
def test_map_file_errors_are_one_line_with_the_line_number(text, line, words):
    with pytest.raises(MapFileError, match=words) as e:
        parse_map_text(text, "m.txt")
    assert str(e.value).startswith(f"m.txt:{line}:") and "\n" not in str(e.value)


def test_a_bad_map_in_a_scenario_is_a_validation_error(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(GOOD.replace("######", "#....#"))
    with pytest.raises(ValueError, match="bottom row"):
        SnakesGameParams(map=str(bad))
    with pytest.raises(ValueError, match="neither a file nor a bundled map"):
        SnakesGameParams(map="no_such_map")
    with pytest.raises(ValueError, match="not a parameter of ruleset 'snakebyte'"):
        SnakesGameParams(ruleset="snakebyte", width=11)
    with pytest.raises(ValueError, match="not a parameter of ruleset 'standard'"):
        SnakesGameParams(ruleset="standard", map_seed=3)

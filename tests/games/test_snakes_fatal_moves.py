"""The snakes game's fatal moves (game.h fatal_moves, Game.fatal_moves): the
moves that lose a snake the game this turn whatever the others play, which
the searches' safe_moves setting skips.

Three oracles, none of them the C code itself: hand-built positions whose
answer follows from the rules; the pure-Python twin's fatal_moves, written
from the rules ("every body but its last segment stays"), not from C's cell
counts; and the engine's own step, brute force over every joint move of
the others.
"""
from __future__ import annotations

import itertools
import random

import pytest

from sandbox.games.snakes.reference import DOWN, LEFT, RIGHT, UP, SnakesGame, build_export
from sandbox.native import Game

from test_snakes_rules import QUIET, alive, engine, position  # noqa: F401 (fixture)


def bits(*moves: int) -> int:
    out = 0
    for m in moves:
        out |= 1 << m
    return out


def test_walls_and_the_neck(engine):
    # head in the corner (0, 0), neck above it at (0, 1): down and left leave
    # the board, up is the neck
    g = position(engine, [alive((0, 0), (0, 1), (0, 2)), alive((5, 5), (5, 6), (6, 6))])
    assert g.fatal_moves(0) == bits(DOWN, LEFT, UP)


def test_own_tail_is_free_but_a_stacked_tail_stays(engine):
    g = position(engine, [alive((1, 1), (1, 2), (2, 2), (2, 1)), alive((5, 5), (5, 6), (6, 6))])
    assert not g.fatal_moves(0) & bits(RIGHT)          # the tail leaves (2, 1)
    g = position(engine, [alive((1, 1), (1, 2), (2, 2), (2, 1), (2, 1)),
                          alive((5, 5), (5, 6), (6, 6))])
    assert g.fatal_moves(0) & bits(RIGHT)              # it just ate: the tail stays


def test_another_snakes_head_becomes_its_neck(engine):
    # B's head (2, 1) is next to A's head (1, 1): wherever B goes, (2, 1) is
    # body next turn; B's tail (3, 3) moves on
    g = position(engine, [alive((1, 1), (0, 1), (0, 2)), alive((2, 1), (3, 1), (3, 2), (3, 3))])
    assert g.fatal_moves(0) & bits(RIGHT)
    g = position(engine, [alive((2, 3), (1, 3), (1, 2)), alive((2, 1), (3, 1), (3, 2), (3, 3))])
    assert g.fatal_moves(0) == bits(LEFT)              # (3, 3) is B's tail: free


def test_head_to_head_is_never_certain(engine):
    # B (longer) could take (2, 1) too, or turn away
    g = position(engine, [alive((1, 1), (0, 1), (0, 2)),
                          alive((3, 1), (4, 1), (5, 1), (6, 1))])
    assert not g.fatal_moves(0) & bits(RIGHT)


@pytest.mark.parametrize("food", [False, True])
def test_starving_unless_the_move_eats(engine, food):
    g = position(engine, [alive((3, 3), (3, 2), (3, 1), health=1),
                          alive((6, 6), (6, 5), (6, 4))],
                 food=[(2, 3)] if food else [])
    expect = bits(UP, RIGHT) | bits(DOWN)              # every move but onto the food
    assert g.fatal_moves(0) == (expect if food else bits(UP, DOWN, LEFT, RIGHT))


def test_a_snake_certain_to_starve_is_no_obstacle(engine):
    # B starves this turn whatever it does (health 1, no food next to its
    # head): it is removed before collisions, so A may move into its body
    snakes = [alive((1, 3), (0, 3), (0, 4)), alive((2, 4), (2, 3), (2, 2), (2, 1), health=1)]
    assert not position(engine, snakes).fatal_moves(0) & bits(RIGHT)
    # ... unless a food next to B's head could save it
    assert position(engine, snakes, food=[(3, 4)]).fatal_moves(0) & bits(RIGHT)


def test_dead_or_over_gives_no_mask():
    g = Game("snakes", {"width": 7, "height": 7, "snakes": 2, **QUIET}, seed=0)
    g.import_state(build_export(7, 7, [alive((0, 0), (0, 1), (0, 2)),
                                       alive((5, 5), (5, 6), (6, 6))], [], 0))
    g.step([DOWN, UP])                                  # A leaves the board: game over
    assert g.fatal_moves(0) == 0 and g.fatal_moves(1) == 0


# every ruleset, and maps with hazards that hurt (royale, hz_spiral) and heal
# (healing_pools: negative damage on its pools)
MODES = [{}, {"ruleset": "wrapped"}, {"ruleset": "constrictor"},
         {"ruleset": "wrapped_constrictor"}, {"ruleset": "royale", "shrink_every": 3},
         {"map": "hz_spiral", "hazard_damage": 30}, {"map": "healing_pools"},
         {"ruleset": "wrapped", "map": "hz_spiral", "hazard_damage": 60}]


def random_positions(seeds: range, snakes: int = 3, size: int = 7, mode: dict | None = None):
    """Positions of random play, C and twin in step."""
    for seed in seeds:
        p = {"width": size, "height": size, "snakes": snakes, **(mode or {})}
        g, r = Game("snakes", p, seed=seed), SnakesGame(p, seed=seed)
        rng = random.Random(seed)
        for _ in range(80):
            if g.is_terminal:
                break
            yield g, r
            joint = [rng.randrange(4) for _ in range(snakes)]
            g.step(joint)
            r.step(joint)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: "-".join(map(str, m.values())) or "standard")
def test_c_against_the_rules_twin(mode):
    seen = 0
    size = 11 if mode.get("map") else 7       # the maps want an 11x11 board
    for g, r in random_positions(range(60), size=size, mode=mode):
        for a in range(g.num_agents):
            want = r.fatal_moves(a) if r.is_alive(a) else 0
            assert g.fatal_moves(a) == want
            seen += want != 0
    assert seen > 100        # the positions did exercise the mask


@pytest.mark.parametrize("mode", MODES, ids=lambda m: "-".join(map(str, m.values())) or "standard")
def test_brute_force_every_joint_move_of_the_others(mode):
    """A fatal move dies against every joint move of the others made of
    moves not fatal to them (a snake that kills itself, off the board, may
    clear its body out of the way: the mask ignores that, so positions where
    another snake has nothing but fatal moves are not judged for it); a move
    not in the mask survives against at least one joint move of the others."""
    checked = 0
    size = 11 if mode.get("map") else 7
    for g, _ in random_positions(range(100), size=size, mode=mode):
        n = g.num_agents
        live = [a for a in range(n) if g.is_alive(a)]
        for a in live:
            mask = g.fatal_moves(a)
            others = [b for b in live if b != a]
            choices = [[m for m in range(4) if not g.fatal_moves(b) >> m & 1]
                       for b in others]
            trapped = any(not ch for ch in choices)
            for m in range(4):
                outcomes = []
                for combo in itertools.product(*([range(4)] * len(others))):
                    joint = [UP] * n
                    joint[a] = m
                    for b, mb in zip(others, combo):
                        joint[b] = mb
                    sim = g.clone()
                    sim.step(joint)
                    sane = all(mb in ch for mb, ch in zip(combo, choices))
                    outcomes.append((sane, sim.is_alive(a)))
                if mask >> m & 1:
                    if trapped:
                        continue
                    assert not any(ok for sane, ok in outcomes if sane), (a, m)
                else:
                    assert any(ok for _, ok in outcomes), (a, m)
                checked += 1
        if checked >= 600:
            break
    assert checked >= 600

"""safe_moves: Smitsimax never picks a move the game knows loses at once
(Game.fatal_moves, pinned by tests/games/test_snakes_fatal_moves.py) while
another is left -- in UCB selection, untried children, random picks and
rollouts, serial and parallel. The oracle replays each traced iteration on
the root state and asks the game, at every step, which moves were fatal
there."""
from __future__ import annotations

import pytest

from sandbox.games.snakes.reference import DOWN, LEFT, RIGHT, UP, Snake, build_export
from sandbox.native import Game, Search, SearchParams

QUIET = {"food_spawn_chance": 0, "minimum_food": 0, "initial_food": 0}


def position(snakes, width=7, height=7, **params) -> Game:
    g = Game("snakes", {"width": width, "height": height, "snakes": len(snakes), **QUIET,
                        **params}, seed=1)
    g.import_state(build_export(width, height, snakes, [], 0))
    return g


def cornered() -> Game:
    """A in the corner with its neck above: only right is safe. B roams."""
    return position([Snake([(0, 0), (0, 1), (0, 2)], 100),
                     Snake([(4, 4), (4, 5), (4, 6)], 100)])


def fatal_picks(s: Search, iterations: int) -> tuple[int, int]:
    """(picks of a fatal move while a safe one was left, picks in all),
    over `iterations` traced iterations replayed on the root state."""
    bad = total = 0
    for _ in range(iterations):
        t = s.step_traced()
        sim = s.root_game()
        sim.reseed(t.sim_seed)
        for d in range(t.depth):
            joint = [int(m) if m >= 0 else None for m in t.moves[:, d]]
            for a, m in enumerate(joint):
                if m is None:
                    continue
                mask = sim.fatal_moves(a)
                total += 1
                if mask != 0b1111 and mask >> m & 1:
                    bad += 1
            sim.step(joint)
    return bad, total


@pytest.mark.parametrize("variant", [
    {}, {"random_threshold": 0}, {"random_threshold": 1000}, {"rollout": True},
    {"death_penalty": True},
])
def test_no_fatal_pick_anywhere_in_an_iteration(variant):
    params = SearchParams(max_depth=8, **variant)
    s = Search(position([Snake([(1, 1), (1, 2), (1, 3)], 100),
                         Snake([(5, 5), (5, 4), (5, 3)], 100)]), params, seed=3)
    bad, total = fatal_picks(s, 300)
    assert total > 1000 and bad == 0
    # the oracle sees them when the setting is off
    off = Search(position([Snake([(1, 1), (1, 2), (1, 3)], 100),
                           Snake([(5, 5), (5, 4), (5, 3)], 100)]),
                 params.replace(safe_moves=False), seed=3)
    bad, total = fatal_picks(off, 300)
    assert bad > 100


def test_a_fatal_root_child_is_never_visited():
    s = Search(cornered(), SearchParams(random_threshold=5), seed=1)
    s.run(iterations=2000)
    visits = {m.move: m.visits for m in s.root_stats(0)}
    assert visits[RIGHT] == 2000 and visits[UP] == visits[DOWN] == visits[LEFT] == 0
    assert s.best_moves()[0] == RIGHT
    off = Search(cornered(), SearchParams(random_threshold=5, safe_moves=False), seed=1)
    off.run(iterations=2000)
    assert min(m.visits for m in off.root_stats(0)) > 0


@pytest.mark.parametrize("mode", ["wu_uct", "tree", "root"])
def test_parallel_modes_skip_them_too(mode):
    import os
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs two cores")
    s = Search(cornered(), SearchParams(parallel=mode, threads=2), seed=1)
    s.run(iterations=3000)
    visits = {m.move: m.visits for m in s.root_stats(0)}
    assert visits[UP] == visits[DOWN] == visits[LEFT] == 0 and visits[RIGHT] > 0


def test_leaf_parallel_rollouts_skip_them():
    import os
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs two cores")
    params = SearchParams(parallel="leaf", threads=2, rollout=True, max_depth=8)
    s = Search(cornered(), params, seed=1)
    s.run(iterations=2000)
    assert {m.move for m in s.root_stats(0) if m.visits} == {RIGHT}


def test_when_every_move_is_fatal_one_is_still_played():
    # A boxed in: walls left and below, its own body above, B's body right
    g = position([Snake([(0, 0), (0, 1), (1, 1), (2, 1)], 100),
                  Snake([(1, 0), (2, 0), (3, 0), (4, 0), (4, 1)], 100)])
    assert g.fatal_moves(0) == 0b1111
    s = Search(g, SearchParams(), seed=1)
    s.run(iterations=200)
    assert sum(m.visits for m in s.root_stats(0)) == 200
    assert s.best_moves()[0] in (UP, DOWN, LEFT, RIGHT)


def test_a_game_without_fatal_moves_is_unchanged():
    """Goofspiel knows no fatal moves: the same search, bit for bit, with the
    setting on or off."""
    g = Game("goofspiel", {"num_cards": 6}, seed=2)
    a = Search(g, SearchParams(), seed=5)
    b = Search(g, SearchParams(safe_moves=False), seed=5)
    a.run(iterations=3000)
    b.run(iterations=3000)
    assert a.root_stats(0) == b.root_stats(0) and a.root_stats(1) == b.root_stats(1)

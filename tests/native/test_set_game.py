"""Search.set_game: a search takes another game's parameters (the same game
with other evaluation weights) and keeps its trees and generator.

Oracle: a search built on the weighted game from the start; one built on
the scenario's game and switched before its first iteration must run
exactly the same iterations (same seed), and differ from one never
switched. Games whose state would not carry over are refused."""
from __future__ import annotations

import pytest

from sandbox.native import Game, InvalidArgument, Search, SearchParams

BASE = "width=7 height=7 snakes=2"


def _visits(s: Search) -> list[int]:
    return [m.visits for m in s.root_stats(0)]


def test_switched_before_the_first_iteration_runs_as_if_built_on_it():
    p = SearchParams(tree_reuse=False)
    with Game("snakes", BASE, seed=3) as base, Game("snakes", BASE + " w_space=3", seed=3) as wg:
        with Search(wg, p, seed=5) as a, Search(base, p, seed=5) as b, \
                Search(base, p, seed=5) as c:
            b.set_game(wg)
            for s in (a, b, c):
                s.run(iterations=300)
            assert _visits(a) == _visits(b)
            assert _visits(c) != _visits(a)     # the weight matters here
            assert b.game_params == wg.params
            # it now re-roots on games with the new parameters only
            with pytest.raises(InvalidArgument, match="other parameters"):
                b.reset(base)
            b.reset(wg)


def test_trees_are_kept_across_a_switch():
    p = SearchParams()
    with Game("snakes", BASE, seed=3) as base, Game("snakes", BASE + " w_food=2", seed=3) as wg:
        with Search(base, p, seed=1) as s:
            s.run(iterations=200)
            before = sum(_visits(s))
            s.set_game(wg)
            assert sum(_visits(s)) == before
            s.run(iterations=100)
            assert sum(_visits(s)) == before + 100


@pytest.mark.parametrize("kind, params, other", [
    ("snakes", BASE, ("snakes", "width=9 height=9 snakes=2")),          # another layout
    ("maze", "size=tiny maze_seed=1", ("maze", "size=tiny maze_seed=2")),  # another maze
    ("snakes", BASE, ("maze", "size=tiny")),                            # another game
])
def test_a_game_whose_state_does_not_carry_over_is_refused(kind, params, other):
    with Game(kind, params, seed=1) as g, Game(*other, seed=1) as o, \
            Search(g, SearchParams(), seed=1) as s:
        s.run(iterations=50)
        with pytest.raises(InvalidArgument, match="like"):
            s.set_game(o)
        s.run(iterations=50)                    # unchanged and still usable
        assert s.game_params == g.params


def test_bad_arguments():
    with Game("snakes", BASE, seed=1) as g, Search(g, SearchParams(), seed=1) as s:
        for bad in (None, "snakes", 3):
            with pytest.raises(InvalidArgument):
                s.set_game(bad)
        closed = Game("snakes", BASE, seed=1)
        closed.close()
        with pytest.raises(Exception) as e:
            s.set_game(closed)
        assert "closed" in str(e.value)

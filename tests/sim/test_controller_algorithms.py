"""A SearchController under every algorithm and policy: the snapshot says
which one is in force (C's, not the one asked for), a search keeping ONE
tree publishes it once for every agent, one keeping none publishes no tree,
and an algorithm the core does not build is refused on the caller's thread.
Tests that need a C baseline skip while the core refuses it ("not built")."""
from __future__ import annotations

import pytest

from sandbox.config import Budget
from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.sim.controller import SearchController, TreeRequest
from sandbox.settings.algorithms import ALGORITHMS, algorithm_refusal, trees_kept

GAME = "width=7 height=7 snakes=2"
GAME_SPECIFIC = ("pubcfr",)   # needs a game hook snakes does not have
HANG_GUARD_S = 30.0


def built(name: str) -> bool:
    """The test's own probe (not algorithm_built): does C take it?"""
    with Game("snakes", GAME, seed=0) as g:
        try:
            Search(g, {"algorithm": name}).close()
            return True
        except InvalidArgument as exc:
            # pubcfr is built but takes only games that split their states into
            # public and private parts (snakes does not)
            assert "not built" in str(exc) or (name in GAME_SPECIFIC
                                               and "public and private" in str(exc))
            return False


BUILT = {a: built(a) for a in ALGORITHMS}


@pytest.fixture
def game():
    g = Game("snakes", GAME, seed=2)
    yield g
    g.close()


def think(c: SearchController, game: Game, turn: int = 0, iterations: int = 600) -> None:
    c.start(turn, game, Budget(ms=0, iterations=iterations, slice_iterations=200))
    assert c.wait(HANG_GUARD_S)
    c.raise_if_failed()


def test_algorithm_refusal_agrees_with_the_core(game):
    for a in ALGORITHMS:
        assert (algorithm_refusal(game, a) is None) == BUILT[a]
    assert all(v for a, v in BUILT.items() if a not in GAME_SPECIFIC)
    with pytest.raises(InvalidArgument, match="not one of"):
        algorithm_refusal(game, "minimax")
    # joint-action MCTS on 8 snakes: 4^8 joint actions, refused with C's reason
    with Game("snakes", "width=11 height=11 snakes=8", seed=0) as big:
        assert "joint" in (algorithm_refusal(big, "joint") or "")
        assert algorithm_refusal(big, "smitsimax") is None


def test_the_snapshot_says_what_is_in_force_not_what_was_asked(game):
    c = SearchController(0, [0], game, SearchParams(max_depth=4), seed=1)
    try:
        think(c, game)
        s = c.latest
        assert (s.algorithm, s.policy, s.num_trees) == ("smitsimax", "ucb1", 2)
        assert set(s.trees) == set()            # no tree asked for
        c.update_settings({"policy": "rm"})     # after this turn's iterations: next turn
        c.publish_now(0)
        s = c.latest
        assert c.settings.policy == "rm" and c.search.c_params().policy == "rm"
        assert s.policy == "ucb1"               # C still runs UCB1 this turn
        c.finish([0, 0], game)                  # the next turn ...
        think(c, game, turn=1)
        assert c.latest.policy == "rm"          # ... runs RM
    finally:
        c.close()


def test_an_algorithm_refused_for_the_game_is_refused_at_once():
    """Joint-action MCTS on 8 snakes (4^8 joint actions a node), asked for
    while the search thinks: refused in the caller's thread, the turn goes on."""
    game = Game("snakes", "width=15 height=15 snakes=8", seed=2)
    c = SearchController(0, [0], game, SearchParams(max_depth=4), seed=1)
    try:
        # while it thinks: applied at a slice boundary, C's refusal would
        # end the worker's turn with an error instead
        c.start(0, game, Budget(ms=0, iterations=10**9, slice_iterations=200))
        with pytest.raises(InvalidArgument, match="joint"):
            c.update_settings({"algorithm": "joint"})
        assert c.settings.algorithm == "smitsimax"
        c.interrupt()
        assert c.wait(HANG_GUARD_S)
        c.raise_if_failed()                     # the turn ended cleanly
        assert c.latest.algorithm == "smitsimax" and c.moves()[0] is not None
    finally:
        c.close()
        game.close()


@pytest.mark.parametrize("name", [a for a in ALGORITHMS if a != "smitsimax"])
def test_single_and_no_tree_searches_publish_what_they_keep(game, name):
    if not BUILT[name]:
        pytest.skip(f"{name} is refused on this game (or not built into this C core)")
    c = SearchController(0, [0], game, SearchParams(max_depth=4, algorithm=name), seed=1)
    c.tree_request = TreeRequest(max_nodes=300, min_visits=1, every_ms=0.0, agents=(0, 1))
    try:
        think(c, game)
        s = c.latest
        assert s.algorithm == name and s.num_trees == trees_kept(name, 2)
        if s.num_trees == 0:
            assert dict(s.trees) == {}
        else:                                   # one tree, the same object for both
            assert set(s.trees) == {0, 1} and s.trees[0] is s.trees[1]
            assert len(s.trees[0]) > 1
    finally:
        c.close()

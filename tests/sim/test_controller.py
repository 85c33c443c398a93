"""SearchController: searches on its own worker thread in slices, publishes
snapshots between slices, applies settings at slice boundaries, can be
interrupted. Budgets are iterations; waits have generous timeouts that only
guard against hangs."""
from __future__ import annotations

import threading
import time

import pytest

from sandbox.config import Budget
from sandbox.native import Game, InvalidState, SearchParams
from sandbox.sim.controller import ControllerSnapshot, SearchController, TreeRequest

GAME = {"width": 11, "height": 11, "snakes": 4}
HANG_GUARD_S = 120
LONG = 1_000_000_000          # iterations: far more than any test lets run


@pytest.fixture
def game():
    g = Game("snakes", GAME, seed=2)
    yield g
    g.close()


@pytest.fixture
def controller(game):
    c = SearchController(0, [0], game, SearchParams(max_depth=6), seed=7, name="P0")
    yield c
    c.close()


def think(c: SearchController, game: Game, budget: Budget, turn: int = 0) -> dict:
    c.start(turn, game, budget)
    assert c.wait(HANG_GUARD_S), "the controller never finished thinking"
    c.raise_if_failed()
    return c.moves()


def test_publishes_snapshots_while_thinking(controller, game):
    budget = Budget(ms=0, iterations=400_000, slice_iterations=1000)
    seen: list[ControllerSnapshot] = []
    controller.start(0, game, budget)
    deadline = time.monotonic() + HANG_GUARD_S
    while not controller.done and time.monotonic() < deadline:
        snap = controller.latest
        if snap is not None and (not seen or snap is not seen[-1]):
            seen.append(snap)
        time.sleep(0.0005)
    assert controller.wait(HANG_GUARD_S)
    final = controller.latest
    seen.append(final)
    thinking = [s for s in seen if s.thinking]
    assert thinking, "no snapshot was published during the turn"
    its = [s.iterations for s in seen]
    assert its == sorted(its)
    # the last slice's snapshot may still say "thinking" (published before the
    # turn is wrapped up), so the budget itself is a legitimate count here
    assert all(s.iterations % 1000 == 0 and 0 < s.iterations <= 400_000 for s in thinking)
    assert all(s.turn == 0 and s.player == 0 and s.agents == (0,) for s in seen)
    # the final snapshot describes the finished turn
    assert not final.thinking
    assert final.iterations == 400_000 and final.stop_reason == "iterations"
    assert final.best_moves[0] == controller.moves()[0]
    assert sum(st.visits for st in final.root_stats[0]) == 400_000
    assert len(final.root_stats) == 4 and len(final.tree_nodes) == 4
    assert final.params == controller.settings


def test_tree_request_publishes_tree_snapshots(controller, game):
    controller.tree_request = TreeRequest(max_nodes=50, min_visits=2, every_ms=0.0, agents=(0, 2))
    think(controller, game, Budget(ms=0, iterations=3000, slice_iterations=500))
    trees = controller.latest.trees
    assert set(trees) == {0, 2}
    for a, snap in trees.items():
        assert snap.agent == a and 1 < len(snap) <= 50
        assert (snap.visits[1:] >= 2).all()


def test_moves_are_the_searchs_best_moves_and_reproducible(game):
    budget = Budget(ms=0, iterations=5000, slice_iterations=700)
    results = []
    for _ in range(2):
        c = SearchController(1, [1, 3], game, SearchParams(max_depth=6), seed=3)
        try:
            moves = think(c, game, budget)
            best = c.search.best_moves()
            assert moves == {1: best[1], 3: best[3]}
            results.append((moves, c.latest.root_stats))
        finally:
            c.close()
    assert results[0] == results[1]


def test_update_settings_between_turns_reaches_c(controller, game):
    think(controller, game, Budget(ms=0, iterations=500))
    controller.drain_changes()
    old = controller.settings
    controller.update_settings({"c": 1.9, "gamma": 0.8}, turn=0)
    assert controller.search.c_params() == old.replace(c=1.9, gamma=0.8)
    (change,) = controller.drain_changes()
    assert change.changes == {"c": (old.c, 1.9), "gamma": (old.gamma, 0.8)}
    # turn 0's search had run its 500 iterations: the change lands after
    # them (a replay's re-search of turn 0 must not apply it)
    assert change.turn == 0 and change.player == 0 and change.iteration == 500
    assert controller.drain_changes() == []
    # a whole SearchParams works too
    controller.update_settings(old)
    assert controller.search.c_params() == old
    (back,) = controller.drain_changes()
    assert back.changes == {"c": (1.9, old.c), "gamma": (0.8, old.gamma)}


def test_update_settings_while_thinking_applies_at_a_slice_boundary(controller, game):
    """A change asked for mid-turn is applied by the worker between slices
    and logged with how many iterations into the turn it landed."""
    budget = Budget(ms=0, iterations=LONG, slice_iterations=500)
    controller.start(0, game, budget)
    try:
        deadline = time.monotonic() + HANG_GUARD_S
        while (controller.latest is None or controller.latest.iterations < 2000) \
                and time.monotonic() < deadline:
            time.sleep(0.001)
        controller.update_settings({"max_depth": 2})
        while controller.latest.params.max_depth != 2 and time.monotonic() < deadline:
            time.sleep(0.001)
        seen_at = controller.latest.iterations
    finally:
        controller.interrupt()
        assert controller.wait(HANG_GUARD_S)
    (change,) = controller.drain_changes()
    assert change.changes == {"max_depth": (6, 2)}
    assert change.iteration > 0 and change.iteration % 500 == 0
    assert change.iteration <= seen_at
    assert controller.search.c_params().max_depth == 2
    assert controller.latest.params.max_depth == 2


def test_interrupt_ends_a_long_turn_early(controller, game):
    budget = Budget(ms=0, iterations=LONG, slice_iterations=2000)
    controller.start(0, game, budget)
    deadline = time.monotonic() + HANG_GUARD_S
    while controller.latest is None or controller.latest.iterations < 4000:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    assert not controller.done
    controller.interrupt()
    assert controller.wait(HANG_GUARD_S), "interrupt() did not end the turn"
    snap = controller.latest
    assert not snap.thinking and snap.stop_reason == "interrupted"
    assert 4000 <= snap.iterations < LONG
    moves = controller.moves()
    assert moves[0] in game.legal_moves(0)
    # and the controller is ready for the next turn
    think(controller, game, Budget(ms=0, iterations=300), turn=0)
    assert controller.latest.iterations == 300 and controller.latest.stop_reason == "iterations"


def test_match_interrupt_stops_every_search():
    from sandbox.config import scenario_from_dict
    from sandbox.sim.match import Match
    sc = scenario_from_dict({
        "game": "snakes", "game_params": GAME,
        "budget": {"ms": 0, "iterations": LONG, "slice_iterations": 1000},
        "players": [{}, {}, {}, {}],
    })
    with Match(sc, seed=1) as m:
        m.start_turn()
        deadline = time.monotonic() + HANG_GUARD_S
        while not all(c.latest is not None and c.latest.iterations >= 1000 for c in m.controllers):
            assert time.monotonic() < deadline
            time.sleep(0.001)
        assert not m.turn_ready()
        m.interrupt()
        rec = m.complete_turn()
        assert all(p.stop_reason == "interrupted" for p in rec.players)
        assert all(0 < p.iterations < LONG for p in rec.players)
        assert rec.turn == 0 and m.turn == 1


def test_turn_protocol(controller, game):
    controller.start(0, game, Budget(ms=0, iterations=LONG, slice_iterations=1000))
    try:
        with pytest.raises(InvalidState):
            controller.start(0, game, Budget(ms=0, iterations=10))
        with pytest.raises(InvalidState):
            controller.moves()
        with pytest.raises(InvalidState):
            controller.finish([0, 0, 0, 0], game)
        deadline = time.monotonic() + HANG_GUARD_S
        while controller.latest is None or controller.latest.iterations < 1000:
            assert time.monotonic() < deadline
            time.sleep(0.001)
    finally:
        controller.interrupt()
        assert controller.wait(HANG_GUARD_S)
    joint = [controller.moves()[0], 0, 0, 0]
    visits = {st.move: st.visits for st in controller.search.root_stats(0)}
    game.step(joint)
    controller.finish(joint, game)
    # tree reuse: the searched child became the root
    assert controller.search.stats().root_visits[0] == visits[joint[0]]
    with controller.search.root_game() as root:
        assert root.state_hash() == game.state_hash()


def test_close_while_thinking_returns(game):
    c = SearchController(0, [0], game, SearchParams(), seed=1)
    c.start(0, game, Budget(ms=0, iterations=LONG, slice_iterations=5000))
    deadline = time.monotonic() + HANG_GUARD_S
    while c.latest is None:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    closer = threading.Thread(target=c.close, daemon=True)
    closer.start()
    closer.join(HANG_GUARD_S)
    assert not closer.is_alive(), "close() hung while the controller was thinking"
    assert c.search.closed
    with pytest.raises(InvalidState):
        c.start(1, game, Budget(ms=0, iterations=10))


def test_a_player_with_every_agent_out_does_not_search():
    """Its moves are None at once, its snapshot says why, and its C search
    runs no iteration (no CPU taken from the players still in the game);
    a settings change made meanwhile still reaches C."""
    from sandbox.games.snakes.reference import Snake, build_export
    quiet = {"food_spawn_chance": 0, "minimum_food": 0, "initial_food": 0}
    with Game("snakes", {"width": 7, "height": 7, "snakes": 3, **quiet}, seed=1) as g:
        g.import_state(build_export(7, 7, [
            Snake([(1, 1)], 100),
            Snake([(5, 5)], 40, alive=False, death_turn=2, cause=1),
            Snake([(1, 5)], 100)], (), 3))
        assert not g.is_terminal
        dead = SearchController(1, [1], g, SearchParams(max_depth=4), seed=3, name="P1")
        live = SearchController(0, [0], g, SearchParams(max_depth=4), seed=3, name="P0")
        try:
            dead.update_settings({"c": 1.5})
            assert think(dead, g, Budget(ms=0, iterations=5000), turn=3) == {1: None}
            snap = dead.latest
            assert (snap.iterations, snap.stop_reason, snap.thinking) == (0, "eliminated", False)
            assert dead.search.stats().iterations == 0
            assert dead.c_confirmed.c == 1.5
            assert think(live, g, Budget(ms=0, iterations=500), turn=3)[0] is not None
            assert live.latest.iterations == 500
        finally:
            dead.close()
            live.close()


def test_changes_coalesce_per_turn():
    from sandbox.sim.controller import SettingsChange, coalesce_changes
    raw = [SettingsChange(3, 0, {"c": (0.7, 1.0)}, 10),
           SettingsChange(3, 0, {"c": (1.0, 1.5), "gamma": (0.97, 0.9)}, 20),
           SettingsChange(3, 0, {"gamma": (0.9, 0.97)}, 30),      # back where it was
           SettingsChange(4, 0, {"c": (1.5, 2.0)}, 5)]
    assert [(c.turn, c.changes, c.iteration) for c in coalesce_changes(raw)] == [
        (3, {"c": (0.7, 1.5)}, 10), (4, {"c": (1.5, 2.0)}, 5)]
    assert coalesce_changes([SettingsChange(1, 0, {"c": (1.0, 2.0)}, 0),
                             SettingsChange(1, 0, {"c": (2.0, 1.0)}, 0)]) == []


def test_publish_now_keeps_the_turns_search_figures(controller, game):
    """A refresh between turns (after a traced step, or when the tree view
    changes) re-reads trees and root stats but is no search slice: the
    turn's iterations, rate and time stay what the search measured."""
    think(controller, game, Budget(ms=0, iterations=3000), turn=0)
    before = controller.latest
    controller.step_traced()
    after = controller.publish_now(0)
    assert after is not before
    assert (after.iterations, after.sim_turns, after.search_ms) == (
        before.iterations, before.sim_turns, before.search_ms)
    assert after.iterations_per_s == before.iterations_per_s > 0
    assert sum(m.visits for m in after.root_stats[0]) == \
        sum(m.visits for m in before.root_stats[0]) + 1     # the traced iteration shows

"""Match: the turn loop (headless). Iteration budgets make matches
reproducible; the records agree with the world; settings changes and human
moves land where they should."""
from __future__ import annotations

from typing import Any

import pytest

from sandbox.config import Budget, scenario_from_dict
from sandbox.native import Game, InvalidState
from sandbox.sim.controller import HumanController, RandomController, SearchController, SettingsChange
from sandbox.sim.match import Match
from sandbox.sim.records import TurnRecord

QUIET = {"food_spawn_chance": 0, "minimum_food": 0, "initial_food": 0}


def scenario(players: list[dict[str, Any]] | int = 3, iterations: int = 300, max_turns: int = 10,
             seed: int = 3, **game_params):
    if isinstance(players, int):
        players = [{"name": f"S{i}"} for i in range(players)]
    return scenario_from_dict({
        "name": "test",
        "game": "snakes",
        "game_params": {"width": 7, "height": 7, "snakes": len(players),
                        "food_spawn_chance": 20, **game_params},
        "seed": seed,
        "max_turns": max_turns,
        "budget": {"ms": 0, "iterations": iterations, "slice_iterations": 128},
        "players": players,
    })


def play(sc, **kw):
    with Match(sc, **kw) as m:
        result = m.play()
        return result, list(m.history)


def test_iteration_budgets_make_matches_reproducible():
    sc = scenario(3, iterations=300, max_turns=12)
    r1, h1 = play(sc)
    r2, h2 = play(sc)
    assert [t.state_hash for t in h1] == [t.state_hash for t in h2]
    assert [t.joint for t in h1] == [t.joint for t in h2]
    assert r1 == r2
    assert r1.line() == r2.line()
    # every player really searched its full budget each turn
    for t in h1:
        for p in t.players:
            assert p.controller == "smitsimax"
            assert p.iterations == 300 and p.stop_reason == "iterations"
            # (tree reuse: the root also keeps the visits of earlier turns)
            for stats in p.root_stats.values():
                assert sum(s.visits for s in stats) >= 300


def test_different_seeds_give_different_matches():
    sc = scenario(3, iterations=300, max_turns=12)
    r1, h1 = play(sc, seed=1)
    r2, h2 = play(sc, seed=2)
    assert [t.state_hash for t in h1] != [t.state_hash for t in h2]
    assert r1.final_hash != r2.final_hash


def test_budget_and_turn_overrides():
    sc = scenario(2, iterations=300, max_turns=12)
    with Match(sc, budget=Budget(ms=0, iterations=77, slice_iterations=10), max_turns=3) as m:
        result = m.play()
        assert result.turns == 3 == len(m.history) and m.over
        assert all(p.iterations == 77 for t in m.history for p in t.players)
        with pytest.raises(InvalidState):
            m.start_turn()                      # the match is over


def test_random_players_play_to_the_end():
    sc = scenario([{"controller": "random"} for _ in range(4)], max_turns=0)
    with Match(sc, seed=5) as m:
        result = m.play()
        assert m.world.is_terminal and result.terminal
        assert sum(m.world.game.alive) <= 1
        assert result.turns == len(m.history) == m.turn
        assert all(p.controller == "random" and p.iterations == 0
                   for t in m.history for p in t.players)
        if result.winner is not None:
            assert m.world.game.alive[result.winner] or sum(m.world.game.alive) == 0
    # seeded random players are reproducible too
    r2, _ = play(sc, seed=5)
    assert r2 == result


def replay_and_check(sc, seed: int, history: list[TurnRecord]) -> None:
    """Re-simulate the recorded joint actions on a fresh game and check every
    field of every TurnRecord that describes the world."""
    with Game(sc.game, sc.game_param_string(), seed=seed) as g:
        for k, rec in enumerate(history):
            assert rec.turn == k == g.turn
            alive_before = g.alive
            for a, m in enumerate(rec.joint):
                if alive_before[a]:
                    assert m in g.legal_moves(a), f"turn {k}: agent {a} move {m}"
                else:
                    assert m is None, f"turn {k}: dead agent {a} got move {m}"
            rewards = g.step(list(rec.joint))
            assert rec.state_hash == g.state_hash()
            assert rec.alive == tuple(g.alive)
            assert rec.eliminated == tuple(a for a in range(g.num_agents)
                                           if alive_before[a] and not g.alive[a])
            assert rec.scores == tuple(float(x) for x in g.evaluate())
            assert rec.rewards == tuple(float(x) for x in rewards)
            for p in rec.players:
                assert set(p.moves) == set(sc.player_agents(p.player))
                for a, m in p.moves.items():
                    assert rec.joint[a] == m


def test_turn_records_agree_with_the_world_random():
    sc = scenario([{"controller": "random"} for _ in range(4)], max_turns=0, width=7, height=7)
    for seed in (5, 6, 7):
        _, history = play(sc, seed=seed)
        assert any(rec.eliminated for rec in history)
        replay_and_check(sc, seed, history)


def test_turn_records_agree_with_the_world_search():
    sc = scenario(3, iterations=200, max_turns=25)
    result, history = play(sc, seed=9)
    replay_and_check(sc, 9, history)
    assert result.final_hash == history[-1].state_hash


def test_players_with_several_agents():
    sc = scenario_from_dict({
        "game": "snakes", "game_params": {"width": 7, "height": 7, "snakes": 4},
        "budget": {"ms": 0, "iterations": 200},
        "max_turns": 6,
        "players": [{"agents": [0, 2]}, {"agents": [1, 3], "controller": "random"}],
    })
    with Match(sc, seed=2) as m:
        m.play()
        assert m.owner == [0, 1, 0, 1]
        for rec in m.history:
            assert set(rec.players[0].moves) == {0, 2}
            assert set(rec.players[1].moves) == {1, 3}
            assert set(rec.players[0].root_stats) == {0, 2}
        replay_and_check(sc, 2, m.history)


def test_settings_change_between_turns_is_applied_and_logged():
    sc = scenario(2, iterations=200, max_turns=6)
    with Match(sc, seed=4) as m:
        c0 = m.controllers[0]
        assert isinstance(c0, SearchController)
        first = m.play_turn()
        assert first.players[0].changes == ()
        old = c0.settings
        c0.update_settings({"c": 2.5, "max_depth": 4}, turn=m.turn)
        # between turns the change reaches the C search at once
        assert c0.search.c_params().c == 2.5 and c0.search.c_params().max_depth == 4
        assert c0.settings == old.replace(c=2.5, max_depth=4)
        rec = m.play_turn()
        (change,) = rec.players[0].changes
        assert isinstance(change, SettingsChange)
        assert change.player == 0 and change.turn == 1 == rec.turn
        assert change.changes == {"c": (old.c, 2.5), "max_depth": (old.max_depth, 4)}
        assert rec.players[1].changes == ()
        # the search used the new depth: at most 4 simulated turns per iteration
        assert rec.players[0].sim_turns <= 4 * rec.players[0].iterations
        later = m.play_turn()
        assert later.players[0].changes == ()           # logged once
        assert c0.search.c_params().c == 2.5            # and still in force


def test_settings_change_to_the_same_values_is_not_logged():
    sc = scenario(2, iterations=100, max_turns=3)
    with Match(sc, seed=4) as m:
        c0 = m.controllers[0]
        c0.update_settings({"c": c0.settings.c})
        rec = m.play_turn()
        assert rec.players[0].changes == ()


def test_random_and_human_players_have_no_search_settings():
    sc = scenario([{"controller": "random"}, {"controller": "human"}], max_turns=3)
    with Match(sc, seed=1) as m:
        for c in m.controllers:
            assert c.settings is None and c.latest is None
            with pytest.raises(InvalidState):
                c.update_settings({"c": 1.0})


def test_human_choice_is_the_move_played():
    # the opponent searches (a random snake may run into a wall on turn 2
    # and end the match before the plan is played)
    sc = scenario([{"controller": "human"}, {"name": "S"}], iterations=100, max_turns=8,
                  width=11, height=11)
    with Match(sc, seed=1) as m:
        human = m.controllers[0]
        assert isinstance(human, HumanController)
        # chosen before each turn starts; None: no key pressed, keep going
        plan = [0, 0, 3, None, 3, 1, None, 2]
        previous = None
        for move in plan:
            if m.over:
                break
            alive = m.world.game.is_alive(0)
            if move is not None:
                human.choose(move)
                assert human.chosen() == move
            rec = m.play_turn()
            expect = (move if move is not None else previous) if alive else None
            assert rec.joint[0] == expect, f"turn {rec.turn}"
            assert rec.players[0].moves == {0: expect}
            assert rec.players[0].controller == "human"
            previous = rec.joint[0]
        assert m.turn >= 4


def test_overrides_replace_decisions():
    sc = scenario(2, iterations=100, max_turns=3)
    with Match(sc, seed=1) as m:
        m.start_turn()
        rec = m.complete_turn(overrides={1: 3})
        assert rec.joint[1] == 3


def test_turn_protocol_errors():
    sc = scenario(2, iterations=100, max_turns=2)
    with Match(sc, seed=1) as m:
        with pytest.raises(InvalidState):
            m.complete_turn()
        m.start_turn()
        with pytest.raises(InvalidState):
            m.start_turn()
        m.complete_turn()
    with pytest.raises(InvalidState):
        m.start_turn()                      # closed


def test_a_player_the_core_refuses_gives_its_error_and_a_closed_match():
    """A scenario whose search C refuses for its game (MCGS's heuristic
    priors need the game's move scores; goofspiel has none) raises the
    project's error from Match, not an error of a half-made Match."""
    from sandbox.native import InvalidArgument
    sc = scenario_from_dict({
        "name": "refused", "game": "goofspiel", "game_params": {"num_cards": 4},
        "budget": {"ms": 0, "iterations": 50},
        "players": [{"name": "A", "search": {"algorithm": "mcgs", "priors": "heuristic"}},
                    {"name": "B"}]})
    with pytest.raises(InvalidArgument, match="priors: heuristic needs a game with move scores"):
        Match(sc, recorder=None)
    ok = scenario_from_dict({
        "name": "maze", "game": "maze", "game_params": {"size": "tiny"}, "max_turns": 3,
        "budget": {"ms": 0, "iterations": 50},
        "players": [{"name": "A", "search": {"algorithm": "mcgs", "priors": "heuristic",
                                             "prior_temperature": 0.3}},
                    {"name": "B", "search": {"algorithm": "mcgs"}}]})
    with Match(ok, recorder=None) as m:
        assert m.controllers[0].settings.priors == "heuristic"
        assert m.play().turns == 3


def test_result_line_names_a_team_that_shares_first_place():
    from sandbox.sim.records import MatchResult
    team = MatchResult(turns=9, ranking=(1, 1, 0, 0), winner=None, final_hash=0, terminal=True,
                       names=("Red", "Red", "Blue", "Blue"))
    assert team.line().startswith("result: winner=2,3(Blue) ")
    tie = MatchResult(turns=9, ranking=(0, 0), winner=None, final_hash=0, terminal=True,
                      names=("Red", "Blue"))
    assert tie.line().startswith("result: winner=none ")


def test_a_persons_unsteered_snakebyte_team_mate_is_played_by_a_greedy_search():
    """SnakeByte has no bot: the team mate the person is not steering used to
    repeat its last move (up, into the ceiling, every turn). It is now the
    move of a one-ply greedy search on the same state, recorded as a
    search's; the steered snake is the person's."""
    from sandbox.native import Search
    from sandbox.sim.controller import HumanController
    with Game("snakes", "ruleset=snakebyte map_seed=4", seed=1) as g:
        human = HumanController(0, (0, 1), "You")
        try:
            with Search(g, {"algorithm": "greedy"}, seed=1000) as ref:
                ref.run(iterations=HumanController.UNSTEERED_ITERATIONS)
                expect = ref.best_moves()[1]
            human.choose(2, agent=0)
            human.start(0, g, Budget(iterations=1, ms=0))
            assert human.wait(5)
            moves = human.moves()
            assert moves[0] == 2 and human.chooser(0) == "person"
            assert moves[1] == expect and human.chooser(1) == "search"
        finally:
            human.close()

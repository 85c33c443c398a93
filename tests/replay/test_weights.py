"""A player's own evaluation weights (players.N.weights, the arena's weight
sliders): its search roots on the world's state in a game with those
weights; the world, the recorded scores and `replay verify` keep the
scenario's. A weight changed during a match applies from the next turn and
is recorded (weights.NAME), so `replay research` replays it exactly; a
what-if may change weights too; a branch takes those in force.

Oracles: the recording's root visits (as in test_research), and a search
built by hand on the weighted game."""
from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.config import Budget, ScenarioError, load_scenario, scenario_from_dict
from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.replay import Recorder, ReplayError, read_replay, verify
from sandbox.replay.branch import branch_point, weights_in_force
from sandbox.replay.research import research
from sandbox.sim.match import Match

ITERATIONS, TURNS, CHANGE_TURN = 150, 10, 3


def _scenario(weights=None):
    base = load_scenario("snakes_standard_4p").model_dump()
    for p in base["players"]:
        p["search"]["tree_reuse"] = False
    base["players"][3] = {"name": "Rand", "controller": "random"}
    base["players"][0]["weights"] = weights
    return scenario_from_dict(base)


def _record(folder: Path, change: bool) -> Path:
    rec = Recorder(folder, name_hint=f"weights{int(change)}")
    with Match(_scenario({"w_space": 2.0}), seed=9, budget=Budget(iterations=ITERATIONS, ms=0),
               max_turns=TURNS, recorder=rec) as m:
        while not m.over:
            if change and m.turn == CHANGE_TURN:
                m.controllers[1].update_weights({"w_food": 1.5, "w_length": 0.2}, turn=m.turn)
            m.play_turn()
    rec.close()
    return rec.path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("weights")
    return {"fixed": _record(folder, False), "changed": _record(folder, True)}


def _param(params: str, name: str) -> float:
    """A value of a C parameter string ("... w_food=1.5 ...")."""
    return float(dict(kv.split("=", 1) for kv in params.split())[name])


def _recorded(replay, turn: int, agent: int) -> dict[int, int]:
    return {m.move: m.visits for m in replay.by_turn[turn].agent(agent).root}


def test_a_weighted_players_first_search_is_a_search_on_the_weighted_game(files):
    r = read_replay(files["fixed"])
    h = r.header
    assert h.scenario["players"][0]["weights"] == {"w_space": 2.0}
    with r.state_at(0) as world, Game(h.game, h.game_params + " w_space=2", seed=0) as wg:
        wg.import_state(world.export())
        p = SearchParams(**h.players[0].search)
        with Search(wg, p, seed=h.players[0].seed) as s:
            s.run(iterations=ITERATIONS)
            assert {m.move: m.visits for m in s.root_stats(0)} == _recorded(r, 0, 0)
        with Search(world, p, seed=h.players[0].seed) as s:   # the scenario's weights
            s.run(iterations=ITERATIONS)
            assert {m.move: m.visits for m in s.root_stats(0)} != _recorded(r, 0, 0)
    assert verify(r).ok                  # the world kept the scenario's weights


def test_research_reproduces_players_with_weights_and_recorded_weight_changes(files):
    r = read_replay(files["changed"])
    changes = [ch for pt in r.by_turn[CHANGE_TURN].players for ch in pt.changes]
    assert changes and set(changes[0].changes) == {"weights.w_food", "weights.w_length"}
    assert weights_in_force(r, 1, CHANGE_TURN) == {}
    assert weights_in_force(r, 1, CHANGE_TURN + 1) == {"w_food": 1.5, "w_length": 0.2}
    for turn, agent in ((CHANGE_TURN, 1), (CHANGE_TURN + 2, 1), (CHANGE_TURN + 2, 0)):
        rep = research(r, turn, agent)
        assert rep.identical, (turn, agent)
        assert {m.move: m.visits for m in rep.rows} == _recorded(r, turn, agent)
    assert verify(r).ok


def test_a_what_if_may_change_a_weight(files):
    r = read_replay(files["fixed"])
    rep = research(r, 5, 0, {"weights.w_space": 0.0, "weights.w_alive": 3.0})
    assert rep.changes == {"weights.w_space": (2.0, 0.0), "weights.w_alive": (1.0, 3.0)}
    assert not rep.identical
    with pytest.raises(ReplayError, match="w_nope"):
        research(r, 5, 0, {"weights.w_nope": 1.0})
    with pytest.raises(ReplayError, match="w_alive"):
        research(r, 5, 0, {"weights.w_alive": 5000})


def test_a_branch_takes_the_weights_in_force(files, tmp_path):
    with read_replay(files["changed"]) as r:
        bp = branch_point(r, CHANGE_TURN + 2)
    assert bp.scenario.players[0].weights == {"w_space": 2.0}
    assert bp.scenario.players[1].weights == {"w_food": 1.5, "w_length": 0.2}
    rec = Recorder(tmp_path, name_hint="b")
    with Match(bp.scenario, seed=bp.seed, player_budgets=bp.player_budgets,
               max_turns=bp.turn + 2, recorder=rec, start=bp.start) as m:
        sp = m.controllers[1].search.game_params
        assert (_param(sp, "w_food"), _param(sp, "w_length")) == (1.5, 0.2)
        m.play()
    rec.close()
    b = read_replay(rec.path)
    assert verify(b).ok
    assert research(b, bp.turn + 1, 1).identical


def test_live_weight_changes_apply_from_the_next_turn_and_bad_ones_are_refused():
    with Match(_scenario(), seed=2, budget=Budget(iterations=50, ms=0), max_turns=6) as m:
        c = m.controllers[0]
        m.play_turn()
        params_before = c.search.game_params
        c.update_weights({"w_health": 0.7}, turn=m.turn)
        assert c.weights == {} and c.weights_asked == {"w_health": 0.7}
        assert c.search.game_params == params_before         # not before the turn ends
        m.play_turn()
        assert c.weights == {"w_health": 0.7} and _param(c.search.game_params, "w_health") == 0.7
        assert m.world.game.params == params_before          # the world keeps its own
        for bad, msg in (({"w_nope": 1}, "not an evaluation weight"),
                         ({"w_health": 1e9}, "w_health"),
                         ({"width": 3}, "not an evaluation weight")):
            with pytest.raises(InvalidArgument, match=msg):
                c.update_weights(bad, turn=m.turn)
        c.update_weights({"w_health": 0.1}, turn=m.turn)     # back to the scenario's
        m.play_turn()
        assert c.weights == {"w_health": 0.1}
        m.play_turn()


@pytest.mark.parametrize("weights, msg", [
    ({"w_nope": 1.0}, "players.0.weights.w_nope: not an evaluation weight of snakes"),
    ({"w_alive": 5000}, "players.0.weights.w_alive"),
    ({"width": 3}, "not an evaluation weight"),
    ({"w_alive": "high"}, "players.0.weights.w_alive"),
])
def test_bad_scenario_weights_are_one_line(weights, msg):
    with pytest.raises(ScenarioError) as e:
        _scenario(weights)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_weights_follow_the_snakes_ruleset():
    """A ruleset's own weights only, and a weight left unset (None in the
    model: the ruleset's default) reads as C's default, not a crash."""
    from sandbox.games import plugin
    p = plugin("snakes")
    std, byte = p.weight_names({}), p.weight_names({"ruleset": "snakebyte"})
    assert "w_space" in std and "w_loss" not in std
    assert "w_loss" in byte and "w_space" not in byte and "w_length" in byte
    assert p.weight_value({}, "w_length") == 0.01
    assert p.weight_value({"ruleset": "snakebyte"}, "w_length") == 1.0
    assert p.weight_value({"ruleset": "snakebyte", "w_length": 3}, "w_length") == 3.0


def test_an_unknown_weight_with_a_newline_in_its_name_is_one_line():
    """Found by the fuzz suite: a [weights] key holding a newline was named
    verbatim in the error, breaking the one-line rule."""
    from sandbox.config import scenario_from_dict
    with pytest.raises(Exception) as err:
        scenario_from_dict({"name": "t", "game": "snakes", "seed": 1,
                            "players": [{"name": "A", "weights": {"w\nx": 1.0}},
                                        {"name": "B"}]})
    assert "\n" not in str(err.value) and "'w\\nx'" in str(err.value)
    from sandbox.settings.seat import weighted_params
    with pytest.raises(Exception) as err:
        weighted_params("snakes", {}, {"a\nb": 1.0})
    assert "\n" not in str(err.value)

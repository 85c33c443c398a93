"""The pymunk world of a pods race (scenario physics = "pymunk",
sandbox/games/pods/world.py, through sandbox/sim/world.PhysicsWorld).

Free flight: the world must move pods exactly as the rules do (checked
against plain arithmetic from the rules' formulas and against the C model,
turn by turn). Contacts: pymunk's elastic solver is not the referee's
minimum-impulse bounce; the divergence it reports must be the distance
between the world's state and the C model's step of the same turn.

Map `oval`: checkpoints 0 (3000,4500), 1 (8000,1800), 2 (13000,4500),
3 (8000,7200). Move ids: 0-2 L18 x {0,100,200}, 3-5 straight x {0,100,200},
6-8 R18 x {0,100,200}, 9 boost, 10 shield."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from sandbox.games.pods.view import decode_pods, encode_pods
from sandbox.native import InvalidArgument
from sandbox.sim.world import PhysicsWorld, World, make_world

L0, L100, L200, S0, S100, S200, R0, R100, R200, BOOST, SHIELD = range(11)
OVAL = {"map": "oval", "players": 2, "pods_per_player": 1, "laps": 1}


def java_round(v: float) -> int:
    return math.floor(v + 0.5)


def worlds(params=OVAL, turn=1, **pods):
    """A pymunk world and a C world in the same hand-set state."""
    out = []
    for physics in ("pymunk", "csb"):
        w = make_world("pods", params, 0, physics)
        v = replace(decode_pods(w.export()), turn=turn)
        for key, changes in pods.items():
            v = v.with_pod(int(key[1:]), **changes)
        w.game.import_state(encode_pods(v))
        w._sync()
        if isinstance(w, PhysicsWorld):   # the world's bodies start where C is
            from sandbox.games.pods.world import PodsWorld
            w.physics = PodsWorld(v)
        out.append(w)
    return out


def test_straight_thrust_matches_the_rules_arithmetic():
    pw, cw = worlds(p0=dict(x=1000, y=1000, vx=0, vy=0, angle=0.0),
                    p1=dict(x=1000, y=8000, vx=0, vy=0, angle=0.0))
    # the rules by hand: v += 200; x = round(x + v); v = trunc(0.85 v)
    x, vx = 1000, 0
    for _ in range(6):
        rewards = pw.step([S200, S0])
        cw.step([S200, S0])
        vx += 200
        x = java_round(x + vx)
        vx = int(vx * 0.85)
        q = decode_pods(pw.export()).pods[0]
        assert (q.x, q.y, q.vx, q.vy) == (x, 1000, vx, 0)
        assert list(rewards) == [0.0, 0.0]
    assert x == 1000 + 200 + 370 + 514 + 636 + 740 + 829   # hand-summed, 4289
    assert pw.last_divergence == (0.0, 0.0)


def test_free_flight_agrees_with_the_c_model_turn_by_turn():
    """Hand-set thrusts and turns (rotations, half thrust, a boost, a shield)
    over 18 turns, pods far apart, each flying through a checkpoint: every
    export word agrees, checkpoints passed and clocks included, and the
    divergence stays 0."""
    pw, cw = worlds(p0=dict(x=2500, y=2100, vx=0, vy=0, angle=350.0),
                    p1=dict(x=2500, y=7000, vx=0, vy=0, angle=10.0, passed=2, next_cp=3))
    plan0 = [S200, S200, R200, BOOST, S200, R100, L200, S200, SHIELD, S0, S0, S0, L100, S200,
             S200, R200, S100, S200]
    plan1 = [S100, L200, S200, R200, SHIELD, S0, S0, S0, BOOST, R200, S200, L100, S200, S0,
             S200, S200, S200, S200]
    for t, j in enumerate(zip(plan0, plan1)):
        pw.step(j)
        cw.step(j)
        a, b = decode_pods(cw.export()).pods
        assert math.hypot(a.x - b.x, a.y - b.y) > 1000, "the test needs free flight"
        assert list(pw.export()) == list(cw.export()), f"turn {t}"
        assert pw.last_divergence == (0.0, 0.0)
    assert (a.passed, b.passed) == (1, 3), "each pod flew through its next checkpoint"
    assert (a.x, a.y) == (16668, 2914)     # C's own figure: the two agree exactly


def test_a_pass_through_a_checkpoint_sensor_counts_once():
    # pod 0 flies east right through checkpoint 1 (8000,1800) within the
    # turn: from x 6900 (1100 before its centre) to 6900 + 2000 + 200 = 9100
    # (1100 past it); it is inside only mid-turn
    pw, cw = worlds(p0=dict(x=6900, y=1800, vx=2000, vy=0, angle=0.0),
                    p1=dict(x=3000, y=7900, vx=0, vy=0, angle=0.0))
    r = pw.step([S200, S0])
    q = decode_pods(pw.export()).pods[0]
    assert (q.x, q.vx, q.passed, q.next_cp) == (9100, 1870, 1, 2)
    assert list(r) == [1.0, 0.0]
    # a pod stopped inside checkpoint 1 passes it once, not once a turn
    pw, cw = worlds(p0=dict(x=7300, y=1800, vx=300, vy=0, angle=0.0),
                    p1=dict(x=3000, y=7900, vx=0, vy=0, angle=0.0))
    for _ in range(3):
        pw.step([S0, S0])
    assert decode_pods(pw.export()).pods[0].passed == 1
    # the clock restarted on the pass (turn 1), then ticked twice
    assert decode_pods(pw.export()).clock == (98, 97)


def test_head_on_contact_is_elastic():
    """Equal masses, head-on, 600 closing speed: an elastic contact swaps the
    velocities (by hand: contact at t = 1/3, at x 5100 / 5900; then each moves
    200 back: 4900 / 6100; velocities -300 / 300 x 0.85 = -255 / 255)."""
    pw, cw = worlds(p0=dict(x=5000, y=4500, vx=300, vy=0, angle=0.0),
                    p1=dict(x=6000, y=4500, vx=-300, vy=0, angle=180.0))
    pw.step([S0, S0])
    a, b = decode_pods(pw.export()).pods
    assert abs(a.x - 4900) <= 15 and abs(b.x - 6100) <= 15 and a.y == b.y == 4500
    assert abs(a.vx + 255) <= 2 and abs(b.vx - 255) <= 2
    assert a.x + b.x == 11000     # momentum: the pair's centre did not move


def test_shield_mass_makes_the_other_pod_bounce():
    """The shielded pod weighs 10: hit head-on at rest by a pod at 500, it
    takes 2/11 of the speed (by hand: v1' = 2 m2 v / (m1 + m2) ... = 90.9)
    and the light pod rebounds at -409.1; after friction ~77 and ~-347."""
    pw, cw = worlds(p0=dict(x=5000, y=4500, vx=0, vy=0, angle=0.0),
                    p1=dict(x=3900, y=4500, vx=500, vy=0, angle=0.0))
    pw.step([SHIELD, S0])
    a, b = decode_pods(pw.export()).pods
    assert a.shielded
    assert abs(a.vx - 77) <= 2 and abs(b.vx + 347) <= 3


def test_divergence_is_the_distance_to_the_c_prediction():
    """A glancing contact at low speed: the referee pushes with at least 120,
    pymunk does not. The recorded divergence must be, per pod, the distance
    between the world's state and a C game stepped from the same state."""
    pw, cw = worlds(p0=dict(x=5000, y=4500, vx=100, vy=0, angle=0.0),
                    p1=dict(x=5900, y=4850, vx=-100, vy=0, angle=180.0))
    j = [S0, S0]
    pw.step(j)
    cw.step(j)           # the C model's step of the same turn from the same state
    mine, c = decode_pods(pw.export()).pods, decode_pods(cw.export()).pods
    want = tuple(math.hypot(p.x - q.x, p.y - q.y) for p, q in zip(mine, c))
    assert pw.last_divergence == pytest.approx(want, abs=1e-9)
    assert min(want) > 10, "the referee's 120 impulse should part the two models here"
    assert list(pw.recorded_state()) == list(pw.export())


def test_a_collision_race_records_divergence_and_states():
    from sandbox.config import load_scenario
    from sandbox.config.scenario import Budget
    from sandbox.sim.match import Match
    sc = load_scenario("pods_race_2v2_pymunk")
    assert sc.physics == "pymunk"
    with Match(sc, budget=Budget(ms=0, iterations=50), max_turns=12) as m:
        assert isinstance(m.world, PhysicsWorld)
        m.play()
        for rec in m.history:
            assert rec.state is not None and len(rec.divergence) == 4
        assert list(m.history[-1].state) == list(m.world.export())
    with Match(load_scenario("pods_race_2v2"), budget=Budget(ms=0, iterations=50),
               max_turns=2) as m:
        rec = m.play_turn()
        assert rec.state is None and rec.divergence is None


def test_physics_other_than_csb_or_pymunk_is_refused():
    with pytest.raises(InvalidArgument, match="the game 'pods' has no world 'box2d' "
                                              r"\(it has: csb, pymunk\)"):
        make_world("pods", OVAL, 0, "box2d")
    with pytest.raises(InvalidArgument, match="the game 'snakes' has no world 'pymunk'"):
        make_world("snakes", None, 0, "pymunk")
    assert type(make_world("pods", OVAL, 0)) is World


def test_a_pymunk_race_is_reproducible():
    """Iteration budgets, one seed: the same moves and the same world states."""
    from sandbox.config import load_scenario
    from sandbox.config.scenario import Budget
    from sandbox.sim.match import Match
    runs = []
    for _ in range(2):
        with Match(load_scenario("pods_race_2v2_pymunk"), budget=Budget(ms=0, iterations=40),
                   max_turns=15) as m:
            m.play()
            runs.append([(r.joint, r.state, r.divergence) for r in m.history])
    assert runs[0] == runs[1]


def test_divergence_summary_and_note():
    from sandbox.sim.world import divergence_note, divergence_summary
    # per turn the largest pod: 0, 4, 10 -> mean 14/3, max 10; 2 turns off (mean 7)
    line = divergence_summary([[0.0, 0.0], [3.0, 4.0], None, [10.0, 1.0]])
    assert line == ("world vs C model: divergence per turn (largest pod) mean 4.7, max 10.0 "
                    "over 3 turns; 2 turns off the C prediction (mean 7.0 on those)")
    assert divergence_summary([None, None]) is None
    assert divergence_note([2.0, 31.4]) == "world: 31 off the C model"
    assert divergence_note(None) == ""


def test_play_prints_the_divergence(capsys):
    from sandbox.cli import main
    assert main(["play", "pods_race_2v2_pymunk", "--turns", "12", "--iterations", "50",
                 "--no-record"]) == 0
    out = capsys.readouterr().out
    assert "world vs C model: divergence per turn" in out and "over 12 turns" in out
    assert main(["play", "pods_race_2v2", "--turns", "3", "--iterations", "50",
                 "--no-record"]) == 0
    assert "world vs C model" not in capsys.readouterr().out


def test_the_first_pod_home_wins_and_the_other_team_does_not_finish():
    """Both teams' last pods reach checkpoint 0 in the same turn: pod 1
    (from 4300 at -900: inside 600 of x 3000 at t = 700/900 = 0.78) before
    pod 0 (from 1900 at 600: at t = 500/600 = 0.83). Its team wins; pod 0's
    last checkpoint does not count (one winner)."""
    params = {**OVAL, "laps": 1}
    pw, cw = worlds(params, p0=dict(x=1900, y=4500, vx=600, vy=0, angle=0.0, passed=3,
                                    next_cp=0),
                    p1=dict(x=4300, y=4500, vx=-900, vy=0, angle=180.0, passed=3, next_cp=0))
    rewards = pw.step([S0, S0])
    v = decode_pods(pw.export())
    assert v.winner == 1 and pw.is_terminal
    assert [q.passed for q in v.pods] == [3, 4] and list(rewards) == [0.0, 1.0]
    assert (v.pods[0].x, v.pods[1].x) == (2500, 3400)

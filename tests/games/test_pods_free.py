"""Free moves (a target point and a thrust, BOOST or SHIELD: the Coders
Strike Back referee's commands) and the overlap rule (pods that start a turn
overlapping are pushed apart, as the referee's games show), pinned by positions set
up by hand and numbers worked out by hand (the literals) or in a few lines of
plain arithmetic here, never by a Python twin of pods.c. Custom maps too.

Map `oval`: checkpoints 0 (3000,4500), 1 (8000,1800), 2 (13000,4500),
3 (8000,7200). Table move ids: 3 = straight thrust 0, 9 boost, 10 shield."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from sandbox.games import plugin
from sandbox.games.pods.view import decode_pods, encode_pods
from sandbox.native import FreeMove, Game, InvalidArgument, InvalidState
from sandbox.native._lib import ffi, lib

S0, BOOST, SHIELD = 3, 9, 10


def java_round(v: float) -> int:
    return math.floor(v + 0.5)


def game(**params) -> Game:
    return Game("pods", {"map": "oval", "players": 1, "pods_per_player": 1, **params}, seed=0)


def place(g: Game, turn: int = 1, **pods) -> None:
    v = replace(decode_pods(g.export()), turn=turn)
    for key, changes in pods.items():
        v = v.with_pod(int(key[1:]), **changes)
    g.import_state(encode_pods(v))


def pod(g: Game, a: int = 0):
    return decode_pods(g.export()).pods[a]


# ------------------------------------------------------------------ steering

def test_a_target_90_degrees_away_turns_the_pod_18():
    g = game()
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=0.0))
    g.step([FreeMove(1000, 5000, 0)])           # due south: 90° clockwise
    assert pod(g).angle == 18.0
    g.step([FreeMove(1000, -5000, 0)])          # due north from 18°: 108° left, capped
    assert pod(g).angle == 0.0
    g.step([FreeMove(1000, -5000, 0)])
    assert pod(g).angle == 342.0
    # a small turn is taken whole: from 342° to the target at 350°
    place(g, p0=dict(x=0, y=1000, vx=0, vy=0, angle=342.0))
    tx, ty = 1000 * math.cos(math.radians(350)), 1000 + 1000 * math.sin(math.radians(350))
    g.step([FreeMove(tx, ty, 0)])
    assert pod(g).angle == pytest.approx(350.0, abs=1e-9)


def test_a_target_straight_behind_turns_left_as_the_referee_does():
    g = game()
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=0.0))
    g.step([FreeMove(0, 1000, 0)])              # 180° either way: left, -18
    assert pod(g).angle == 342.0


def test_thrust_goes_along_the_new_heading_then_rounds_and_truncates():
    g = game()
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=0.0))
    g.step([FreeMove(1000, 5000, 100)])
    # by hand: heading 18°; 100 cos 18 = 95.106, 100 sin 18 = 30.902 ->
    # x 1095.106 -> 1095, y 1030.902 -> 1031; v x 0.85: 80.84 -> 80, 26.27 -> 26
    q = pod(g)
    assert (q.x, q.y, q.vx, q.vy, q.last_thrust) == (1095, 1031, 80, 26, 100)
    # a second turn in plain arithmetic: heading 36°, velocity carried over
    a = math.radians(36)
    fx, fy = 80 + 100 * math.cos(a), 26 + 100 * math.sin(a)
    g.step([FreeMove(1000, 5000, 100)])
    q = pod(g)
    assert q.angle == pytest.approx(36.0, abs=1e-9)
    assert (q.x, q.y, q.vx, q.vy) == (java_round(1095 + fx), java_round(1031 + fy),
                                      int(fx * 0.85), int(fy * 0.85))
    # velocities truncate toward zero: -101 + 0 thrust -> -85.85 -> -85
    place(g, p0=dict(x=1000, y=1000, vx=-101, vy=-1, angle=0.0))
    g.step([FreeMove(5000, 1000, 0)])
    q = pod(g)
    assert (q.x, q.y, q.vx, q.vy) == (899, 999, -85, 0)


def test_on_the_first_turn_the_pod_faces_its_target_directly():
    g = game()
    place(g, turn=0, p0=dict(x=2000, y=1800, vx=0, vy=0, angle=0.0))
    # checkpoint 1 is due east; the target is due south: no 18° cap
    g.step([FreeMove(2000, 5000, 200)])
    q = pod(g)
    assert q.angle == 90.0
    assert (q.x, q.y, q.vx, q.vy) == (2000, 2000, 0, 170)
    # from the real start, toward a target 135° off the way to checkpoint 1
    with game() as h:
        s = pod(h)
        h.step([FreeMove(s.x - 1000, s.y + 1000, 0)])
        assert pod(h).angle == pytest.approx(135.0, abs=1e-9)


def test_a_target_on_the_pod_itself_keeps_its_angle():
    g = game()
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=33.0))
    g.step([FreeMove(1000, 1000, 100)])
    q = pod(g)
    assert q.angle == 33.0
    assert (q.x, q.y) == (java_round(1000 + 100 * math.cos(math.radians(33))),
                          java_round(1000 + 100 * math.sin(math.radians(33))))
    # the first turn too: the start heading (toward checkpoint 1) stays
    place(g, turn=0, p0=dict(x=2000, y=1800, vx=0, vy=0, angle=0.0))
    g.step([FreeMove(2000, 1800, 0)])
    assert pod(g).angle == 0.0


def test_boost_is_650_once_per_pod_then_max_thrust():
    g = game()
    place(g, p0=dict(x=1000, y=8500, vx=0, vy=0, angle=0.0))
    g.step([FreeMove.boost(9000, 8500)])
    q = pod(g)
    assert (q.x, q.vx, q.boost_used, q.last_thrust, q.boosted) == (1650, 552, True, 650, True)
    g.step([FreeMove.boost(9000, 8500)])        # a second boost: max thrust, 552 + 200
    q = pod(g)
    assert (q.x, q.vx, q.last_thrust, q.boosted) == (2402, 639, 200, False)
    # max_thrust 100: the second boost is 100
    h = game(max_thrust=100)
    place(h, p0=dict(x=1000, y=8500, vx=0, vy=0, angle=0.0, boost_used=True))
    h.step([FreeMove.boost(9000, 8500)])
    assert (pod(h).x, pod(h).last_thrust) == (1100, 100)


def test_shield_turns_the_pod_but_blocks_thrust_four_turns():
    g = game()
    place(g, p0=dict(x=1000, y=8500, vx=0, vy=0, angle=0.0))
    g.step([FreeMove.shield(1000, 0)])          # north: turns 18° left, no thrust
    q = pod(g)
    assert (q.angle, q.vx, q.vy, q.shield, q.shielded, q.last_thrust) == (342.0, 0, 0, 3,
                                                                         True, 0)
    for left in (2, 1, 0):
        g.step([FreeMove(9000, 8500, 200)])
        assert pod(g).vx == 0 and pod(g).last_thrust == 0 and pod(g).shield == left
    g.step([FreeMove(9000, 8500, 200)])
    assert pod(g).last_thrust == 200 and pod(g).vx > 0
    # a boost under the shield does nothing and is kept
    place(g, p0=dict(vx=0, vy=0, shield=2, boost_used=False))
    g.step([FreeMove.boost(9000, 8500)])
    assert pod(g).vx == 0 and not pod(g).boost_used


def test_a_shielding_free_move_weighs_ten_in_a_collision():
    g = game(players=2)
    place(g, p0=dict(x=5000, y=8500, vx=300, vy=0, angle=0.0),
          p1=dict(x=6000, y=8500, vx=-300, vy=0, angle=180.0))
    g.step([S0, FreeMove.shield(0, 8500)])
    # as the table move's case (test_pods_rules): A 4573 / -672, B 5773 / -162
    a, b = pod(g, 0), pod(g, 1)
    assert (a.x, a.vx, b.x, b.vx) == (4573, -672, 5773, -162)


def test_table_and_free_moves_mix_in_one_turn():
    g = game(players=2)
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=0.0),
          p1=dict(x=1000, y=8000, vx=0, vy=0, angle=0.0))
    g.step([5, FreeMove(1000, 0, 200)])         # 5: straight at 200
    assert (pod(g, 0).x, pod(g, 0).angle) == (1200, 0.0)
    assert pod(g, 1).angle == 342.0


# ------------------------------------------------------------------ refusals

def raw_step(g: Game, entries) -> int:
    """sbx_game_step_free straight from C, past FreeMove's own checks."""
    moves = ffi.new("sbx_free_move[]", len(entries))
    for m, (kind, move, x, y, thrust) in zip(moves, entries):
        m.kind, m.move, m.x, m.y, m.thrust = kind, move, x, y, thrust
    return lib.sbx_game_step_free(g._ptr(), moves, ffi.NULL)


@pytest.mark.parametrize("entry, fragment", [
    ((1, 0, math.nan, 0.0, 100.0), "target"),
    ((1, 0, 0.0, math.inf, 100.0), "target"),
    ((1, 0, 2e9, 0.0, 100.0), "target"),
    ((1, 0, 0.0, 0.0, math.nan), "thrust nan"),
    ((1, 0, 0.0, 0.0, 100.5), "thrust 100.5"),
    ((1, 0, 0.0, 0.0, -1.0), "thrust -1"),
    ((1, 0, 0.0, 0.0, 201.0), "0..200"),
    ((7, 0, 0.0, 0.0, 0.0), "kind 7"),
    ((-1, 0, 0.0, 0.0, 0.0), "kind -1"),
    ((0, 11, 0.0, 0.0, 0.0), "move 11 is not legal"),
])
def test_c_refuses_every_bad_field_and_changes_nothing(entry, fragment):
    g = game()
    before = list(g.export())
    assert raw_step(g, [entry]) == lib.SBX_ERR_ARGUMENT
    assert fragment in ffi.string(lib.sbx_last_error()).decode()
    assert list(g.export()) == before


def test_python_refuses_malformed_free_moves():
    for bad in (dict(x=math.nan, y=0, thrust=1), dict(x=0, y="1", thrust=1),
                dict(x=True, y=0, thrust=1), dict(x=0, y=0, thrust=1.5),
                dict(x=0, y=0, thrust=None), dict(x=0, y=0, thrust=-3),
                dict(x=0, y=0, thrust=5, kind="boost"), dict(x=0, y=0, kind="warp"),
                dict(x=0, y=1e10, thrust=1)):
        with pytest.raises(InvalidArgument):
            FreeMove(**bad)
    g = game()
    with pytest.raises(InvalidArgument, match="0..200"):
        g.step([FreeMove(0, 0, 250)])
    with Game("snakes", {"snakes": 2}) as s, pytest.raises(InvalidState, match="no free moves"):
        s.step([FreeMove(0, 0, 1), 0])
    # a finished race takes no more moves, free or not
    place(g, p0=dict(x=3000, y=3600, vx=0, vy=500, angle=90.0, next_cp=0, passed=11))
    g.step([FreeMove(3000, 4500, 0)])
    assert g.is_terminal
    with pytest.raises(InvalidState, match="over"):
        g.step([FreeMove(3000, 4500, 0)])


def test_a_free_move_of_a_team_that_is_out_is_ignored():
    g = game(players=3, timeout=1)
    place(g, p0=dict(x=6900, y=1800, vx=2200, vy=0, angle=0.0, next_cp=1, passed=0),
          p1=dict(x=1000, y=8500, vx=10, vy=0),
          p2=dict(x=15100, y=4500, vx=-2200, vy=0, angle=180.0, next_cp=2, passed=1))
    g.step([S0, S0, S0])                        # player 1 passed nothing: out
    assert not g.is_alive(1) and not g.is_terminal
    x = pod(g, 1).x
    g.step([S0, FreeMove.boost(9000, 8500), S0])
    assert pod(g, 1).x == x + 8 and not pod(g, 1).boost_used   # drifts (10 x 0.85 = 8)


# ------------------------------------------------------------------ overlap rule

def overlap_turn(xa, va, xb, vb):
    """Plain arithmetic for two pods of mass 1 on one horizontal line, centres
    closer than 800 at the start (xa < xb) and nothing else in the way: a
    contact at time 0; J = (n.dv) / (1/1 + 1/1) applied signed along the
    centre line (it pulls a pair that moves apart together), then a second
    impulse that always pushes apart, |J| but at least 120; each pushed out
    by half the overlap; then the whole turn's motion, friction, rounding."""
    d = xb - xa
    u = -1.0                                      # unit vector from b to a
    j = u * (va - vb) / 2                         # n.dv / (1/m1 + 1/m2), signed
    va, vb = va - u * j, vb + u * j
    j2 = -max(abs(j), 120)                        # apart
    va, vb = va - u * j2, vb + u * j2
    push = (800 - d) / 2
    xa, xb = xa + u * push, xb - u * push
    return (java_round(xa + va), int(va * 0.85)), (java_round(xb + vb), int(vb * 0.85))


@pytest.mark.parametrize("va, vb, want_a, want_b", [
    # moving apart slowly: J = 100 pulls them to a standstill, the second
    # impulse (120) pushes them apart at 120 each; pushed out 50 each
    # (4950 / 5750), then a whole turn: 4830 / 5870, v -102 / 102. (The
    # referee's two real turns like this are exact so: test_pods_referee.)
    (-100, 100, (4830, -102), (5870, 102)),
    # moving apart fast: J = 300 stops them, the second sends them apart at
    # 300: 4650 / 6050, v -255 / 255
    (-300, 300, (4650, -255), (6050, 255)),
    # approaching while overlapping: the usual bounce, apart
    (100, -100, (4830, -102), (5870, 102)),
])
def test_pods_overlapping_at_the_start_of_a_turn_are_pushed_apart(va, vb, want_a, want_b):
    assert overlap_turn(5000, va, 5700, vb) == (want_a, want_b)
    g = game(players=2)
    place(g, p0=dict(x=5000, y=8500, vx=va, vy=0, angle=0.0),
          p1=dict(x=5700, y=8500, vx=vb, vy=0, angle=180.0))
    g.step([S0, S0])
    a, b = pod(g, 0), pod(g, 1)
    assert ((a.x, a.vx), (b.x, b.vx)) == (want_a, want_b)
    assert a.y == b.y == 8500 and a.vy == b.vy == 0


def test_a_diagonal_overlap_in_plain_arithmetic():
    # centres 600 apart along (3, 4)/5, moving apart along it; J < 120
    ax, ay, bx, by = 5000.0, 5000.0, 5360.0, 5480.0
    avx, avy, bvx, bvy = -30.0, -40.0, 30.0, 40.0
    nx, ny = ax - bx, ay - by
    d = math.hypot(nx, ny)
    ux, uy = nx / d, ny / d
    j = (ux * (avx - bvx) + uy * (avy - bvy)) / 2
    for jj in (j, -max(abs(j), 120)):
        avx, avy, bvx, bvy = avx - ux * jj, avy - uy * jj, bvx + ux * jj, bvy + uy * jj
    push = (800 - d) / 2
    ax, ay, bx, by = ax + ux * push, ay + uy * push, bx - ux * push, by - uy * push
    want = [(java_round(ax + avx), java_round(ay + avy), int(avx * 0.85), int(avy * 0.85)),
            (java_round(bx + bvx), java_round(by + bvy), int(bvx * 0.85), int(bvy * 0.85))]
    g = game(players=2)
    place(g, p0=dict(x=5000, y=5000, vx=-30, vy=-40, angle=0.0),
          p1=dict(x=5360, y=5480, vx=30, vy=40, angle=0.0))
    g.step([S0, S0])
    got = [(q.x, q.y, q.vx, q.vy) for q in decode_pods(g.export()).pods]
    assert got == want
    # by hand: d 600, u (-0.6, -0.8), u.dv 100, J 50 stops both, then 120
    # apart: v (-72, -96) / (72, 96); pushed out 100: (4940, 4920) /
    # (5420, 5560); a turn on, -61.2 -> -61, -81.6 -> -81
    assert want == [(4868, 4824, -61, -81), (5492, 5656, 61, 81)]


def test_a_pair_that_has_just_bounced_does_not_bounce_again_at_time_0():
    # a normal contact mid-turn: pushed out to 800 (and a hair) they move
    # apart and stay apart; the turn ends as the one-contact formula says
    g = game(players=2)
    place(g, p0=dict(x=5000, y=8500, vx=300, vy=0, angle=0.0),
          p1=dict(x=6000, y=8500, vx=-300, vy=0, angle=180.0))
    g.step([S0, S0])
    a, b = pod(g, 0), pod(g, 1)
    assert (a.x, a.vx, b.x, b.vx) == (4900, -255, 6100, 255)
    # the overlap case above, J < 120: one bounce at time 0 sends them apart
    # for the whole turn (4830 / 5870)
    place(g, p0=dict(x=5000, y=8500, vx=-100, vy=0), p1=dict(x=5700, y=8500, vx=100, vy=0))
    g.step([S0, S0])
    assert (pod(g, 0).x, pod(g, 1).x) == (4830, 5870)


# ------------------------------------------------------------------ custom maps

def test_a_custom_map_from_the_scenario_params():
    pods = plugin("pods")
    pts = [[2500, 4500], [7000, 1500], [13500, 2200], [12500, 7000]]
    with Game("pods", pods.c_params({"checkpoints": pts, "laps": 2}), seed=0) as g:
        v = decode_pods(g.export())
        assert [list(c) for c in v.checkpoints] == pts and v.laps == 2
        assert "map=custom" in g.params and "checkpoints=2500:4500/7000:1500/" in g.params
        # the effective parameter string rebuilds the same game (replays)
        with Game("pods", g.params, seed=0) as h:
            assert h.state_hash() == g.state_hash()
        # pods start on the line through checkpoint 0, facing checkpoint 1
        for q in v.pods:
            assert q.angle == pytest.approx(
                math.degrees(math.atan2(1500 - q.y, 7000 - q.x)) % 360, abs=1e-9)


@pytest.mark.parametrize("params, fragment", [
    ("checkpoints=1000:1000", "at least 2"),
    ("checkpoints=1000:1000/1500:1000", "closer than 1200"),
    ("checkpoints=1000:1000/16001:1000", "outside"),
    ("checkpoints=1000:1000/-1:1000", "outside"),
    ("checkpoints=1000:1000/", "not x:y"),
    ("checkpoints=1000:1000/2x:3", "not x:y"),
    ("checkpoints=1:1/3000:1/6000:1/9000:1/12000:1/15000:1/1:3000/3000:3000/6000:3000",
     "more than 8"),
    ("map=custom", "needs checkpoints"),
    ("map=oval checkpoints=1000:1000/5000:1000", "not map=oval"),
])
def test_c_refuses_bad_custom_maps(params, fragment):
    with pytest.raises(InvalidArgument, match=fragment):
        Game("pods", params)

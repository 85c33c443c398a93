"""The pods rules (docs/games.md, Pods, the Coders Strike Back referee) pinned by
positions set up by hand and numbers worked out by hand (the literals) or in
plain arithmetic from the rules' formulas right here in the test, never by a
Python twin of pods.c.

Map `oval`: checkpoints 0 (3000,4500), 1 (8000,1800), 2 (13000,4500),
3 (8000,7200). Default move ids: 0-2 L18 x {0,100,200}, 3-5 straight x
{0,100,200}, 6-8 R18 x {0,100,200}, 9 boost, 10 shield."""
from __future__ import annotations

import math

import pytest

from sandbox.games.pods.view import decode_pods, encode_pods
from sandbox.native import Game, InvalidArgument

L0, L100, L200, S0, S100, S200, R0, R100, R200, BOOST, SHIELD = range(11)


def java_round(v: float) -> int:
    return math.floor(v + 0.5)


def game(**params) -> Game:
    p = {"map": "oval", "players": 1, "pods_per_player": 1, **params}
    return Game("pods", p, seed=0)


def place(g: Game, turn: int = 1, **pods) -> None:
    """Sets pods by agent: place(g, p0=dict(x=.., ...), p1=...)."""
    v = decode_pods(g.export())
    from dataclasses import replace
    v = replace(v, turn=turn)
    for key, changes in pods.items():
        v = v.with_pod(int(key[1:]), **changes)
    g.import_state(encode_pods(v))


def pod(g: Game, a: int = 0):
    return decode_pods(g.export()).pods[a]


# --------------------------------------------------------------- free flight

def test_straight_thrust_truncates_velocity_and_rounds_position():
    g = game()
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=0.0))
    # by hand: v 200 -> x 1200, v 170; v 370 -> x 1570, v 314 (314.5
    # truncated); v 514 -> x 2084, v 436 (436.9); v 636 -> x 2720, v 540
    for x, vx in ((1200, 170), (1570, 314), (2084, 436), (2720, 540)):
        g.step([S200])
        q = pod(g)
        assert (q.x, q.y, q.vx, q.vy) == (x, 1000, vx, 0)


def test_diagonal_thrust_rounds_half_up_and_truncates_toward_zero():
    g = game()
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=20.0))
    # by hand: 200 cos 20 = 187.94 -> x 1187.94 rounds to 1188 (truncation
    # would give 1187), v 159.75 truncates to 159 (rounding would give 160);
    # 200 sin 20 = 68.40 -> y 1068, vy 58.14 -> 58
    g.step([S200])
    q = pod(g)
    assert (q.x, q.y, q.vx, q.vy) == (1188, 1068, 159, 58)
    # three more turns in plain arithmetic from the rules
    x, y, vx, vy = 1188, 1068, 159, 58
    tx, ty = 200 * math.cos(math.radians(20)), 200 * math.sin(math.radians(20))
    for _ in range(3):
        fx, fy = vx + tx, vy + ty
        x, y = java_round(x + fx), java_round(y + fy)
        vx, vy = int(fx * 0.85), int(fy * 0.85)
        g.step([S200])
        q = pod(g)
        assert (q.x, q.y, q.vx, q.vy) == (x, y, vx, vy)
    # negative velocities truncate toward zero too: -100 * 0.85 = -85
    place(g, p0=dict(x=1000, y=1000, vx=-101, vy=-1, angle=0.0))
    g.step([S0])
    q = pod(g)
    assert (q.x, q.y, q.vx, q.vy) == (899, 999, -85, 0)     # -85.85 -> -85, -0.85 -> 0


def test_rotation_is_capped_at_18_degrees_except_on_the_first_turn():
    g = game()
    place(g, p0=dict(x=1000, y=1000, vx=0, vy=0, angle=0.0))
    g.step([R0])
    assert pod(g).angle == 18.0
    g.step([L0])
    g.step([L0])
    assert pod(g).angle == 342.0
    # facing away from checkpoint 1 (due east of the pod): one turn only 18°
    place(g, p0=dict(x=2000, y=1800, angle=180.0, next_cp=1, passed=0))
    g.step([R0])
    assert pod(g).angle == 198.0
    # the very first turn: the pod faces its target directly, rotation is
    # relative to that heading (checkpoint 1 straight east: 0°, +18 = 18°)
    place(g, turn=0, p0=dict(x=2000, y=1800, vx=0, vy=0, angle=180.0))
    g.step([S0])
    assert pod(g).angle == 0.0
    place(g, turn=0, p0=dict(x=2000, y=1800, vx=0, vy=0, angle=180.0))
    g.step([R200])
    q = pod(g)
    assert q.angle == 18.0
    assert (q.x, q.y) == (java_round(2000 + 200 * math.cos(math.radians(18))),
                          java_round(1800 + 200 * math.sin(math.radians(18))))
    # from the real start the pods face checkpoint 1
    g2 = game()
    q = pod(g2)
    want = math.degrees(math.atan2(1800 - q.y, 8000 - q.x)) % 360
    g2.step([S0])
    assert pod(g2).angle == pytest.approx(want, abs=1e-9)


def test_boost_is_650_once_per_pod_then_max_thrust():
    g = game()
    place(g, p0=dict(x=1000, y=8500, vx=0, vy=0, angle=0.0))
    g.step([BOOST])
    q = pod(g)
    assert (q.x, q.vx, q.boost_used, q.last_thrust, q.boosted) == (1650, 552, True, 650, True)
    g.step([BOOST])                             # a second boost is max thrust: 552+200
    q = pod(g)
    assert (q.x, q.vx, q.last_thrust, q.boosted) == (1650 + 752, 639, 200, False)
    # per pod: the other pod of a team still has its own
    g = game(pods_per_player=2)
    place(g, p0=dict(x=1000, y=8500, vx=0, vy=0, angle=0.0, boost_used=True),
          p1=dict(x=1000, y=6500, vx=0, vy=0, angle=0.0))
    g.step([BOOST, BOOST])
    assert (pod(g, 0).last_thrust, pod(g, 1).last_thrust) == (200, 650)


def test_shield_blocks_thrust_that_turn_and_the_next_three():
    g = game()
    place(g, p0=dict(x=1000, y=8500, vx=0, vy=0, angle=0.0))
    g.step([SHIELD])
    assert pod(g).shield == 3 and pod(g).shielded and pod(g).last_thrust == 0
    for left in (2, 1, 0):
        g.step([S200])
        assert pod(g).vx == 0 and pod(g).last_thrust == 0 and pod(g).shield == left
    g.step([S200])
    assert pod(g).vx == 170 and pod(g).last_thrust == 200
    # a boost under the shield does nothing and is kept
    place(g, p0=dict(vx=0, shield=2, boost_used=False))
    g.step([BOOST])
    assert pod(g).vx == 0 and not pod(g).boost_used


# --------------------------------------------------------------- collisions

def duel(**params) -> Game:
    return game(players=2, **params)


def test_head_on_collision_of_equal_masses_swaps_velocities():
    g = duel()
    place(g, p0=dict(x=5000, y=8500, vx=300, vy=0, angle=0.0),
          p1=dict(x=6000, y=8500, vx=-300, vy=0, angle=180.0))
    g.step([S0, S0])
    # by hand: contact (800 apart) at t = 200/600 = 1/3 at x 5100 / 5900;
    # J = 600 / (1/1 + 1/1) = 300 >= 120, applied twice: v -300 / +300;
    # 2/3 of a turn on: 4900 / 6100; friction: -255 / 255
    a, b = pod(g, 0), pod(g, 1)
    assert (a.x, a.y, a.vx, a.vy) == (4900, 8500, -255, 0)
    assert (b.x, b.y, b.vx, b.vy) == (6100, 8500, 255, 0)


def test_slow_head_on_collision_gets_the_minimum_impulse_120():
    g = duel()
    place(g, p0=dict(x=5000, y=8500, vx=60, vy=0, angle=0.0),
          p1=dict(x=5810, y=8500, vx=-60, vy=0, angle=180.0))
    g.step([S0, S0])
    # by hand: contact at t = 10/120 = 1/12 (x 5005 / 5805); J = 120/2 = 60
    # < 120, so 60 + 120: v -120 / +120; 11/12 on: 4895 / 5915; v -102 / 102.
    # Without the rule the pods would stop dead (J applied twice: v 0... -60).
    a, b = pod(g, 0), pod(g, 1)
    assert (a.x, a.vx, b.x, b.vx) == (4895, -102, 5915, 102)


def one_collision(a, b, ma: float, mb: float):
    """Plain arithmetic from RULES §3 for a turn with exactly one contact:
    a and b are [x, y, vx, vy] after thrust. Returns both end states."""
    dx, dy, dvx, dvy = a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]
    qa, qb, qc = dvx * dvx + dvy * dvy, 2 * (dx * dvx + dy * dvy), dx * dx + dy * dy - 800 ** 2
    t = (-qb - math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)
    assert 0 <= t < 1
    a = [a[0] + a[2] * t, a[1] + a[3] * t, a[2], a[3]]
    b = [b[0] + b[2] * t, b[1] + b[3] * t, b[2], b[3]]
    nx, ny = a[0] - b[0], a[1] - b[1]
    d = math.hypot(nx, ny)
    assert d == pytest.approx(800)
    ux, uy = nx / d, ny / d
    j = (ux * dvx + uy * dvy) / (1 / ma + 1 / mb)        # negative: approaching
    total = j - max(abs(j), 120)                           # J + max(J, 120), signed
    a[2] -= ux * total / ma
    a[3] -= uy * total / ma
    b[2] += ux * total / mb
    b[3] += uy * total / mb
    out = []
    for p in (a, b):
        out.append((java_round(p[0] + p[2] * (1 - t)), java_round(p[1] + p[3] * (1 - t)),
                    int(p[2] * 0.85), int(p[3] * 0.85)))
    return out, abs(j)


@pytest.mark.parametrize("dy, vx, big", [(600, 600, True), (780, 900, False)])
def test_glancing_collision(dy, vx, big):
    g = duel()
    place(g, p0=dict(x=5000, y=8000, vx=vx, vy=0, angle=0.0),
          p1=dict(x=6000, y=8000 + dy, vx=0, vy=0, angle=180.0))
    g.step([S0, S0])
    (ea, eb), j = one_collision([5000, 8000, vx, 0], [6000, 8000 + dy, 0, 0], 1, 1)
    assert (j >= 120) == big             # the second case is under the minimum impulse
    a, b = pod(g, 0), pod(g, 1)
    assert (a.x, a.y, a.vx, a.vy) == ea
    assert (b.x, b.y, b.vx, b.vy) == eb
    assert b.vy > 0 and a.vy < 0         # pushed apart along the centre line


def test_a_shielded_pod_weighs_ten():
    g = duel()
    place(g, p0=dict(x=5000, y=8500, vx=300, vy=0, angle=0.0),
          p1=dict(x=6000, y=8500, vx=-300, vy=0, angle=180.0))
    g.step([S0, SHIELD])
    # by hand: contact at 1/3 (5100 / 5900); J = 600 / (1 + 1/10) = 545.45,
    # twice: A 300 - 1090.91 = -790.91, B -300 + 109.09 = -190.91;
    # 2/3 on: 4572.73 -> 4573, 5772.73 -> 5773; friction -672.27 / -162.27
    a, b = pod(g, 0), pod(g, 1)
    assert (a.x, a.vx, b.x, b.vx) == (4573, -672, 5773, -162)
    (ea, eb), _ = one_collision([5000, 8500, 300, 0], [6000, 8500, -300, 0], 1, 10)
    assert (a.x, a.y, a.vx, a.vy) == ea and (b.x, b.y, b.vx, b.vy) == eb


# --------------------------------------------------------------- checkpoints

def test_a_fast_pod_passes_a_checkpoint_mid_turn():
    g = game()
    # both ends of the turn's motion are 1100 from checkpoint 1 (8000,1800):
    # only the continuous test sees the pod pass through it
    place(g, p0=dict(x=6900, y=1800, vx=2200, vy=0, angle=0.0, next_cp=1, passed=0))
    r = g.step([S0])
    q = pod(g)
    assert (q.x, q.next_cp, q.passed) == (9100, 2, 1) and list(r) == [1.0]


@pytest.mark.parametrize("offset, counts", [(600, False), (599, True), (-599, True)])
def test_passing_means_strictly_within_600(offset, counts):
    g = game()
    place(g, p0=dict(x=6900, y=1800 + offset, vx=2200, vy=0, angle=0.0, next_cp=1, passed=0))
    g.step([S0])
    assert pod(g).passed == (1 if counts else 0)


def test_lap_completion_and_the_finish():
    g = game(laps=2)
    # end of lap 1: passed 3 (0 -> 1 -> 2 -> 3), heading back to checkpoint 0
    place(g, p0=dict(x=3000, y=3600, vx=0, vy=500, angle=90.0, next_cp=0, passed=3))
    g.step([S0])
    v = decode_pods(g.export())
    assert (v.pods[0].passed, v.pods[0].next_cp, v.lap(0), v.winner) == (4, 1, 2, -1)
    assert not g.is_terminal
    # the last checkpoint of the last lap finishes the race
    place(g, p0=dict(x=3000, y=3600, vx=0, vy=500, angle=90.0, next_cp=0, passed=7))
    g.step([S0])
    v = decode_pods(g.export())
    assert v.pods[0].passed == 8 and v.winner == 0 and g.is_terminal


def test_the_earliest_finisher_wins():
    g = duel(laps=1)
    # both cross checkpoint 0 (3000,4500) in this turn, from either side and
    # never closer than 1000: pod 0 enters its circle at t = 0.9, pod 1 at 0.8
    place(g, p0=dict(x=1500, y=4500, vx=1000, vy=0, angle=0.0, next_cp=0, passed=3),
          p1=dict(x=4000, y=4500, vx=-500, vy=0, angle=180.0, next_cp=0, passed=3))
    g.step([S0, S0])
    v = decode_pods(g.export())
    assert v.winner == 1 and v.pods[0].passed == 4 and g.ranking() == [1, 0]
    # both pods finished, only one player won: the end state is still a
    # state (a replay of this turn must re-import it)
    words = g.export()
    with duel(laps=1) as h:
        h.import_state(words)
        assert list(h.export()) == list(words) and h.is_terminal


def test_import_refuses_a_finished_pod_while_nobody_has_won():
    g = duel(laps=1)
    v = decode_pods(g.export())
    with pytest.raises(InvalidArgument):
        g.import_state(encode_pods(v.with_pod(0, passed=4)))


# --------------------------------------------------------------- timeout

def test_the_100_turn_timeout():
    g = game()
    place(g, p0=dict(x=1000, y=8500, vx=0, vy=0, angle=0.0))
    for turn in range(2, 101):                      # turns 2..100 played: 99 turns
        g.step([S0])
        assert g.is_alive(0) and not g.is_terminal
    assert decode_pods(g.export()).clock == (1,)
    g.step([S0])                                    # the 100th turn without a checkpoint
    v = decode_pods(g.export())
    assert v.out_turn == (101,) and not g.is_alive(0) and g.is_terminal


def test_a_checkpoint_restarts_the_players_clock():
    g = duel(timeout=5)
    place(g, p0=dict(x=6900, y=1800, vx=2200, vy=0, angle=0.0, next_cp=1, passed=0),
          p1=dict(x=1000, y=8500, vx=0, vy=0))
    g.step([S0, S0])
    assert decode_pods(g.export()).clock == (5, 4)
    for _ in range(4):
        g.step([S0, S0])
    v = decode_pods(g.export())
    assert v.out_turn == (-1, 6) and v.clock == (1, 0)
    assert g.is_terminal and g.ranking() == [0, 1]


# --------------------------------------------------------------- state

def test_export_import_round_trip_and_hash():
    g, h = game(players=2, pods_per_player=2), game(players=2, pods_per_player=2)
    for moves in ([S200, R200, BOOST, L100], [SHIELD, S200, R200, S0], [S100] * 4):
        g.step(moves)
    words = g.export()
    h.import_state(words)
    assert list(h.export()) == list(words) and h.state_hash() == g.state_hash()
    # the state is the whole state: both go on identically
    g.step([R200] * 4)
    h.step([R200] * 4)
    assert list(h.export()) == list(g.export())
    # one ulp of one angle is a different state
    v = decode_pods(g.export())
    h.import_state(encode_pods(v.with_pod(2, angle=math.nextafter(v.pods[2].angle, 400))))
    assert h.state_hash() != g.state_hash()
    h.import_state(encode_pods(v))
    assert h.state_hash() == g.state_hash()


@pytest.mark.parametrize("change", [dict(next_cp=3), dict(angle=360.0), dict(angle=float("nan")),
                                    dict(shield=4), dict(passed=13), dict(boost_used=2),
                                    dict(x=2**29 + 1), dict(vy=-(2**20) - 1)])
def test_import_refuses_a_bad_pod(change):
    g = game()
    v = decode_pods(g.export())
    with pytest.raises(InvalidArgument):
        g.import_state(encode_pods(v.with_pod(0, **change)))


def test_seeded_maps_are_in_the_contests_spirit():
    for seed in range(40):
        with Game("pods", {"map_seed": seed}, seed=0) as g:
            cps = decode_pods(g.export()).checkpoints
            assert 3 <= len(cps) <= 6
            for i, (x, y) in enumerate(cps):
                assert 1500 <= x <= 14500 and 1500 <= y <= 7500
                for (x2, y2) in cps[:i]:
                    assert math.hypot(x - x2, y - y2) >= 2500
    with Game("pods", {"map_seed": 1}, seed=0) as a, Game("pods", {"map_seed": 1}, seed=5) as b:
        assert list(a.export()) == list(b.export())


def test_team_score_and_agents():
    g = game(players=2, pods_per_player=2)
    assert g.num_agents == 4
    s = g.evaluate()
    assert s[0] == s[1] and s[2] == s[3]
    g.step([S200, S200, S0, S0])                    # team 0 moves on, team 1 waits
    assert g.ranking() == [0, 0, 2, 2]              # agents strictly ahead
    s = g.evaluate()
    assert s[0] == s[1] > s[2] == s[3]
    with pytest.raises(InvalidArgument, match="rotations"):
        Game("pods", {"rotations": 2}, seed=0)
    with Game("pods", {"rotations": 1, "thrusts": 1, "boost": 0, "shield": 0}, seed=0) as one:
        assert one.legal_moves(0) == [0] and one.move_name(0, 0) == "S 200"

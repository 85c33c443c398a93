"""The emergent-blocking share (sandbox/games/pods/blocking.py) on states set
up by hand, distances worked out by hand; and its way into `series`.

Map `oval`: checkpoints 0 (3000,4500), 1 (8000,1800), 2 (13000,4500),
3 (8000,7200). Agents 0, 1 are team 0's pods, 2, 3 team 1's."""
from __future__ import annotations

from dataclasses import replace

from sandbox.config import Budget, load_scenario
from sandbox.games import plugin
from sandbox.games.pods.blocking import blocking_share, blocking_turns, is_blocking, leader
from sandbox.games.pods.view import decode_pods
from sandbox.native import Game
from sandbox.sim.match import Match
from sandbox.sim.series import play_series, seated


def start():
    with Game("pods", {"map": "oval", "players": 2, "pods_per_player": 2}, seed=0) as g:
        return replace(decode_pods(g.export()), turn=5)


def pods(v, **changes):
    for key, c in changes.items():
        v = v.with_pod(int(key[1:]), **c)
    return v


def race():
    """Team 0 leads with pod 0, team 1 with pod 2 (2 checkpoints passed each,
    next checkpoint 3); pods 1 and 3 trail (1 passed, next checkpoint 2).
    Pod 1 at (7000,5000): hypot(6000, 500) = 6020.8 from checkpoint 2, 3000
    from pod 2 at (10000,5000): blocking. Pod 3 at (8000,3000):
    hypot(5000, 1500) = 5220.2 from checkpoint 2, hypot(4000, 1000) = 4123.1
    from pod 0 at (12000,4000): blocking too."""
    return pods(start(),
                p0=dict(x=12000, y=4000, passed=2, next_cp=3),
                p1=dict(x=7000, y=5000, passed=1, next_cp=2),
                p2=dict(x=10000, y=5000, passed=2, next_cp=3),
                p3=dict(x=8000, y=3000, passed=1, next_cp=2))


def test_a_trailer_nearer_the_opponent_leader_than_its_checkpoint_blocks():
    s = race()
    assert leader(s, 0) == 0 and leader(s, 1) == 2
    assert is_blocking(s, 0) is True and is_blocking(s, 1) is True
    # pod 3 at (12000,5500): hypot(1000, 1000) = 1414.2 from checkpoint 2,
    # 1500 from pod 0: racing
    assert is_blocking(pods(s, p3=dict(x=12000, y=5500)), 1) is False


def test_the_leader_is_the_pod_with_more_progress():
    # same checkpoints passed: the nearer its next checkpoint (8000,7200)
    # leads; pod 0 is hypot(4000, 3200) = 5122.5 away
    far = pods(race(), p1=dict(x=12500, y=4500, passed=2, next_cp=3))    # 5247.9
    assert leader(far, 0) == 0
    near = pods(race(), p1=dict(x=9000, y=7000, passed=2, next_cp=3))    # 1019.8
    assert leader(near, 0) == 1
    # now pod 0 trails: hypot(4000, 3200) = 5122.5 from its checkpoint 3,
    # hypot(2000, 1000) = 2236.1 from team 1's leader, pod 2
    assert is_blocking(near, 0) is True


def test_shares_over_a_sequence_and_when_they_do_not_apply():
    s1 = race()                                        # both block
    s2 = pods(s1, p3=dict(x=12000, y=5500))            # team 0 blocks, team 1 races
    # pod 1 at (12000,4700): hypot(1000, 200) = 1019.8 from checkpoint 2,
    # hypot(2000, 300) = 2022.4 from pod 2: racing; team 1 still blocks
    s3 = pods(s1, p1=dict(x=12000, y=4700))
    s4 = replace(s1, out_turn=(-1, 4))                 # team 1 out: nobody to block
    assert blocking_turns([s1, s2, s3, s4]) == [(2, 3), (2, 3)]
    assert blocking_share([s1, s2, s3, s4]) == [2 / 3, 2 / 3]
    assert blocking_share([s4]) == [None, None]
    with Game("pods", {"map": "oval", "players": 2, "pods_per_player": 1}, seed=0) as g:
        assert blocking_share([decode_pods(g.export())]) == [None, None]  # no trailer


def test_series_reports_each_players_blocking_share_from_its_own_seat():
    sc = load_scenario("pods_smitsimax_vs_bot")
    budget = Budget(iterations=30, ms=0)
    res = play_series(sc, 2, seed=3, budget=budget, max_turns=25)
    # recomputed: the same two games (seats swapped), states collected here
    want = [[0, 0], [0, 0]]
    for shift in (0, 1):
        s = seated(sc, shift)
        views = []
        with Match(s, seed=3, budget=budget, max_turns=25) as m:
            m.play(lambda _r: views.append(m.world.view()))
        teams = blocking_turns(views)
        for i in (0, 1):
            held, of = teams[s.player_agents(i)[0] // 2]
            want[i][0] += held
            want[i][1] += of
    assert [p.turn_shares["blocking"] for p in res.players] == want
    assert want[0][1] == 50                                # 25 turns x 2 games
    d = res.to_dict()["players"]
    assert d[0]["turn_shares"]["blocking"] == round(want[0][0] / 50, 4)
    assert "blocking share of turns" in res.text()
    assert plugin("pods").turn_stats == ("blocking",)


def test_games_without_turn_stats_report_none():
    res = play_series(load_scenario("goofspiel_13_duel"), 2, budget=Budget(iterations=20, ms=0))
    assert "turn_shares" not in res.to_dict()["players"][0]


def test_the_opponent_is_the_best_rival_still_in():
    # three teams: team 2's leader (pod 4, 3 passed) is ahead of team 1's
    # (pod 2, 2 passed). Team 0's trailer, pod 1 at (7000,5000), is 6020.8
    # from its checkpoint 2 and 1000 from pod 2, hypot(6000, 2200) = 6390.6
    # from pod 4 at (13000,7200): not blocking the one that matters
    with Game("pods", {"map": "oval", "players": 3, "pods_per_player": 2}, seed=0) as g:
        v = replace(decode_pods(g.export()), turn=5)
    v = pods(v, p0=dict(x=12000, y=4000, passed=2, next_cp=3),
             p1=dict(x=7000, y=5000, passed=1, next_cp=2),
             p2=dict(x=7000, y=6000, passed=2, next_cp=3),
             p3=dict(x=3000, y=7000, passed=1, next_cp=2),
             p4=dict(x=13000, y=7200, passed=3, next_cp=0),
             p5=dict(x=3000, y=8000, passed=1, next_cp=2))
    assert is_blocking(v, 0) is False
    # with team 2 out, team 1 is the opponent: pod 1 blocks pod 2
    assert is_blocking(replace(v, out_turn=(-1, -1, 4)), 0) is True

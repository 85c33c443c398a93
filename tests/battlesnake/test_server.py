"""The snake server answers requests built from the documented schema at
every endpoint, refuses what it cannot take with one line, and keeps
serving after each bad request."""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

from sandbox.config import Budget
from sandbox.bots.battlesnake.agent import ServedAgent
from sandbox.bots.battlesnake.server import ServerSettings, make_server
from sandbox.replay import read_replay
from sandbox.replay.verify import verify

from .helpers import body, duel, snake, state


@pytest.fixture
def server(tmp_path):
    made = []

    def start(agent=None, **settings):
        srv = make_server(agent or ServedAgent("test", iterations=200), port=0,
                          settings=ServerSettings(**{"replay_dir": str(tmp_path / "served"),
                                                     **settings}),
                          log=lambda line: srv.lines.append(line))
        srv.lines = []
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        made.append(srv)
        return srv
    yield start
    for s in made:
        s.shutdown()
        s.server_close()


def call(srv, method, path, data=None, headers=None, timeout=5.0):
    conn = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=timeout)
    try:
        conn.request(method, path, body=data, headers=headers or {})
        r = conn.getresponse()
        raw = r.read()
        return r.status, json.loads(raw) if raw else None
    finally:
        conn.close()


def still_serving(srv):
    status, info = call(srv, "GET", "/")
    assert status == 200 and info["apiversion"] == "1"


def test_info(server):
    srv = server()
    status, info = call(srv, "GET", "/")
    assert status == 200
    assert info["apiversion"] == "1"
    assert set(info) >= {"author", "color", "head", "tail", "version"}
    assert call(srv, "GET", "/nope")[0] == 404


def test_a_whole_game_start_moves_end_is_recorded_and_verifies(server, tmp_path):
    srv = server()
    a = snake("a", [(1, 1)] * 3, health=100)
    b = snake("b", [(9, 8)] * 3, health=100)
    st = state([a, b], turn=0, food=((5, 5),), game_id="whole")
    assert call(srv, "POST", "/start", body(st)) == (200, {})
    # the turns as an engine would send them: heads one step along each
    # time; b runs off the top of the board on the last turn
    a_body = [(1, 1)] * 3
    b_body = [(9, 8)] * 3
    moves = []
    for turn in range(3):
        st = state([snake("a", a_body, 100 - turn), snake("b", b_body, 100 - turn)],
                   turn=turn, food=((5, 5),), game_id="whole")
        status, ans = call(srv, "POST", "/move", body(st))
        assert status == 200 and ans["move"] in ("up", "down", "left", "right")
        moves.append(ans["move"])
        a_body = [(a_body[0][0] + 1, a_body[0][1])] + a_body[:-1]     # a goes right
        b_body = [(b_body[0][0], b_body[0][1] + 1)] + b_body[:-1]     # b goes up
    # turn 3: b went up from (9,10) off the board, so the engine lists a alone
    st = state([snake("a", a_body, 97)], turn=3, food=((5, 5),), game_id="whole")
    assert call(srv, "POST", "/end", body(st)) == (200, {})
    files = list((tmp_path / "served").glob("*.jsonl"))
    assert len(files) == 1
    with read_replay(files[0]) as rp:
        assert [t.joint for t in rp.turns] == [[3, 0], [3, 0], [3, 0]]
        # our snake's search is on record (the agent's 200 iterations a turn)
        assert [t.players[0].iterations for t in rp.turns] == [200, 200, 200]
        assert [t.players[1].iterations for t in rp.turns] == [0, 0, 0]
        assert rp.turns[-1].alive == [True, False]
        assert rp.result is not None
        report = verify(rp)
    assert report.ok, report.message
    assert report.turns_checked == 3
    assert srv.games == {}
    # the recorded dead snake: C's step of "up" from (9,10) leaves the board
    with read_replay(files[0]) as rp:
        v = rp.view_at(3)
    assert v.snakes[1].cause == "out of bounds" and v.snakes[1].death_turn == 3
    # "play on" from a served turn: our own rules and searches take over
    from sandbox.replay.branch import branch_point
    from sandbox.sim.match import Match
    with read_replay(files[0]) as rp:
        bp = branch_point(rp, 1)
    assert bp.scenario.physics == "csb" and any("came from outside" in n for n in bp.notes)
    with Match(bp.scenario, seed=bp.seed, start=bp.start, max_turns=3,
               budget=Budget(ms=0, iterations=50)) as m:
        assert m.turn == 1 and m.play().turns == 3
        assert all(c.kind == "smitsimax" for c in m.controllers)


def test_the_answer_comes_within_the_timeout(server):
    srv = server(agent=ServedAgent("timed"))          # a time budget: the request's
    st = duel(timeout=300)
    t0 = time.perf_counter()
    status, ans = call(srv, "POST", "/move", body(st))
    ms = (time.perf_counter() - t0) * 1000
    assert status == 200 and ans["move"] in ("up", "down", "left", "right")
    assert ms < 300 - 20, ms            # margin 70 ms; generous slack for a busy machine


@pytest.mark.parametrize("data, words", [
    (b"{not json", "not JSON"),
    (b'{"game": 1}', "game: expected an object"),
    (json.dumps({k: v for k, v in duel().items() if k != "board"}).encode(), "board: missing"),
    (json.dumps({**duel(), "turn": "7"}).encode(), "turn: expected an integer"),
    (b"\x00\x01\x02", "not JSON"),
    (b"", "not JSON"),
])
def test_malformed_requests_get_400_and_one_line(server, data, words):
    srv = server()
    for path in ("/start", "/move", "/end"):
        status, ans = call(srv, "POST", path, data)
        assert status == 400, (path, ans)
        assert words in ans["error"] and "\n" not in ans["error"]
        still_serving(srv)


def test_oversized_and_lengthless_bodies(server):
    srv = server(max_body=10_000)
    status, ans = call(srv, "POST", "/move", b"x" * 10_001)
    assert status == 400 and "more than 10000" in ans["error"]
    still_serving(srv)
    # no Content-Length at all
    with socket.create_connection(srv.server_address, timeout=5) as s:
        s.sendall(b"POST /move HTTP/1.0\r\nHost: x\r\n\r\n")
        reply = s.recv(4096)
    assert b" 411 " in reply.split(b"\r\n")[0]
    still_serving(srv)


def test_a_lying_content_length_and_a_slow_client_do_not_hold_the_server(server):
    srv = server(socket_timeout_s=0.3, read_timeout_s=0.5)
    t0 = time.perf_counter()
    with socket.create_connection(srv.server_address, timeout=5) as s:
        s.sendall(b"POST /move HTTP/1.0\r\nContent-Length: 1000\r\n\r\n{\"game\"")
        reply = s.recv(4096)         # the server gives up on the rest of the body
    assert b" 408 " in reply.split(b"\r\n")[0]
    assert time.perf_counter() - t0 < 3.0
    still_serving(srv)


def test_unsupported_rulesets_are_refused_at_start_and_get_a_safe_move(server):
    srv = server()
    st = duel(gmap="solo_maze", game_id="w")
    status, ans = call(srv, "POST", "/start", body(st))
    assert status == 400 and ans["error"].startswith("refused: map 'solo_maze'")
    # at /move: a safe move (A is at (2,3) heading up; up is free) and the reason
    status, ans = call(srv, "POST", "/move", body(st))
    assert status == 200 and ans["shout"].startswith("refused: map 'solo_maze'")
    assert ans["move"] == "up"
    # a hazard map: the safe move keeps off the board's edge and bodies
    a = snake("a", [(0, 5), (1, 5), (2, 5)])
    st = state([a], hazards=((0, 6),), food=())
    status, ans = call(srv, "POST", "/move", body(st))
    assert status == 200 and ans["move"] == "down"      # left is off, right is its neck,
    still_serving(srv)                                   # up is a hazard


def test_games_over_the_bound_are_refused(server):
    srv = server(max_games=1)
    assert call(srv, "POST", "/start", body(duel(game_id="one")))[0] == 200
    status, ans = call(srv, "POST", "/start", body(duel(game_id="two")))
    assert status == 503 and "max_games 1" in ans["error"]
    status, ans = call(srv, "POST", "/move", body(duel(game_id="two")))
    assert status == 200 and "server busy" in ans["shout"]
    # the first game ends: room for another
    assert call(srv, "POST", "/end", body(duel(game_id="one")))[0] == 200
    assert call(srv, "POST", "/start", body(duel(game_id="two")))[0] == 200


def test_connections_over_the_bound_are_answered_503(server):
    srv = server(max_connections=1, socket_timeout_s=2.0)
    hold = socket.create_connection(srv.server_address, timeout=5)   # sends nothing
    try:
        time.sleep(0.2)
        status, ans = call(srv, "POST", "/move", body(duel()))
        assert status == 503 and "too many connections" in ans["error"]
    finally:
        hold.close()
    time.sleep(0.3)
    still_serving(srv)


def test_an_iteration_budget_gives_the_same_move_for_the_same_request(server):
    srv = server(agent=ServedAgent("fixed", iterations=500))
    moves = {call(srv, "POST", "/move", body(duel(game_id="same", turn=5)))[1]["move"]
             for _ in range(3)}
    assert len(moves) == 1


def test_end_with_our_snake_eliminated_closes_the_replay(server, tmp_path):
    srv = server()
    a = snake("a", [(0, 5), (0, 4), (0, 3)], health=50)
    b = snake("b", [(8, 8), (8, 7), (8, 6)], health=50)
    st = state([a, b], turn=4, food=(), game_id="lost")
    assert call(srv, "POST", "/start", body(st))[0] == 200
    status, ans = call(srv, "POST", "/move", body(st))
    assert status == 200
    # the engine says a is gone (whatever it answered): b alone on the board,
    # a sent as `you` though no longer listed
    end = state([snake("b", [(8, 9), (8, 8), (8, 7)], health=49), a], you=1, turn=5,
                food=(), game_id="lost")
    end["board"]["snakes"] = end["board"]["snakes"][:1]
    assert call(srv, "POST", "/end", body(end)) == (200, {})
    [f] = (tmp_path / "served").glob("*.jsonl")
    with read_replay(f) as rp:
        assert rp.result is not None and rp.turns[-1].alive == [False, True]
        assert rp.turns[-1].joint[0] == ["up", "down", "left", "right"].index(ans["move"])
        assert verify(rp).ok


def test_damaged_bodies_never_get_a_500(server):
    """Each field of a /move body removed or given a wrong value: a 400 with
    one line, or a move; never our internal error, and the server serves on."""
    import copy

    from .test_convert import _paths
    srv = server(agent=ServedAgent("quick", iterations=20))
    base = duel(game_id="damaged")
    statuses = set()
    for path in list(_paths(base))[1:]:
        for v in (None, "x", -3, "DELETE"):
            st = copy.deepcopy(base)
            node = st
            for k in path[:-1]:
                node = node[k]
            if v == "DELETE":
                node.pop(path[-1]) if isinstance(node, list) else node.pop(path[-1])
            else:
                node[path[-1]] = v
            status, ans = call(srv, "POST", "/move", body(st))
            statuses.add(status)
            assert status in (200, 400), (path, v, status, ans)
            if status == 400:
                assert ans["error"] and "\n" not in ans["error"]
            else:
                assert ans["move"] in ("up", "down", "left", "right")
    assert statuses == {200, 400}
    assert not any(line.startswith("error:") for line in srv.lines), srv.lines[:3]
    still_serving(srv)


def test_headers_sent_a_byte_at_a_time_are_cut_off(server):
    srv = server(socket_timeout_s=0.5, read_timeout_s=0.8)
    t0 = time.perf_counter()
    cut_at = None
    with socket.create_connection(srv.server_address, timeout=5) as s:
        s.sendall(b"POST /move HTTP/1.0\r\nX-Slow: ")
        s.setblocking(False)
        while time.perf_counter() - t0 < 3.0:         # a byte each 0.1 s: within the socket
            try:                                       # timeout every time
                s.sendall(b"a")
                if s.recv(1) == b"":                   # the server closed its side
                    cut_at = time.perf_counter() - t0
                    break
            except BlockingIOError:
                pass                                   # nothing to read yet
            except OSError:
                cut_at = time.perf_counter() - t0
                break
            time.sleep(0.1)
    assert cut_at is not None and cut_at < 2.0, cut_at
    still_serving(srv)


def test_a_body_sent_a_byte_at_a_time_is_cut_off(server):
    srv = server(socket_timeout_s=0.5, read_timeout_s=0.8)
    t0 = time.perf_counter()
    reply = b""
    with socket.create_connection(srv.server_address, timeout=5) as s:
        s.sendall(b"POST /move HTTP/1.0\r\nContent-Length: 500\r\n\r\n")
        s.setblocking(False)
        while time.perf_counter() - t0 < 3.0:          # each byte within the socket timeout
            try:
                s.sendall(b" ")
                reply = s.recv(4096)
                if reply:
                    break
            except BlockingIOError:
                pass
            except OSError:
                break
            time.sleep(0.1)
    assert b" 408 " in reply.split(b"\r\n")[0], reply[:80]
    assert time.perf_counter() - t0 < 2.0
    still_serving(srv)


def test_end_turns_after_our_snake_left_keeps_the_replay_whole(server, tmp_path):
    srv = server()
    a = snake("a", [(0, 5), (0, 4), (0, 3)], health=50)
    b = snake("b", [(8, 8), (8, 7), (8, 6)], health=50)
    gid = "gap"
    assert call(srv, "POST", "/move", body(state([a, b], turn=4, food=(), game_id=gid)))[0] == 200
    # the game went on for 6 more turns without us; /end brings its last state
    end = state([snake("b", [(8, 9), (8, 8), (8, 7)], health=44), a], you=1, turn=10,
                food=(), game_id=gid)
    end["board"]["snakes"] = end["board"]["snakes"][:1]
    assert call(srv, "POST", "/end", body(end)) == (200, {})
    [f] = (tmp_path / "served").glob("*.jsonl")
    with read_replay(f) as rp:
        assert rp.result is not None and rp.result.turns == 4 and not rp.turns
        assert verify(rp).ok

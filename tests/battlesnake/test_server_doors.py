"""`serve battlesnake` against a hostile client: a request asking for a
minute is held to the server's cap; requests that cannot start searching
in time get a safe move in time rather than a late search; invented game
ids do not lock real games out and expire; slow or cut connections are
closed without a traceback and do not take the server's connections; the
recordings have a cap; every malformed number and every id with control
characters is a 400. Signals end `serve` promptly (real process)."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sandbox.bots.battlesnake.agent import ServedAgent
from sandbox.replay import read_replay

from .helpers import body, duel, ended_by
from .test_server import call, server, still_serving  # noqa: F401 - the fixture

ROOT = Path(__file__).resolve().parents[2]


class HeldAgent(ServedAgent):
    """Searches only when `go` is set: a search slot held for as long as a
    test wants (a controlled stand-in for a long search)."""

    def __init__(self) -> None:
        super().__init__("held", iterations=50)
        object.__setattr__(self, "go", threading.Event())
        object.__setattr__(self, "entered", threading.Event())

    def decide(self, pos, game_id, turn, deadline):
        self.entered.set()
        self.go.wait(10)
        return super().decide(pos, game_id, turn, deadline)


def post_async(srv, path, data, timeout=10.0):
    out = {}

    def run():
        t0 = time.perf_counter()
        try:
            out["status"], out["answer"] = call(srv, "POST", path, data, timeout=timeout)
        except OSError as exc:
            out["error"] = exc
        out["ms"] = (time.perf_counter() - t0) * 1000
    th = threading.Thread(target=run, daemon=True)
    th.start()
    return th, out


# ------------------------------------------------------------- time and load
def test_a_request_asking_for_a_minute_is_held_to_the_cap(server):
    srv = server(agent=ServedAgent("timed"), max_timeout_ms=300, margin_ms=50)
    t0 = time.perf_counter()
    status, ans = call(srv, "POST", "/move", body(duel(timeout=60_000)), timeout=10)
    ms = (time.perf_counter() - t0) * 1000
    assert status == 200 and ans["move"] in ("up", "down", "left", "right")
    assert ms < 300 + 200, ms


def test_a_request_that_cannot_search_in_time_gets_a_safe_move_in_time(server):
    agent = HeldAgent()
    srv = server(agent=agent, search_slots=1, margin_ms=50)
    th, held = post_async(srv, "/move", body(duel(game_id="long", timeout=5000)))
    assert agent.entered.wait(10)               # the one search slot is taken
    try:
        t0 = time.perf_counter()
        status, ans = call(srv, "POST", "/move", body(duel(game_id="real", timeout=300)))
        ms = (time.perf_counter() - t0) * 1000
        assert status == 200 and ans["move"] == "up"       # the safe move (up is free)
        assert ans["shout"].startswith("busy")
        assert ms < 300, ms
    finally:
        agent.go.set()
        th.join(10)
    assert held["status"] == 200
    still_serving(srv)


def test_search_slots_go_to_the_earliest_deadline():
    from sandbox.bots.battlesnake.server import SearchSlots
    slots = SearchSlots(1)
    assert slots.acquire(time.perf_counter() + 1) == 0
    order = []

    def wait(name, give_up_in):
        if slots.acquire(time.perf_counter() + give_up_in) is not None:
            order.append(name)
            time.sleep(0.05)
            slots.release()
        else:
            order.append(name + " gave up")
    late = threading.Thread(target=wait, args=("late", 5.0))
    late.start()
    time.sleep(0.05)
    soon = threading.Thread(target=wait, args=("soon", 3.0))
    soon.start()
    time.sleep(0.05)
    hopeless = threading.Thread(target=wait, args=("hopeless", 0.1))
    hopeless.start()
    hopeless.join()
    slots.release()
    late.join()
    soon.join()
    assert order == ["hopeless gave up", "soon", "late"]


# ------------------------------------------------------------------ games
def test_invented_game_ids_lock_no_started_game_out(server):
    srv = server(max_games=4, agent=ServedAgent("quick", iterations=20))
    for k in range(4):                        # /move with no /start: invented ids
        status, ans = call(srv, "POST", "/move", body(duel(game_id=f"made-up-{k}")))
        assert status == 200
    status, ans = call(srv, "POST", "/start", body(duel(game_id="real")))
    assert status == 200, ans
    status, ans = call(srv, "POST", "/move", body(duel(game_id="real")))
    assert status == 200 and "busy" not in ans["shout"]
    still_serving(srv)


def test_games_that_never_started_or_went_quiet_expire(server):
    srv = server(unstarted_idle_s=0.2, game_idle_s=0.6, agent=ServedAgent("q", iterations=20))
    assert call(srv, "POST", "/move", body(duel(game_id="invented")))[0] == 200
    assert call(srv, "POST", "/start", body(duel(game_id="started")))[0] == 200
    assert set(srv.games) == {"invented", "started"}
    time.sleep(0.35)
    still_serving(srv)
    srv.expire_games()
    assert set(srv.games) == {"started"}
    time.sleep(0.4)
    srv.expire_games()
    assert srv.games == {}


def test_recordings_are_capped_per_minute_and_in_all(server, tmp_path):
    srv = server(max_recordings_per_minute=3, max_recordings=5)
    for k in range(8):
        st = duel(game_id=f"g{k}")
        assert call(srv, "POST", "/start", body(st))[0] == 200
        assert call(srv, "POST", "/end", body(st))[0] == 200
    assert len(list((tmp_path / "served").glob("*.jsonl"))) == 3
    assert sum("not recorded" in line for line in srv.lines) == 1   # said once a minute
    srv.recordings_started[:] = [t - 61 for t in srv.recordings_started]  # a minute later
    for k in range(8, 12):
        st = duel(game_id=f"g{k}")
        call(srv, "POST", "/start", body(st))
        call(srv, "POST", "/end", body(st))
    assert len(list((tmp_path / "served").glob("*.jsonl"))) == 5             # in all


def test_a_turn_that_goes_backwards_is_said_so(server, tmp_path):
    srv = server(agent=ServedAgent("q", iterations=20))
    assert call(srv, "POST", "/start", body(duel(game_id="back", turn=5)))[0] == 200
    assert call(srv, "POST", "/move", body(duel(game_id="back", turn=5)))[0] == 200
    assert call(srv, "POST", "/move", body(duel(game_id="back", turn=3)))[0] == 200
    assert srv.games["back"].error == "turn 3 came after turn 5: the turns went backwards"


# ---------------------------------------------------------------- numbers
def big_int(digits: int) -> bytes:
    return json.dumps(duel()).replace('"turn": 3', '"turn": ' + "9" * digits).encode()


@pytest.mark.parametrize("change, words", [
    (lambda st: st["you"].__setitem__("health", -7), "you.health: -7"),
    (lambda st: st["you"].__setitem__("health", 10**30), "you.health: "),
    (lambda st: st["board"]["snakes"][0].__setitem__("health", 101), "health: 101"),
    (lambda st: st["board"].__setitem__("width", 10**30), "board.width: "),
    (lambda st: st["board"].__setitem__("height", -11), "board.height: -11"),
    (lambda st: st["board"]["food"][0].__setitem__("x", 2**40), "board.food[0].x: "),
    (lambda st: st.__setitem__("turn", 2**63), "turn: "),
    (lambda st: st["game"]["ruleset"]["settings"].__setitem__("foodSpawnChance", -1),
     "foodSpawnChance: -1"),
    (lambda st: st["game"]["ruleset"]["settings"].__setitem__("minimumFood", 10**9),
     "minimumFood: "),
    (lambda st: st["game"].__setitem__("id", "bad\x1b[2Jid"), "game.id: has a control"),
    (lambda st: st["game"].__setitem__("id", "new\nline"), "game.id: has a control"),
    (lambda st: st["you"].__setitem__("id", "a\x00"), "you.id: has a control"),
])
def test_out_of_range_numbers_and_control_characters_are_400(server, change, words):
    srv = server()
    for path in ("/start", "/move", "/end"):
        st = duel()
        change(st)
        status, ans = call(srv, "POST", path, body(st))
        assert status == 400, (path, ans)
        assert words in ans["error"] and "\n" not in ans["error"], ans
    assert not srv.games
    assert all(line.isprintable() for line in srv.lines), srv.lines
    still_serving(srv)


def test_a_5000_digit_number_is_400_not_500(server):
    srv = server()
    for path in ("/start", "/move", "/end"):
        status, ans = call(srv, "POST", path, big_int(5000))
        assert status == 400 and "turn" in ans["error"] or "number" in ans["error"], ans
        assert status == 400
    still_serving(srv)


def test_names_and_shouts_with_control_characters_never_reach_the_log(server):
    srv = server()
    st = duel(ruleset="tag_team")                 # a ruleset not modelled: refused, logged
    st["board"]["snakes"][1]["name"] = "evil\x1b[2J\r\nforged: line"
    st["board"]["snakes"][1]["shout"] = "\x1b]0;title\x07"
    assert call(srv, "POST", "/start", body(st))[0] == 400
    assert srv.lines and all(line.isprintable() for line in srv.lines), srv.lines


# ------------------------------------------------------------- connections
def test_slow_headers_take_no_connection_from_a_real_request(server, capsys):
    srv = server(agent=ServedAgent("q", iterations=20))
    slow = []
    try:
        for _ in range(20):                     # 20 clients trickling their headers
            s = socket.create_connection(srv.server_address, timeout=5)
            s.sendall(b"POST /move HTTP/1.0\r\nX-Slow: ")
            slow.append(s)
        time.sleep(0.2)
        status, ans = call(srv, "POST", "/move", body(duel()))
        assert status == 200 and ans["move"], ans
    finally:
        for s in slow:
            s.close()
    still_serving(srv)


def test_cut_and_timed_out_connections_print_no_traceback(server, capsys):
    srv = server(socket_timeout_s=0.3, read_timeout_s=0.5)
    for first in (b"POST /move HTTP/1.0\r\nX-Slow: ", b"POST /move HTTP/1.0\r\n"
                  b"Content-Length: 900\r\n\r\n{\"ga", b"GET", b""):
        s = socket.create_connection(srv.server_address, timeout=5)
        s.sendall(first)
        if first == b"":
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()                                # cut (a reset for the last one)
    s = socket.create_connection(srv.server_address, timeout=5)
    s.sendall(b"POST /move HTTP/1.0\r\nX-Slow: a")
    time.sleep(1.0)                              # cut off by the server's read deadline
    s.close()
    time.sleep(0.3)
    still_serving(srv)
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Exception" not in err, err


# ------------------------------------------------------------------ signals
@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_serve_promptly_and_closes_its_recordings(tmp_path, sig, status):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "serve", "battlesnake", "--port",
                             "0", "--replay-dir", str(tmp_path / "served")], env=env,
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving smitsimax as a battlesnake on "), line   # the agent's name
        port = int(re.search(r":(\d+) \(", line).group(1))
        srv = type("S", (), {"server_address": ("127.0.0.1", port)})
        assert call(srv, "POST", "/start", body(duel(game_id="sig", turn=3)))[0] == 200
        assert call(srv, "POST", "/move", body(duel(game_id="sig", turn=3)))[0] == 200
        th, out = post_async(srv, "/move", body(duel(game_id="sig", turn=4, timeout=900)))
        time.sleep(0.3)                          # inside its search
        ended_by(proc, sig, status)
        th.join(5)
    finally:
        if proc.poll() is None:
            proc.kill()
    [f] = (tmp_path / "served").glob("*.jsonl")
    with read_replay(f) as rp:
        assert not rp.dropped and rp.header is not None


def test_a_snake_name_with_control_characters_is_recorded_made_safe(server, tmp_path):
    srv = server(agent=ServedAgent("q", iterations=20))
    st = duel(game_id="names")
    st["board"]["snakes"][1]["name"] = "evil\x1b[2J\u202eB"
    assert call(srv, "POST", "/start", body(st))[0] == 200
    assert call(srv, "POST", "/move", body(st))[0] == 200
    assert call(srv, "POST", "/end", body(duel(game_id="names", turn=4)))[0] == 200
    [f] = (tmp_path / "served").glob("*.jsonl")
    with read_replay(f) as rp:
        assert rp.header.names[1] == "evil?[2J?B"

"""A scenario player that calls a snake server: full matches against our
own server and the example server, recorded and verified; the fallback
when the server times out, answers garbage or is down."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sandbox.config import scenario_from_dict
from sandbox.bots.battlesnake.agent import ServedAgent
from sandbox.bots.battlesnake.server import ServerSettings, make_server
from sandbox.replay import Recorder, read_replay
from sandbox.replay.verify import verify
from sandbox.sim.match import Match

ROOT = Path(__file__).resolve().parents[2]


def scenario(url, n=2, timeout_ms=2000, max_turns=40, seed=5, remote=(1,)):
    players = []
    for i in range(n):
        if i in remote:
            players.append({"name": f"remote{i}", "controller": "battlesnake", "url": url,
                            "timeout_ms": timeout_ms})
        else:
            players.append({"name": f"us{i}", "search": {"algorithm": "smitsimax"}})
    return scenario_from_dict({"name": "vs server", "game": "snakes",
                               "game_params": {"width": 11, "height": 11, "snakes": n},
                               "seed": seed, "max_turns": max_turns,
                               "budget": {"iterations": 200, "ms": 0}, "players": players})


def play(scn, tmp_path, name="m.jsonl"):
    rec = Recorder(path=tmp_path / name)
    with Match(scn, recorder=rec) as m:
        m.play()
        ctl = [c for c in m.controllers if c.kind == "battlesnake"]
        history = list(m.history)
    rec.close()
    return ctl, history, tmp_path / name


@pytest.fixture
def our_server(tmp_path):
    srv = make_server(ServedAgent("served", iterations=200), port=0,
                      settings=ServerSettings(replay_dir=str(tmp_path / "served")),
                      log=lambda line: None)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_a_match_against_our_own_server_is_recorded_on_both_sides(our_server, tmp_path):
    url = f"http://127.0.0.1:{our_server.server_address[1]}"
    ctl, history, path = play(scenario(url, n=4, remote=(1, 2, 3), max_turns=60), tmp_path)
    c = ctl[0]
    assert not c.failures, c.failures[:3]
    assert len(c.answers) >= len(history)           # one /move per live snake a turn
    assert all(a.latency_ms > 0 for a in c.answers)
    # every turn's recorded move of a remote snake is what its server answered
    for rec in history:
        for p in rec.players:
            if p.controller == "battlesnake":
                assert all(p.chosen_by[a] == "external" for a in p.moves)
    with read_replay(path) as rp:
        assert verify(rp).ok
    # the server side: one game id for the match, as the official engine
    # sends it to every snake, so one replay of the game
    served = sorted((tmp_path / "served").glob("*.jsonl"))
    assert len(served) == 1
    for f in served:
        with read_replay(f) as rp:
            report = verify(rp)
            assert report.ok, (f, report.message)
            # every turn of the match, the last one from /end's state
            assert report.turns_checked == len(history)


def test_a_match_against_the_example_server(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, str(ROOT / "examples/bots/snake_server.py"),
                             "--port", str(port)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("example snake on")
        ctl, history, path = play(scenario(f"http://127.0.0.1:{port}", max_turns=80),
                                  tmp_path)
        c = ctl[0]
        assert not c.failures, c.failures[:3]
        assert c.info and c.info.get("apiversion") == "1"
        with read_replay(path) as rp:
            assert verify(rp).ok
        # it avoids the walls: it was never eliminated by leaving the board
        with read_replay(path) as rp:
            v = rp.view_at(rp.end_turn)
        assert v.snakes[1].cause != "out of bounds"
    finally:
        proc.terminate()
        proc.wait(10)


class _Misbehaving(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    mode = "garbage"

    def log_message(self, *a):
        pass

    def do_GET(self):
        self._send(200, b'{"apiversion": "1"}')

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(n)
        if self.path != "/move":
            return self._send(200, b"{}")
        mode = self.server.mode
        if mode == "slow":
            time.sleep(1.0)
            return self._send(200, b'{"move": "left"}')
        if mode == "trickle":      # each byte well within a socket timeout, the whole too late
            try:
                self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Length: 16\r\n\r\n")
                for ch in b'{"move": "left"}':
                    self.wfile.write(bytes([ch]))
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
            return
        if mode == "garbage":
            return self._send(200, b"<html>hello</html>")
        if mode == "illegal":
            return self._send(200, b'{"move": "north"}')
        return self._send(500, b'{"error": "boom"}')

    def _send(self, status, body):
        try:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass


@pytest.mark.parametrize("mode, kind", [("slow", "timeout"), ("trickle", "timeout"),
                                        ("garbage", "garbage"),
                                        ("illegal", "illegal"), ("error", "http")])
def test_a_failing_server_gets_the_engines_default_move(tmp_path, mode, kind):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Misbehaving)
    srv.daemon_threads = True
    srv.mode = mode
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{srv.server_address[1]}"
        scn = scenario(url, timeout_ms=200, max_turns=4)
        t0 = time.perf_counter()
        ctl, history, path = play(scn, tmp_path)
        elapsed = time.perf_counter() - t0
    finally:
        srv.shutdown()
        srv.server_close()
    c = ctl[0]
    assert [f.kind for f in c.failures] == [kind] * len(history)
    assert all(f.agent == 1 and f.detail and "\n" not in f.detail for f in c.failures)
    # the engine's rule: "up" on the first turn, then the last move again
    # (the snake starts stacked, so it has no heading before its first move)
    assert [rec.joint[1] for rec in history] == [0] * len(history)
    assert all(rec.players[1].chosen_by[1] == "default" for rec in history)
    if mode in ("slow", "trickle"):    # each turn waited the timeout, not the server's 1 s
        # well under the server's 1 s (the +50 ms target is a bench figure:
        # a loaded machine can delay a thread's wake-up by a few hundred ms)
        assert all(a.latency_ms < 200 + 400 for a in c.answers if a.failure is not None), c.answers
        assert elapsed < len(history) * 0.8
    with read_replay(path) as rp:
        assert verify(rp).ok


def test_a_server_that_is_down(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))             # bound, never listening, for the
        port = s.getsockname()[1]            # whole test: every call is refused
        ctl, history, _ = play(scenario(f"http://127.0.0.1:{port}", max_turns=3), tmp_path)
    c = ctl[0]
    assert [f.kind for f in c.failures] == ["down"] * len(history)
    assert "ConnectionRefused" in c.failures[0].detail


def test_a_connection_that_reached_itself_is_refused():
    """A socket bound to a port and connected to that same address connects
    to itself on Linux (TCP simultaneous open), as a client can when nothing
    listens on a local ephemeral port: the client calls that "down" rather
    than waiting out its timeout for an answer that cannot come."""
    from sandbox.bots.battlesnake.client import _refuse_self_connection
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.settimeout(2.0)
        s.connect(s.getsockname())
        assert s.getsockname() == s.getpeername()
        with pytest.raises(ConnectionRefusedError, match="reached itself"):
            _refuse_self_connection(s)
    with socket.socket() as srv, socket.socket() as c:
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        c.connect(srv.getsockname())
        _refuse_self_connection(c)           # an ordinary connection passes


def test_the_fallback_repeats_the_last_move():
    from sandbox.bots.battlesnake.client import BattlesnakeController
    from sandbox.games.snakes.view import decode_snakes
    from sandbox.native import Game
    c = BattlesnakeController(0, [0], "x", "http://127.0.0.1:9", timeout_ms=50)
    with Game("snakes", "width=7 height=7 snakes=1", seed=1) as g:
        g.step([3])                          # right: the head is now right of its neck
        view = decode_snakes(g.export())
        assert c._ask(1, 0, view, {}, 0.05) == 3
        assert c.failures[-1].kind in ("down", "timeout")


@pytest.mark.parametrize("player, words", [
    ({"controller": "battlesnake"}, "url: controller battlesnake needs"),
    ({"controller": "battlesnake", "url": "ftp://x"}, "is not an http"),
    ({"controller": "battlesnake", "url": "http://x", "timeout_ms": 0}, "timeout_ms"),
    ({"controller": "random", "url": "http://x"}, "url: only a remote player"),
])
def test_bad_player_configs_are_refused(player, words):
    from sandbox.config import ScenarioError
    with pytest.raises(ScenarioError, match=words):
        scenario_from_dict({"name": "x", "game": "snakes", "game_params": {"snakes": 2},
                            "players": [{"name": "a"}, player]})


def test_a_game_without_remote_players_refuses_them():
    from sandbox.config import ScenarioError
    with pytest.raises(ScenarioError, match="has no battlesnake players"):
        scenario_from_dict({"name": "x", "game": "goofspiel", "players": [
            {"name": "a"}, {"controller": "battlesnake", "url": "http://127.0.0.1:1"}]})


def test_a_snakebyte_game_refuses_a_snake_server_when_the_scenario_loads():
    """Battlesnake servers play the Battlesnake rulesets: a snakebyte match
    with one is refused in one line before any match starts."""
    from sandbox.config import ScenarioError
    with pytest.raises(ScenarioError, match="players.1.controller: a Battlesnake server plays "
                                            "the Battlesnake rulesets, not snakebyte"):
        scenario_from_dict({"name": "x", "game": "snakes",
                            "game_params": {"ruleset": "snakebyte", "map_seed": 1},
                            "players": [{"name": "a", "agents": [0, 1]},
                                        {"controller": "battlesnake", "url": "http://127.0.0.1:1",
                                         "agents": [2, 3]}]})


def test_an_agent_file_can_be_a_snake_server(tmp_path):
    """An agent file with controller battlesnake takes a seat in tournaments
    and sweeps (its url and timeout go with it)."""
    from sandbox.config import load_scenario
    from sandbox.tournament.agents import check_entrants, load_entrant, seat_scenario
    f = tmp_path / "server.toml"
    f.write_text('format = 1\nname = "mine"\ncontroller = "battlesnake"\n'
                 'url = "http://127.0.0.1:8001"\ntimeout_ms = 250\n', encoding="utf-8")
    e = load_entrant(str(f))
    assert e.player == {"controller": "battlesnake", "url": "http://127.0.0.1:8001",
                        "timeout_ms": 250}
    scn = load_scenario("snakes_duel_trees")
    check_entrants(scn, [load_entrant("random"), e])
    seated = scenario_from_dict(seat_scenario(scn, [load_entrant("random"), e]))
    assert seated.players[1].controller == "battlesnake"
    assert seated.players[1].timeout_ms == 250


@pytest.mark.parametrize("kw, words", [
    ({"url": 5}, "url: expected an http"), ({"url": "http://"}, "with a host"),
    ({"url": "http://x:99999"}, "bad port"), ({"timeout_ms": "fast"}, "expected milliseconds"),
    ({"timeout_ms": True}, "expected milliseconds"), ({"timeout_ms": 0}, "1..60000"),
])
def test_wrongly_typed_python_arguments_are_refused(kw, words):
    from sandbox.bots.battlesnake.client import BattlesnakeController
    from sandbox.native import InvalidArgument
    args = {"url": "http://127.0.0.1:1", **kw}
    with pytest.raises(InvalidArgument, match=words):
        BattlesnakeController(0, [0], "x", args["url"], args.get("timeout_ms"))


@pytest.mark.parametrize("player, words", [
    (None, "expected a player's keys"), ({"controller": "human"}, "cannot be served"),
    ({"search": {"c": "big"}}, "search"), ({"budget": {"ms": "x"}}, "hold numbers"),
    ({"weights": {"w_nope": 1}}, "weights"),
])
def test_a_served_agent_refuses_bad_keys(player, words):
    from sandbox.native import InvalidArgument
    with pytest.raises(InvalidArgument, match=words):
        ServedAgent.from_player("a", player)


@pytest.mark.parametrize("options, words", [({"margin_ms": "x"}, "margin_ms"),
                                            ({"max_games": 0}, "--max-games"),
                                            ({"max_body": -1}, "max_body")])
def test_server_settings_are_checked(options, words):
    from sandbox.native import InvalidArgument
    with pytest.raises(InvalidArgument, match=words):
        make_server(ServedAgent("a"), port=0, settings=ServerSettings(**options))

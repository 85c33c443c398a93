"""The Battlesnake client against hostile snake servers: a server that
trickles its answer a byte at a time leaves no thread and no socket behind
after each timed-out call; closing mid-call does not wait for the server;
a signal during a call ends `play` at once (real processes and signals);
the game id sent to the server does not give the match seed away."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sandbox.bots.battlesnake.client import BattlesnakeController
from sandbox.native import Game
from sandbox.replay import read_replay

from .helpers import ended_by
from .test_client import play, scenario

ROOT = Path(__file__).resolve().parents[2]


class _Trickle(BaseHTTPRequestHandler):
    """Answers /move a byte every `gap` seconds (each byte well within any
    socket timeout, the whole answer far too late); with `hold` = K, answers
    the first K at once and never answers another."""
    protocol_version = "HTTP/1.0"

    def log_message(self, *a):
        pass

    def do_GET(self):
        self._send(b'{"apiversion": "1"}')

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path != "/move":
            return self._send(b"{}")
        self.server.moves.append(time.monotonic())
        try:
            if self.server.hold is not None:
                if len(self.server.moves) > self.server.hold:
                    time.sleep(30)
                    return
                return self._send(b'{"move": "left"}')
            answer = b'{"move": "left", "shout": "' + b"x" * 40 + b'"}'
            self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Length: "
                             + str(len(answer)).encode() + b"\r\n\r\n")
            for ch in answer:
                self.wfile.write(bytes([ch]))
                self.wfile.flush()
                time.sleep(self.server.gap)
        except OSError:
            pass

    def _send(self, body):
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass


@pytest.fixture
def trickle():
    made = []

    def start(gap=0.1, hold=None):
        srv = ThreadingHTTPServer(("127.0.0.1", 0), _Trickle)
        srv.daemon_threads = True
        srv.gap, srv.hold, srv.moves = gap, hold, []
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        made.append(srv)
        return srv
    yield start
    for s in made:
        s.shutdown()
        s.server_close()


def sockets_to(port: int) -> int:
    """Sockets this process holds open whose far end is `port` (the
    client's side of its calls; the test server's side has it as its own)."""
    inodes = set()
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        try:
            rows = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            f = row.split()
            if int(f[2].rsplit(":", 1)[1], 16) == port:
                inodes.add(f[9])
    n = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            link = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        n += link.startswith("socket:[") and link[8:-1] in inodes
    return n


def client_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("battlesnake"))


def test_timed_out_calls_leave_no_thread_and_no_socket(trickle):
    srv = trickle(gap=0.1)
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    c = BattlesnakeController(0, [0], "remote", url, timeout_ms=100,
                              game_params={"width": 7, "height": 7, "snakes": 2})
    try:
        with Game("snakes", "width=7 height=7 snakes=2", seed=1) as g:
            from sandbox.games.snakes.view import decode_snakes
            for turn in range(12):
                c._decide_view(turn, decode_snakes(g.export()))
                # after each call: nothing of it is left running or open
                assert client_threads() == 0, turn
                assert sockets_to(srv.server_address[1]) == 0, turn
                g.step([0, 0]) if not g.is_terminal else None
                if g.is_terminal:
                    break
    finally:
        c.close()
    kinds = [f.kind for f in c.failures]
    assert kinds and set(kinds) == {"timeout"}
    # each call given up at its time, not at the trickle's end (~5 s)
    assert max(a.latency_ms for a in c.answers) < 100 + 400


def test_closing_during_a_call_does_not_wait_for_the_server(trickle):
    srv = trickle(hold=0)
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    scn = scenario(url, timeout_ms=20_000, max_turns=3)
    from sandbox.sim.match import Match
    m = Match(scn)
    m.start_turn()
    for c in m.controllers:
        getattr(c, "hand_off", lambda: None)()
    deadline = time.monotonic() + 20
    while not srv.moves:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    t0 = time.monotonic()
    m.close()
    assert time.monotonic() - t0 < 2.0
    assert client_threads() == 0


def test_the_game_id_does_not_tell_the_server_the_match_seed(tmp_path, trickle):
    srv = trickle(gap=0.0)
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    ctl, _, _ = play(scenario(url, timeout_ms=500, max_turns=2, seed=424242), tmp_path)
    gid = ctl[0].game_id
    assert "424242" not in gid
    # another seed, another id; the same seed, the same id (a replayed match)
    ctl2, _, _ = play(scenario(url, timeout_ms=500, max_turns=2, seed=424243), tmp_path, "b")
    ctl3, _, _ = play(scenario(url, timeout_ms=500, max_turns=2, seed=424242), tmp_path, "c")
    assert ctl2[0].game_id != gid and ctl3[0].game_id == gid


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_a_call_ends_play_at_once(tmp_path, trickle, sig, status):
    srv = trickle(hold=2)
    url = f"http://127.0.0.1:{srv.server_address[1]}"
    (tmp_path / "s.toml").write_text(f"""
game = "snakes"
seed = 5
max_turns = 50
[game_params]
width = 7
height = 7
snakes = 2
[budget]
iterations = 50
ms = 0
[[players]]
name = "us"
[[players]]
name = "remote"
controller = "battlesnake"
url = "{url}"
timeout_ms = 5000
""")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "play", str(tmp_path / "s.toml"),
                             "--replay-dir", str(tmp_path / "r")], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(srv.moves) < 3:
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.2)
        ended_by(proc, sig, status)
    finally:
        if proc.poll() is None:
            proc.kill()
    (path,) = (tmp_path / "r").glob("*.jsonl")
    with read_replay(path) as rp:
        # the turns answered, whole; none for the call cut short
        assert [t.turn for t in rp.turns] == [0, 1]
        assert all(t.players[1].bot.failures == [] for t in rp.turns)
        assert rp.result is None and not rp.dropped

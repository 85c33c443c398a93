"""A snake-server player is recorded like a process player: each turn
line carries its answer's latency and its failures (agent, kind, detail) in
the same fields, `replay stats` gives it the same line, and the replay
scene says what it did on a turn. The server here answers well on even
turns and garbage on odd ones, so both kinds of turn are known in
advance."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pygame
import pytest

from sandbox.app.replay_scene import ReplayScene
from sandbox.app.shell import App
from sandbox.replay import read_replay
from sandbox.replay.botstats import bot_stats
from sandbox.replay.verify import verify

from .test_client import play, scenario

ROOT = Path(__file__).resolve().parents[2]


class _EvenOdd(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        self._send(b'{"apiversion": "1"}')

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/move":
            return self._send(b"{}")
        if body["turn"] % 2:
            return self._send(b"not json")
        self._send(json.dumps({"move": _safe(body)}).encode())

    def _send(self, data):
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _safe(body) -> str:
    """A move whose next two cells are on the board and off our body: the
    failed turn after it repeats it (the engine's rule) and survives."""
    b = body["board"]
    you = body["you"]
    head = you["head"]
    body_cells = {(p["x"], p["y"]) for p in you["body"][1:]}
    for name, (dx, dy) in (("up", (0, 1)), ("right", (1, 0)), ("down", (0, -1)),
                           ("left", (-1, 0))):
        cells = [(head["x"] + k * dx, head["y"] + k * dy) for k in (1, 2)]
        if all(0 <= x < b["width"] and 0 <= y < b["height"] and (x, y) not in body_cells
               for x, y in cells):
            return name
    return "up"


@pytest.fixture
def even_odd():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _EvenOdd)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def test_a_servers_turns_go_into_the_replay_like_a_process_players(even_odd, tmp_path):
    ctl, history, path = play(scenario(even_odd, max_turns=6), tmp_path)
    c = ctl[0]
    replay = read_replay(path)
    assert len(replay.turns) == 6
    for line in replay.turns:
        bot = line.players[1].bot
        assert bot is not None, line.turn
        if line.turn % 2:
            assert bot.latency_ms is None
            assert [(f.agent, f.kind) for f in bot.failures] == [(1, "garbage")]
            assert "not a JSON object" in bot.failures[0].detail
        else:
            assert bot.failures == [] and 0 < bot.latency_ms < 2000
        assert line.players[0].bot is None                # the search player has none
    # the live figures are the shared ones (the arena's panel reads them)
    assert c.stats.turns == 6 and c.stats.failures == 3 and len(c.stats.latencies) == 3
    assert [t for t, _ in c.stats.recent_failures] == [1, 3, 5]
    assert verify(replay).ok
    # replay stats: the same line a process player gets
    assert bot_stats(replay)["remote1"]["failures"] == {"garbage": 3}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "sandbox", "replay", "stats", str(path)],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "bot remote1: 3 answers, latency median" in out.stdout
    assert "failed turns 3 (garbage 3)" in out.stdout
    # the replay scene says what the server did on a turn
    app = App()
    try:
        scene = ReplayScene(app, replay)
        app.push(scene)
        app.run(max_frames=app.frame + 2)
        assert "bot failed: garbage; default move" in scene.decision_title(1, 1)
        assert "bot failed" not in scene.decision_title(1, 2)
    finally:
        app.close()
        pygame.event.clear()

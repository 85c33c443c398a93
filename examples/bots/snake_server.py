#!/usr/bin/env python3
"""A small Battlesnake server on the Python standard library only: a
starting point for your own snake, and the opponent the sandbox's tests
play against (docs/battlesnake.md).

    python examples/bots/snake_server.py --port 8001

Each turn it scores the four moves and answers the best:
  - never off the board, never onto a body cell that is still there next
    turn (a tail moves away unless its snake has just eaten);
  - avoid cells a snake at least as long as us could also move into
    (a head-to-head we would lose or draw);
  - prefer moves that leave more room (cells reachable by a flood fill);
  - when hungry (health under 40, or shorter than every other snake), head
    for the nearest food.
Ties go up, down, left, right. Nothing here imports the sandbox."""
from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MOVES = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
MAX_BODY = 1 << 20
HUNGRY = 40


def cell(p):
    return (p["x"], p["y"])


def choose(state):
    board, me = state["board"], state["you"]
    w, h = board["width"], board["height"]
    head = cell(me["head"]) if "head" in me else cell(me["body"][0])
    my_len = len(me["body"])
    blocked = set()
    for s in board["snakes"]:
        body = [cell(p) for p in s["body"]]
        if len(body) > 1 and body[-1] != body[-2]:
            body = body[:-1]                  # the tail moves away this turn
        blocked.update(body)
    risky = set()
    for s in board["snakes"]:
        if s["id"] != me["id"] and len(s["body"]) >= my_len:
            hx, hy = cell(s["body"][0])
            risky.update((hx + dx, hy + dy) for dx, dy in MOVES.values())
    food = [cell(f) for f in board["food"]]
    hungry = me["health"] < HUNGRY or any(
        len(s["body"]) >= my_len for s in board["snakes"] if s["id"] != me["id"])

    def inside(c):
        return 0 <= c[0] < w and 0 <= c[1] < h

    def room(start):
        seen, todo = {start}, deque([start])
        while todo and len(seen) < 2 * my_len + 10:
            x, y = todo.popleft()
            for dx, dy in MOVES.values():
                c = (x + dx, y + dy)
                if inside(c) and c not in blocked and c not in seen:
                    seen.add(c)
                    todo.append(c)
        return len(seen)

    best, best_score = "up", None
    for name, (dx, dy) in MOVES.items():
        c = (head[0] + dx, head[1] + dy)
        if not inside(c) or c in blocked:
            score = (0, 0, 0, 0)
        else:
            near = min((abs(c[0] - f[0]) + abs(c[1] - f[1]) for f in food), default=0)
            score = (1, c not in risky, min(room(c), my_len + 2), -near if hungry else 0)
        if best_score is None or score > best_score:
            best, best_score = name, score
    return best


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    timeout = 5

    def log_message(self, format, *args):       # quiet
        pass

    def _send(self, status, obj):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self._send(200, {"apiversion": "1", "author": "example", "color": "#40a060",
                         "head": "default", "tail": "default", "version": "1"})

    def do_POST(self):
        try:
            n = int(self.headers.get("Content-Length", "0"))
            if not 0 <= n <= MAX_BODY:
                return self._send(413, {"error": "body too large"})
            state = json.loads(self.rfile.read(n))
            if self.path.rstrip("/") == "/move":
                return self._send(200, {"move": choose(state), "shout": ""})
            return self._send(200, {})
        except (ValueError, KeyError, TypeError) as exc:
            return self._send(400, {"error": f"{type(exc).__name__}: {exc}"[:200]})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8001)
    args = ap.parse_args(argv)
    try:
        server = ThreadingHTTPServer((args.host, args.port), Handler)
    except OSError as exc:
        print(f"error: cannot listen on {args.host}:{args.port}: {exc.strerror}",
              file=sys.stderr)
        return 1
    server.daemon_threads = True
    print(f"example snake on http://{args.host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

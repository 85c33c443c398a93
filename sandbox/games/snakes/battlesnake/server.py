"""`python -m sandbox serve battlesnake`: a sandbox agent as a Battlesnake
server (API version 1), on the standard library's ThreadingHTTPServer.

    GET  /        the snake's looks (apiversion "1", author, color, head, tail, version)
    POST /start   a game begins: checked, registered (and its replay started)
    POST /move    {"move": "up|down|left|right", "shout": ...} within the game's timeout
    POST /end     the game is over: its replay finished, the game forgotten

What never takes the server down: a body that is not JSON, is too big, has
a field missing or of the wrong type (HTTP 400, {"error": one line}); a
game we do not model (refused at /start with HTTP 400 and the reason; at
/move answered with a safe move and the reason as the shout); more games
than `max_games` at once (HTTP 503 at /start; a safe move at /move); more
connections than `max_connections` (HTTP 503 at once); a client that sends
slowly (a socket timeout, and the whole body must arrive within
`read_timeout_s`). An error inside our own code answers HTTP 500 with one
line and the server goes on.

Time: the search stops at the request's game.timeout minus `margin_ms`
after the request was read (see docs/battlesnake.md for the measured
answer times)."""
from __future__ import annotations

import json
import socket
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from ....native import SandboxError
from .agent import ServedAgent
from .convert import position
from .safe import safe_move
from .schema import MOVES, MalformedState, Unsupported, parse_body, read_state
from .served import ServedGame

API_VERSION = "1"


@dataclass(frozen=True)
class ServerSettings:
    margin_ms: float = 100.0         # the answer leaves this long before game.timeout
    max_games: int = 4               # games at once (a /start over it: 503)
    max_connections: int = 16        # requests being handled at once
    max_body: int = 1 << 20          # bytes; a bigger body: 400
    socket_timeout_s: float = 5.0    # per read/write on a connection
    read_timeout_s: float = 5.0      # the whole request body
    game_idle_s: float = 600.0       # a game without a request this long is forgotten
    color: str = "#3c8cdc"
    author: str = "simsearch-sandbox"
    head: str = "default"
    tail: str = "default"
    replay_dir: str | None = None    # None: served games are not recorded

    def check(self) -> None:
        from ....native import InvalidArgument
        for name in ("margin_ms", "max_games", "max_connections", "max_body",
                     "socket_timeout_s", "read_timeout_s", "game_idle_s"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v < 0:
                # the option's name and the serve command's flag spelling of it
                flag = "--" + name.replace("_", "-")
                raise InvalidArgument(f"{name} ({flag}): expected a number >= 0, got {v!r}")
        if not 0 <= self.margin_ms <= 10_000:
            raise InvalidArgument(f"--margin-ms: {self.margin_ms:g}, expected 0..10000")
        if not 1 <= self.max_games <= 256:
            raise InvalidArgument(f"--max-games: {self.max_games}, expected 1..256")
        if not 1 <= self.max_connections <= 1024:
            raise InvalidArgument(f"--max-connections: {self.max_connections}, expected 1..1024")


class Request400(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class SnakeServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], agent: ServedAgent,
                 settings: ServerSettings = ServerSettings(),
                 log: Callable[[str], None] | None = None) -> None:
        settings.check()
        self.agent = agent
        self.settings = settings
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.games: dict[str, ServedGame] = {}
        self.games_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(settings.max_connections)
        self.answered = 0
        super().__init__(address, Handler)

    # bounded connections: one over the bound is answered 503 at once
    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            try:
                # take in what the client has already sent (its request), so
                # that it reads our 503 instead of a reset on its write; a
                # pause of 50 ms ends it
                request.settimeout(0.05)
                got = 0
                try:
                    while got <= self.settings.max_body:
                        chunk = request.recv(65536)
                        if not chunk:
                            break
                        got += len(chunk)
                except OSError:
                    pass
                request.settimeout(1.0)
                body = json.dumps({"error": "server busy: too many connections"}).encode()
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\n"
                                b"Content-Type: application/json\r\nContent-Length: "
                                + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n"
                                + body)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    # games --------------------------------------------------------------------
    def game_for(self, st, create: bool) -> tuple[ServedGame | None, str]:
        """The game's record; a new one if `create` and the bound allows."""
        now = time.monotonic()
        with self.games_lock:
            for gid in [g for g, sg in self.games.items()
                        if now - sg.last_seen > self.settings.game_idle_s]:
                self.games.pop(gid).close()
            g = self.games.get(st.game_id)
            if g is not None or not create:
                return g, ""
            if len(self.games) >= self.settings.max_games:
                return None, (f"server busy: {len(self.games)} games at once "
                              f"(max_games {self.settings.max_games})")
            g = ServedGame(st, self.settings.replay_dir, self.agent.name)
            if g.error:
                self.log(f"game {st.game_id}: not recorded: {g.error}")
            self.games[st.game_id] = g
            return g, ""

    def drop_game(self, gid: str) -> ServedGame | None:
        with self.games_lock:
            return self.games.pop(gid, None)

    def server_close(self) -> None:
        super().server_close()
        with self.games_lock:
            for g in self.games.values():
                g.close()
            self.games.clear()


class Handler(BaseHTTPRequestHandler):
    server: SnakeServer
    server_version = "sandbox-battlesnake/1"
    protocol_version = "HTTP/1.0"

    def setup(self) -> None:
        self.timeout = self.server.settings.socket_timeout_s
        super().setup()
        # The socket timeout bounds each read; a client that sends its
        # headers a byte at a time, each within it, is cut off here (the
        # body has its own deadline in _body)
        self._headers_read = False
        self._watchdog = threading.Timer(self.server.settings.read_timeout_s, self._cut_off)
        self._watchdog.daemon = True
        self._watchdog.start()

    def _cut_off(self) -> None:
        if not self._headers_read:
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def parse_request(self) -> bool:
        ok = super().parse_request()
        self._headers_read = True
        self._watchdog.cancel()
        return ok

    def finish(self) -> None:
        self._watchdog.cancel()
        super().finish()

    def log_message(self, format: str, *args: Any) -> None:   # noqa: A002 (the base's name)
        pass                            # one line per problem instead (self.server.log)

    # ------------------------------------------------------------------ GET
    def do_GET(self) -> None:
        if self.path.split("?")[0] not in ("/", ""):
            return self._json(404, {"error": f"no such endpoint {self.path[:60]!r}"})
        s = self.server.settings
        from .... import __version__
        self._json(200, {"apiversion": API_VERSION, "author": s.author, "color": s.color,
                         "head": s.head, "tail": s.tail,
                         "version": f"sandbox {__version__} ({self.server.agent.name})"})

    # ----------------------------------------------------------------- POST
    def do_POST(self) -> None:
        t0 = time.perf_counter()
        path = self.path.split("?")[0].rstrip("/")
        try:
            if path not in ("/start", "/move", "/end"):
                raise Request400(404, f"no such endpoint {self.path[:60]!r}")
            st = read_state(parse_body(self._body()))
            if path == "/start":
                return self._start(st)
            if path == "/move":
                return self._move(st, t0)
            return self._end(st)
        except Request400 as exc:
            self._refuse(exc.status, str(exc))
        except MalformedState as exc:
            self._refuse(400, str(exc))
        except Exception as exc:    # our bug: one line, and the server goes on
            self.server.log(f"error: {self.path[:40]}: {type(exc).__name__}: {exc}")
            self._refuse(500, f"internal error: {type(exc).__name__}")

    def _body(self) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None:
            raise Request400(411, "Content-Length missing")
        try:
            n = int(length)
        except ValueError:
            raise Request400(400, f"Content-Length {length[:20]!r} is not a number") from None
        if n < 0:
            raise Request400(400, "Content-Length is negative")
        if n > self.server.settings.max_body:
            raise Request400(400, f"body of {n} bytes, more than {self.server.settings.max_body}")
        deadline = time.monotonic() + self.server.settings.read_timeout_s
        chunks, got = [], 0
        while got < n:
            if time.monotonic() > deadline:
                raise Request400(408, "the body came too slowly")
            try:
                chunk = self.rfile.read1(min(65536, n - got))
            except TimeoutError:
                raise Request400(408, "the body came too slowly") from None
            if not chunk:
                raise Request400(400, f"body ends after {got} of {n} bytes")
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    def _start(self, st) -> None:
        try:
            position(st)
        except Unsupported as exc:
            self.server.log(f"game {st.game_id}: refused: {exc}")
            return self._refuse(400, f"refused: {exc}")
        g, why = self.server.game_for(st, create=True)
        if g is None:
            self.server.log(f"game {st.game_id}: refused: {why}")
            return self._refuse(503, why)
        self._json(200, {})

    def _move(self, st, t0: float) -> None:
        s = self.server.settings
        try:
            pos = position(st)
        except Unsupported as exc:
            return self._answer(safe_move(st), f"refused: {exc}")
        g, why = self.server.game_for(st, create=True)
        if g is None:
            return self._answer(safe_move(st), f"refused: {why}")
        deadline = t0 + (st.timeout - s.margin_ms) / 1000.0
        # the state is recorded before the search: an engine that stops
        # waiting for a late answer (and may end the game and send /end at
        # once) finds every state it sent already written
        g.observe(st)
        try:
            d = self.server.agent.decide(pos, st.game_id, st.turn, deadline)
        except SandboxError as exc:     # a state C refuses: still a move
            self.server.log(f"game {st.game_id} turn {st.turn}: {exc}")
            return self._answer(safe_move(st), f"refused: {exc}")
        g.note_move(st.turn, st.you.id, d.move, d.iterations, d.search_ms, d.stop_reason)
        self._answer(d.move, "")
        late = (time.perf_counter() - t0) * 1000.0
        if late > st.timeout:     # the engine has already played our last move again
            self.server.log(f"game {st.game_id} turn {st.turn}: answered in {late:.0f} ms, "
                            f"over its timeout of {st.timeout} ms (a busy machine? raise "
                            "--margin-ms)")

    def _end(self, st) -> None:
        g = self.server.drop_game(st.game_id)
        if g is not None:
            g.end(st)
            if g.error:
                self.server.log(f"game {st.game_id}: replay stopped: {g.error}")
            elif g.path is not None:
                self.server.log(f"game {st.game_id}: replay {g.path}")
        self._json(200, {})

    # ------------------------------------------------------------- answers
    def _answer(self, move: int, shout: str) -> None:
        self.server.answered += 1
        self._json(200, {"move": MOVES[move], "shout": shout[:256]})

    def _refuse(self, status: int, reason: str) -> None:
        self._json(status, {"error": reason.splitlines()[0][:300] if reason else "refused"})

    def _json(self, status: int, obj: dict) -> None:
        body = json.dumps(obj).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass                        # the client went away: nothing to answer


def make_server(agent: ServedAgent, host: str = "127.0.0.1", port: int = 8000,
                settings: ServerSettings = ServerSettings(),
                log: Callable[[str], None] | None = None) -> SnakeServer:
    """OSError when the address cannot be bound (port in use, bad host)."""
    return SnakeServer((host, port), agent, settings, log)

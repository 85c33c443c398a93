"""`python -m sandbox serve battlesnake`: a sandbox agent as a Battlesnake
server (API version 1), on the standard library's ThreadingHTTPServer (its
request threads kept as a pool, so accepting never waits for one to start).

    GET  /        the snake's looks (apiversion "1", author, color, head, tail, version)
    POST /start   a game begins: checked, registered (and its replay started)
    POST /move    {"move": "up|down|left|right", "shout": ...} within the game's timeout
    POST /end     the game is over: its replay finished, the game forgotten

What never takes the server down: a body that is not JSON, is too big, has
a field missing, of the wrong type or out of range, or an id with control
characters (HTTP 400, {"error": one line}); a game we do not model (refused
at /start with HTTP 400 and the reason; at /move answered with a safe move
and the reason as the shout); more games than `max_games` at once (HTTP
503 at /start; a safe move at /move); more connections than
`max_connections` (HTTP 503 at once); a client that sends slowly (the whole
request must arrive within `read_timeout_s` of its connection); a client
that cuts its connection (closed, one line at most, never a traceback). An
error inside our own code answers HTTP 500 with one line and the server
goes on.

Time: a request's game.timeout is taken up to `max_timeout_ms`, and the
answer leaves `margin_ms` before it, counted from when the connection was
accepted. Admission is by what the cores can do in time, not by a thread
count: at most `search_slots` searches run at once (one per core), a
request waits for a slot in order of its deadline, and one that cannot
start searching in time is answered a safe move in time (shout "busy").

Games: a game seen first at /move (no /start: a restarted server, or ids
made up) is forgotten after `unstarted_idle_s` without a request and gives
its place to a /start; a started game after `game_idle_s`. Recordings:
at most `max_recordings_per_minute` started a minute and `max_recordings`
in all; a game past either is served, not recorded."""
from __future__ import annotations

import heapq
import itertools
import json
import os
import queue
import socket
import sys
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from ...native import SandboxError
from .agent import ServedAgent
from .convert import position
from .safe import safe_move
from .schema import MOVES, MalformedState, Unsupported, parse_body, read_state
from .served import ServedGame

API_VERSION = "1"


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


MIN_SEARCH_S = 0.02     # a search that cannot have this long is not started: a safe move
LATE_EVERY_S = 10.0     # at most one line about late answers this often


@dataclass(frozen=True)
class ServerSettings:
    margin_ms: float = 100.0         # the answer leaves this long before game.timeout
    max_timeout_ms: float = 1000.0   # a request's game.timeout is taken up to this
    search_slots: int = 0            # searches at once (0: one per usable core)
    max_games: int = 4               # games at once (a /start over it: 503)
    max_connections: int = 128       # connections being served at once
    max_body: int = 1 << 20          # bytes; a bigger body: 400
    socket_timeout_s: float = 2.0    # per read/write on a connection
    read_timeout_s: float = 2.0      # the whole request, from the connection's accept
    game_idle_s: float = 30.0        # a started game without a request this long is forgotten
    unstarted_idle_s: float = 5.0    # the same for a game that had no /start
    max_recordings_per_minute: int = 10
    max_recordings: int = 1000       # recordings started in all (a server's run)
    color: str = "#3c8cdc"
    author: str = "simsearch-sandbox"
    head: str = "default"
    tail: str = "default"
    replay_dir: str | None = None    # None: served games are not recorded

    def check(self) -> None:
        from ...native import InvalidArgument
        for name in ("margin_ms", "max_timeout_ms", "search_slots", "max_games",
                     "max_connections", "max_body", "socket_timeout_s", "read_timeout_s",
                     "game_idle_s", "unstarted_idle_s", "max_recordings_per_minute",
                     "max_recordings"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v < 0 \
                    or v == float("inf"):
                # the option's name and the serve command's flag spelling of it
                flag = "--" + name.replace("_", "-")
                raise InvalidArgument(f"{name} ({flag}): expected a number >= 0, got {v!r}")
        if not 0 <= self.margin_ms <= 10_000:
            raise InvalidArgument(f"--margin-ms: {self.margin_ms:g}, expected 0..10000")
        if not 1 <= self.max_timeout_ms <= 60_000:
            raise InvalidArgument(f"--max-timeout-ms: {self.max_timeout_ms:g}, expected "
                                  "1..60000")
        if not 0 <= self.search_slots <= 256 or self.search_slots != int(self.search_slots):
            raise InvalidArgument(f"--search-slots: {self.search_slots}, expected 0..256 "
                                  "(0: one per core)")
        if not 1 <= self.max_games <= 256:
            raise InvalidArgument(f"--max-games: {self.max_games}, expected 1..256")
        if not 1 <= self.max_connections <= 1024:
            raise InvalidArgument(f"--max-connections: {self.max_connections}, expected 1..1024")
        if self.max_recordings_per_minute > 10_000 or self.max_recordings > 10_000_000:
            raise InvalidArgument("--max-recordings-per-minute: at most 10000; "
                                  "--max-recordings: at most 10000000")

    @property
    def slots(self) -> int:
        return int(self.search_slots) or usable_cores()


class SearchSlots:
    """At most `n` searches at once. A request waits for a slot in order of
    its deadline (the most urgent first) and gives up at `give_up_at`
    (time.perf_counter()): it is answered without a search then. `acquire`
    says how many were still waiting when it got its slot (None: it gave
    up), so a search can leave them a share of the time."""

    def __init__(self, n: int) -> None:
        self.n = int(n)
        self.busy = 0
        self._cv = threading.Condition()
        self._waiting: list[tuple[float, int]] = []       # a heap of (give_up_at, seq)
        self._seq = itertools.count()

    def acquire(self, give_up_at: float) -> int | None:
        me = (give_up_at, next(self._seq))
        with self._cv:
            heapq.heappush(self._waiting, me)
            try:
                while True:
                    if self.busy < self.n and self._waiting[0] == me:
                        self.busy += 1
                        return len(self._waiting) - 1
                    left = give_up_at - time.perf_counter()
                    if left <= 0:
                        return None
                    self._cv.wait(left)
            finally:
                self._waiting.remove(me)
                heapq.heapify(self._waiting)
                self._cv.notify_all()

    def release(self) -> None:
        with self._cv:
            self.busy -= 1
            self._cv.notify_all()


SEARCH_NICE = 10        # the search threads' niceness, above the request threads'


class Searchers:
    """The threads that run the searches, one per slot: niced, so that they
    yield the cores to the threads that read requests and write answers
    (short bursts, each on a deadline; a search is bounded by its own
    deadline whatever CPU it gets), and daemons, so that a server stopped
    mid-search (Ctrl-C) does not wait for the search at exit."""

    def __init__(self, n: int) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        for k in range(n):
            threading.Thread(target=self._work, name=f"snake-search-{k}", daemon=True).start()

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) on a search thread; its result, or its exception."""
        done = threading.Event()
        out: list = []
        self._jobs.put((fn, args, out, done))
        done.wait()
        if isinstance(out[0], BaseException):
            raise out[0]
        return out[0]

    def stop(self) -> None:
        self._jobs.put(None)

    def _work(self) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SEARCH_NICE)
        except (AttributeError, OSError):
            pass                # not Linux, or not allowed: the searches run as they are
        while True:
            job = self._jobs.get()
            if job is None:
                self._jobs.put(None)          # the next thread stops too
                return
            fn, args, out, done = job
            try:
                out.append(fn(*args))
            except Exception as exc:          # handed to the request's thread
                out.append(exc)
            done.set()


def printable(text: str, limit: int = 300) -> str:
    """Text for the server's log: control and format characters escaped, cut."""
    text = str(text)[:limit]
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class Request400(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class SnakeServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], agent: ServedAgent,
                 settings: ServerSettings = ServerSettings(),
                 log: Callable[[str], None] | None = None) -> None:
        settings.check()
        self.agent = agent
        self.settings = settings
        out = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.log = lambda line: out(printable(line, 500))
        self.games: dict[str, ServedGame] = {}
        self.games_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(settings.max_connections)
        self.search_slots = SearchSlots(settings.slots)
        self._requests: queue.SimpleQueue = queue.SimpleQueue()   # accepted connections
        self._pool_lock = threading.Lock()
        self._idle = 0                               # pool threads waiting for a connection
        # one thread per slot runs the searches (never more run at once)
        self.searchers = Searchers(settings.slots)
        self._accepted: dict[Any, float] = {}      # connection -> when it was accepted
        self.recordings_started: list[float] = []   # time.monotonic() of each, this minute
        self.recordings_total = 0
        self._cap_said_at = -1e9
        self._late_said_at = -1e9
        self._late_unsaid = 0
        self.answered = 0
        super().__init__(address, Handler)

    # bounded connections: one over the bound is answered 503 at once
    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            try:
                # take in what the client has already sent (its request), so
                # that it reads our 503 instead of a reset on its write; this
                # is the accepting thread, so a tenth of a second in all
                deadline = time.monotonic() + 0.1
                got = 0
                try:
                    while got <= self.settings.max_body:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            break
                        request.settimeout(left)
                        chunk = request.recv(65536)
                        if not chunk:
                            break
                        got += len(chunk)
                except OSError:
                    pass
                request.settimeout(0.5)
                body = json.dumps({"error": "server busy: too many connections"}).encode()
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\n"
                                b"Content-Type: application/json\r\nContent-Length: "
                                + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n"
                                + body)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        self._accepted[request] = time.perf_counter()
        # handed to a waiting thread of the pool: the accepting thread does
        # not wait for a new thread to start (under load, milliseconds a
        # connection, while the next connections wait to be accepted)
        with self._pool_lock:
            grow = self._idle == 0
            self._idle -= 0 if grow else 1
        self._requests.put((request, client_address))
        if grow:
            threading.Thread(target=self._serve_requests, daemon=True,
                             name="snake-request").start()

    def _serve_requests(self) -> None:
        """A thread of the request pool: one connection after another (at
        most max_connections threads: one per connection being served)."""
        while True:
            job = self._requests.get()
            if job is None:
                self._requests.put(None)       # the next thread stops too
                return
            self.process_request_thread(*job)
            with self._pool_lock:
                self._idle += 1

    def note_late(self, line: str) -> None:
        """A late answer: logged, at most one line in LATE_EVERY_S (with
        how many more there were), so a flood of requests cannot flood the
        log."""
        now = time.monotonic()
        self._late_unsaid += 1
        if now - self._late_said_at >= LATE_EVERY_S:
            more = self._late_unsaid - 1
            self._late_unsaid = 0
            self._late_said_at = now
            self.log(line + (f" (and {more} more late answers)" if more else ""))

    def accepted_at(self, request) -> float:
        return self._accepted.pop(request, None) or time.perf_counter()

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._accepted.pop(request, None)
            self._slots.release()

    def handle_error(self, request, client_address) -> None:
        """A connection's failure: a client that cut or stalled its
        connection is no news; anything else is one line (never the
        standard library's traceback on stderr)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (OSError, EOFError)):
            return
        self.log(f"error: connection from {client_address[0]}: {type(exc).__name__}: {exc}")

    # games --------------------------------------------------------------------
    def expire_games(self) -> None:
        """Forget the games that went quiet (an unstarted one sooner)."""
        now = time.monotonic()
        s = self.settings
        with self.games_lock:
            for gid in [g for g, sg in self.games.items()
                        if now - sg.last_seen > (s.game_idle_s if sg.started
                                                 else s.unstarted_idle_s)]:
                self.games.pop(gid).close()

    def game_for(self, st, create: bool, start: bool = False) -> tuple[ServedGame | None, str]:
        """The game's record; a new one if `create` and the bound allows
        (`start`: at /start, which may take the place of a game that never
        started)."""
        self.expire_games()
        with self.games_lock:
            g = self.games.get(st.game_id)
            if g is not None:
                if start:
                    g.started = True
                return g, ""
            if not create:
                return None, ""
            if len(self.games) >= self.settings.max_games and start:
                unstarted = [sg for sg in self.games.values() if not sg.started]
                if unstarted:
                    oldest = min(unstarted, key=lambda sg: sg.last_seen)
                    self.games.pop(oldest.game_id).close()
            if len(self.games) >= self.settings.max_games:
                return None, (f"server busy: {len(self.games)} games at once "
                              f"(max_games {self.settings.max_games})")
            g = ServedGame(st, self._recording_dir(), self.agent.name)
            g.started = start
            if g.error:
                self.log(f"game {st.game_id}: not recorded: {g.error}")
            self.games[st.game_id] = g
            return g, ""

    def _recording_dir(self) -> str | None:
        """Where a new game is recorded, or None past the caps (said once a
        minute). Called under games_lock."""
        s = self.settings
        if s.replay_dir is None:
            return None
        now = time.monotonic()
        self.recordings_started[:] = [t for t in self.recordings_started if now - t < 60.0]
        why = ""
        if self.recordings_total >= s.max_recordings:
            why = f"{self.recordings_total} recordings in all (--max-recordings)"
        elif len(self.recordings_started) >= s.max_recordings_per_minute:
            why = (f"{len(self.recordings_started)} recordings in the last minute "
                   "(--max-recordings-per-minute)")
        if why:
            if now - self._cap_said_at >= 60.0:
                self._cap_said_at = now
                self.log(f"new games are served but not recorded: {why}")
            return None
        self.recordings_started.append(now)
        self.recordings_total += 1
        return s.replay_dir

    def drop_game(self, gid: str) -> ServedGame | None:
        with self.games_lock:
            return self.games.pop(gid, None)

    def server_close(self) -> None:
        super().server_close()
        self._requests.put(None)
        self.searchers.stop()
        with self.games_lock:
            for g in self.games.values():
                g.close()
            self.games.clear()


class Handler(BaseHTTPRequestHandler):
    server: SnakeServer
    server_version = "sandbox-battlesnake/1"
    protocol_version = "HTTP/1.0"

    def setup(self) -> None:
        self.accepted = self.server.accepted_at(self.request)
        self.timeout = self.server.settings.socket_timeout_s
        super().setup()
        # The socket timeout bounds each read; a client that sends its
        # headers a byte at a time, each within it, is cut off here (the
        # body has its own deadline in _body), counted from the accept
        self._headers_read = False
        left = self.accepted + self.server.settings.read_timeout_s - time.perf_counter()
        self._watchdog = threading.Timer(max(0.0, left), self._cut_off)
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
        from ... import __version__
        self._json(200, {"apiversion": API_VERSION, "author": s.author, "color": s.color,
                         "head": s.head, "tail": s.tail,
                         "version": f"sandbox {__version__} ({self.server.agent.name})"})

    # ----------------------------------------------------------------- POST
    def do_POST(self) -> None:
        t0 = self.accepted         # the engine's clock runs from its request, not our read
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
        deadline = time.monotonic() + max(
            0.0, self.accepted + self.server.settings.read_timeout_s - time.perf_counter())
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
        g, why = self.server.game_for(st, create=True, start=True)
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
        timeout = min(float(st.timeout), s.max_timeout_ms)
        deadline = t0 + (timeout - s.margin_ms) / 1000.0
        # the state is recorded before the search: an engine that stops
        # waiting for a late answer (and may end the game and send /end at
        # once) finds every state it sent already written
        g.observe(st)
        # admission: a search only if one can start with time to search; it
        # leaves those still waiting their share of the cores' time
        slots = self.server.search_slots
        waiting = slots.acquire(deadline - MIN_SEARCH_S)
        if waiting is None:
            move = safe_move(st)
            g.note_move(st.turn, st.you.id, move, 0, 0.0, "busy")
            return self._answer(move, "busy: every core searching; a safe move")
        now = time.perf_counter()
        share = max(MIN_SEARCH_S, (deadline - now) * slots.n / (slots.n + waiting))
        try:
            d = self.server.searchers.run(self.server.agent.decide, pos, st.game_id, st.turn,
                                          min(deadline, now + share))
        except SandboxError as exc:     # a state C refuses: still a move
            self.server.log(f"game {st.game_id} turn {st.turn}: {exc}")
            return self._answer(safe_move(st), f"refused: {exc}")
        finally:
            self.server.search_slots.release()
        g.note_move(st.turn, st.you.id, d.move, d.iterations, d.search_ms, d.stop_reason)
        self._answer(d.move, "")
        late = (time.perf_counter() - t0) * 1000.0
        if late > timeout:        # the engine has already played our last move again
            self.server.note_late(f"game {st.game_id} turn {st.turn}: answered in {late:.0f} "
                                  f"ms, over its timeout of {timeout:.0f} ms (a busy machine? "
                                  "raise --margin-ms)")

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

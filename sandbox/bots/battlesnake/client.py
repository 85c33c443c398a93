"""A scenario player that is a user's Battlesnake server (`controller =
"battlesnake"`, `url = "http://..."`): each turn it sends the official
game-state object of our state to the server's /move and plays the answer.

The calls follow the official engine: GET / once (the snake's looks), POST
/start before the first move, POST /move every turn within `timeout_ms`
(default 500, the official default; also sent as game.timeout), POST /end
when the game is over or the match closes. Each answer's latency is kept
and sent back in the next state's `latency` field, as the engine does.

A failed turn (the server down, no answer in time, an HTTP error, a body
that is not {"move": "up|down|left|right"}) plays the official engine's
choice for a snake that failed: the move it made last turn again, and "up"
on the first turn (docs.battlesnake.com: "In all error cases the game
engine will determine your Battlesnake's next move for you by repeating
the move taken on the previous turn"). That is also our snakes plugin's
default_move. The controller is an ExternalController (sandbox/bots/
external.py), as a process player is: each turn's latency and failures
(BotFailure: agent, kind, detail) go into the replay's turn line through
the same fields (`turn_info`), `replay stats`, the replay scene and the
arena's bot panel show them the same way, and its figures are the shared
BotStats. Here too: every failure in `failures`, every answer (with its own
latency) in `answers`.

A player with several agents (snakes) asks its server once per snake (as
the engine would ask one server that plays several snakes), one after
another; the turn waits at most timeout_ms per snake."""
from __future__ import annotations

import http.client
import io
import json
import socket
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..external import BotFailure, BotTurnInfo, ExternalController, default_move
from ...config.remote import url_problem
from ...native import Game, InvalidArgument
from ...games.snakes.view import decode_snakes
from .convert import state_json
from .schema import move_id

DEFAULT_TIMEOUT_MS = 500.0
MAX_ANSWER = 64 << 10          # bytes of an answer read at most
MAX_HEAD = 16 << 10            # bytes of an answer's status line and headers
END_CALLS_S = 1.0              # the /end calls of a closing match, all together


# A failure's kind (BotFailure.kind): "down" (no connection), "timeout",
# "http" (a status other than 200), "garbage", "illegal"


def _refuse_self_connection(sock) -> None:
    """Where nothing listens on a local port in the ephemeral range, Linux
    can pick that very port as the connecting socket's own and connect it to
    itself (a TCP simultaneous open): the request then waits for an answer
    that never comes, and a server that is down looked like one that is
    slow. Such a connection is refused here, as the kernel refuses the
    others."""
    try:
        same = sock.getsockname() == sock.getpeername()
    except OSError:
        return
    if same:
        raise ConnectionRefusedError("nothing listens there (the connection reached itself)")


def _left(deadline: float) -> float:
    """Seconds to `deadline` (time.monotonic()); TimeoutError once past it."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("no answer in time")
    return left


def _read_answer(sock, deadline: float) -> bytes:
    """The server's whole answer: until it closes the connection, or until
    the body its headers announce has come (a server that keeps the
    connection open), read by `deadline` and no more than MAX_HEAD +
    MAX_ANSWER + 1 bytes (more: the answer is cut there, and too long)."""
    buf = bytearray()
    cap = MAX_HEAD + MAX_ANSWER + 1
    while len(buf) < cap:
        sock.settimeout(_left(deadline))
        chunk = sock.recv(min(65536, cap - len(buf)))
        if not chunk:
            break
        buf += chunk
        if _complete(buf):
            break
    return bytes(buf)


def _complete(buf: bytes) -> bool:
    """Whether `buf` holds a whole answer by its own headers (Content-Length,
    or the last chunk of a chunked body). Without either, the answer ends
    when the server closes the connection."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return False
    head = bytes(buf[:end]).lower()
    body = len(buf) - end - 4
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip() == b"content-length":
            try:
                return body >= int(value.strip())
            except ValueError:
                return False
        if name.strip() == b"transfer-encoding" and b"chunked" in value:
            return buf.endswith(b"0\r\n\r\n")
    return False


class _Bytes:
    """A finished answer as http.client reads a socket (makefile)."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def makefile(self, *args: Any, **kwargs: Any) -> io.BytesIO:
        return io.BytesIO(self._data)


def _parse_answer(raw: bytes, method: str) -> tuple[int, bytes]:
    """(status, body) of an answer read whole (http.client's parser:
    chunked bodies, odd headers); HTTPException for one that is not HTTP.
    A body cut at the read cap comes back longer than MAX_ANSWER."""
    if len(raw) > MAX_HEAD + MAX_ANSWER and raw.find(b"\r\n\r\n") < 0:
        raise http.client.HTTPException(f"answer headers over {MAX_HEAD} bytes")
    r = http.client.HTTPResponse(_Bytes(raw), method=method)
    r.begin()
    try:
        body = r.read(MAX_ANSWER + 1)
    except http.client.IncompleteRead as exc:
        body = exc.partial
    return r.status, body


@dataclass(frozen=True)
class Answer:
    turn: int
    agent: int
    move: int            # the move played
    latency_ms: float
    failure: BotFailure | None = None


def check_url(url: Any) -> str:
    """InvalidArgument (one line) unless `url` is an http(s) URL the client
    can call (sandbox.config.remote.url_problem)."""
    why = url_problem(url)
    if why:
        raise InvalidArgument(f"url: {why}")
    return url.strip().rstrip("/")


class BattlesnakeController(ExternalController):
    kind = "battlesnake"

    def __init__(self, player: int, agents: Sequence[int], name: str, url: str,
                 timeout_ms: float | None = None, game_params: Mapping[str, Any] | None = None,
                 game_id: str = "sandbox-match", names: Sequence[str] = ()) -> None:
        self.url = check_url(url)
        t = DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms
        if isinstance(t, bool) or not isinstance(t, (int, float)) or t != t:
            raise InvalidArgument(f"timeout_ms: expected milliseconds, got {timeout_ms!r}")
        self.timeout_ms = float(t)
        if not 1 <= self.timeout_ms <= 60_000:
            raise InvalidArgument(f"timeout_ms: {self.timeout_ms:g}, expected 1..60000")
        # checked before the base class starts its worker thread
        super().__init__(player, agents, name, "snakes")
        # the game's ruleset, map and settings, sent in every state (the
        # official engine sends the full settings object)
        from ...games.snakes.params import SnakesGameParams
        self.game_params = SnakesGameParams.model_validate(dict(game_params or {})).model_dump()
        self.game_id = game_id
        self.names = tuple(names)
        self.info: dict | None = None          # GET / answer
        self.answers: list[Answer] = []
        self.failures: list[BotFailure] = []
        self._latency: dict[int, float] = {}
        self._chooser: dict[int, str] = {}
        self._started = False
        self._ended = False
        self._last_state: dict[int, dict] = {}
        self._final_view = None
        self._sock = None                      # the call in flight (close() cuts it)
        self._sock_lock = threading.Lock()
        self._cut = False                      # close(): refuse and cut calls

    # ------------------------------------------------------------- http
    def _call(self, method: str, path: str, body: dict | None, timeout_s: float
              ) -> tuple[int, bytes, float]:
        """(status, body, latency ms); raises TimeoutError / OSError /
        http.client.HTTPException. Runs in the calling thread with one
        deadline for the whole call (connect, send, every read), so a server
        that trickles its answer cannot hold the turn past timeout_s, and
        the connection is closed before this returns or raises: nothing of
        a call outlives it (close() may cut one short from another thread)."""
        t0 = time.perf_counter()
        deadline = time.monotonic() + timeout_s
        u = urllib.parse.urlsplit(self.url)
        data = b"" if body is None else json.dumps(body).encode("utf-8")
        target = (u.path or "") + path
        port = u.port or (443 if u.scheme == "https" else 80)
        head = (f"{method} {target} HTTP/1.1\r\nHost: {u.netloc}\r\n"
                "User-Agent: sandbox-battlesnake-client\r\nAccept: application/json\r\n"
                "Connection: close\r\n")
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        request = (head + "\r\n").encode("latin-1") + data
        sock = socket.create_connection((u.hostname, port), timeout=_left(deadline))
        try:
            with self._sock_lock:
                if self._cut:
                    raise ConnectionAbortedError("the match is closing")
                self._sock = sock
            _refuse_self_connection(sock)
            if u.scheme == "https":
                sock.settimeout(_left(deadline))
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=u.hostname)
                with self._sock_lock:
                    self._sock = sock
            sock.settimeout(_left(deadline))
            sock.sendall(request)          # one timeout for the whole send (Python >= 3.5)
            raw = _read_answer(sock, deadline)
        finally:
            with self._sock_lock:
                self._sock = None
            sock.close()
        status, payload = _parse_answer(raw, method)
        return status, payload, (time.perf_counter() - t0) * 1000.0

    # ------------------------------------------------------------- turns
    # ExternalController.start hands the turn to this controller's worker
    # thread (the searches of the other players start at once), which calls
    # _decide_turn.

    def _state(self, view, agent: int) -> dict:
        n = len(view.snakes)
        ids = [f"snake-{a}" for a in range(n)]
        names = [self.names[a] if a < len(self.names) else f"agent {a}" for a in range(n)]
        return state_json(view, agent, ids, names, game_id=self.game_id,
                          timeout_ms=int(self.timeout_ms),
                          game_params=self.game_params, latencies=self._latency)

    def _decide_turn(self, turn: int, view: Any,
                     legal: Mapping[int, tuple[int, ...]]) -> dict[int, Any]:
        return self._decide_view(turn, view, legal)

    def _decide_view(self, turn: int, view, legal: Mapping[int, tuple[int, ...]] | None = None
                     ) -> dict[int, int | None]:
        """Asks the server once per live snake; the turn's record (latency:
        the answers' time together, None if none came; failures per snake)
        is noted as a process player's is."""
        timeout_s = self.timeout_ms / 1000.0
        first = len(self.answers)
        if self.info is None:
            self._get_info(timeout_s)
        out: dict[int, int | None] = {}
        for a in self.agents:
            if not view.snakes[a].alive:
                out[a] = None
                continue
            state = self._state(view, a)
            self._last_state[a] = state
            if not self._started:
                try:
                    self._call("POST", "/start", state, timeout_s)
                except (OSError, http.client.HTTPException):
                    pass            # the engine ignores /start's answer too
            out[a] = self._ask(turn, a, view, state, timeout_s)
            if legal is not None and out[a] not in legal.get(a, (out[a],)):
                out[a] = default_move(self.plugin, view, a, legal[a])
        self._started = True
        asked = self.answers[first:]
        if asked:
            ok = [x.latency_ms for x in asked if x.failure is None]
            self._note(BotTurnInfo(turn, sum(x.latency_ms for x in asked) if ok else None,
                                   tuple(x.failure for x in asked if x.failure is not None)))
        else:
            self.last_info = BotTurnInfo(turn, None)
        return out

    def _get_info(self, timeout_s: float) -> None:
        try:
            status, body, _ = self._call("GET", "/", None, timeout_s)
            info = json.loads(body) if status == 200 else None
            self.info = info if isinstance(info, dict) else {}
        except (OSError, ValueError, http.client.HTTPException):
            self.info = {}

    def _ask(self, turn: int, agent: int, view, state: dict, timeout_s: float) -> int:
        d = view.snakes[agent].direction
        fallback = 0 if d is None else d       # the engine's: last move again, else up
        t0 = time.perf_counter()
        failure = None
        move = fallback
        try:
            status, body, ms = self._call("POST", "/move", state, timeout_s)
            if status != 200:
                failure = ("http", f"HTTP {status}")
            elif len(body) > MAX_ANSWER:
                failure = ("garbage", f"answer over {MAX_ANSWER} bytes")
            else:
                try:
                    obj = json.loads(body)
                except (ValueError, RecursionError):
                    obj = None
                if not isinstance(obj, dict) or "move" not in obj:
                    failure = ("garbage", "not a JSON object with a move: "
                               + repr(body[:60].decode("utf-8", "replace")))
                else:
                    m = move_id(obj["move"])
                    if m is None:
                        failure = ("illegal", f"move {str(obj['move'])[:30]!r} is not up, "
                                              "down, left or right")
                    else:
                        move = m
        except TimeoutError:
            failure = ("timeout", f"no answer within {self.timeout_ms:.0f} ms")
        except (ConnectionError, http.client.HTTPException, OSError) as exc:
            failure = ("down", f"{type(exc).__name__}: {exc}".splitlines()[0][:200])
        ms = (time.perf_counter() - t0) * 1000.0
        self._latency[agent] = min(ms, self.timeout_ms)
        f = BotFailure(agent, *failure) if failure else None
        if f is not None:
            self.failures.append(f)
        self._chooser[agent] = "default" if f else "external"
        self.answers.append(Answer(turn, agent, move, ms, f))
        return move

    def status_line(self) -> str:
        """The arena meter's line: the last answer's time, failures so far."""
        if not self.answers:
            return f"battlesnake {self.url}"
        last = self.answers[-1]
        line = f"battlesnake: last answer {last.latency_ms:.0f} ms"
        if self.failures:
            line += f", {len(self.failures)} failed (last: {self.failures[-1].kind})"
        return line

    def agent_keys(self) -> dict[str, Any]:
        """What an agent file needs to call this server again."""
        return {"url": self.url, "timeout_ms": self.timeout_ms}

    def chooser(self, agent: int) -> str:
        return self._chooser.get(agent, "external")

    def finish(self, joint, game: Game) -> None:
        # kept for /end: a match may stop at its turn limit, after this turn
        self._final_view = decode_snakes(game.export())
        if game.is_terminal:
            self._end(self._final_view)

    def _end(self, view=None) -> None:
        if self._ended or not self._started:
            return
        self._ended = True
        # the engine's courtesy, bounded all together: a closing match (the
        # user's Ctrl-C) does not wait a timeout per snake on a dead server
        deadline = time.monotonic() + min(END_CALLS_S, self.timeout_ms / 1000.0)
        for a in self.agents:
            state = self._state(view, a) if view is not None else self._last_state.get(a)
            if state is None:
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                break
            try:
                self._call("POST", "/end", state, left)
            except (OSError, http.client.HTTPException):
                pass

    def close(self) -> None:
        # a call in flight on the worker is cut (its socket shut), so the
        # worker ends now rather than at the server's pleasure
        with self._sock_lock:
            self._cut = True
            if self._sock is not None:
                try:
                    self._sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        self._thread.join(self.timeout_ms / 1000.0 * (len(self.agents) + 2))
        with self._sock_lock:
            self._cut = False
        self._end(self._final_view)

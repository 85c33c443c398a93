"""Fuzzed doors of the programs outside: a snake server's request bodies
(any JSON, and the documented state with any field damaged, numbers of any
size and text with any character), read in-process and sent over HTTP to a
real server; and a bot's reply lines in every protocol (JSON lines and the
Coders Strike Back text, with digits and spaces of every script). Each is
read, or refused with the project's one-line error: a 400 and never a 500
from the server, a ReplyError and nothing else from a protocol."""
from __future__ import annotations

import copy
import http.client
import json
import threading

from fuzz_support import CALLS, attempt, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from sandbox.bots.adapters import PROTOCOLS
from sandbox.bots.protocol import BotStart, BotTurn, JsonLinesProtocol, ReplyError
from sandbox.games import plugin
from sandbox.bots.battlesnake.agent import ServedAgent
from sandbox.bots.battlesnake.convert import position
from sandbox.bots.battlesnake.schema import (MalformedState, Unsupported, parse_body,
                                                     read_state)
from sandbox.bots.battlesnake.server import ServerSettings, make_server
from sandbox.native import Game

import pytest

# a documented /move body (two snakes on 11x11), written out by hand
BASE = {
    "game": {"id": "fuzz", "ruleset": {"name": "standard", "version": "v1",
                                       "settings": {"foodSpawnChance": 15, "minimumFood": 1,
                                                    "hazardDamagePerTurn": 0}},
             "map": "standard", "timeout": 500, "source": "custom"},
    "turn": 3,
    "board": {"width": 11, "height": 11, "food": [{"x": 5, "y": 5}], "hazards": [],
              "snakes": [
                  {"id": "a", "name": "A", "health": 80,
                   "body": [{"x": 2, "y": 3}, {"x": 2, "y": 2}, {"x": 2, "y": 1}],
                   "head": {"x": 2, "y": 3}, "length": 3, "latency": "12", "shout": ""},
                  {"id": "b", "name": "B", "health": 55,
                   "body": [{"x": 8, "y": 8}, {"x": 9, "y": 8}, {"x": 10, "y": 8}],
                   "head": {"x": 8, "y": 8}, "length": 3, "latency": "", "shout": ""}]},
}
BASE["you"] = copy.deepcopy(BASE["board"]["snakes"][0])


def _paths(obj, at=()):
    yield at
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, at + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, at + (i,))


PATHS = list(_paths(BASE))[1:]
ODD_TEXT = st.text(alphabet=st.sampled_from(
    "a Z0\x00\x07\x1b\n\r\t\u202e\u2028\u0663\uff11\ud7ff\ufeff\x85\x7f"), max_size=12)
VALUE = st.one_of(
    st.none(), st.booleans(), ODD_TEXT,
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([0, -1, 1, 100, 101, 2**31 - 1, 2**31, -(2**31), 2**63, 25, 26, 60_001]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(-3, 30), max_size=3),
    st.dictionaries(st.sampled_from(["x", "y", "id"]), st.integers(-3, 30), max_size=2))


def damaged(changes) -> dict:
    st_ = copy.deepcopy(BASE)
    for path, v in changes:
        node = st_
        try:
            for k in path[:-1]:
                node = node[k]
            if v == "DELETE":
                node.pop(path[-1])
            else:
                node[path[-1]] = v
        except (KeyError, IndexError, TypeError, AttributeError):
            pass                           # an earlier change took the path away
    return st_


CHANGE = st.tuples(st.sampled_from(PATHS), st.one_of(VALUE, st.just("DELETE")))


def read_request(raw: bytes) -> None:
    """What the server does with a body before it searches."""
    st_ = read_state(parse_body(raw))
    try:
        position(st_)
    except Unsupported:
        pass


@given(st.lists(CHANGE, min_size=1, max_size=4))
@fuzz_settings(150)
def test_a_damaged_state_is_read_or_refused_in_one_line(changes):
    raw = json.dumps(damaged(changes)).encode()
    _, exc = attempt(read_request, raw, allow=(MalformedState, Unsupported))
    if exc is not None:
        assert "\n" not in str(exc) and len(str(exc)) < 400


@given(st.one_of(st.binary(max_size=200),
                 st.recursive(VALUE, lambda c: st.lists(c, max_size=3)
                              | st.dictionaries(st.text(max_size=5), c, max_size=3),
                              max_leaves=12).map(lambda v: json.dumps(v).encode()),
                 st.integers(0, 9000).map(lambda n: b'{"turn": ' + b"7" * n + b"}")))
@fuzz_settings(100)
def test_any_body_is_read_or_refused_in_one_line(raw):
    _, exc = attempt(read_request, raw, allow=(MalformedState, Unsupported))
    if exc is not None:
        assert "\n" not in str(exc)


@pytest.fixture(scope="module")
def live_server():
    srv = make_server(ServedAgent("fuzz", iterations=10), port=0,
                      settings=ServerSettings(replay_dir=None), log=lambda line: None)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


@given(st.sampled_from(["/start", "/move", "/end"]), st.lists(CHANGE, max_size=3))
@fuzz_settings(12)
def test_the_server_answers_a_damaged_request_never_with_a_500(live_server, path, changes):
    conn = http.client.HTTPConnection("127.0.0.1", live_server.server_address[1], timeout=10)
    try:
        CALLS.bump()
        conn.request("POST", path, body=json.dumps(damaged(changes)).encode())
        r = conn.getresponse()
        answer = json.loads(r.read())
    finally:
        conn.close()
    assert r.status in (200, 400, 503), (r.status, answer)
    if r.status != 200:
        assert "\n" not in answer["error"]


# ------------------------------------------------------------ bots' replies
def _turn_of(kind: str, params: dict, agents: tuple[int, ...]):
    p = plugin(kind)
    with Game(kind, p.c_params(params), seed=1) as g:
        view = p.decode(g.export())
        legal = {a: tuple(g.legal_moves(a)) for a in agents}
        names = tuple(tuple(g.move_name(a, m) for m in range(8)) for a in range(g.num_agents))
        n = g.num_agents
    start = BotStart(kind=kind, params=params, player=0, agents=agents, num_agents=n,
                     move_names=names, seed=1, view=view, timeout_ms=100.0,
                     first_turn_ms=1000.0)
    return start, BotTurn(turn=0, view=view, legal=legal, time_ms=100.0, agents=agents)


LINE = st.one_of(
    st.text(max_size=60),
    st.builds(lambda a, b, c, tail: f"{a} {b} {c}{tail}",
              st.one_of(st.integers(-10**12, 10**12).map(str), ODD_TEXT),
              st.one_of(st.integers(-10**12, 10**12).map(str), ODD_TEXT),
              st.sampled_from(["0", "100", "200", "201", "-1", "BOOST", "SHIELD", "boost",
                               "１００", "٢٠٠", "1e2", "0x10", ""]),
              st.sampled_from(["", " go", "\t", " \x1b[2J", "  "])),
    st.recursive(VALUE, lambda c: st.lists(c, max_size=3)
                 | st.dictionaries(st.sampled_from(["moves", "debug", "message", "x"]), c,
                                   max_size=3), max_leaves=8).map(json.dumps))


@given(st.lists(LINE, max_size=4))
@fuzz_settings(150)
def test_any_reply_lines_are_moves_or_a_reply_error(lines):
    for proto, kind, params, agents in (
            (JsonLinesProtocol(), "goofspiel", {"num_cards": 4}, (0,)),
            (PROTOCOLS["codingame-csb"](), "pods", {}, (0, 1))):
        start, turn = _turn_of(kind, params, agents)
        proto.start_lines(start)
        reply, exc = attempt(proto.parse_reply, list(lines), turn, allow=(ReplyError,))
        if exc is not None:
            assert exc.kind in ("garbage", "illegal", "missing", "extra"), exc.kind
            assert "\n" not in str(exc)
        else:
            assert set(reply.moves) <= set(agents)

"""The JSON-lines protocol's reading of a reply (sandbox/bots/protocol.py):
every malformed answer is one ReplyError of the documented kind, never
another exception; the debug object is kept in its plain shape or dropped."""
from __future__ import annotations

import pytest

from sandbox.bots.adapters import protocol_class
from sandbox.bots.protocol import BotStart, BotTurn, JsonLinesProtocol, ReplyError, parse_debug

NAMES = (("up", "down", "left", "right"), ("up", "down", "left", "right"))


def proto() -> JsonLinesProtocol:
    p = JsonLinesProtocol()
    from sandbox.games import plugin
    from sandbox.native import Game
    with Game("maze", plugin("maze").c_params({"size": "tiny"}), seed=1) as g:
        view = plugin("maze").decode(g.export())
    p.start_lines(BotStart("maze", {}, 0, (0, 1), 2, NAMES, 1, view, 100.0, 1000.0))
    return p


TURN = BotTurn(turn=0, view=None, legal={0: (0, 3), 1: (1, 2)}, time_ms=100.0, agents=(0, 1))


@pytest.mark.parametrize("line, kind", [
    ("", "garbage"), ("hello", "garbage"), ("[1, 2]", "garbage"), ('{"move": [0, 1]}', "garbage"),
    ('{"moves": 3}', "garbage"), ('{"moves": [true, 1]}', "garbage"),
    ('{"moves": [0.0, 1]}', "garbage"), ('{"moves": [null, 1]}', "garbage"),
    ('{"moves": [{"i": 0}, 1]}', "garbage"), ("[" * 100_000 + "]" * 100_000, "garbage"),
    ('{"moves": [NaN, 1]}', "garbage"),
    ('{"moves": [1, 1]}', "illegal"), ('{"moves": [-1, 1]}', "illegal"),
    ('{"moves": ["down", 1]}', "illegal"), ('{"moves": ["jump", 1]}', "illegal"),
    ('{"moves": [0]}', "missing"), ('{"moves": []}', "missing"),
    ('{"moves": [0, 1, 2]}', "extra"),
])
def test_a_bad_reply_is_one_reply_error(line, kind):
    with pytest.raises(ReplyError) as e:
        proto().parse_reply([line], TURN)
    assert e.value.kind == kind
    assert "\n" not in str(e.value) and len(str(e.value)) < 300


def test_moves_by_index_or_name():
    r = proto().parse_reply(['{"moves": [3, "left"]}'], TURN)
    assert r.moves == {0: 3, 1: 2} and r.debug is None


def test_debug_is_kept_plain_or_dropped():
    legal = TURN.legal
    assert parse_debug({"message": "hi\x1b[2J", "visits": [[1, 3], [2]],
                        "values": [[0.5, float("nan")], [1, 2]]}, (0, 1), legal) == {
        "message": "hi [2J", "visits": {"0": {"0": 1.0, "3": 3.0}},
        "values": {"0": {"0": 0.5}, "1": {"1": 1.0, "2": 2.0}}}
    assert parse_debug("text", (0, 1), legal) is None
    assert parse_debug({"message": "x" * 1000}, (0, 1), legal)["message"] == "x" * 300


def test_protocols_are_found_by_name():
    assert protocol_class("jsonl", "maze") is JsonLinesProtocol
    with pytest.raises(ValueError, match="not a protocol of maze"):
        protocol_class("telepathy", "maze")


def test_the_start_message_is_strict_json_whatever_the_parameters():
    import datetime
    import json
    p = JsonLinesProtocol()
    line = p.start_lines(BotStart("maze", {"a": float("nan"), "b": datetime.date(2024, 1, 2),
                                           "c": [1.5, float("inf")]}, 0, (0,), 2, NAMES, 1,
                                  None, 100.0, 1000.0))[0]
    msg = json.loads(line, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert msg["params"] == {"a": None, "b": "2024-01-02", "c": [1.5, None]}

"""How a bot and the sandbox talk: the protocol interface and JSON lines.

A Protocol turns the sandbox's side of a match (BotStart once, BotTurn each
turn, the result at the end) into text lines for the bot's stdin, and the
bot's stdout lines back into a BotReply, raising ReplyError for anything it
cannot take. The process machinery (sandbox.bots.process) moves the lines
and enforces time and size; a protocol never blocks and never sees a pipe.

"jsonl" (JsonLinesProtocol) is the generic protocol, documented for users in
docs/bots.md: one JSON object per line. A contest's own text protocol for
one game sits beside it (codingame.py); sandbox.bots.adapters lists them by
name (`protocol_class(name, kind)`).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20          # a reply line longer than this is a failure
MAX_MESSAGE_CHARS = 300           # a debug message is cut to this many characters


@dataclass(frozen=True)
class BotStart:
    """What a protocol needs to greet a bot."""
    kind: str
    params: dict
    player: int
    agents: tuple[int, ...]
    num_agents: int
    move_names: tuple[tuple[str, ...], ...]   # per agent of the game
    seed: int
    view: object                              # the plugin's decoded view of the first state
    timeout_ms: float
    first_turn_ms: float


@dataclass(frozen=True)
class BotTurn:
    turn: int
    view: object                              # plugin.decode() of the current state
    legal: dict[int, tuple[int, ...]]         # this bot's alive agents -> legal move indices
    time_ms: float
    agents: tuple[int, ...]


@dataclass(frozen=True)
class BotReply:
    moves: dict[int, Any]                     # agent -> move index, or a free move
    debug: dict | None = None


class ReplyError(Exception):
    """A reply the protocol cannot take. `kind` names the failure as the
    replay records it: garbage (not the protocol's shape), illegal (a move
    the agent may not make now), missing / extra (too few / many moves)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Protocol:
    """One per name and per bot (a protocol may keep what the start told
    it). Lines are text without their newline."""

    name = "base"
    # the games it speaks for (empty: every game, through the game's bot_view)
    games: tuple[str, ...] = ()
    # True: reply lines written beyond reply_line_count, with the reply, are
    # the reply's (parse_reply sees them: "extra"); False: they are stray
    # output, dropped before the next turn
    exact_lines = False

    @classmethod
    def setup_problem(cls, params: Any, agents: tuple[int, ...]) -> str:
        """Why a match with these game parameters (the plugin's validated
        Params) cannot have a bot moving `agents` through this protocol, in
        one line ("" if it can). Asked when the scenario loads, so a setup
        the protocol cannot speak is refused before any match starts."""
        return ""

    def start_lines(self, s: BotStart) -> list[str]:
        raise NotImplementedError

    def turn_lines(self, t: BotTurn) -> list[str]:
        raise NotImplementedError

    def reply_line_count(self, t: BotTurn) -> int:
        return 1

    def parse_reply(self, lines: list[str], t: BotTurn) -> BotReply:
        raise NotImplementedError

    def end_lines(self, ranking: tuple[int, ...], scores: tuple[float, ...]) -> list[str]:
        return []


def _dumps(obj: Any) -> str:
    # compact, and never NaN/Infinity (not JSON: a strict parser refuses them)
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def _json_value(v: Any) -> Any:
    """A parameter value as strict JSON: non-finite floats as null, any
    other non-JSON value (a TOML date) as its text."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, (str, int, bool)) or v is None:
        return v
    if isinstance(v, dict):
        return {str(k): _json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_value(x) for x in v]
    return str(v)


def _finite(x: float) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


class JsonLinesProtocol(Protocol):
    """The generic protocol: docs/bots.md is its specification."""

    name = "jsonl"

    def __init__(self) -> None:
        self.kind = ""
        self.names: tuple[tuple[str, ...], ...] = ()
        self._view = None

    def start_lines(self, s: BotStart) -> list[str]:
        from ..games import plugin
        self.kind = s.kind
        self.names = s.move_names
        p = plugin(s.kind)
        self._view = p.bot_view
        if p.hides_info(s.params):
            # a hidden-information game: only what this player's seats may see
            seats = tuple(s.agents)
            self._view = lambda view: p.seat_bot_view(view, seats)
        return [_dumps({
            "type": "start", "protocol": PROTOCOL_VERSION, "game": s.kind,
            "params": _json_value(s.params), "player": s.player, "agents": list(s.agents),
            "num_agents": s.num_agents,
            "move_names": [list(row) for row in s.move_names],
            "seed": s.seed, "timeout_ms": _finite(s.timeout_ms),
            "first_turn_ms": _finite(s.first_turn_ms)})]

    def _name(self, agent: int, move: int) -> str:
        row = self.names[agent] if 0 <= agent < len(self.names) else ()
        return row[move] if 0 <= move < len(row) else str(move)

    def turn_lines(self, t: BotTurn) -> list[str]:
        return [_dumps({
            "type": "turn", "turn": t.turn, "time_ms": _finite(t.time_ms),
            "state": self._view(t.view) if self._view is not None else None,
            "legal": [{"agent": a, "moves": [{"index": m, "name": self._name(a, m)}
                                             for m in t.legal[a]]}
                      for a in t.agents if a in t.legal]})]

    def parse_reply(self, lines: list[str], t: BotTurn) -> BotReply:
        if len(lines) != 1:
            raise ReplyError("garbage", f"expected one line, got {len(lines)}")
        try:
            obj = json.loads(lines[0])
        except (ValueError, RecursionError):
            raise ReplyError("garbage", f"not JSON: {_clip(lines[0])}") from None
        if not isinstance(obj, dict) or "moves" not in obj:
            raise ReplyError("garbage", f"not an object with \"moves\": {_clip(lines[0])}")
        moves = obj["moves"]
        if not isinstance(moves, list):
            raise ReplyError("garbage", f"\"moves\" is not a list: {_clip(json.dumps(moves))}")
        agents = [a for a in t.agents if a in t.legal]
        if len(moves) < len(agents):
            raise ReplyError("missing", f"{len(moves)} moves for {len(agents)} agents")
        if len(moves) > len(agents):
            raise ReplyError("extra", f"{len(moves)} moves for {len(agents)} agents")
        out: dict[int, Any] = {}
        for a, m in zip(agents, moves):
            out[a] = self._move(a, m, t.legal[a])
        return BotReply(out, parse_debug(obj.get("debug"), agents, t.legal))

    def _move(self, agent: int, m: Any, legal: Sequence[int]) -> int:
        if isinstance(m, bool):
            raise ReplyError("garbage", f"agent {agent}: a move is an index or a name, got {m}")
        if isinstance(m, int):
            if m in legal:
                return m
            raise ReplyError("illegal", f"agent {agent}: move {m} is not legal now (legal: "
                             f"{', '.join(str(x) for x in legal)})")
        if isinstance(m, str):
            for x in legal:
                if self._name(agent, x) == m:
                    return x
            raise ReplyError("illegal", f"agent {agent}: move {_clip(m, 40)!r} is not legal "
                             f"now (legal: {', '.join(self._name(agent, x) for x in legal)})")
        raise ReplyError("garbage", f"agent {agent}: a move is an index or a name, got "
                         f"{_clip(json.dumps(m), 40)}")

    def end_lines(self, ranking: tuple[int, ...], scores: tuple[float, ...]) -> list[str]:
        return [_dumps({"type": "end", "ranking": [int(r) for r in ranking],
                        "scores": [_finite(s) for s in scores]})]


def parse_debug(debug: Any, agents: Sequence[int],
                legal: Mapping[int, Sequence[int]]) -> dict | None:
    """The reply's debug object kept in the plain shape the app and the
    replay hold: {"message": str, "visits": {agent: {move: n}}, "values":
    {agent: {move: v}}}. Anything else in it is dropped, never a failure:
    the moves stand on their own."""
    if not isinstance(debug, dict):
        return None
    out: dict[str, Any] = {}
    msg = debug.get("message")
    if isinstance(msg, str) and msg:
        out["message"] = "".join(c if c.isprintable() else " " for c in msg[:MAX_MESSAGE_CHARS])
    for key in ("visits", "values"):
        rows = debug.get(key)
        if not isinstance(rows, list):
            continue
        per: dict[str, dict[str, float]] = {}
        for a, row in zip(agents, rows):
            if not isinstance(row, list) or len(row) != len(legal[a]):
                continue
            vals = {}
            for m, v in zip(legal[a], row):
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    vals[str(m)] = float(v)
            if vals:
                per[str(a)] = vals
        if per:
            out[key] = per
    return out or None


def _clip(text: str, n: int = 80) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text[: n + 1])
    return text if len(text) <= n else text[:n] + "..."

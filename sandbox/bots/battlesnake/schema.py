"""The official Battlesnake game-state object (API version 1), read and
checked: what a /start, /move or /end request body holds, as plain frozen
dataclasses, with one-line reasons for whatever is wrong.

Two kinds of trouble are told apart, because a server answers them
differently:
  - MalformedState: the body is not a game-state object (not JSON, a field
    missing or of the wrong type, a body whose head is not next to its neck):
    HTTP 400 with the reason;
  - Unsupported: a well-formed state of a game we do not model (another
    ruleset, a map with hazards, a board or snake count past our limits):
    refused with the reason, and at /move still answered with a safe move.

Battlesnake's coordinates are the same as ours (native/src/games/snakes.c):
(0, 0) is the bottom-left cell and "up" is y + 1, so cells cross unchanged.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from ...native import InvalidArgument
from ...safetext import unsafe_char
from ...games.snakes.params import BATTLESNAKE_MAPS as MAPS

MOVES = ("up", "down", "left", "right")     # our move ids 0..3, in this order
MAX_SIDE = 25                               # our board limits (snakes.c)
MIN_SIDE = 5
MAX_SNAKES = 8                              # SBX_MAX_AGENTS
MAX_HEALTH = 100                            # the standard ruleset's full health
MAX_TURN = 1_000_000                        # the largest turn our state holds (snakes.c)
MAX_TEXT = 1024                             # ids, names, shouts: longer is refused
MAX_INT = 2**31 - 1                         # any integer field past +-this is refused
MAX_MINIMUM_FOOD = 10_000                   # more food than any board holds
MAX_HAZARD_DAMAGE = 1000                    # hazard_damage's range, +-, in our engine
MAX_SHRINK_EVERY = 1000                     # shrink_every's range in our engine
# the official rulesets and maps our snakes game models (params.py); a
# "squad" game whose squad settings are all off plays the standard rules
RULESETS = ("standard", "solo", "royale", "constrictor", "wrapped", "wrapped_constrictor")
WRAPPED = ("wrapped", "wrapped_constrictor")
SQUAD_SETTINGS = ("allowBodyCollisions", "sharedElimination", "sharedHealth", "sharedLength")
MAX_HAZARD_STACK = 100                      # layers on one cell (snakes_std.h)


class MalformedState(InvalidArgument):
    """Not an official game-state object: one line saying where and why."""


class Unsupported(InvalidArgument):
    """A game-state object of a game we do not model: one line saying what."""


@dataclass(frozen=True)
class Snake:
    id: str
    name: str
    health: int
    body: tuple[tuple[int, int], ...]      # head first
    latency: str = ""
    shout: str = ""
    squad: str = ""
    customizations: dict = field(default_factory=dict)

    @property
    def head(self) -> tuple[int, int]:
        return self.body[0]


@dataclass(frozen=True)
class GameState:
    game_id: str
    ruleset: str
    ruleset_version: str
    settings: dict                         # ruleset.settings as received
    map: str
    timeout: int                           # ms
    source: str
    turn: int
    width: int
    height: int
    food: tuple[tuple[int, int], ...]
    hazards: tuple[tuple[int, int], ...]
    snakes: tuple[Snake, ...]
    you: Snake

    @property
    def you_index(self) -> int:
        """Where `you` is among board.snakes (its agent number)."""
        for i, s in enumerate(self.snakes):
            if s.id == self.you.id:
                return i
        raise MalformedState(f"you: snake {self.you.id!r} is not on board.snakes")

    @property
    def food_spawn_chance(self) -> int:
        return self.settings.get("foodSpawnChance", 15)

    @property
    def minimum_food(self) -> int:
        return self.settings.get("minimumFood", 1)

    @property
    def hazard_damage(self) -> int:
        return self.settings.get("hazardDamagePerTurn", 14)

    @property
    def shrink_every(self) -> int:
        royale = self.settings.get("royale")
        return royale.get("shrinkEveryNTurns", 25) if isinstance(royale, dict) else 25

    @property
    def rules(self) -> str:
        """The ruleset our game plays: a squad game without squad rules is
        standard."""
        return "standard" if self.ruleset == "squad" else self.ruleset


# ------------------------------------------------------------------ reading
def parse_body(raw: bytes | str) -> Any:
    """JSON text → a Python value (MalformedState: not JSON, one line)."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, (bytes, bytearray)) else raw
    except UnicodeDecodeError as exc:
        raise MalformedState(f"body: not UTF-8 (byte {exc.start})") from None
    try:
        # NaN / Infinity are not JSON; the official engine never sends them
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise MalformedState(f"body: not JSON ({exc.msg} at line {exc.lineno} "
                             f"column {exc.colno})") from None
    except RecursionError:
        raise MalformedState("body: JSON nested too deeply") from None
    except MalformedState:
        raise
    except ValueError:           # an integer of thousands of digits (Python's own limit)
        raise MalformedState("body: a number with too many digits") from None


def _no_constant(name: str) -> Any:
    raise MalformedState(f"body: {name} is not a JSON number")


def _get(obj: dict, key: str, where: str, kind: type | tuple, required: bool = True,
         default: Any = None) -> Any:
    if key not in obj:
        if required:
            raise MalformedState(f"{where}{key}: missing")
        return default
    v = obj[key]
    ok = isinstance(v, kind) and not (isinstance(v, bool) and kind in (int, (int, float)))
    if not ok:
        want = {int: "an integer", str: "a string", dict: "an object", list: "an array"}.get(
            kind if isinstance(kind, type) else int, "a number")
        raise MalformedState(f"{where}{key}: expected {want}, got {_type(v)}")
    if isinstance(v, str) and len(v) > MAX_TEXT:
        raise MalformedState(f"{where}{key}: {len(v)} characters, at most {MAX_TEXT}")
    if isinstance(v, int) and not isinstance(v, bool) and not -MAX_INT <= v <= MAX_INT:
        raise MalformedState(f"{where}{key}: {_number(v)} is out of range")
    return v


def _number(v: int) -> str:
    text = str(v)
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} digits)"


def _in_range(v: int, lo: int, hi: int, where: str) -> int:
    if not lo <= v <= hi:
        raise MalformedState(f"{where}: {_number(v)}, expected {lo}..{hi}")
    return v


def _id(obj: dict, key: str, where: str) -> str:
    """An id: it names a game or a snake in the log and the replay's file
    name, so a control or bidi character in it is refused."""
    v = _get(obj, key, where, str)
    why = unsafe_char(v)
    if why:
        raise MalformedState(f"{where}{key}: has {why}")
    return v


def _type(v: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "null"}.get(type(v), type(v).__name__)


def _point(v: Any, where: str) -> tuple[int, int]:
    if not isinstance(v, dict):
        raise MalformedState(f"{where}: expected an object {{x, y}}, got {_type(v)}")
    return (_get(v, "x", f"{where}.", int), _get(v, "y", f"{where}.", int))


def _points(obj: dict, key: str, where: str, required: bool = True,
            limit: int = 10_000) -> tuple[tuple[int, int], ...]:
    arr = _get(obj, key, where, list, required, [])
    if len(arr) > limit:
        raise MalformedState(f"{where}{key}: {len(arr)} entries, more than a board holds")
    return tuple(_point(p, f"{where}{key}[{i}]") for i, p in enumerate(arr))


def _snake(v: Any, where: str, board: tuple[int, int] | None) -> Snake:
    """board: (width, height) of a wrapped game (a body may cross an edge),
    None for the others; a game we do not model is not checked here (its
    bodies follow rules we do not know: check_supported says why not)."""
    if not isinstance(v, dict):
        raise MalformedState(f"{where}: expected an object, got {_type(v)}")
    w = where + "."
    sid = _id(v, "id", w)
    name = _get(v, "name", w, str, False, "")
    health = _in_range(_get(v, "health", w, int), 0, MAX_HEALTH, f"{w}health")
    body = _points(v, "body", w)
    if not body:
        raise MalformedState(f"{w}body: empty; a snake has at least its head")
    if "head" in v and _point(v["head"], f"{w}head") != body[0]:
        raise MalformedState(f"{w}head: {_point(v['head'], w + 'head')} is not body[0] {body[0]}")
    if "length" in v and _get(v, "length", w, int) != len(body):
        raise MalformedState(f"{w}length: {v['length']}, but the body has {len(body)} cells")
    for k in range(1, len(body) if board != () else 0):
        (ax, ay), (bx, by) = body[k - 1], body[k]
        dx, dy = abs(ax - bx), abs(ay - by)
        if board:
            dx, dy = min(dx, abs(board[0] - dx)), min(dy, abs(board[1] - dy))
        if dx + dy > 1:
            raise MalformedState(f"{w}body: cells {k - 1} {body[k - 1]} and {k} {body[k]} "
                                 "are not neighbours")
    latency = v.get("latency", "")
    if isinstance(latency, (int, float)) and not isinstance(latency, bool):
        latency = str(latency)       # some engines send a number
    if not isinstance(latency, str):
        raise MalformedState(f"{w}latency: expected a string, got {_type(latency)}")
    shout = _get(v, "shout", w, str, False, "")
    squad = _get(v, "squad", w, str, False, "")
    custom = _get(v, "customizations", w, dict, False, {})
    return Snake(sid, name, health, body, latency[:MAX_TEXT], shout, squad, dict(custom))


def read_state(data: Any) -> GameState:
    """A decoded request body → GameState (MalformedState with the field)."""
    if not isinstance(data, dict):
        raise MalformedState(f"body: expected a game-state object, got {_type(data)}")
    game = _get(data, "game", "", dict)
    gid = _id(game, "id", "game.")
    rs = _get(game, "ruleset", "game.", dict)
    rname = _get(rs, "name", "game.ruleset.", str)
    rver = _get(rs, "version", "game.ruleset.", str, False, "")
    settings = _get(rs, "settings", "game.ruleset.", dict, False, {})
    gmap = _get(game, "map", "game.", str, False, "standard") or "standard"
    timeout = _get(game, "timeout", "game.", int)
    source = _get(game, "source", "game.", str, False, "")
    turn = _get(data, "turn", "", int)
    board = _get(data, "board", "", dict)
    width = _get(board, "width", "board.", int)
    height = _get(board, "height", "board.", int)
    food = _points(board, "food", "board.")
    hazards = _points(board, "hazards", "board.", required=False)
    snakes_raw = _get(board, "snakes", "board.", list)
    if len(snakes_raw) > 64:
        raise MalformedState(f"board.snakes: {len(snakes_raw)} snakes, more than any game has")
    # bodies are checked by the rules of the game they come from: a wrapped
    # body may cross an edge; a game we do not model is refused as such by
    # check_supported, not for a body its own rules allow
    modelled = (rname in RULESETS or rname == "squad") and gmap in MAPS
    shape = (width, height) if rname in WRAPPED else None if modelled else ()
    snakes = tuple(_snake(s, f"board.snakes[{i}]", shape) for i, s in enumerate(snakes_raw))
    you = _snake(_get(data, "you", "", dict), "you", shape)
    if not 1 <= timeout <= 60_000:
        raise MalformedState(f"game.timeout: {timeout} ms, expected 1..60000")
    if turn < 0:
        raise MalformedState(f"turn: {turn}, expected >= 0")
    _in_range(width, 1, MAX_INT, "board.width")
    _in_range(height, 1, MAX_INT, "board.height")
    for k, lo, hi in (("foodSpawnChance", 0, 100), ("minimumFood", 0, MAX_MINIMUM_FOOD),
                      ("hazardDamagePerTurn", -MAX_HAZARD_DAMAGE, MAX_HAZARD_DAMAGE)):
        if k in settings:
            v = settings[k]
            if isinstance(v, bool) or not isinstance(v, int):
                raise MalformedState(f"game.ruleset.settings.{k}: expected an integer, "
                                     f"got {_type(v)}")
            _in_range(v, lo, hi, f"game.ruleset.settings.{k}")
    for k in ("hazardMap", "hazardMapAuthor"):
        _get(settings, k, "game.ruleset.settings.", str, False)
    royale = _get(settings, "royale", "game.ruleset.settings.", dict, False, {})
    if "shrinkEveryNTurns" in royale:
        v = royale["shrinkEveryNTurns"]
        if isinstance(v, bool) or not isinstance(v, int):
            raise MalformedState("game.ruleset.settings.royale.shrinkEveryNTurns: expected an "
                                 f"integer, got {_type(v)}")
        _in_range(v, 0, MAX_SHRINK_EVERY, "game.ruleset.settings.royale.shrinkEveryNTurns")
    squad = _get(settings, "squad", "game.ruleset.settings.", dict, False, {})
    for k in SQUAD_SETTINGS:
        if k in squad and not isinstance(squad[k], bool):
            raise MalformedState(f"game.ruleset.settings.squad.{k}: expected true or false, "
                                 f"got {_type(squad[k])}")
    ids = [s.id for s in snakes]
    if len(set(ids)) != len(ids):
        raise MalformedState("board.snakes: two snakes have one id")
    # `you` need not be on the board: at /end an eliminated snake is sent
    # as `you` but is no longer listed (GameState.you_index says so at /move)
    return GameState(gid, rname, rver, dict(settings), gmap, timeout, source, turn, width,
                     height, food, hazards, snakes, you)


def check_supported(st: GameState) -> None:
    """Unsupported (one line) unless our snakes game models the game (its
    ruleset, map and settings; the board a map needs is C's to say, at
    convert.position)."""
    if st.ruleset == "squad":
        squad = st.settings.get("squad") or {}
        on = [k for k in SQUAD_SETTINGS if squad.get(k)]
        if on:
            raise Unsupported(f"ruleset 'squad' with {on[0]} is not modelled (a squad game "
                              "without squad settings plays the standard rules)")
    elif st.ruleset not in RULESETS:
        raise Unsupported(f"ruleset {st.ruleset!r} is not modelled (we model "
                          + ", ".join(RULESETS) + ")")
    if st.map not in MAPS:
        raise Unsupported(f"map {st.map!r} is not modelled (we model " + ", ".join(MAPS) + ")")
    if st.hazards and st.rules != "royale" and st.map in ("standard", "empty"):
        raise Unsupported(f"board.hazards: {len(st.hazards)} hazard cells on map {st.map!r} "
                          f"with ruleset {st.rules!r}, which never place any")
    stack = max((st.hazards.count(c) for c in set(st.hazards)), default=0)
    if stack > MAX_HAZARD_STACK:
        raise Unsupported(f"board.hazards: {stack} layers on one cell; we model "
                          f"1..{MAX_HAZARD_STACK}")
    dmg, every = st.hazard_damage, st.shrink_every
    if not -1000 <= dmg <= 1000 or not 1 <= every <= 1000:
        raise Unsupported(f"hazardDamagePerTurn {dmg} / royale.shrinkEveryNTurns {every}: we "
                          "model -1000..1000 and 1..1000")
    if not (MIN_SIDE <= st.width <= MAX_SIDE and MIN_SIDE <= st.height <= MAX_SIDE):
        raise Unsupported(f"board {st.width}x{st.height}: we model {MIN_SIDE}..{MAX_SIDE} "
                          "cells a side")
    if not 1 <= len(st.snakes) <= MAX_SNAKES:
        raise Unsupported(f"board.snakes: {len(st.snakes)} snakes; we model 1..{MAX_SNAKES}")
    if st.turn > MAX_TURN:
        raise Unsupported(f"turn: {st.turn}; we model turns 0..{MAX_TURN}")
    fsc, mf = st.food_spawn_chance, st.minimum_food
    if not 0 <= fsc <= 100 or not 0 <= mf <= 100:
        raise Unsupported(f"foodSpawnChance {fsc} / minimumFood {mf}: we model 0..100")
    W, H = st.width, st.height

    def inside(p: tuple[int, int]) -> bool:
        return 0 <= p[0] < W and 0 <= p[1] < H
    seen: set[tuple[int, int]] = set()
    for i, h in enumerate(st.hazards):
        # snail_mode keeps the tails to come at y + height
        if not inside(h) and not (st.map == "snail_mode" and inside((h[0], h[1] - H))):
            raise MalformedState(f"board.hazards[{i}]: {h} is off the {W}x{H} board")
    for i, f in enumerate(st.food):
        if not inside(f):
            raise MalformedState(f"board.food[{i}]: {f} is off the {W}x{H} board")
        if f in seen:
            raise MalformedState(f"board.food[{i}]: {f} is listed twice")
        seen.add(f)
    for i, s in enumerate(st.snakes):
        if not 1 <= s.health <= MAX_HEALTH:
            raise Unsupported(f"board.snakes[{i}].health: {s.health}; a snake on the board "
                              f"has 1..{MAX_HEALTH}")
        for k, p in enumerate(s.body):
            if not inside(p):
                raise MalformedState(f"board.snakes[{i}].body[{k}]: {p} is off the "
                                     f"{W}x{H} board")


def move_name(move: int) -> str:
    return MOVES[move]


def move_id(name: Any) -> int | None:
    """An answer's move → our move id (None: not one of the four)."""
    return MOVES.index(name) if isinstance(name, str) and name in MOVES else None


def is_finite(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

"""Decoded pods state (the export layout documented in native/include/sbx.h),
and its inverse for tests and tools that set up a position by hand."""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, replace
from typing import Sequence

EXPORT_VERSION = 1
HEADER = 14
POD_WORDS = 12
FLAG_SHIELD = 1
FLAG_BOOST = 2
MAP_W, MAP_H = 16000, 9000
CP_RADIUS = 600
POD_RADIUS = 400
BOOST_THRUST = 650


def _angle(lo: int, hi: int) -> float:
    return struct.unpack("<d", struct.pack("<II", lo & 0xFFFFFFFF, hi & 0xFFFFFFFF))[0]


def _angle_words(angle: float) -> tuple[int, int]:
    lo, hi = struct.unpack("<ii", struct.pack("<d", float(angle)))
    return lo, hi


@dataclass(frozen=True)
class Pod:
    x: int
    y: int
    vx: int
    vy: int
    angle: float        # degrees, 0 east, 90 south (y grows downwards)
    next_cp: int
    passed: int         # checkpoints passed since the start
    shield: int         # turns the shield still blocks thrust
    boost_used: bool
    last_thrust: int    # thrust applied on the last turn (650 for a boost)
    flags: int          # FLAG_SHIELD / FLAG_BOOST: what it did on the last turn

    @property
    def shielded(self) -> bool:
        return bool(self.flags & FLAG_SHIELD)

    @property
    def boosted(self) -> bool:
        return bool(self.flags & FLAG_BOOST)


@dataclass(frozen=True)
class PodsView:
    players: int
    per_player: int
    laps: int
    turn: int
    max_turns: int
    timeout: int
    max_thrust: int
    winner: int                                  # player, -1 while racing
    rotations: int                               # the move set: 1 | 3
    thrusts: int                                 # 1 | 2 | 3 thrust levels
    boost: bool                                  # the boost move is on
    shield: bool                                 # the shield move is on
    checkpoints: tuple[tuple[int, int], ...]
    clock: tuple[int, ...]                       # per player: turns left
    out_turn: tuple[int, ...]                    # per player: -1 while in
    pods: tuple[Pod, ...]                        # agent order

    @property
    def num_pods(self) -> int:
        return len(self.pods)

    @property
    def total_cps(self) -> int:
        return self.laps * len(self.checkpoints)

    def player_of(self, agent: int) -> int:
        return agent // self.per_player

    def lap(self, agent: int) -> int:
        """The lap the pod is on, 1-based (laps + 1 once finished)."""
        return self.pods[agent].passed // len(self.checkpoints) + 1

    @property
    def over(self) -> bool:
        if self.winner >= 0 or self.turn >= self.max_turns:
            return True
        left = sum(1 for t in self.out_turn if t < 0)
        return left == 0 if self.players == 1 else left <= 1

    def with_pod(self, agent: int, **changes) -> "PodsView":
        pods = list(self.pods)
        pods[agent] = replace(pods[agent], **changes)
        return replace(self, pods=tuple(pods))


def decode_pods(words: Sequence[int]) -> PodsView:
    w = [int(x) for x in words]
    if len(w) < HEADER or w[0] != EXPORT_VERSION:
        raise ValueError("not a pods export (version word mismatch)")
    players, per, laps, n_cp, turn, max_turns, timeout, max_thrust, winner = w[1:10]
    rotations, thrusts, boost, shield = w[10:HEADER]
    want = HEADER + 2 * n_cp + 2 * players + POD_WORDS * players * per
    if len(w) != want:
        raise ValueError(f"pods export: {len(w)} words, want {want}")
    at = HEADER
    cps = tuple((w[at + 2 * i], w[at + 2 * i + 1]) for i in range(n_cp))
    at += 2 * n_cp
    clock = tuple(w[at + 2 * p] for p in range(players))
    out = tuple(w[at + 2 * p + 1] for p in range(players))
    at += 2 * players
    pods = []
    for i in range(players * per):
        r = w[at + POD_WORDS * i: at + POD_WORDS * (i + 1)]
        pods.append(Pod(r[0], r[1], r[2], r[3], _angle(r[4], r[5]), r[6], r[7], r[8],
                        bool(r[9]), r[10], r[11]))
    return PodsView(players, per, laps, turn, max_turns, timeout, max_thrust, winner, rotations,
                    thrusts, bool(boost), bool(shield), cps, clock, out, tuple(pods))


def encode_pods(v: PodsView) -> list[int]:
    """The export words of a view (decode_pods's inverse), for setting up a
    position: Game.import_state(encode_pods(view.with_pod(0, x=...)))."""
    w = [EXPORT_VERSION, v.players, v.per_player, v.laps, len(v.checkpoints), v.turn,
         v.max_turns, v.timeout, v.max_thrust, v.winner, v.rotations, v.thrusts, int(v.boost),
         int(v.shield)]
    for x, y in v.checkpoints:
        w += [x, y]
    for p in range(v.players):
        w += [v.clock[p], v.out_turn[p]]
    for q in v.pods:
        w += [q.x, q.y, q.vx, q.vy, *_angle_words(q.angle), q.next_cp, q.passed, q.shield,
              int(q.boost_used), q.last_thrust, q.flags]
    return w


BOOST_MOVE = "boost"
SHIELD_MOVE = "shield"
_ROTS = {1: (0.0,), 3: (-18.0, 0.0, 18.0)}


def move_table(view: PodsView) -> list[tuple[float, int | str]]:
    """The moves of this game, by id: (rotation in degrees, thrust) or
    (0, "boost") / (0, "shield"); the order of pods.c's build_moves
    (rotations x thrust levels, then boost, then shield)."""
    levels = {1: (view.max_thrust,), 2: (0, view.max_thrust),
              3: (0, view.max_thrust // 2, view.max_thrust)}[view.thrusts]
    table: list[tuple[float, int | str]] = [(r, t) for r in _ROTS[view.rotations] for t in levels]
    if view.boost:
        table.append((0.0, BOOST_MOVE))
    if view.shield:
        table.append((0.0, SHIELD_MOVE))
    return table


def find_move(view: PodsView, rotation: float, thrust: int | str) -> int | None:
    """The id of a move, or None if this game's move set has no such move."""
    for i, (r, t) in enumerate(move_table(view)):
        if r == rotation and t == thrust:
            return i
    return None


def heading_base(view: PodsView, agent: int) -> float:
    """The heading a move's rotation is added to: the pod's angle, or on the
    very first turn the direction of its next checkpoint (RULES §3)."""
    q = view.pods[agent]
    if view.turn == 0:
        cx, cy = view.checkpoints[q.next_cp]
        return math.degrees(math.atan2(cy - q.y, cx - q.x)) % 360.0
    return q.angle

"""The scenario's [game_params] for `pods` (ranges as native/src/games/pods.c)."""
from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, StrictInt, field_validator, model_validator

from ..base import GameParams

MAX_CPS = 8
MAP_W, MAP_H = 16000, 9000
MIN_GAP = 1200          # custom checkpoints: centres at least this far apart (pods.c)


class PodsGameParams(GameParams):
    players: int = Field(2, ge=1, le=4, description="1: a time trial against the clock")
    pods_per_player: int = Field(2, ge=1, le=2, description="agents a*K..a*K+K-1 are player "
                                                            "a's pods (K = pods_per_player)")
    laps: int = Field(3, ge=1, le=10)
    starts: Literal["spread", "referee"] = Field(
        "spread", description="the start line: players' pods alternating 1100 apart "
                              "(spread), or Coders Strike Back's referee's layout (pod k "
                              "of player p at (-1)^(k+1) * (500 + 1000p))")
    map: Literal["seeded", "oval", "zigzag", "hairpin", "star", "custom"] = Field(
        "seeded", description="a map drawn from map_seed, a fixed one, or custom (the "
                              "checkpoints' list)")
    map_seed: int = Field(1, ge=0, le=2**62, description="the seeded map's generator seed")
    checkpoints: int | list[tuple[StrictInt, StrictInt]] = Field(
        3, description="fewest checkpoints of a seeded map (2..8), or a custom map: "
                       "[[x, y], ...], 2..8 points inside the 16000x9000 map, the first "
                       "the start and finish")
    checkpoints_extra: int = Field(3, ge=0, le=6, description="a seeded map has checkpoints.."
                                                             "checkpoints+extra (at most 8)")
    max_thrust: int = Field(200, ge=1, le=650, description="full thrust (half: max_thrust // 2)")
    max_turns: int = Field(500, ge=1, le=100_000, description="the turn cap")
    timeout: int = Field(100, ge=1, le=100_000,
                         description="turns a player has to pass its next checkpoint")
    rotations: int = Field(3, ge=1, le=3, description="1 {0} | 3 {-18,0,+18} degrees")
    thrusts: int = Field(3, ge=1, le=3, description="1 {max} | 2 {0,max} | 3 {0,max/2,max}")
    boost: int = Field(1, ge=0, le=1, description="the BOOST move (650 once per pod)")
    shield: int = Field(1, ge=0, le=1, description="the SHIELD move (mass x10, no thrust 4 turns)")
    cp_value: float = Field(30000.0, ge=1000.0, le=1e7,
                            description="evaluation: value of one checkpoint passed")
    w_opponent: float = Field(1.0, ge=0.0, le=10.0,
                              description="evaluation: weight of the best opponent's progress")
    w_block: float = Field(0.3, ge=0.0, le=10.0, description="evaluation: blocker's distance "
                                                             "to the opponent leader's checkpoint")
    w_angle: float = Field(10.0, ge=0.0, le=1000.0,
                           description="evaluation: per degree of the blocker's heading error")
    w_heading: float = Field(80.0, ge=0.0, le=1000.0,
                             description="evaluation: per degree of the leader's heading error "
                                         "to its aim")
    w_speed: float = Field(3.0, ge=0.0, le=100.0,
                           description="evaluation: times the leader's speed toward its next "
                                       "checkpoint")
    lineup: float = Field(0.0, ge=0.0, le=20000.0,
                          description="evaluation: within this distance of its next checkpoint "
                                      "the leader aims at the one after")

    @field_validator("checkpoints", mode="before")
    @classmethod
    def _points_shape(cls, v):
        # one message for a malformed list, not the union's two
        if isinstance(v, (list, tuple)):
            for i, p in enumerate(v):
                if (not isinstance(p, (list, tuple)) or len(p) != 2
                        or any(isinstance(c, bool) or not isinstance(c, int) for c in p)):
                    raise ValueError(f"point {i} is not [x, y] with whole numbers (got {p!r})")
            return [tuple(p) for p in v]
        return v

    @field_validator("checkpoints")
    @classmethod
    def _checkpoints(cls, v):
        if isinstance(v, bool):
            raise ValueError("a count 2..8 or a list of [x, y] points")
        if isinstance(v, int):
            if not 2 <= v <= MAX_CPS:
                raise ValueError(f"{v} is not a count in 2..{MAX_CPS}")
            return v
        if not 2 <= len(v) <= MAX_CPS:
            raise ValueError(f"{len(v)} points, a custom map has 2..{MAX_CPS}")
        for i, (x, y) in enumerate(v):
            if not (0 <= x <= MAP_W and 0 <= y <= MAP_H):
                raise ValueError(f"point {i} ({x}, {y}) is outside the {MAP_W}x{MAP_H} map")
            for j, (x2, y2) in enumerate(v[:i]):
                if math.hypot(x - x2, y - y2) < MIN_GAP:
                    raise ValueError(f"points {j} and {i} are closer than {MIN_GAP} (their "
                                     f"circles overlap)")
        return v

    @model_validator(mode="after")
    def _moves_fit(self):
        if self.rotations == 2:
            raise ValueError("rotations: 2 is not 1 or 3")
        custom = isinstance(self.checkpoints, list)
        if self.map == "custom" and not custom:
            raise ValueError("map: custom needs checkpoints = [[x, y], ...]")
        if custom and self.map not in ("custom", "seeded"):
            raise ValueError(f"checkpoints: a list of points is a custom map, not map = "
                             f"{self.map!r}")
        if custom and "checkpoints_extra" in self.model_fields_set:
            raise ValueError("checkpoints_extra: only for a seeded map, not a list of points")
        return self

    def c_params(self, full: bool = False) -> str:
        """The list of points as one token, x:y/x:y/... (pods.c reads it)."""
        from ...native.game import format_params
        d = self.model_dump(exclude_unset=not full)
        if isinstance(d.get("checkpoints"), list):
            d["checkpoints"] = "/".join(f"{x}:{y}" for x, y in d["checkpoints"])
        return format_params(d)

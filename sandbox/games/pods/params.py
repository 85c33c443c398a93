"""The scenario's [game_params] for `pods` (ranges as native/src/games/pods.c)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ..base import GameParams


class PodsGameParams(GameParams):
    players: int = Field(2, ge=1, le=4, description="1: a time trial against the clock")
    pods_per_player: int = Field(2, ge=1, le=2, description="agents a*K..a*K+K-1 are player "
                                                            "a's pods (K = pods_per_player)")
    laps: int = Field(3, ge=1, le=10)
    map: Literal["seeded", "oval", "zigzag", "hairpin", "star"] = Field(
        "seeded", description="a map drawn from map_seed, or a fixed one")
    map_seed: int = Field(1, ge=0, le=2**62, description="the seeded map's generator seed")
    checkpoints: int = Field(3, ge=2, le=8, description="fewest checkpoints of a seeded map")
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

    @model_validator(mode="after")
    def _moves_fit(self):
        if self.rotations == 2:
            raise ValueError("rotations: 2 is not 1 or 3")
        return self

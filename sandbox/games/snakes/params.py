"""The scenario's [game_params] for `snakes` (ranges as native/src/games/snakes.c)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..base import GameParams


class SnakesGameParams(GameParams):
    ruleset: Literal["standard"] = "standard"
    width: int = Field(11, ge=5, le=25, description="board width")
    height: int = Field(11, ge=5, le=25, description="board height")
    snakes: int = Field(4, ge=1, le=8, description="number of snakes")
    food_spawn_chance: int = Field(15, ge=0, le=100, description="percent per turn")
    minimum_food: int = Field(1, ge=0, le=100, description="food kept on the board")
    initial_food: int = Field(1, ge=0, le=1, description="1: RULES.md start food; 0: none")
    max_turns: int = Field(0, ge=0, le=100_000, description="turn limit, 0 = none")
    max_health: int = Field(100, ge=1, le=1000)
    w_alive: float = Field(1.0, ge=-1000, le=1000, description="evaluation weight")
    w_dead: float = Field(-1.0, ge=-1000, le=1000, description="evaluation weight")
    w_outlived: float = Field(0.5, ge=-1000, le=1000, description="evaluation weight")
    w_length: float = Field(0.01, ge=-1000, le=1000, description="evaluation weight")
    w_health: float = Field(0.1, ge=-1000, le=1000, description="evaluation weight")
    w_food: float = Field(0.3, ge=-1000, le=1000, description="evaluation weight")
    w_space: float = Field(0.5, ge=-1000, le=1000, description="evaluation weight")

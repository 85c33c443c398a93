"""The scenario's [game_params] for `depthbias` (ranges as native/src/games/depthbias.c).

Each action has a range of episode lengths (turns, the choice turn included)
and a per-turn reward:

    [game_params]
    siege_min = 13          # 1 <= min <= max <= 60
    siege_max = 30
    siege_points = 7        # 1..1000

The length bounds are checked by a validator rather than Field(ge=, le=):
each bound is only valid together with its partner (sprint_min = 60 needs
sprint_max = 60, and the default sprint_max is 5), so the registry-wide
contract test, which tries each bound alone, cannot probe them;
tests/games/test_depthbias_rules.py tries every bound against C with a
partner that allows it. The messages read like pydantic's own.
"""
from __future__ import annotations

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ..base import GameParams

ACTIONS = ("sprint", "march", "siege")
MAX_LEN = 60
MAX_POINTS = 1000


class DepthBiasGameParams(GameParams):
    sprint_min: int = Field(2, description="fewest turns a sprint lasts (1..60)")
    sprint_max: int = Field(5, description="most turns a sprint lasts (min..60)")
    sprint_points: int = Field(10, ge=1, le=MAX_POINTS, description="points per turn of a sprint")
    march_min: int = Field(6, description="fewest turns a march lasts (1..60)")
    march_max: int = Field(10, description="most turns a march lasts (min..60)")
    march_points: int = Field(8, ge=1, le=MAX_POINTS, description="points per turn of a march")
    siege_min: int = Field(13, description="fewest turns a siege lasts (1..60)")
    siege_max: int = Field(18, description="most turns a siege lasts (min..60)")
    siege_points: int = Field(7, ge=1, le=MAX_POINTS, description="points per turn of a siege")

    @field_validator("sprint_min", "sprint_max", "march_min", "march_max", "siege_min",
                     "siege_max")
    @classmethod
    def _length(cls, v: int) -> int:
        if v < 1:
            raise PydanticCustomError("greater_than_equal",
                                      "Input should be greater than or equal to {ge}", {"ge": 1})
        if v > MAX_LEN:
            raise PydanticCustomError("less_than_equal",
                                      "Input should be less than or equal to {le}",
                                      {"le": MAX_LEN})
        return v

    @model_validator(mode="after")
    def _ordered(self) -> "DepthBiasGameParams":
        for a in ACTIONS:
            lo, hi = getattr(self, f"{a}_min"), getattr(self, f"{a}_max")
            if lo > hi:
                raise ValueError(f"{a}_min={lo} is greater than {a}_max={hi} (need min <= max)")
        return self

    def ranges(self) -> tuple[tuple[int, int, int], ...]:
        """(min, max, points) per action, sprint first."""
        return tuple((getattr(self, f"{a}_min"), getattr(self, f"{a}_max"),
                      getattr(self, f"{a}_points")) for a in ACTIONS)

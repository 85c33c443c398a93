"""The scenario's [game_params] for `snakes` (ranges as native/src/games/snakes.c
and, for ruleset "snakebyte", native/src/games/snakebyte.c).

One model for both rulesets. Fields only one ruleset knows are refused for
the other; a snakebyte-only field given without `ruleset` selects snakebyte.
`height`, `max_turns` and `w_length` mean the same thing in both but have
ruleset-dependent defaults and ranges, so they default to None (the
ruleset's own default, C's)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ..base import GameParams

STANDARD_ONLY = ("width", "snakes", "food_spawn_chance", "minimum_food", "initial_food",
                 "max_health", "w_alive", "w_dead", "w_outlived", "w_health", "w_food", "w_space")
SNAKEBYTE_ONLY = ("map_seed", "snakes_per_player", "map", "w_loss", "w_apple", "w_win")
# the ruleset defaults of the shared fields (C's)
SHARED_DEFAULTS = {"standard": {"height": 11, "max_turns": 0, "w_length": 0.01},
                   "snakebyte": {"height": 0, "max_turns": 200, "w_length": 1.0}}


class SnakesGameParams(GameParams):
    # a SnakeByte map fixes the grid its seed and height would draw
    LAYOUT_FILES = {"map": ("map_seed", "height")}
    ruleset: Literal["standard", "snakebyte"] = Field(
        "standard", description="standard (Battlesnake) or snakebyte (gravity, 2 teams)")
    width: int = Field(11, ge=5, le=25, description="board width (standard)")
    height: int | None = Field(None, ge=5, le=25,
                               description="board height: standard 5..25 (11); snakebyte "
                                           "10..24, unset = drawn from map_seed")
    snakes: int = Field(4, ge=1, le=8, description="number of snakes (standard)")
    food_spawn_chance: int = Field(15, ge=0, le=100, description="percent per turn")
    minimum_food: int = Field(1, ge=0, le=100, description="food kept on the board")
    initial_food: int = Field(1, ge=0, le=1, description="1: RULES.md start food; 0: none")
    max_turns: int | None = Field(None, ge=0, le=100_000,
                                  description="turn limit: standard 0 = none (default); "
                                              "snakebyte 1..100000 (200)")
    max_health: int = Field(100, ge=1, le=1000)
    w_alive: float = Field(1.0, ge=-1000, le=1000, description="evaluation weight")
    w_dead: float = Field(-1.0, ge=-1000, le=1000, description="evaluation weight")
    w_outlived: float = Field(0.5, ge=-1000, le=1000, description="evaluation weight")
    w_length: float | None = Field(None, ge=-1000, le=1000,
                                   description="evaluation weight (standard 0.01, snakebyte 1)")
    w_health: float = Field(0.1, ge=-1000, le=1000, description="evaluation weight")
    w_food: float = Field(0.3, ge=-1000, le=1000, description="evaluation weight")
    w_space: float = Field(0.5, ge=-1000, le=1000, description="evaluation weight")
    # snakebyte
    map_seed: int = Field(1, ge=0, le=2**62, description="snakebyte: the map generator's seed")
    snakes_per_player: int = Field(2, ge=2, le=4, description="snakebyte: snakes a team")
    map: str | None = Field(None, description="snakebyte: a hand-made map, a file (mapfile.py) "
                                              "or a bundled name (assets/maps/snakebyte); "
                                              "the generator's keys are then ignored")
    w_loss: float = Field(0.2, ge=-1000, le=1000, description="snakebyte evaluation weight")
    w_apple: float = Field(0.5, ge=-1000, le=1000, description="snakebyte evaluation weight")
    w_win: float = Field(10.0, ge=-1000, le=1000, description="snakebyte evaluation weight")

    @model_validator(mode="before")
    @classmethod
    def _ruleset_from_keys(cls, data: Any) -> Any:
        if isinstance(data, dict) and "ruleset" not in data \
                and any(k in data for k in SNAKEBYTE_ONLY):
            data = {**data, "ruleset": "snakebyte"}
        return data

    @model_validator(mode="after")
    def _fields_of_the_ruleset(self):
        given = self.model_fields_set
        other = SNAKEBYTE_ONLY if self.ruleset == "standard" else STANDARD_ONLY
        wrong = [k for k in other if k in given]
        if wrong:
            raise ValueError(f"{wrong[0]}: not a parameter of ruleset {self.ruleset!r}")
        if self.ruleset == "snakebyte":
            if self.height is not None and not 10 <= self.height <= 24:
                raise ValueError(f"height: {self.height}, a snakebyte map is 10..24 rows "
                                 "(unset: drawn from map_seed)")
            if self.max_turns is not None and self.max_turns < 1:
                raise ValueError("max_turns: a snakebyte game lasts 1..100000 turns")
            if self.map is not None:
                # a map fixes the grid: a generator seed or height beside it
                # was silently dropped
                clash = [k for k in ("map_seed", "height") if k in given]
                if clash:
                    raise ValueError(f"{clash[0]}: the map gives the grid; remove one of them")
                from .mapfile import load_map_file, resolve_map
                load_map_file(resolve_map(self.map))    # a bad file: refused here, one line
        return self

    def c_params(self, full: bool = False) -> str:
        from ...native.game import format_params
        names = [k for k in type(self).model_fields
                 if k not in (SNAKEBYTE_ONLY if self.ruleset == "standard" else STANDARD_ONLY)
                 and k != "map"]
        given = self.model_fields_set
        d: dict[str, Any] = {}
        for k in names:
            if not full and k not in given:
                continue
            v = getattr(self, k)
            if v is None:
                v = SHARED_DEFAULTS[self.ruleset][k]
            d[k] = v
        if self.ruleset == "snakebyte":
            d["ruleset"] = "snakebyte"
            d = {"ruleset": "snakebyte", **d}
            if self.map is not None:
                from .mapfile import load_map_file, resolve_map, map_params
                for k in ("map_seed", "height"):
                    d.pop(k, None)
                d.update(map_params(load_map_file(resolve_map(self.map))))
        return format_params(d)

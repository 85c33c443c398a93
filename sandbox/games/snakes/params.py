"""The scenario's [game_params] for `snakes` (ranges as native/src/games/snakes.c
and, for ruleset "snakebyte", native/src/games/snakebyte.c).

One model for the Battlesnake rulesets (standard, solo, royale, constrictor,
wrapped, wrapped_constrictor) and snakebyte. Fields only one family knows
are refused for the other; a snakebyte-only field given without `ruleset`
selects snakebyte. `map` is shared: a Battlesnake map's name (BATTLESNAKE_MAPS)
for the Battlesnake rulesets, a map file or bundled name for snakebyte (a
`map` that is not a Battlesnake map's name selects snakebyte).
`height`, `max_turns` and `w_length` mean the same thing in both but have
ruleset-dependent defaults and ranges, so they default to None (the
ruleset's own default, C's)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ..base import GameParams

STANDARD_ONLY = ("width", "snakes", "food_spawn_chance", "minimum_food", "initial_food",
                 "hazard_damage", "shrink_every",
                 "max_health", "w_alive", "w_dead", "w_outlived", "w_health", "w_food", "w_space")
SNAKEBYTE_ONLY = ("map_seed", "snakes_per_player", "w_loss", "w_apple", "w_win")
# the official rulesets and the official maps we model (snakes.c, snakes_maps.c)
BATTLESNAKE_RULESETS = ("standard", "solo", "royale", "constrictor", "wrapped",
                        "wrapped_constrictor")
BATTLESNAKE_MAPS = ("standard", "empty", "royale", "arcade_maze", "healing_pools", "sinkholes",
                    "hz_castle_wall", "hz_castle_wall_lg", "hz_castle_wall_xl", "hz_columns",
                    "hz_expand_box", "hz_expand_scatter", "hz_grow_box", "hz_hazard_pits",
                    "hz_inner_wall", "hz_islands_bridges", "hz_islands_bridges_lg", "hz_rings",
                    "hz_rivers_bridges", "hz_rivers_bridges_lg", "hz_rivers_bridges_xl",
                    "hz_scatter", "hz_spiral", "snail_mode")
# the ruleset defaults of the shared fields (C's)
SHARED_DEFAULTS = {"standard": {"height": 11, "max_turns": 0, "w_length": 0.01},
                   "snakebyte": {"height": 0, "max_turns": 200, "w_length": 1.0}}


def family(ruleset: str) -> str:
    """"standard" for every Battlesnake ruleset, else the ruleset."""
    return "standard" if ruleset in BATTLESNAKE_RULESETS else ruleset


class SnakesGameParams(GameParams):
    # a SnakeByte map fixes the grid its seed and height would draw
    LAYOUT_FILES = {"map": ("map_seed", "height")}
    ruleset: Literal["standard", "solo", "royale", "constrictor", "wrapped",
                     "wrapped_constrictor", "snakebyte"] = Field(
        "standard", description="a Battlesnake ruleset (standard, solo, royale, constrictor, "
                                "wrapped, wrapped_constrictor) or snakebyte (gravity, 2 teams)")
    width: int = Field(11, ge=5, le=25, description="board width (standard)")
    height: int | None = Field(None, ge=5, le=25,
                               description="board height: standard 5..25 (11); snakebyte "
                                           "10..24, unset = drawn from map_seed")
    snakes: int = Field(4, ge=1, le=8, description="number of snakes (standard)")
    food_spawn_chance: int = Field(15, ge=0, le=100, description="percent per turn")
    minimum_food: int = Field(1, ge=0, le=100, description="food kept on the board")
    initial_food: int = Field(1, ge=0, le=1, description="1: the rules' start food (docs/games.md); 0: none")
    max_turns: int | None = Field(None, ge=0, le=100_000,
                                  description="turn limit: standard 0 = none (default); "
                                              "snakebyte 1..100000 (200)")
    max_health: int = Field(100, ge=1, le=1000)
    hazard_damage: int = Field(14, ge=-1000, le=1000,
                               description="health a hazard layer takes a turn (< 0 heals)")
    shrink_every: int = Field(25, ge=1, le=1000,
                              description="turns between hazard changes (royale, hazard "
                                          "pits, healing pools, sinkholes)")
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
    map: str | None = Field(None, description="a Battlesnake map (standard, empty, royale, "
                                              "arcade_maze, healing_pools, sinkholes, hz_*); "
                                              "snakebyte: a map file (mapfile.py) or a bundled "
                                              "name (assets/maps/snakebyte)")
    w_loss: float = Field(0.2, ge=-1000, le=1000, description="snakebyte evaluation weight")
    w_apple: float = Field(0.5, ge=-1000, le=1000, description="snakebyte evaluation weight")
    w_win: float = Field(10.0, ge=-1000, le=1000, description="snakebyte evaluation weight")

    @classmethod
    def layout_replaces(cls, key: str, value: Any) -> tuple[str, ...]:
        # a Battlesnake map is a name, not a snakebyte map file
        return () if key == "map" and value in BATTLESNAKE_MAPS else \
            super().layout_replaces(key, value)

    @model_validator(mode="before")
    @classmethod
    def _ruleset_from_keys(cls, data: Any) -> Any:
        if isinstance(data, dict) and "ruleset" not in data and (
                any(k in data for k in SNAKEBYTE_ONLY)
                or (data.get("map") is not None and data["map"] not in BATTLESNAKE_MAPS)):
            data = {**data, "ruleset": "snakebyte"}
        return data

    @property
    def family(self) -> str:
        return family(self.ruleset)

    @model_validator(mode="after")
    def _fields_of_the_ruleset(self):
        given = self.model_fields_set
        other = SNAKEBYTE_ONLY if self.family == "standard" else STANDARD_ONLY
        wrong = [k for k in other if k in given]
        if wrong:
            raise ValueError(f"{wrong[0]}: not a parameter of ruleset {self.ruleset!r}")
        if self.family == "standard" and self.map is not None \
                and self.map not in BATTLESNAKE_MAPS:
            raise ValueError(f"map: {self.map!r} is not a Battlesnake map we model (have: "
                             + ", ".join(BATTLESNAKE_MAPS) + ")")
        if self.family == "standard":
            self._check_with_c()
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

    def _check_with_c(self) -> None:
        """The board, snake count and ruleset a map needs (C's configure
        says, in one line)."""
        if self.map is None and self.ruleset == "standard":
            return
        from ...native import Game, SandboxError
        try:
            Game("snakes", self.c_params(), seed=0).close()
        except SandboxError as exc:
            raise ValueError(str(exc)) from None

    def c_params(self, full: bool = False) -> str:
        from ...native.game import format_params
        names = [k for k in type(self).model_fields
                 if k not in (SNAKEBYTE_ONLY if self.family == "standard" else STANDARD_ONLY)
                 and (k != "map" or self.family == "standard")]
        given = self.model_fields_set
        d: dict[str, Any] = {}
        for k in names:
            if not full and k not in given:
                continue
            v = getattr(self, k)
            if v is None and k == "map":
                continue                     # the standard map: C's default
            if v is None:
                v = SHARED_DEFAULTS[self.family][k]
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

"""The scenario's [game_params] for `maze` (ranges as native/src/games/maze.c)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ..base import GameParams

SIZES = {"tiny": (11, 9, 13, 150), "small": (15, 13, 21, 200), "medium": (21, 15, 41, 300),
         "large": (31, 21, 85, 400), "huge": (41, 31, 165, 500)}


# what the generator draws from; a maze_file replaces all of them
GENERATOR_KEYS = ("size", "maze_seed", "wall_density", "mud_density", "mud_range", "symmetric",
                  "cheese")


class MazeGameParams(GameParams):
    LAYOUT_FILES = {"maze_file": GENERATOR_KEYS}

    size: Literal["tiny", "small", "medium", "large", "huge"] = Field(
        "medium", description="preset: grid, cheese count and turn limit")
    players: int = Field(2, ge=2, le=4)
    maze_seed: int = Field(1, ge=0, le=2**62, description="the generator's seed")
    wall_density: float = Field(0.7, ge=0.0, le=1.0)
    mud_density: float = Field(0.1, ge=0.0, le=1.0)
    mud_range: int = Field(3, ge=2, le=9, description="mud costs 2..mud_range turns")
    symmetric: int = Field(1, ge=0, le=1, description="mirror by 180-degree rotation")
    cheese: int = Field(0, ge=0, description="0 = the preset's count; at most cells - 4")
    max_turns: int = Field(0, ge=0, le=100_000, description="0 = the preset's limit")
    w_expected: float = Field(1.0, ge=0.0, le=1.0,
                              description="weight of the claimed cheese in the evaluation")
    # 1 is the default only so that replays recorded before this setting
    # existed re-simulate; every bundled maze scenario sets 0.8
    claim_decay: float = Field(1.0, ge=0.0, le=1.0,
                               description="a claimed cheese d turns away counts claim_decay^d "
                                           "(1: distance does not matter, and a search can "
                                           "put fetching it off for ever; the scenarios use 0.8)")
    maze_file: str | None = Field(None, description="a hand-made maze (see mazefile.py), "
                                                    "beside the scenario file or from the "
                                                    "current folder; the generator's keys "
                                                    "may not be given with it")

    @model_validator(mode="after")
    def _one_source_of_the_layout(self):
        # a hand-made maze fixes the grid, walls, mud and cheese: a generator
        # key beside it was silently ignored, so one of the two "won"
        if self.maze_file is not None:
            clash = [k for k in GENERATOR_KEYS if k in self.model_fields_set]
            if clash:
                raise ValueError(f"{clash[0]}: a generator setting, but maze_file gives the "
                                 f"maze; remove one of them")
        return self

    @model_validator(mode="after")
    def _cheese_fits(self):
        w, h, _, _ = SIZES[self.size]
        if self.maze_file is None and self.cheese > w * h - 4:
            raise ValueError(f"cheese: {self.cheese} does not fit, the {self.size} maze holds "
                             f"at most {w * h - 4}")
        return self

    def c_params(self, full: bool = False) -> str:
        from ...native.game import format_params
        from .mazefile import layout_params, load_maze_file
        d = self.model_dump(exclude_unset=not full, exclude={"maze_file"})
        if self.maze_file is not None:
            d.update(layout_params(load_maze_file(self.maze_file)))
        return format_params(d)

"""The scenario's [game_params] for `matrix` (native/src/games/matrix.c).

Either a named preset or a payoff table:

    [game_params]                      [game_params]
    preset = "biased_rps"              payoffs = [[3, 0], [5, 1]]        # row player
    repeats = 1                        col_payoffs = [[3, 5], [0, 1]]    # optional:
                                       row_actions = ["C", "D"]          #  zero-sum without
                                       col_actions = ["C", "D"]

The C core takes the table as one key per row (a0=3/0 a1=5/1 b0=...); this
model checks shapes and values first so a scenario error names the field.
"""
from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from ..base import GameParams

MAX_ACTIONS = 16
PRESETS = ("rps", "biased_rps", "matching_pennies", "prisoners_dilemma", "battle_of_sexes",
           "stag_hunt", "chicken", "shapley")
# rows x cols of each preset (matrix.c's PRESETS table; a test checks them against C)
PRESET_SHAPES = {"rps": (3, 3), "biased_rps": (3, 3), "matching_pennies": (2, 2),
                 "prisoners_dilemma": (2, 2), "battle_of_sexes": (2, 2), "stag_hunt": (2, 2),
                 "chicken": (2, 2), "shapley": (3, 3)}
ActionName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,15}$")]
Payoff = Annotated[float, Field(ge=-1e6, le=1e6, allow_inf_nan=False)]
Table = Annotated[list[Annotated[list[Payoff], Field(min_length=1, max_length=MAX_ACTIONS)]],
                  Field(min_length=1, max_length=MAX_ACTIONS)]


class MatrixGameParams(GameParams):
    preset: Literal["rps", "biased_rps", "matching_pennies", "prisoners_dilemma",
                    "battle_of_sexes", "stag_hunt", "chicken", "shapley"] | None = Field(
        None, description="a named game (default rps when no table is given)")
    payoffs: Table | None = Field(None, description="the row player's payoffs, rows x cols")
    col_payoffs: Table | None = Field(None, description="the column player's (default: "
                                                        "-payoffs, zero-sum)")
    row_actions: list[ActionName] | None = Field(None, min_length=1, max_length=MAX_ACTIONS)
    col_actions: list[ActionName] | None = Field(None, min_length=1, max_length=MAX_ACTIONS)
    repeats: int = Field(1, ge=1, le=10_000, description="rounds played")

    @model_validator(mode="after")
    def _shapes(self) -> "MatrixGameParams":
        if self.payoffs is None:
            if self.col_payoffs is not None:
                raise ValueError("col_payoffs needs payoffs (the row player's table)")
            rows, cols = PRESET_SHAPES[self.preset or "rps"]
            self._check_names(rows, cols)
            return self
        if self.preset is not None:
            raise ValueError("give a preset or a payoff table, not both")
        cols = len(self.payoffs[0])
        if any(len(r) != cols for r in self.payoffs):
            raise ValueError("payoffs: every row needs the same number of columns")
        if self.col_payoffs is not None and (
                len(self.col_payoffs) != len(self.payoffs)
                or any(len(r) != cols for r in self.col_payoffs)):
            raise ValueError(f"col_payoffs: must be {len(self.payoffs)}x{cols} like payoffs")
        self._check_names(len(self.payoffs), cols)
        return self

    def _check_names(self, rows: int, cols: int) -> None:
        """One name per action (C refuses any other count)."""
        for name, acts, n in (("row_actions", self.row_actions, rows),
                              ("col_actions", self.col_actions, cols)):
            if acts is not None and len(acts) != n:
                raise ValueError(f"{name}: {len(acts)} names for {n} actions")

    def c_params(self, full: bool = False) -> str:
        parts = []
        if self.payoffs is not None:
            parts.append(f"rows={len(self.payoffs)} cols={len(self.payoffs[0])}")
            for i, row in enumerate(self.payoffs):
                parts.append(f"a{i}=" + "/".join(_num(x) for x in row))
            for i, row in enumerate(self.col_payoffs or ()):
                parts.append(f"b{i}=" + "/".join(_num(x) for x in row))
        elif self.preset is not None or full:
            parts.append(f"preset={self.preset or 'rps'}")
        for key in ("row_actions", "col_actions"):
            names = getattr(self, key)
            if names is not None:
                parts.append(f"{key}=" + "/".join(names))
        if full or "repeats" in self.model_fields_set:
            parts.append(f"repeats={self.repeats}")
        return " ".join(parts)


def _num(x: float) -> str:
    """Exact: repr round-trips a double, and C's strtod reads it back."""
    assert math.isfinite(x)
    return repr(float(x))

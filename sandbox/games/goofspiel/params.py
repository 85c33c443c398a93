"""The scenario's [game_params] for `goofspiel` (ranges as native/src/games/goofspiel.c)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ..base import GameParams


class GoofspielGameParams(GameParams):
    num_cards: int = Field(13, ge=1, le=16, description="cards per hand and prizes")
    players: int = Field(2, ge=2, le=4)
    points_order: Literal["descending", "ascending", "random"] = Field(
        "descending", description="prize reveal order (random: a chance event)")
    returns_type: Literal["win_loss", "point_difference", "total_points"] = "win_loss"
    w_expected: float = Field(1.0, ge=0.0, le=1.0,
                              description="weight of the expected share of the prizes left "
                                          "in the leaf evaluation")
    w_pairs: float = Field(0.0, ge=0.0, le=1.0,
                           description="weight of the pairs of cards each would win (against "
                                       "the card sums) in that share; two players only")
    imp_info: int = Field(0, ge=0, le=1,
                          description="1: bids stay private; each round's winner (or a tie), "
                                      "the prizes and the points are public (OpenSpiel's "
                                      "imp_info; two players only)")

    @model_validator(mode="after")
    def _pairs_two_players(self) -> "GoofspielGameParams":
        if self.w_pairs > 0 and self.players != 2:
            raise ValueError(f"w_pairs: pairs of cards need players = 2 (got {self.players})")
        return self

    @model_validator(mode="after")
    def _imp_info_two_players(self) -> "GoofspielGameParams":
        if self.imp_info and self.players != 2:
            raise ValueError(f"imp_info: hidden bids need players = 2 (got {self.players})")
        return self

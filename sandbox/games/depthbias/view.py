"""Decoded depthbias state (the export layout documented in native/include/sbx.h)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

EXPORT_VERSION = 1
WORDS = 14
ACTIONS = ("sprint", "march", "siege")
GO = 3                     # the only move after the choice


@dataclass(frozen=True)
class ActionSpec:
    name: str
    min: int               # fewest turns (the choice turn included)
    max: int               # most turns
    points: int            # points per turn

    @property
    def expected_total(self) -> float:
        """Raw total a random length gives on average: points * (min + max) / 2."""
        return self.points * (self.min + self.max) / 2


@dataclass(frozen=True)
class DepthBiasView:
    turn: int                          # turns played
    choice: int | None                 # 0 sprint, 1 march, 2 siege; None before
    length: int | None                 # the episode's turns L (None before the choice)
    points: int
    actions: tuple[ActionSpec, ActionSpec, ActionSpec]

    @property
    def over(self) -> bool:
        return self.choice is not None and self.turn >= (self.length or 0)

    @property
    def choice_name(self) -> str | None:
        return None if self.choice is None else ACTIONS[self.choice]


def decode_depthbias(words: Sequence[int]) -> DepthBiasView:
    w = [int(x) for x in words]
    if len(w) != WORDS or w[0] != EXPORT_VERSION:
        raise ValueError("not a depthbias export (length or version word mismatch)")
    turn, choice, length, points = w[1:5]
    specs = tuple(ActionSpec(ACTIONS[i], *w[5 + 3 * i: 8 + 3 * i]) for i in range(3))
    return DepthBiasView(turn, None if choice < 0 else choice, None if choice < 0 else length,
                         points, specs)  # type: ignore[arg-type]

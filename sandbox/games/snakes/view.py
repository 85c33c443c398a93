"""Decoded snakes state (the export layout documented in native/include/sbx.h)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

MOVE_NAMES = ("up", "down", "left", "right")
MOVE_DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0))
CAUSES = ("", "starved", "out of bounds", "self collision", "body collision", "head-to-head")
EXPORT_VERSION = 1


@dataclass(frozen=True)
class SnakeView:
    alive: bool
    health: int
    length: int
    death_turn: int          # -1 while alive
    cause: str               # "" while alive
    body: tuple[tuple[int, int], ...]   # head first

    @property
    def head(self) -> tuple[int, int]:
        return self.body[0]

    @property
    def direction(self) -> int | None:
        """The move that brought the head where it is (None if stacked)."""
        if len(self.body) < 2 or self.body[0] == self.body[1]:
            return None
        dx = self.body[0][0] - self.body[1][0]
        dy = self.body[0][1] - self.body[1][1]
        return MOVE_DELTAS.index((dx, dy)) if (dx, dy) in MOVE_DELTAS else None


@dataclass(frozen=True)
class SnakesView:
    width: int
    height: int
    turn: int
    food: tuple[tuple[int, int], ...]
    snakes: tuple[SnakeView, ...]


def decode_snakes(words: Sequence[int]) -> SnakesView:
    w = [int(x) for x in words]
    if len(w) < 6 or w[0] != EXPORT_VERSION:
        raise ValueError("not a snakes export (version word mismatch)")
    width, height, n, turn, nfood = w[1:6]
    p = 6
    food = tuple((w[p + 2 * i], w[p + 2 * i + 1]) for i in range(nfood))
    p += 2 * nfood
    snakes = []
    for _ in range(n):
        alive, health, length, death_turn, cause = w[p:p + 5]
        p += 5
        body = tuple((w[p + 2 * i], w[p + 2 * i + 1]) for i in range(length))
        p += 2 * length
        snakes.append(SnakeView(bool(alive), health, length, death_turn,
                                CAUSES[cause] if 0 <= cause < len(CAUSES) else "?", body))
    if p != len(w):
        raise ValueError(f"snakes export has {len(w) - p} trailing words")
    return SnakesView(width, height, turn, food, tuple(snakes))

"""Decoded maze state (the export layout documented in native/include/sbx.h)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

MOVE_NAMES = ("up", "down", "left", "right", "stay")
MOVE_DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0), (0, 0))
STAY = 4
EXPORT_VERSION = 1
HEADER = 8


@dataclass(frozen=True)
class Explorer:
    x: int
    y: int
    stuck: int          # turns it must still stay (mud)
    score12: int        # cheese collected, in twelfths

    @property
    def score(self) -> float:
        return self.score12 / 12.0


@dataclass(frozen=True)
class MazeView:
    width: int
    height: int
    players: int
    turn: int
    max_turns: int
    cheese_total: int
    cheese_left: int
    explorers: tuple[Explorer, ...]
    right: tuple[tuple[int, ...], ...]    # [y][x] passage cost to the right, 0 = wall
    up: tuple[tuple[int, ...], ...]       # [y][x] passage cost upwards
    cheese: frozenset[tuple[int, int]]    # (x, y) cheese now
    cheese0: tuple[tuple[bool, ...], ...]  # [y][x] cheese at the start

    @property
    def over(self) -> bool:
        return (self.cheese_left == 0 or self.turn >= self.max_turns
                or any(e.score12 > 6 * self.cheese_total for e in self.explorers))

    def cost(self, x: int, y: int, move: int) -> int:
        """The passage cost of a move from (x, y); 0: a wall or the edge."""
        if move == 0:
            return self.up[y][x] if y < self.height - 1 else 0
        if move == 1:
            return self.up[y - 1][x] if y > 0 else 0
        if move == 2:
            return self.right[y][x - 1] if x > 0 else 0
        if move == 3:
            return self.right[y][x] if x < self.width - 1 else 0
        return 1


def decode_maze(words: Sequence[int]) -> MazeView:
    w = [int(x) for x in words]
    if len(w) < HEADER or w[0] != EXPORT_VERSION:
        raise ValueError("not a maze export (version word mismatch)")
    width, height, n, turn, max_turns, total, left = w[1:8]
    if len(w) != HEADER + 4 * n + width * height:
        raise ValueError(f"maze export: {len(w)} words, want {HEADER + 4 * n + width * height}")
    ex = tuple(Explorer(*w[HEADER + 4 * p:HEADER + 4 * p + 4]) for p in range(n))
    cells = w[HEADER + 4 * n:]
    right = tuple(tuple(cells[y * width + x] & 15 for x in range(width)) for y in range(height))
    up = tuple(tuple(cells[y * width + x] >> 4 & 15 for x in range(width)) for y in range(height))
    cheese = frozenset((i % width, i // width) for i, c in enumerate(cells) if c >> 8 & 1)
    cheese0 = tuple(tuple(bool(cells[y * width + x] >> 9 & 1) for x in range(width))
                    for y in range(height))
    return MazeView(width, height, n, turn, max_turns, total, left, ex, right, up, cheese,
                    cheese0)

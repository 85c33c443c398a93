"""Decoded matrix-game state (the export layout documented in native/include/sbx.h)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

EXPORT_VERSION = 1


@dataclass(frozen=True)
class MatrixView:
    rows: int
    cols: int
    repeats: int
    turn: int                                   # rounds played
    last: tuple[int, int] | None                # the last joint action (row, col)
    counts: tuple[tuple[int, ...], ...]         # times each (row, col) was played
    a: tuple[tuple[float, ...], ...]            # row player's payoffs (to 1/1000)
    b: tuple[tuple[float, ...], ...]            # column player's

    @property
    def over(self) -> bool:
        return self.turn >= self.repeats

    @property
    def totals(self) -> tuple[float, float]:
        ta = sum(self.counts[r][c] * self.a[r][c] for r in range(self.rows)
                 for c in range(self.cols))
        tb = sum(self.counts[r][c] * self.b[r][c] for r in range(self.rows)
                 for c in range(self.cols))
        return ta, tb

    def frequencies(self, agent: int) -> tuple[float, ...]:
        """How often each of the agent's actions was played so far."""
        if self.turn == 0:
            return tuple(0.0 for _ in range(self.rows if agent == 0 else self.cols))
        if agent == 0:
            return tuple(sum(r) / self.turn for r in self.counts)
        return tuple(sum(self.counts[r][c] for r in range(self.rows)) / self.turn
                     for c in range(self.cols))


def decode_matrix(words: Sequence[int]) -> MatrixView:
    w = [int(x) for x in words]
    if len(w) < 7 or w[0] != EXPORT_VERSION:
        raise ValueError("not a matrix export (version word mismatch)")
    rows, cols, repeats, turn, lr, lc = w[1:7]
    n = rows * cols
    if not (1 <= rows <= 16 and 1 <= cols <= 16) or len(w) != 7 + 3 * n:
        raise ValueError(f"matrix export: {len(w)} words for a {rows}x{cols} game")

    def table(k: int, scale: float = 1.0) -> tuple[tuple, ...]:
        return tuple(tuple(w[k + r * cols + c] * scale for c in range(cols)) for r in range(rows))
    counts = tuple(tuple(int(x) for x in row) for row in table(7))
    return MatrixView(rows, cols, repeats, turn, None if lr < 0 else (lr, lc), counts,
                      table(7 + n, 1e-3), table(7 + 2 * n, 1e-3))

"""Decoded goofspiel state (the export layout documented in native/include/sbx.h)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

EXPORT_VERSION = 1
ORDERS = ("descending", "ascending", "random")
RETURNS = ("win_loss", "point_difference", "total_points")


@dataclass(frozen=True)
class Round:
    prize: int
    winner: int                  # agent, -1: the highest bid was tied, prize discarded
    bids: tuple[int, ...]        # card values, per agent


@dataclass(frozen=True)
class GoofspielView:
    num_cards: int
    players: int
    turn: int                    # rounds played
    points_order: str
    returns_type: str
    prize: int                   # on the table now; 0 when the game is over
    unrevealed: tuple[int, ...]  # prize values still face down (current excluded)
    points: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]   # card values held, ascending
    history: tuple[Round, ...]

    @property
    def over(self) -> bool:
        return self.turn >= self.num_cards

    @property
    def total(self) -> int:
        return self.num_cards * (self.num_cards + 1) // 2


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(v + 1 for v in range(16) if mask >> v & 1)


def decode_goofspiel(words: Sequence[int]) -> GoofspielView:
    w = [int(x) for x in words]
    if len(w) < 8 or w[0] != EXPORT_VERSION:
        raise ValueError("not a goofspiel export (version word mismatch)")
    n, p, turn, order, ret, prize, unrevealed = w[1:8]
    if not (0 <= order < 3 and 0 <= ret < 3 and 1 <= p <= 8 and 0 <= turn <= n):
        raise ValueError("goofspiel export header out of range")
    k = 8
    points, hands = [], []
    for _ in range(p):
        points.append(w[k])
        hands.append(_bits(w[k + 1]))
        k += 2
    history = []
    for _ in range(turn):
        history.append(Round(w[k], w[k + 1], tuple(w[k + 2:k + 2 + p])))
        k += 2 + p
    if k != len(w):
        raise ValueError(f"goofspiel export has {len(w) - k} trailing words")
    return GoofspielView(n, p, turn, ORDERS[order], RETURNS[ret], prize, _bits(unrevealed),
                         tuple(points), tuple(hands), tuple(history))

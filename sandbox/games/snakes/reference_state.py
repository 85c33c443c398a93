"""The snakes twin's state words: a snake as plain data, the export layout
(build a hand-made position's words, read them back) and the death causes,
as native/include/sbx.h defines them. Below the twin (reference.py), which
re-exports these names: tests build positions with them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

Cell = tuple[int, int]

EXPORT_VERSION = 1  # SBX_SNAKES_EXPORT_VERSION
EXPORT_VERSION_HAZARDS = 2  # SBX_SNAKES_EXPORT_VERSION_HAZARDS: hazards and map words follow
MAP_WORDS = 4
EXPORT_MAX = 16384  # SBX_EXPORT_MAX: int32 words an export may need

# Death causes (SBX_SNAKES_CAUSE_*).
CAUSE_NONE = 0
CAUSE_STARVED = 1
CAUSE_OUT_OF_BOUNDS = 2
CAUSE_SELF_COLLISION = 3
CAUSE_BODY_COLLISION = 4
CAUSE_HEAD_TO_HEAD = 5
CAUSE_HAZARD = 6


# ---------------------------------------------------------------- state

@dataclass
class Snake:
    body: list[Cell]              # head first; stacked segments repeat a cell
    health: int
    alive: bool = True
    death_turn: int = -1
    cause: int = CAUSE_NONE

    @property
    def head(self) -> Cell:
        """After an out-of-bounds death this lies off the board."""
        return self.body[0]

    @property
    def length(self) -> int:
        return len(self.body)

    def copy(self) -> "Snake":
        return Snake(list(self.body), self.health, self.alive, self.death_turn, self.cause)


# ---------------------------------------------------------------- export words

@dataclass
class ExportedState:
    """An export decoded into readable parts."""
    width: int
    height: int
    turn: int
    food: list[Cell]
    snakes: list[Snake] = field(default_factory=list)


def build_export(width: int, height: int, snakes: Sequence[Snake],
                 food: Sequence[Cell] = (), turn: int = 0) -> list[int]:
    """Export words for a hand-made position (for import_state), e.g.
    build_export(7, 7, [Snake([(3, 3), (3, 2), (3, 1)], health=1)], food=[(3, 4)]).
    Food is written in increasing cell order, as the engine exports it."""
    words = [EXPORT_VERSION, width, height, len(snakes), turn, len(food)]
    for x, y in sorted(food, key=lambda c: c[1] * width + c[0]):
        words += [x, y]
    for s in snakes:
        words += [int(s.alive), s.health, len(s.body), s.death_turn, s.cause]
        for x, y in s.body:
            words += [x, y]
    return words


def decode_export(words: Sequence[int]) -> ExportedState:
    """The inverse of build_export (no validation: use import_state for that)."""
    w = [int(v) for v in words]
    width, height, nsnakes, turn, nfood = w[1], w[2], w[3], w[4], w[5]
    pos = 6
    food = [(w[pos + 2 * k], w[pos + 2 * k + 1]) for k in range(nfood)]
    pos += 2 * nfood
    snakes = []
    for _ in range(nsnakes):
        alive, health, length, death_turn, cause = w[pos:pos + 5]
        pos += 5
        body = [(w[pos + 2 * k], w[pos + 2 * k + 1]) for k in range(length)]
        pos += 2 * length
        snakes.append(Snake(body, health, bool(alive), death_turn, cause))
    return ExportedState(width, height, turn, food, snakes)

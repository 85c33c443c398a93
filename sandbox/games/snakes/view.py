"""Decoded snakes state (the export layout documented in native/include/sbx.h)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

MOVE_NAMES = ("up", "down", "left", "right")
MOVE_DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0))
CAUSES = ("", "starved", "out of bounds", "self collision", "body collision", "head-to-head",
          "hazard")
EXPORT_VERSION = 1
EXPORT_VERSION_HAZARDS = 2    # a game with hazards: the same, then hazards and map words
MAP_WORDS = 4


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
        """The move that brought the head where it is (None if stacked). A
        head across the board from its neck came over an edge (wrapped
        rulesets): moving off the right edge brings it in at x = 0."""
        if len(self.body) < 2 or self.body[0] == self.body[1]:
            return None
        dx = _unwrap(self.body[0][0] - self.body[1][0])
        dy = _unwrap(self.body[0][1] - self.body[1][1])
        return MOVE_DELTAS.index((dx, dy)) if (dx, dy) in MOVE_DELTAS else None


def _unwrap(d: int) -> int:
    """A step between neighbours: across an edge it spans the board."""
    return -1 if d > 1 else 1 if d < -1 else d


@dataclass(frozen=True)
class SnakesView:
    width: int
    height: int
    turn: int
    food: tuple[tuple[int, int], ...]
    snakes: tuple[SnakeView, ...]
    hazards: tuple[tuple[int, int, int], ...] = ()   # (x, y, layers), cell order
    map_words: tuple[int, ...] = ()                  # the map's progress (sbx.h)
    pending: tuple[tuple[int, int, int], ...] = ()   # snail_mode: tails to come (x, y, layers)

    @property
    def version(self) -> int:
        return EXPORT_VERSION_HAZARDS if self.map_words else EXPORT_VERSION

    def hazard_at(self, cell: tuple[int, int]) -> int:
        """Hazard layers on a cell (0: none)."""
        for x, y, k in self.hazards:
            if (x, y) == cell:
                return k
        return 0


def decode_snakes(words: Sequence[int]) -> SnakesView:
    w = [int(x) for x in words]
    if len(w) < 6 or w[0] not in (EXPORT_VERSION, EXPORT_VERSION_HAZARDS):
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
    hazards: tuple[tuple[int, int, int], ...] = ()
    pending: tuple[tuple[int, int, int], ...] = ()
    map_words: tuple[int, ...] = ()
    if w[0] == EXPORT_VERSION_HAZARDS:
        if p >= len(w):
            raise ValueError("snakes export ends before its hazards")
        nh = w[p]
        p += 1
        hazards = tuple((w[p + 3 * i], w[p + 3 * i + 1], w[p + 3 * i + 2]) for i in range(nh))
        # snail_mode's tails to come lie off the board (y + height): not hazards yet
        pending = tuple((x, y - height, k) for x, y, k in hazards if y >= height)
        hazards = tuple(h for h in hazards if h[1] < height)
        p += 3 * nh
        map_words = tuple(w[p:p + MAP_WORDS])
        p += MAP_WORDS
    if p != len(w):
        raise ValueError(f"snakes export has {len(w) - p} trailing words")
    return SnakesView(width, height, turn, food, tuple(snakes), hazards, map_words, pending)


# ---------------------------------------------------------------- snakebyte

SNAKEBYTE_EXPORT_VERSION = 201
# y grows DOWNWARD in snakebyte: "up" is y-1
SNAKEBYTE_DELTAS = ((0, -1), (0, 1), (-1, 0), (1, 0))
SNAKEBYTE_CAUSES = ("", "beheaded", "fell off the map")


@dataclass(frozen=True)
class ByteSnakeView:
    alive: bool
    length: int
    death_turn: int          # -1 while alive
    cause: str               # "" while alive
    fell: int                # rows it fell in the last turn
    lost: int                # parts it lost in the last turn
    body: tuple[tuple[int, int], ...]   # head first; may reach off the grid

    @property
    def head(self) -> tuple[int, int]:
        return self.body[0]

    @property
    def direction(self) -> int | None:
        """The way the head faces (neck to head), as a move id."""
        if len(self.body) < 2:
            return None
        d = (self.body[0][0] - self.body[1][0], self.body[0][1] - self.body[1][1])
        return SNAKEBYTE_DELTAS.index(d) if d in SNAKEBYTE_DELTAS else None


@dataclass(frozen=True)
class SnakeByteView:
    width: int
    height: int
    per_player: int
    turn: int
    max_turns: int
    walls: tuple[tuple[bool, ...], ...]      # walls[y][x]
    apples: tuple[tuple[int, int], ...]
    losses: tuple[int, int]
    snakes: tuple[ByteSnakeView, ...]

    def player_of(self, agent: int) -> int:
        return agent // self.per_player

    def team_length(self, player: int) -> int:
        return sum(s.length for a, s in enumerate(self.snakes)
                   if s.alive and self.player_of(a) == player)

    @property
    def over(self) -> bool:
        alive = [any(s.alive for a, s in enumerate(self.snakes) if self.player_of(a) == p)
                 for p in (0, 1)]
        return self.turn >= self.max_turns or not self.apples or not all(alive)

    def leader(self) -> int | None:
        """The player ahead by the score rule (length, then fewer losses); None if level."""
        a, b = self.team_length(0), self.team_length(1)
        if a != b:
            return 0 if a > b else 1
        if self.losses[0] != self.losses[1]:
            return 0 if self.losses[0] < self.losses[1] else 1
        return None


def decode_snakebyte(words: Sequence[int]) -> SnakeByteView:
    w = [int(x) for x in words]
    if len(w) < 7 or w[0] != SNAKEBYTE_EXPORT_VERSION:
        raise ValueError("not a snakebyte export (version word mismatch)")
    width, height, k, turn, max_turns, napples = w[1:7]
    p = 7
    walls = []
    for _ in range(height):
        lo, hi = w[p] & 0xFFFFFFFF, w[p + 1] & 0xFFFFFFFF
        p += 2
        bits = lo | (hi << 32)
        walls.append(tuple(bool(bits >> x & 1) for x in range(width)))
    apples = tuple((w[p + 2 * i], w[p + 2 * i + 1]) for i in range(napples))
    p += 2 * napples
    losses = (w[p], w[p + 1])
    p += 2
    snakes = []
    for _ in range(2 * k):
        alive, length, death_turn, cause, fell, lost = w[p:p + 6]
        p += 6
        body = tuple((w[p + 2 * i], w[p + 2 * i + 1]) for i in range(length))
        p += 2 * length
        snakes.append(ByteSnakeView(bool(alive), length, death_turn,
                                    SNAKEBYTE_CAUSES[cause] if 0 <= cause < 3 else "?",
                                    fell, lost, body))
    if p != len(w):
        raise ValueError(f"snakebyte export has {len(w) - p} trailing words")
    return SnakeByteView(width, height, k, turn, max_turns, tuple(walls), apples, losses,
                         tuple(snakes))


def decode_any(words: Sequence[int]) -> "SnakesView | SnakeByteView":
    """Either ruleset's export, told apart by its version word."""
    if len(words) and int(words[0]) == SNAKEBYTE_EXPORT_VERSION:
        return decode_snakebyte(words)
    return decode_snakes(words)

"""Pure-Python reference of the `snakes` ruleset `snakebyte` (docs/games.md, SnakeByte).

Slow and readable on purpose: written from the rules, with plain lists of
(x, y) cells and sets, for the differential tests against
native/src/games/snakebyte.c. It exports and imports the same int32 layout
as C (SBX_SNAKEBYTE_EXPORT_VERSION, native/include/sbx.h).

The map (walls, apples, where the snakes start) is not generated here: a
map is made once per match, by C's generator or a map file, and handed to
this reference as C's export of the start (SnakeByteGame.from_export), or
made through C from parameters (SnakeByteGame(params, seed)). Every rule of
a turn is here.

Coordinates: y grows DOWNWARD; "up" is y-1. Cells beside and above the grid
are open air.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ...native import InvalidArgument
from .view import SNAKEBYTE_EXPORT_VERSION

Cell = tuple[int, int]
DELTAS: tuple[Cell, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))   # up, down, left, right
MOVE_NAMES = ("up", "down", "left", "right")
BEHEADED, FELL = 1, 2


@dataclass
class ByteSnake:
    body: list[Cell]                 # head first
    alive: bool = True
    death_turn: int = -1
    cause: int = 0
    fell: int = 0                    # rows fallen in the last turn
    lost: int = 0                    # parts lost in the last turn

    def copy(self) -> "ByteSnake":
        return ByteSnake(list(self.body), self.alive, self.death_turn, self.cause,
                         self.fell, self.lost)


@dataclass
class Weights:
    w_length: float = 1.0
    w_loss: float = 0.2
    w_apple: float = 0.5
    w_win: float = 10.0


@dataclass
class SnakeByteGame:
    width: int
    height: int
    per_player: int
    max_turns: int
    walls: set[Cell]
    apples: set[Cell]
    snakes: list[ByteSnake]
    turn: int = 0
    losses: list[int] = field(default_factory=lambda: [0, 0])
    weights: Weights = field(default_factory=Weights)
    kind: str = "snakes"
    params: str = ""

    # -- construction ------------------------------------------------------------
    def __init__(self, params: Mapping[str, Any] | str | None = None, seed: int = 1,
                 *, _from: "SnakeByteGame | None" = None) -> None:
        if _from is not None:
            self.__dict__.update(_from.__dict__)
            return
        from ...native import Game
        from .params import SnakesGameParams
        text = params if isinstance(params, str) \
            else SnakesGameParams.model_validate(dict(params or {})).c_params()
        with Game("snakes", text, seed=seed) as g:
            if not g.params.startswith("ruleset=snakebyte"):
                raise InvalidArgument("SnakeByteGame: the parameters are not ruleset=snakebyte")
            words = g.export()
            self.params = g.params
        w = dict(tok.split("=", 1) for tok in self.params.split())
        built = SnakeByteGame.from_export(words, Weights(
            float(w["w_length"]), float(w["w_loss"]), float(w["w_apple"]), float(w["w_win"])))
        built.params = self.params
        self.__dict__.update(built.__dict__)

    @staticmethod
    def from_export(words: Sequence[int], weights: Weights | None = None) -> "SnakeByteGame":
        w = [int(x) for x in words]
        if not w or w[0] != SNAKEBYTE_EXPORT_VERSION:
            raise InvalidArgument("not a snakebyte export")
        width, height, k, turn, max_turns, napples = w[1:7]
        p = 7
        walls = set()
        for y in range(height):
            bits = (w[p] & 0xFFFFFFFF) | ((w[p + 1] & 0xFFFFFFFF) << 32)
            p += 2
            walls |= {(x, y) for x in range(width) if bits >> x & 1}
        apples = {(w[p + 2 * i], w[p + 2 * i + 1]) for i in range(napples)}
        p += 2 * napples
        losses = [w[p], w[p + 1]]
        p += 2
        snakes = []
        for _ in range(2 * k):
            alive, length, death_turn, cause, fell, lost = w[p:p + 6]
            p += 6
            body = [(w[p + 2 * i], w[p + 2 * i + 1]) for i in range(length)]
            p += 2 * length
            snakes.append(ByteSnake(body, bool(alive), death_turn, cause, fell, lost))
        g = object.__new__(SnakeByteGame)
        g.__dict__.update(width=width, height=height, per_player=k, max_turns=max_turns,
                          walls=walls, apples=apples, snakes=snakes, turn=turn, losses=losses,
                          weights=weights or Weights(), kind="snakes", params="")
        return g

    def clone(self) -> "SnakeByteGame":
        g = object.__new__(SnakeByteGame)
        g.__dict__.update(self.__dict__)
        g.apples = set(self.apples)
        g.snakes = [s.copy() for s in self.snakes]
        g.losses = list(self.losses)
        return g

    # -- queries -------------------------------------------------------------------
    @property
    def num_agents(self) -> int:
        return 2 * self.per_player

    def player_of(self, agent: int) -> int:
        return agent // self.per_player

    def in_grid(self, c: Cell) -> bool:
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def is_alive(self, agent: int) -> bool:
        return self.snakes[agent].alive

    def alive(self) -> list[bool]:
        return [s.alive for s in self.snakes]

    def legal_moves(self, agent: int) -> list[int]:
        return [0, 1, 2, 3] if self.snakes[agent].alive else []

    def move_name(self, agent: int, move: int) -> str:
        return MOVE_NAMES[move] if 0 <= move < 4 else "?"

    def team_length(self, player: int) -> int:
        return sum(len(s.body) for a, s in enumerate(self.snakes)
                   if s.alive and self.player_of(a) == player)

    def is_terminal(self) -> bool:
        has = [any(s.alive for a, s in enumerate(self.snakes) if self.player_of(a) == p)
               for p in (0, 1)]
        return self.turn >= self.max_turns or not self.apples or not all(has)

    def leader(self) -> int | None:
        """Score rule: more total length of live snakes, then fewer losses."""
        a, b = self.team_length(0), self.team_length(1)
        if a != b:
            return 0 if a > b else 1
        if self.losses[0] != self.losses[1]:
            return 0 if self.losses[0] < self.losses[1] else 1
        return None

    def ranking(self) -> list[int]:
        lead = self.leader()
        return [self.per_player if lead is not None and self.player_of(a) != lead else 0
                for a in range(self.num_agents)]

    def evaluate(self) -> list[float]:
        wt = self.weights
        near = [0.0, 0.0]
        if wt.w_apple != 0.0 and self.apples:
            for a, s in enumerate(self.snakes):
                if s.alive:
                    hx, hy = s.body[0]
                    d = min(abs(x - hx) + abs(y - hy) for x, y in self.apples)
                    near[self.player_of(a)] += max(0.0, 1.0 - d / (self.width + self.height))
        lead = self.leader() if self.is_terminal() else None
        out = []
        for a in range(self.num_agents):
            p = self.player_of(a)
            q = 1 - p
            win = 0 if lead is None else (1 if lead == p else -1)
            out.append(wt.w_length * (self.team_length(p) - self.team_length(q))
                       - wt.w_loss * (self.losses[p] - self.losses[q])
                       + wt.w_apple * (near[p] - near[q]) + wt.w_win * win)
        return out

    # -- the turn ------------------------------------------------------------------------
    def step(self, joint: Sequence[int | None]) -> list[float]:
        if len(joint) != self.num_agents:
            raise InvalidArgument(f"joint: {len(joint)} moves for {self.num_agents} snakes")
        turn = self.turn + 1
        live = [a for a, s in enumerate(self.snakes) if s.alive]
        for s in self.snakes:
            s.fell = s.lost = 0

        # 1. move: all at once; back into the neck means straight on
        for a in live:
            s = self.snakes[a]
            (hx, hy), (nx, ny) = s.body[0], s.body[1]
            dx, dy = DELTAS[int(joint[a])]
            target = (hx + dx, hy + dy)
            if target == (nx, ny):
                target = (hx + (hx - nx), hy + (hy - ny))
            if target in self.apples:
                s.body = [target] + s.body            # growth: the tail stays
            else:
                s.body = [target] + s.body[:-1]

        # 2. eat: every apple under a live head goes (all those heads grew)
        for a in live:
            self.apples.discard(self.snakes[a].body[0])

        # 3. behead: judged on the bodies after the move, for all at once
        beheaded = []
        for a in live:
            s = self.snakes[a]
            head = s.body[0]
            hits_wall = head in self.walls
            hits_other = any(head in self.snakes[o].body for o in live if o != a)
            hits_self = head in s.body[1:]
            if hits_wall or hits_other or hits_self:
                beheaded.append(a)
        for a in beheaded:
            s = self.snakes[a]
            if len(s.body) <= 3:
                self._die(a, BEHEADED, turn)
            else:
                s.body = s.body[1:]
                s.lost = 1
                self.losses[self.player_of(a)] += 1

        # 4. gravity
        while True:
            live = [a for a, s in enumerate(self.snakes) if s.alive]
            grounded = set()
            for a in live:
                below = {(x, y + 1) for x, y in self.snakes[a].body}
                if below & self.walls or below & self.apples:
                    grounded.add(a)
            changed = True
            while changed:                       # held by another grounded snake
                changed = False
                for a in live:
                    if a in grounded:
                        continue
                    below = {(x, y + 1) for x, y in self.snakes[a].body}
                    if any(below & set(self.snakes[o].body) for o in grounded if o != a):
                        grounded.add(a)
                        changed = True
            airborne = [a for a in live if a not in grounded]
            if not airborne:
                break
            for a in airborne:                   # one row, together
                s = self.snakes[a]
                s.body = [(x, y + 1) for x, y in s.body]
                s.fell += 1
                if min(y for _, y in s.body) >= self.height:
                    self._die(a, FELL, turn)
        self.turn = turn

        if not self.is_terminal():
            return [0.0] * self.num_agents
        lead = self.leader()
        return [0.0 if lead is None else (1.0 if self.player_of(a) == lead else -1.0)
                for a in range(self.num_agents)]

    def _die(self, a: int, cause: int, turn: int) -> None:
        s = self.snakes[a]
        s.alive = False
        s.cause = cause
        s.death_turn = turn
        s.lost += len(s.body)
        self.losses[self.player_of(a)] += len(s.body)

    # -- export ------------------------------------------------------------------------
    def export(self) -> list[int]:
        W = self.width
        words = [SNAKEBYTE_EXPORT_VERSION, W, self.height, self.per_player, self.turn,
                 self.max_turns, len(self.apples)]
        for y in range(self.height):
            bits = sum(1 << x for x in range(W) if (x, y) in self.walls)
            lo, hi = bits & 0xFFFFFFFF, bits >> 32
            words += [lo - (1 << 32) if lo >= 1 << 31 else lo, hi]
        for x, y in sorted(self.apples, key=lambda c: c[1] * W + c[0]):
            words += [x, y]
        words += self.losses
        for s in self.snakes:
            words += [int(s.alive), len(s.body), s.death_turn, s.cause, s.fell, s.lost]
            for x, y in s.body:
                words += [x, y]
        return words

    def import_state(self, words: Sequence[int]) -> None:
        g = SnakeByteGame.from_export(words, self.weights)
        if (g.width, g.height, g.per_player, g.walls) != \
                (self.width, self.height, self.per_player, self.walls):
            raise InvalidArgument("import: the export's map differs from the game's")
        self.apples, self.snakes, self.turn, self.losses = g.apples, g.snakes, g.turn, g.losses

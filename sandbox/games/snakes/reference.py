"""The `snakes` game, Battlesnake's official rulesets (docs/games.md, Snakes: standard,
solo, royale, constrictor, wrapped, wrapped_constrictor) on the official
maps, in plain Python.

A slow, readable mirror of native/src/games/snakes.c (the maps: reference_maps.py,
the twin of snakes_maps.c). Everything observable
must match the C engine exactly: the export words, the state hash, the
evaluation (bit for bit), the ranking, the rewards, and the order in which
the game's RNG is consumed (start layout, initial food, food spawns).

The C engine keeps bodies in ring buffers and a per-cell count of non-head
segments; here a snake is a plain list of (x, y) cells, head first, and the
per-cell counts are recomputed from the bodies whenever a rule needs them
(`_body_counts`). Food is a set of cells: C keeps an insertion-ordered list,
but nothing observable depends on that order (export scans the board, and
the evaluation only takes a minimum distance).

Coordinates: (0, 0) is bottom-left, "up" is y + 1. A cell index, where one
is needed (export order, spawn draws), is y * width + x.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

import numpy as np

from sandbox.native.errors import InvalidArgument, InvalidState

from sandbox.reference.rng import SplitMix64, hash_words

from . import reference_maps as maps
from .reference_params import SnakesParams
from .reference_state import (CAUSE_BODY_COLLISION, CAUSE_HAZARD, CAUSE_HEAD_TO_HEAD,  # noqa: F401
                              CAUSE_NONE, CAUSE_OUT_OF_BOUNDS, CAUSE_SELF_COLLISION,
                              CAUSE_STARVED, EXPORT_MAX, EXPORT_VERSION,
                              EXPORT_VERSION_HAZARDS, MAP_WORDS, Cell, ExportedState, Snake,
                              build_export, decode_export)

# Moves, in move-id order (SBX_SNAKES_MOVE_*); DX/DY as in snakes.c.
UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
MOVE_NAMES = ("up", "down", "left", "right")
DX = (0, 0, -1, 1)
DY = (1, -1, 0, 0)
MOVE_NONE = 255  # "no action" for an eliminated agent (SBX_MOVE_NONE)

# The four diagonal neighbours tried for each snake's initial food, in order.
FOOD_DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))

# Rejection-sampling tries before a food spawn falls back to an exact scan.
SPAWN_TRIES = 16


def _manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class SnakesGame:
    """One `snakes` state with the reference game interface (the methods the
    reference search uses: num_agents, max_moves, clone, reseed, legal_moves,
    step, is_alive, is_terminal, evaluate)."""

    kind = "snakes"
    max_moves = 4

    def __init__(self, params: Mapping[str, Any] | str | SnakesParams | None = None,
                 seed: int = 0) -> None:
        if not 0 <= int(seed) < 2**64:
            raise InvalidArgument(f"seed: must be in 0..2^64-1 (got {seed})")
        self.p = params if isinstance(params, SnakesParams) else SnakesParams.parse(params)
        self.num_agents = self.p.snakes
        self.rng = SplitMix64(0)
        self.turn = 0
        self.food: set[Cell] = set()
        self.snakes: list[Snake] = []
        self.hazards: dict[Cell, int] = {}     # cell -> hazard layers
        self.pending: dict[Cell, int] = {}     # snail_mode: tails to come -> layers
        self.mapw: list[int] = [0] * MAP_WORDS  # the map's progress (sbx.h)
        self.init(int(seed))

    @property
    def params(self) -> str:
        return self.p.describe()

    # -- helpers ---------------------------------------------------------------
    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.p.width and 0 <= y < self.p.height

    def cell_index(self, cell: Cell) -> int:
        return cell[1] * self.p.width + cell[0]

    def cell_at(self, index: int) -> Cell:
        return (index % self.p.width, index // self.p.width)

    def _body_counts(self) -> Counter:
        """Per cell, the number of NON-head segments of live snakes on it (C's
        `cells & BODY_MASK`): a head on a counted cell has hit a body."""
        counts: Counter = Counter()
        for s in self.snakes:
            if s.alive:
                counts.update(s.body[1:])
        return counts

    def _live_heads(self) -> list[Cell]:
        return [s.head for s in self.snakes if s.alive]

    @property
    def alive_count(self) -> int:
        return sum(1 for s in self.snakes if s.alive)

    # -- init ------------------------------------------------------------------
    def init(self, seed: int) -> None:
        """The start position for a seed: the map's setup (reference_maps),
        drawing from the RNG in exactly C's order."""
        self.rng = SplitMix64(seed)
        self.turn = 0
        self.food = set()
        self.hazards = {}
        self.pending = {}
        self.mapw = [0] * MAP_WORDS
        maps.setup(self)

    def place_at(self, starts: Sequence[Cell]) -> None:
        """Snake i on starts[i], three segments stacked, full health."""
        self.snakes = [Snake(body=[tuple(starts[i])] * 3, health=self.p.max_health)
                       for i in range(self.p.snakes)]

    def place_fixed(self) -> None:
        """The standard placement (snakes_place_fixed): shuffle the corners,
        shuffle the edge midpoints, toss the coin for which go first."""
        W, H = self.p.width, self.p.height
        lo, hx, hy, mx, my = 1, W - 2, H - 2, (W - 1) // 2, (H - 1) // 2
        corners = [(lo, lo), (lo, hy), (hx, lo), (hx, hy)]
        mids = [(lo, my), (mx, lo), (mx, hy), (hx, my)]
        for group in (corners, mids):  # Fisher-Yates, from the back
            for i in range(3, 0, -1):
                j = self.rng.below(i + 1)
                group[i], group[j] = group[j], group[i]
        corners_first = self.rng.below(2) == 0
        starts = []
        for i in range(self.p.snakes):
            use_corners = (i < 4) == corners_first
            starts.append(corners[i % 4] if use_corners else mids[i % 4])
        self.place_at(starts)

    def food_add(self, cell: Cell) -> None:
        self.food.add(cell)

    def food_fixed(self, avoid_hazards: bool) -> None:
        """The start food: one diagonal to each head, away from the centre
        (none with more than four snakes on a board under 11x11 cells), then
        the centre if it is free."""
        W, H = self.p.width, self.p.height
        mx, my = (W - 1) // 2, (H - 1) // 2
        centre = (mx, my)
        counts = self._body_counts()
        heads = [s.head for s in self.snakes]
        small = W * H < 11 * 11
        for s in (self.snakes if self.p.snakes <= 4 or not small else []):
            sx, sy = s.head
            candidates = []
            for dx, dy in FOOD_DIAGONALS:
                cell = (sx + dx, sy + dy)
                x, y = cell
                if not self.on_board(cell):
                    continue
                if counts[cell] or cell in self.food:   # body or food
                    continue
                if avoid_hazards and cell in self.hazards:
                    continue
                if cell in heads or cell == centre:
                    continue
                if x in (0, W - 1) and y in (0, H - 1):  # a corner
                    continue
                away = (x < sx < mx) or (mx < sx < x) or (y < sy < my) or (my < sy < y)
                if not away:
                    continue
                candidates.append(cell)
            if candidates:
                self.food.add(candidates[self.rng.below(len(candidates))])
        centre_taken = counts[centre] > 0 or centre in self.food or centre in heads
        if avoid_hazards and centre in self.hazards:
            centre_taken = True
        if not centre_taken:
            self.food.add(centre)

    def reseed(self, seed: int) -> None:
        """Replace the RNG stream of chance events (food spawns)."""
        self.rng = SplitMix64(int(seed))

    def clone(self) -> "SnakesGame":
        g = SnakesGame.__new__(SnakesGame)
        g.p = self.p
        g.num_agents = self.num_agents
        g.rng = self.rng.copy()
        g.turn = self.turn
        g.food = set(self.food)
        g.snakes = [s.copy() for s in self.snakes]
        g.hazards = dict(self.hazards)
        g.pending = dict(self.pending)
        g.mapw = list(self.mapw)
        return g

    # -- rules -----------------------------------------------------------------
    def legal_moves(self, agent: int) -> list[int]:
        """All four moves for a live snake (moving into the neck is legal and
        fatal), none for a dead one."""
        self._check_agent(agent)
        return [UP, DOWN, LEFT, RIGHT] if self.snakes[agent].alive else []

    def _target(self, snake: Snake, move: int) -> Cell | None:
        """Where `move` takes the head; None off the board (wrapped boards
        have no off)."""
        x, y = snake.head[0] + DX[move], snake.head[1] + DY[move]
        if self.p.wrapped:
            return (x % self.p.width, y % self.p.height)
        return (x, y) if self.on_board((x, y)) else None

    def _out_before_collisions(self, snake: Snake, cell: Cell | None) -> bool:
        """Off the board, or no health left after the move: one point a turn
        and a hazard's damage per layer (on a hazard without food), unless
        the cell holds food."""
        if cell is None:
            return True
        if cell in self.food:
            return False
        health = snake.health - 1
        if cell in self.hazards:
            health = min(health - self.hazards[cell] * self.p.hazard_damage, self.p.max_health)
        return health <= 0

    def fatal_moves(self, agent: int) -> int:
        """The moves that kill `agent` this turn whatever the others play, as
        a mask (bit m: move m): out before collisions (off the board,
        starving, a hazard's damage) or onto a segment that is still there
        after the move. Every snake keeps all its body but its last segment
        (its head becomes its neck), wherever it moves -- except a snake that
        is out before collisions whatever it plays, which is removed before
        they are judged. Written from the rules, not from C's counts."""
        self._check_agent(agent)
        me = self.snakes[agent]
        if not me.alive:
            return 0
        stays: set[Cell] = set()
        for j, o in enumerate(self.snakes):
            if not o.alive:
                continue
            if j != agent and all(self._out_before_collisions(o, self._target(o, m))
                                  for m in range(4)):
                continue      # out whatever it does: gone before collisions
            stays.update(o.body[:-1])
        mask = 0
        for m in range(4):
            cell = self._target(me, m)
            if self._out_before_collisions(me, cell) or cell in stays:
                mask |= 1 << m
        return mask

    def is_alive(self, agent: int) -> bool:
        self._check_agent(agent)
        return self.snakes[agent].alive

    @property
    def alive(self) -> list[bool]:
        return [s.alive for s in self.snakes]

    @property
    def is_terminal(self) -> bool:
        """Turn limit reached, or at most one snake alive (solo: none)."""
        if self.p.max_turns > 0 and self.turn >= self.p.max_turns:
            return True
        if self.p.solo_end:
            return self.alive_count == 0
        return self.alive_count <= 1

    def _check_agent(self, agent: int) -> None:
        if not 0 <= agent < self.num_agents:
            raise InvalidArgument(f"agent {agent} out of range 0..{self.num_agents - 1}")

    def _check_joint(self, joint: Sequence[int | None]) -> list[int]:
        """sbx_game_check_joint: every live agent's move must be legal; dead
        agents get MOVE_NONE whatever was passed."""
        if len(joint) != self.num_agents:
            raise InvalidArgument(
                f"joint action needs {self.num_agents} moves, got {len(joint)}")
        moves = []
        for a in range(self.num_agents):
            legal = self.legal_moves(a)
            m = MOVE_NONE if joint[a] is None else int(joint[a])
            if not legal:
                moves.append(MOVE_NONE)
            elif m in legal:
                moves.append(m)
            else:
                raise InvalidArgument(f"agent {a}: move {m} is not legal in this state")
        return moves

    def step(self, joint: Sequence[int | None]) -> list[float]:
        """One simultaneous turn; returns each agent's reward for it: -1 for
        a snake that died this turn, +1 for a survivor when the game just
        ended, 0 otherwise."""
        if self.is_terminal:
            raise InvalidState("the game is over (terminal state)")
        moves = self._check_joint(joint)
        p = self.p
        turn = self.turn + 1  # the turn being produced
        was_alive = [s.alive for s in self.snakes]
        live = [s for s in self.snakes if s.alive]

        # 1. move: new head, last segment removed (its cell frees this turn);
        #    a wrapped board brings a head off one edge in at the other;
        # 2. every live snake loses one health.
        for i, s in enumerate(self.snakes):
            if not s.alive:
                continue
            move = moves[i] & 3
            x, y = s.head[0] + DX[move], s.head[1] + DY[move]
            if p.wrapped:
                x, y = x % p.width, y % p.height
            s.body.insert(0, (x, y))
            s.body.pop()
            s.health -= 1

        # 3. hazards, before feeding: a head on a hazard without food loses
        # hazard_damage per layer (negative heals), kept in 0..max_health; at
        # 0 the snake is out (cause: hazard) before it could eat.
        for i, s in enumerate(self.snakes):
            if not s.alive or s.head not in self.hazards or s.head in self.food:
                continue
            h = s.health - self.hazards[s.head] * p.hazard_damage
            s.health = min(max(h, 0), p.max_health)
            if s.health <= 0:
                self._kill(s, CAUSE_HAZARD, turn)
        live = [s for s in self.snakes if s.alive]

        # 3. feeding, before eliminations: every head on a food eats it (two
        # heads on one food both eat); the eater grows by duplicating its tail.
        eaten = []
        for s in live:
            if s.head in self.food:   # never true off the board
                s.health = p.max_health
                # C's body ring holds ring_cap segments: a snake that long
                # (only reachable from an imported, heavily stacked body)
                # eats without growing.
                if len(s.body) < p.ring_cap:
                    s.body.append(s.body[-1])
                eaten.append(s.head)
        for cell in eaten:
            self.food.discard(cell)

        # 4a. out of health, out of bounds: decided together, applied at once.
        cause = [CAUSE_NONE] * self.num_agents
        for i, s in enumerate(self.snakes):
            if not s.alive:
                continue
            if s.health <= 0:
                cause[i] = CAUSE_STARVED
            elif not self.on_board(s.head):
                cause[i] = CAUSE_OUT_OF_BOUNDS
        for i, s in enumerate(self.snakes):
            if cause[i]:
                self._kill(s, cause[i], turn)

        # 4b. collisions among the snakes still alive, applied at once. The
        # bodies of snakes eliminated in 4a are no longer obstacles.
        counts = self._body_counts()
        for i, s in enumerate(self.snakes):
            if not s.alive:
                continue
            if counts[s.head]:
                own = s.head in s.body[1:]
                cause[i] = CAUSE_SELF_COLLISION if own else CAUSE_BODY_COLLISION
                continue
            for j, o in enumerate(self.snakes):
                if j != i and o.alive and o.head == s.head and o.length >= s.length:
                    cause[i] = CAUSE_HEAD_TO_HEAD
                    break
        for i, s in enumerate(self.snakes):
            if cause[i] and s.alive:
                self._kill(s, cause[i], turn)

        # 6. constrictor: no food stays; every snake (eliminated ones too, in
        # their record) is at full health and grows unless its tail is doubled.
        if p.constrictor:
            self.food = set()
            for s in self.snakes:
                s.health = p.max_health
                if 2 <= len(s.body) < p.ring_cap and s.body[-1] != s.body[-2]:
                    s.body.append(s.body[-1])

        # 7. the map: royale's zone, the map's food and hazards.
        maps.update(self, turn)
        self.turn = turn

        over = self.is_terminal
        rewards = []
        for i, s in enumerate(self.snakes):
            if was_alive[i] and not s.alive:
                rewards.append(-1.0)
            elif over and s.alive:
                rewards.append(1.0)
            else:
                rewards.append(0.0)
        return rewards

    @staticmethod
    def _kill(s: Snake, cause: int, turn: int) -> None:
        """A dead snake keeps its body (for export) but stops being an
        obstacle."""
        s.alive = False
        s.cause = cause
        s.death_turn = turn

    # -- food spawn ------------------------------------------------------------
    def standard_food(self, avoid_hazards: bool) -> None:
        """The standard map's food: the missing ones below minimum_food,
        else one with probability (food_spawn_chance - 1)%: the official
        engine spawns when 100 - uniform(0..99) < chance."""
        counts = self._body_counts()
        if len(self.food) < self.p.minimum_food:
            for _ in range(self.p.minimum_food - len(self.food)):
                self._spawn_one(counts, avoid_hazards)
        elif self.p.food_spawn_chance > 0 and \
                100 - self.rng.below(100) < self.p.food_spawn_chance:
            self._spawn_one(counts, avoid_hazards)

    def _spawn_ok(self, cell: Cell, counts: Counter, avoid_hazards: bool) -> bool:
        """Empty (no food, no body, no head), not next to any live head (as on
        a plain board, wrapped or not), and on some maps no hazard."""
        if cell in self.food or counts[cell]:
            return False
        if avoid_hazards and cell in self.hazards:
            return False
        return all(_manhattan(head, cell) > 1 for head in self._live_heads())

    def _spawn_one(self, counts: Counter, avoid_hazards: bool) -> bool:
        """Uniform over eligible cells: SPAWN_TRIES random draws, then an exact
        scan in cell-index order. Returns whether a food was placed."""
        n = self.p.ncells
        for _ in range(SPAWN_TRIES):
            cell = self.cell_at(self.rng.below(n))
            if self._spawn_ok(cell, counts, avoid_hazards):
                self.food.add(cell)
                return True
        eligible = [self.cell_at(c) for c in range(n)
                    if self._spawn_ok(self.cell_at(c), counts, avoid_hazards)]
        if not eligible:
            return False
        self.food.add(eligible[self.rng.below(len(eligible))])
        return True

    # -- evaluation ------------------------------------------------------------
    def territory(self) -> list[int]:
        """Cells each live snake reaches strictly first (its head excluded).

        A level-synchronous multi-source BFS from the live heads, in agent
        order, over cells free of live bodies, neighbours in DX/DY order. A
        cell reached at the same distance by two snakes is contested: it is
        nobody's and it is not expanded."""
        W, H = self.p.width, self.p.height
        CONTESTED = -1
        counts = self._body_counts()
        owner: dict[Cell, int] = {}
        level: dict[Cell, int] = {}
        queue: list[Cell] = []
        for i, s in enumerate(self.snakes):
            if s.alive:
                owner[s.head] = i
                level[s.head] = 0
                queue.append(s.head)
        head = 0
        while head < len(queue):
            cell = queue[head]
            head += 1
            o = owner[cell]
            if o == CONTESTED:
                continue
            x, y = cell
            next_level = level[cell] + 1
            for d in range(4):
                nb = (x + DX[d], y + DY[d])
                if self.p.wrapped:
                    nb = (nb[0] % W, nb[1] % H)
                if not (0 <= nb[0] < W and 0 <= nb[1] < H):
                    continue
                if counts[nb]:
                    continue
                if nb not in owner:
                    owner[nb] = o
                    level[nb] = next_level
                    queue.append(nb)
                elif level[nb] == next_level and owner[nb] != o and owner[nb] != CONTESTED:
                    owner[nb] = CONTESTED
        count = [0] * self.num_agents
        for cell in queue:
            if level[cell] > 0 and owner[cell] != CONTESTED:
                count[owner[cell]] += 1
        return count

    def evaluate(self) -> list[float]:
        """Per-snake leaf score; the floating-point operations are those of
        snakes_evaluate, in the same order, so the doubles are identical.

        alive: w_alive + w_length*length + w_health*health/max_health
               + w_outlived*(snakes dead) + w_food*hunger*(1 - d/(W+H))
               + w_space*territory/(W*H)
        dead:  w_dead + w_outlived*(snakes that died on an earlier turn)"""
        p = self.p
        n = self.num_agents
        terr = self.territory() if p.w_space != 0.0 else [0] * n
        dead_total = n - self.alive_count
        out = []
        for i, s in enumerate(self.snakes):
            if s.alive:
                v = p.w_alive
                v += p.w_length * float(s.length)
                v += p.w_health * (s.health / p.max_health)
                v += p.w_outlived * float(dead_total)
                if p.w_food != 0.0 and self.food:
                    best = min(self._distance(f, s.head) for f in self.food)
                    hunger = 1.0 - s.health / p.max_health
                    v += p.w_food * hunger * (1.0 - best / (p.width + p.height))
                if p.w_space != 0.0:
                    v += p.w_space * (terr[i] / p.ncells)
            else:
                before = sum(1 for j, o in enumerate(self.snakes)
                             if j != i and not o.alive and o.death_turn < s.death_turn)
                v = p.w_dead + p.w_outlived * float(before)
            out.append(v)
        return out

    def _distance(self, a: Cell, b: Cell) -> int:
        """Steps between two cells: across the edges too on wrapped boards."""
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        if self.p.wrapped:
            dx, dy = min(dx, self.p.width - dx), min(dy, self.p.height - dy)
        return dx + dy

    def ranking(self) -> list[int]:
        """Rank = number of snakes strictly better placed: survivors share
        rank 0; a dead snake is behind every snake that lived longer."""
        ranks = []
        for s in self.snakes:
            if s.alive:
                ranks.append(0)
            else:
                ranks.append(sum(1 for o in self.snakes
                                 if o.alive or o.death_turn > s.death_turn))
        return ranks

    def move_name(self, agent: int, move: int) -> str:
        return MOVE_NAMES[move] if 0 <= move < 4 else "?"

    # -- export / import / hash -------------------------------------------------
    def export(self) -> list[int]:
        """The flat int32 layout of sbx.h: header, food pairs in increasing
        cell order, then per snake alive, health, length, death_turn, cause
        and its body pairs head first."""
        p = self.p
        version = EXPORT_VERSION_HAZARDS if p.has_hazards else EXPORT_VERSION
        words = [version, p.width, p.height, p.snakes, self.turn, len(self.food)]
        for x, y in sorted(self.food, key=self.cell_index):
            words += [x, y]
        for s in self.snakes:
            words += [int(s.alive), s.health, s.length, s.death_turn, s.cause]
            for x, y in s.body:
                words += [x, y]
        if p.has_hazards:
            words.append(len(self.hazards) + len(self.pending))
            for cell in sorted(self.hazards, key=self.cell_index):
                words += [cell[0], cell[1], self.hazards[cell]]
            for cell in sorted(self.pending, key=self.cell_index):   # kept at y + height
                words += [cell[0], cell[1] + p.height, self.pending[cell]]
            words += list(self.mapw)
        return words

    def state_hash(self) -> int:
        return hash_words(self.export())

    def import_state(self, words: Sequence[int]) -> None:
        """Set the state from an export, validated exactly as snakes_import
        (same checks, same order, same messages). On error nothing changes.
        The RNG stream is not part of an export and is kept."""
        # The wrapper's checks (sandbox.native.Game.import_state) come first.
        try:
            arr = np.asarray(words, dtype=np.int64)
        except (TypeError, ValueError, OverflowError) as exc:
            raise InvalidArgument("state must be a flat list of integers") from exc
        if arr.ndim != 1:
            raise InvalidArgument("state must be a flat list of integers")
        words = [int(w) for w in arr]
        if any(w < -2**31 or w >= 2**31 for w in words):
            raise InvalidArgument("state words must fit in 32 bits")
        turn, food, snakes, hazards, pending, mapw = self._parse_import(words)
        self.turn, self.food, self.snakes = turn, food, snakes
        self.hazards, self.pending, self.mapw = hazards, pending, mapw

    def _parse_import(self, buf: list[int]) -> tuple[int, set[Cell], list[Snake]]:
        p = self.p
        W, H = p.width, p.height
        pos = 0

        def need(k: int) -> None:
            if pos + k > len(buf):
                raise InvalidArgument(f"import: data ends early at word {pos}")

        if len(buf) > EXPORT_MAX:
            raise InvalidArgument(f"import: {len(buf)} words, more than an export may hold "
                                  f"({EXPORT_MAX})")
        need(6)
        version = EXPORT_VERSION_HAZARDS if p.has_hazards else EXPORT_VERSION
        if buf[0] != version:
            if buf[0] in (EXPORT_VERSION, EXPORT_VERSION_HAZARDS):
                raise InvalidArgument(
                    f"import: export version {buf[0]}, but this game (ruleset {p.ruleset}, "
                    f"map {p.map}) exports version {version}")
            raise InvalidArgument(f"import: unknown export version {buf[0]}")
        if buf[1] != W or buf[2] != H or buf[3] != p.snakes:
            raise InvalidArgument(
                f"import: board {buf[1]}x{buf[2]} with {buf[3]} snakes does not match the "
                f"game's {W}x{H} with {p.snakes}")
        turn, nfood = buf[4], buf[5]
        if turn < 0 or turn > 1000000:
            raise InvalidArgument(f"import: turn {turn} out of range")
        if nfood < 0 or nfood > p.ncells:
            raise InvalidArgument(f"import: food count {nfood} out of range")
        pos = 6
        need(2 * nfood)
        food: set[Cell] = set()
        for _ in range(nfood):
            x, y = buf[pos], buf[pos + 1]
            pos += 2
            if not self.on_board((x, y)):
                raise InvalidArgument(f"import: food ({x},{y}) off the board")
            if (x, y) in food:
                raise InvalidArgument(f"import: food ({x},{y}) listed twice")
            food.add((x, y))

        snakes: list[Snake] = []
        counts: Counter = Counter()   # non-head segments of live snakes so far
        for i in range(p.snakes):
            need(5)
            alive, health, length, death_turn, cause = buf[pos:pos + 5]
            pos += 5
            if alive not in (0, 1):
                raise InvalidArgument(f"import: snake {i} alive flag {alive}")
            if health > p.max_health or health < (1 if alive else -1000):
                raise InvalidArgument(f"import: snake {i} health {health}")
            if length < 1 or length > p.ring_cap - 4:
                raise InvalidArgument(f"import: snake {i} length {length}")
            if alive:
                consistent = death_turn == -1 and cause == 0
            else:
                consistent = (0 <= death_turn <= turn
                              and CAUSE_STARVED <= cause <= CAUSE_HAZARD)
            if not consistent:
                raise InvalidArgument(
                    f"import: snake {i} death turn {death_turn} / cause {cause} inconsistent")
            need(2 * length)
            body: list[Cell] = []
            for k in range(length):
                x, y = buf[pos], buf[pos + 1]
                pos += 2
                inside = self.on_board((x, y))
                # A snake that died out of bounds keeps its head just off the board.
                oob_head = (k == 0 and not alive and cause == CAUSE_OUT_OF_BOUNDS
                            and -1 <= x <= W and -1 <= y <= H)
                if not inside and not oob_head:
                    raise InvalidArgument(
                        f"import: snake {i} segment {k} ({x},{y}) off the board")
                dx, dy = abs(x - body[-1][0]) if k else 0, abs(y - body[-1][1]) if k else 0
                if p.wrapped and inside:    # across an edge is next door too
                    dx, dy = (1 if dx == W - 1 else dx), (1 if dy == H - 1 else dy)
                if k > 0 and dx + dy > 1:
                    raise InvalidArgument(
                        f"import: snake {i} segments {k - 1} and {k} not adjacent")
                if k > 0 and alive:
                    if counts[(x, y)] >= 100:   # C counts them in 7 bits
                        raise InvalidArgument(f"import: too many segments on ({x},{y})")
                    counts[(x, y)] += 1
                body.append((x, y))
            snakes.append(Snake(body, health, bool(alive), death_turn, cause))
        hazards: dict[Cell, int] = {}
        pending: dict[Cell, int] = {}
        mapw = [0] * MAP_WORDS
        if p.has_hazards:
            need(1)
            nh = buf[pos]
            pos += 1
            if nh < 0 or nh > 2 * p.ncells:
                raise InvalidArgument(f"import: hazard cell count {nh} out of range")
            need(3 * nh + MAP_WORDS)
            top = 2 * H if p.map == "snail_mode" else H     # snail: tails to come
            for _ in range(nh):
                x, y, stack = buf[pos:pos + 3]
                pos += 3
                if not (0 <= x < W and 0 <= y < top):
                    raise InvalidArgument(f"import: hazard ({x},{y}) off the board")
                where, cell = (pending, (x, y - H)) if y >= H else (hazards, (x, y))
                if cell in where:
                    raise InvalidArgument(f"import: hazard ({x},{y}) listed twice")
                if not 1 <= stack <= maps.HZ_MAX_STACK:
                    raise InvalidArgument(f"import: hazard ({x},{y}) stack {stack}, expected "
                                          f"1..{maps.HZ_MAX_STACK}")
                where[cell] = stack
            for k in range(MAP_WORDS):
                if not -1 <= buf[pos + k] <= 50:
                    raise InvalidArgument(f"import: map word {k} is {buf[pos + k]}, out of range")
            mapw = list(buf[pos:pos + MAP_WORDS])
            self._check_map_words(mapw)
            pos += MAP_WORDS
        if pos != len(buf):
            raise InvalidArgument(f"import: {pos} words expected, got {len(buf)}")
        return turn, food, snakes, hazards, pending, mapw

    def _check_map_words(self, m: list[int]) -> None:
        """snakes_map_check_words."""
        p = self.p
        W, H = p.width, p.height
        if p.shrinks:
            if m[0] < 0 or m[1] >= W or m[2] < 0 or m[3] >= H:
                raise InvalidArgument(f"import: royale zone x {m[0]}..{m[1]} y {m[2]}..{m[3]} "
                                      "reaches off the board")
        elif p.map in ("hz_spiral", "hz_expand_box", "hz_expand_scatter"):
            unset = m[0] == -1 and m[1] == -1
            if not (unset or (0 <= m[0] < W and 0 <= m[1] < H)) or m[2] or m[3]:
                raise InvalidArgument(f"import: map origin ({m[0]},{m[1]}) is neither unset "
                                      "(-1,-1) nor on the board")
        elif p.map == "hz_grow_box":
            unset = m == [-1, -1, -1, -1]
            if not (unset or (0 <= m[0] <= m[1] < W and 0 <= m[2] <= m[3] < H)):
                raise InvalidArgument(f"import: grow box x {m[0]}..{m[1]} y {m[2]}..{m[3]} is "
                                      "neither unset nor on the board")
        elif any(m):
            raise InvalidArgument(f"import: map {p.map} keeps no map words (got "
                                  f"{m[0]} {m[1]} {m[2]} {m[3]})")

    def __repr__(self) -> str:
        return f"<reference SnakesGame turn {self.turn} alive {self.alive}>"

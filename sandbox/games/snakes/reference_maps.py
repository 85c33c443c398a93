"""The official Battlesnake maps in plain Python: the twin of
native/src/games/snakes_maps.c for the snakes reference (reference.py).

A map decides where the snakes start, the start food and hazards, and after
every turn the map's food and hazards (royale's safe zone closing in, a
spiral growing, pools drying up). Each random choice is drawn from the
game's own generator when it is made, in the same order as C draws it, so
the twin's states match the engine's word for word.

The functions take the reference game (`g`: its params `g.p`, rng, snakes,
food set, hazards dict cell -> layers, and the four map words `g.mapw`)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

Cell = tuple[int, int]

# the castle-wall and rivers/islands-and-bridges layouts (snakes_maps.c's
# LAYOUTS): assets/maps/battlesnake/layouts.json
_DATA = json.loads((Path(__file__).resolve().parents[3] / "assets" / "maps" / "battlesnake"
                    / "layouts.json").read_text())
LAYOUTS = _DATA["maps"]
# arcade_maze's hazard walls, top row (y = 20) first
ARCADE_ROWS = tuple(_DATA["arcade_maze_rows"])

PITS_STARTS = ((1, 1), (9, 1), (1, 9), (9, 9))
ARCADE_STARTS = ((4, 7), (14, 7), (4, 17), (14, 17), (9, 9), (9, 13))
ARCADE_FOOD = ((1, 1), (3, 11), (4, 7), (4, 17), (9, 1), (9, 5), (9, 11), (9, 17), (14, 7),
               (14, 17), (15, 11), (17, 1))
POOLS = {7: (((3, 3),),),
         11: (((3, 3), (7, 7)), ((3, 7), (7, 3)), ((3, 5), (7, 5)), ((5, 7), (5, 3))),
         19: (((5, 5), (13, 13), (5, 13), (13, 5)), ((5, 10), (13, 10), (10, 13), (10, 5)))}
HZ_MAX_STACK = 100


# ---------------------------------------------------------------- hazards
def add(g, x: int, y: int) -> None:
    """One more hazard layer on a cell (off the board: nothing)."""
    if 0 <= x < g.p.width and 0 <= y < g.p.height:
        g.hazards[(x, y)] = min(HZ_MAX_STACK, g.hazards.get((x, y), 0) + 1)


def ring(g, offset: int) -> None:
    """The official drawRing: rows offset-1 and H-offset, columns offset-1
    and W-offset, between them."""
    x0, x1, y0, y1 = offset - 1, g.p.width - offset, offset - 1, g.p.height - offset
    for x in range(x0, x1 + 1):
        add(g, x, y0)
        add(g, x, y1)
    for y in range(y0 + 1, y1):
        add(g, x0, y)
        add(g, x1, y)


def square(g, sx: int, sy: int, offset: int) -> None:
    for x in range(sx - offset, sx + offset + 1):
        for y in range(sy - offset, sy + offset + 1):
            if abs(x - sx) == offset or abs(y - sy) == offset:
                add(g, x, y)


def paint_royale(g) -> None:
    x0, x1, y0, y1 = g.mapw
    g.hazards = {}
    for y in range(g.p.height):
        for x in range(g.p.width):
            if x < x0 or x > x1 or y < y0 or y > y1:
                add(g, x, y)


def shrink_royale(g) -> None:
    """One side of the safe zone moves in (left, right, bottom, top); an
    empty zone stays empty."""
    m = g.mapw
    if m[0] > m[1] or m[2] > m[3]:
        return
    side = g.rng.below(4)
    if side == 0:
        m[0] += 1
    elif side == 1:
        m[1] -= 1
    elif side == 2:
        m[2] += 1
    else:
        m[3] -= 1
    paint_royale(g)


def spiral_cell(sx: int, sy: int, k: int) -> Cell:
    """The k-th cell (k >= 1) of the clockwise spiral: ring r holds 8(r+1)
    cells, from just right of its top-left corner right, down, left, up."""
    r = 0
    while 4 * (r + 1) * (r + 2) < k:
        r += 1
    o, j = r + 1, k - 1 - 4 * r * (r + 1)
    if j < 2 * o:
        return (sx - o + 1 + j, sy + o)
    if j < 4 * o:
        return (sx + o, sy + o - (j - 2 * o + 1))
    if j < 6 * o:
        return (sx + o - (j - 4 * o + 1), sy - o)
    return (sx - o, sy - o + (j - 6 * o + 1))


def draw_cell(g, ok: Callable[[Cell], bool]) -> Cell | None:
    """A uniformly drawn cell (in cell-index order) among those `ok` takes."""
    W = g.p.width
    cells = [(c % W, c // W) for c in range(g.p.ncells) if ok((c % W, c // W))]
    if not cells:
        return None
    return cells[g.rng.below(len(cells))]


def ring_size(g, sx: int, sy: int, o: int) -> int:
    return sum(1 for x in range(sx - o, sx + o + 1) for y in range(sy - o, sy + o + 1)
               if (abs(x - sx) == o or abs(y - sy) == o)
               and 0 <= x < g.p.width and 0 <= y < g.p.height)


def shuffled(g, items) -> list:
    """Fisher-Yates from the back, one draw per step (C's shuffle_xy)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = g.rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def paint_pits(g, layers: int) -> None:
    g.hazards = {}
    for x in range(1, g.p.width, 2):
        for y in range(1, g.p.height, 2):
            if (x, y) not in PITS_STARTS and layers:
                g.hazards[(x, y)] = layers


# ---------------------------------------------------------------- setup
def setup_layout(g, lay: dict) -> None:
    """A castle: the start groups in use shuffled, snake i on spot i, the
    walls. Rivers and islands: snakes dealt round the quadrants from a
    random one, each a random spot of it (the last spot moved into the
    taken one's place); the walls; the start food off hazards."""
    groups = [[tuple(c) for c in grp] for grp in lay["start_groups"]]
    if lay["kind"] == "castle":
        n = g.p.snakes
        used = groups[0] + (groups[1] if n >= 5 else []) + (groups[2] if n > 8 else [])
        g.place_at(shuffled(g, used))
        for x, y in lay["hazards"]:
            add(g, x, y)
        return
    starts, q = [], g.rng.below(4)
    for _ in range(g.p.snakes):
        bucket = groups[q]
        k = g.rng.below(len(bucket))
        starts.append(bucket[k])
        bucket[k] = bucket[-1]
        bucket.pop()
        q = (q + 1) % 4
    g.place_at(starts)
    for x, y in lay["hazards"]:
        add(g, x, y)
    if g.p.initial_food:
        g.food_fixed(avoid_hazards=True)


def castle_food(g, lay: dict, last: int) -> None:
    """From the 11th turn on, while fewer than max_food lie there: one food
    on a random spot with no snake's body on it, no snake's head next to it
    (eliminated snakes' too) and no food on or next to it."""
    if last < 10 or len(g.food) == lay["max_food"]:
        return

    def free(c: Cell) -> bool:
        for s in g.snakes:
            if abs(s.head[0] - c[0]) + abs(s.head[1] - c[1]) <= 1 or c in s.body[1:]:
                return False
        return all(abs(f[0] - c[0]) + abs(f[1] - c[1]) > 1 for f in g.food)
    spots = [tuple(c) for c in lay["food"] if free(tuple(c))]
    if spots:
        g.food_add(spots[g.rng.below(len(spots))])


def setup(g) -> None:
    """Snakes, start food, start hazards and map words for a new game."""
    p = g.p
    W, H = p.width, p.height
    if p.map in LAYOUTS:
        setup_layout(g, LAYOUTS[p.map])
        return
    if p.map == "hz_hazard_pits":
        g.place_at(shuffled(g, PITS_STARTS))
        if p.initial_food:
            g.food_fixed(avoid_hazards=False)
    elif p.map == "arcade_maze":
        g.place_at(shuffled(g, ARCADE_STARTS[:4]) + list(ARCADE_STARTS[4:]))
        for r, row in enumerate(ARCADE_ROWS):
            for x, ch in enumerate(row):
                if ch == "#":
                    add(g, x, 20 - r)
        if p.initial_food and p.minimum_food > 0:
            g.food_add((9, 11))
    elif p.map == "empty":
        g.place_fixed()
    else:
        g.place_fixed()
        if p.initial_food:
            g.food_fixed(avoid_hazards=False)
    if p.map == "hz_inner_wall":
        ring(g, 2)
    elif p.map == "hz_rings":
        for o in range(2, W // 2, 2):
            ring(g, o)
    elif p.map == "hz_columns":
        for x in range(1, W, 2):
            for y in range(1, H, 2):
                add(g, x, y)
    elif p.map == "healing_pools":
        options = POOLS[W]
        for x, y in options[g.rng.below(len(options))]:
            add(g, x, y)
    elif p.map in ("hz_spiral", "hz_expand_box", "hz_expand_scatter"):
        g.mapw[0] = g.mapw[1] = -1
    elif p.map == "hz_grow_box":
        g.mapw[:] = [-1, -1, -1, -1]
    if p.shrinks:
        g.mapw[:] = [0, W - 1, 0, H - 1]


# ---------------------------------------------------------------- each turn
def arcade_food(g) -> None:
    """With probability (chance + 1)%: one food on a free spot of twelve (no
    food, no snake's body, eliminated snakes' bodies included)."""
    p = g.p
    if p.food_spawn_chance == 0 or g.rng.below(100) > p.food_spawn_chance:
        return
    bodies = {c for s in g.snakes for c in s.body}
    free = [c for c in ARCADE_FOOD if c not in g.food and c not in bodies]
    if free:
        g.food_add(free[g.rng.below(len(free))])


def update(g, turn: int) -> None:
    """After a turn's rules; `turn` is the turn just produced (the official
    maps' "last board" is turn - 1)."""
    p = g.p
    W, H, every, last, m = p.width, p.height, p.shrink_every, turn - 1, g.mapw
    if p.map in LAYOUTS:     # fixed walls: only food
        lay = LAYOUTS[p.map]
        if lay["kind"] == "castle":
            castle_food(g, lay, last)
        else:
            g.standard_food(avoid_hazards=True)
        return
    if p.shrinks and turn >= every and turn % every == 0:
        shrink_royale(g)
    if p.map == "arcade_maze":
        arcade_food(g)
    elif p.map != "empty":
        g.standard_food(avoid_hazards=False)
    full = len(g.hazards) == p.ncells
    if p.map == "hz_spiral":
        if turn >= 3 and turn % 3 == 0:
            if turn == 3:
                ox, oy = W * 3 // 10, H * 3 // 10
                m[0] = ox + g.rng.below(W - 2 * ox)
                m[1] = oy + g.rng.below(H - 2 * oy)
                add(g, m[0], m[1])
            elif m[0] >= 0:
                k = turn // 3 - 1
                rings = max(m[0], m[1], W - m[0], H - m[1])
                if k <= 4 * rings * (rings + 1):
                    add(g, *spiral_cell(m[0], m[1], k))
    elif p.map == "hz_scatter":
        if turn >= 2 and turn % 2 == 0:
            c = draw_cell(g, lambda c: c not in g.hazards)
            if c is not None:
                add(g, *c)
    elif p.map == "hz_grow_box":
        if (turn - 1) % 12 == 0 and not full:
            if turn == 1:
                m[0] = m[1] = 2 + g.rng.below(W - 3)
                m[2] = m[3] = 2 + g.rng.below(H - 3)
                add(g, m[0], m[2])
            elif m[0] >= 0:
                dirs = [d for d, ok in (("left", m[0] > 0), ("up", m[3] < H - 1),
                                        ("right", m[1] < W - 1), ("down", m[2] > 0)) if ok]
                if dirs:
                    d = dirs[g.rng.below(len(dirs))]
                    if d == "left":
                        m[0] -= 1
                        for y in range(m[2], m[3] + 1):
                            add(g, m[0], y)
                    elif d == "up":
                        m[3] += 1
                        for x in range(m[0], m[1] + 1):
                            add(g, x, m[3])
                    elif d == "right":
                        m[1] += 1
                        for y in range(m[2], m[3] + 1):
                            add(g, m[1], y)
                    else:
                        m[2] -= 1
                        for x in range(m[0], m[1] + 1):
                            add(g, x, m[2])
    elif p.map == "hz_expand_box":
        if (turn - 1) % 20 == 0 and not full:
            if turn == 1:
                m[0] = 2 + g.rng.below(W - 3)
                m[1] = 2 + g.rng.below(W - 3)
                add(g, m[0], m[1])
            elif m[0] >= 0 and turn // 20 <= max(m[0], m[1], W - m[0], H - m[1]):
                square(g, m[0], m[1], turn // 20)
    elif p.map == "hz_expand_scatter":
        if (turn - 1) % 2 == 0 and not full:
            if turn == 1:
                m[0] = 1 + g.rng.below(W - 1)
                m[1] = 1 + g.rng.below(W - 1)
                add(g, m[0], m[1])
            elif m[0] >= 0:
                k = turn // 2 - 1
                for o in range(1, max(m[0], m[1], W - m[0], H - m[1]) + 1):
                    n = ring_size(g, m[0], m[1], o)
                    if k < n:
                        c = draw_cell(g, lambda c, o=o: max(abs(c[0] - m[0]),
                                                            abs(c[1] - m[1])) == o
                                      and c not in g.hazards)
                        if c is not None:
                            add(g, *c)
                        break
                    k -= n
    elif p.map == "hz_hazard_pits":
        if last % every == 0:
            paint_pits(g, min((last // every) % 7, 4))
    elif p.map == "healing_pools":
        if last > 0 and last % every == 0 and g.hazards:
            k = g.rng.below(sum(g.hazards.values()))
            for c in sorted(g.hazards, key=g.cell_index):     # C scans cell order
                k -= g.hazards[c]
                if k < 0:
                    del g.hazards[c]
                    break
    elif p.map == "snail_mode":
        # every layer wears off by one; last turn's tails become that many
        # layers (not under a live head); each live snake whose tail is not
        # doubled leaves its tail for the next turn, its length in layers
        heads = {s.head for s in g.snakes if s.alive}
        worn = {c: k - 1 for c, k in g.hazards.items() if k > 1}
        for c, k in g.pending.items():
            if c not in heads:
                worn[c] = min(HZ_MAX_STACK, worn.get(c, 0) + k)
        g.hazards, g.pending = worn, {}
        for s in g.snakes:
            if s.alive and len(s.body) >= 2 and s.body[-1] != s.body[-2]:
                tail = s.body[-1]
                g.pending[tail] = min(HZ_MAX_STACK, g.pending.get(tail, 0) + len(s.body))
    elif p.map == "sinkholes":
        cx, cy, rings = W // 2, H // 2, p.sinkhole_rings
        if last == 1:
            add(g, cx, cy)
        elif 1 < last <= every * rings and (last - 1) % every == 0:
            o = (last - 1) // every
            for x in range(cx - o, cx + o + 1):
                for y in range(cy - o, cy + o + 1):
                    if not (abs(x - cx) == o and abs(y - cy) == o):
                        add(g, x, y)

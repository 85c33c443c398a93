#!/usr/bin/env python3
"""A maze bot over JSON lines (docs/bots.md): each explorer walks the first
step of a shortest path (counting mud) to the nearest cheese, found by
Dijkstra on the passage costs of the turn's "state", and sends the distance
beyond each legal move as its debug values. Standard library only.

Run it against the searches:
    python -m sandbox play examples/bots/maze_vs_random.toml
"""
import heapq
import json
import sys

# maze move ids (the start message's move_names say the same: up, down, left, right, stay)
DELTAS = {0: (0, 1), 1: (0, -1), 2: (-1, 0), 3: (1, 0)}


def cost(state, x, y, move):
    """The passage cost of a move from (x, y): 0 a wall or the edge."""
    w, h = state["width"], state["height"]
    if move == 0:
        return state["up"][y][x] if y < h - 1 else 0
    if move == 1:
        return state["up"][y - 1][x] if y > 0 else 0
    if move == 2:
        return state["right"][y][x - 1] if x > 0 else 0
    return state["right"][y][x] if x < w - 1 else 0


def distances(state, start, legal):
    """For each first move from start, the cost of the cheapest path that
    begins with it and reaches a cheese (Dijkstra over (cell, first move);
    a move with no cheese beyond it is left out)."""
    cheese = {tuple(c) for c in state["cheese"]}
    best = {}
    heap = []
    for move in legal:
        if move in DELTAS:
            c = cost(state, start[0], start[1], move)
            if c > 0:
                dx, dy = DELTAS[move]
                heapq.heappush(heap, (c, (start[0] + dx, start[1] + dy), move))
    out = {}
    while heap:
        d, cell, first = heapq.heappop(heap)
        if first in out or best.get((cell, first), 1 << 30) <= d:
            continue
        best[(cell, first)] = d
        if cell in cheese:
            out[first] = d
            continue
        x, y = cell
        for move, (dx, dy) in DELTAS.items():
            c = cost(state, x, y, move)
            if c > 0:
                heapq.heappush(heap, (d + c, (x + dx, y + dy), first))
    return out


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "end":
            return
        if msg["type"] != "turn":
            continue
        state = msg["state"]
        moves, values = [], []
        for entry in msg["legal"]:
            e = state["explorers"][entry["agent"]]
            legal = [m["index"] for m in entry["moves"]]
            dist = distances(state, (e["x"], e["y"]), legal) if not e["stuck"] else {}
            # the nearest cheese's first step; ties to the lower move id (deterministic)
            step = min(dist, key=lambda m: (dist[m], m)) if dist else legal[0]
            moves.append(step)
            # debug: minus the distance to the nearest cheese beyond each move (the arena
            # shows them beside the moves); null for a move with none beyond it
            values.append([-dist[m] if m in dist else None for m in legal])
        sys.stdout.write(json.dumps({"moves": moves, "debug": {
            "message": f"{state['cheese_left']} cheese left", "values": values}}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

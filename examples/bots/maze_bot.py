#!/usr/bin/env python3
"""A maze bot over JSON lines (docs/bots.md): each explorer walks the first
step of a shortest path (counting mud) to the nearest cheese, found by
Dijkstra on the passage costs of the turn's "state". Standard library only.

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


def first_step(state, start, legal):
    """The first move of a cheapest path from start to any cheese (None if
    none is reachable). Ties go to the lower move id, so the bot is
    deterministic."""
    cheese = {tuple(c) for c in state["cheese"]}
    if not cheese:
        return None
    best = {start: 0}
    heap = [(0, start, None)]
    while heap:
        d, (x, y), first = heapq.heappop(heap)
        if d > best.get((x, y), 1 << 30):
            continue
        if (x, y) in cheese and first is not None:
            return first
        for move, (dx, dy) in DELTAS.items():
            c = cost(state, x, y, move)
            if c <= 0:
                continue
            nxt = (x + dx, y + dy)
            f = move if first is None else first
            if (x, y) == start and move not in legal:
                continue
            if d + c < best.get(nxt, 1 << 30):
                best[nxt] = d + c
                heapq.heappush(heap, (d + c, nxt, f))
    return None


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "end":
            return
        if msg["type"] != "turn":
            continue
        state = msg["state"]
        moves = []
        for entry in msg["legal"]:
            e = state["explorers"][entry["agent"]]
            legal = [m["index"] for m in entry["moves"]]
            step = first_step(state, (e["x"], e["y"]), legal) if not e["stuck"] else None
            moves.append(step if step in legal else legal[0])
        sys.stdout.write(json.dumps({"moves": moves, "debug": {
            "message": f"{state['cheese_left']} cheese left"}}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

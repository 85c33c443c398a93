"""A safe move without a search: what a served snake answers when it cannot
search the state (a ruleset we do not model, a game over the server's
bound). One ply, in plain Python: stay on the board, off every body cell
that will still be there next turn, prefer cells no longer-or-equal snake's
head can reach too, then hazard-free cells; ties go up, down, left, right."""
from __future__ import annotations

from .schema import MOVES, GameState

DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0))


def safe_move(st: GameState) -> int:
    blocked: set[tuple[int, int]] = set()
    for s in st.snakes:
        body = list(s.body)
        # the tail cell frees this turn unless the snake just ate (stacked tail)
        if len(body) > 1 and body[-1] != body[-2]:
            body = body[:-1]
        blocked.update(body)
    me = st.you
    danger: set[tuple[int, int]] = set()
    for s in st.snakes:
        if s.id != me.id and len(s.body) >= len(me.body):
            hx, hy = s.head
            danger.update((hx + dx, hy + dy) for dx, dy in DELTAS)
    hazards = set(st.hazards)
    best, best_score = 0, None
    for m, (dx, dy) in enumerate(DELTAS):
        c = (me.head[0] + dx, me.head[1] + dy)
        inside = 0 <= c[0] < st.width and 0 <= c[1] < st.height
        score = (inside and c not in blocked, c not in danger, c not in hazards)
        if best_score is None or score > best_score:
            best, best_score = m, score
    return best


__all__ = ["MOVES", "safe_move"]

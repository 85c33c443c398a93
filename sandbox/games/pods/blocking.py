"""Emergent blocking, measured: per team, the share of turns in
which its trailing pod is closer to the opponent leader than to its own next
checkpoint — a pod that has given up racing to get in the leader's way.

Read from a match's states (decoded exports, one after each turn); nothing in
the search knows about it. Teams of two pods only; the opponent is the best
other player still in (by its leading pod's progress), as in pods.c's team
evaluation. A per-match analysis over a few hundred states: Python is fine.
"""
from __future__ import annotations

import math
from typing import Sequence

from .view import PodsView


def _dist(ax: float, ay: float, bx: float, by: float) -> float:
    return math.hypot(ax - bx, ay - by)


def progress_key(view: PodsView, agent: int) -> tuple[int, float]:
    """Orders pods by progress: checkpoints passed, then nearer the next."""
    q = view.pods[agent]
    cx, cy = view.checkpoints[q.next_cp]
    return (q.passed, -_dist(q.x, q.y, cx, cy))


def leader(view: PodsView, player: int) -> int:
    """The player's leading pod (agent index; the first on a tie, as pods.c)."""
    first = player * view.per_player
    best = first
    for a in range(first + 1, first + view.per_player):
        if progress_key(view, a) > progress_key(view, best):
            best = a
    return best


def is_blocking(view: PodsView, player: int) -> bool | None:
    """Whether the player's trailing pod is closer to the opponent leader than
    to its own next checkpoint in this state; None when the question does
    not apply (one pod per player, the player out, no opponent in)."""
    if view.per_player != 2 or view.out_turn[player] >= 0:
        return None
    rivals = [p for p in range(view.players) if p != player and view.out_turn[p] < 0]
    if not rivals:
        return None
    opp = max(rivals, key=lambda p: progress_key(view, leader(view, p)))
    trail = view.pods[leader(view, player) ^ 1]
    target = view.pods[leader(view, opp)]
    cx, cy = view.checkpoints[trail.next_cp]
    return _dist(trail.x, trail.y, target.x, target.y) < _dist(trail.x, trail.y, cx, cy)


def blocking_turns(views: Sequence[PodsView]) -> list[tuple[int, int]]:
    """Per player: (turns blocking, turns the question applied) over the
    states, each the state after one turn."""
    if not views:
        return []
    out = [[0, 0] for _ in range(views[0].players)]
    for v in views:
        for p in range(v.players):
            b = is_blocking(v, p)
            if b is not None:
                out[p][0] += int(b)
                out[p][1] += 1
    return [(b, n) for b, n in out]


def blocking_share(views: Sequence[PodsView]) -> list[float | None]:
    """Per player: the share of turns its trailing pod blocks (None: never
    applied)."""
    return [b / n if n else None for b, n in blocking_turns(views)]

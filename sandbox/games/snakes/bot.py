"""The state as a process player sees it (docs/bots.md, "snakes")."""
from __future__ import annotations

from typing import Any

from .view import SnakeByteView


def bot_view(view: Any) -> dict[str, Any]:
    if isinstance(view, SnakeByteView):
        return {
            "ruleset": "snakebyte", "width": view.width, "height": view.height,
            "turn": view.turn, "max_turns": view.max_turns,
            # one string per row, y = 0 first (y grows downward): '#' wall, '.' free
            "walls": ["".join("#" if c else "." for c in row) for row in view.walls],
            "apples": [list(a) for a in view.apples], "losses": list(view.losses),
            "snakes": [{"player": view.player_of(i), "alive": s.alive, "length": s.length,
                        "body": [list(p) for p in s.body], "death_turn": s.death_turn,
                        "cause": s.cause} for i, s in enumerate(view.snakes)]}
    return {
        "ruleset": "standard", "width": view.width, "height": view.height, "turn": view.turn,
        "food": [list(f) for f in view.food],
        "hazards": [list(h) for h in view.hazards],
        "snakes": [{"alive": s.alive, "health": s.health, "length": s.length,
                    "body": [list(p) for p in s.body], "death_turn": s.death_turn,
                    "cause": s.cause} for s in view.snakes]}

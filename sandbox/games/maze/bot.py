"""The state as a process player sees it (docs/bots.md, "maze")."""
from __future__ import annotations

from typing import Any


def bot_view(view: Any) -> dict[str, Any]:
    return {"width": view.width, "height": view.height, "players": view.players,
            "turn": view.turn, "max_turns": view.max_turns,
            "cheese_total": view.cheese_total, "cheese_left": view.cheese_left,
            "cheese": [list(c) for c in sorted(view.cheese)],
            "explorers": [{"x": e.x, "y": e.y, "stuck": e.stuck, "score": e.score}
                          for e in view.explorers],
            # passage costs, indexed [y][x]: 0 a wall, 1 open, more: mud turns
            "right": [list(r) for r in view.right], "up": [list(r) for r in view.up]}

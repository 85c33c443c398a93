"""The state as a process player sees it (docs/bots.md, "pods")."""
from __future__ import annotations

from typing import Any


def bot_view(view: Any) -> dict[str, Any]:
    return {"players": view.players, "per_player": view.per_player, "laps": view.laps,
            "turn": view.turn, "max_turns": view.max_turns, "timeout": view.timeout,
            "max_thrust": view.max_thrust, "winner": view.winner,
            "checkpoints": [list(c) for c in view.checkpoints], "clock": list(view.clock),
            "out_turn": list(view.out_turn),
            "pods": [{"player": view.player_of(i), "x": q.x, "y": q.y, "vx": q.vx, "vy": q.vy,
                      "angle": q.angle, "next_cp": q.next_cp, "passed": q.passed,
                      "shield": q.shield, "boost_used": q.boost_used}
                     for i, q in enumerate(view.pods)]}

"""The state as a process player sees it (docs/bots.md, "depthbias")."""
from __future__ import annotations

from typing import Any


def bot_view(view: Any) -> dict[str, Any]:
    return {"turn": view.turn, "choice": view.choice_name, "length": view.length,
            "points": view.points,
            "actions": [{"name": a.name, "min": a.min, "max": a.max, "points": a.points}
                        for a in view.actions]}

"""The state as a process player sees it (docs/bots.md, "matrix")."""
from __future__ import annotations

from typing import Any


def bot_view(view: Any) -> dict[str, Any]:
    return {"rows": view.rows, "cols": view.cols, "repeats": view.repeats, "turn": view.turn,
            "last": list(view.last) if view.last else None,
            "counts": [list(r) for r in view.counts],
            "a": [list(r) for r in view.a], "b": [list(r) for r in view.b],
            "totals": list(view.totals)}

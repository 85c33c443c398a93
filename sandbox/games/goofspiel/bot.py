"""The state as a process player sees it (docs/bots.md, "goofspiel")."""
from __future__ import annotations

from typing import Any


def bot_view(view: Any) -> dict[str, Any]:
    return {"num_cards": view.num_cards, "players": view.players, "turn": view.turn,
            "points_order": view.points_order, "returns_type": view.returns_type,
            "prize": view.prize, "unrevealed": sorted(view.unrevealed),
            "points": list(view.points), "hands": [list(h) for h in view.hands],
            "history": [{"prize": r.prize, "winner": r.winner, "bids": list(r.bids)}
                        for r in view.history]}

"""The state as a process player sees it (docs/bots.md, "goofspiel")."""
from __future__ import annotations

from typing import Any, Sequence


def seat_bot_view(view: Any, seats: Sequence[int]) -> dict[str, Any]:
    """imp_info: the state as the seats in `seats` may see it (info.py's
    seat view): their own hands and bids; another seat's hand as null (its
    size is public: one card per prize still to come) and its bids as null.
    The prizes, who won each round (or that it tied), the points and the
    unrevealed prizes are public."""
    out = bot_view(view)
    mine = set(seats)
    out["hands"] = [list(h) if i in mine else None for i, h in enumerate(view.hands)]
    out["history"] = [{"prize": r.prize, "winner": r.winner,
                       "bids": [b if i in mine else None for i, b in enumerate(r.bids)]}
                      for r in view.history]
    return out


def bot_view(view: Any) -> dict[str, Any]:
    return {"num_cards": view.num_cards, "players": view.players, "turn": view.turn,
            "points_order": view.points_order, "returns_type": view.returns_type,
            "prize": view.prize, "unrevealed": sorted(view.unrevealed),
            "points": list(view.points), "hands": [list(h) for h in view.hands],
            "history": [{"prize": r.prize, "winner": r.winner, "bids": list(r.bids)}
                        for r in view.history]}

"""`goofspiel` (RULES.md §5, OpenSpiel's parameterisation): the plugin.

The rules are native/src/games/goofspiel.c; this package decodes its export
(view.py), draws the table (render.py, pygame) and lets a person bid with a
number key or a click on a card."""
from __future__ import annotations

from typing import Any, Sequence

from ..base import AgentFacts, BenchCase, GamePlugin, KeyResult
from .params import GoofspielGameParams
from .view import GoofspielView, Round, decode_goofspiel

# Keys a person bids with: the card's value; 0 is the 10, J Q K the 11-13
# (cards 14-16 are played with a click). Keypad digits work too.
_KEYS = {**{str(v): v for v in range(1, 10)}, "0": 10, "j": 11, "q": 12, "k": 13,
         **{f"[{v}]": v for v in range(1, 10)}, "[0]": 10}


class GoofspielPlugin(GamePlugin):
    kind = "goofspiel"
    title = "Goofspiel — bid cards for prizes (OpenSpiel's parameterisation), 2–4 players"
    Params = GoofspielGameParams
    keys_hint = "a number key bids that card (0 = 10, J Q K = 11-13), or click a card"
    keys = tuple(_KEYS)
    bench = (
        BenchCase(label="goofspiel 13 cards, descending, smitsimax depth 13 with rollouts "
                        "(goofspiel_13_duel's settings), one thread",
                  game_params={"num_cards": 13, "points_order": "descending"},
                  search={"max_depth": 13, "rollout": True, "c": 3.0, "gamma": 1.0},
                  match_turns=13, match_iterations=10_000,
                  quick_turns=4, quick_iterations=2_000, first_move=(1_000, 10_000),
                  first_move_target=500_000),
    )
    examples = ({"num_cards": 4},
                {"num_cards": 13, "points_order": "random", "returns_type": "point_difference"},
                {"num_cards": 6, "players": 3, "points_order": "ascending",
                 "returns_type": "total_points"},
                {"num_cards": 16, "players": 4, "points_order": "random"})

    def decode(self, words: Sequence[int]) -> GoofspielView:
        return decode_goofspiel(words)

    def num_agents(self, view: GoofspielView) -> int:
        return view.players

    def facts(self, view: GoofspielView, agent: int) -> AgentFacts:
        won = sum(1 for r in view.history if r.winner == agent)
        return AgentFacts(summary=f"{view.points[agent]} pts",
                          bar=view.points[agent] / view.total if view.total else 0.0,
                          bar_label=f"{won} won")

    def summary(self, view: GoofspielView) -> dict[str, Any]:
        return {"turn": view.turn, "prize": view.prize, "points": list(view.points),
                "hands": [list(h) for h in view.hands]}

    def key_move(self, view: GoofspielView, agent: int, key: str,
                 char: str = "") -> KeyResult | None:
        card = _KEYS.get(key)
        if card is None:
            return None
        if view.over:
            return KeyResult(None, "the game is over")
        if card > view.num_cards:
            return KeyResult(None, f"this game has cards 1-{view.num_cards}")
        if card not in view.hands[agent]:
            return KeyResult(None, f"you have bid your {card} already")
        return KeyResult(card - 1)

    def renderer(self, colors, names, move_names=None):
        from .render import GoofspielRenderer
        return GoofspielRenderer(colors, names)


PLUGIN = GoofspielPlugin()

__all__ = ["GoofspielPlugin", "GoofspielView", "PLUGIN", "Round", "decode_goofspiel"]

"""`goofspiel` (docs/games.md, Goofspiel, OpenSpiel's parameterisation): the plugin.

The rules are native/src/games/goofspiel.c; this package decodes its export
(view.py), draws the table (render.py, pygame) and lets a person bid with a
number key or a click on a card."""
from __future__ import annotations

from typing import Any, Sequence

from ..base import AgentFacts, BenchCase, GamePlugin, KeyResult
from .params import GoofspielGameParams
from .view import ORDERS, GoofspielView, Round, decode_goofspiel
from .bot import bot_view as _bot_view
from .bot import seat_bot_view as _seat_bot_view
from .info import info_key

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
                  first_move_target=500_000,
                  # growing-tree CFR with its defaults (k = all: 169 leaves an expansion)
                  gtcfr={},
                  net=(("goofspiel-13", {"num_cards": 13}),
                       ("goofspiel-13 hidden bids (1,716 slots)", {"num_cards": 13, "imp_info": 1}),
                       ("goofspiel-5 hidden bids (10 slots)", {"num_cards": 5, "imp_info": 1}))),
    )
    examples = ({"num_cards": 4},
                {"num_cards": 13, "points_order": "random", "returns_type": "point_difference"},
                {"num_cards": 6, "players": 3, "points_order": "ascending",
                 "returns_type": "total_points"},
                {"num_cards": 16, "players": 4, "points_order": "random"},
                {"num_cards": 5, "imp_info": 1})

    # outside yardsticks: an exact equilibrium (<= 8 cards), OpenSpiel's MCTS bot
    policies = ("equilibrium", "openspiel")

    def policy_problem(self, name, game_params):
        from .yardsticks import POLICIES, policy_problem
        if name not in POLICIES:
            return super().policy_problem(name, game_params)
        return policy_problem(name, self.params(game_params))

    def outside_rates(self, quick, load_scenario):
        """The goofspiel duel's shipped settings, the snakes duel's shipped
        Smitsimax policy (UCB1, C 2, rollouts) and uct against OpenSpiel's
        MCTSBot on goofspiel-13 positions (yardsticks.outside_rates)."""
        from .yardsticks import outside_rates
        duel = load_scenario("goofspiel_13_duel").players[0].search
        return outside_rates({
            "goofspiel_13_duel's smitsimax": duel,
            "smitsimax ucb1 c 2, rollouts": duel.replace(policy="ucb1", c=2.0),
            "uct": {"algorithm": "uct"}}, quick)

    def make_policy(self, name, game_params, seed):
        from .yardsticks import make_policy
        return make_policy(name, self.params(game_params), seed)

    # Exact exploitability enumerates every decision state: 5 cards, fixed
    # prize order, make 4,026 states where someone has a choice (a search at
    # each); a random order multiplies them by the prize draws (4 cards:
    # 3,652; 5 cards: about 450,000, too many).
    exploitable = True
    MAX_EXPLOIT_CARDS = 5
    MAX_EXPLOIT_CARDS_RANDOM = 4

    def exploit_refusal(self, game_params) -> str:
        p = self.params(game_params)
        if p.players != 2:
            return f"exact exploitability needs two players (this goofspiel has {p.players})"
        limit = (self.MAX_EXPLOIT_CARDS_RANDOM if p.points_order == "random"
                 else self.MAX_EXPLOIT_CARDS)
        if p.imp_info and p.points_order == "random":
            return "exact exploitability with imp_info=1 needs a fixed prize order"
        if p.num_cards > limit:
            order = " with a random prize order" if p.points_order == "random" else ""
            return (f"exact exploitability enumerates every state: num_cards must be "
                    f"<= {limit}{order} (got {p.num_cards})")
        return ""

    def chance_outcomes(self, game) -> list[tuple[float, Any]]:
        """A random prize order draws the prize on the table from those face
        down (uniformly: goofspiel.c's reveal_next); each draw is a state
        built through import (export words [6] current prize, [7] the
        unrevealed mask, sbx.h)."""
        words = game.export()
        prize, face_down = int(words[6]), int(words[7])
        if ORDERS[int(words[4])] != "random" or prize == 0:
            return [(1.0, game)]
        pool = face_down | 1 << (prize - 1)
        draws = [b for b in range(16) if pool >> b & 1]
        out = []
        for b in draws:
            w = words.copy()
            w[6], w[7] = b + 1, pool & ~(1 << b)
            g = game.clone()
            g.import_state(w)
            out.append((1.0 / len(draws), g))
        return out

    def hides_info(self, game_params) -> bool:
        """imp_info = 1: the opponent's hand and bids are private."""
        return bool(self.params(game_params).imp_info)

    def info_key(self, game, seat: int) -> Any:
        """imp_info: the seat's hand, its own bids and the public record
        (info.py); the full state otherwise."""
        if not game.hidden_info:
            return game.state_hash()
        return info_key(game.export(), seat)

    def decode(self, words: Sequence[int]) -> GoofspielView:
        return decode_goofspiel(words)

    def num_agents(self, view: GoofspielView) -> int:
        return view.players

    def facts(self, view: GoofspielView, agent: int) -> AgentFacts:
        won = sum(1 for r in view.history if r.winner == agent)
        return AgentFacts(summary=f"{view.points[agent]} pts",
                          bar=view.points[agent] / view.total if view.total else 0.0,
                          bar_label=f"{won} won")

    def bot_view(self, view) -> dict[str, Any]:
        return _bot_view(view)

    seat_bot_views = True

    def private_label(self, state_id: int) -> str:
        """A hand mask (bit c-1 for card c) as its cards: "1 3 4"."""
        return " ".join(str(c + 1) for c in range(32) if state_id >> c & 1) or "-"

    def public_event(self, view: GoofspielView, names: Sequence[str]) -> str:
        """The last round's public record: who won which prize, or a tie
        (the bids stay hidden with imp_info)."""
        if not view.history:
            return "the start"
        r = view.history[-1]
        if r.winner < 0:
            return f"tie on the {r.prize}"
        return f"{names[r.winner]} won the {r.prize}"

    def seat_bot_view(self, view, seats) -> dict[str, Any]:
        return _seat_bot_view(view, seats)

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

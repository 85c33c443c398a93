"""`snakes`, ruleset `standard` (RULES.md §1): the plugin.

The rules are native/src/games/snakes.c; this package decodes its export
(view.py), draws it (render.py, pygame), lets a person steer with the arrow
keys, and holds the pure-Python twin used by the differential tests and the
bench (reference.py)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import AgentFacts, AgentStatus, BenchCase, GamePlugin, KeyResult
from .params import SnakesGameParams
from .view import MOVE_DELTAS, MOVE_NAMES, SnakesView, SnakeView, decode_snakes

ARROWS = {"up": 0, "down": 1, "left": 2, "right": 3}


class SnakesPlugin(GamePlugin):
    kind = "snakes"
    title = "Snakes — Battlesnake standard rules, 1–8 snakes"
    Params = SnakesGameParams
    keys_hint = "arrow keys steer"
    keys = tuple(ARROWS)
    bench = (
        BenchCase(label="snakes 4p 11x11, smitsimax depth 10, one thread",
                  game_params={"width": 11, "height": 11, "snakes": 4},
                  search={"max_depth": 10}, match_turns=10, match_iterations=30_000,
                  quick_turns=4, quick_iterations=10_000, primary=True,
                  # memory per node needs trees that keep opening new paths:
                  # one snake on a 25x25 board, depth 40, random selection
                  # steered off certain death
                  rss_game_params={"width": 25, "height": 25, "snakes": 1},
                  rss_search={"max_depth": 40, "random_threshold": 1_000_000,
                              "death_penalty": True, "death_min_visits": 1,
                              "node_cap": 1 << 22},
                  # the tree explorer's 1M-node tree: two snakes on a big
                  # board, deep paths, so every iteration opens new nodes
                  explorer_game_params={"width": 19, "height": 19, "snakes": 2},
                  explorer_search={"max_depth": 40, "node_cap": 1 << 22,
                                   "death_penalty": True, "death_min_visits": 1},
                  reference=True),
    )

    examples = ({"width": 7, "height": 7, "snakes": 2, "max_turns": 150},
                {"snakes": 4, "max_turns": 200},
                {"width": 5, "height": 5, "snakes": 1, "max_turns": 80},
                {"width": 25, "height": 9, "snakes": 8, "max_turns": 120, "food_spawn_chance": 0})

    def decode(self, words: Sequence[int]) -> SnakesView:
        return decode_snakes(words)

    def num_agents(self, view: SnakesView) -> int:
        return len(view.snakes)

    def status(self, view: SnakesView, agent: int) -> AgentStatus:
        s = view.snakes[agent]
        return AgentStatus(True) if s.alive else AgentStatus(False, s.death_turn, s.cause)

    def facts(self, view: SnakesView, agent: int) -> AgentFacts:
        s = view.snakes[agent]
        return AgentFacts(summary=f"len {s.length}", bar=max(0.0, min(1.0, s.health / 100.0)),
                          bar_label=str(s.health))

    def summary(self, view: SnakesView) -> dict[str, Any]:
        return {"turn": view.turn,
                "heads": [list(s.body[0]) if s.body else None for s in view.snakes],
                "alive": [s.alive for s in view.snakes]}

    def key_move(self, view: SnakesView, agent: int, key: str, char: str = "") -> KeyResult | None:
        """Arrows steer. Straight back into the neck is legal in the rules
        (and fatal); from a key it is a slip, so it is not taken."""
        move = ARROWS.get(key)
        if move is None:
            return None
        d = _heading(view.snakes[agent])
        if d is not None and MOVE_DELTAS[d][0] + MOVE_DELTAS[move][0] == 0 \
                and MOVE_DELTAS[d][1] + MOVE_DELTAS[move][1] == 0:
            return KeyResult(None, f"{MOVE_NAMES[move]} would turn into your own neck")
        return KeyResult(move)

    def default_move(self, view: SnakesView, agent: int) -> int | None:
        """A snake nobody steered this turn keeps going the way it went."""
        d = view.snakes[agent].direction
        return 0 if d is None else d

    def renderer(self, colors, names, move_names=None):
        from .render import SnakesBoardRenderer
        return SnakesBoardRenderer(list(colors), list(names))

    def reference_game(self, params: Mapping[str, Any] | str | None, seed: int):
        from .reference import SnakesGame
        return SnakesGame(params, seed=seed)


def _heading(s: SnakeView) -> int | None:
    return s.direction if s.alive and len(set(s.body)) > 1 else None


PLUGIN = SnakesPlugin()

__all__ = ["MOVE_DELTAS", "MOVE_NAMES", "PLUGIN", "SnakeView", "SnakesPlugin", "SnakesView",
           "decode_snakes"]

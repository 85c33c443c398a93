"""`snakes`: rulesets `standard` (docs/games.md, Snakes) and `snakebyte`
(docs/games.md, SnakeByte): the plugin.

The rules are native/src/games/snakes.c and snakebyte.c; this package
decodes their exports (view.py), draws them (render.py: top view;
render_byte.py: the snakebyte side view with gravity), lets a person steer
with the arrow keys, reads and writes snakebyte maps (mapfile.py), and
holds the pure-Python twins used by the differential tests and the bench
(reference.py, reference_byte.py). The Battlesnake API (the official JSON
both ways, snake servers as players, ours served) is a protocol adapter in
sandbox/bots/battlesnake/, which this package does not know.

SnakeByte: two teams of 2-4 snakes; agent a is snake a % K of player a / K,
and a scenario gives each player its K agents (like pods). A person steers
one snake of their team with the arrow keys (Tab: the next one)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import AgentFacts, AgentStatus, BenchCase, GamePlugin, KeyResult
from .params import SHARED_DEFAULTS, SNAKEBYTE_ONLY, STANDARD_ONLY, SnakesGameParams
from .view import (MOVE_DELTAS, MOVE_NAMES, SnakeByteView, SnakesView, SnakeView, decode_any,
                   decode_snakebyte, decode_snakes)
from .bot import bot_view as _bot_view

ARROWS = {"up": 0, "down": 1, "left": 2, "right": 3}


class SnakesPlugin(GamePlugin):
    kind = "snakes"
    title = ("Snakes — Battlesnake's official rulesets and maps, 1–8 snakes; "
             "SnakeByte: gravity, 2 teams")
    Params = SnakesGameParams
    keys_hint = "arrow keys steer"

    def weight_names(self, game_params: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """Without game_params every w_* of either ruleset; with them, the
        ruleset's own (the other's are refused by the parameter model)."""
        names = super().weight_names()
        if game_params is None:
            return names
        other = SNAKEBYTE_ONLY if self.params(game_params).family == "standard" \
            else STANDARD_ONLY
        return tuple(n for n in names if n not in other)

    def weight_value(self, game_params: Mapping[str, Any] | None, name: str) -> float:
        p = self.params(game_params)
        v = getattr(p, name)
        return float(SHARED_DEFAULTS[p.family][name] if v is None else v)
    keys = tuple(ARROWS)
    bench = (
        # The headline: the tutorial's search (safe moves off), whose cost
        # over the bare engine the targets measure. Safe moves, the default,
        # keep the simulated snakes alive to the depth limit, so its trees
        # grow larger and a simulated turn costs more (README, "Figures").
        BenchCase(label="snakes 4p 11x11, smitsimax depth 10 (the tutorial's search: "
                        "safe_moves off), one thread",
                  game_params={"width": 11, "height": 11, "snakes": 4},
                  search={"max_depth": 10, "safe_moves": False}, match_turns=10,
                  match_iterations=30_000,
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
                  reference=True,
                  net=(("snakes duel 11x11 (6 planes)", {"width": 11, "height": 11, "snakes": 2}),)),
        BenchCase(label="snakebyte 2v2, smitsimax depth 8, one thread",
                  game_params={"ruleset": "snakebyte", "map_seed": 1, "height": 14,
                               "snakes_per_player": 2},
                  search={"max_depth": 8}, match_turns=10, match_iterations=20_000,
                  quick_turns=3, quick_iterations=5_000, scenario="snakebyte_2v2"),
    )

    # each official ruleset and some maps against standard (bench "modes");
    # royale closes in every 5 turns so that random playouts meet hazards
    bench_modes = (
        ("standard 4p 11x11", {"snakes": 4}),
        ("solo ruleset 4p", {"ruleset": "solo", "snakes": 4}),
        ("royale 4p, shrink every 5", {"ruleset": "royale", "snakes": 4, "shrink_every": 5}),
        ("constrictor 4p", {"ruleset": "constrictor", "snakes": 4}),
        ("wrapped 4p", {"ruleset": "wrapped", "snakes": 4}),
        ("wrapped_constrictor 4p", {"ruleset": "wrapped_constrictor", "snakes": 4}),
        ("map hz_spiral 4p", {"map": "hz_spiral", "snakes": 4}),
        ("map hz_columns 4p", {"map": "hz_columns", "snakes": 4}),
        ("map healing_pools 4p", {"map": "healing_pools", "snakes": 4, "hazard_damage": -10}),
        ("map sinkholes 4p, every 5", {"map": "sinkholes", "snakes": 4, "shrink_every": 5}),
    )
    bench_mode_search = {"max_depth": 10}

    examples = ({"width": 7, "height": 7, "snakes": 2, "max_turns": 150},
                {"ruleset": "royale", "snakes": 4, "shrink_every": 4, "max_turns": 120},
                {"ruleset": "wrapped", "snakes": 2, "max_turns": 120},
                {"ruleset": "constrictor", "snakes": 2, "width": 7, "height": 7},
                {"map": "hz_spiral", "snakes": 3, "hazard_damage": 3, "max_turns": 100},
                {"map": "arcade_maze", "width": 19, "height": 21, "snakes": 4,
                 "max_turns": 60},
                {"snakes": 4, "max_turns": 200},
                {"width": 5, "height": 5, "snakes": 1, "max_turns": 80},
                {"width": 25, "height": 9, "snakes": 8, "max_turns": 120, "food_spawn_chance": 0},
                {"ruleset": "snakebyte", "map_seed": 2, "height": 10, "max_turns": 60},
                {"ruleset": "snakebyte", "map_seed": 5, "snakes_per_player": 4, "max_turns": 40},
                {"ruleset": "snakebyte", "map": "ledges", "max_turns": 50})

    def decode(self, words: Sequence[int]) -> SnakesView | SnakeByteView:
        return decode_any(words)

    def num_agents(self, view) -> int:
        return len(view.snakes)

    def status(self, view, agent: int) -> AgentStatus:
        s = view.snakes[agent]
        return AgentStatus(True) if s.alive else AgentStatus(False, s.death_turn, s.cause)

    def facts(self, view, agent: int) -> AgentFacts:
        s = view.snakes[agent]
        if isinstance(view, SnakeByteView):
            p = view.player_of(agent)
            team = view.team_length(p)
            return AgentFacts(summary=f"len {s.length if s.alive else 0}",
                              detail=f"team {team}, lost {view.losses[p]}"
                                     + (f" (-{s.lost} now)" if s.lost else ""))
        return AgentFacts(summary=f"len {s.length}", bar=max(0.0, min(1.0, s.health / 100.0)),
                          bar_label=str(s.health), gauge=True)   # health: a level

    def bot_view(self, view) -> dict[str, Any]:
        return _bot_view(view)

    def summary(self, view) -> dict[str, Any]:
        out = {"turn": view.turn,
               "heads": [list(s.body[0]) if s.body else None for s in view.snakes],
               "alive": [s.alive for s in view.snakes]}
        if isinstance(view, SnakeByteView):
            out.update(losses=list(view.losses), team_length=[view.team_length(0),
                                                              view.team_length(1)],
                       apples=len(view.apples))
        return out

    def key_move(self, view, agent: int, key: str, char: str = "") -> KeyResult | None:
        """Arrows steer. Straight back into the neck is legal in the rules
        (and fatal in the standard ruleset); from a key it is a slip, so it
        is not taken (snakebyte would go straight on instead)."""
        move = ARROWS.get(key)
        if move is None:
            return None
        s = view.snakes[agent]
        if isinstance(view, SnakeByteView):
            d = s.direction if s.alive else None
            if d is not None and d != move and d // 2 == move // 2:
                return KeyResult(None, f"{MOVE_NAMES[move]} would turn into your own neck")
            return KeyResult(move)
        d = _heading(s)
        if d is not None and MOVE_DELTAS[d][0] + MOVE_DELTAS[move][0] == 0 \
                and MOVE_DELTAS[d][1] + MOVE_DELTAS[move][1] == 0:
            return KeyResult(None, f"{MOVE_NAMES[move]} would turn into your own neck")
        return KeyResult(move)

    def default_move(self, view, agent: int) -> int | None:
        """A snake nobody steered this turn keeps going the way it went."""
        d = view.snakes[agent].direction
        return 0 if d is None else d

    def renderer(self, colors, names, move_names=None):
        from .render import SnakesBoardRenderer
        return SnakesBoardRenderer(list(colors), list(names))

    def reference_game(self, params: Mapping[str, Any] | str | None, seed: int):
        if _is_snakebyte(params):
            from .reference_byte import SnakeByteGame
            return SnakeByteGame(params, seed=seed)
        from .reference import SnakesGame
        return SnakesGame(params, seed=seed)


def _is_snakebyte(params: Mapping[str, Any] | str | None) -> bool:
    if isinstance(params, str):
        return "ruleset=snakebyte" in params.split()
    return bool(params) and params.get("ruleset") == "snakebyte"


def _heading(s: SnakeView) -> int | None:
    return s.direction if s.alive and len(set(s.body)) > 1 else None


PLUGIN = SnakesPlugin()

__all__ = ["MOVE_DELTAS", "MOVE_NAMES", "PLUGIN", "SnakeByteView", "SnakeView", "SnakesPlugin",
           "SnakesView", "decode_any", "decode_snakebyte", "decode_snakes"]

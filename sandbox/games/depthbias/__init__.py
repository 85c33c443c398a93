"""`depthbias`: the tutorial's §13 depth-bias widget as a game (the plugin).

Rules (native/src/games/depthbias.c): one agent. On turn 0 it chooses sprint
(move 0), march (1) or siege (2). The episode then lasts L turns in total,
the choice turn included, L drawn uniformly from the action's range by the
state's own RNG at the choice, so each search iteration (which reseeds its
simulation) samples a different length. Every turn, the choice turn
included, earns the action's per-turn points; after the choice the only move
is `go` (3). Terminal after L turns; the evaluation is the points so far.

Defaults: sprint 2-5 turns at 10 points a turn, march 6-10 at 8, siege 13-18
at 7. Sprint earns the most per turn but the fewest in total: raw totals make
siege look about 3x better than sprint (7 * 15.5 = 108.5 expected against
10 * 3.5 = 35), so a search backing up raw leaf scores prefers siege, while
depth normalisation (score / depth reached: 10, 8, 7 per turn) prefers
sprint. The lab (scenarios/depthbias_lab.toml) is for watching exactly that.

This package holds the parameter model (params.py), decodes the export
(view.py) and draws the three actions as lanes on a time axis with the
search's policy (render.py). A person picks with 1/2/3 or a click
on a lane; after the choice `go` plays by itself (or space / a click).
"""
from __future__ import annotations

from typing import Any, Sequence

from ..base import AgentFacts, BenchCase, GamePlugin, KeyResult
from .params import DepthBiasGameParams
from .view import ACTIONS, GO, ActionSpec, DepthBiasView, decode_depthbias
from .bot import bot_view as _bot_view

_KEYS = {"1": 0, "2": 1, "3": 2, "[1]": 0, "[2]": 1, "[3]": 2,
         "space": GO, "return": GO}


class DepthBiasPlugin(GamePlugin):
    kind = "depthbias"
    title = "Depth bias — sprint, march or siege: short or long episodes (tutorial §13)"
    Params = DepthBiasGameParams
    keys_hint = "1/2/3 choose sprint/march/siege, or click a lane; then space goes on"
    keys = tuple(_KEYS)
    bench = (
        BenchCase(label="depthbias defaults, smitsimax depth 20, no tree reuse (the lab's "
                        "settings), one thread",
                  game_params={}, search={"max_depth": 20, "tree_reuse": False,
                                          "random_threshold": 10},
                  match_turns=4, match_iterations=20_000, quick_turns=2,
                  quick_iterations=5_000, first_move=(1_000, 10_000)),
    )
    examples = ({},
                {"siege_min": 13, "siege_max": 40, "siege_points": 7},
                {"sprint_min": 1, "sprint_max": 1, "march_min": 60, "march_max": 60,
                 "siege_min": 1, "siege_max": 60, "sprint_points": 1000, "march_points": 1})

    def decode(self, words: Sequence[int]) -> DepthBiasView:
        return decode_depthbias(words)

    def num_agents(self, view: DepthBiasView) -> int:
        return 1

    def facts(self, view: DepthBiasView, agent: int) -> AgentFacts:
        if view.choice is None:
            return AgentFacts(summary="choosing", bar=0.0, detail="sprint, march or siege")
        length = view.length or 1
        return AgentFacts(summary=f"{view.points} pts", bar=min(1.0, view.turn / length),
                          bar_label=f"{view.turn}/{length}",
                          detail=f"{view.choice_name}, "
                                 f"{view.actions[view.choice].points} a turn")

    def bot_view(self, view) -> dict[str, Any]:
        return _bot_view(view)

    def summary(self, view: DepthBiasView) -> dict[str, Any]:
        return {"turn": view.turn, "choice": view.choice_name, "length": view.length,
                "points": view.points}

    def key_move(self, view: DepthBiasView, agent: int, key: str,
                 char: str = "") -> KeyResult | None:
        move = _KEYS.get(key)
        if move is None:
            return None
        if view.over:
            return KeyResult(None, "the episode is over")
        if view.choice is None and move == GO:
            return KeyResult(None, "choose first: 1 sprint, 2 march, 3 siege")
        if view.choice is not None and move != GO:
            return KeyResult(None, f"{view.choice_name} is chosen; space goes on")
        return KeyResult(move)

    def default_move(self, view: DepthBiasView, agent: int) -> int | None:
        """The choice waits for the person; after it `go` is the only move."""
        return None if view.choice is None else GO

    def renderer(self, colors, names, move_names=None):
        from .render import DepthBiasRenderer
        return DepthBiasRenderer(colors, names, move_names)


PLUGIN = DepthBiasPlugin()

__all__ = ["ACTIONS", "PLUGIN", "ActionSpec", "DepthBiasPlugin", "DepthBiasView",
           "decode_depthbias"]

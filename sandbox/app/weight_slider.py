"""One slider for an evaluation weight, shared by the arena (a player's
weights, from the next turn) and the replay scene's what-ifs."""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from ..ui import Slider


def weight_slider(plugin, game_params: Mapping[str, Any] | None, name: str, value: float,
                  wid: str, rect: pygame.Rect | tuple) -> Slider:
    """A slider around the game's default for `name` (as a game of
    `game_params` uses it: a ruleset may have its own), stretched to show
    `value`, within the parameter's own range."""
    info = plugin.Params.model_fields[name]
    default = plugin.weight_value(game_params, name)
    span = max(1.0, 4 * abs(default), 1.5 * abs(value))
    lo = -span if min(default, value) < 0 else 0.0
    hi = span if max(default, value) > 0 or lo == 0 else 0.0
    for m in info.metadata:      # the parameter's own range
        lo = max(lo, float(getattr(m, "ge", lo)))
        hi = min(hi, float(getattr(m, "le", hi)))
    return Slider(wid, rect, name, lo, hi, value, fmt="{:.3g}",
                  tooltip=info.description or "evaluation weight")

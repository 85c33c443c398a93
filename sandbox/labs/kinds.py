"""The games the labs are about, named once.

Labs are, by design, about particular games (the tutorial's rock-paper-
scissors and its depth-bias toy), so this module is the one place outside
sandbox/games/ that names game kinds (tests/test_game_boundary.py allows it,
like the default scenario's file name). Everything else here goes through the
registry: payoff tables come from the plugin's view decoder, a payoff table
is validated by the plugin's own params model.
"""
from __future__ import annotations

from typing import Any, Sequence, get_args

import numpy as np
from pydantic import ValidationError

from ..games import kinds, plugin
from ..native import Game
from ..native.errors import one_line
from .common import LabError

MATRIX = "matrix"
DEPTHBIAS = "depthbias"
RPS_PRESET = "rps"
# the race's game picker: the two the targets name first
RACE_FIRST = ("rps", "biased_rps")


def matrix_presets() -> list[str]:
    """The matrix game's preset names, read from its params model."""
    field = plugin(MATRIX).Params.model_fields["preset"]
    names: list[str] = []
    for arg in get_args(field.annotation):
        names += [a for a in get_args(arg) if isinstance(a, str)]
    return names


def race_games() -> list[str]:
    """Presets in the order the race's picker shows them."""
    rest = [p for p in matrix_presets() if p not in RACE_FIRST]
    return [*RACE_FIRST, *rest]


def depthbias_available() -> bool:
    return DEPTHBIAS in kinds()


def _table(text: str, what: str) -> list[list[float]]:
    rows = [r for r in text.split(";")]
    try:
        table = [[float(x) for x in r.split(",")] for r in rows]
    except ValueError:
        raise LabError(f"{what}: rows are ';'-separated, values ','-separated numbers "
                              f"(got {text!r})") from None
    return table


def matrix_params(spec: str, repeats: int = 1) -> str:
    """C params of a one-shot (or repeated) matrix game from a preset name or
    a payoff table "a,b;c,d" (the row player's; zero-sum) or "A|B" (the row
    player's table, then the column player's)."""
    spec = spec.strip()
    P = plugin(MATRIX).Params
    try:
        if spec in matrix_presets():
            model = P(preset=spec, repeats=repeats)
        elif any(ch.isdigit() for ch in spec):
            parts = spec.split("|")
            if len(parts) > 2:
                raise LabError(f"game table: at most two tables, 'A|B' (got {spec!r})")
            a = _table(parts[0], "game table")
            b = _table(parts[1], "game table (column player)") if len(parts) == 2 else None
            model = P(payoffs=a, col_payoffs=b, repeats=repeats)
        else:
            raise LabError(f"unknown game {spec!r}: a preset "
                                  f"({', '.join(matrix_presets())}) or a payoff table like "
                                  f"'0,-1,1;1,0,-1;-1,1,0'")
    except ValidationError as exc:
        raise LabError(f"game {spec!r}: {one_line(exc)}") from None
    return model.c_params(full=True)


def column_game_params(column: Sequence[float], row_names: Sequence[str]) -> str:
    """A one-shot R x 1 game: the row player's payoff per row is `column`
    (the column player has a single move). The RPS playground's model of
    your history."""
    model = plugin(MATRIX).Params(payoffs=[[float(v)] for v in column],
                                  row_actions=list(row_names))
    return model.c_params(full=True)


def matrix_game(params: str, seed: int = 0) -> Game:
    return Game(MATRIX, params, seed=seed)


def payoff_tables(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """(a, b): the row and column player's payoffs, from the game's export
    through the plugin's decoder (milli-unit precision, as sbx.h says)."""
    view: Any = plugin(game.kind).decode(game.export())
    return np.array(view.a, dtype=np.float64), np.array(view.b, dtype=np.float64)


def depthbias_game(params: str = "", seed: int = 0) -> Game:
    if not depthbias_available():
        raise LabError(f"the depth-bias lab needs the '{DEPTHBIAS}' game, which this "
                              f"build does not have (games: {', '.join(kinds())})")
    return Game(DEPTHBIAS, params, seed=seed)

"""`matrix`: one-shot or repeated two-player normal-form games (docs/games.md, Matrix games).

The rules and the presets are native/src/games/matrix.c; this package holds
the scenario model of a preset or payoff table (params.py), decodes the
export (view.py) and draws the table with each player's live policy on its
rows and columns (render.py). A person picks a row (or a column) with a
number key or a click."""
from __future__ import annotations

from typing import Any, Sequence

from ..base import AgentFacts, BenchCase, GamePlugin, KeyResult
from .params import PRESETS, MatrixGameParams
from .view import MatrixView, decode_matrix
from .bot import bot_view as _bot_view

_KEYS = {**{str(v): v - 1 for v in range(1, 10)}, "0": 9,
         **{f"[{v}]": v - 1 for v in range(1, 10)}, "[0]": 9}


class MatrixPlugin(GamePlugin):
    kind = "matrix"
    title = "Matrix games — one-shot or repeated normal-form games, presets or your own table"
    Params = MatrixGameParams
    keys_hint = "a number key picks your row/column (1 = the first), or click it"
    keys = tuple(_KEYS)
    bench = (
        BenchCase(label="matrix biased RPS, 100 rounds, smitsimax depth 1, one thread",
                  game_params={"preset": "biased_rps", "repeats": 100},
                  search={"max_depth": 1}, match_turns=20, match_iterations=20_000,
                  quick_turns=4, quick_iterations=5_000, first_move=(1_000, 10_000),
                  net=(("matrix biased RPS, 100 rounds", {"preset": "biased_rps", "repeats": 100}),)),
    )
    examples = ({"preset": "rps"},
                {"preset": "biased_rps", "repeats": 20},
                {"payoffs": [[3, 0, 1], [5, 1, 0]], "col_payoffs": [[3, 5, 2], [0, 1, 4]],
                 "row_actions": ["up", "down"], "repeats": 7},
                {"preset": "shapley", "repeats": 50})

    # Exact exploitability judges the first round as a one-shot game (the
    # stage game); a repeated game's whole tree (R*C)^repeats is not
    # enumerated.
    exploitable = True
    exploit_one_shot = True

    def decode(self, words: Sequence[int]) -> MatrixView:
        return decode_matrix(words)

    def num_agents(self, view: MatrixView) -> int:
        return 2

    def facts(self, view: MatrixView, agent: int) -> AgentFacts:
        total = view.totals[agent]
        return AgentFacts(summary=f"{total:+.4g}",
                          detail=f"{view.turn}/{view.repeats} rounds played")

    def bot_view(self, view) -> dict[str, Any]:
        return _bot_view(view)

    def summary(self, view: MatrixView) -> dict[str, Any]:
        return {"turn": view.turn, "last": list(view.last) if view.last else None,
                "totals": list(view.totals)}

    def key_move(self, view: MatrixView, agent: int, key: str,
                 char: str = "") -> KeyResult | None:
        move = _KEYS.get(key)
        if move is None:
            return None
        if view.over:
            return KeyResult(None, "the game is over")
        n = view.rows if agent == 0 else view.cols
        if move >= n:
            what = "rows" if agent == 0 else "columns"
            return KeyResult(None, f"this game has {n} {what}")
        return KeyResult(move)

    def renderer(self, colors, names, move_names=None):
        from .render import MatrixRenderer
        return MatrixRenderer(colors, names, move_names)


PLUGIN = MatrixPlugin()

__all__ = ["MatrixPlugin", "MatrixView", "PLUGIN", "PRESETS", "decode_matrix"]

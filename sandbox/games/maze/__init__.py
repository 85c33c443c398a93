"""`maze` (docs/games.md, Maze, modelled on PyRat): explorers collect cheese in a maze.

The rules are native/src/games/maze.c: a seeded maze (size presets tiny,
small, medium, large, huge; walls, mud costing N turns, cheese in mirrored
pairs) or a hand-made one from a maze file (mazefile.py documents the text
format; `maze_file = "path"` in [game_params]); 2-4 explorers move up, down,
left, right or stay; a move into a wall is a stay; mud of cost N: arrive at
once, then stuck for N-1 turns (stay only) and no cheese until free; k
explorers on one cheese share it 1/k. The game ends when someone holds more
than half the cheese, none is left, or at the turn limit; the score is the
cheese collected.

This package holds the parameter model (params.py), the export decoder
(view.py), the maze file format (mazefile.py) and the board (render.py). A
person plays with the arrow keys, space to stay, or a click on a
neighbouring cell.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..base import AgentFacts, BenchCase, GamePlugin, KeyResult
from .mazefile import MazeFileError, load_maze_file, maze_text, parse_maze_text, save_maze_file
from .params import MazeGameParams
from .view import MOVE_DELTAS, MOVE_NAMES, STAY, Explorer, MazeView, decode_maze
from .bot import bot_view as _bot_view

_KEYS = {"up": 0, "down": 1, "left": 2, "right": 3, "space": STAY}


class MazePlugin(GamePlugin):
    kind = "maze"
    title = "Maze — explorers race for cheese through walls and mud (PyRat), 2–4 players"
    Params = MazeGameParams
    keys_hint = "arrow keys move, space stays (or click a neighbouring cell)"
    keys = tuple(_KEYS)
    bench = (
        BenchCase(label="maze medium, smitsimax depth 20, one thread",
                  game_params={"size": "medium"}, search={"max_depth": 20},
                  match_turns=10, match_iterations=10_000, quick_turns=3,
                  quick_iterations=2_000, first_move=(1_000, 10_000),
                  # the maze_medium_duel scenario's MCGS settings
                  mcgs={"max_depth": 20, "c_puct": 1.0},
                  # the maze duel for growing-tree CFR, its defaults
                  gtcfr={}),
    )
    examples = ({"size": "tiny", "max_turns": 40},
                {"size": "small", "players": 4, "maze_seed": 7, "max_turns": 60},
                {"size": "tiny", "players": 3, "symmetric": 0, "mud_density": 0.5,
                 "mud_range": 9, "cheese": 95, "max_turns": 50},
                {"size": "huge", "max_turns": 30, "wall_density": 0.0})

    def decode(self, words: Sequence[int]) -> MazeView:
        return decode_maze(words)

    def num_agents(self, view: MazeView) -> int:
        return view.players

    def facts(self, view: MazeView, agent: int) -> AgentFacts:
        e = view.explorers[agent]
        score = f"{e.score:.2f}".rstrip("0").rstrip(".")
        return AgentFacts(summary=f"{score} cheese",
                          bar=e.score / view.cheese_total if view.cheese_total else 0.0,
                          bar_label=f"of {view.cheese_total}",
                          detail=f"stuck for {e.stuck}" if e.stuck else "")

    def bot_view(self, view) -> dict[str, Any]:
        return _bot_view(view)

    def summary(self, view: MazeView) -> dict[str, Any]:
        return {"turn": view.turn, "positions": [[e.x, e.y] for e in view.explorers],
                "stuck": [e.stuck for e in view.explorers],
                "scores": [e.score for e in view.explorers], "cheese_left": view.cheese_left}

    def key_move(self, view: MazeView, agent: int, key: str, char: str = "") -> KeyResult | None:
        move = _KEYS.get(key)
        if move is None:
            return None
        if view.over:
            return KeyResult(None, "the game is over")
        e = view.explorers[agent]
        if e.stuck and move != STAY:
            return KeyResult(None, f"stuck in mud for {e.stuck} more turn(s): only stay")
        if move != STAY and view.cost(e.x, e.y, move) == 0:
            # the rules make it a stay; a person who walks into a wall meant
            # to move, so say why nothing happens instead of staying silently
            edge = not (0 <= e.x + MOVE_DELTAS[move][0] < view.width
                        and 0 <= e.y + MOVE_DELTAS[move][1] < view.height)
            return KeyResult(None, f"{'the maze edge' if edge else 'a wall'} blocks "
                                   f"{MOVE_NAMES[move]}: pick another way (Space stays)")
        return KeyResult(move)

    def default_move(self, view: MazeView, agent: int) -> int | None:
        """A stuck explorer can only stay; otherwise wait for the person."""
        return STAY if view.explorers[agent].stuck else None

    def renderer(self, colors, names, move_names=None):
        from .render import MazeRenderer
        return MazeRenderer(colors, names, move_names)


PLUGIN = MazePlugin()

__all__ = ["MOVE_DELTAS", "MOVE_NAMES", "PLUGIN", "Explorer", "MazeFileError", "MazePlugin",
           "MazeView", "decode_maze", "load_maze_file", "maze_text", "parse_maze_text",
           "save_maze_file"]

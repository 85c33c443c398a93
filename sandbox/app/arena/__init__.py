"""The arena scene (a live match with its board, per-player controls, meters and every
agent's search tree), in parts: scene.py (ArenaScene: the match, layout, events, frame),
transport.py (the transport bar), controls.py (the chosen player's controls), panels.py
(tree panels and root-matrix views), board.py (the board's context and planned lines),
meters.py (scoreboard and meters), overlays.py (result, toast, help), constants.py.
The transport bar, the controls, the panels and the board's plans are mixins over the scene's
state; the meters and overlays are functions of what they draw."""
from .constants import HELP, TREE_HOLD_MAX_S, TREE_NODES
from .meters import tree_full_note
from .scene import ArenaScene

__all__ = ["HELP", "TREE_HOLD_MAX_S", "TREE_NODES", "ArenaScene", "tree_full_note"]

"""The arena's constants: how big and how often trees are published and redrawn, the
root-matrix views' modes, the speeds' names, and the keyboard help."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...render.fonts import font
from ...render.tree_explore import HELP as EXPLORER_HELP

SPEED_NAMES = {0.25: "x0.25", 0.5: "x0.5", 1.0: "x1", 2.0: "x2", 4.0: "x4", 8.0: "x8", None: "max"}
TREE_NODES = 4000          # rows per published tree snapshot
GRAPH_NODES = 120          # ... of an MCGS graph outside the icicle layout (node-link's size)
TREE_EVERY_MS = 150.0      # how often a thinking controller publishes trees
TREE_RENDERS_PER_S = 20.0  # tree re-renders per second, all panels together
TREE_HOLD_MAX_S = 0.2      # longest a turn-playing frame may delay a due re-render
ROOT_BARS_EVERY_S = 0.05   # root bars of a thinking search redraw at most 20 times/s
SCREENSHOT_DIR = Path("screenshots")
# What a panel of a search with a root matrix (MCGS, two-player joint) shows:
# auto = both side by side where the panel is wide enough, else the heat map.
MATRIX_MODES = ("auto", "both", "heatmap", "graph")
MATRIX_MODE_LABELS = {"auto": "auto", "both": "map + graph", "heatmap": "heat map",
                      "graph": "graph"}
MATRIX_BOTH_MIN_W = 520      # auto: both views in a tree area at least this wide
MATRIX_EVERY_S = 0.05        # a thinking search's heat map re-renders at most 20 times/s
PLAN_TURNS = 30              # principal variation drawn on the board: at most this many turns

HELP = [
    ("Space", "play / pause"),
    ("N", "play one turn (pauses)"),
    ("+ / -", "faster / slower"),
    ("F", "as fast as the search allows"),
    ("R", "restart with a new seed"),
    ("I", "one traced search iteration (paused, step-by-step view)"),
    ("J", "the same, phase by phase: select, joint action, simulate, backprop "
          "(GT-CFR: its regret update first)"),
    ("K / Shift+K", "10 / 100 traced iterations in a row (the last one shown)"),
    ("1-8, Tab", "choose a player's panel / move keyboard focus"),
    ("H", "take over the chosen player's agent (the game's keys, or click the board)"),
    ("Tab (driving)", "drive your team's next agent; the team plays the other (pods)"),
    ("L", "show / hide the searches' planned paths on the board"),
    ("W", "your agent waits for your key each turn (on) / moves on by itself"),
    ("T", "tree layout: auto / icicle / node-link"),
    ("V", "trees shown: each agent's own / one player's whole search"),
    ("M", "MCGS / joint panels: heat map and graph / heat map / graph"),
    ("A", "save the chosen player's settings as an agent file in agents/"),
    ("E", "the chosen player's evaluation weights (sliders, from the next turn) / its search"),
    ("O", "hidden cards or bids: view as all cards / one seat (yours while you play)"),
    ("P or F12", "screenshot to screenshots/"),
    *EXPLORER_HELP,
    ("Esc", "close this help / clear focus / back to the menu"),
    ("?", "this help"),
]


@lru_cache(maxsize=1)
def matrix_switch_width() -> int:
    """The MCGS panels' view switch: as wide as its longest label (one
    width for every mode, so the button does not jump as M cycles)."""
    return max(font(13).size("view: " + lab)[0] for lab in MATRIX_MODE_LABELS.values()) + 16


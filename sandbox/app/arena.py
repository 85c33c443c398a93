"""Arena scene: a live match with its board, per-player controls, meters and
every agent's search tree.

The scene owns a LiveMatch (sandbox.sim.live) and turns UI events into its
commands; everything it draws is read from the match's views and the
controllers' published snapshots. Layout (1280x800 default, resizable):

  +-------------------------------------------------------------------------+
  | transport: play/pause step speed restart scenario   turn  fps  REC      |
  +------------------+----------------------+-------------------------------+
  |                  | player tabs          | scoreboard                    |
  |     board        | sliders / pickers    | meters per player             |
  |                  | of the chosen player | settings-change log           |
  +------------------+----------------------+-------------------------------+
  | tree of agent 0  |  tree of agent 1  |  tree of agent 2  | tree of 3    |
  |  (root bars)     |  (root bars)      |  (root bars)      |              |
  +-------------------------------------------------------------------------+
       the walls between the panels: no tree sees another's selection

A tree panel shows what the search in force keeps (sandbox.sim.algorithms):
Smitsimax one tree per agent; SUCT and joint-action MCTS ONE tree, drawn in
one panel for all the agents it decides (their root bars side by side);
random and greedy no tree: a placeholder and taller root bars.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame

from ..config import Budget, Scenario, list_scenarios, load_scenario
from ..config.agent import AGENT_DIR, agent_dict, save_agent
from ..games import BoardContext, move_namer, move_names
from ..native import SandboxError, cores, has_bot
from ..render import palette as pal
from ..render.scoreboard import draw_scoreboard
from ..render.fonts import elide, font, text
from ..render.root_bars import draw_root_bars
from ..render.step_view import StepAnimation
from ..render.tooltip import draw_tooltip
from ..render.matrix_view import MatrixView
from ..render.tree_layout import line_moves, principal_variation
from ..render.tree_explore import HELP as EXPLORER_HELP
from ..render.tree_explore import ExplorerInput
from ..render.tree_view import TreeView
from ..sim import SearchController, TreeRequest
from ..sim.controller import has_root_matrix
from ..sim.algorithms import (ALGORITHM_LABELS, ALGORITHM_TIPS, ALGORITHMS, CF_LABELS,
                              CF_POLICIES, NO_TREE_NOTES, PARALLEL_LABELS, POLICIES,
                              PLAIN_ALGORITHMS, POLICY_ALGORITHMS, POLICY_LABELS, POLICY_TIPS,
                              TREE_ALGORITHMS,
                              algorithm_refusal, parallel_modes, trees_kept,
                              uses_average_strategy)
from ..sim.live import SPEEDS, LiveMatch
from ..sim.world import divergence_note
from ..ui import Button, Label, Picker, Slider, Toggle, WidgetGroup, is_ui
from .weight_slider import weight_slider
from .shell import App, Scene

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
    ("J", "the same, phase by phase: select, joint action, simulate, backprop"),
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
    ("P or F12", "screenshot to screenshots/"),
    *EXPLORER_HELP,
    ("Esc", "close this help / clear focus / back to the menu"),
    ("?", "this help"),
]


class ArenaScene(Scene):
    name = "arena"

    def __init__(self, app: App, scenario: Scenario, seed: int | None = None,
                 budget: Budget | None = None, recorder_factory=None,
                 paused: bool = False, branch=None) -> None:
        super().__init__(app)
        # branch (sandbox.replay.branch.BranchPoint): play on from a replay's
        # turn, with its recorded scenario, settings, budgets and seed
        if branch is not None:
            scenario, seed = branch.scenario, branch.seed
        # Trees are asked for before any search starts: a search that finishes
        # its turn before _apply_tree_requests narrows the request (a small
        # budget, a busy machine) still publishes the trees the panels show.
        self.live = LiveMatch(scenario, seed=seed, budget=budget,
                              recorder_factory=recorder_factory, paused=paused,
                              tree_request=TreeRequest(max_nodes=TREE_NODES, min_visits=1,
                                                       every_ms=TREE_EVERY_MS),
                              start=branch.start if branch is not None else None,
                              player_budgets=branch.player_budgets if branch is not None
                              else None)
        self.selected = 0            # player whose panel is shown
        self.tree_source: int | None = None   # None: each agent's own tree
        self.tree_mode = "auto"
        self.matrix_mode = "auto"
        self.explorer = ExplorerInput()   # tree panels: zoom, re-root, find, export
        self.show_help = False
        self.agent_dir = AGENT_DIR   # where A saves agent files (relative: the cwd)
        self.show_plans = True     # the searches' best lines drawn on the board (L)
        self.show_weights = False  # the controls show the evaluation weights (E)
        self.hover_info = None
        self.matrix_hover = None     # (MatrixView, MatrixInfo) under the mouse
        self.hover_pos = (0, 0)
        self.animation: StepAnimation | None = None
        # the traced player's snapshot from before the animated iteration: its
        # trees are shown until the animation reaches backprop
        self._step_before = None
        self._step_player: int | None = None
        self.message = ""
        self.message_until = 0.0
        self.change_log: list[str] = []
        self.scenario_stem: str | None = None   # the picker's entry for the match running
        self.live.on_turn.append(self._on_turn)
        self._build_match_views()
        self.layout = {}
        self._status_y: int | None = None
        self.widgets = WidgetGroup()

    # ------------------------------------------------------------ setup
    @property
    def match(self):
        return self.live.match

    def _agent_colors(self) -> list[tuple[int, int, int]]:
        m = self.match
        cols = []
        for a in range(m.world.num_agents):
            p = m.scenario.players[m.owner[a]]
            cols.append(pal.agent_color(a, p.color))
        return cols

    def _build_match_views(self) -> None:
        m = self.match
        self.colors = self._agent_colors()
        self.plugin = m.world.plugin
        names = move_names(m.world.game)          # from C, once per match
        self.board = self.plugin.renderer(self.colors, list(m.names), names)
        self.namers = [move_namer(names, a) for a in range(m.world.num_agents)]
        self.trees = [TreeView(a, self.colors[a], self.namers[a], mode=self.tree_mode,
                               agent_colors=self.colors, agent_names=list(m.names),
                               move_names=self.namers)
                      for a in range(m.world.num_agents)]
        # the heat map of a search's root matrix, per panel (indexed by the
        # panel's first agent, as the tree views)
        self.matrices = [MatrixView(self.colors, list(m.names), self.namers)
                         for _ in range(m.world.num_agents)]
        self._matrix_fed: dict[int, float] = {}
        # player (or (player, agent) for a tree per agent) -> (tree snapshot, its plan)
        self._plans: dict = {}
        self._matrix_sig: tuple = ()
        self._groups: list[tuple[int, ...]] = [(a,) for a in range(m.world.num_agents)]
        self._apply_tree_requests()
        self.animation = None
        self._step_before = None
        self._feed_next = 0
        self._feed_after = 0.0
        # agent -> (what the bars show, their surface, when drawn)
        self._bars: dict[int, tuple[tuple, pygame.Surface, float]] = {}

    def _apply_tree_requests(self) -> None:
        """Each search publishes the trees the views show: its own agents'
        trees, or every tree of the player whose whole search is shown."""
        for c in self.match.controllers:
            if not isinstance(c, SearchController):
                continue
            agents = None if self.tree_source == c.player else c.agents
            # the explorer's re-rooted views: their subtree, searched in C
            tops = tuple((a, tv.focus_path) for a, tv in enumerate(getattr(self, "trees", ()))
                         if tv.focus_path and (agents is None or a in agents))
            c.tree_request = TreeRequest(max_nodes=self._tree_rows(c), min_visits=1,
                                         every_ms=TREE_EVERY_MS, agents=agents, tops=tops)

    def _tree_rows(self, ctl) -> int:
        """Rows a search's snapshot asks for. A graph (MCGS) reads as a graph
        only in the node-link layout: unless icicle is asked for, its panel
        shows the top GRAPH_NODES nodes (best-first by visits) that node-link
        can draw with every shared child's other parents."""
        alg = ctl.latest.algorithm if ctl.latest is not None and ctl.latest.num_trees >= 0 \
            else ctl.settings.algorithm
        return GRAPH_NODES if alg == "mcgs" and self.tree_mode != "icicle" else TREE_NODES

    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        top = pygame.Rect(0, 0, w, 40)
        tree_h = max(200, int(h * 0.37))
        main_h = h - top.h - tree_h
        side = max(120, min(main_h - 16, int(w * 0.40)))
        board = pygame.Rect(10, top.bottom + 8, side, side)
        controls = pygame.Rect(board.right + 14, top.bottom + 8, 300, main_h - 16)
        right = pygame.Rect(controls.right + 14, top.bottom + 8,
                            max(150, w - controls.right - 24), main_h - 16)
        trees = pygame.Rect(0, h - tree_h, w, tree_h)
        self._groups = self._panel_groups()
        n = max(1, len(self.trees))
        pw = trees.w // n
        # A panel per group of agents that share a tree, as wide as its agents'.
        panels, x = [], trees.x
        for k, g in enumerate(self._groups):
            end = trees.right if k == len(self._groups) - 1 else x + pw * len(g)
            panels.append(pygame.Rect(x, trees.y, end - x, trees.h))
            x = end
        self.layout = {"top": top, "board": board, "controls": controls, "right": right,
                       "trees": trees, "panels": panels, "groups": list(self._groups)}
        self._build_widgets()

    # ------------------------------------------------------------ algorithms
    def _kept(self, ctl) -> int:
        """Trees the controller's search keeps now (in force: the published
        summary's; before any, its settings')."""
        snap = ctl.latest
        if snap is not None and snap.num_trees >= 0:
            return snap.num_trees
        return trees_kept(ctl.settings.algorithm, self.match.world.num_agents)

    def _in_force(self, ctl) -> tuple[str, str]:
        """(algorithm, policy) the C search runs now; a change asked for
        waits for the next turn."""
        snap = ctl.latest
        if snap is not None and snap.num_trees >= 0:
            return snap.algorithm, snap.policy
        return ctl.settings.algorithm, ctl.settings.policy

    def _panel_groups(self) -> list[tuple[int, ...]]:
        """Agents per tree panel: one each, except that a search keeping ONE
        tree (SUCT, joint) shows it once for all the agents it is shown for."""
        n = self.match.world.num_agents
        groups: list[tuple[int, ...]] = []
        seen: set[int] = set()
        for a in range(n):
            if a in seen:
                continue
            ctl = self._tree_controller(a)
            members: tuple[int, ...] = (a,)
            if isinstance(ctl, SearchController) and self._kept(ctl) == 1:
                mine = range(n) if self.tree_source is not None else ctl.agents
                members = tuple(m for m in mine if m not in seen) or (a,)
            groups.append(members)
            seen.update(members)
        return groups

    def _group_title(self, group: tuple[int, ...]) -> tuple[str, str | None]:
        """(panel header, the tree view's own title or None for 'Agent N')."""
        a = group[0]
        ctl = self._tree_controller(a)
        names = self.match.names
        if not isinstance(ctl, SearchController):
            return f"{names[a]} — {ctl.kind}", None
        alg, _ = self._in_force(ctl)
        kept = self._kept(ctl)
        whose = "own tree" if self.tree_source is None else f"in {ctl.name}'s search"
        if kept == 1 and alg == "mcgs":
            who = ", ".join(names[m] for m in group)
            return f"{who} — {ctl.name}'s MCGS graph", "MCGS graph"
        if kept == 1:
            who = ", ".join(names[m] for m in group)
            return f"{who} — {ctl.name}'s one {ALGORITHM_LABELS[alg]} tree", \
                f"{ALGORITHM_LABELS[alg]} tree"
        if kept == 0:
            return f"{names[a]} — {ALGORITHM_LABELS[alg]}: no tree", None
        return f"{names[a]} — {whose}", None

    def _build_widgets(self) -> None:
        L = self.layout
        g = WidgetGroup()
        x, y = 8, 7
        g.add(Button("play", (x, y, 70, 26), "Pause" if not self.live.paused else "Play",
                     "play / pause (Space)"))
        g.add(Button("step", (x + 76, y, 64, 26), "Step", "play one turn (N)"))
        g.add(Picker("speed", (x + 146, y, 120, 26), "speed",
                     [(s, SPEED_NAMES[s]) for s in SPEEDS], self.live.speed))
        g.add(Button("restart", (x + 274, y, 76, 26), "Restart", "new match, new seed (R)"))
        scen = [(p.stem, p.stem) for p in list_scenarios()] or [("-", "-")]
        if self.scenario_stem is None:
            self.scenario_stem = self._scenario_stem()
        current = self.scenario_stem
        g.add(Picker("scenario", (x + 358, y, 250, 26), "", scen, current))
        g.add(Button("help", (x + 616, y, 30, 26), "?", "keyboard shortcuts (?)"))
        g.add(Button("shot", (x + 652, y, 46, 26), "PNG", "screenshot (P)"))

        c = L["controls"]
        players = self.match.controllers
        save_w = 44                 # "Save agent" at the end of the tabs' row
        wts_w = 40                  # "Wts": the evaluation weights instead of the knobs
        tab_w = max(30, min(72, (c.w - 8 - save_w - wts_w) // max(1, len(players))))
        for i, ctl in enumerate(players):
            b = g.add(Button(f"tab{i}", (c.x + i * tab_w, c.y, tab_w - 4, 24), ctl.name[:8],
                             f"show {ctl.name}'s settings ({i + 1})"))
            b.toggled = i == self.selected
        g.add(Button("save_agent", (c.right - save_w, c.y, save_w, 24), "Save",
                     "save this player's settings as an agent file in agents/ (A)"))
        b = g.add(Button("weights", (c.right - save_w - 4 - wts_w, c.y, wts_w, 24), "Wts",
                         "evaluation weights of this player's search / its knobs (E)"))
        b.toggled = self.show_weights
        ctl = players[self.selected] if self.selected < len(players) else None
        weights_view = self.show_weights and isinstance(ctl, SearchController)
        yy = c.y + 34
        self._status_y = None
        if weights_view:
            yy = self._add_weight_sliders(g, ctl, c, yy)
        if isinstance(ctl, SearchController) and not weights_view:
            p = ctl.settings
            budget = self.match.budget_for(ctl.player)
            sw = c.w
            yy = self._add_algorithm_pickers(g, ctl, c, yy)
            # Only the knobs the chosen search reads (tidy panel): a tree
            # search's, Exp3/RM's in place of UCB's C; MCGS's PUCT ones (it
            # reads no gamma, C, random phase or reuse decay: mcgs.c);
            # random/greedy: budget.
            graph = p.algorithm == "mcgs"
            # the textbook yardstick (uct) reads C alone: no depth, discount,
            # random phase or reuse to offer
            plain = p.algorithm in PLAIN_ALGORITHMS
            tree = p.algorithm in TREE_ALGORITHMS and not graph
            sampling = uses_average_strategy(p.algorithm, p.policy)
            if graph:
                yy = self._add_mcgs_sliders(g, p, c, yy)
            # The ranges a user explores; a scenario may set a value outside
            # them (C up to 10, depth up to 64...): the slider then stretches
            # to show it, instead of clamping it and changing the search.
            if tree and sampling:
                g.add(Slider("exploration", (c.x, yy, sw, 30), "exploration γ", 0.0, 1.0,
                             p.exploration, step=0.01, fmt="{:.2f}",
                             tooltip="Exp3 / RM: share of the sampling distribution spread "
                                     "uniformly over the moves")); yy += 33
            elif tree:
                g.add(Slider("c", (c.x, yy, sw, 30), "exploration C", 0.0, max(3.0, p.c), p.c,
                             step=0.05, tooltip="UCB1 exploration constant")); yy += 33
            if tree and not plain:
                g.add(Slider("max_depth", (c.x, yy, sw, 30), "depth", 1, max(40, p.max_depth),
                             p.max_depth, step=1, integer=True, fmt="{}",
                             tooltip="simulated turns per iteration")); yy += 33
                g.add(Slider("gamma", (c.x, yy, sw, 30), "gamma", min(0.80, p.gamma), 1.00,
                             p.gamma, step=0.005, fmt="{:.3f}",
                             tooltip="discount per step toward the root"))
                yy += 33
                if not sampling:   # Exp3 / RM sample from their own strategy
                    g.add(Slider("random_threshold", (c.x, yy, sw, 30), "random below visits",
                                 0, max(100, p.random_threshold), p.random_threshold, step=1,
                                 integer=True, fmt="{}",
                                 tooltip="uniform random selection below this many parent "
                                         "visits")); yy += 33
                g.add(Slider("reuse_decay", (c.x, yy, sw, 30), "reuse decay", 0.0, 1.0,
                             p.reuse_decay, step=0.05, fmt="{:.2f}",
                             tooltip="tree reuse: the kept subtree's visits and totals are scaled "
                                     "by this when a turn is played (1 = kept whole); old turns' "
                                     "visits were gathered against opponent moves that were not "
                                     "played"))
                yy += 33
            ms = budget.ms if budget.ms else 50.0
            label = "budget ms/turn" if budget.ms else f"budget ms/turn (now {budget.iterations} it)"
            g.add(Slider("budget_ms", (c.x, yy, sw, 30), label, 1, max(1000.0, ms), ms, log=True,
                         fmt="{:.0f}", tooltip="search time per turn for this player")); yy += 35
            if p.algorithm in ("smitsimax", "mcgs"):
                yy = self._add_parallel_row(g, p, c, yy)
            if tree and sampling:
                # one row for both: a taller panel would run into the tree views
                g.add(Picker("final_move", (c.x, yy, sw // 2 - 4, 24), "move:",
                             [("argmax", "argmax"), ("sample", "sampled")],
                             p.final_move, tooltip="Exp3 / RM: the move played comes from the "
                                                   "average strategy: its most likely move or a "
                                                   "sample"))
                g.add(Picker("avg_weight", (c.x + sw // 2, yy, sw - sw // 2, 24), "avg:",
                             [("auto", "auto"), ("uniform", "uniform"), ("sqrt", "sqrt(t)"),
                              ("linear", "t")],
                             p.avg_weight, tooltip="Exp3 / RM: weight of each selection's "
                                                   "strategy in the average (t = the parent's "
                                                   "visits); auto: sqrt(t) for RM+, uniform "
                                                   "otherwise")); yy += 29
        if isinstance(ctl, SearchController) and ctl.settings.algorithm == "mcgs" \
                and not weights_view:
            p, sw = ctl.settings, c.w
            g.add(Toggle("tree_reuse", (c.x, yy, sw // 2, 22), "graph reuse", p.tree_reuse,
                         "keep the graph reachable from the played state between turns"))
            g.add(Toggle("transpositions", (c.x + sw // 2, yy, sw // 2, 22), "transpositions",
                         p.transpositions, "states reached by two move orders share one node "
                                           "(off: a tree); a change waits for the next turn"))
            yy += 26
        elif isinstance(ctl, SearchController) and ctl.settings.algorithm in TREE_ALGORITHMS \
                and ctl.settings.algorithm not in PLAIN_ALGORITHMS and not weights_view:
            p, sw = ctl.settings, c.w
            g.add(Picker("elimination", (c.x, yy, sw // 2 - 4, 24), "out:",
                         [("pass", "pass nodes"), ("freeze", "freeze tree")], p.elimination))
            g.add(Picker("bounds", (c.x + sw // 2, yy, sw - sw // 2, 24), "bounds:",
                         [("leaf", "leaf"), ("depth", "per depth")], p.bounds)); yy += 29
            g.add(Toggle("death_penalty", (c.x, yy, sw // 2, 22), "death penalty", p.death_penalty,
                         "penalise children of certain death"))
            g.add(Toggle("rollout", (c.x + sw // 2, yy, sw // 2, 22), "rollouts", p.rollout,
                         "one node per iteration, random below")); yy += 26
            g.add(Toggle("tree_reuse", (c.x, yy, sw // 2, 22), "tree reuse", p.tree_reuse,
                         "keep the played subtree between turns"))
            g.add(Toggle("depth_normalize", (c.x + sw // 2, yy, sw // 2, 22), "depth-normalise",
                         p.depth_normalize,
                         "leaf score / depth reached (score per turn): for scores that add up "
                         "over turns. With a state value (alive/dead) it also shrinks distant "
                         "outcomes: a death at depth 10 costs a tenth of one at depth 1"))
            yy += 26
        if isinstance(ctl, SearchController) and len(ctl.agents) == 1:
            g.add(Toggle("human", (c.x, yy, c.w, 22), f"you play ({self.plugin.keys_hint})",
                         ctl.agents[0] in self.live.human_agents, "take over (H)"))
            yy += 28
        # Trees shown and their layout share a row (the pickers above need it).
        src = [(None, "trees: each own")] + [
            (p, f"trees: {players[p].name[:8]}'s") for p in sorted(self.tree_sources()[1:])]
        tw = c.w * 6 // 10
        g.add(Picker("tree_source", (c.x, yy, tw - 4, 24), "", src, self.tree_source,
                     tooltip="each agent's own tree, or every tree of one player's search (V)"))
        g.add(Picker("tree_mode", (c.x + tw, yy, c.w - tw, 24), "",
                     [("auto", "auto"), ("icicle", "icicle"), ("nodelink", "node-link")],
                     self.tree_mode, tooltip="tree layout (T)"))
        # A panel of a search with a root matrix (MCGS, two-player joint): a
        # switch in its header between the heat map, the graph and both.
        for k, (grp, panel) in enumerate(zip(L.get("groups", []), L.get("panels", []))):
            if self._matrix_panel(grp):
                g.add(Button(f"mview{k}", (panel.right - 124, panel.y + 3, 116, 18),
                             "view: " + MATRIX_MODE_LABELS[self.matrix_mode],
                             "heat map of the root's joint actions and/or the graph (M)"))
        self._matrix_sig = self._matrix_signature()
        self.widgets = g

    def _add_weight_sliders(self, g: WidgetGroup, ctl, c: pygame.Rect, yy: int) -> int:
        """The game's evaluation weights as this player's search uses them
        (its own, players.N.weights, else the scenario's), one slider each;
        a change applies from the next turn (SearchController.update_weights)."""
        names = self.plugin.weight_names(ctl.base_params)
        if not names:
            g.add(Label("no_weights", (c.x, yy, c.w, 20), "this game has no evaluation weights",
                        color=pal.TEXT_DIM))
            return yy + 24
        g.add(Label("weights_note", (c.x, yy, c.w, 18),
                    elide("its search's evaluation weights (from the next turn)", 11, c.w),
                    size=11, color=pal.TEXT_DIM))
        yy += 20
        for name in names:
            g.add(weight_slider(self.plugin, ctl.base_params, name, ctl.weight(name),
                                f"weight.{name}", (c.x, yy, c.w, 30)))
            yy += 33
        return yy

    def _set_weight(self, name: str, value: float) -> None:
        ctl = self.match.controllers[self.selected]
        try:
            ctl.update_weights({name: float(value)}, turn=self.match.turn)
        except (SandboxError, ValueError, AttributeError) as exc:
            self.flash(f"cannot set {name}: {exc}")

    def _add_mcgs_sliders(self, g: WidgetGroup, p, c: pygame.Rect, yy: int) -> int:
        """MCGS's own knobs (ranges stretch to a scenario's value outside
        them, as the others): PUCT's constant, the first-play urgency
        offset, the depth, the rollout length of a new node's value, the
        priors and (heuristic priors) their temperature."""
        sw = c.w
        g.add(Slider("c_puct", (c.x, yy, sw, 30), "c_puct", 0.0, max(5.0, p.c_puct), p.c_puct,
                     step=0.05, tooltip="PUCT exploration constant (evaluation units): "
                                        "higher spreads the visits")); yy += 33
        g.add(Slider("fpu_offset", (c.x, yy, sw, 30), "FPU offset", 0.0,
                     max(2.0, p.fpu_offset), p.fpu_offset, step=0.01, fmt="{:.2f}",
                     tooltip="first-play urgency: an unvisited outcome is valued at the "
                             "node's Q minus this (higher: stay with what was tried)")); yy += 33
        g.add(Slider("max_depth", (c.x, yy, sw, 30), "depth", 1, max(40, p.max_depth),
                     p.max_depth, step=1, integer=True, fmt="{}",
                     tooltip="a playout stops this many turns below the root")); yy += 33
        g.add(Slider("rollout_steps", (c.x, yy, sw, 30), "rollout steps", 0,
                     max(50, p.rollout_steps), p.rollout_steps, step=1, integer=True, fmt="{}",
                     tooltip="random turns before a new node is evaluated (0: the game's "
                             "evaluation at once)")); yy += 33
        g.add(Picker("priors", (c.x, yy, sw, 24), "priors:",
                     [("uniform", "uniform"), ("heuristic", "heuristic")], p.priors,
                     tooltip="PUCT's priors: uniform, or a softmax of the game's move scores "
                             "(maze: fewer turns to the nearest cheese is better); a game "
                             "without move scores refuses heuristic")); yy += 29
        if p.priors == "heuristic":   # the temperature is read by heuristic priors only
            g.add(Slider("prior_temperature", (c.x, yy, sw, 30), "prior temperature",
                         min(0.05, p.prior_temperature), max(20.0, p.prior_temperature),
                         p.prior_temperature, log=True, fmt="{:.2f}",
                         tooltip="softmax temperature of the heuristic priors: low puts them "
                                 "on the best-scored move, high makes them uniform; a change "
                                 "starts the graph afresh")); yy += 33
        return yy

    # ------------------------------------------------------------ root matrices
    def _matrix_panel(self, group: tuple[int, ...]) -> bool:
        """Whether the panel's search has a root matrix to show (in force)."""
        if not group:
            return False
        ctl = self._tree_controller(group[0])
        if not isinstance(ctl, SearchController):
            return False
        return has_root_matrix(self._in_force(ctl)[0], self.match.world.num_agents)

    def _matrix_signature(self) -> tuple:
        return tuple(self._matrix_panel(g) for g in self.layout.get("groups", []))

    def _panel_areas(self, group: tuple[int, ...], panel: pygame.Rect
                     ) -> tuple[pygame.Rect | None, pygame.Rect | None]:
        """(tree area, heat-map area) of a panel; either may be None."""
        area = self._tree_area(panel)
        if not self._matrix_panel(group):
            return area, None
        mode = self.matrix_mode
        if mode == "auto":
            mode = "both" if area.w >= MATRIX_BOTH_MIN_W else "heatmap"
        if mode == "graph":
            return area, None
        if mode == "heatmap":
            return None, area
        mw = min(area.w // 2, max(280, int(area.h * 1.9)))
        return (pygame.Rect(area.x + mw + 6, area.y, area.w - mw - 6, area.h),
                pygame.Rect(area.x, area.y, mw, area.h))

    def _set_matrix_mode(self, mode: str) -> None:
        self.matrix_mode = mode
        self._build_widgets()

    def _cycle_matrix_mode(self) -> None:
        self._set_matrix_mode(MATRIX_MODES[(MATRIX_MODES.index(self.matrix_mode) + 1)
                                           % len(MATRIX_MODES)])
        self.flash(f"MCGS panels: {MATRIX_MODE_LABELS[self.matrix_mode]}")

    def _feed_matrix(self, leader: int, ctl: SearchController) -> MatrixView:
        """The panel's heat map with the newest root matrix: while the search
        thinks, at most every MATRIX_EVERY_S (a re-render is text and fills)."""
        mv = self.matrices[leader]
        snap = ctl.latest
        if snap is None:
            mv.update(None)
            return mv
        now = time.perf_counter()
        if snap.root_matrix is not mv.matrix and (
                not snap.thinking or now - self._matrix_fed.get(leader, 0.0) >= MATRIX_EVERY_S):
            alg, _ = self._in_force(ctl)
            mv.update(snap.root_matrix, nodes=max(snap.tree_nodes, default=0),
                      hits=snap.transposition_hits if alg == "mcgs" else None,
                      title="MCGS root" if alg == "mcgs" else "joint root")
            self._matrix_fed[leader] = now
        return mv

    def _add_parallel_row(self, g: WidgetGroup, p: Any, c: pygame.Rect, yy: int) -> int:
        """Smitsimax's (and MCGS's: serial, WU-UCT, tree) parallel mode and
        thread count (issue 15), applied from the search's next slice; a mode
        the settings cannot run is not offered (a sampling policy: "serial
        only", no thread count), and leaf without rollouts is refused with
        the reason."""
        half = c.w // 2
        # only the modes these settings run (the one in force is kept listed)
        can = parallel_modes(p)
        modes = [(k, v) for k, v in PARALLEL_LABELS.items() if k in can or k == p.parallel]
        if len(modes) == 1:
            note = g.add(Label("parallel_note", (c.x, yy + 8, half - 4, 20), "serial only",
                               color=pal.TEXT_DIM))
            note.tooltip = (f"{POLICY_LABELS[p.policy]} samples from sums over each node's "
                            "moves, which the parallel modes do not keep: it runs on one thread")
        else:
            g.add(Picker("parallel", (c.x, yy + 3, half - 4, 24), "", modes, p.parallel,
                         tooltip="parallel search: WU-UCT (shared trees, in-flight counts in "
                                 "the exploration term), tree (shared trees, virtual loss), "
                                 "root (a tree set per thread), leaf (a rollout per thread; "
                                 "needs rollouts). More than one thread is not "
                                 "bit-reproducible"))
        n = cores()
        if p.algorithm == "smitsimax" and p.policy in CF_POLICIES:
            # RM runs serially (no thread count to set); its slot holds where
            # the regrets are exact, the row's height unchanged
            g.add(Picker("counterfactual", (c.x + half, yy + 3, c.w - half, 24), "exact:",
                         list(CF_LABELS.items()),
                         p.counterfactual,
                         tooltip="RM: exact regrets (every move's own return against the "
                                 "others' actual moves, tutorial §11) where a step ends the "
                                 "game, also at the depth limit (slower), or sampled "
                                 "estimates everywhere"))
        elif n > 1 and len(modes) > 1:
            g.add(Slider("threads", (c.x + half, yy, c.w - half, 30), "threads", 1,
                         max(n, p.threads), p.threads, step=1, integer=True, fmt="{}",
                         tooltip=f"C threads inside this player's search (1..{n})"))
        return yy + 33

    def _add_algorithm_pickers(self, g: WidgetGroup, ctl: SearchController,
                               c: pygame.Rect, yy: int) -> int:
        """The algorithm and (where it has one) policy pickers, and under
        them the line that says what is in force; returns the next y."""
        p = ctl.settings
        game = self.match.world.game
        # an algorithm C refuses for this game (joint-action MCTS on 8
        # snakes) is listed but marked; choosing it shows C's reason
        algos = [(a, ALGORITHM_LABELS[a] + ("" if algorithm_refusal(game, a) is None else " (n/a)"))
                 for a in ALGORITHMS]
        half = c.w // 2
        g.add(Picker("algorithm", (c.x, yy, half - 4, 24), "", algos, p.algorithm,
                     tooltip=f"search algorithm: {ALGORITHM_TIPS[p.algorithm]} "
                             "(a change takes effect at the next turn)"))
        if p.algorithm in POLICY_ALGORITHMS:
            g.add(Picker("policy", (c.x + half, yy, c.w - half, 24), "policy",
                         [(k, POLICY_LABELS[k]) for k in POLICIES], p.policy,
                         tooltip=f"selection policy at every node: {POLICY_TIPS[p.policy]} "
                                 "(a change takes effect at the next turn, with fresh trees)"))
        elif p.algorithm in ("suct", "uct"):
            # who is serialised first: the agents after it see its move (the
            # leak of tutorial §4); the default, its own seat, only lets the
            # opponents peek
            names = self.match.names
            movers = [(-1, "own seat")] + [(a, names[a]) for a in range(len(names))]
            g.add(Picker("lead", (c.x + half, yy, c.w - half, 24), "first", movers, p.lead,
                         tooltip="Sequential UCT serialises each turn in one tree: the agent "
                                 "first in the order chooses blind, the ones after it see its "
                                 "move (the information leak). 'own seat': this player's agent "
                                 "goes first, so only its opponents peek. A change starts a "
                                 "fresh tree"))
        self._status_y = yy + 27
        return yy + 27 + 17

    def _algorithm_status(self, ctl: SearchController) -> tuple[str, str]:
        """('now: Smitsimax · UCB1', '→ RM next turn' or ''): what C runs
        this turn, and the change that waits for the next."""
        alg, pol = self._in_force(ctl)
        want = ctl.settings

        def name(a: str, q: str) -> str:
            return ALGORITHM_LABELS[a] + (f" · {POLICY_LABELS[q]}" if a in POLICY_ALGORITHMS else "")
        now = name(alg, pol)
        nxt = ""
        if want.algorithm != alg:
            nxt = f"→ {ALGORITHM_LABELS[want.algorithm]} next turn"   # its policy: the picker
        elif want.algorithm in POLICY_ALGORITHMS and want.policy != pol:
            nxt = f"→ {POLICY_LABELS[want.policy]} next turn"
        return f"now: {now}", nxt

    def _scenario_stem(self) -> str:
        name = self.match.scenario.name
        for p in list_scenarios():
            try:
                if load_scenario(p).name == name:
                    return p.stem
            except SandboxError:
                continue
        return "-"

    # ------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if is_ui(event):
            self._on_ui(event)
            return True
        if event.type == pygame.KEYDOWN and self.explorer.busy:   # the find box types
            return self._explore(event)
        if event.type == pygame.KEYDOWN and self.show_help:
            if event.key in (pygame.K_ESCAPE, pygame.K_QUESTION, pygame.K_F1) or event.unicode == "?":
                self.show_help = False
                return True
        human = self._human_agent()
        if event.type == pygame.KEYDOWN and human is not None and not self._slider_focused():
            res = self.plugin.key_move(self.live.view, human, pygame.key.name(event.key),
                                       event.unicode)
            if res is not None:
                self._steer(human, res.move, res.refused)
                return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and human is not None \
                and not self._slider_focused() and self._switch_driven(human):
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and human is not None \
                and self.layout and self.layout["board"].collidepoint(event.pos):
            move = self.board.move_at(self.layout["board"], self.live.view, event.pos, human)
            if move is not None:
                self._steer(human, move)
                return True
        if self.widgets.process_event(event):
            return True
        if self._explore(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hover_pos = event.pos
            self.hover_info = self._tree_at(event.pos, hover=True)
        elif event.type == pygame.KEYDOWN:
            return self._on_key(event)
        return False

    def _explore(self, event: pygame.event.Event) -> bool:
        """The tree explorer's mouse and keys over the tree panels
        (render/tree_explore.ExplorerInput); a changed focus asks the
        searches for that subtree."""
        panes = []
        for g, tv, panel in self._panel_views():
            area = self._panel_areas(g, panel)[0]   # MCGS: beside its heat map, or none
            if area is not None:
                panes.append((tv, area))
        before = [tv.focus_path for tv in self.trees]
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.widgets.clear_focus()
        consumed, msg = self.explorer.handle(event, panes)
        if msg:
            self.flash(msg)
        if [tv.focus_path for tv in self.trees] != before:
            self._apply_tree_requests()
            # an idle search (its turn decided, or paused) publishes the new
            # subtree now; a thinking one does at its next slice
            for c in self.match.controllers:
                if isinstance(c, SearchController) and c.done:
                    c.publish_now(self.match.turn)
        return consumed and event.type != pygame.MOUSEMOTION

    def _steer(self, agent: int, move: int | None, refused: str = "") -> None:
        """A person's key or click: the move for their agent this turn (the
        plugin refuses slips, e.g. a snake turning into its own neck)."""
        if move is None:
            if refused:
                self.flash(refused)
            return
        if move not in self.match.world.game.legal_moves(agent):
            self.flash(f"{self.namers[agent](move)} is not a legal move now")
            return
        self.live.choose(agent, move)

    def _switch_driven(self, agent: int) -> bool:
        """Tab while a person drives one agent of a team of several: drive the
        team's next agent instead; the one let go is played by the team's own
        controller again (its search, or for a person's team the game's bot).
        False (Tab moves the keyboard focus as usual) for a team of one."""
        ctl = next(c for c in self.match.controllers if agent in c.agents)
        if len(ctl.agents) < 2:
            return False
        i = ctl.agents.index(agent)
        nxt = next((b for b in ctl.agents[i + 1:] + ctl.agents[:i]
                    if self.match.world.game.is_alive(b)), None)
        if nxt is None:
            return False
        self.live.take_over(agent, False)
        self.live.take_over(nxt, True)
        by = ("its search" if isinstance(ctl, SearchController) else
              "the game's bot" if has_bot(self.match.world.game.kind) else "its last move")
        self.flash(f"you drive {self.match.names[nxt]}'s agent {nxt}; agent {agent} is "
                   f"played by {by}")
        return True

    def _slider_focused(self) -> bool:
        return any(w.focused and isinstance(w, Slider) for w in self.widgets.widgets)

    def _human_agent(self) -> int | None:
        ctl = self.match.controllers[self.selected]
        mine = [a for a in ctl.agents if a in self.live.human_agents]
        if mine:
            return mine[0]
        return min(self.live.human_agents) if self.live.human_agents else None

    def _on_key(self, event: pygame.event.Event) -> bool:
        k, ch = event.key, event.unicode
        if ch == "?" or k == pygame.K_F1:
            self.show_help = not self.show_help
        elif k == pygame.K_SPACE:
            self._toggle_pause()
        elif k in (pygame.K_n, pygame.K_PERIOD):
            self.live.step()
            self._sync_play_button()
        elif ch in ("+", "=") or k == pygame.K_KP_PLUS:
            self._shift_speed(+1)
        elif ch == "-" or k == pygame.K_KP_MINUS:
            self._shift_speed(-1)
        elif k == pygame.K_f:
            self._set_speed(None if self.live.speed is not None else 1.0)
        elif k == pygame.K_r:
            self.restart()
        elif k == pygame.K_i:
            self.traced_step()
        elif k == pygame.K_j:
            self.next_phase()
        elif k == pygame.K_k:
            self.traced_step(count=100 if event.mod & pygame.KMOD_SHIFT else 10)
        elif k == pygame.K_h:
            self._toggle_human()
        elif k == pygame.K_w:
            self.live.wait_for_humans = not self.live.wait_for_humans
            self.flash("your agent waits for your key each turn" if self.live.wait_for_humans
                       else "your agent moves on by itself; the match runs at its speed")
        elif k == pygame.K_t:
            modes = ["auto", "icicle", "nodelink"]
            self._set_tree_mode(modes[(modes.index(self.tree_mode) + 1) % 3])
        elif k == pygame.K_m:
            self._cycle_matrix_mode()
        elif k == pygame.K_v:
            self._set_tree_source(self.next_tree_source())
        elif k == pygame.K_l:
            self.show_plans = not self.show_plans
            self.flash("the searches' planned paths are shown on the board" if self.show_plans
                       else "planned paths hidden")
        elif k in (pygame.K_p, pygame.K_F12):
            self.take_screenshot()
        elif k == pygame.K_a:
            self.save_agent()
        elif k == pygame.K_e:
            self._toggle_weights()
        elif k == pygame.K_ESCAPE:
            if any(w.focused for w in self.widgets.widgets):
                self.widgets.clear_focus()
            else:
                self.app.pop()
        elif pygame.K_1 <= k <= pygame.K_8:
            self._select_player(k - pygame.K_1)
        else:
            return False
        return True

    def _on_ui(self, event: pygame.event.Event) -> None:
        wid, value = event.id, event.value
        if event.kind == "click":
            if wid == "play":
                self._toggle_pause()
            elif wid == "step":
                self.live.step()
                self._sync_play_button()
            elif wid == "restart":
                self.restart()
            elif wid == "help":
                self.show_help = not self.show_help
            elif wid == "shot":
                self.take_screenshot()
            elif wid == "save_agent":
                self.save_agent()
            elif wid == "weights":
                self._toggle_weights()
            elif wid.startswith("tab"):
                self._select_player(int(wid[3:]))
            elif wid.startswith("mview"):
                self._cycle_matrix_mode()
            return
        if wid == "speed":
            self._set_speed(value)
        elif wid == "scenario":
            self._change_scenario(value)
        elif wid == "tree_source":
            self._set_tree_source(value)
        elif wid == "tree_mode":
            self._set_tree_mode(value)
        elif wid == "human":
            self._toggle_human(value)
        elif wid == "budget_ms":
            self._set_budget(float(value))
        elif wid.startswith("weight."):
            self._set_weight(wid[len("weight."):], value)
        else:
            self.set_param(wid, value)
            if wid in ("algorithm", "policy", "transpositions", "priors"):
                # the knobs that apply change (or the refused pick goes back)
                self._build_widgets()

    # ------------------------------------------------------------ commands
    def set_param(self, field: str, value: Any, player: int | None = None) -> None:
        """Hot-swap one search setting of a player (the next slice uses it)."""
        player = self.selected if player is None else player
        try:
            self.live.update_settings(player, **{field: value})
        except (SandboxError, ValueError) as exc:
            self.flash(f"cannot set {field}: {exc}")

    def _toggle_weights(self) -> None:
        self.show_weights = not self.show_weights
        self._build_widgets()

    def _set_budget(self, ms: float) -> None:
        ctl = self.match.controllers[self.selected]
        old = self.match.budget_for(ctl.player)
        new = Budget(ms=round(ms, 1), iterations=0, slice_ms=old.slice_ms,
                     slice_iterations=old.slice_iterations)
        self.match.set_player_budget(ctl.player, new)   # logged with the turn's changes

    def _toggle_pause(self) -> None:
        self.live.toggle_pause()
        self._sync_play_button()

    def _sync_play_button(self) -> None:
        try:
            self.widgets.get("play").label = "Play" if self.live.paused else "Pause"
        except KeyError:
            pass

    def _set_speed(self, speed: float | None) -> None:
        self.live.set_speed(speed)
        try:
            self.widgets.get("speed").value = speed
        except KeyError:
            pass

    def _shift_speed(self, step: int) -> None:
        finite = [s for s in SPEEDS if s is not None]
        cur = self.live.speed
        if cur is None:
            self._set_speed(finite[-1] if step < 0 else None)
            return
        i = finite.index(cur) + step if cur in finite else 2
        self._set_speed(None if i >= len(finite) else finite[max(0, i)])

    def restart(self, seed: int | None = None, scenario: Scenario | None = None,
                stem: str | None = None) -> None:
        if scenario is not None:   # its replays are named after it, not the last one
            self.live.recorder_factory = self.app.recorder_factory(scenario, stem)
        self.live.restart(seed=seed, scenario=scenario)
        self.selected = min(self.selected, len(self.match.controllers) - 1)
        self.change_log.clear()
        self.hover_info = None
        self._build_match_views()
        self.resize(self.app.screen.get_size())
        self.flash(f"new match, seed {self.match.seed}")

    def _change_scenario(self, stem: str) -> None:
        """Play `stem`; where it does not load (or its match cannot be
        built), the running match goes on and the picker shows it again."""
        factory, source = self.live.recorder_factory, self.tree_source
        try:
            scenario = load_scenario(stem)
            self.tree_source = None
            self.restart(scenario=scenario, seed=scenario.seed, stem=stem)
        except SandboxError as exc:
            self.live.recorder_factory, self.tree_source = factory, source
            self._build_widgets()      # the picker: back on the match that runs
            self.flash(f"{stem}: {exc}")
            return
        self.scenario_stem = stem
        self._build_widgets()

    def _select_player(self, i: int) -> None:
        if 0 <= i < len(self.match.controllers):
            self.selected = i
            self._build_widgets()

    def _toggle_human(self, on: bool | None = None) -> None:
        ctl = self.match.controllers[self.selected]
        driven = [a for a in ctl.agents if a in self.live.human_agents]
        on = not driven if on is None else on
        if on and not driven:
            self.live.take_over(ctl.agents[0], True)
        elif not on:      # whichever agent Tab left them driving
            for a in driven:
                self.live.take_over(a, False)
        self.flash(f"you play {ctl.name}: {self.plugin.keys_hint}" if on
                   else f"{ctl.name} searches again")
        self._build_widgets()

    def _set_tree_mode(self, mode: str) -> None:
        self.tree_mode = mode
        self._apply_tree_requests()
        for tv in self.trees:
            tv.mode = mode
        try:
            self.widgets.get("tree_mode").value = mode
        except KeyError:
            pass

    def tree_sources(self) -> list[int | None]:
        """What V cycles through: each agent's own trees (None), then every
        player whose search keeps trees, starting from the chosen player and
        going round (a random or greedy search, a person, a random player
        have no tree to show and are skipped)."""
        ctls = self.match.controllers
        n = len(ctls)
        order = sorted(range(n), key=lambda p: (p - self.selected) % n)
        return [None] + [p for p in order
                         if isinstance(ctls[p], SearchController) and self._kept(ctls[p]) > 0]

    def next_tree_source(self) -> int | None:
        sources = self.tree_sources()
        if self.tree_source not in sources:
            return sources[1] if len(sources) > 1 else None
        return sources[(sources.index(self.tree_source) + 1) % len(sources)]

    def _set_tree_source(self, source: int | None) -> None:
        self.tree_source = source
        self._apply_tree_requests()
        for c in self.match.controllers:
            if isinstance(c, SearchController) and c.done:
                c.publish_now(self.match.turn)
        try:
            self.widgets.get("tree_source").value = source
        except KeyError:
            pass

    def traced_step(self, count: int = 1, held: bool = False) -> None:
        """`count` search iterations of the chosen player, each traced by C;
        the last one is animated across its trees (selection, joint action,
        simulation, backpropagation), held at each phase when `held`. The
        trees show their numbers from before that iteration until backprop."""
        ctl = self.match.controllers[self.selected]
        if not isinstance(ctl, SearchController):
            self.flash("this player does not search")
            return
        alg, _ = self._in_force(ctl)
        if alg != "smitsimax" or ctl.settings.algorithm != "smitsimax":
            # The animation walks one tree per agent; a single-tree search's
            # trace has its whole path in path[0] and no walls to show.
            self.flash(f"step view: Smitsimax only ({ctl.name} runs {ALGORITHM_LABELS[alg]})")
            return
        if not self.live.paused:
            self.live.toggle_pause()
            self._sync_play_button()
        if not ctl.done:
            self.flash("still thinking — try again when this turn's search is done")
            return
        self._end_animation()
        self._set_tree_source(ctl.player)
        try:
            # each iteration is one C call; only the last one's trace is shown
            for _ in range(count - 1):
                trace = ctl.step_traced()
                if trace.stop_reason != "none":
                    break
            else:
                before = ctl.publish_now(self.match.turn)
                trace = ctl.step_traced()
        except SandboxError as exc:
            self.flash(str(exc))
            return
        after = ctl.publish_now(self.match.turn)
        if trace.stop_reason != "none":
            self.flash(f"no iteration: {trace.stop_reason}")
            return
        self._step_before, self._step_player = before, ctl.player
        self.animation = StepAnimation(
            trace, self.match.world.num_agents, self.colors, self.namers, held=held,
            before=before.trees if before is not None else None,
            after=after.trees if after is not None else None)
        if count > 1:
            self.flash(f"{count} traced iterations; the last one is shown")

    def next_phase(self) -> None:
        """J: the next phase of a held traced iteration, or a new one held at
        its first phase (select)."""
        anim = self.animation
        if anim is None or not anim.held:
            self.traced_step(held=True)
            return
        anim.skip_phase()
        anim.apply(self.trees)
        if anim.done:
            self._end_animation()

    def _end_animation(self) -> None:
        self.animation = None
        self._step_before = None
        for tv in self.trees:
            tv.set_highlight(None, "select", 0.0)

    def take_screenshot(self, path: str | None = None) -> None:
        if path is None:
            path = self.app.screenshot_path("arena", SCREENSHOT_DIR)
        self.app.pending_screenshot = path
        self.flash(f"screenshot: {path}")

    def agent_settings(self, player: int | None = None) -> dict[str, Any]:
        """A player's settings in force now, as an agent file holds them: the
        search knobs as last set (a hot-swap waiting for the next slice or
        turn included), the live budget, its controller, name and colour."""
        i = self.selected if player is None else player
        ctl = self.match.controllers[i]
        search = ctl.settings if isinstance(ctl, SearchController) else None
        budget = self.match.budget_for(ctl.player) if search is not None else None
        color = self.colors[ctl.agents[0]] if ctl.agents else None
        return agent_dict(ctl.kind, ctl.name, color, search, budget,
                          description=f"saved from {self._scenario_stem()} "
                                      f"(turn {self.match.turn}, seed {self.match.seed}) "
                                      f"at {time.strftime('%Y-%m-%d %H:%M:%S')}",
                          weights=ctl.weights_asked if search is not None else None)

    def save_agent(self, player: int | None = None) -> Path | None:
        """Write the chosen player's settings to agents/ (AGENT_DIR, beside
        replays/ and screenshots/); the path, or None where it cannot be
        written (said in the flash line, the match goes on)."""
        data = self.agent_settings(player)
        try:
            path = save_agent(data, self.agent_dir, stem=str(data["name"]))
        except OSError as exc:
            self.flash(f"cannot save the agent in {self.agent_dir}/: "
                       f"{exc.strerror or exc}")
            return None
        self.flash(f"agent saved: {path} (a scenario player takes it with agent = "
                   f"\"{path.as_posix()}\")", seconds=6.0)
        return path

    def flash(self, msg: str, seconds: float = 3.0) -> None:
        self.message = msg
        self.message_until = time.perf_counter() + seconds

    def _log(self, line: str) -> None:
        self.change_log.append(line)
        del self.change_log[:-8]

    def _on_turn(self, record) -> None:
        for pt in record.players:
            for ch in pt.changes:
                name = self.match.controllers[ch.player].name
                parts = ", ".join(f"{k} {_fmt(o)}→{_fmt(n)}" for k, (o, n) in ch.changes.items())
                self._log(f"turn {ch.turn}: {name} {parts}")

    # ------------------------------------------------------------ frame
    def update(self, dt_ms: float) -> None:
        played = self.live.update(dt_ms) is not None
        self.widgets.update(dt_ms)
        if self.layout and self._panel_groups() != self._groups:
            # a change of algorithm took effect: one panel per tree it keeps
            self.resize(self.app.screen.get_size())
        elif self.layout and self._matrix_signature() != self._matrix_sig:
            self._build_widgets()   # a panel gained or lost its heat map switch
            self._apply_tree_requests()   # and an MCGS graph its size
        if played and self.animation is not None:
            # the traced iteration's trees were re-rooted: a held step (or its
            # pre-iteration snapshot) would now show a tree that is gone
            self._end_animation()
        # A frame that played a turn (re-rooting four searches, recording)
        # re-renders no tree: one heavy job per frame keeps the slowest frames
        # inside the frame budget.
        self._feed_trees(hold=played)
        if self.animation is not None:
            self.animation.update(dt_ms)
            self.animation.apply(self.trees)
            if self.animation.done:
                self._end_animation()

    def _feed_trees(self, hold: bool = False) -> None:
        """Hand the newest snapshots to the tree views, at most one new tree
        per frame (round-robin): a re-render costs a few ms, four at once
        would blow the frame budget while the searches hold both cores.
        `hold`: none this frame, unless the views have waited TREE_HOLD_MAX_S
        past their turn (when every frame plays a turn, trees still move on);
        a view with no tree yet always gets one."""
        n = len(self.trees)
        now = time.perf_counter()
        # ...and at most TREE_RENDERS_PER_S in all, so that the UI leaves the
        # cores to the searches it is showing.
        fed = now < self._feed_after or (hold and now < self._feed_after + TREE_HOLD_MAX_S)
        leaders = {g[0] for g in self._groups}   # the view that draws each panel
        for k in range(n):
            a = (self._feed_next + k) % n
            if a not in leaders:
                continue
            tv = self.trees[a]
            ctl = self._tree_controller(a)
            params = ctl.settings if isinstance(ctl, SearchController) else None
            if isinstance(ctl, SearchController):
                alg, pol = self._in_force(ctl)
                tv.sampling_policy = POLICY_LABELS[pol] if uses_average_strategy(alg, pol) else ""
                # MCGS keeps no score bounds: shade its means by the shown range
                tv.range_from_rows = alg == "mcgs"
            snap = self._tree_snapshot(a)
            # (tv.source: the snapshot given; tv.snapshot may be the explorer's cut of it)
            if snap is not tv.source and tv.source is not None and fed \
                    and self.animation is None:   # a traced step shows all trees at once
                snap = tv.source         # keep showing the current one this frame
            elif snap is not tv.source:
                if snap is not None:
                    fed = True
                    self._feed_after = now + 1.0 / TREE_RENDERS_PER_S
                self._feed_next = (a + 1) % n
            tv.update(snap, params)

    def _tree_controller(self, agent: int):
        if self.tree_source is not None:
            return self.match.controllers[self.tree_source]
        return self.match.controllers[self.match.owner[agent]]

    def _tree_snapshot(self, agent: int):
        ctl = self._tree_controller(agent)
        snap = ctl.latest
        if self._step_before is not None and self.animation is not None \
                and not self.animation.shows_updated_stats and ctl.player == self._step_player:
            snap = self._step_before   # the traced iteration has not backpropagated yet
        if snap is None:
            return None
        return snap.trees.get(agent)

    def _panel_views(self) -> list[tuple[tuple[int, ...], TreeView, pygame.Rect]]:
        """(agents, the view drawing their tree, panel) per tree panel."""
        return [(g, self.trees[g[0]], panel)
                for g, panel in zip(self._groups, self.layout.get("panels", []))]

    def _tree_at(self, pos, hover: bool = False, click: bool = False):
        self.matrix_hover = None
        found = None
        for g, tv, panel in self._panel_views():
            area, marea = self._panel_areas(g, panel)
            mv = self.matrices[g[0]]
            if hover:
                info = mv.hover(pos if marea is not None and marea.collidepoint(pos) else None)
                if info is not None:
                    self.matrix_hover = (mv, info)
            if area is not None and area.collidepoint(pos):
                found = tv.click(pos) if click else tv.hover(pos)
            elif hover:
                tv.hover((-1, -1))
        return found

    @staticmethod
    def _tree_area(panel: pygame.Rect) -> pygame.Rect:
        return pygame.Rect(panel.x + 6, panel.y + 92, panel.w - 12, panel.h - 98)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        L = self.layout
        if not L:
            return
        self._draw_top(surface, L["top"])
        view, prev = self.live.view, self.live.prev_view
        human = self._human_agent()
        self.board.draw(surface, L["board"], view, prev, self.live.alpha, self._board_context(human))
        note = ("paused" if self.live.paused else
                f"your move: {self.plugin.keys_hint}"
                if self.live.waiting_for_human() and self.match.turn_ready() else "")
        if note:   # on a dark label at the bottom left: game headers (scores, laps,
            # cheese left) run along the top, and boards leave their bottom margin free
            lab = text(elide(note, 14, L["board"].w - 12, bold=True), 14, pal.WARN, bold=True)
            box = lab.get_rect(bottomleft=(L["board"].x + 4, L["board"].bottom - 2)).inflate(8, 4)
            pygame.draw.rect(surface, pal.PANEL, box, border_radius=4)
            surface.blit(lab, (box.x + 4, box.y + 2))
        if self.live.over:
            self._draw_result(surface, L["board"])
        self._draw_controls_frame(surface, L["controls"])
        self._draw_right(surface, L["right"], view)
        self._draw_trees(surface, L["panels"])
        self.widgets.draw(surface)   # after the panels: their view switches sit on them
        if self.hover_info is not None:
            self.trees[self.hover_info.agent].draw_tooltip(surface, self.hover_pos, self.hover_info)
        elif self.matrix_hover is not None and self.matrix_hover[0].hovered is not None:
            # the view's current numbers: a new matrix under a resting mouse updates them
            self.matrix_hover[0].draw_tooltip(surface, self.hover_pos, self.matrix_hover[0].hovered)
        else:
            tip = self.widgets.tooltip_at(self.hover_pos)
            if tip:
                self._tooltip(surface, tip)
            else:   # a pinned node keeps its numbers on screen, off the node
                for g, tv, panel in self._panel_views():
                    area = self._panel_areas(g, panel)[0]
                    if area is not None:
                        tv.draw_pinned(surface, area)
        self.explorer.draw(surface)
        if self.message and time.perf_counter() < self.message_until:
            self._draw_message(surface)
        if self.show_help:
            self._draw_help(surface)

    def _board_context(self, human: int | None) -> BoardContext:
        """What the board may show beyond the state: the person's agent and
        its pending pick, and each agent's root policy as its search sees it."""
        policies = {}
        for c in self.match.controllers:
            snap = c.latest
            if snap is None or not isinstance(c, SearchController):
                continue
            for a in c.agents:   # the policy's probabilities (Exp3/RM: average strategy)
                policies[a] = tuple((s.move, s.policy) for s in snap.root_stats[a] if s.move >= 0)
        chosen = {a: m for a, m in self.live.human.items() if a in self.live.fresh_human}
        plans, predicted = self._board_plans()
        last = self.match.history[-1] if self.match.history else None
        return BoardContext(highlight_agent=human, policies=policies, chosen=chosen,
                            plans=plans, predicted=predicted, game=self.match.world.game,
                            note=divergence_note(last.divergence if last else None))

    def _board_plans(self) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
        """The principal variation of each graph (MCGS) or joint-action search:
        the most visited joint path from its root (tree_layout.principal_variation,
        following shared children too). `plans`: an agent's own search's line for
        it; `predicted`: another player's search's line for an agent that has no
        own one (a person, a Smitsimax player). A Smitsimax player's agents
        each get their own tree's best line (the most visited child down the
        tree). Only for the turn being decided; none while the plans are
        hidden (L)."""
        plans: dict[int, tuple[int, ...]] = {}
        predicted: dict[int, tuple[int, ...]] = {}
        if not self.show_plans:
            return plans, predicted
        for c in self.match.controllers:
            snap = c.latest
            if not isinstance(c, SearchController) or snap is None or not c.agents:
                continue
            if snap.turn != self.match.turn or snap.stop_reason == "eliminated":
                continue
            if snap.algorithm == "smitsimax":
                for a in c.agents:
                    line = self._own_line(c.player, a, snap.trees.get(a))
                    if line:
                        plans[a] = line
                continue
            if snap.algorithm not in ("mcgs", "joint"):
                continue
            tree = snap.trees.get(c.agents[0])
            if tree is None or len(tree) < 2 or tree.top_path:   # explorer's subtree: no plan
                continue
            cached = self._plans.get(c.player)
            if cached is None or cached[0] is not tree:
                rows = principal_variation(tree)[:PLAN_TURNS + 1]
                cached = (tree, tuple(tuple(line_moves(tree, rows, a))
                                      for a in range(self.match.world.num_agents)))
                self._plans[c.player] = cached
            for a, moves in enumerate(cached[1]):
                if a in c.agents:
                    plans[a] = moves
                else:
                    predicted.setdefault(a, moves)
        for a in plans:
            predicted.pop(a, None)
        return plans, predicted

    def _own_line(self, player: int, agent: int, tree) -> tuple[int, ...]:
        """An agent's moves down its own (decoupled) tree's most visited path,
        cached per tree snapshot."""
        if tree is None or len(tree) < 2 or tree.top_path:   # explorer's subtree: no plan
            return ()
        cached = self._plans.get((player, agent))
        if cached is None or cached[0] is not tree:
            rows = principal_variation(tree)[:PLAN_TURNS + 1]
            cached = (tree, tuple(m for m in line_moves(tree, rows, agent)))
            self._plans[(player, agent)] = cached
        return cached[1]

    def top_bar(self, r: pygame.Rect | None = None) -> dict[str, tuple[pygame.Rect, str]]:
        """What the top bar shows besides its buttons, where: "info" (turn,
        status, fps) at the right, "rec" (the recording's dot and label)
        between the last button and the info, its file name elided with "…"
        to fit, or left out where not even "REC" fits."""
        r = self.layout["top"] if r is None else r
        m = self.match
        status = "over" if m.over else ("paused" if self.live.paused else "playing")
        info = f"turn {m.turn}   {status}   {self.app.fps:4.0f} fps"
        iw, ih = font(14, mono=True).size(info)
        info_rect = pygame.Rect(r.right - iw - 12, r.y + 12, iw, ih)
        out = {"info": (info_rect, info)}
        rec = m.recorder
        if rec is not None and getattr(rec, "path", None) is not None:
            ok = not getattr(rec, "failed", False)
            label = f"REC {Path(rec.path).name}" if ok else "REC failed"
            left = max((w.rect.right for w in self.widgets.widgets
                        if w.rect.colliderect(r)), default=r.x) + 12
            room = info_rect.x - 10 - (left + 20)      # 20: the dot and its gap
            label = elide(label, 12, room)
            lw, lh = font(12).size(label)
            if lw <= room and len(label) > 1:
                out["rec"] = (pygame.Rect(info_rect.x - 10 - lw - 20, r.y + 13, lw + 20, lh),
                              label)
        return out

    def _draw_top(self, surface, r: pygame.Rect) -> None:
        pygame.draw.rect(surface, pal.PANEL, r)
        pygame.draw.line(surface, pal.BORDER, r.bottomleft, r.bottomright)
        items = self.top_bar(r)
        info_rect, info = items["info"]
        surface.blit(text(info, 14, pal.TEXT, mono=True), info_rect.topleft)
        if "rec" in items:
            rect, label = items["rec"]
            color = pal.WARN if getattr(self.match.recorder, "failed", False) else pal.ERROR
            pygame.draw.circle(surface, color, (rect.x + 5, r.y + 20), 5)
            surface.blit(text(label, 12, color), (rect.x + 20, rect.y))

    def _draw_controls_frame(self, surface, r: pygame.Rect) -> None:
        ctl = self.match.controllers[self.selected]
        color = self.colors[ctl.agents[0]] if ctl.agents else pal.TEXT
        pygame.draw.line(surface, color, (r.x, r.y + 28), (r.right, r.y + 28), 2)
        if not isinstance(ctl, SearchController):
            what = ("you steer it with the arrow keys" if ctl.kind == "human"
                    else f"{ctl.kind} player, no search settings")
            surface.blit(text(f"{ctl.name}: {what}", 13, pal.TEXT_DIM), (r.x, r.y + 40))
        elif self._status_y is not None:
            now, nxt = self._algorithm_status(ctl)
            lab = text(now, 11, pal.TEXT_DIM)
            surface.blit(lab, (r.x, self._status_y))
            if nxt:
                surface.blit(text(elide(nxt, 11, r.w - lab.get_width() - 10, bold=True), 11,
                                  pal.WARN, bold=True),
                             (r.x + lab.get_width() + 8, self._status_y))

    def _draw_right(self, surface, r: pygame.Rect, view) -> None:
        m = self.match
        board_rows = pygame.Rect(r.x, r.y, r.w, 26 * self.plugin.num_agents(view))
        scores = self.live.last_record.scores if self.live.last_record else None
        draw_scoreboard(surface, board_rows, self.plugin, view, self.colors, list(m.names), scores)
        y = board_rows.bottom + 10
        header = ["player", "it/s", "turns/s", "it/turn", "nodes", "ms"]
        f = min(1.0, (r.w - 30) / 380)    # narrow windows: the columns close up
        xs = [r.x + int(o * f) for o in (0, 70, 150, 240, 310, 380)]
        for h, x in zip(header, xs):
            surface.blit(text(h, 11, pal.TEXT_DIM), (x, y))
        y += 16
        for c in m.controllers:
            snap = c.latest
            color = self.colors[c.agents[0]] if c.agents else pal.TEXT
            surface.blit(text(c.name[:9], 12, color, bold=True), (xs[0], y))
            if snap is not None and snap.stop_reason == "eliminated":
                surface.blit(text("out: no search", 12, pal.TEXT_DIM), (xs[1], y))
            elif snap is not None:
                own = sum(snap.tree_nodes[a] for a in c.agents)
                warn = snap.cap_reached or own > 0.9 * snap.node_cap * len(c.agents)
                vals = [f"{snap.iterations_per_s / 1000:,.0f}k", f"{snap.sim_turns_per_s / 1e6:.2f}M",
                        _count(snap.iterations), _count(own), f"{snap.search_ms:.0f}"]
                for v, x in zip(vals, xs[1:]):
                    col = pal.WARN if (warn and v == vals[3]) else pal.TEXT
                    surface.blit(text(v, 12, col, mono=True), (x, y))
                if len(snap.thread_iterations) > 1:   # parallel Smitsimax's meter
                    total = max(1, sum(snap.thread_iterations))
                    shares = " | ".join(f"{100 * v / total:.0f}%" for v in snap.thread_iterations)
                    surface.blit(text(f"{len(snap.thread_iterations)} threads: {shares} of it, "
                                      f"waiting {100 * snap.wait_share:.0f}%", 11,
                                      pal.TEXT_DIM), (xs[0], y + 14))
                    y += 14
                note = tree_full_note(snap)
                if note:
                    surface.blit(text(note, 11, pal.WARN), (xs[0], y + 14))
                    y += 14
            else:
                surface.blit(text(c.kind, 12, pal.TEXT_DIM), (xs[1], y))
            y += 17
        y += 8
        if self.change_log:
            surface.blit(text("settings changes", 11, pal.TEXT_DIM), (r.x, y))
            y += 15
            for line in self.change_log[-6:]:
                if y > r.bottom - 14:
                    break
                surface.blit(text(line[:70], 11, pal.TEXT), (r.x, y))
                y += 14

    def _draw_trees(self, surface, panels: list[pygame.Rect]) -> None:
        for g, tv, panel in self._panel_views():
            pygame.draw.rect(surface, pal.PANEL, panel)
            a = g[0]
            ctl = self._tree_controller(a)
            header, tv.title = self._group_title(g)
            switch = 130 if self._matrix_panel(g) else 0   # the view switch's room
            surface.blit(text(elide(header, 12, panel.w - 16 - switch, bold=True), 12,
                              self.colors[a] if len(g) == 1 else pal.TEXT, bold=True),
                         (panel.x + 8, panel.y + 5))
            kept, policy_name, alg = -1, None, ""
            if isinstance(ctl, SearchController):
                kept = self._kept(ctl)
                alg, pol = self._in_force(ctl)
                if uses_average_strategy(alg, pol):
                    policy_name = POLICY_LABELS[pol]
            # No tree: the bars (greedy's per-move means) take its room.
            bars_h = max(64, panel.h - 22 - 28) if kept == 0 else 64
            bw = (panel.w - 16) // len(g)
            for k, m in enumerate(g):   # one tree for several agents: bars side by side
                self._draw_bars(surface, m, ctl.latest,
                                pygame.Rect(panel.x + 8 + k * bw, panel.y + 22,
                                            bw - (8 if k < len(g) - 1 else 0), bars_h),
                                policy_name, title=self.match.names[m] if len(g) > 1 else None)
            if kept == 0:
                note = f"{ALGORITHM_LABELS[alg]}: {NO_TREE_NOTES.get(alg, 'no search tree')}"
                lab = text(elide(note, 12, panel.w - 20), 12, pal.TEXT_DIM)
                surface.blit(lab, (panel.x + 10, panel.bottom - 22))
            else:
                area, marea = self._panel_areas(g, panel)
                if area is not None:
                    tv.draw(surface, area)
                if marea is not None:
                    self._feed_matrix(g[0], ctl).draw(surface, marea)
        # the walls: no tree sees another agent's selection
        for panel in panels[1:]:
            x = panel.x
            for y in range(panel.y + 4, panel.bottom - 4, 10):
                pygame.draw.line(surface, pal.BORDER, (x, y), (x, y + 5), 2)
        if self.animation is not None:
            self.animation.draw_overlay(surface, [self._tree_area(p) for p in panels],
                                        [p.x for p in panels[1:]])

    def _draw_bars(self, surface, agent: int, snap, rect: pygame.Rect,
                   policy_name: str | None = None, title: str | None = None) -> None:
        """The root bars from a cached surface: while a search thinks its
        snapshot changes every slice, and redrawing four panels of text every
        frame costs the searches CPU; a settled snapshot shows at once."""
        stats = snap.root_stats[agent] if snap is not None else ()
        chosen = snap.best_moves[agent] if snap is not None else None
        status = self.plugin.status(self.live.view, agent)
        empty = "no root statistics yet"
        if not status.alive:   # nothing left to decide: say so, not "yet"
            stats, chosen = (), None
            empty = status.out_text()
        key = (stats, chosen, rect.size, empty, policy_name, title)
        now = time.perf_counter()
        cached = self._bars.get(agent)
        if cached is None or (cached[0] != key and (
                snap is None or not snap.thinking or cached[1].get_size() != rect.size
                or now - cached[2] >= ROOT_BARS_EVERY_S)):
            surf = cached[1] if cached is not None and cached[1].get_size() == rect.size \
                else pygame.Surface(rect.size)
            draw_root_bars(surf, surf.get_rect(), stats, self.namers[agent], self.colors[agent],
                           chosen_move=chosen, empty=empty, policy_name=policy_name,
                           title=title)
            cached = (key, surf, now)
            self._bars[agent] = cached
        surface.blit(cached[1], rect.topleft)

    def _draw_result(self, surface, board: pygame.Rect) -> None:
        res = self.live.result
        if res is None:
            return
        line = (f"{res.names[res.winner]} wins" if res.winner is not None else "no single winner")
        box = pygame.Rect(0, 0, 300, 70)
        box.center = board.center
        pygame.draw.rect(surface, pal.PANEL_HI, box, border_radius=6)
        pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=6)
        t1 = text(line, 18, pal.TEXT, bold=True)
        t2 = text(f"after {res.turns} turns — R for a new match", 12, pal.TEXT_DIM)
        surface.blit(t1, t1.get_rect(center=(box.centerx, box.y + 24)))
        surface.blit(t2, t2.get_rect(center=(box.centerx, box.y + 50)))

    def _tooltip(self, surface, tip: str) -> None:
        draw_tooltip(surface, self.hover_pos, tip, max_width=420)   # long tips wrap

    def _draw_message(self, surface) -> None:
        t = text(self.message, 13, pal.TEXT)
        r = pygame.Rect(0, 0, t.get_width() + 20, t.get_height() + 10)
        r.midbottom = (surface.get_width() // 2, self.layout["trees"].y - 8)
        pygame.draw.rect(surface, pal.PANEL_HI, r, border_radius=4)
        surface.blit(t, (r.x + 10, r.y + 5))

    def _draw_help(self, surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, (0, 0))
        keys = [text(k, 13, pal.ACCENT, mono=True) for k, _ in HELP]
        whats = [text(what, 13, pal.TEXT) for _, what in HELP]
        # the box is as wide as its longest line (within the window)
        key_w = max(114, max(t.get_width() for t in keys) + 16)
        width = min(surface.get_width() - 20, 32 + key_w + max(t.get_width() for t in whats))
        box = pygame.Rect(0, 0, width, 40 + 22 * len(HELP))
        box.center = surface.get_rect().center
        self.help_rect = box
        pygame.draw.rect(surface, pal.PANEL, box, border_radius=8)
        pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=8)
        surface.blit(text("Keyboard", 16, pal.TEXT, bold=True), (box.x + 16, box.y + 10))
        for i, (k, what) in enumerate(zip(keys, whats)):
            y = box.y + 38 + 22 * i
            surface.blit(k, (box.x + 16, y))
            surface.blit(what, (box.x + 16 + key_w, y))

    # ------------------------------------------------------------ lifetime
    def exit(self) -> None:
        self.live.close()

    def state(self) -> dict[str, Any]:
        m = self.match
        players = []
        for c in m.controllers:
            entry: dict[str, Any] = {"name": c.name, "controller": c.kind, "agents": list(c.agents),
                                     "human": any(a in self.live.human_agents for a in c.agents)}
            if isinstance(c, SearchController):
                entry["settings"] = c.settings.model_dump()
                entry["c_params"] = c.c_confirmed.model_dump()
                entry["budget_ms"] = m.budget_for(c.player).ms
                snap = c.latest
                if snap is not None:
                    entry["iterations_per_s"] = round(snap.iterations_per_s)
                    entry["iterations_this_turn"] = snap.iterations
            players.append(entry)
        return {"scene": self.name, "turn": m.turn, "paused": self.live.paused,
                "speed": self.live.speed, "over": m.over, "seed": m.seed,
                "selected": self.selected, "tree_source": self.tree_source,
                "replay": str(getattr(m.recorder, "path", "") or "") or None,
                "branched_from": m.branched_from,
                "players": players,
                # where each widget is, so an outside driver (xdotool) can aim
                "widgets": self._widget_geometry()}

    def _widget_geometry(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for w in self.widgets.widgets:
            entry: dict[str, Any] = {"rect": list(w.rect)}
            if isinstance(w, Slider):
                t = w.track
                entry.update(track=[t.x, t.y, t.w, t.h], lo=w.lo, hi=w.hi, value=w.value,
                             log=w.log)
            elif isinstance(w, (Picker, Toggle)):
                entry["value"] = w.value
            out[w.id] = entry
        return out


def tree_full_note(snap) -> str:
    """The meter's warning when a player's search stopped because a tree hit
    its node cap (it then plays the best move found so far): "" otherwise."""
    if snap.cap_reached or snap.stop_reason == "node_cap":
        return f"tree full (node cap {_count(snap.node_cap)})"
    return ""


def _count(n: int) -> str:
    """At most 7 characters: 9,417 · 105,712 · 1.05M (columns stay apart)."""
    return f"{n:,}" if n < 1_000_000 else f"{n / 1e6:.3g}M"


def _fmt(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)

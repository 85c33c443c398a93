"""The chosen player's controls: player tabs, the algorithm pickers, the sliders of its
search settings (or, with E, its evaluation weights), MCGS and parallel-search rows, the
status line of the algorithm in force, a person taking an agent over (H), and saving the
player as an agent file (A). Every change goes to the match through set_param."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame

from ...config import Budget, list_scenarios
from ...config.agent import agent_dict, save_agent
from ...config.process import PROCESS_KEYS
from ...names import player_labels, short_name
from ...native import SandboxError, cores
from ...render import palette as pal
from ...render.fonts import elide, text
from ...sim.controller import SearchController
from ...settings.algorithms import (ALGORITHM_LABELS, ALGORITHM_TIPS, ALGORITHMS, CF_LABELS, CF_POLICIES,
                               PARALLEL_LABELS, POLICIES, PLAIN_ALGORITHMS, POLICY_ALGORITHMS,
                               POLICY_LABELS, POLICY_TIPS, TREE_ALGORITHMS, algorithm_refusal,
                               parallel_modes, trees_kept, uses_average_strategy)
from ...sim.live import SPEEDS
from ...ui import Button, Label, Picker, Slider, Toggle, WidgetGroup
from ...settings.doc import USED_BY
from ...settings.glossary import setting_tip, term_tip
from ..weight_slider import weight_slider
from .bot_panel import LogTail, draw_bot_controls, is_external
from .constants import SPEED_NAMES, MATRIX_MODE_LABELS, matrix_switch_width


def _cfr_final_move(rect: tuple[int, int, int, int], value: str) -> Picker:
    """The move picker of the CFR searches (GT-CFR, CFR over public states):
    both play from the root's average strategy."""
    return Picker("final_move", rect, "move:", [("argmax", "argmax"), ("sample", "sampled")],
                  value, tooltip="the move played: a draw from the root's average strategy, "
                                 "or its most likely move")


class PlayerControls:
    """ArenaScene's part: the chosen player's controls, a mixin over the scene's state.
    It uses the scene's live, plugin, selected, widgets, layout, colors, show_weights, seats,
    agent_dir, scenario_stem, tree_mode, tree_source, matrix_mode, _status_y, _matrix_sig;
    it calls match, flash, _scenario_stem and _viewer (scene), tree_sources, _matrix_panel and
    _matrix_signature (panels)."""

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

    def _build_widgets(self) -> None:
        L = self.layout
        g = WidgetGroup()
        x, y = 8, 7
        g.add(Button("play", (x, y, 70, 26), "Pause" if not self.live.paused else "Play",
                     "play / pause (Space)"))
        g.add(Button("step", (x + 76, y, 64, 26), "Step", "play one turn (N)"))
        g.add(Picker("speed", (x + 146, y, 120, 26), "speed",
                     [(s, SPEED_NAMES[s]) for s in SPEEDS], self.live.speed,
                     tooltip="how fast turns are played (x1: one every 0.4 s, x2 twice as "
                             "fast; max: as soon as the searches finish; + / -)"))
        g.add(Button("restart", (x + 274, y, 76, 26), "Restart", "new match, new seed (R)"))
        scen = [(p.stem, p.stem) for p in list_scenarios()] or [("-", "-")]
        if self.scenario_stem is None:
            self.scenario_stem = self._scenario_stem()
        current = self.scenario_stem
        g.add(Picker("scenario", (x + 358, y, 250, 26), "", scen, current,
                     tooltip="the scenario played (scenarios/*.toml); another one starts a "
                             "new match of it"))
        g.add(Button("help", (x + 616, y, 30, 26), "?", "keyboard shortcuts (?)"))
        g.add(Button("shot", (x + 652, y, 46, 26), "PNG", "screenshot (P)"))
        # a hidden-information game: whose cards the board shows (O)
        self._seat_sig = self._viewer()
        self.seats.add_picker(g, (x + 706, y, 150, 26), *self._seat_sig)

        c = L["controls"]
        players = self.match.controllers
        save_w = 44                 # "Save agent" at the end of the tabs' row
        wts_w = 56                  # the evaluation weights instead of the knobs
        tab_w = max(30, min(110, (c.w - 8 - save_w - wts_w) // max(1, len(players))))
        tab_names = player_labels([ctl.name for ctl in players])
        for i, ctl in enumerate(players):
            out = self.player_out(i)
            b = g.add(Button(f"tab{i}", (c.x + i * tab_w, c.y, tab_w - 4, 24),
                             elide(tab_names[i], 13, tab_w - 12),
                             f"show {ctl.name}'s settings ({i + 1})" +
                             (f"; {out.out_text()}" if out else "")))
            b.toggled = i == self.selected
        g.add(Button("save_agent", (c.right - save_w, c.y, save_w, 24), "Save",
                     "save this player's settings as an agent file in agents/ (A)"))
        b = g.add(Button("weights", (c.right - save_w - 4 - wts_w, c.y, wts_w, 24), "weights",
                         term_tip("weights") + "; again: its search settings (E)"))
        b.toggled = self.show_weights
        ctl = players[self.selected] if self.selected < len(players) else None
        weights_view = self.show_weights and isinstance(ctl, SearchController)
        yy = c.y + 34
        self._status_y = None
        if not isinstance(ctl, SearchController):
            yy += 24     # the note that says who moves it (drawn in _draw_controls_frame)
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
            gtcfr = p.algorithm == "gtcfr"   # its own knobs: no C, gamma or reuse decay
            # the textbook yardstick (uct) reads C alone: no depth, discount,
            # random phase or reuse to offer
            plain = p.algorithm in PLAIN_ALGORITHMS
            tree = p.algorithm in TREE_ALGORITHMS and not graph and not gtcfr
            sampling = uses_average_strategy(p.algorithm, p.policy)
            # priors turn Smitsimax's, SUCT's and joint's UCB1 into decoupled PUCT
            puct = p.ucb_takes_priors and p.priors != "uniform"
            if graph:
                yy = self._add_mcgs_sliders(g, p, c, yy)
            if gtcfr:
                yy = self._add_gtcfr_sliders(g, p, c, yy)
            if p.algorithm == "pubcfr":   # depth-limited CFR+ over public states
                g.add(Slider("max_depth", (c.x, yy, sw, 30), "depth (rounds)", 1,
                             max(13, p.max_depth), p.max_depth, step=1, integer=True, fmt="{}",
                             tooltip="rounds of the public tree; below them the game's "
                                     "evaluation")); yy += 33
                g.add(_cfr_final_move((c.x, yy, sw, 24), p.final_move)); yy += 29
                if p.grow_tree:   # GT-CFR's knobs, read by the growing tree only
                    g.add(Slider("expansions_per_update", (c.x, yy, sw, 30),
                                 "expansions / update", min(0.1, p.expansions_per_update),
                                 max(20.0, p.expansions_per_update), p.expansions_per_update,
                                 log=True, fmt="{:.2f}",
                                 tooltip="expansion simulations per CFR+ iteration of the "
                                         "whole tree (below 1: several iterations each)"))
                    yy += 33
                    g.add(Slider("c_puct", (c.x, yy, sw, 30), "c_puct", 0.0,
                                 max(5.0, p.c_puct), p.c_puct, step=0.05,
                                 tooltip="PUCT constant of the expansion's selection (half "
                                         "PUCT, half the average strategy)")); yy += 33
            # The ranges a user explores; a scenario may set a value outside
            # them (C up to 10, depth up to 64...): the slider then stretches
            # to show it, instead of clamping it and changing the search.
            if tree and sampling:
                g.add(Slider("exploration", (c.x, yy, sw, 30), "exploration γ", 0.0, 1.0,
                             p.exploration, step=0.01, fmt="{:.2f}",
                             tooltip="Exp3 / RM: share of the sampling distribution spread "
                                     "uniformly over the moves")); yy += 33
            elif tree and puct:   # decoupled PUCT reads c_puct, not C
                g.add(Slider("c_puct", (c.x, yy, sw, 30), "c_puct", 0.0, max(5.0, p.c_puct),
                             p.c_puct, step=0.05,
                             tooltip="PUCT constant: Q + c_puct · P · √N / (1 + n), the priors "
                                     "in place of UCB1's C")); yy += 33
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
                if puct and p.algorithm != "joint":
                    # Smitsimax and SUCT skip the random warm-up with priors (the
                    # prior orders the first visits); an untried move's value is
                    # the tried ones' mean less this offset
                    g.add(Slider("fpu_offset", (c.x, yy, sw, 30), "FPU offset", 0.0,
                                 max(2.0, p.fpu_offset), p.fpu_offset, step=0.01, fmt="{:.2f}",
                                 tooltip="first-play urgency: an untried move is valued at the "
                                         "tried ones' mean less this (on [0, 1])")); yy += 33
                elif not sampling:   # Exp3 / RM sample from their own strategy
                    g.add(Slider("random_threshold", (c.x, yy, sw, 30), "random threshold",
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
        elif isinstance(ctl, SearchController) and ctl.settings.algorithm == "gtcfr" \
                and not weights_view:
            p, sw = ctl.settings, c.w
            g.add(Toggle("alternating", (c.x, yy, sw // 2, 22), "alternating", p.alternating,
                         "alternating CFR+ updates (two passes; converge much faster) or the "
                         "paper's simultaneous ones"))
            g.add(Toggle("rollout", (c.x + sw // 2, yy, sw // 2, 22), "rollouts", p.rollout,
                         "value a new leaf after random turns (depth) instead of the "
                         "evaluation")); yy += 26
            g.add(Toggle("tree_reuse", (c.x, yy, sw // 2, 22), "warm reuse", p.tree_reuse,
                         "keep the played subtree's regrets and averages between turns (off: "
                         "its nodes only)")); yy += 26
        elif isinstance(ctl, SearchController) and ctl.settings.algorithm == "pubcfr" \
                and not weights_view:
            g.add(Toggle("tree_reuse", (c.x, yy, c.w, 22), "safe re-solving (gadget)",
                         ctl.settings.tree_reuse,
                         "re-solve each turn from the previous search's ranges and the "
                         "opponent's values (the gadget); off: from the uniform-play range, "
                         "which is not safe")); yy += 26
            g.add(Toggle("grow_tree", (c.x, yy, c.w, 22), "growing tree (GT-CFR)",
                         ctl.settings.grow_tree,
                         "grow the public tree by expansion simulations (half PUCT, half the "
                         "average strategy) instead of building it breadth-first, a round at "
                         "a time")); yy += 26
        elif isinstance(ctl, SearchController) and ctl.settings.algorithm in TREE_ALGORITHMS \
                and ctl.settings.algorithm not in PLAIN_ALGORITHMS and not weights_view:
            p, sw = ctl.settings, c.w
            g.add(Picker("elimination", (c.x, yy, sw // 2 - 4, 24), "elimination:",
                         [("pass", "pass"), ("freeze", "freeze")], p.elimination))
            g.add(Picker("bounds", (c.x + sw // 2, yy, sw - sw // 2, 24), "bounds:",
                         [("leaf", "leaf"), ("depth", "depth")], p.bounds)); yy += 29
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
        if isinstance(ctl, SearchController) and not weights_view:
            yy = self._add_net_toggle(g, ctl, c, yy)
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
                bw = matrix_switch_width()
                g.add(Button(f"mview{k}", (panel.right - bw - 8, panel.y + 3, bw, 18),
                             "view: " + MATRIX_MODE_LABELS[self.matrix_mode],
                             "heat map of the root's joint actions and/or the graph (M)"))
        self._matrix_sig = self._matrix_signature()
        for w in g.widgets:     # a setting's widget: the docs' words for it on hover
            if setting_tip(w.id):
                w.tooltip = setting_tip(w.id)
        self.widgets = g

    def _add_net_toggle(self, g: WidgetGroup, ctl, c: pygame.Rect, yy: int) -> int:
        """A switch for the seat's value net, live, where its settings named
        one and its algorithm reads it, and beside it the priors picker of
        the searches that take priors: off searches on the game's evaluation,
        on attaches the net again. Either way the search does not mix the two
        values: Smitsimax, SUCT, joint, MCGS and GT-CFR start their trees
        afresh, pubcfr values its frontier anew from the next pass."""
        p = ctl.settings
        path = p.value_net
        if path:
            self.net_paths[self.selected] = path
        path = self.net_paths.get(self.selected, "")
        net = bool(path) and p.algorithm in USED_BY["value_net"]
        # Smitsimax, SUCT and joint's priors share the net's row (MCGS and
        # GT-CFR pick theirs with their own knobs): a row of its own would
        # run into the tree views; without a net, a scenario, agent file or
        # the what-if panel sets them
        if not net:
            return yy
        pick = p.ucb_takes_priors
        half = c.w // 2
        g.add(Toggle("net_on", (c.x, yy, c.w - half - 4 if pick else c.w, 22),
                     # beside the picker the name would run into it: then in the tip
                     "value net" if pick else f"value net: {Path(path).name}",
                     bool(p.value_net),
                     f"value the search's leaves (and, with priors = net, its priors) with "
                     f"the trained net ({Path(path).name}); off: the game's evaluation. The "
                     f"root bars show the net's value and a gold tick at each move's prior"))
        if pick:
            g.add(Picker("priors", (c.x + c.w - half, yy, half, 24), "priors:",
                         _priors_choices(p), p.priors,
                         tooltip=PRIORS_TIP + "; not uniform: each player chooses by "
                                              "decoupled PUCT instead of UCB1"))
        return yy + 29

    def _toggle_net(self, on: bool) -> None:
        path = self.net_paths.get(self.selected, "")
        if path:
            self.set_param("value_net", path if on else "")

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

    def _add_gtcfr_sliders(self, g: WidgetGroup, p, c: pygame.Rect, yy: int) -> int:
        """GT-CFR's own knobs: SoG's c (expansions per regret update), PUCT's
        constant, the rollout depth, the rollouts a leaf's value averages and
        the simulations that refine it before it expands, the priors, what an
        expansion adds and the move played."""
        sw = c.w
        g.add(Slider("expansions_per_update", (c.x, yy, sw, 30), "expansions / update",
                     min(0.1, p.expansions_per_update), max(20.0, p.expansions_per_update),
                     p.expansions_per_update, log=True, fmt="{:.2f}",
                     tooltip="SoG's c: expansion simulations per CFR+ update of the whole tree "
                             "(below 1: several updates per expansion)")); yy += 33
        g.add(Slider("c_puct", (c.x, yy, sw, 30), "c_puct", 0.0, max(5.0, p.c_puct), p.c_puct,
                     step=0.05, tooltip="PUCT constant of the expansion's selection (half "
                                        "PUCT, half the average strategy)")); yy += 33
        g.add(Slider("max_depth", (c.x, yy, sw, 30), "rollout depth", 1, max(40, p.max_depth),
                     p.max_depth, step=1, integer=True, fmt="{}",
                     tooltip="rollouts on: random turns before a new leaf's evaluation")); yy += 33
        g.add(Slider("leaf_rollouts", (c.x, yy, sw // 2 - 12, 30), "rollouts / leaf", 1,
                     max(64, p.leaf_rollouts), p.leaf_rollouts, integer=True, log=True, fmt="{}",
                     tooltip="rollouts on: random rollouts averaged into a new leaf's value"))
        g.add(Slider("expand_after", (c.x + sw // 2 + 8, yy, sw - sw // 2 - 8, 30), "expand after", 1,
                     max(256, p.expand_after), p.expand_after, integer=True, log=True, fmt="{}",
                     tooltip="the n-th simulation reaching a leaf expands it; each one "
                             "before adds a rollout to its value")); yy += 33
        g.add(Picker("expand_children", (c.x, yy, sw // 2 - 4, 24), "add:",
                     [("all", "all"), ("one", "one")], p.expand_children,
                     tooltip="what an expansion adds: every child (k = all) or the joint "
                             "action of the highest prior (k = 1)"))
        g.add(_cfr_final_move((c.x + sw // 2, yy, sw - sw // 2, 24), p.final_move)); yy += 29
        g.add(Picker("priors", (c.x, yy, sw, 24), "priors:", _priors_choices(p), p.priors,
                     tooltip=PRIORS_TIP)); yy += 29
        return yy

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
        g.add(Picker("priors", (c.x, yy, sw, 24), "priors:", _priors_choices(p), p.priors,
                     tooltip=PRIORS_TIP + " (maze: fewer turns to the nearest cheese is "
                                          "better)")); yy += 29
        if p.priors == "heuristic":   # the temperature is read by heuristic priors only
            g.add(Slider("prior_temperature", (c.x, yy, sw, 30), "prior temperature",
                         min(0.05, p.prior_temperature), max(20.0, p.prior_temperature),
                         p.prior_temperature, log=True, fmt="{:.2f}",
                         tooltip="softmax temperature of the heuristic priors: low puts them "
                                 "on the best-scored move, high makes them uniform; a change "
                                 "starts the graph afresh")); yy += 33
        return yy

    def _add_parallel_row(self, g: WidgetGroup, p: Any, c: pygame.Rect, yy: int) -> int:
        """Smitsimax's (and MCGS's: serial, WU-UCT, tree) parallel mode and
        thread count, applied from the search's next slice; a mode
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

    def _select_player(self, i: int) -> None:
        if 0 <= i < len(self.match.controllers):
            self.selected = i
            self.player_chosen = True     # a person's choice: kept when it goes out
            self._build_widgets()

    def player_out(self, i: int):
        """The AgentStatus of player i when every agent of it is out (its
        last one's), else None."""
        ctl = self.match.controllers[i]
        if not ctl.agents or self.live.view is None:
            return None
        sts = [self.plugin.status(self.live.view, a) for a in ctl.agents]
        if any(st.alive for st in sts):
            return None
        return max(sts, key=lambda st: st.out_turn if st.out_turn is not None else -1)

    def follow_live_player(self) -> None:
        """The panel's player went out (two of the default showcase's snakes
        die head-on early): its settings no longer play, so unless a person
        chose that tab, the panel moves to the first player still in, and
        says so."""
        if getattr(self, "player_chosen", False) or self.player_out(self.selected) is None:
            return
        for i, ctl in enumerate(self.match.controllers):
            if isinstance(ctl, SearchController) and self.player_out(i) is None:
                gone = self.match.controllers[self.selected].name
                self.selected = i
                self._build_widgets()
                self.flash(f"{gone} is out: showing {ctl.name}'s settings")
                return

    def _toggle_human(self, on: bool | None = None) -> None:
        ctl = self.match.controllers[self.selected]
        driven = [a for a in ctl.agents if a in self.live.human_agents]
        on = not driven if on is None else on
        if on and not driven:
            self.live.take_over(ctl.agents[0], True)
        elif not on:      # whichever agent Tab left them driving
            for a in driven:
                self.live.take_over(a, False)
        you = short_name(ctl.name).lower() in ("you", "me")   # not "you play You"
        self.flash((f"you play: {self.plugin.keys_hint}" if you else
                    f"you play {ctl.name}: {self.plugin.keys_hint}") if on
                   else f"{ctl.name} searches again")
        self._build_widgets()

    def agent_settings(self, player: int | None = None) -> dict[str, Any]:
        """A player's settings in force now, as an agent file holds them: the
        search knobs as last set (a hot-swap waiting for the next slice or
        turn included), the live budget, its controller, name and colour."""
        i = self.selected if player is None else player
        ctl = self.match.controllers[i]
        search = ctl.settings if isinstance(ctl, SearchController) else None
        budget = self.match.budget_for(ctl.player) if search is not None else None
        color = self.colors[ctl.agents[0]] if ctl.agents else None
        out = agent_dict(ctl.kind, ctl.name, color, search, budget,
                         description=f"saved from {self._scenario_stem()} "
                                     f"(turn {self.match.turn}, seed {self.match.seed}) "
                                     f"at {time.strftime('%Y-%m-%d %H:%M:%S')}",
                         weights=ctl.weights_asked if search is not None else None)
        # a remote player's own keys (a snake server's url and timeout)
        out.update(ctl.agent_keys() if hasattr(ctl, "agent_keys") else {})
        if ctl.kind == "process":   # its program and settings (absolute paths by now)
            cfg = self.match.scenario.players[ctl.player]
            out.update({k: getattr(cfg, k) for k in PROCESS_KEYS if getattr(cfg, k) is not None})
        return out

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

    def _draw_controls_frame(self, surface, r: pygame.Rect) -> None:
        ctl = self.match.controllers[self.selected]
        color = self.colors[ctl.agents[0]] if ctl.agents else pal.TEXT
        pygame.draw.line(surface, color, (r.x, r.y + 28), (r.right, r.y + 28), 2)
        if is_external(ctl):
            if not hasattr(self, "_log_tail"):
                self._log_tail = LogTail()
            draw_bot_controls(surface, r, ctl, self._log_tail)
        elif not isinstance(ctl, SearchController):
            what = (f"a person plays: {self.plugin.keys_hint}" if ctl.kind == "human"
                    else f"{ctl.kind} player, no search settings")
            # on its own row above the tree pickers (it sat under them, one letter showing)
            surface.blit(text(elide(f"{ctl.name}: {what}", 13, r.w), 13, pal.TEXT_DIM),
                         (r.x, r.y + 36))
        elif self._status_y is not None and (out := self.player_out(self.selected)):
            # a chosen player that is out: its settings stay to look at, not to play
            surface.blit(text(elide(f"{ctl.name} is {out.out_text()}: these settings no "
                                    f"longer play", 11, r.w), 11, pal.WARN),
                         (r.x, self._status_y))
        elif self._status_y is not None:
            now, nxt = self._algorithm_status(ctl)
            lab = text(now, 11, pal.TEXT_DIM)
            surface.blit(lab, (r.x, self._status_y))
            if nxt:
                surface.blit(text(elide(nxt, 11, r.w - lab.get_width() - 10, bold=True), 11,
                                  pal.WARN, bold=True),
                             (r.x + lab.get_width() + 8, self._status_y))


PRIORS_TIP = ("PUCT's priors: uniform, a softmax of the game's move scores (heuristic; a "
              "game without move scores refuses it) or the value net's policy heads (net, "
              "offered while the seat's net is on)")


def _priors_choices(p) -> list[tuple[str, str]]:
    """The priors a seat can pick: net only while its value net is on (with
    none a search takes priors = net as uniform)."""
    out = [("uniform", "uniform"), ("heuristic", "heuristic")]
    return out + [("net", "net")] if p.value_net or p.priors == "net" else out


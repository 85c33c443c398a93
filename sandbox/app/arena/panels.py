"""The tree panels: which searches' trees are shown in which panel (one per agent, or one
for a search deciding several), tree layouts and sources (T, V), root-matrix views for
MCGS / joint searches (M), feeding published snapshots to the views at a bounded rate,
the explorer's zoom and re-root input, and the root bars under each tree."""
from __future__ import annotations

import time

import numpy as np
import pygame

from ...native import SandboxError
from ...names import agent_labels
from ...native.net import load_net
from ...native.snapshot import MOVE_NONE
from ...render import palette as pal
from ...render.fonts import elide, text
from ...render.belief_view import children_of, draw_beliefs, path_to
from ...render.root_bars import NetReadout, draw_root_bars
from ...render.matrix_view import MatrixView
from ...render.tree_view import TreeView
from ...sim.controller import SearchController, TreeRequest
from ...settings.algorithms import has_root_matrix
from ...settings.doc import USED_BY
from ...settings.glossary import term_tip
from ...settings.algorithms import ALGORITHM_LABELS, NO_TREE_NOTES, POLICY_LABELS, uses_average_strategy
from .bot_panel import debug_stats, is_external, latency_text
from .constants import (TREE_NODES, GRAPH_NODES, TREE_EVERY_MS, TREE_RENDERS_PER_S, TREE_HOLD_MAX_S,
                        ROOT_BARS_EVERY_S, MATRIX_MODES, MATRIX_MODE_LABELS, MATRIX_BOTH_MIN_W,
                        MATRIX_EVERY_S, matrix_switch_width)


# who moves an agent that no search decides (controller kind -> words)
NO_SEARCH_WHO = {"human": "a person plays", "bot": "the game's bot plays",
                 "random": "random moves"}

class TreePanels:
    """ArenaScene's part: the tree panels, a mixin over the scene's state. It uses the
    scene's live, plugin, selected, widgets, layout, colors, namers, explorer, trees,
    matrices, matrix_hover, matrix_mode, tree_mode, tree_source, the step animation's state,
    and its own feed timers and caches (_feed_after, _feed_next, _matrix_fed, _bars, _groups,
    _net_cache); it
    calls match, flash, _build_widgets, _kept, _in_force (controls) and hidden_agents
    (scene: the agents withheld from the seat in view, app/seat_view.py)."""

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
        names = agent_labels(self.match.names)   # a team's agents apart: 'Blue #4'
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

    def _explore(self, event: pygame.event.Event) -> bool:
        """The tree explorer's mouse and keys over the tree panels
        (render/tree_explore.ExplorerInput); a changed focus asks the
        searches for that subtree."""
        panes = []
        for g, tv, panel in self._panel_views(visible=True):
            area = self._panel_areas(g, panel)[0]   # MCGS: beside its heat map, or none
            if area is not None:
                panes.append((tv, area))
        before = [tv.focus_path for tv in self.trees]
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.widgets.clear_focus()
        consumed, msg = self.explorer.handle(event, panes)
        if msg:
            self.flash(msg)
        if consumed and event.type == pygame.KEYDOWN:
            # a key that moved a view (find, Backspace) leaves no stale hover
            # box: its node is no longer under the mouse (a move brings one back)
            self.hover_info = None
            for tv, _ in panes:
                tv.hover(None)
        if [tv.focus_path for tv in self.trees] != before:
            self._apply_tree_requests()
            # an idle search (its turn decided, or paused) publishes the new
            # subtree now; a thinking one does at its next slice
            for c in self.match.controllers:
                if isinstance(c, SearchController) and c.done:
                    c.publish_now(self.match.turn)
        return consumed and event.type != pygame.MOUSEMOTION

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
                    # the turn whose root the tree grew from (the net's
                    # reading of a node replays its path on that turn's state)
                    self._tree_turns[a] = self._tree_holder(a).turn
                    fed = True
                    self._feed_after = now + 1.0 / TREE_RENDERS_PER_S
                self._feed_next = (a + 1) % n
            tv.update(snap, params)

    def _tree_controller(self, agent: int):
        if self.tree_source is not None:
            return self.match.controllers[self.tree_source]
        return self.match.controllers[self.match.owner[agent]]

    def _tree_holder(self, agent: int):
        """The controller snapshot whose trees the agent's view shows."""
        ctl = self._tree_controller(agent)
        snap = ctl.latest
        if self._step_before is not None and self.animation is not None \
                and not self.animation.shows_updated_stats and ctl.player == self._step_player:
            snap = self._step_before   # the traced iteration has not backpropagated yet
        return snap

    def _tree_snapshot(self, agent: int):
        snap = self._tree_holder(agent)
        return None if snap is None else snap.trees.get(agent)

    def _panel_views(self, visible: bool = False
                     ) -> list[tuple[tuple[int, ...], TreeView, pygame.Rect]]:
        """(agents, the view drawing their tree, panel) per tree panel;
        `visible`: only the panels not withheld from the seat in view."""
        return [(g, self.trees[g[0]], panel)
                for g, panel in zip(self._groups, self.layout.get("panels", []))
                if not (visible and self._panel_hidden(g))]

    def panel_term_tip(self, pos) -> str:
        """Hovered, a tree legend's word or the root bars' figures (v, μ, p)
        explained from the glossary (settings/glossary.py), else ""."""
        for _g, tv, _panel in self._panel_views(visible=True):
            tip = tv.legend_tip(pos)
            if tip:
                return tip
        for agent, r in self._bar_rects.items():
            if r.collidepoint(pos):
                terms = ("v", "μ", "p") + (("net",) if agent in self._bar_nets else ())
                return "   ".join(term_tip(t) for t in terms)
        return ""

    def _panel_hidden(self, group: tuple[int, ...]) -> bool:
        """Whether a panel shows a search of, or for, an agent whose hidden
        information the seat in view may not see (app/seat_view.py): its
        root holds the move that agent chose, its tree that agent's cards."""
        hidden = self.hidden_agents()
        if not hidden:
            return False
        ctl = self._tree_controller(group[0])
        return bool(hidden & (set(group) | set(ctl.agents)))

    def _tree_at(self, pos, hover: bool = False, click: bool = False):
        self.matrix_hover = None
        found = None
        for g, tv, panel in self._panel_views(visible=True):   # no tooltip of a hidden one
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

    def _draw_trees(self, surface, panels: list[pygame.Rect]) -> None:
        self._bar_rects = {}     # this frame's root bars say where they are
        self._bar_nets = set()   # ... and which of them show a value net's reading
        self._belief_hits = []   # this frame's belief views add theirs
        views = self._panel_views()
        if views and not any(isinstance(self._tree_controller(g[0]), SearchController)
                             or is_external(self._tree_controller(g[0])) for g, _, _ in views):
            # nobody searches (people, the game's bot): one line, not a
            # "no search data yet" panel per agent that never gets any
            trees = self.layout["trees"]
            pygame.draw.rect(surface, pal.PANEL, trees)
            kinds = sorted({NO_SEARCH_WHO.get(c.kind, c.kind) for c in self.match.controllers})
            lab = text(elide(f"nobody searches in this match ({' and '.join(kinds)}): "
                             "no search trees to show", 13, trees.w - 40), 13, pal.TEXT_DIM)
            surface.blit(lab, lab.get_rect(center=trees.center))
            return
        for g, tv, panel in views:
            pygame.draw.rect(surface, pal.PANEL, panel)
            a = g[0]
            ctl = self._tree_controller(a)
            header, tv.title = self._group_title(g)
            switch = matrix_switch_width() + 14 if self._matrix_panel(g) else 0   # its room
            surface.blit(text(elide(header, 12, panel.w - 16 - switch, bold=True), 12,
                              self.colors[a] if len(g) == 1 else pal.TEXT, bold=True),
                         (panel.x + 8, panel.y + 5))
            if self._panel_hidden(g):    # withheld while a seat's view is shown
                whose = agent_labels(self.match.names)[a]
                note = (f"hidden in this view: {ctl.name}'s search shows {whose}'s "
                        "hidden moves" + (" (shown at game over)"
                                          if self.seats.played is not None else ""))
                lab = text(elide(note, 12, panel.w - 20), 12, pal.TEXT_DIM)
                surface.blit(lab, lab.get_rect(center=panel.center))
                continue
            kept, policy_name, alg = -1, None, ""
            if isinstance(ctl, SearchController):
                kept = self._kept(ctl)
                alg, pol = self._in_force(ctl)
                if uses_average_strategy(alg, pol):
                    policy_name = POLICY_LABELS[pol]
                elif alg in ("gtcfr", "pubcfr"):   # the root policy: CFR+'s average
                    policy_name = "CFR+"
            # No tree: the bars (greedy's per-move means) take its room.
            bars_h = max(64, panel.h - 22 - 28) if kept == 0 else 64
            bw = (panel.w - 16) // len(g)
            if is_external(ctl):     # a bot's own visits and values, if it sends them
                self._draw_bot_bars(surface, ctl, g, panel)
                continue
            for k, m in enumerate(g):   # one tree for several agents: bars side by side
                if not isinstance(ctl, SearchController):
                    break                  # no search: no root statistics, ever
                self._draw_bars(surface, m, ctl.latest,
                                pygame.Rect(panel.x + 8 + k * bw, panel.y + 22,
                                            bw - (8 if k < len(g) - 1 else 0), bars_h),
                                policy_name,
                                title=agent_labels(self.match.names)[m] if len(g) > 1 else None,
                                net=self._net_readout(ctl, alg, m))
            if not isinstance(ctl, SearchController):   # a person, the bot: no tree, ever
                note = f"{NO_SEARCH_WHO.get(ctl.kind, ctl.kind)}: no search, no tree"
                lab = text(elide(note, 12, panel.w - 20), 12, pal.TEXT_DIM)
                surface.blit(lab, lab.get_rect(center=self._tree_area(panel).center))
            elif alg == "pubcfr":   # public belief states: ranges, not a tree
                self._draw_beliefs(surface, a, ctl, self._tree_area(panel))
            elif kept == 0:
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
            # the backprop boxes may use a panel's root-bar rows too where
            # the joint-action strip covers its tree area
            self.animation.draw_overlay(surface, [self._tree_area(p) for p in panels],
                                        [p.x for p in panels[1:]],
                                        box_rects=[pygame.Rect(p.x + 4, p.y + 20, p.w - 8,
                                                               p.h - 24) for p in panels])

    # ------------------------------------------------------------ belief states
    def _draw_beliefs(self, surface, leader: int, ctl, area: pygame.Rect) -> None:
        """A pubcfr panel: the public belief state picked in it. A pick is
        kept as the turn and the public events on the way down to it (what
        was clicked), not a node index: a tree rebuilt by a settings change,
        grown in another order or replayed after a restart finds the same
        public state again, and a new turn starts at its root."""
        snap = ctl.latest
        beliefs = snap.beliefs if snap is not None else ()
        names = agent_labels(self.match.names)
        plugin = self.plugin

        def event_label(b) -> str:
            return plugin.public_event(plugin.decode(b.state), names)

        turn_now = snap.turn if snap is not None else -1
        turn, events = self.belief_pick.get(leader, (-1, ()))
        index = 0
        if turn == turn_now and events:
            index = _node_at(beliefs, events, event_label)
        hits = draw_beliefs(surface, area, beliefs, index, event_label, plugin.private_label,
                            self.colors, names)
        for rect, i in hits:
            way = tuple(event_label(b) for b in path_to(beliefs, i)[1:])
            self._belief_hits.append((rect, leader, turn_now, way))

    def _belief_click(self, event: pygame.event.Event) -> bool:
        """A click on a belief view's step or child: that public state."""
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1:
            return False
        for rect, leader, turn, way in self._belief_hits:
            if rect.collidepoint(event.pos):
                self.belief_pick[leader] = (turn, way)
                return True
        return False

    def _draw_bot_bars(self, surface, ctl, group: tuple[int, ...], panel: pygame.Rect) -> None:
        """A process player's panel: per agent, its bot's last visits and
        values as root bars (docs/bots.md, the answer's debug), the move
        played marked; the latency and failures below."""
        area = pygame.Rect(panel.x + 8, panel.y + 22, panel.w - 16, panel.h - 22 - 28)
        bw = area.w // len(group)
        for k, a in enumerate(group):
            rect = pygame.Rect(area.x + k * bw, area.y, bw - (8 if k < len(group) - 1 else 0),
                               area.h)
            status = self.plugin.status(self.live.view, a)
            empty = (status.out_text() if not status.alive else
                     "no visits or values in its answers (debug, docs/bots.md)")
            draw_root_bars(surface, rect, debug_stats(ctl, a) if status.alive else (),
                           self.namers[a], self.colors[a], chosen_move=ctl._moves.get(a),
                           empty=empty, title=self.match.names[a] if len(group) > 1 else None)
        s = ctl.stats
        note = latency_text(ctl) + f"; failed turns {s.failures} of {s.turns}"
        surface.blit(text(elide(note, 12, panel.w - 20), 12,
                          pal.WARN if s.failures else pal.TEXT_DIM), (panel.x + 10, panel.bottom - 22))

    def _net_readout(self, ctl, alg: str, agent: int) -> NetReadout | None:
        """The value net's reading of the position, for a search that reads
        one now: its value for `agent` and its prior over the agent's legal
        moves, computed once a turn from the world's state (one forward pass,
        on this thread). None without a net, and for a net of hidden
        information, whose values are per private state and need beliefs the
        world's state does not hold."""
        path = ctl.settings.value_net if isinstance(ctl, SearchController) else ""
        if not path or alg not in USED_BY["value_net"]:
            return None
        self._net_cache_this_turn()
        if path not in self._net_cache:   # one reading per net file (seats may differ)
            self._net_cache[path] = None
            try:
                net = load_net(path)
                game = self.match.world.game
                if net.info.slots == 0 and not game.is_terminal:
                    self._net_cache[path] = (net.evaluate([game]),
                                             [game.legal_moves(a) for a in range(game.num_agents)])
            except SandboxError as exc:   # a file gone since the search loaded it
                self.flash(f"value net: {exc}")
        out = self._net_cache[path]
        if out is None:
            return None
        (values, logits), legal = out
        moves = [int(m) for m in legal[agent]]
        if not moves:
            return None
        z = logits[0, agent, moves].astype(float)
        p = np.exp(z - z.max())
        p /= p.sum()
        return NetReadout(float(values[0, agent, 0]), dict(zip(moves, map(float, p))))

    def _net_cache_this_turn(self) -> None:
        """The net readings are of this turn's state: a new turn, afresh."""
        if self._net_cache.get("turn") != self.match.turn:
            self._net_cache = {"turn": self.match.turn}

    def _node_net_value(self, agent: int, snap, row: int) -> float | None:
        """The value net's value, for `agent`, of the state a tree node
        stands for: the world's state this turn with the joint actions of
        the node's path played on it (chance drawn from a fixed seed, so one
        possible state where the game draws chance). Only for trees whose
        nodes are states (joint-action rows: joint, MCGS, gtcfr); a node of
        one player's moves (Smitsimax, SUCT) has no single state, nor has a
        node below a joint action the tree keeps several chance outcomes of
        (its siblings of the same joint action: which one the fixed seed
        draws is not known), nor a tree grown from an older turn's state.
        One forward pass per node asked, cached for the turn."""
        ctl = self._tree_controller(agent)
        if not isinstance(ctl, SearchController) or snap.top_path is None:
            return None
        alg, _ = self._in_force(ctl)
        path = ctl.settings.value_net
        if (not path or alg not in USED_BY["value_net"]
                or self._tree_turns.get(agent) != self.match.turn):   # an older turn's tree
            return None
        rows = snap.rows
        if (len(rows) < 2 or not (rows["joint"][1:] != MOVE_NONE).any()
                or not all(isinstance(st, tuple) for st in snap.top_path)):
            return None
        line = snap.path_to(row)
        for r in line[1:]:   # chance siblings: one joint action, several states
            sib = rows["parent"] == rows["parent"][r]
            if int((np.all(rows["joint"][sib] == rows["joint"][r], axis=1)).sum()) > 1:
                return None
        n = self.match.world.num_agents

        def pad(st) -> tuple[int, ...]:   # a path step leaves out trailing agents' none
            st = tuple(int(m) for m in st[:n])
            return st + (MOVE_NONE,) * (n - len(st))

        steps = tuple(pad(st) for st in snap.top_path) + tuple(
            pad(rows["joint"][r]) for r in line[1:])
        self._net_cache_this_turn()
        key = ("node", path, agent, steps)
        if key not in self._net_cache:
            self._net_cache[key] = None
            try:
                net = load_net(path)
                game = self.match.world.game.clone()
                game.reseed(0)
                for st in steps:
                    if game.is_terminal:
                        break
                    game.step([None if m == MOVE_NONE else m for m in st])
                if net.info.slots == 0 and not game.is_terminal:
                    values, _ = net.evaluate([game])
                    self._net_cache[key] = float(values[0, agent, 0])
            except SandboxError as exc:   # a file gone, or a path the game refuses
                self.flash(f"value net: {exc}")
        return self._net_cache[key]

    def _draw_bars(self, surface, agent: int, snap, rect: pygame.Rect,
                   policy_name: str | None = None, title: str | None = None,
                   net: NetReadout | None = None) -> None:
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
        key = (stats, chosen, rect.size, empty, policy_name, title, net)
        now = time.perf_counter()
        cached = self._bars.get(agent)
        if cached is None or (cached[0] != key and (
                snap is None or not snap.thinking or cached[1].get_size() != rect.size
                or now - cached[2] >= ROOT_BARS_EVERY_S)):
            surf = cached[1] if cached is not None and cached[1].get_size() == rect.size \
                else pygame.Surface(rect.size)
            draw_root_bars(surf, surf.get_rect(), stats, self.namers[agent], self.colors[agent],
                           chosen_move=chosen, empty=empty, policy_name=policy_name,
                           title=title, net=net)
            cached = (key, surf, now)
            self._bars[agent] = cached
        surface.blit(cached[1], rect.topleft)
        self._bar_rects[agent] = rect
        if net is not None:
            self._bar_nets.add(agent)


def _node_at(beliefs, events: tuple[str, ...], event_label) -> int:
    """The node reached from the root by these public events (labels), or
    the root (0) if the tree in view has no such way down."""
    if not beliefs:
        return 0
    index = beliefs[0].index
    for word in events:
        step = next((b for b in children_of(beliefs, index) if event_label(b) == word), None)
        if step is None:
            return beliefs[0].index
        index = step.index
    return index

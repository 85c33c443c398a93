"""Replay scene: a recorded match on a timeline.

The board is rebuilt at any turn from the header and the recorded joint
moves (Replay.view_at, hash-checked at every step), so what is shown is what
was played or nothing. Beside it: the decision recorded at that turn (each
agent's root visit distribution and the move it played), the settings
changes made during it, and the replay's charts with a cursor; below, the
tree views of that turn where the file has them (record_trees).

  +----------------------------------------------------------------------+
  | back |< < play > >| speed   go to turn      turn k / N   file         |
  +------------------+-------------------------+--------------------------+
  |                  | scoreboard              | root value per agent     |
  |      board       | root bars per agent     | iterations per turn      |
  |                  | settings changes        | root visit entropy       |
  +------------------+-------------------------+--------------------------+
  | timeline with elimination (triangle) and settings (square) markers     |
  +----------------------------------------------------------------------+
  | tree of agent 0 | tree of agent 1 | ... (recorded trees only)           |
  +----------------------------------------------------------------------+

What if (W) puts the what-if panel (app/whatif.py) in the charts' place and
splits the tree area into the chosen what-if's per-move comparison, the
recorded tree of its agent and its own tree. Play on (B) opens the arena on a
live match from the shown turn (sandbox.replay.branch).
"""
from __future__ import annotations

import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pygame

from ..games import BoardContext, move_namer, move_names, plugin as game_plugin
from ..native import Game, SandboxError, SearchParams, TreeSnapshot
from ..render import palette as pal
from ..render.charts import draw_replay_charts
from ..render.fonts import elide, text
from ..render.root_bars import draw_root_bars
from ..render.scoreboard import draw_scoreboard
from ..render.tooltip import draw_help_box as _draw_help
from ..render.tooltip import draw_tooltip as _tooltip, fit_lines as _fit_lines
from ..render.tree_explore import HELP as EXPLORER_HELP
from ..render.tree_explore import ExplorerInput
from ..render.tree_view import TreeView
from ..replay import Replay, ReplayError, compute_stats
from ..replay.stats import agent_colors, agent_labels, chosen_by
from ..sim.live import BASE_TURN_MS
from ..sim.world import divergence_note
from ..ui import Button, Picker, WidgetGroup, is_ui
from ..ui.timeline import Timeline
from .seat_view import SeatChoice
from .shell import App, Scene
from .whatif import WhatIfPanel

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
VIEW_CACHE = 256          # decoded boards kept (scrubbing back and forth is free)
CHANGE_COLOR = (110, 170, 255)
SCREENSHOT_DIR = Path("screenshots")

HELP = [
    ("Space", "play / pause"),
    ("Left / Right", "one turn back / forward (Shift: 10)"),
    ("Home / End", "first / last turn"),
    ("digits, Enter", "go to that turn"),
    ("+ / -", "faster / slower"),
    ("T", "tree layout: auto / icicle / node-link"),
    ("B", "play on from this turn: a live match in the arena (paused)"),
    ("W", "what if: re-search this turn with other settings (panel on the right)"),
    ("O", "hidden cards or bids: view as all cards / one seat at this turn"),
    ("P or F12", "screenshot to screenshots/"),
    *EXPLORER_HELP,
    ("Esc", "close this help / back"),
    ("?", "this help"),
]


class ReplayScene(Scene):
    name = "replay"

    def __init__(self, app: App, replay: Replay, turn: int | None = None) -> None:
        super().__init__(app)
        self.replay = replay
        try:
            self.plugin = game_plugin(replay.header.game)
            with Game(replay.header.game, replay.header.game_params, seed=0) as g:
                names = move_names(g)          # from C, as the arena's
                hidden = g.hidden_info
        except SandboxError as exc:
            raise ReplayError(f"{replay.path}: cannot show this match: {exc}") from None
        self.stats = compute_stats(replay)
        self.colors = agent_colors(replay)
        self.labels = agent_labels(replay)
        h = replay.header
        self.num_agents = h.num_agents
        self.owner = {a: p.player for p in h.players for a in p.agents}
        self.board = self.plugin.renderer(self.colors, self.labels, names)
        self.seats = SeatChoice(hidden, self.labels)   # "view as"; a replay opens on all cards
        self.namers = [move_namer(names, a) for a in range(self.num_agents)]
        self.first, self.last = replay.start_turn, replay.end_turn
        # the bar spans every recorded turn; a gap makes the rest unreachable
        self.bar_last = max(self.last, replay.turns[-1].turn + 1 if replay.turns else self.last)
        self.turn = self.first
        self._views: OrderedDict[int, Any] = OrderedDict()
        self._settings_cache: dict[tuple[int, int], SearchParams | None] = {}
        self.prev_view = None
        self.view = self._view(self.first)
        self.playing = False
        self.speed = 1.0
        self.since_ms = 0.0
        self.tree_mode = "auto"
        self.has_trees = any(a.tree is not None for t in replay.turns[:50]
                             for p in t.players for a in p.agents)
        self.trees = [TreeView(a, self.colors[a], self.namers[a], mode=self.tree_mode)
                      for a in range(self.num_agents)]
        self._snap_cache: OrderedDict[tuple[int, int], TreeSnapshot] = OrderedDict()
        self._chart_cache: tuple[tuple, pygame.Surface] | None = None
        self.entry = ""           # digits typed for "go to turn"
        self.explorer = ExplorerInput()   # tree panels: zoom, re-root, find, export
        self.show_help = False
        self.hover_pos = (0, 0)
        self.hover_info = None
        self.hover_view: TreeView | None = None
        self.message = replay.dropped_summary()
        self.message_until = time.perf_counter() + (6.0 if self.message else 0.0)
        self.layout: dict[str, Any] = {}
        self.widgets = WidgetGroup()
        self.timeline: Timeline | None = None
        # what-ifs: re-searches of a turn with other settings (sandbox/app/whatif.py)
        self.whatif = WhatIfPanel(self)
        self.whatif_open = False
        self.whatif_tree: TreeView | None = None
        self._whatif_top = 0
        if turn is not None:
            self.seek(turn)

    # ------------------------------------------------------------ data
    def _view(self, turn: int):
        cache = self._views
        v = cache.get(turn)
        if v is None:
            v = self.replay.view_at(turn)
            cache[turn] = v
            while len(cache) > VIEW_CACHE:
                cache.popitem(last=False)
        else:
            cache.move_to_end(turn)
        return v

    def line(self, turn: int | None = None):
        """The recorded decision made at `turn` (None at the last state)."""
        return self.replay.by_turn.get(self.turn if turn is None else turn)

    def tree_snapshot(self, turn: int, agent: int) -> TreeSnapshot | None:
        key = (turn, agent)
        snap = self._snap_cache.get(key)
        if snap is None:
            line = self.line(turn)
            at = line.agent(agent) if line is not None else None
            if at is None or at.tree is None:
                return None
            snap = at.tree.to_snapshot(agent)
            self._snap_cache[key] = snap
            while len(self._snap_cache) > 4 * max(1, self.num_agents):
                self._snap_cache.popitem(last=False)
        return snap

    def settings_at(self, player: int, turn: int) -> SearchParams | None:
        """A player's search settings in force during `turn` (the header's,
        with every change recorded up to that turn applied)."""
        key = (player, turn)
        if key not in self._settings_cache:
            self._settings_cache[key] = self._settings_at(player, turn)
        return self._settings_cache[key]

    def _settings_at(self, player: int, turn: int) -> SearchParams | None:
        ph = next((p for p in self.replay.header.players if p.player == player), None)
        if ph is None or ph.search is None:
            return None
        values = dict(ph.search)
        for t in self.replay.turns:
            if t.turn > turn:
                break
            for pt in t.players:
                if pt.player == player:
                    for ch in pt.changes:
                        # a budget change (budget_ms, ...) is recorded with the
                        # settings changes but is no search setting
                        values.update({k: new for k, (_, new) in ch.changes.items()
                                       if k in SearchParams.model_fields})
        try:
            return SearchParams(**values)
        except (ValueError, TypeError):
            return None

    # ------------------------------------------------------------ commands
    def seek(self, turn: int, animate: bool = False) -> None:
        """Show the state at the start of `turn` (clamped to what can be
        rebuilt). animate: slide from the previous turn (one step forward)."""
        turn = max(self.first, min(self.last, int(turn)))
        if turn == self.turn and not animate:
            return
        try:
            view = self._view(turn)
        except ReplayError as exc:
            self.playing = False
            self.flash(str(exc))
            return
        self.prev_view = self.view if animate and turn == self.turn + 1 else None
        self.turn, self.view = turn, view
        self.since_ms = 0.0
        if self.timeline is not None:
            self.timeline.set(turn)
        if self.whatif_open and self.layout:
            self._build_widgets()     # the settings in force, the list: this turn's
        if self.turn >= self.last:
            self.playing = False
            self._sync_play()

    def step(self, k: int) -> None:
        self.playing = False
        self._sync_play()
        self.seek(self.turn + k, animate=(k == 1))

    def toggle_play(self) -> None:
        if not self.playing and self.turn >= self.last:
            self.seek(self.first)
        self.playing = not self.playing
        self.since_ms = 0.0
        self._sync_play()

    def set_speed(self, speed: float) -> None:
        self.speed = float(speed)
        try:
            self.widgets.get("speed").value = self.speed
        except KeyError:
            pass

    def _shift_speed(self, d: int) -> None:
        i = SPEEDS.index(self.speed) if self.speed in SPEEDS else 2
        self.set_speed(SPEEDS[max(0, min(len(SPEEDS) - 1, i + d))])

    @property
    def turn_period_ms(self) -> float:
        return BASE_TURN_MS / self.speed

    @property
    def alpha(self) -> float:
        if self.prev_view is None:
            return 1.0
        return min(1.0, self.since_ms / min(self.turn_period_ms, 250.0))

    def _sync_play(self) -> None:
        try:
            self.widgets.get("play").label = "Pause" if self.playing else "Play"
        except KeyError:
            pass

    def take_screenshot(self, path: str | None = None) -> None:
        if path is None:
            path = self.app.screenshot_path("replay", SCREENSHOT_DIR)
        self.app.pending_screenshot = path
        self.flash(f"screenshot: {path}")

    def toggle_whatif(self) -> None:
        self.whatif_open = not self.whatif_open
        self.whatif.message = ""
        if self.layout:
            self.resize(self.app.screen.get_size())

    def tree_views(self) -> list[tuple[TreeView, pygame.Rect, str]]:
        """(view, panel, title) of each tree panel shown."""
        panels = self.layout.get("panels", [])
        if not self.whatif_open:
            return [(tv, panel, f"{self.labels[a]} — tree at turn {self.turn}")
                    for a, (tv, panel) in enumerate(zip(self.trees, panels))]
        a = self.whatif.agent
        if a is None or len(panels) < 2:
            return []
        wi = self.whatif.shown()
        if self.whatif_tree is None or self.whatif_tree.agent != a:
            self.whatif_tree = TreeView(a, self.colors[a], self.namers[a], mode=self.tree_mode)
        title = (f"what-if #{wi.number} — tree" if wi is not None else "what-if — no run yet")
        return [(self.trees[a], panels[0], f"{self.labels[a]} — recorded tree at turn "
                 f"{self.turn}"), (self.whatif_tree, panels[1], title)]

    def play_on(self) -> None:
        """"Play on from here": a new live match in the arena from the state
        at the shown turn, every player with the settings and budget in force
        there (sandbox.replay.branch). It starts paused, so the sliders can
        change them first; Esc there comes back here."""
        from ..replay.branch import branch_point
        from .arena import ArenaScene
        try:
            bp = branch_point(self.replay, self.turn)
            factory = self.app.recorder_factory(bp.scenario, bp.name_hint)
            arena = ArenaScene(self.app, bp.scenario, branch=bp, recorder_factory=factory,
                               paused=True)
            for note in bp.notes:    # the arena shows it: a setting the recording lacks
                arena.flash(note, 8.0)
        except SandboxError as exc:
            self.flash(f"cannot play on from turn {self.turn}: {exc}", 6.0)
            return
        self.playing = False
        self._sync_play()
        self.app.push(arena)
        arena.flash(f"played on from {self.replay.path.name}, turn {self.turn} (paused: "
                    f"Space plays)", 6.0)

    def flash(self, msg: str, seconds: float = 3.0) -> None:
        self.message = msg
        self.message_until = time.perf_counter() + seconds

    # ------------------------------------------------------------ layout
    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        top = pygame.Rect(0, 0, w, 40)
        tree_h = max(180, int(h * 0.30)) if self.has_trees or self.whatif_open else 0
        tl_h = 50
        main_h = h - top.h - tl_h - tree_h
        side = max(120, min(main_h - 16, int(w * 0.38)))
        board = pygame.Rect(10, top.bottom + 8, side, side)
        middle = pygame.Rect(board.right + 14, top.bottom + 8, 330, main_h - 16)
        charts = pygame.Rect(middle.right + 12, top.bottom + 8,
                             max(150, w - middle.right - 20), main_h - 16)
        timeline = pygame.Rect(0, top.bottom + main_h, w, tl_h)
        trees = pygame.Rect(0, h - tree_h, w, tree_h)
        # what-ifs open: the recorded tree of the agent re-searched and the
        # chosen what-if's, side by side
        # (after the what-if comparison table)
        table = pygame.Rect(0, trees.y, int(w * 0.34) if self.whatif_open else 0, trees.h)
        n = 2 if self.whatif_open else max(1, self.num_agents)
        pw = (trees.w - table.w) // n
        panels = [pygame.Rect(table.w + i * pw, trees.y,
                              pw if i < n - 1 else trees.w - table.w - i * pw, trees.h)
                  for i in range(n)] if tree_h else []
        self.layout = {"top": top, "board": board, "middle": middle, "charts": charts,
                       "timeline": timeline, "trees": trees, "panels": panels,
                       "whatif_table": table}
        self._chart_cache = None
        self._build_widgets()

    def _build_widgets(self) -> None:
        old = self.widgets if self.layout else None
        g = WidgetGroup()
        x, y = 8, 7
        g.add(Button("back", (x, y, 60, 26), "Back", "back to the menu (Esc)"))
        g.add(Button("first", (x + 68, y, 34, 26), "|<", "first turn (Home)"))
        g.add(Button("prev", (x + 106, y, 34, 26), "<", "one turn back (Left)"))
        g.add(Button("play", (x + 144, y, 64, 26), "Pause" if self.playing else "Play",
                     "play / pause (Space)"))
        g.add(Button("next", (x + 212, y, 34, 26), ">", "one turn forward (Right)"))
        g.add(Button("last", (x + 250, y, 34, 26), ">|", "last turn (End)"))
        g.add(Picker("speed", (x + 292, y, 120, 26), "speed",
                     [(s, f"x{s:g}") for s in SPEEDS], self.speed))
        g.add(Button("help", (x + 420, y, 30, 26), "?", "keyboard shortcuts (?)"))
        g.add(Button("shot", (x + 456, y, 46, 26), "PNG", "screenshot (P)"))
        g.add(Button("branch", (x + 508, y, 70, 26), "Play on",
                     "play on from this turn: a new live match in the arena with the "
                     "recorded settings (B)"))
        b = g.add(Button("whatif", (x + 584, y, 70, 26), "What if",
                         "re-search this turn with other settings (W)"))
        b.toggled = self.whatif_open
        self.seats.add_picker(g, (x + 662, y, 150, 26))
        if self.whatif_open:
            self._whatif_top = self.whatif.build(g, self.layout["charts"])
        markers = [(m.turn, m.kind, m.label) for m in self.stats.markers]
        tl = self.layout["timeline"]
        self.timeline = g.add(Timeline("timeline", (tl.x + 8, tl.y + 4, tl.w - 16, tl.h - 8),
                                       self.first, self.bar_last, self.turn, markers,
                                       "drag to scrub; markers: ▼ elimination, ■ settings change",
                                       limit=self.last))
        if old is not None:   # a rebuild mid-drag (the what-if panel follows the
            g.carry_over(old)  # dragged turn) keeps the drag and the focus going
        self.widgets = g

    # ------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if is_ui(event):
            self._on_ui(event)
            return True
        if event.type == pygame.KEYDOWN and self.explorer.busy:   # the find box types
            return self._explore(event)
        if event.type == pygame.KEYDOWN and self.show_help:
            self.show_help = False
            return True
        if event.type == pygame.KEYDOWN and not self.entry and self._explore(event):
            return True
        if event.type == pygame.KEYDOWN and self._on_key(event):
            return True
        if self.widgets.process_event(event):
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.widgets.clear_focus()
        if event.type != pygame.KEYDOWN and self._explore(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hover_pos = event.pos
            self.hover_info = self._tree_at(event.pos, click=False)
        return False

    def _explore(self, event: pygame.event.Event) -> bool:
        """The tree explorer's mouse and keys over the tree panels
        (render/tree_explore.ExplorerInput)."""
        panes = [(tv, _tree_area(panel)) for tv, panel, _ in self.tree_views()
                 if tv.agent not in self.seats.hidden_agents()]
        consumed, msg = self.explorer.handle(event, panes)
        if msg:
            self.flash(msg)
        if consumed and event.type == pygame.KEYDOWN:
            self._drop_hover(panes)
        return consumed and event.type != pygame.MOUSEMOTION

    def _drop_hover(self, panes) -> None:
        """A key that moved a view (find, Backspace, the find box) leaves
        no hover box behind: the node it described is no longer under the
        mouse. The next mouse move brings one back."""
        self.hover_info = None
        for tv, _ in panes:
            tv.hover(None)

    def _on_key(self, event: pygame.event.Event) -> bool:
        k, ch = event.key, event.unicode
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        if ch and ch.isdigit():
            self.entry = (self.entry + ch)[-6:]
        elif k == pygame.K_BACKSPACE and self.entry:
            self.entry = self.entry[:-1]
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.entry:
            self.playing = False
            self._sync_play()
            self.seek(int(self.entry))
            self.entry = ""
        elif ch == "?" or k == pygame.K_F1:
            self.show_help = not self.show_help
        elif k == pygame.K_SPACE:
            self.toggle_play()
        elif k == pygame.K_RIGHT:
            self.step(10 if shift else 1)
        elif k == pygame.K_LEFT:
            self.step(-10 if shift else -1)
        elif k == pygame.K_HOME:
            self.step(self.first - self.turn)
        elif k == pygame.K_END:
            self.step(self.last - self.turn)
        elif ch in ("+", "=") or k == pygame.K_KP_PLUS:
            self._shift_speed(+1)
        elif ch == "-" or k == pygame.K_KP_MINUS:
            self._shift_speed(-1)
        elif k == pygame.K_t:
            modes = ["auto", "icicle", "nodelink"]
            self.tree_mode = modes[(modes.index(self.tree_mode) + 1) % 3]
            for tv in self.trees + ([self.whatif_tree] if self.whatif_tree else []):
                tv.mode = self.tree_mode
        elif k in (pygame.K_p, pygame.K_F12):
            self.take_screenshot()
        elif k == pygame.K_b:
            self.play_on()
        elif k == pygame.K_w:
            self.toggle_whatif()
        elif k == pygame.K_o:
            self._view_as(None, cycle=True)
        elif k == pygame.K_ESCAPE:
            if self.entry:
                self.entry = ""
            else:
                self.app.pop()
        else:
            return False
        return True

    def _on_ui(self, event) -> None:
        wid = event.id
        if event.kind == "click":
            if wid == "back":
                self.app.pop()
            elif wid == "first":
                self.step(self.first - self.turn)
            elif wid == "prev":
                self.step(-1)
            elif wid == "play":
                self.toggle_play()
            elif wid == "next":
                self.step(1)
            elif wid == "last":
                self.step(self.last - self.turn)
            elif wid == "help":
                self.show_help = not self.show_help
            elif wid == "shot":
                self.take_screenshot()
            elif wid == "branch":
                self.play_on()
            elif wid == "whatif":
                self.toggle_whatif()
            elif wid.startswith("wi_") and self.whatif.on_ui(wid, event.value):
                self._build_widgets()
            return
        if wid.startswith("wi_"):
            if self.whatif.on_ui(wid, event.value):
                self._build_widgets()
            return
        if wid == "speed":
            self.set_speed(event.value)
        elif wid == "view_as":
            self._view_as(event.value)
        elif wid == "timeline":
            self.playing = False
            self._sync_play()
            self.seek(event.value)

    def _tree_at(self, pos, click: bool):
        self.hover_view = None
        for tv, panel, _ in self.tree_views():
            area = _tree_area(panel)
            if area.collidepoint(pos) and tv.agent not in self.seats.hidden_agents():
                self.hover_view = tv
                return tv.click(pos) if click else tv.hover(pos)
            tv.hover((-1, -1))
        return None

    # ------------------------------------------------------------ frame
    def update(self, dt_ms: float) -> None:
        self.since_ms += dt_ms
        self.widgets.update(dt_ms)
        if self.playing and self.since_ms >= self.turn_period_ms:
            if self.turn < self.last:
                self.seek(self.turn + 1, animate=True)
            else:
                self.playing = False
                self._sync_play()
        if self.has_trees:
            for a, tv in enumerate(self.trees):
                tv.update(self.tree_snapshot(self.turn, a),
                          self.settings_at(self.owner.get(a, -1), self.turn))
        if self.whatif_open:
            run = self.whatif.running
            if run is not None and run.done:   # its list entry and comparison are ready
                self.whatif.running = None
                self._build_widgets()
            views = self.tree_views()
            if len(views) == 2:
                wi = self.whatif.shown()
                rep = wi.report if wi is not None else None
                views[1][0].update(rep.tree if rep is not None else None,
                                   SearchParams(**rep.settings) if rep is not None else None)
                if not self.has_trees:
                    a = self.whatif.agent
                    views[0][0].update(self.tree_snapshot(self.turn, a),
                                       self.settings_at(self.owner.get(a, -1), self.turn))

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        L = self.layout
        if not L:
            return
        self._draw_top(surface, L["top"])
        self.board.draw(surface, L["board"], self.view, self.prev_view, self.alpha,
                        self._board_context())
        if self.turn >= self.last:
            self._draw_end(surface, L["board"])
        self._draw_middle(surface, L["middle"])
        if self.whatif_open and self.whatif.agent in self.seats.hidden_agents():
            surface.blit(text("what-if of a seat hidden in this view", 12, pal.TEXT_DIM),
                         L["charts"].topleft)
        elif self.whatif_open:
            self.whatif.draw(surface, L["charts"], self._whatif_top, L["whatif_table"])
        else:
            self._draw_charts(surface, L["charts"])
        self.widgets.draw(surface)
        self._draw_trees(surface, L["panels"])
        if self.widgets.dropdown_open():
            pass   # an open dropdown is on top: no hover box over its list
        elif self.hover_info is not None and getattr(self, "hover_view", None) is not None:
            self.hover_view.draw_tooltip(surface, self.hover_pos, self.hover_info)
        else:
            tip = self.widgets.tooltip_at(self.hover_pos)
            if tip:
                _tooltip(surface, self.hover_pos, tip)
            else:   # a pinned node keeps its numbers on screen, off the node
                for tv, panel, _ in self.tree_views():
                    if tv.snapshot is not None and tv.agent not in self.seats.hidden_agents():
                        tv.draw_pinned(surface, _tree_area(panel))
        self.widgets.draw_popups(surface)   # an open list stays on top of the panels
        self.explorer.draw(surface)
        if self.message and time.perf_counter() < self.message_until:
            t = text(self.message[:140], 13, pal.TEXT)
            r = pygame.Rect(0, 0, t.get_width() + 20, t.get_height() + 10)
            r.midbottom = (surface.get_width() // 2, L["timeline"].y - 6)
            pygame.draw.rect(surface, pal.PANEL_HI, r, border_radius=4)
            surface.blit(t, (r.x + 10, r.y + 5))
        if self.show_help:
            _draw_help(surface, HELP, "Replay keys")

    def _board_context(self) -> BoardContext:
        """The recorded root policy of each agent at this turn's decision."""
        line = self.line()
        policies = {}
        if line is not None:
            for a in range(self.num_agents):
                at = line.agent(a)
                if at is not None and at.root:
                    # the policy's probabilities as the arena showed them
                    # (Exp3/RM: the average strategy); older files: visits
                    policies[a] = tuple((r.move, r.prob if r.policy is None else r.policy)
                                        for r in at.root if r.move >= 0)
        # the step into the shown state: its pymunk world's divergence
        before = self.replay.by_turn.get(self.turn - 1)
        return self.seats.context(BoardContext(
            policies=policies, note=divergence_note(before.divergence if before else None)))

    def _view_as(self, value: int | None, cycle: bool = False) -> None:
        """O or the picker: the seat whose information is shown (app/seat_view.py)."""
        self.flash(self.seats.cycle() if cycle else self.seats.choose(value))
        self.hover_info = None
        self._build_widgets()

    def _draw_top(self, surface, r: pygame.Rect) -> None:
        pygame.draw.rect(surface, pal.PANEL, r)
        pygame.draw.line(surface, pal.BORDER, r.bottomleft, r.bottomright)
        info = f"turn {self.turn} / {self.last}"
        if self.entry:
            info = f"go to turn: {self.entry}_   " + info
        t = text(info, 14, pal.TEXT, mono=True)
        x = r.right - t.get_width() - 12
        surface.blit(t, (x, r.y + 12))
        name = text(self.replay.path.name, 12, pal.TEXT_DIM)
        nx = max(830 if self.seats.hidden else 670, x - name.get_width() - 20)
        if nx + name.get_width() < x - 8:
            surface.blit(name, (nx, r.y + 14))

    def _draw_end(self, surface, board: pygame.Rect) -> None:
        res = self.replay.result
        if res is None:
            line = "the file ends here (no result line)"
        elif self.last < res.turns:
            line = f"turn {self.last} is missing from the file"
        else:
            line = f"{res.names[res.winner]} wins" if res.winner is not None else "no single winner"
        box = pygame.Rect(0, 0, 300, 60)
        box.center = board.center
        pygame.draw.rect(surface, pal.PANEL_HI, box, border_radius=6)
        pygame.draw.rect(surface, pal.BORDER, box, 1, border_radius=6)
        t1 = text(line, 16, pal.TEXT, bold=True)
        # the game's turn counter, as the arena's "after N turns" and the
        # result line's `turns` count (not the turns since a mid-game start)
        t2 = text(f"after {self.last} turns", 12, pal.TEXT_DIM)
        surface.blit(t1, t1.get_rect(center=(box.centerx, box.y + 20)))
        surface.blit(t2, t2.get_rect(center=(box.centerx, box.y + 44)))

    def _draw_middle(self, surface, r: pygame.Rect) -> None:
        line = self.line()
        rows = pygame.Rect(r.x, r.y, r.w, 26 * self.plugin.num_agents(self.view))
        scores = (self.replay.by_turn[self.turn - 1].scores   # they read hidden hands
                  if self.turn - 1 in self.replay.by_turn and not self.seats.hidden_agents()
                  else None)
        draw_scoreboard(surface, rows, self.plugin, self.view, self.colors, self.labels, scores)
        y = rows.bottom + 8
        head = "decision at this turn" if line is not None else "no decision recorded here"
        surface.blit(text(head, 11, pal.TEXT_DIM), (r.x, y))
        y += 15
        avail = r.bottom - y - 60
        bar_h = max(40, min(70, avail // max(1, self.num_agents)))
        for a in range(self.num_agents):
            box = pygame.Rect(r.x, y, r.w, bar_h - 4)
            y += bar_h
            status = self.plugin.status(self.view, a)
            if a in self.seats.hidden_agents():   # its move is the hidden bid
                draw_root_bars(surface, box, (), self.namers[a], self.colors[a],
                               title=self.labels[a], empty="hidden in this seat's view")
                continue
            if not status.alive:
                # out: there is no decision to show, and "no root statistics
                # yet" would suggest one is coming
                why = status.out_text()
                draw_root_bars(surface, box, (), self.namers[a], self.colors[a],
                               title=self.labels[a], empty=elide(why, 11, box.w - 8))
                continue
            at = line.agent(a) if line is not None else None
            stats = at.root if at is not None else ()
            chosen = line.joint[a] if line is not None else None
            draw_root_bars(surface, box, stats, self.namers[a],
                           self.colors[a], chosen_move=chosen, title=self.decision_title(a))
        items = self.change_texts(self.turn)
        if items:
            lines = _fit_lines(items, 11, r.w, max(0, (r.bottom - y) // 14),
                               " (hover ■ on the timeline)")
            for s in lines:
                surface.blit(text(s, 11, CHANGE_COLOR), (r.x, y))
                y += 14

    def decision_title(self, agent: int, turn: int | None = None) -> str:
        """'Red → Up', and who chose it where that was not the player's own
        controller: 'Red → Up (a person; search: Left)'."""
        line = self.line(turn)
        chosen = line.joint[agent] if line is not None else None
        free = line.free_move(agent) if line is not None else None
        if free is not None:        # a free move: its target and thrust, as a bot wrote it
            return f"{self.labels[agent]} → {free.move().text()}"
        if chosen is None:
            return self.labels[agent]
        out = f"{self.labels[agent]} → {self.namers[agent](chosen)}"
        by = chosen_by(self.replay, line, agent)
        pt = line.player_of(agent)
        if pt is not None and pt.bot is not None:     # a program's: a process, a server
            return out + _bot_note(pt, agent, by, agent in self._forfeited(line.turn))
        if by in ("person", "default") and self.replay.header.players and \
                line.player_of(agent) is not None and line.player_of(agent).controller != "human":
            who = "a person" if by == "person" else "a person's agent, no key: default"
            at = line.agent(agent)
            own = "search" if line.player_of(agent).controller == "smitsimax" else "random"
            if at is not None and at.move is not None:
                who += f"; {own}: {self.namers[agent](at.move)}"
            out += f" ({who})"
        return out

    def _forfeited(self, turn: int) -> set[int]:
        """Agents whose player forfeited at or before `turn`."""
        return {a for t in self.replay.turns if t.turn <= turn for a in t.forfeits}

    def change_texts(self, turn: int) -> list[str]:
        """Every settings change recorded during `turn`, one per field:
        'Red: c 0.7→1.3'."""
        line = self.line(turn)
        if line is None:
            return []
        names = {p.player: p.name for p in self.replay.header.players}
        return [f"{names.get(pt.player, '?')}: {k} {_fmt(o)}→{_fmt(n)}"
                for pt in line.players for ch in pt.changes
                for k, (o, n) in ch.changes.items()]

    def _draw_charts(self, surface, r: pygame.Rect) -> None:
        key = (r.size, self.turn, self.seats.chosen)
        if self._chart_cache is None or self._chart_cache[0] != key:
            surf = pygame.Surface(r.size)
            stats = self.seats.chart_stats(self.stats, self.labels)   # a seat's: its own series
            draw_replay_charts(surf, stats, rect=surf.get_rect(), cursor=self.turn,
                               text_size=11)
            self._chart_cache = (key, surf)
        surface.blit(self._chart_cache[1], r.topleft)

    def _draw_trees(self, surface, panels) -> None:
        for k, (tv, panel, title) in enumerate(self.tree_views()):
            pygame.draw.rect(surface, pal.PANEL, panel)
            surface.blit(text(title, 12, self.colors[tv.agent], bold=True),
                         (panel.x + 8, panel.y + 5))
            if tv.agent in self.seats.hidden_agents():
                surface.blit(text("hidden in this seat's view", 12, pal.TEXT_DIM),
                             (panel.x + 8, panel.y + 28))
                continue
            if tv.snapshot is None:
                empty = ("no tree recorded for this turn" if not (self.whatif_open and k == 1)
                         else "the chosen what-if's tree shows here once it has run")
                surface.blit(text(empty, 12, pal.TEXT_DIM), (panel.x + 8, panel.y + 28))
                continue
            tv.draw(surface, _tree_area(panel))
        for panel in panels[1:]:
            for y in range(panel.y + 4, panel.bottom - 4, 10):
                pygame.draw.line(surface, pal.BORDER, (panel.x, y), (panel.x, y + 5), 2)

    # ------------------------------------------------------------ lifetime
    def exit(self) -> None:
        self.whatif.close()
        self.replay.close()

    def state(self) -> dict[str, Any]:
        return {**self.plugin.summary(self.view),
                "scene": self.name, "file": str(self.replay.path), "turn": self.turn,
                "first": self.first, "last": self.last, "playing": self.playing,
                "speed": self.speed, "trees": self.has_trees, "view_as": self.seats.seat(),
                "whatif": ({"agent": self.whatif.agent, "changes": self.whatif.changes,
                            "listed": [w.label() for w in self.whatif.listed()]}
                           if self.whatif_open else None),
                "alive": [self.plugin.status(self.view, a).alive
                          for a in range(self.num_agents)]}


def _tree_area(panel: pygame.Rect) -> pygame.Rect:
    return pygame.Rect(panel.x + 6, panel.y + 22, panel.w - 12, panel.h - 28)


def _bot_note(pt, agent: int, by: str | None, forfeited: bool) -> str:
    """A process player's decision (docs/bots.md): its failure and the
    default move played, or its forfeit, else its debug message."""
    bot = pt.bot
    fails = [f for f in (bot.failures if bot is not None else []) if f.agent == agent]
    if fails:
        return f" (bot failed: {fails[0].kind}; default move)"
    if forfeited or by == "default":
        return " (forfeited: default move)" if forfeited else " (default move)"
    msg = (bot.debug or {}).get("message") if bot is not None else None
    return f" — {msg}" if msg else ""


def _fmt(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


__all__ = ["ReplayScene"]

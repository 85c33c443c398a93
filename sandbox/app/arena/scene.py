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

A tree panel shows what the search in force keeps (sandbox.settings.algorithms):
Smitsimax one tree per agent; SUCT and joint-action MCTS ONE tree, drawn in
one panel for all the agents it decides (their root bars side by side);
random and greedy no tree: a placeholder and taller root bars.
"""
from __future__ import annotations

import time
from typing import Any

import pygame

from ...config import Budget, Scenario, list_scenarios, load_scenario
from ...config.agent import AGENT_DIR
from ...games import move_namer, move_names
from ...names import agent_phrase
from ...native import FreeMove, SandboxError, has_bot
from ...render import palette as pal
from ...render.fonts import elide, text
from ...render.step_view import StepAnimation
from ...render.matrix_view import MatrixView
from ...render.tooltip import draw_tooltip
from ...render.tree_explore import ExplorerInput
from ...render.tree_view import TreeView
from ...sim.controller import SearchController, TreeRequest
from ...sim.live import LiveMatch
from ...ui import Picker, Slider, Toggle, WidgetGroup, is_ui
from ..seat_view import SeatChoice
from ..shell import App, Scene
from .board import BoardPlans
from .constants import TREE_NODES, TREE_EVERY_MS
from .controls import PlayerControls
from .meters import _fmt, draw_meters
from .overlays import draw_help, draw_message, draw_result
from .panels import TreePanels
from .transport import TransportBar


class ArenaScene(TransportBar, PlayerControls, TreePanels, BoardPlans, Scene):
    """The scene: its parts are the mixins (see the package's docstring); this class holds
    the match, the layout, the event dispatch and the frame."""
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
        self.player_chosen = False   # a person picked it (else it follows a live player)
        self.tree_source: int | None = None   # None: each agent's own tree
        self.tree_mode = "auto"
        self.matrix_mode = "auto"
        self.explorer = ExplorerInput()   # tree panels: zoom, re-root, find, export
        self.show_help = False
        self.agent_dir = AGENT_DIR   # where A saves agent files (relative: the cwd)
        self.show_plans = True     # the searches' best lines drawn on the board (L)
        self.show_weights = False  # the controls show the evaluation weights (E)
        self.hover_info = None
        self._bar_rects: dict = {}   # agent -> where its root bars were drawn (hover)
        self._bar_nets: set = set()  # agents whose bars show a value net's reading
        self.matrix_hover = None     # (MatrixView, MatrixInfo) under the mouse
        # pubcfr panels: the public state picked per panel (its first agent ->
        # (turn, the public events on the way down to it)), and where last
        # drawn the clickable steps were, with what each one picks
        self.belief_pick: dict[int, tuple[int, tuple[str, ...]]] = {}
        self._belief_hits: list[tuple[pygame.Rect, int, int, tuple[str, ...]]] = []
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
        self._seat_sig: tuple = ()      # the "view as" lock the widgets were built for

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
        # "view as" (a hidden-information game): the spectator's pick stays
        # across a restart of the same scenario
        old = getattr(self, "seats", None)
        self.seats = SeatChoice(self.plugin.hides_info(m.scenario.game_params), list(m.names))
        if old is not None and old.hidden and old.names == self.seats.names:
            self.seats.chosen = old.chosen
        self.namers = [move_namer(names, a) for a in range(m.world.num_agents)]
        self.trees = [TreeView(a, self.colors[a], self.namers[a], mode=self.tree_mode,
                               agent_colors=self.colors, agent_names=list(m.names),
                               move_names=self.namers)
                      for a in range(m.world.num_agents)]
        for a, tv in enumerate(self.trees):   # the tooltip's reading of the net at a node
            tv.net_value = lambda snap, row, a=a: self._node_net_value(a, snap, row)
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
        # the value nets' readings of the position, once a turn per file
        # (panels._net_readout)
        self._net_cache: dict[object, object] = {}
        # per tree view, the turn whose search its tree came from (_feed_trees)
        self._tree_turns: dict[int, int] = {}
        # each seat's value net file as its settings named it, kept while the
        # net is switched off (controls._add_net_toggle)
        self.net_paths: dict[int, str] = {}

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
        # a right click: a free move to exactly that point, where the game
        # takes them (pods: the board's free_move_at)
        free_at = getattr(self.board, "free_move_at", None)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3 and human is not None \
                and free_at is not None and self.layout \
                and self.layout["board"].collidepoint(event.pos):
            move = free_at(self.layout["board"], self.live.view, event.pos, human)
            if move is not None:
                self._steer(human, move)
                return True
        if self.widgets.process_event(event):
            return True
        if self._belief_click(event):
            return True
        if self._explore(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hover_pos = event.pos
            self.hover_info = self._tree_at(event.pos, hover=True)
        elif event.type == pygame.KEYDOWN:
            return self._on_key(event)
        return False

    def _steer(self, agent: int, move: int | None, refused: str = "") -> None:
        """A person's key or click: the move for their agent this turn (the
        plugin refuses slips, e.g. a snake turning into its own neck)."""
        if move is None:
            if refused:
                self.flash(refused)
            return
        if isinstance(move, FreeMove):      # C checks its fields when the turn is played
            if self.match.world.game.is_alive(agent):
                self.live.choose(agent, move)
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
        names = self.match.names
        self.flash(f"you now drive {agent_phrase(names, nxt)}; {agent_phrase(names, agent)} "
                   f"is played by {by}")
        return True

    def _slider_focused(self) -> bool:
        return any(w.focused and isinstance(w, Slider) for w in self.widgets.widgets)

    def _human_agent(self) -> int | None:
        ctl = self.match.controllers[self.selected]
        mine = [a for a in ctl.agents if a in self.live.human_agents]
        if mine:
            return mine[0]
        return min(self.live.human_agents) if self.live.human_agents else None

    def _viewer(self) -> tuple[int | None, bool]:
        """(the seat a person plays or played in this match, else None;
        whether the game is over): what the "view as" lock depends on
        (seat_view.SeatChoice). A person who hands their seat back (H) stays
        on its view until the game is over: else H, O, H would show them the
        other hand and let them play on knowing it."""
        person = self._human_agent() if self.live.human_agents else None
        if person is not None and self.seats.hidden:
            self.seats.played = person
        return (person if person is not None else self.seats.played), bool(self.match.over)

    def hidden_agents(self) -> frozenset[int]:
        """Agents whose cards, decisions and searches are withheld now."""
        return self.seats.hidden_agents(*self._viewer())

    def _view_as(self, value: int | None, cycle: bool = False) -> None:
        """O (cycle) or the picker: the seat whose view the board shows."""
        msg = self.seats.cycle(*self._viewer()) if cycle else self.seats.choose(value, *self._viewer())
        if msg:
            self.flash(msg)
        self.hover_info = None
        self._build_widgets()    # the picker shows the view in force

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
        elif k == pygame.K_o:
            self._view_as(None, cycle=True)
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
        elif wid == "net_on":
            self._toggle_net(bool(value))
            self._build_widgets()   # the priors pickers offer the net only while it is on
        elif wid == "view_as":
            self._view_as(value)
        elif wid == "budget_ms":
            self._set_budget(float(value))
        elif wid.startswith("weight."):
            self._set_weight(wid[len("weight."):], value)
        else:
            self.set_param(wid, value)
            if wid in ("algorithm", "policy", "transpositions", "priors", "grow_tree"):
                # the knobs that apply change (or the refused pick goes back)
                self._build_widgets()

    def restart(self, seed: int | None = None, scenario: Scenario | None = None,
                stem: str | None = None) -> None:
        if scenario is not None:   # its replays are named after it, not the last one
            self.live.recorder_factory = self.app.recorder_factory(scenario, stem)
        self.live.restart(seed=seed, scenario=scenario)
        self.selected = min(self.selected, len(self.match.controllers) - 1)
        self.player_chosen = False
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

    def flash(self, msg: str, seconds: float = 3.0) -> None:
        """A toast over the tree panels for `seconds`."""
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
        if played and self.layout:
            self.follow_live_player()
        if self.layout and self.seats.hidden and self._seat_sig != self._viewer():
            # a person took a seat over or let it go, or the game ended: the
            # "view as" picker offers other views, the panels hide or show
            self._build_widgets()
            self.hover_info, self.matrix_hover = None, None   # no box of a hidden tree
            if self.animation is not None:
                self._end_animation()
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

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        L = self.layout
        if not L:
            return
        self._draw_top(surface, L["top"])
        view, prev = self.live.view, self.live.prev_view
        human = self._human_agent()
        self.board.draw(surface, L["board"], view, prev, self.live.alpha,
                        self.seats.context(self._board_context(human), *self._viewer()))
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
            draw_result(surface, L["board"], self.live.result)
        self._draw_controls_frame(surface, L["controls"])
        draw_meters(surface, L["right"], self.match, self.plugin, view, self.colors,
                    # the evaluation reads every hand (goofspiel: the card sums):
                    # no scores in a seat's view
                    self.live.last_record.scores if self.live.last_record
                    and not self.hidden_agents() else None,
                    self.change_log)
        self._draw_trees(surface, L["panels"])
        self.widgets.draw(surface)   # after the panels: their view switches sit on them
        if self.widgets.dropdown_open():
            pass   # an open dropdown is on top: no hover box over its list
        elif self.hover_info is not None:
            self.trees[self.hover_info.agent].draw_tooltip(surface, self.hover_pos, self.hover_info)
        elif self.matrix_hover is not None and self.matrix_hover[0].hovered is not None:
            # the view's current numbers: a new matrix under a resting mouse updates them
            self.matrix_hover[0].draw_tooltip(surface, self.hover_pos, self.matrix_hover[0].hovered)
        else:
            tip = self.widgets.tooltip_at(self.hover_pos) or self.panel_term_tip(self.hover_pos)
            if tip:
                draw_tooltip(surface, self.hover_pos, tip, max_width=420)   # long tips wrap
            else:   # a pinned node keeps its numbers on screen, off the node
                for g, tv, panel in self._panel_views(visible=True):
                    area = self._panel_areas(g, panel)[0]
                    if area is not None:
                        tv.draw_pinned(surface, area)
        self.widgets.draw_popups(surface)   # an open list stays on top of the panels
        self.explorer.draw(surface)
        if self.message and time.perf_counter() < self.message_until:
            draw_message(surface, self.message, L["trees"].y - 8)
        if self.show_help:
            self.help_rect = draw_help(surface)

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
                "view_as": self.seats.seat(*self._viewer()),   # None: all cards
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

"""What-ifs in the replay scene: re-search a recorded turn with other settings.

The panel (it takes the charts' column while open, W) picks an agent whose
player searched, edits that player's settings as they were in force at the
shown turn (the knobs the arena offers for its algorithm, pickers and
toggles included), a budget in iterations and whether to start from the tree
the recorded search kept, and runs sandbox.replay.research on a worker
thread. Every run of a turn stays listed; the one chosen is compared with the
recorded decision: per move, the recorded and the new share of the root
visits, the change highlighted, the values, the move decided and what
changed most (ResearchReport.difference), and its tree beside the recorded
one in the tree area.
"""
from __future__ import annotations

import dataclasses
import math
import threading
from dataclasses import dataclass, field
from typing import Any, get_args

import pygame

from ..native import SandboxError, SearchParams
from ..render import palette as pal
from ..render.fonts import elide, text
from ..games import plugin as game_plugin
from ..replay.branch import in_force, weights_in_force
from ..replay.research import WEIGHTS, ResearchReport, research
from ..settings.glossary import setting_tip, term_tip
from ..settings.seat import weighted_params
from ..settings.algorithms import (ALGORITHM_LABELS, CF_LABELS, CF_POLICIES, POLICY_ALGORITHMS,
                              PLAIN_ALGORITHMS, POLICY_LABELS, TREE_ALGORITHMS,
                              uses_average_strategy)
from ..ui import Button, Picker, Slider, Toggle, WidgetGroup
from .weight_slider import weight_slider

TREE_NODES = 2000             # rows of a what-if's tree kept for its view
MAX_LISTED = 6                # what-ifs of one turn listed at once (the latest)
UP, DOWN = (110, 200, 120), (240, 110, 100)

# The arena's ranges and labels (a value outside a range stretches it, as there)
RANGES: dict[str, tuple[float, float, bool]] = {   # field -> (lo, hi, log)
    "c": (0.0, 3.0, False), "exploration": (0.0, 1.0, False), "max_depth": (1, 40, False),
    "gamma": (0.80, 1.0, False), "random_threshold": (0, 100, False),
    "reuse_decay": (0.0, 1.0, False), "c_puct": (0.0, 5.0, False),
    "fpu_offset": (0.0, 2.0, False), "rollout_steps": (0, 50, False),
    "prior_temperature": (0.05, 20.0, True), "expansions_per_update": (0.1, 20.0, True),
    "leaf_rollouts": (1, 64, True), "expand_after": (1, 256, True)}
LABELS = {"c": "exploration C", "exploration": "exploration γ", "max_depth": "depth",
          "gamma": "gamma", "random_threshold": "random threshold",
          "reuse_decay": "reuse decay", "c_puct": "c_puct", "fpu_offset": "FPU offset",
          "rollout_steps": "rollout steps", "prior_temperature": "prior temperature",
          "elimination": "elimination:", "bounds": "bounds:", "final_move": "move:", "avg_weight": "avg:",
          "counterfactual": "exact regrets:",
          "priors": "priors:", "death_penalty": "death penalty", "rollout": "rollouts",
          "tree_reuse": "tree reuse", "depth_normalize": "depth-normalise",
          "transpositions": "transpositions", "algorithm": "", "policy": "",
          "expansions_per_update": "expansions / update", "expand_children": "add:",
          "alternating": "alternating", "leaf_rollouts": "rollouts / leaf",
          "expand_after": "expand after", "grow_tree": "growing tree"}
OPTION_LABELS = {"algorithm": ALGORITHM_LABELS, "policy": POLICY_LABELS,
                 "elimination": {"pass": "pass", "freeze": "freeze"},
                 "bounds": {"leaf": "leaf", "depth": "depth"},
                 "final_move": {"argmax": "argmax", "sample": "sample"},
                 "avg_weight": {"auto": "auto", "uniform": "uniform", "sqrt": "sqrt(t)",
                                "linear": "t"},
                 "counterfactual": CF_LABELS}


def knobs(p: SearchParams) -> list[str]:
    """The settings the arena offers for `p`'s algorithm (what it reads)."""
    out = ["algorithm"] + (["policy"] if p.algorithm in POLICY_ALGORITHMS else [])
    if p.algorithm == "mcgs":
        out += ["c_puct", "fpu_offset", "max_depth", "rollout_steps", "priors"]
        out += ["prior_temperature"] if p.priors == "heuristic" else []
        return out + ["tree_reuse", "transpositions"]
    if p.algorithm == "pubcfr":
        out += ["max_depth", "final_move", "tree_reuse", "grow_tree"]
        return out + (["expansions_per_update", "c_puct"] if p.grow_tree else [])
    if p.algorithm == "gtcfr":
        out += ["expansions_per_update", "c_puct", "max_depth", "leaf_rollouts", "expand_after",
                "priors"]
        out += ["prior_temperature"] if p.priors == "heuristic" else []
        return out + ["final_move", "expand_children", "alternating", "rollout", "tree_reuse"]
    if p.algorithm not in TREE_ALGORITHMS:
        return out
    if p.algorithm in PLAIN_ALGORITHMS:   # the textbook yardstick reads C alone
        return out + ["c"]
    sampling = uses_average_strategy(p.algorithm, p.policy)
    # random_threshold is the UCB family's warm-up; Exp3 / RM ignore it
    out += (["exploration", "max_depth", "gamma", "reuse_decay", "final_move", "avg_weight"]
            if sampling else ["c", "max_depth", "gamma", "random_threshold", "reuse_decay"])
    out += ["counterfactual"] if p.algorithm == "smitsimax" and p.policy in CF_POLICIES else []
    if p.ucb_takes_priors:   # priors turn UCB1 into decoupled PUCT
        out += ["priors"] + (["c_puct", "fpu_offset"] if p.priors != "uniform" else [])
        out += ["prior_temperature"] if p.priors == "heuristic" else []
    return out + ["elimination", "bounds", "death_penalty", "rollout", "tree_reuse",
                  "depth_normalize"]


def _widget(name: str, value: Any, rect: pygame.Rect):
    wid = f"wi_s_{name}"
    info = SearchParams.model_fields[name]
    choices = get_args(info.annotation)
    tip = setting_tip(name)
    if isinstance(value, bool):
        return Toggle(wid, rect.inflate(0, -8), LABELS.get(name, name), value, tip)
    if choices and all(isinstance(c, str) for c in choices):
        labels = OPTION_LABELS.get(name, {})
        return Picker(wid, (rect.x, rect.y + 3, rect.w, 24), LABELS.get(name, name),
                      [(c, labels.get(c, c)) for c in choices], value, tip)
    lo, hi, log = RANGES.get(name, (0.0, max(1.0, float(value)), False))
    lo, hi = min(lo, value), max(hi, value)
    integer = isinstance(value, int)
    return Slider(wid, rect, LABELS.get(name, name), lo, hi, value,
                  step=1 if integer else (0.0 if log else 0.005 if hi <= 1 else 0.05),
                  integer=integer, log=log, fmt="{}" if integer else "{:.3g}", tooltip=tip)


def _weight_widget(plugin, game_params, key: str, value: float, rect: pygame.Rect) -> Slider:
    """A slider for weights.NAME (as the arena's)."""
    return weight_slider(plugin, game_params, key[len(WEIGHTS):], value, f"wi_s_{key}", rect)


@dataclass
class WhatIf:
    """One re-search of a turn: what was asked, and (once run) the report."""
    turn: int
    agent: int
    changes: dict[str, Any]
    iterations: int
    keep_tree: bool
    report: ResearchReport | None = None
    error: str = ""
    done: bool = False
    number: int = 0

    def label(self) -> str:
        what = ", ".join(f"{k.removeprefix(WEIGHTS)} {_v(v)}"
                         for k, v in self.changes.items()) or "as recorded"
        head = f"#{self.number} agent {self.agent}: {what}, {self.iterations:,} it"
        if self.keep_tree:
            head += ", kept tree"
        if not self.done:
            return head + "  (running…)"
        if self.error:
            return head + f"  failed: {self.error}"
        r = self.report
        move = (f"{r.recorded_move_name}→{r.move_name}" if r.move_changed
                else f"{r.move_name} (same)")
        return f"{head}  {move}"


def _v(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


class WhatIfPanel:
    """State and widgets of the what-if panel; the replay scene routes its
    UI events here (ids "wi_...") and draws it in the charts' column."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.replay = scene.replay
        h = self.replay.header
        self.search_agents = [a for p in h.players if p.search is not None for a in p.agents]
        self.agent = self.search_agents[0] if self.search_agents else None
        self.changes: dict[str, Any] = {}
        self.iterations: int | None = None     # None: the recorded count of the turn
        self.keep_tree = False
        self.runs: dict[int, list[WhatIf]] = {}   # turn -> its what-ifs, in run order
        self.chosen: dict[int, int] = {}           # turn -> index of the one compared
        self._count = 0
        self._thread: threading.Thread | None = None
        self.running: WhatIf | None = None
        self.message = ""
        self.show_weights = False      # the grid shows the evaluation weights
        self._recorded: dict[tuple[int, int], SearchParams | None] = {}
        self.plugin = game_plugin(h.game)
        gp = h.scenario.get("game_params")
        self.base_params = dict(gp) if isinstance(gp, dict) else {}

    # ------------------------------------------------------------ settings
    def owner(self, agent: int) -> int:
        return next(p.player for p in self.replay.header.players if agent in p.agents)

    def recorded_settings(self, turn: int | None = None) -> SearchParams | None:
        """The chosen agent's player's settings when its search began at
        `turn` (what research() starts from)."""
        if self.agent is None:
            return None
        key = (self.owner(self.agent), self.scene.turn if turn is None else turn)
        if key not in self._recorded:      # drawn every frame: read the file once per turn
            search, _ = in_force(self.replay, *key)
            try:
                self._recorded[key] = SearchParams(**search)
            except (TypeError, ValueError):
                self._recorded[key] = None
        return self._recorded[key]

    def settings(self) -> SearchParams | None:
        rec = self.recorded_settings()
        if rec is None:
            return None
        try:
            return rec.replace(**self.changes)
        except (TypeError, ValueError):
            return rec

    def recorded_iterations(self, turn: int | None = None) -> int:
        line = self.replay.by_turn.get(self.scene.turn if turn is None else turn)
        if line is None or self.agent is None:
            return 0
        pt = line.player_of(self.agent)
        return pt.iterations if pt is not None else 0

    def budget(self) -> int:
        return self.iterations or self.recorded_iterations() or 1000

    def recorded_weight(self, name: str) -> float:
        """An evaluation weight as the chosen agent's player used it at the
        shown turn (its own, else the scenario's)."""
        own = weights_in_force(self.replay, self.owner(self.agent), self.scene.turn) \
            if self.agent is not None else {}
        if name in own:
            return float(own[name])
        try:
            return self.plugin.weight_value(self.base_params, name)
        except (ValueError, AttributeError):
            return 0.0

    def value(self, key: str) -> Any:
        """A setting (or weights.NAME) as the next run will use it."""
        if key in self.changes:
            return self.changes[key]
        if key.startswith(WEIGHTS):
            return self.recorded_weight(key[len(WEIGHTS):])
        p = self.recorded_settings()
        return getattr(p, key) if p is not None else None

    def recorded_value(self, key: str) -> Any:
        if key.startswith(WEIGHTS):
            return self.recorded_weight(key[len(WEIGHTS):])
        p = self.recorded_settings()
        return getattr(p, key) if p is not None else None

    def set_setting(self, name: str, value: Any) -> bool:
        """Edit one setting or weights.NAME (False and a message: refused)."""
        rec = self.recorded_settings()
        if rec is None:
            return False
        new = dict(self.changes, **{name: value})
        try:
            rec.replace(**{k: v for k, v in new.items() if not k.startswith(WEIGHTS)})
            weighted_params(self.replay.header.game, self.base_params,
                            {k[len(WEIGHTS):]: v for k, v in new.items()
                             if k.startswith(WEIGHTS)})
        except (TypeError, ValueError, SandboxError) as exc:
            self.message = f"{name}: {str(exc).splitlines()[-1].strip()}"
            return False
        self.changes = {k: v for k, v in new.items() if self.recorded_value(k) != v}
        return True

    # ------------------------------------------------------------ runs
    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def run(self) -> WhatIf | None:
        """Start a re-search of the shown turn (one at a time)."""
        turn = self.scene.turn
        if self.busy:
            self.message = "a what-if is running"
            return None
        if self.agent is None:
            self.message = "no player of this match searched: nothing to re-search"
            return None
        if self.replay.by_turn.get(turn) is None:
            self.message = f"turn {turn}: no decision recorded there"
            return None
        changes = {k: v for k, v in self.changes.items() if self.recorded_value(k) != v}
        self._count += 1
        w = WhatIf(turn, self.agent, changes, self.budget(), self.keep_tree,
                   number=self._count)
        listed = self.runs.setdefault(turn, [])
        listed.append(w)
        self.chosen[turn] = len(listed) - 1
        self.running = w
        self.message = ""
        # research() replays the player's search from the start: its own
        # Replay (the scene's caches are not shared with a worker thread)
        copy = dataclasses.replace(self.replay, _checkpoints={}, _cursor=None)
        self._thread = threading.Thread(target=self._work, args=(w, copy), daemon=True,
                                        name="what-if")
        self._thread.start()
        return w

    @staticmethod
    def _work(w: WhatIf, replay) -> None:
        try:
            w.report = research(replay, w.turn, w.agent, w.changes, iterations=w.iterations,
                                keep_tree=w.keep_tree, tree_nodes=TREE_NODES)
        except SandboxError as exc:
            w.error = str(exc)
        except Exception as exc:     # a bug: shown, never a dead UI
            w.error = f"{type(exc).__name__}: {exc}"
        finally:
            replay.close()
            w.done = True

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def listed(self, turn: int | None = None) -> list[WhatIf]:
        return self.runs.get(self.scene.turn if turn is None else turn, [])

    def shown(self) -> WhatIf | None:
        """The what-if compared at the shown turn."""
        items = self.listed()
        if not items:
            return None
        return items[min(self.chosen.get(self.scene.turn, len(items) - 1), len(items) - 1)]

    def close(self) -> None:
        self.wait(5.0)

    # ------------------------------------------------------------ widgets
    def build(self, g: WidgetGroup, r: pygame.Rect) -> int:
        """Adds the panel's widgets in `r`; the y where the comparison starts."""
        x, y, w = r.x, r.y + 22, r.w
        if self.agent is None:
            return y
        names = self.replay.header.names
        half = (w - 8) // 2
        g.add(Picker("wi_agent", (x, y, half, 24), "agent:",
                     [(a, f"{a} {names[a]}"[:14]) for a in self.search_agents], self.agent,
                     "whose search to re-run (its player's settings at this turn)"))
        it = self.budget()
        g.add(Slider("wi_iterations", (x + half + 8, y - 6, w - half - 8, 30), "iterations",
                     10, max(100_000, it), it, integer=True, log=True, fmt="{:,}",
                     tooltip="the re-search's budget (default: what the recorded search "
                             "ran at this turn)"))
        y += 28
        g.add(Toggle("wi_keep", (x, y, half, 22), "from the kept tree", self.keep_tree,
                     "start from the tree the recorded search kept from earlier turns "
                     "(tree reuse on), not a fresh one"))
        bw = (w - half - 8 - 8) // 3
        g.add(Button("wi_run", (x + half + 8, y, bw, 22), "Run",
                     "re-search this turn with these settings (Enter)"))
        g.add(Button("wi_reset", (x + half + 8 + bw + 4, y, bw, 22), "Reset",
                     "back to the recorded settings"))
        g.add(Button("wi_clear", (x + half + 8 + 2 * (bw + 4), y, bw, 22), "Clear",
                     "forget this turn's what-ifs"))
        y += 28
        b = g.add(Button("wi_weights", (r.right - 56, r.y, 56, 20), "weights",
                         term_tip("weights") + "; again: the search settings"))
        b.toggled = self.show_weights
        p = self.settings()
        cols = 2
        cw = (w - 8) // cols
        names = ([WEIGHTS + n for n in self.plugin.weight_names(self.base_params)] if self.show_weights
                 else knobs(p) if p is not None else [])
        for i, name in enumerate(names):
            cx = x + (i % cols) * (cw + 8)
            cy = y + (i // cols) * 31
            rect = pygame.Rect(cx, cy, cw, 30)
            g.add(_weight_widget(self.plugin, self.base_params, name, self.value(name), rect)
                  if name.startswith(WEIGHTS) else _widget(name, getattr(p, name), rect))
        n = len(names)
        y += ((n + cols - 1) // cols) * 31 + 4
        items = self.listed()[-MAX_LISTED:]
        first = len(self.listed()) - len(items)
        for i, wi in enumerate(items):
            b = g.add(Button(f"wi_pick{first + i}", (x, y, w, 18),
                             elide(wi.label(), 11, w - 8),
                             "compare this what-if with the recorded decision"))
            b.toggled = wi is self.shown()
            y += 20
        return y + 4

    def on_ui(self, wid: str, value: Any) -> bool:
        """A UI event of the panel; True: the widgets must be rebuilt."""
        if wid == "wi_run":
            self.run()
            return True
        if wid == "wi_weights":
            self.show_weights = not self.show_weights
            return True
        if wid == "wi_reset":
            self.changes = {}
            return True
        if wid == "wi_clear":
            self.runs.pop(self.scene.turn, None)
            self.chosen.pop(self.scene.turn, None)
            return True
        if wid.startswith("wi_pick"):
            self.chosen[self.scene.turn] = int(wid[len("wi_pick"):])
            return True
        if wid == "wi_agent":
            self.agent = int(value)
            self.iterations = None
            return True
        if wid == "wi_iterations":
            self.iterations = int(value)
            return False
        if wid == "wi_keep":
            self.keep_tree = bool(value)
            return False
        if wid.startswith("wi_s_"):
            name = wid[len("wi_s_"):]
            ok = self.set_setting(name, value)
            # a refused value goes back; the algorithm or policy changes the knobs
            return not ok or name in ("algorithm", "policy", "priors", "grow_tree")
        return False

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, r: pygame.Rect, top: int,
             table: pygame.Rect) -> None:
        """The header at r.y, below the widgets (from `top`) what the chosen
        what-if found; its per-move comparison in `table` (the tree area's
        left)."""
        surface.fill(pal.PANEL, table)
        pygame.draw.line(surface, pal.BORDER, table.topright, table.bottomright)
        surface.fill(pal.PANEL, r)
        turn = self.scene.turn
        head = f"What if — turn {turn}"
        if self.agent is not None:
            p = self.settings()
            alg = ALGORITHM_LABELS.get(p.algorithm, p.algorithm) if p is not None else "?"
            head += f", agent {self.agent} ({alg})"
        surface.blit(text(elide(head, 13, r.w - 50, bold=True), 13, pal.TEXT, bold=True),
                     (r.x + 2, r.y + 2))
        clip = surface.get_clip()
        surface.set_clip(r.clip(clip) if clip else r)     # nothing spills onto the timeline
        try:
            self._draw_below(surface, r, top, table)
        finally:
            surface.set_clip(clip)

    def _draw_below(self, surface, r: pygame.Rect, top: int, table: pygame.Rect) -> None:
        y = top
        if self.agent is None:
            surface.blit(text("no player of this match searched", 12, pal.TEXT_DIM), (r.x, y))
            return
        if self.message:
            surface.blit(text(elide(self.message, 11, r.w), 11, pal.WARN), (r.x, y))
            y += 15
        if self.changes:
            what = ", ".join(f"{k.removeprefix(WEIGHTS)} {_v(self.recorded_value(k))}→{_v(v)}"
                             for k, v in self.changes.items())
            surface.blit(text(elide(f"changed: {what}", 11, r.w), 11, pal.ACCENT), (r.x, y))
            y += 15
        for note in self.kept_tree_notes():
            for part in _wrap(note, 11, r.w):
                surface.blit(text(part, 11, pal.WARN), (r.x, y))
                y += 14
        wi = self.shown()
        if wi is None:
            surface.blit(text("Run re-searches this turn; each run is listed above.", 12,
                              pal.TEXT_DIM), (r.x, y))
            return
        if not wi.done:
            surface.blit(text(f"#{wi.number}: replaying the player's search to turn "
                              f"{wi.turn}, then {wi.iterations:,} iterations…", 12, pal.TEXT_DIM),
                         (r.x, y))
            return
        if wi.error:
            for part in _wrap(wi.error, 11, r.w):
                surface.blit(text(part, 11, pal.ERROR), (r.x, y))
                y += 14
            return
        clip = surface.get_clip()
        surface.set_clip(table)
        try:
            self._draw_comparison(surface, table.inflate(-16, -10), wi)
        finally:
            surface.set_clip(clip)

    def kept_tree_notes(self) -> list[str]:
        """What the view says about the recorded search's start at this turn."""
        if self.agent is None or self.scene.turn <= self.replay.start_turn:
            return []
        rec = self.recorded_settings()
        if rec is None or not rec.tree_reuse or self.recorded_iterations() == 0:
            return []
        return ["the recorded search began from a kept tree (tree reuse on): a fresh "
                "tree need not reproduce its visits; 'from the kept tree' starts there"]

    def comparison_lines(self, wi: WhatIf | None = None) -> list[tuple[str, int, int, str]]:
        """Per move: (name, recorded visits, new visits, Δshare text) — what
        the comparison draws, for tests and the state file."""
        wi = wi or self.shown()
        if wi is None or wi.report is None:
            return []
        return [(row.name, row.recorded_visits or 0, row.visits or 0,
                 "-" if math.isnan(row.share_change) else f"{row.share_change * 100:+.0f}%")
                for row in wi.report.rows]

    def _draw_summary(self, surface, r: pygame.Rect, wi: WhatIf) -> int:
        """What changed, in words (the highlighted line), and how it ran; the
        y below it."""
        rep = wi.report
        x, y = r.x, r.y
        for part in _wrap(rep.difference(), 12, r.w, rep.move_changed):
            surface.blit(text(part, 12, pal.WARN if rep.move_changed else pal.TEXT,
                              bold=rep.move_changed), (x, y))
            y += 15
        start = "the kept tree" if rep.from_kept_tree else "a fresh tree"
        surface.blit(text(elide(f"{rep.iterations:,} iterations from {start}; recorded "
                                f"{rep.recorded_iterations:,}", 11, r.w), 11, pal.TEXT_DIM),
                     (x, y))
        return y + 16

    def _draw_comparison(self, surface, r: pygame.Rect, wi: WhatIf) -> None:
        rep = wi.report
        color = self.scene.colors[wi.agent]
        x, y = r.x, r.y
        surface.blit(text(elide(f"what-if #{wi.number} vs the recorded search (agent "
                                f"{wi.agent})", 12, r.w, bold=True), 12, color, bold=True),
                     (x, y))
        y = self._draw_summary(surface, pygame.Rect(x, y + 18, r.w, r.h), wi)
        name_w, num_w = 70, 50
        bar_w = max(30, (r.w - name_w - 2 * num_w - 60) // 2)
        surface.blit(text("move", 10, pal.TEXT_DIM), (x, y))
        surface.blit(text("recorded", 10, pal.TEXT_DIM), (x + name_w, y))
        surface.blit(text(f"what-if #{wi.number}", 10, pal.TEXT_DIM),
                     (x + name_w + bar_w + num_w + 4, y))
        y += 13
        big = max((abs(row.share_change) for row in rep.rows
                   if not math.isnan(row.share_change)), default=0.0)
        for row in rep.rows:
            if y + 16 > r.bottom:
                break
            changed = (row.move in (rep.move, rep.recorded_move) and rep.move_changed) or (
                not math.isnan(row.share_change) and big > 0.005
                and abs(row.share_change) == big)
            if changed:
                pygame.draw.rect(surface, pal.PANEL_HI, (x - 2, y - 1, r.w, 16))
            mark = ("▶ " if row.move == rep.move else "  ")
            surface.blit(text(elide(mark + row.name, 11, name_w - 4), 11,
                              pal.TEXT if changed else pal.TEXT_DIM), (x, y))
            bx = x + name_w
            for share, visits, col in ((row.recorded_share, row.recorded_visits, pal.BORDER),
                                       (row.share, row.visits, color)):
                s = 0.0 if math.isnan(share) else share
                pygame.draw.rect(surface, pal.GRID, (bx, y + 3, bar_w, 9))
                pygame.draw.rect(surface, col, (bx, y + 3, int(bar_w * s), 9))
                surface.blit(text("-" if visits is None else f"{visits:,}", 10, pal.TEXT_DIM),
                             (bx + bar_w + 3, y + 1))
                bx += bar_w + num_w + 4
            d = row.share_change
            if not math.isnan(d):
                dc = UP if d > 0.0005 else DOWN if d < -0.0005 else pal.TEXT_DIM
                surface.blit(text(f"{d * 100:+.0f}%", 11, dc, bold=changed), (bx, y))
            y += 16


def _wrap(s: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Words into lines that fit `width` pixels."""
    from ..render.fonts import font
    f = font(size, bold)
    out, line = [], ""
    for word in s.split():
        cand = f"{line} {word}".strip()
        if f.size(cand)[0] <= width or not line:
            line = cand
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


__all__ = ["WhatIf", "WhatIfPanel", "knobs"]
